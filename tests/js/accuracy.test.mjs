// The throughput model against published measurements, judged by leave-one-source-out cross-validation
// (scripts/accuracy.mjs, docs/accuracy.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { evaluate, summarise, sourceKey } from '../../scripts/accuracy.mjs';

const engine = await loadEngine();
const rows = evaluate(engine);
const s = summarise(rows);
const pct = (x) => `${(x * 100).toFixed(1)} %`;

test('every published measurement gets a finite prediction', () => {
  assert.equal(s.failed, 0, rows.filter((r) => !Number.isFinite(r.err)).map((r) => `${r.m.id}: ${r.error}`).join('\n'));
  assert.ok(s.n >= 330);
});

test('at least 60 measurements on 64 or more GPUs, from several sources', () => {
  const large = rows.filter((r) => r.m.gpu_count >= 64);
  assert.ok(large.length >= 60, `${large.length} rows`);
  assert.ok(new Set(large.map((r) => sourceKey(r.m))).size >= 5);
});

test('leave-one-source-out median absolute error is at most 15 % overall and on >= 64 GPUs, 25 % on MoE rows', () => {
  assert.ok(s.loso.median <= 0.15, `overall ${pct(s.loso.median)}`);
  assert.ok(s.large.median <= 0.15, `>= 64 GPUs ${pct(s.large.median)}`);
  assert.ok(s.by_workload.moe.median <= 0.25, `MoE ${pct(s.by_workload.moe.median)}`);
});

test('the band covers 70-90 % of rows whose source was held out, with a median width (high/low) of at most 1.8x', () => {
  assert.ok(s.loso.coverage >= 0.70 && s.loso.coverage <= 0.90, `coverage ${pct(s.loso.coverage)}`);
  assert.ok(s.loso.width <= 1.8, `width ${s.loso.width.toFixed(2)}x`);
});

test('on 64 or more GPUs, where sources disagree most, the band still covers 65-90 % of held-out rows', () => {
  assert.ok(s.large.coverage >= 0.65 && s.large.coverage <= 0.90, `coverage ${pct(s.large.coverage)}`);
});

test('cross-validation holds out whole sources: no fold trains on the held-out source', () => {
  assert.ok(s.sources >= 10, `${s.sources} sources`);
  assert.equal(s.cv.length, rows.length - s.failed);
});

test('every row is labelled with its software stack, and both stacks are measured', () => {
  assert.ok(rows.every((r) => r.m.software === 'tuned' || r.m.software === 'typical'));
  assert.ok(rows.some((r) => r.m.software === 'typical') && rows.some((r) => r.m.software === 'tuned'));
});
