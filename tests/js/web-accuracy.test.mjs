// The Accuracy view's basis: the published measurements that stand behind an estimate are those of the offer's GPU
// generation and of the request's workload family (dense transformer, mixture-of-experts, CNN), as
// scripts/accuracy.mjs labels its rows.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';
import { requestFamily, basisRows } from '../../web/src/views/accuracy.js';

const presets = JSON.parse(fs.readFileSync(path.join(root, 'data/presets.json'), 'utf8')).presets;
const accuracy = JSON.parse(fs.readFileSync(path.join(root, 'web/src/data/accuracy.json'), 'utf8'));
const family = (request) => requestFamily({ request, presets });

test('every preset is named by the family its measurement rows carry: experts make it mixture-of-experts', () => {
  const seen = new Set();
  for (const p of presets) {
    const f = family({ preset: p.id });
    const w = p.workload;
    const want = w.kind === 'cnn' || w.kind === 'vision' ? 'cnn' : w.experts > 1 ? 'moe' : 'transformer';
    assert.equal(f, want, p.id);
    seen.add(f);
  }
  assert.deepEqual([...seen].sort(), ['cnn', 'moe', 'transformer']);
  // An own workload is judged by its own fields, not by a preset.
  assert.equal(family({ workload: { kind: 'transformer', params: 30e9, experts: 64, experts_per_token: 4 } }), 'moe');
  assert.equal(family({ workload: { kind: 'transformer', params: 7e9 } }), 'transformer');
});

test('the basis of a mixture-of-experts estimate on Hopper is the MoE rows of Hopper GPUs only', () => {
  const rows = basisRows(accuracy, 'hopper', family({ preset: 'deepseek-v3-pretrain' }));
  assert.ok(rows.length > 0, 'the calibration holds MoE rows on Hopper');
  assert.ok(rows.every((r) => r.family === 'moe' && r.generation === 'hopper'));
  const allMoeHopper = accuracy.rows.filter((r) => r.family === 'moe' && r.generation === 'hopper').length;
  assert.equal(rows.length, allMoeHopper);
  assert.ok(basisRows(accuracy, 'hopper', 'transformer').every((r) => r.family === 'transformer'));
});
