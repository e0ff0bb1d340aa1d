// The serving ranking the page's worker and the widget run (web/src/engine/serving.js), on the real wasm engine and
// the bundled catalog: every row is the engine's own serve answer for that offer, the split of the offer's GPUs
// into replicas is the cheapest that meets the targets, rows that meet the targets come first by $ per million
// output tokens, and the picks are ones an inference engineer would sign.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { servingOpsOf, replicaSizes, serveBase, CURVE_TPOT_MS } from '../../web/src/engine/serving.js';

const engine = await loadEngine();
const ops = servingOpsOf(engine);
const memory = new Map(engine.gpus().map((g) => [g.id, g.memory_gb]));
const ask = (preset, rps, ttft = 2000, tpot = 100, extra = {}) => ops.serveRank({
  serving: { preset, traffic: { requests_per_s: rps }, targets: { ttft_ms: ttft, tpot_ms: tpot }, ...extra }, curves: true, limit: 0 });

test('replica sizes are the powers of two that divide the instance', () => {
  assert.deepEqual(replicaSizes(8), [1, 2, 4, 8]);
  assert.deepEqual(replicaSizes(6), [1, 2]);
  assert.deepEqual(replicaSizes(1), [1]);
  assert.deepEqual(replicaSizes(16), [1, 2, 4, 8, 16]);
});

test('the serve request leaves out what the user did not give (the engine\'s defaults apply)', () => {
  assert.deepEqual(serveBase({ preset: 'x', traffic: { requests_per_s: 3, input_tokens: 0 }, targets: { ttft_ms: 0, tpot_ms: 50 } }),
    { preset: 'x', traffic: { requests_per_s: 3 }, targets: { tpot_ms: 50 } });
  assert.deepEqual(serveBase({ preset: 'x', weights: 'fp8', kv: 'fp8' }), { preset: 'x', weights: 'fp8', kv: 'fp8' });
});

const a70 = ask('llama3.1-70b', 10);

test('each row is the engine\'s serve answer for its offer and replica size, and the cheapest split that meets the targets', () => {
  assert.ok(a70.ok && a70.rows.length > 20, 'a 70B ranking over the bundled catalog');
  const base = serveBase({ preset: 'llama3.1-70b', traffic: { requests_per_s: 10 }, targets: { ttft_ms: 2000, tpot_ms: 100 } });
  for (const r of a70.rows.filter((_, i) => i % 7 === 0).slice(0, 12)) {
    const direct = engine.serve({ ...base, offer: r.id, count: r.replica_gpus });
    assert.equal(r.fits, direct.memory.fits, r.id);
    assert.equal(r.met, direct.targets.met, r.id);
    if (!r.fits) continue;
    assert.equal(r.usd_per_million_output, direct.cost.usd_per_million_output, r.id);
    assert.equal(r.usd_per_million_input, direct.cost.usd_per_million_input, r.id);
    assert.equal(r.monthly_usd, direct.cost.monthly_usd, r.id);
    assert.equal(r.replicas, direct.operating.replicas, r.id);
    assert.equal(r.ttft_ms, direct.operating.ttft_ms, r.id);
    // No other split of the same instance meets the targets more cheaply.
    const gpuCount = r.gpu_count;
    for (const tp of replicaSizes(gpuCount)) {
      const other = engine.serve({ ...base, offer: r.id, count: tp });
      if (r.met && other.targets.met && other.cost) assert.ok(other.cost.usd_per_million_output >= r.usd_per_million_output, `${r.id} TP${tp}`);
      if (!r.met) assert.ok(!other.targets.met, `${r.id}: TP${tp} meets the targets but the row says none does`);
    }
  }
});

