// The serving question on the command line: `gpuvalue rank` with a serving preset, or `gpuvalue serve` without
// --gpu or --offer, ranks every catalog offer exactly as the page's worker does (web/src/engine/serving.js on the
// same engine), in both languages, with the offer filters; options of the other question are refused, not ignored.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cliIn, cliJson as json, loadEngine } from './helpers.mjs';
import { servingOpsOf } from '../../web/src/engine/serving.js';

const engine = await loadEngine();
const ops = servingOpsOf(engine);
const binom = (n, k) => { let c = 1; for (let i = 0; i < k; ++i) c = (c * (n - i)) / (i + 1); return c; };
const QUESTION = ['--rps', '20', '--input-tokens', '1000', '--output-tokens', '300', '--ttft-ms', '2000', '--tpot-ms', '100'];
const direct = (filters = {}) => ops.serveRank({ serving: { preset: 'llama3.1-70b',
  traffic: { requests_per_s: 20, input_tokens: 1000, output_tokens: 300 }, targets: { ttft_ms: 2000, tpot_ms: 100 } },
filters: { include_examples: false, include_stale: false, include_marketplace: true, ...filters }, curves: false, limit: 0 });

test('rank with a serving preset lists every offer as the page ranks it: $ per 1M output tokens, replicas, GPUs, TTFT, TPOT', async () => {
  const a = (await json(['rank', '--preset', 'llama3.1-70b', ...QUESTION, '--json']));
  const want = direct();
  assert.equal(a.evaluated_offers, want.total);
  assert.equal(a.met_count, want.met);
  assert.equal(a.results.length, want.rows.length);
  assert.ok(a.met_count > 20, `${a.met_count} offers meet the targets`);
  a.results.slice(0, 40).forEach((r, i) => {
    const w = want.rows[i];
    assert.equal(r.id, w.id, `row ${i + 1}`);
    assert.equal(r.usd_per_million_output, w.usd_per_million_output, r.id);
    assert.equal(r.replicas, w.replicas, r.id);
    assert.equal(r.gpus, w.gpus, r.id);
    assert.equal(r.ttft_ms, w.ttft_ms, r.id);
    assert.equal(r.tpot_ms, w.tpot_ms, r.id);
  });
  // Every row that meets the targets: 70B in bf16 needs more than one 80 GB GPU per replica, or a GPU of 141 GB+.
  const memory = new Map(engine.gpus().map((g) => [g.id, g.memory_gb]));
  for (const r of a.results.filter((x) => x.met)) {
    assert.ok(r.ttft_ms <= 2000 && r.tpot_ms <= 100, r.id);
    assert.ok(r.replica_gpus * memory.get(r.gpu) > 140, `${r.id}: ${r.replica_gpus}× ${r.gpu}`);
  }
  // The same answer from serve without hardware.
  assert.deepEqual((await json(['serve', '--preset', 'llama3.1-70b', ...QUESTION, '--json'])).results.map((r) => r.id), a.results.map((r) => r.id));
});

test('the serving ranking as text, in English and Chinese: a title with the question and one row per offer', async () => {
  const en = (await cliIn(['rank', '--preset', 'llama3.1-8b', '--rps', '1', '--ttft-ms', '2000', '--tpot-ms', '100', '--limit', '5', '--lang', 'en']));
  assert.equal(en.code, 0, en.stderr);
  const top = ops.serveRank({ serving: { preset: 'llama3.1-8b', traffic: { requests_per_s: 1 }, targets: { ttft_ms: 2000, tpot_ms: 100 } }, curves: false, limit: 1 }).rows[0];
  assert.match(en.stdout, /^llama3\.1-8b: \d+ of \d+ offers meet TTFT ≤ 2,000 ms and TPOT ≤ 100 ms at p\d+ for 1 requests\/s of /);
  assert.match(en.stdout, /\$\/1M out/);
  assert.ok(en.stdout.includes(top.instance), `the first row is ${top.instance}`);
  assert.equal(en.stdout.trim().split('\n').filter((l) => /^\s*\d+\s/.test(l)).length, 5, 'five rows with --limit 5');
  const zh = (await cliIn(['rank', '--preset', 'llama3.1-8b', '--rps', '1', '--ttft-ms', '2000', '--tpot-ms', '100', '--limit', '5', '--lang', 'zh']));
  assert.equal(zh.code, 0, zh.stderr);
  assert.match(zh.stdout, /个报价中有 \d+ 个/);
  assert.match(zh.stdout, /达标/);
  // Without a rate or targets: the title says what is asked (the cost per token at full load), not "0 requests/s"
  // and "TTFT ≤ - ms", and no replica count is shown as 0.
  const open = (await cliIn(['serve', '--preset', 'llama3.1-8b', '--limit', '3', '--lang', 'en']));
  assert.equal(open.code, 0, open.stderr);
  assert.match(open.stdout, /^llama3\.1-8b: \d+ of \d+ offers fit \(no latency target[^)]*\) for requests of 1,000 input and 300 output tokens \(no rate given/);
  assert.doesNotMatch(open.stdout, /0 requests\/s|≤ - ms/);
  const row = open.stdout.split('\n').find((l) => /^1\s/.test(l));
  assert.ok(row && !/\s0\s{2,}\d+\s/.test(row), row);
});

