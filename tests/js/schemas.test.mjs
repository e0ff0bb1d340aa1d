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
  assert.ok(Object.keys(generated).length === 6);
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
