// The data schemas (data/schema/*.schema.json) are written from the engine's field tables by
// scripts/schemas.mjs: the committed files must be current, every shipped data file must validate, and the
// schemas must agree with the engine on the bad-input corpus (tests/corpus/) wherever a schema can say why.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { root } from './helpers.mjs';
import { generateSchemas, schemaDir } from '../../scripts/schemas.mjs';

const generated = await generateSchemas();

function validators() {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const out = {};
  for (const [name, text] of Object.entries(generated)) out[name] = ajv.compile(JSON.parse(text));
  return out;
}
const validate = validators();
const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
const why = (v) => (v.errors || []).map((e) => `${e.instancePath} ${e.message}`).join('; ');

test('the committed schemas are the ones the field tables write', () => {
  const stale = [];
  for (const [name, text] of Object.entries(generated)) {
    const file = path.join(schemaDir, name);
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(missing)';
    if (committed !== text) {
      const a = committed.split('\n'), b = text.split('\n');
      const at = a.findIndex((line, i) => line !== b[i]);
      stale.push(`data/schema/${name} differs from line ${at + 1}:\n- ${a[at]}\n+ ${b[at]}`);
    }
  }
  assert.equal(stale.join('\n'), '', 'run npm run schemas');
  // Six data files and the requests of the methods with a request table (api/request_tables.hpp, serve's).
  const requests = Object.keys(generated).filter((n) => n.endsWith('.request.schema.json'));
  assert.equal(Object.keys(generated).length - requests.length, 6);
  assert.ok(requests.length >= 15, requests.join(', '));
});

test('every shipped data file validates against its schema', () => {
  const files = [['data/gpus.json', 'gpus.schema.json'], ['data/presets.json', 'presets.schema.json'],
    ['data/measurements.json', 'measurements.schema.json'], ['data/serving-presets.json', 'serving-presets.schema.json'],
    ['data/serving-measurements.json', 'serving-measurements.schema.json'],
    ...fs.readdirSync(path.join(root, 'data/catalog')).filter((f) => f.endsWith('.json'))
      .map((f) => [`data/catalog/${f}`, 'catalog.schema.json'])];
  assert.ok(files.length >= 10);
  const bad = files.filter(([f, s]) => !validate[s](read(f))).map(([f, s]) => `${f}: ${why(validate[s])}`);
  assert.equal(bad.join('\n'), '');
});

test('the "gpu" enum is the id list of data/gpus.json', () => {
  const ids = read('data/gpus.json').gpus.map((g) => g.id);
  const schema = JSON.parse(generated['catalog.schema.json']);
  assert.deepEqual(schema.$defs.instance.properties.gpu.enum, ids);
});

// Corpus documents the engine rejects for a reason no JSON Schema states: relations between records or files, or
// text that JSON.parse reads differently from the engine. Each entry must still apply (the schema accepts the file
// while the engine rejects it).
const CANNOT_EXPRESS = {
  'catalog-duplicate-ids.json': 'ids are unique across offers (uniqueItems compares whole items)',
  'catalog-duplicate-of-loaded-id.json': 'ids are unique across catalog files',
  'catalog-tiers-descending.json': 'each tier starts above the previous one',
  'gpus-duplicate-ids.json': 'GPU ids are unique',
  'gpus-duplicate-alias.json': 'an alias names one GPU only, ignoring letter case',
  'gpus-mig-larger-than-gpu.json': 'a MIG profile fits in its GPU\'s memory',
  'catalog-lone-surrogate-escape.json': 'JSON.parse accepts a lone surrogate escape; the engine rejects it as invalid UTF-16',
  'catalog-two-on-demand.json': 'an offer has one on-demand price (the field tables generate no contains/maxContains rule)',
};
const SCHEMA_OF = { loadCatalog: 'catalog.schema.json', addCatalog: 'catalog.schema.json', validate: 'catalog.schema.json',
  loadGpus: 'gpus.schema.json', loadPresets: 'presets.schema.json', loadServingPresets: 'serving-presets.schema.json' };

test('the schemas accept the corpus documents the engine accepts and reject those it rejects', () => {
  const expected = read('tests/corpus/expected.json');
  const problems = [];
  const applied = new Set();
  let checked = 0;
  for (const [file, want] of Object.entries(expected)) {
    const schema = SCHEMA_OF[want.method];
    if (!schema) continue;
    let doc;
    try {
      // JSON text is UTF-8 (RFC 8259 §8.1): invalid bytes make it not JSON, rather than U+FFFD.
      doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(path.join(root, 'tests/corpus', file))));
    } catch {
      // Not JSON at all: the engine must have said so too (a syntax error is not a schema's business).
      if (want.ok || want.code !== 'json_syntax') problems.push(`${file}: JSON.parse fails but the engine says ${want.code || 'ok'}`);
      continue;
    }
    checked++;
    const valid = validate[schema](doc);
    if (CANNOT_EXPRESS[file]) {
      applied.add(file);
      if (!valid || want.ok) problems.push(`${file}: listed as beyond a schema, but the schema ${valid ? 'accepts' : 'rejects'} it and the engine ${want.ok ? 'accepts' : 'rejects'} it`);
    } else if (valid !== want.ok) {
      problems.push(`${file}: the engine ${want.ok ? 'accepts' : `rejects (${want.path}: ${want.code})`} but the schema ${valid ? 'accepts' : `rejects: ${why(validate[schema])}`}`);
    }
  }
  for (const file of Object.keys(CANNOT_EXPRESS)) if (!applied.has(file)) problems.push(`${file}: listed but not in the corpus`);
  assert.ok(checked >= 25, `only ${checked} corpus documents checked`);
  assert.equal(problems.join('\n'), '');
});