test('--no-marketplace leaves out resold hosts and keeps every other row in order; --include-stale adds offers', async () => {
  const all = (await json(['rank', '--preset', 'llama3.1-70b', ...QUESTION, '--json']));
  const own = (await json(['rank', '--preset', 'llama3.1-70b', ...QUESTION, '--no-marketplace', '--json']));
  assert.ok(all.results.some((r) => r.marketplace), 'the bundled catalog has marketplace hosts among the rows');
  assert.deepEqual(own.results.map((r) => r.id), all.results.filter((r) => !r.marketplace).map((r) => r.id));
  const stale = (await json(['serve', '--preset', 'llama3.1-70b', ...QUESTION, '--include-stale', '--json']));
  assert.equal(stale.stale_left_out, 0);
  assert.ok(all.stale_left_out > 0, 'the bundled catalog has prices past the staleness limit');
  assert.ok(stale.evaluated_offers > all.evaluated_offers, `${stale.evaluated_offers} rows with stale prices, ${all.evaluated_offers} without`);
});

test('options of the other question are refused with the reason, not ignored', async () => {
  const training = (await cliIn(['rank', '--preset', 'llama3.1-70b', '--budget', '100']));
  assert.equal(training.code, 2);
  assert.match(training.stderr, /--budget belongs to a training ranking; llama3\.1-70b is a serving preset/);
  const pricingGpu = (await cliIn(['serve', '--preset', 'llama3.1-70b', '--gpu', 'h100-sxm5-80gb', '--count', '4', '--pricing', 'spot']));
  assert.equal(pricingGpu.code, 2);
  assert.match(pricingGpu.stderr, /--pricing prices a catalog offer/);
  const serving = (await cliIn(['rank', '--preset', 'gpt3-175b', '--rps', '5']));
  assert.equal(serving.code, 2);
  assert.match(serving.stderr, /--rps belongs to a serving question/);
  const count = (await cliIn(['serve', '--preset', 'llama3.1-70b', '--count', '4']));
  assert.equal(count.code, 2);
  assert.match(count.stderr, /--gpu with --count, or --offer/);
  const unknown = (await cliIn(['serve', '--preset', 'no-such-model', '--json']));
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /\/preset/);
});

test('--pricing ranks every offer under one billing model: each row says it, offers without that price are counted', async () => {
  const a = (await json(['rank', '--preset', 'llama3.1-70b', ...QUESTION, '--pricing', 'reserved', '--json']));
  const want = ops.serveRank({ serving: { preset: 'llama3.1-70b', pricing: 'reserved',
    traffic: { requests_per_s: 20, input_tokens: 1000, output_tokens: 300 }, targets: { ttft_ms: 2000, tpot_ms: 100 } },
  filters: { include_examples: false, include_stale: false, include_marketplace: true }, curves: false, limit: 0 });
  assert.equal(a.pricing, 'reserved');
  assert.equal(a.unpriced_left_out, want.unpriced);
  assert.ok(a.unpriced_left_out > 0);
  assert.deepEqual(a.results.map((r) => [r.id, r.usd_per_million_output]), want.rows.map((r) => [r.id, r.usd_per_million_output]));
  assert.ok(a.results.every((r) => r.pricing === 'reserved' && r.term_months > 0));
  const text = (await cliIn(['rank', '--preset', 'llama3.1-70b', ...QUESTION, '--pricing', 'reserved', '--limit', '3', '--lang', 'en']));
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /reserved prices, by \$ per 1M output tokens/);
  assert.match(text.stdout, new RegExp(`left out: ${want.unpriced} offers have no reserved price`));
  assert.match(text.stdout, /reserved 12 mo/);
  const zh = (await cliIn(['rank', '--preset', 'llama3.1-70b', ...QUESTION, '--pricing', 'spot', '--limit', '3', '--lang', 'zh']));
  assert.equal(zh.code, 0, zh.stderr);
  assert.match(zh.stdout, /未列入：\d+ 个报价没有竞价价格/);
  const bad = (await cliIn(['rank', '--preset', 'llama3.1-70b', '--pricing', 'tiered', '--json']));
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /\/pricing/);
});

