// One answer everywhere: asked about the same job, the advisor, the ranking, the levers, the planner and tco name
// the same offer at the same price, on the real wasm module and the real catalog. The advisor's answer carries the
// workload document it evaluated; rank and levers are asked with that document, tco and the planner with the
// recommended instance.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';

const engine = await loadEngine();

const close = (got, want, what) => assert.ok(Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: ${got} vs ${want}`);
const codes = (messages) => (messages || []).map((m) => m.code);

const JOBS = [
  { params: 13e9, stage: 'tuning', mode: 'finetune', tokens: 2e10 },
  { params: 7e9, stage: 'tuning' },
  { params: 1.3e9, stage: 'production' },
  { params: 7e9, stage: 'exploration' },
  { preset: 'llama2-7b-pretrain', stage: 'exploration' },
];

for (const ask of JOBS) {
  test(`advise ${JSON.stringify(ask)}: rank, levers, tco and plan name the recommended offer at its price`, () => {
    const a = engine.call('advise', ask);
    const rec = a.recommendations.find((r) => r.role === 'recommended');
    assert.ok(rec, 'the advisor recommends an offer');
    const id = rec.offer.id;
    assert.equal(a.workload.params, ask.params ?? engine.presets().find((p) => p.id === ask.preset).workload.params);

    // The ranking of the same workload prices the same offer and billing on the same GPUs at the same cost.
    const ranked = engine.call('rank', { workload: a.workload, pricing: 'all', limit: 0, filters: { gpus: [rec.gpu] } }).results;
    const same = ranked.find((x) => x.id === id && x.pricing === rec.pricing);
    assert.ok(same, `rank lists ${id} ${rec.pricing}`);
    assert.equal(same.total_gpus, rec.gpu_count, 'GPUs');
    assert.equal(same.nodes, rec.nodes, 'nodes');
    assert.equal(same.memory.sharding, rec.sharding, "sharding");
    close(same.cost_usd, rec.cost_usd, 'rank cost');
    close(same.time_hours, rec.time_hours, 'rank time');
    close(same.list_usd_per_hour * same.nodes, rec.offer.usd_per_hour, 'rank hourly list rate');

    // The levers start from the same baseline: that offer, those nodes, that cost.
    const l = engine.call('levers', { workload: a.workload, instance: id, pricing: rec.pricing });
    assert.equal(l.id, id);
    assert.equal(l.baseline.id, id);
    assert.equal(l.baseline.nodes, rec.nodes, 'levers nodes');
    close(l.baseline.cost_usd, rec.cost_usd, 'levers cost');

    // tco and the planner rent that offer at its on-demand rate per GPU, and name it.
    const onDemand = ranked.find((x) => x.id === id && x.pricing === 'on_demand');
    if (!onDemand) return;
    const perGpu = onDemand.list_usd_per_hour / onDemand.gpu_count;
    const t = engine.call('tco', { instance: id, count: rec.gpu_count, purchase_usd: 1e6 });
    assert.equal(t.rent_offer.id, id);
    close(t.rent_usd_per_gpu_hour, perGpu, 'tco rent');
    const energy = engine.call('energy', { instance: id, count: rec.gpu_count, hours: 1 });
    close(t.power_w, energy.power_w, 'tco power vs energy power');
    if (!ranked.some((x) => x.id === id && x.pricing === 'reserved')) return;
    const p = engine.call('plan', { demand: { instance: id, monthly_gpu_hours: Array(12).fill(rec.gpu_count * 730), interruptible_fraction: 0,
      target_completion_rate: 0.9 } });
    assert.equal(p.rent_offer.id, id);
    close(p.rent_offer.usd_per_hour / p.rent_offer.gpu_count, perGpu, 'plan on-demand rate');
  });
}

// The page asks the ranking with its preset and the advisor with the same: one job, so one FLOP count and, for every
// offer the advisor shows, the ranking's nodes, time and cost at the same billing and horizon.
test('advise and rank asked with the same preset give the same FLOPs and, offer by offer, the same time and cost', () => {
  const scope = { include_examples: false, include_stale: false };
  for (const horizon_hours of [720, 2000]) {
    const a = engine.call('advise', { preset: 'llama2-7b-pretrain', precision: 'bf16', stage: 'exploration', horizon_hours, ...scope });
    const r = engine.call('rank', { preset: 'llama2-7b-pretrain', precision: 'bf16', horizon_hours, filters: scope });
    assert.ok(a.ok && r.ok);
    close(a.total_flops, r.workload.total_flops, 'total FLOPs');
    const shown = [...a.recommendations, ...a.ladder].filter((x) => x.offer);
    assert.ok(shown.length >= 2);
    for (const x of shown) {
      const same = r.results.find((y) => y.id === x.offer.id && y.pricing === x.pricing);
      assert.ok(same, `rank lists ${x.offer.id} ${x.pricing}`);
      assert.equal(same.nodes, x.nodes, `${x.offer.id} nodes`);
      close(x.cost_usd, same.cost_usd, `${x.offer.id} ${x.pricing} cost`);
      close(x.time_hours, same.time_hours, `${x.offer.id} ${x.pricing} time`);
    }
  }
});

test('tco without an instance rents the cheapest on-demand offer outside marketplaces, named, and its power is the energy figure', () => {
  const t = engine.call('tco', { gpu: 'a100-sxm4-40gb', count: 8 });
  assert.ok(t.rent_offer && t.rent_offer.id, 'a named rent offer');
  const offers = engine.call('rank', { preset: 'resnet50-imagenet', pricing: 'on_demand', limit: 0, filters: { gpus: ['a100-sxm4-40gb'] } }).results;
  const own = offers.find((x) => x.id === t.rent_offer.id);
  assert.ok(own, 'the rent offer is a ranked offer');
  assert.equal(own.marketplace, false);
  const cheapest = Math.min(...offers.filter((x) => !x.marketplace).map((x) => x.list_usd_per_hour / x.gpu_count));
  close(t.rent_usd_per_gpu_hour, cheapest, 'cheapest non-marketplace on-demand rate');
  close(t.power_w, engine.call('energy', { gpu: 'a100-sxm4-40gb', count: 8, hours: 1 }).power_w, 'power');
});

test('a scale lever that moves to another provider names that offer and never says the cost stays the same', () => {
  const l = engine.call('levers', { preset: 'resnet50-imagenet', instance: 'p3.2xlarge', precision: 'fp32' });
  const more = l.levers.find((x) => x.lever === 'more_gpus');
  assert.ok(more);
  const other = more.note.find((m) => m.code === 'levers.other_offer');
  assert.ok(other, `more_gpus names the other offer: ${JSON.stringify(codes(more.note))}`);
  assert.equal(other.params.base_provider, l.baseline.provider);
  assert.notEqual(other.params.provider, l.baseline.provider);
  assert.ok(!codes(more.note).includes('levers.scale_same_per_gpu'));
  if (more.after) assert.equal(more.after.provider, other.params.provider);
});