test('rows that meet the targets come first, by $ per million output tokens; misses and misfits below', () => {
  const rows = a70.rows;
  const firstMiss = rows.findIndex((r) => !r.met);
  assert.ok(firstMiss > 0, 'some offers meet the targets and some do not');
  assert.ok(rows.slice(firstMiss).every((r) => !r.met), 'no met row below a missed one');
  const met = rows.slice(0, firstMiss);
  for (let i = 1; i < met.length; ++i) assert.ok(met[i].usd_per_million_output >= met[i - 1].usd_per_million_output, `row ${i}`);
  assert.equal(a70.total, rows.length);
  assert.equal(a70.met, rows.filter((r) => r.met).length);
  assert.equal(ops.serveRank({ serving: { preset: 'llama3.1-70b', traffic: { requests_per_s: 10 }, targets: { ttft_ms: 2000, tpot_ms: 100 } }, curves: false }).rows.length, 200);
  rows.forEach((r, i) => assert.equal(r.rank, i + 1));
  assert.ok(rows.filter((r) => !r.fits).every((r) => r.hints.length > 0), 'an offer the model does not fit on says what would');
});

test('an inference engineer would sign the picks: 8B on one GPU at low load, 405B on a node of 80 GB+ GPUs in fp8', () => {
  const a8 = ask('llama3.1-8b', 1);
  const top8 = a8.rows.slice(0, 3);
  assert.ok(top8.every((r) => r.met && r.replica_gpus === 1 && r.replicas === 1 && memory.get(r.gpu) <= 48), '8B at 1 request/s: one replica on one 24-48 GB GPU');
  assert.ok(top8[0].usd_per_million_output < a70.rows[0].usd_per_million_output, '8B is cheaper per token than 70B');
  const a405 = ask('llama3.1-405b', 10);
  assert.equal(a405.weights, 'fp8');
  const met405 = a405.rows.filter((r) => r.met);
  assert.ok(met405.length > 0);
  for (const r of met405) assert.ok(memory.get(r.gpu) * r.replica_gpus >= 405e9 / 1e9, `${r.id}: a replica holds 405 GB of fp8 weights`);
  assert.ok(met405.slice(0, 5).every((r) => memory.get(r.gpu) >= 80 && r.interconnect === 'nvlink'), '405B: 80 GB+ GPUs over NVLink');
  const ds = ask('deepseek-v3', 10);
  assert.ok(ds.rows.filter((r) => r.met).slice(0, 5).every((r) => memory.get(r.gpu) >= 80 && r.replica_gpus >= 4), 'DeepSeek-V3: a node of 80 GB+ GPUs');
});

test('the throughput-per-GPU curve trades TPOT for throughput, and each point is the engine\'s capacity at that target', () => {
  assert.ok(a70.curves.length >= 1);
  for (const c of a70.curves) {
    assert.ok(c.points.length >= 3, `${c.gpu}: several batches`);
    for (let i = 1; i < c.points.length; ++i) {
      assert.ok(c.points[i].tpot_ms > c.points[i - 1].tpot_ms, `${c.gpu}: TPOT grows with the batch`);
      assert.ok(c.points[i].tokens_per_s_per_gpu > c.points[i - 1].tokens_per_s_per_gpu, `${c.gpu}: so does throughput per GPU`);
    }
    for (const p of c.points) {
      assert.ok(CURVE_TPOT_MS.includes(p.target_tpot_ms));
      const direct = engine.serve({ preset: 'llama3.1-70b', gpu: c.gpu, count: c.replica_gpus, interconnect: c.interconnect,
        targets: p.target_tpot_ms > 0 ? { tpot_ms: p.target_tpot_ms } : {} });
      assert.equal(direct.capacity.batch, p.batch, `${c.gpu} at ${p.target_tpot_ms} ms`);
      assert.equal(direct.capacity.tpot_ms, p.tpot_ms, `${c.gpu} at ${p.target_tpot_ms} ms`);
      assert.equal(direct.capacity.output_tokens_per_s / c.replica_gpus, p.tokens_per_s_per_gpu);
    }
  }
});

