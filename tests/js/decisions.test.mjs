// The decision-tool CLI commands (advise, plan, mig, levers, compare, energy, tco): JSON contracts and exit
// codes, over the real wasm module and data files.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cliIn, cliJson, loadEngine, tmpFile } from './helpers.mjs';

const json = (args) => cliJson([...args, '--json']);

test('advise --params 7e9 recommends a configuration that fits per the memory model', async () => {
  const j = (await json(['advise', '--params', '7e9']));
  assert.ok(j.recommendations.length >= 1);
  const rec = j.recommendations[0];
  for (const k of ['gpu', 'gpu_count', 'pricing', 'reason']) assert.ok(k in rec, k);
  assert.equal(rec.memory.fits, true);
  // 7e9 × 16 B = 112 GB of weights, gradients and AdamW state: more than one GPU of any class on the ladder.
  assert.ok(rec.gpu_count >= 2);
  assert.equal(j.article.gpu_class, 'A100 40GB');
  assert.equal(typeof j.memory_model.agrees_with_article, 'boolean');
  assert.equal(j.stage_billing.pricing, 'spot');
});

// Where the advisor does not use the stage's billing, its note gives the true reason: the stage's billing costs more,
// or (as cheap or cheaper) it takes longer than the one recommended.
test('advise: a note that passes over the stage\'s billing says why truly (costlier, or slower for the horizon)', async () => {
  const notes = [];
  for (const args of [['--params', '70e9', '--mode', 'lora', '--tokens', '2e8', '--deadline', '48'], ['--params', '7e9', '--mode', 'finetune', '--tokens', '1e8'],
    ['--params', '13e9', '--stage', 'production'], ['--params', '70e9', '--mode', 'lora', '--tokens', '2e8'], ['--preset', 'llama3.1-70b-pretrain']]) {
    const j = await json(['advise', ...args]);
    const walk = (x) => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') {
        if (typeof x.code === 'string' && x.code.startsWith('advise.stage_rule')) notes.push({ args, ...x });
        Object.values(x).forEach(walk);
      }
    };
    walk(j);
  }
  const costlier = notes.filter((n) => n.code === 'advise.stage_rule_costlier' || n.code === 'advise.stage_rule_costlier_terms');
  // "(whole terms)" is said of a commitment's cost only: spot and on-demand bill the hours used.
  for (const n of costlier) assert.equal(n.code.endsWith('_terms'), ['reserved', 'monthly', 'yearly'].includes(n.params.pricing), JSON.stringify(n));
  const slower = notes.filter((n) => n.code === 'advise.stage_rule_slower');
  assert.ok(costlier.length + slower.length > 0, 'some rung passes over the stage\'s billing');
  for (const n of costlier) assert.ok(n.params.cost_usd > n.params.used_cost_usd, JSON.stringify(n));
  assert.ok(costlier.some((n) => n.code === 'advise.stage_rule_costlier' && n.params.pricing === 'spot'), 'a costlier spot rule, without whole terms');
  for (const n of slower) {
    assert.ok(n.params.cost_usd <= n.params.used_cost_usd && n.params.time_hours > n.params.used_time_hours, JSON.stringify(n));
    assert.ok(n.params.horizon_hours > 0);
  }
});

test('advise --params 1.75e11 recommends a multi-GPU cluster with sharding', async () => {
  const j = (await json(['advise', '--params', '1.75e11', '--stage', 'production']));
  const rec = j.recommendations[0];
  assert.equal(rec.memory.fits, true);
  assert.ok(rec.gpu_count >= 39, `${rec.gpu_count}`);  // 2800 GB of state / 73.6 GB usable per GPU
  assert.ok(rec.nodes > 1);
  assert.notEqual(rec.sharding, '', 'sharded, not plain data parallel');
  assert.equal(j.memory_model.agrees_with_article, true);
  assert.equal(j.stage_billing.pricing, 'reserved');
  // Human-readable output names the article's rule and the memory model's verdict.
  const text = (await cliIn(['advise', '--params', '1.75e11']));
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /article §4\.1: +> 10B parameters/);
  assert.match(text.stdout, /memory model: .*agrees with the article/);
});