test('serve --offer --pricing prices one offer under that model, and refuses an offer without that price', async () => {
  const offers = engine.catalogSummary().filter((o) => !o.example && o.gpu === 'h100-sxm5-80gb' && o.gpu_count === 8);
  const spot = offers.find((o) => o.prices.some((p) => p.model === 'spot') && o.prices.some((p) => p.model === 'on_demand'));
  const noSpot = offers.find((o) => !o.prices.some((p) => p.model === 'spot'));
  assert.ok(spot && noSpot);
  const args = ['serve', '--preset', 'llama3.1-70b', '--offer', spot.id, '--count', '4', ...QUESTION];
  const od = (await json([...args, '--json']));
  const sp = (await json([...args, '--pricing', 'spot', '--json']));
  assert.equal(od.cost.offer.pricing, 'on_demand');
  assert.equal(sp.cost.offer.pricing, 'spot');
  const rate = (m) => spot.prices.find((p) => p.model === m).usd_per_hour;
  assert.equal(sp.cost.usd_per_instance_hour, rate('spot'));
  // The same tokens on more instances (the spares below) at another rate.
  assert.ok(Math.abs(sp.cost.usd_per_million_output / od.cost.usd_per_million_output - (rate('spot') * sp.cost.instances) / (rate('on_demand') * od.cost.instances)) < 1e-9);
  // On spot the same replicas need the same instances, plus spares for reclaimed ones: with the default rate (one
  // reclaim per instance-day, no catalog price gives its own) and 10 minutes to replace one, an instance is down
  // 1/145 of the time; spares are added until all those needed are up 99 % of the time.
  assert.equal(od.cost.spare_instances, 0);
  assert.equal(sp.cost.instances, od.cost.instances + sp.cost.spare_instances);
  assert.ok(Math.abs(sp.cost.instance_down_share - 1 / 145) < 1e-12);
  const u = 1 / 145;
  const n = od.cost.instances;
  const allUp = (spares) => { let p = 0; for (let k = 0; k <= spares; ++k) p += binom(n + spares, k) * u ** k * (1 - u) ** (n + spares - k); return p; };
  const want = [0, 1, 2, 3, 4, 5].find((spares) => allUp(spares) >= 0.99);
  assert.equal(sp.cost.spare_instances, want);
  assert.ok(want >= 1, 'the traffic needs more than one instance here, so spot keeps a spare');
  const spotText = (await cliIn([...args, '--pricing', 'spot', '--lang', 'en'])).stdout;
  assert.match(spotText, /\/h per instance, spot; price date/);
  assert.match(spotText, new RegExp(`1 reclaims per instance-day, each instance replaced in 10 min \\(down 0\\.7 % of the time\\): ${want} of the instances are spares`));
  const refused = (await cliIn(['serve', '--preset', 'llama3.1-70b', '--offer', noSpot.id, '--pricing', 'spot']));
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /\/pricing: instance ".*" has no spot price/);
});

test('serve --offer without --count splits the instance as the serving ranking does; --count fixes the split', async () => {
  const offer = 'aws-p5.48xlarge-us-east-1';
  const row = direct().rows.find((r) => r.id === offer);
  assert.ok(row, `${offer} is ranked`);
  const one = await json(['serve', '--preset', 'llama3.1-70b', '--offer', offer, ...QUESTION, '--json']);
  assert.equal(one.count, row.replica_gpus);
  assert.equal(one.cost.usd_per_million_output, row.usd_per_million_output);
  // Every other split of the 8 GPUs serves this question no cheaper while meeting the targets as well.
  for (const count of [1, 2, 4, 8]) {
    const r = await json(['serve', '--preset', 'llama3.1-70b', '--offer', offer, '--count', String(count), ...QUESTION, '--json']);
    assert.equal(r.count, count);
    if (r.targets.met && r.cost) assert.ok(r.cost.usd_per_million_output >= one.cost.usd_per_million_output, `${count} GPUs a replica`);
  }
  const text = await cliIn(['serve', '--preset', 'llama3.1-8b', '--offer', offer, '--lang', 'en']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /the instance's 8 GPUs as \d+ replicas? of \d+: the split that serves this cheapest/);
  // No rate: the load the answer is at, not "0 requests/s: 0 replicas".
  assert.match(text.stdout, /no rate given \(--rps or --tokens-per-day\): at \d+ % load \(batch [\d,]+ of at most [\d,]+\)/);
  // The batch it runs at is the engine's operating batch, below the largest batch of the capacity line.
  const full = await json(['serve', '--preset', 'llama3.1-8b', '--offer', offer, '--json']);
  const [, batch, most] = /at \d+ % load \(batch ([\d,]+) of at most ([\d,]+)\)/.exec(text.stdout).map((x) => Number(x.replace(/,/g, '')));
  assert.equal(batch, Math.round(full.operating.batch));
  assert.equal(most, full.capacity.batch);
  assert.ok(full.operating.batch < full.capacity.batch, `${full.operating.batch} < ${full.capacity.batch}`);
  assert.doesNotMatch(text.stdout, /for 0 requests\/s|1 instances/);
});
