// The serving model's ratios between GPUs against MLPerf Inference llama2-70b (scripts/serving-ratios.mjs,
// docs/accuracy.md "Ratios between GPUs"): none of these rows is in the calibration set but the MI300X's factor's,
// which each round's check chooses on the other rounds.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { evaluate, groups, measurements, benchmarks, predictSystem, involvesCdna3 } from '../../scripts/serving-ratios.mjs';
import { loadServingEngine } from '../../scripts/serving-accuracy.mjs';

const engine = await loadServingEngine();
const r = evaluate(engine);
const gpuIds = new Set(JSON.parse(fs.readFileSync(new URL('../../data/gpus.json', import.meta.url), 'utf8')).gpus.map((g) => g.id));
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const show = (p) => `${p.round} ${p.benchmark} ${p.to.gpu}/${p.from.gpu}: published ${p.published.toFixed(3)}, predicted ${p.predicted.map((x) => x.toFixed(3)).join(' ')}`;

test('every MLPerf row names its round, system and GPU in a results file of that round, with a known GPU', () => {
  assert.ok(measurements.length >= 30, `${measurements.length} rows`);
  assert.equal(new Set(measurements.map((m) => m.id)).size, measurements.length);
  for (const m of measurements) {
    assert.ok(gpuIds.has(m.gpu), m.id);
    assert.ok(m.source.startsWith(`https://github.com/mlcommons/inference_results_${m.round}/`) && m.source.includes(`/results/${m.system}/`), m.id);
    assert.ok(m.value > 100 && m.system_gpus === 8 && m.system_gpus % m.replica_gpus === 0, m.id);
  }
  // The input lengths are unknown: each benchmark's check spans several, and every row names a benchmark listed.
  for (const [name, b] of Object.entries(benchmarks)) {
    assert.ok(b.input_tokens_checked.length >= 3 && b.output_tokens > 0 && b.preset, name);
    assert.ok(measurements.some((m) => m.benchmark === name), `${name} has rows`);
  }
  for (const m of measurements) assert.ok(benchmarks[m.benchmark], m.id);
});

test('H100 -> H200 -> B200 ratios of the same benchmark and round: 80 % of pairs within 15 % at every input length, none beyond 25 %', () => {
  const nvidia = r.atDefaults.filter((p) => !involvesCdna3(p));
  const pairsSeen = new Set(nvidia.map((p) => `${p.from.gpu}>${p.to.gpu}`));
  for (const want of ['h100-sxm5-80gb>h200-sxm-141gb', 'h200-sxm-141gb>b200', 'h100-sxm5-80gb>b200']) assert.ok(pairsSeen.has(want), want);
  assert.ok(new Set(nvidia.map((p) => p.benchmark)).size >= 3, 'three benchmarks');
  // A pair's error: its worst over the checked input lengths.
  const worst = nvidia.map((p) => ({ p, e: Math.max(...p.errs.map(Math.abs)) }));
  for (const { p, e } of worst) assert.ok(e <= 0.25, `${show(p)} (${pct(e)})`);
  const within = worst.filter(({ e }) => e <= 0.15).length;
  assert.ok(within >= 0.8 * worst.length, `${within} of ${worst.length} pairs within 15 %:\n${worst.map(({ p, e }) => `${show(p)} ${pct(e)}`).join('\n')}`);
});

test('MI300X: its datasheet alone predicts it far faster than it served; with the factor chosen on the other round, within 15 %', () => {
  assert.ok(Object.keys(r.folds).length >= 2, JSON.stringify(r.folds));
  for (const f of Object.values(r.folds)) assert.ok(f < 1, JSON.stringify(r.folds));
  for (const p of r.withoutFactor) for (const e of p.errs) assert.ok(Math.abs(e) >= 0.3, `${show(p)} without the factor (${pct(e)})`);
  assert.ok(r.heldOut.length >= 3);
  for (const p of r.heldOut) for (const e of p.errs) assert.ok(Math.abs(e) <= 0.15, `${show(p)} held out (${pct(e)})`);
});

test("the engine's default MI300X factor is the one chosen on every round", () => {
  const g = groups().find((x) => x.gpu === 'mi300x');
  assert.equal(predictSystem(engine, g, 256), predictSystem(engine, g, 256, { cdna3_eff: r.all }));
  assert.notEqual(predictSystem(engine, g, 256), predictSystem(engine, g, 256, { cdna3_eff: 1 }));
});