// The request schemas leave to the engine what joins members (gpu or instance, hours or a workload) and what needs the
// data (ids, prices), so they may accept a request the engine refuses; never the other way. A corpus request the
// engine refuses for a member's own type, range, choice or presence, its schema refuses too.
const MEMBER_RULES = new Set(['error.required', 'error.not_string', 'error.not_boolean', 'error.not_one_of', 'error.number_range',
  'error.number_out_of_range', 'error.integer_range', 'error.integer_out_of_range', 'error.not_object']);

// Members whose rules live in another table than the request's: the workload's (presets.schema.json) and the model
// constants' (model/performance.cpp). parse_measurement's paths point into its text, not at members of the request.
const BEYOND_REQUEST_TABLES = ['/workload', '/constants'];

test('the request schemas accept the corpus requests the engine accepts and refuse those it refuses for a member\'s rule', () => {
  const expected = read('tests/corpus/expected.json');
  const problems = [];
  let accepted = 0, refused = 0;
  for (const [file, want] of Object.entries(expected)) {
    const v = validate[`${want.method}.request.schema.json`];
    if (!v) continue;
    let doc;
    try {
      doc = JSON.parse(fs.readFileSync(path.join(root, 'tests/corpus', file), 'utf8'));
    } catch {
      continue;  // not JSON: the engine's syntax error
    }
    const valid = v(doc);
    if (want.ok) {
      accepted++;
      if (!valid) problems.push(`${file}: the engine accepts it, the schema refuses it: ${why(v)}`);
    } else if (MEMBER_RULES.has(want.message?.code) && want.path !== '' && !BEYOND_REQUEST_TABLES.some((p) => want.path.startsWith(p))
      && want.method !== 'parse_measurement') {
      refused++;
      if (valid) problems.push(`${file}: the engine refuses ${want.path} (${want.message.code}), the schema accepts it`);
    }
  }
  assert.ok(accepted >= 1 && refused >= 10, `${accepted} accepted, ${refused} refused corpus requests checked`);
  assert.equal(problems.join('\n'), '');
});

test('the request schemas accept the requests the CLI\'s golden calls make', () => {
  // The engine answers each of these (tests/golden/ holds the CLI's answers to the same questions).
  const requests = {
    'cost.request.schema.json': { instance: 'GN10', hours: 150, pricing: 'tiered' },
    'advise.request.schema.json': { params: 70e9, mode: 'lora', tokens: 2e8, deadline_hours: 48 },
    'plan.request.schema.json': { example: 'article' },
    'mig.request.schema.json': { gpu: 'h100-sxm5-80gb', jobs: '3x20gb,2x5gb@4h' },
    'levers.request.schema.json': { preset: 'resnet50-imagenet', instance: 'aws-p3.2xlarge-us-east-1', precision: 'fp32' },
    'compare.request.schema.json': { preset: 'yolov7-coco', configs: [{ gpu: 'a100-sxm4-80gb', count: 8 }, { gpu: 'v100-sxm2-16gb', count: 4 }] },
    'energy.request.schema.json': { gpu: 'h100-sxm5-80gb', count: 8, preset: 'llama2-7b-pretrain', cooling: 'liquid', grid: 'world' },
    'tco.request.schema.json': { gpu: 'a100-sxm4-40gb', count: 8, grid: 'world', include_examples: false },
    'rank.request.schema.json': { preset: 'resnet50-imagenet', pricing: 'spot', filters: { fits_only: true, budget_usd: 100, providers: 'aws' }, limit: 12 },
    'rankView.request.schema.json': { preset: 'resnet50-imagenet', view: { sort: { key: 'cost_usd', dir: 'asc' }, rows: 50 } },
    'serverless.request.schema.json': { offer: 'x', load_gpus: Array(24).fill(1) },
    'estimate.request.schema.json': { preset: 'gpt3-175b', gpu: 'a100-sxm4-80gb', count: 1024, measurements: [{ gpu: 'a100-sxm4-80gb', count: 8, tokens_per_s: 3150 }] },
  };
  const bad = Object.entries(requests).filter(([s, r]) => !validate[s](r)).map(([s]) => `${s}: ${why(validate[s])}`);
  assert.equal(bad.join('\n'), '');
  // And one step past a bound is refused, as the engine refuses it.
  assert.equal(validate['cost.request.schema.json']({ instance: 'GN10', hours: 1e7 * (1 + 1e-9) }), false);
  assert.equal(validate['serverless.request.schema.json']({ offer: 'x', load_gpus: Array(23).fill(1) }), false);
});