test('plan --example article reports mix, yearly cost, saving, completion and its assumptions', async () => {
  const j = (await json(['plan', '--example', 'article']));
  for (const k of ['reserved', 'on_demand', 'spot']) assert.equal(typeof j.mix[k], 'number', k);
  assert.ok(Math.abs(j.mix.reserved + j.mix.on_demand + j.mix.spot - 1) < 1e-9);
  for (const k of ['annual_cost_usd', 'on_demand_only_cost_usd', 'saving', 'completion_rate']) assert.equal(typeof j[k], 'number', k);
  assert.ok(Math.abs(j.saving - (1 - j.annual_cost_usd / j.on_demand_only_cost_usd)) < 1e-12);
  assert.ok(j.completion_rate >= 0.987);
  for (const [k, v] of Object.entries(j.assumptions)) assert.ok(v.source && v.source.code && v.source.text.length > 0, k);
  assert.match(j.assumptions.on_demand_usd_per_gpu_hour.source.text, /p4d\.24xlarge/);
  assert.equal(j.article_claim.saving, 0.58);
  assert.ok(j.findings.some((f) => /58 %/.test(f.text)));
});

test('plan --demand reads a demand file; bad demand exits 1 with the JSON path', async () => {
  // p4d.24xlarge is sold in many regions; the us-east-1 offer is the one with a 1-year reserved price.
  const demand = { monthly_gpu_hours: Array(12).fill(5840), peak_gpus: 12, interruptible_fraction: 0.4, target_completion_rate: 0.99,
    instance: 'aws-p4d.24xlarge-us-east-1' };
  const j = (await json(['plan', '--demand', tmpFile('demand.json', JSON.stringify(demand))]));
  assert.ok(j.completion_rate >= 0.99);
  assert.ok(j.annual_cost_usd <= j.on_demand_only_cost_usd);
  const bad = (await cliIn(['plan', '--demand', tmpFile('bad.json', JSON.stringify({ ...demand, monthly_gpu_hours: [1, 2] }))]));
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /\/demand\/monthly_gpu_hours/);
  assert.equal((await cliIn(['plan'])).code, 2);
  assert.equal((await cliIn(['plan', '--example', 'article', '--demand', 'x.json'])).code, 2);
});

test('mig --gpu a100-sxm4-80gb --jobs 7x8gb packs seven 1g.10gb instances on one GPU', async () => {
  const j = (await json(['mig', '--gpu', 'a100-sxm4-80gb', '--jobs', '7x8gb']));
  assert.equal(j.fits, true);
  assert.equal(j.gpus_needed, 1);
  assert.equal(j.assignments.length, 7);
  assert.ok(j.assignments.every((a) => a.profile === '1g.10gb' && a.gpu_index === 0));
  assert.deepEqual(j.assignments.map((a) => a.start_slice).sort(), [0, 1, 2, 3, 4, 5, 6]);
  assert.ok(Math.abs(j.cost_per_job_usd - j.offer.usd_per_hour / 7) < 1e-12);
  assert.ok(Array.isArray(j.alternatives) && j.alternatives.some((a) => a.gpu === 't4'));
  const bad = (await cliIn(['mig', '--gpu', 't4', '--jobs', '2x8gb']));
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /no MIG profiles/);
  assert.equal((await cliIn(['mig', '--gpu', 'a100-sxm4-80gb'])).code, 2);
});

test('compare --preset yolov7-coco puts the model next to the article\'s 2.3× / 41 % claim', async () => {
  const j = (await json(['compare', '--preset', 'yolov7-coco', '--config', 'a100-sxm4-80gb:8', '--config', 'v100-sxm2-16gb:4']));
  assert.equal(j.configs.length, 2);
  const [a, v] = j.configs;
  assert.equal(a.gpu_count, 8);
  assert.equal(v.gpu_count, 4);
  assert.ok(Math.abs(j.article_claim.model_speedup - v.time_hours / a.time_hours) < 1e-9);
  assert.equal(j.article_claim.claimed_speedup, 2.3);
  for (const c of j.configs) assert.ok(c.explanation.text.length > 0 && c.usd_per_hour > 0);
  // Explicit prices and instance configs.
  const k = (await json(['compare', '--preset', 'yolov7-coco', '--config', 'a100-sxm4-80gb:8:20', '--config', 'p3.8xlarge']));
  assert.equal(k.configs[0].usd_per_hour, 20);
  assert.equal(k.configs[1].instance, 'p3.8xlarge');
  assert.equal((await cliIn(['compare', '--preset', 'yolov7-coco', '--config', 'a100-sxm4-80gb:8'])).code, 2);
  assert.equal((await cliIn(['compare', '--preset', 'yolov7-coco', '--config', 'a100-sxm4-80gb:x', '--config', 't4:1'])).code, 2);
  assert.equal((await cliIn(['compare', '--preset', 'yolov7-coco', '--config', 'nope-instance', '--config', 't4:1'])).code, 1);
});

