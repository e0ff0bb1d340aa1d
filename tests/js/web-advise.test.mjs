// Which model the advisor's production stage serves (web/src/tools/advise.js servedModel), on the real preset files:
// a training preset's own model (the serving preset of its shape, else the shape itself), the nearest serving preset
// in size otherwise.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';
import { servedModel } from '../../web/src/tools/advise.js';

const read = (f) => JSON.parse(fs.readFileSync(path.join(root, f), 'utf8'));
const presets = read('data/presets.json').presets;
const servingPresets = read('data/serving-presets.json').presets.map(({ id, name, model }) => ({ id, name, params: model.params, model }));
const ctx = (preset) => ({ state: { preset, custom: null }, presets, servingPresets });
const paramsOf = (id) => presets.find((p) => p.id === id).workload.params;

test('a training preset of a serving preset\'s shape is served as that preset (its MLA latent and head size come with it)', () => {
  assert.deepEqual(servedModel(ctx('llama3.1-70b-pretrain'), paramsOf('llama3.1-70b-pretrain')), { how: 'match', preset: servingPresets.find((p) => p.id === 'llama3.1-70b') });
  const ds = servedModel(ctx('deepseek-v3-pretrain'), paramsOf('deepseek-v3-pretrain'));
  assert.equal(ds.how, 'match');
  assert.equal(ds.preset.id, 'deepseek-v3');
  assert.equal(ds.preset.model.kv_latent_dim, 576);
  assert.equal(servedModel(ctx('mixtral-8x7b-pretrain'), paramsOf('mixtral-8x7b-pretrain')).preset.id, 'mixtral-8x7b');
});

test('a dense shape no serving preset has is served as itself; a mixture of experts without active parameters is not', () => {
  const w = presets.find((p) => p.id === 'llama2-7b-pretrain').workload;
  assert.deepEqual(servedModel(ctx('llama2-7b-pretrain'), w.params),
    { how: 'own', model: { params: w.params, layers: 32, hidden: 4096, heads: 32, vocab: 32000 }, trained: presets.find((p) => p.id === 'llama2-7b-pretrain') });
  // Qwen3 30B-A3B's training preset names 128 experts but not its active parameters: served by size instead.
  assert.equal(servedModel(ctx('qwen3-30b-a3b-pretrain'), paramsOf('qwen3-30b-a3b-pretrain')).how, 'nearest');
  // The advisor asked about another size than the workload's, or a CNN: the nearest serving preset in size.
  assert.deepEqual(servedModel(ctx('llama2-7b-pretrain'), 70e9), { how: 'nearest', preset: servingPresets.find((p) => p.id === 'llama3.1-70b') });
  assert.equal(servedModel(ctx('resnet50-imagenet'), 8e9).preset.id, 'llama3.1-8b');
});
