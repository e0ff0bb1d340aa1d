// serveOffers: serve's question asked of many offers in one call (core/src/api/serve_offers.cpp), which the serving
// ranking uses (web/src/engine/serving.js). Its items must hold serve's own numbers for each offer and replica size,
// the ranking built on it must be the one built from serve offer by offer, and a wrong request must be refused with
// the path of what is wrong.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { servingOpsOf, replicaSizes, bestSplit, serveBase } from '../../web/src/engine/serving.js';

const engine = await loadEngine();
const offers = engine.catalogSummary();
const known = new Set(engine.gpus().map((g) => g.id));

// Two questions: on-demand with latency targets and a traffic rate; spot with an own model's shape over a preset.
const QUESTIONS = [
  { preset: 'llama3.1-70b', traffic: { requests_per_s: 20, input_tokens: 1000, output_tokens: 300 }, targets: { ttft_ms: 2000, tpot_ms: 100 } },
  { preset: 'llama3.1-8b', pricing: 'spot', weights: 'fp8', kv: 'fp8', software: 'typical', traffic: { requests_per_s: 3 }, targets: { tpot_ms: 40 } },
];

// serve's answer cut to the members serveOffers writes.
function cut(r) {
  const fits = r.memory.fits;
  return {
    offer: r.cost ? r.cost.offer.id : undefined, count: r.count, interconnect: r.interconnect, fabric: r.fabric,
    targets: { ttft_met: r.targets.ttft_met, tpot_met: r.targets.tpot_met, met: r.targets.met },
    memory: { fits },
    capacity: fits ? { batch: r.capacity.batch } : null,
    operating: fits ? { replicas: r.operating.replicas, ttft_ms: r.operating.ttft_ms, tpot_ms: r.operating.tpot_ms } : null,
    cost: fits ? { instances: r.cost.instances, spare_instances: r.cost.spare_instances, interruptions_per_instance_hour: r.cost.interruptions_per_instance_hour,
      replace_hours: r.cost.replace_hours, monthly_usd: r.cost.monthly_usd, usd_per_million_output: r.cost.usd_per_million_output,
      usd_per_million_input: r.cost.usd_per_million_input, usd_per_million_blended: r.cost.usd_per_million_blended } : null,
    hints: r.hints,
  };
}

test('each item holds serve\'s own numbers for that offer and replica size', () => {
  for (const q of QUESTIONS) {
    const pricing = q.pricing || 'on_demand';
    // Every 7th priced offer of a known GPU, at each of its replica sizes (a few hundred items across GPUs and links).
    const sample = offers.filter((o) => known.has(o.gpu) && o.prices.some((p) => p.model === pricing)).filter((_, i) => i % 7 === 0);
    const items = sample.flatMap((o) => replicaSizes(o.gpu_count).map((count) => ({ offer: o.id, count })));
    assert.ok(items.length > 150, `${items.length} items`);
    const a = engine.call('serveOffers', { ...q, offers: items });
    assert.equal(a.offers.length, items.length);
    let fitting = 0;
    items.forEach((it, i) => {
      const want = cut(engine.call('serve', { ...q, offer: it.offer, count: it.count }));
      if (!want.memory.fits) want.offer = it.offer;
      assert.deepEqual(a.offers[i], want, `${it.offer} × ${it.count}`);
      fitting += want.memory.fits ? 1 : 0;
    });
    assert.ok(fitting > 20 && fitting < items.length, `${fitting} of ${items.length} fit`);
  }
});

test('the serving ranking on serveOffers is the ranking built from serve offer by offer', () => {
  for (const q of QUESTIONS) {
    const filters = { include_examples: false, include_stale: true };
    const a = servingOpsOf(engine).serveRank({ serving: q, filters, curves: false, limit: 0 });
    assert.ok(a.ok && a.total > 500, `${a.total} rows`);
    // The reference: each priced offer's better split from one serve call per replica size.
    const pricing = q.pricing || 'on_demand';
    const base = serveBase(q);
    const best = new Map();
    for (const o of offers) {
      if (o.example || !known.has(o.gpu) || !o.prices.some((p) => p.model === pricing)) continue;
      best.set(o.id, bestSplit((r) => engine.tryCall('serve', r), { ...base, offer: o.id }, o.gpu_count));
    }
    const rows = a.rows;
    const seen = rows.reduce((n, r) => n + r.regions.length, 0);
    assert.equal(seen, best.size, 'every priced offer is a row or one of a row\'s regions');
    for (const r of rows) {
      const w = best.get(r.id);
      assert.ok(w && w.ok, r.id);
      assert.equal(r.replica_gpus, w.count, r.id);
      assert.equal(r.fits, w.memory.fits, r.id);
      assert.equal(r.met, Boolean(w.targets.met), r.id);
      if (r.fits) {
        assert.equal(r.usd_per_million_output, w.cost.usd_per_million_output, r.id);
        assert.equal(r.replicas, w.operating.replicas, r.id);
        assert.equal(r.ttft_ms, w.operating.ttft_ms, r.id);
      }
    }
  }
});

test('a wrong request is refused with the path of what is wrong', () => {
  const o = offers.find((x) => known.has(x.gpu) && x.gpu_count === 8 && x.prices.some((p) => p.model === 'on_demand'));
  const noSpot = offers.find((x) => known.has(x.gpu) && !x.prices.some((p) => p.model === 'spot'));
  const refused = (req) => {
    const a = engine.tryCall('serveOffers', req);
    assert.equal(a.ok, false, JSON.stringify(req).slice(0, 200));
    return a.issues.filter((i) => i.severity !== 'warning').map((i) => i.path);
  };
  assert.deepEqual(refused({ preset: 'llama3.1-8b' }), ['/offers']);
  assert.deepEqual(refused({ preset: 'llama3.1-8b', offers: 'x' }), ['/offers']);
  assert.deepEqual(refused({ preset: 'llama3.1-8b', offers: [{ offer: o.id }, { offer: 'no-such-offer' }] }), ['/offers/1/offer']);
  assert.deepEqual(refused({ preset: 'llama3.1-8b', offers: [{ offer: o.id, count: 16 }] }), ['/offers/0/count']);
  assert.deepEqual(refused({ preset: 'llama3.1-8b', offers: [{ offer: o.id, cnt: 2 }] }), ['/offers/0/cnt']);
  assert.deepEqual(refused({ preset: 'llama3.1-8b', offers: [7] }), ['/offers/0']);
  assert.deepEqual(refused({ preset: 'llama3.1-8b', pricing: 'spot', offers: [{ offer: noSpot.id }] }), ['/offers/0/offer']);
  assert.deepEqual(refused({ preset: 'no-such-model', offers: [{ offer: o.id }] }), ['/preset']);
  assert.deepEqual(refused({ preset: 'llama3.1-8b', gpu: 'h100', offers: [{ offer: o.id }] }), ['/gpu']);
  // Refusals change nothing: the same question asked right after answers as before.
  const ok = engine.call('serveOffers', { preset: 'llama3.1-8b', offers: [{ offer: o.id }] });
  assert.equal(ok.offers.length, 1);
  assert.equal(ok.offers[0].count, 8);
});