test('levers show before/after time and cost for each lever', async () => {
  const j = (await json(['levers', '--preset', 'resnet50-imagenet', '--instance', 'p3.2xlarge', '--precision', 'fp32']));
  const names = j.levers.map((l) => l.lever);
  for (const n of ['mixed_precision', 'spot', 'reserved', 'mig', 'more_gpus', 'fewer_gpus']) assert.ok(names.includes(n), n);
  const amp = j.levers.find((l) => l.lever === 'mixed_precision');
  assert.equal(amp.applicable, true);
  assert.ok(amp.after.time_hours < amp.before.time_hours);
  assert.ok(Math.abs(amp.speedup - amp.before.time_hours / amp.after.time_hours) < 1e-9);
  assert.equal((await cliIn(['levers', '--preset', 'resnet50-imagenet', '--instance', 'nope'])).code, 1);
  assert.equal((await cliIn(['levers', '--preset', 'resnet50-imagenet'])).code, 2);
});

test('energy and tco show sourced defaults, the cooling comparison and the break-even utilisation', async () => {
  const en = (await json(['energy', '--gpu', 'a100-sxm4-80gb', '--count', '8', '--hours', '100']));
  // 8 × 400 W × 100 h × PUE 1.58 = 505.6 kWh.
  assert.ok(Math.abs(en.facility_energy_kwh - 505.6) < 1e-9);
  assert.equal(en.cooling_comparison.article_claim.pue, 1.05);
  for (const [k, v] of Object.entries(en.assumptions)) assert.ok(v.source.text.length > 0, k);
  const t = (await json(['tco', '--gpu', 'a100-sxm4-40gb', '--count', '8', '--hours', '100']));
  assert.equal(t.purchase_usd, 199000);
  assert.ok(t.break_even_utilisation > 0 && t.break_even_utilisation < 1);
  assert.ok(t.energy.facility_energy_kwh > 0);
  const need = (await cliIn(['tco', '--gpu', 'h100-sxm5-80gb']));
  assert.equal(need.code, 1);
  assert.match(need.stderr, /purchase_usd/);
  const ok = (await json(['tco', '--gpu', 'h100-sxm5-80gb', '--purchase-usd', '300000', '--rent-usd-per-gpu-hour', '2.5']));
  assert.ok(ok.break_even_utilisation > 0);
  assert.equal((await cliIn(['energy', '--gpu', 'a100-sxm4-80gb'])).code, 2);
  assert.equal((await cliIn(['tco'])).code, 2);
});

test('the engine client exposes the decision tools and throws GpuvalueError with a path', async () => {
  const e = await loadEngine();
  assert.equal(e.mig({ gpu: 'a100-sxm4-80gb', jobs: '7x8gb' }).gpus_needed, 1);
  assert.ok(e.advise({ params: 1e8 }).recommendations.length >= 1);
  assert.ok(e.plan({ example: 'article' }).saving > 0);
  assert.throws(() => e.compare({ preset: 'yolov7-coco', configs: [] }), (err) => err.name === 'GpuvalueError' && err.path === '/configs');
  assert.throws(() => e.energy({ gpu: 'a100-sxm4-80gb' }), (err) => err.path === '/hours');
  assert.ok(e.levers({ preset: 'bert-large-squad', instance: 'p4d.24xlarge' }).levers.length === 6);
  assert.ok(e.tco({ gpu: 'a100-sxm4-40gb' }).points.length === 4);
});
