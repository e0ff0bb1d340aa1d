// The serving model against published serving measurements, judged by leave-one-source-out cross-validation
// (scripts/serving-accuracy.mjs, docs/accuracy.md "Serving").
import test from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, summarise, gpuRatios, loadServingEngine, measurements } from '../../scripts/serving-accuracy.mjs';

const engine = await loadServingEngine();
const result = evaluate(engine);
const s = summarise(result.rows);
const pct = (x) => `${(x * 100).toFixed(1)} %`;

test('every published serving measurement fits its hardware and gets a finite prediction', () => {
  assert.equal(s.failed, 0, result.rows.filter((r) => !Number.isFinite(r.err)).map((r) => r.m.id).join('\n'));
  assert.ok(s.n >= 200, `${s.n} rows`);
});

test('every row states what its source measured, and the metric is output tokens/s of the whole replica', () => {
  for (const m of measurements) {
    assert.equal(m.metric, 'output_tokens_per_s', m.id);
    assert.ok(m.measured.includes('output tokens only') && m.source.startsWith('https://'), m.id);
  }
});

test('cross-validation holds out whole sources: each fold chooses its constants without the held-out source', () => {
  assert.ok(result.folds.length >= 2, `${result.folds.length} sources`);
  assert.equal(new Set(result.folds.map((f) => f.source)).size, result.folds.length);
  assert.ok(result.rows.every((r) => Number.isFinite(r.pred)));
});

test('leave-one-source-out median absolute error of output tokens/s is at most 20 %', () => {
  assert.ok(s.median <= 0.20, `median ${pct(s.median)}`);
});

test('the band covers 70-90 % of rows whose source was held out', () => {
  assert.ok(s.coverage >= 0.70 && s.coverage <= 0.90, `coverage ${pct(s.coverage)}`);
});

test('H100 -> H200 speed-ups for the same model and settings: median within 15 % of the published ones', () => {
  const ratios = gpuRatios(result.rows, 'h100-sxm5-80gb', 'h200-sxm-141gb');
  assert.ok(ratios.length >= 40, `${ratios.length} pairs`);
  const errs = ratios.map((r) => Math.abs(r.err)).sort((a, b) => a - b);
  const median = errs[Math.floor(errs.length / 2)];
  assert.ok(median <= 0.15, `median ${pct(median)}`);
});

test('B200 rows from two sources: each predicted with the Blackwell factor chosen on the other, median within 15 %', () => {
  const b = result.rows.filter((r) => r.m.gpu === 'b200');
  const sources = new Set(b.map((r) => r.m.source));
  assert.ok(sources.size >= 2, `${sources.size} sources`);
  // Each fold's Blackwell factor came from the other sources' B200 rows: it differs from 1 (the efficiencies alone
  // over-predict B200) and no fold saw its own.
  for (const f of result.folds) assert.ok(f.constants.blackwell_eff < 1, JSON.stringify(f));
  const t = summarise(b);
  assert.ok(t.median <= 0.15, `median ${pct(t.median)}`);
});
