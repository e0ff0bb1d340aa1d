// The throughput model against published measurements it was not fitted on (data/measurements.json).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { evaluate, summarise } from '../../scripts/accuracy.mjs';

const engine = await loadEngine();
const rows = evaluate(engine);
const s = summarise(rows);

test('every published measurement gets a finite prediction', () => {
  assert.equal(s.failed, 0, rows.filter((r) => !Number.isFinite(r.err)).map((r) => `${r.m.id}: ${r.error}`).join('\n'));
  assert.ok(s.n >= 300);
});

test('median throughput error on the held-out measurements is within 20 %', () => {
  assert.ok(s.holdout <= 0.20, `held-out median |error| ${(s.holdout * 100).toFixed(1)} %`);
});

test('no workload class is off by more than 40 % in median', () => {
  for (const [w, v] of Object.entries(s.by_workload)) assert.ok(v <= 0.40, `${w}: ${(v * 100).toFixed(1)} %`);
});

test('held-out rows cover GPUs, precisions and GPU counts', () => {
  const held = rows.filter((r) => r.m.split === 'holdout').map((r) => r.m);
  assert.ok(new Set(held.map((m) => m.gpu)).size >= 8);
  assert.ok(new Set(held.map((m) => m.precision)).size >= 3);
  assert.ok(held.some((m) => m.gpu_count === 1) && held.some((m) => m.gpu_count >= 8) && held.some((m) => (m.nodes || 1) > 1));
});