test('a fp8 KV cache holds more requests, so 70B serves more cheaply per token on the same offers', () => {
  const fp8 = ask('llama3.1-70b', 10, 2000, 100, { kv: 'fp8' });
  assert.equal(fp8.kv, 'fp8');
  const fp16Best = a70.rows.find((r) => r.met);
  const same = fp8.rows.find((r) => r.key === fp16Best.key);
  assert.ok(same && same.usd_per_million_output <= fp16Best.usd_per_million_output);
});

test('an unknown serving preset is an engine error with its JSON Pointer path', () => {
  const r = ops.serveRank({ serving: { preset: 'no-such-model' } });
  assert.equal(r.ok, false);
  assert.equal(r.error.path, '/preset');
  assert.equal(r.error.message.code, 'error.unknown_serving_preset');
});

test('the offer filters apply to serving: marketplace hosts can be hidden, providers and GPUs chosen', () => {
  const question = { preset: 'llama3.1-8b', traffic: { requests_per_s: 1 }, targets: { ttft_ms: 2000, tpot_ms: 100 } };
  const all = ops.serveRank({ serving: question, curves: false, limit: 0 });
  const marketplace = new Set(engine.catalogSummary().filter((o) => o.marketplace).map((o) => o.id));
  assert.ok(marketplace.size > 0, 'the bundled catalog has marketplace hosts');
  assert.ok(all.rows.some((r) => r.marketplace && marketplace.has(r.id)), 'by default marketplace hosts are ranked, and marked');
  assert.ok(all.rows.every((r) => r.marketplace === marketplace.has(r.id)), 'a row is marked exactly when its offer is a marketplace host');
  const own = ops.serveRank({ serving: question, filters: { include_marketplace: false }, curves: false, limit: 0 });
  assert.deepEqual(own.rows.filter((r) => r.marketplace), [], 'hidden: no marketplace host is left');
  assert.deepEqual(own.rows.map((r) => r.key), all.rows.filter((r) => !r.marketplace).map((r) => r.key),
    'hiding marketplace hosts keeps every other row in its order');
  const provider = own.rows[0].provider;
  const gpu = own.rows[0].gpu;
  const chosen = ops.serveRank({ serving: question, filters: { providers: [provider], gpus: [gpu] }, curves: false, limit: 0 });
  assert.ok(chosen.rows.length > 0 && chosen.rows.every((r) => r.provider === provider && r.gpu === gpu), `${provider} ${gpu}`);
});

test('a row names the link its replica\'s GPUs use as a buyer would: none for one GPU, Infinity Fabric for AMD', () => {
  const offers = new Map(engine.catalogSummary().map((o) => [o.id, o]));
  const rows = a70.rows.filter((r) => r.fits);
  assert.ok(rows.every((r) => (r.replica_gpus === 1) === (r.fabric === 'none')), 'one GPU: no link');
  const amd = rows.filter((r) => r.replica_gpus > 1 && offers.get(r.id).interconnect === 'infinity-fabric');
  assert.ok(amd.length > 0, 'multi-GPU MI300X replicas are ranked');
  assert.ok(amd.every((r) => r.fabric === 'infinity-fabric' && r.interconnect === 'nvlink'), 'AMD\'s fabric, the engine\'s scale-up link');
  const nv = rows.filter((r) => r.replica_gpus > 1 && ['nvlink', 'nvswitch'].includes(offers.get(r.id).interconnect));
  assert.ok(nv.some((r) => r.fabric === 'nvswitch') && nv.some((r) => r.fabric === 'nvlink'), 'NVSwitch nodes and NVLink bridges both ranked');
  assert.ok(nv.every((r) => r.fabric === offers.get(r.id).interconnect && r.interconnect === 'nvlink'), 'the offer\'s own fabric');
  // The row's fabric is the engine's serve answer's, not a rename of it.
  for (const r of rows.filter((_, i) => i % 9 === 0).slice(0, 10)) {
    assert.equal(engine.serve({ preset: 'llama3.1-70b', offer: r.id, count: r.replica_gpus }).fabric, r.fabric, r.id);
  }
});
