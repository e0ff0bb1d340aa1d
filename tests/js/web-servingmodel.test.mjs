// The serving view's own model (web/src/state/servingmodel.js): its members and bounds are the engine's (read from
// the schema the build ships, checked here against the wasm engine itself), it lives in the URL hash (written and
// read back; a value out of bounds in a link is dropped and reported), and the request it makes is answered by the
// engine as the preset it was filled in from.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, root } from './helpers.mjs';
import { dataBundle } from '../../scripts/build-web.mjs';
import { parseHash, serializeHash } from '../../web/src/state/hash.js';
import { defaultState, servingRequest } from '../../web/src/state/state.js';
import { setNames } from '../../web/src/state/names.js';
import { SERVING_MODEL, setServingModel, inBounds, ownModelFrom, modelMemberOf } from '../../web/src/state/servingmodel.js';
import { servingOpsOf } from '../../web/src/engine/serving.js';
import { DICTS } from '../../web/src/i18n/index.js';

const engine = await loadEngine();
const defaults = engine.defaults();
setNames(defaults.names);
const data = dataBundle(root);
setServingModel(data.serving_model);
const base = defaultState(defaults, { rate: 7.1 });
const presets = data.serving_presets.presets;
const preset = (id) => presets.find((p) => p.id === id);
const fields = new Map(SERVING_MODEL.fields.map((f) => [f.key, f]));

test('the own model has the engine\'s members, in both languages', () => {
  assert.deepEqual(SERVING_MODEL.fields.map((f) => f.key), ['params', 'active_params', 'layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'vocab',
    'experts', 'experts_per_token', 'kv_latent_dim']);
  assert.deepEqual(SERVING_MODEL.fields.filter((f) => f.required).map((f) => f.key), ['params', 'layers', 'hidden', 'heads']);
  for (const f of SERVING_MODEL.fields) for (const lang of ['en', 'zh']) assert.ok(DICTS[lang][`serveM_${f.key}`], `${lang} serveM_${f.key}`);
});

test('the bounds the page reads a link with are the ones the engine reads the request with', () => {
  const model = ownModelFrom(preset('llama3.1-8b').model);
  const ask = (key, v) => engine.tryCall('serve', { model: { ...model, [key]: v }, gpu: 'h100-sxm', count: 1 });
  for (const f of SERVING_MODEL.fields) {
    // Just past the top, past the bottom, and (for whole numbers) a fraction: the page and the engine both refuse.
    const bad = [f.max * 2, f.open ? f.min : f.min - 1, ...(f.integer ? [f.min + 1.5] : [])];
    for (const v of bad) {
      assert.equal(inBounds(f, v), false, `${f.key}=${v}`);
      const r = ask(f.key, v);
      assert.equal(r.ok, false, `${f.key}=${v}`);
      assert.ok(r.issues.some((i) => i.path === `/model/${f.key}`), `${f.key}=${v}: ${JSON.stringify(r.issues)}`);
      assert.equal(modelMemberOf(r.error.path), f.key);
    }
    assert.equal(inBounds(f, f.max), true, `${f.key} at its top`);
  }
  assert.equal(modelMemberOf('/traffic/input_tokens'), null);
  assert.equal(modelMemberOf('/model/nonsense'), null);
});

test('an own model is written to the hash and read back; a preset writes none of it', () => {
  const model = ownModelFrom(preset('qwen3-235b-a22b').model);
  const s = { ...base, task: 'serve', serving: { ...base.serving, model } };
  const hash = serializeHash(s, base);
  const q = new URLSearchParams(hash.slice(1));
  assert.equal(q.get('sm'), '1');
  assert.equal(q.get('sm.experts'), '128');
  assert.equal(q.get('sm.active_params'), '22000000000');
  const back = parseHash(hash, base);
  assert.deepEqual(back.serving.model, model);
  assert.equal(serializeHash(back, base), hash);
  // A preset's hash has no own model, and reads back as the preset.
  const plain = serializeHash({ ...base, task: 'serve' }, base);
  assert.ok(![...new URLSearchParams(plain.slice(1)).keys()].some((k) => k === 'sm' || k.startsWith('sm.')), plain);
  assert.equal(parseHash(plain, base).serving.model, null);
  // An own model with empty members (the engine derives them) keeps them empty.
  const small = { params: 1e9, layers: 16, hidden: 2048, heads: 16 };
  assert.deepEqual(parseHash(serializeHash({ ...base, serving: { ...base.serving, model: small } }, base), base).serving.model, small);
});

test('values of the own model in a link that are malformed or out of the engine\'s bounds are dropped and reported', () => {
  const report = {};
  const s = parseHash('#task=serve&sm=1&sm.params=1e15&sm.layers=2.5&sm.hidden=4096&sm.heads=abc&sm.kv_heads=0&sm.vocab=32000&sm.experts=', base, { report });
  assert.deepEqual(s.serving.model, { hidden: 4096, vocab: 32000 });
  assert.deepEqual(report.servingModel, ['sm.params=1e15', 'sm.layers=2.5', 'sm.heads=abc', 'sm.kv_heads=0', 'sm.experts=']);
  // Without the marker, a member alone still makes the model the reader's own; a hash without either is a preset's.
  assert.deepEqual(parseHash('#sm.params=7e9', base).serving.model, { params: 7e9 });
  const none = {};
  assert.equal(parseHash('#task=serve&sp=llama3.1-8b', base, { report: none }).serving.model, null);
  assert.deepEqual(none.servingModel, []);
  // A hostile length is cut, not read.
  const long = parseHash(`#sm.params=${'9'.repeat(5000)}`, base, { report: {} });
  assert.deepEqual(long.serving.model, {});
});

test('the own model is sent instead of the preset, and filled in from a preset it ranks as that preset does', () => {
  const model = ownModelFrom(preset('llama3.1-8b').model);
  const own = servingRequest({ ...base, serving: { ...base.serving, preset: 'llama3.1-8b', model: { ...model, head_dim: undefined } } });
  assert.equal(own.serving.preset, undefined);
  // A member left empty is not sent: the engine derives it (head_dim = hidden / heads).
  const { head_dim: _derived, ...sent } = model;
  assert.deepEqual(own.serving.model, sent);
  const plain = servingRequest({ ...base, serving: { ...base.serving, preset: 'llama3.1-8b' } });
  assert.equal(plain.serving.model, undefined);
  assert.equal(plain.serving.preset, 'llama3.1-8b');
  // The preset's formats are the engine's defaults for a model without them; given the same, the rows are the same.
  const ops = servingOpsOf(engine);
  const p = preset('llama3.1-8b');
  const formats = { weights: p.weights, kv: p.kv };
  const a = ops.serveRank({ ...servingRequest({ ...base, serving: { ...base.serving, preset: p.id, model: ownModelFrom(p.model), ...formats } }), curves: false, limit: 0 });
  const b = ops.serveRank({ ...plain, serving: { ...plain.serving, ...formats }, curves: false, limit: 0 });
  assert.equal(a.ok, true);
  assert.ok(a.rows.length > 100, `${a.rows.length} rows`);
  assert.deepEqual(a.rows.map((r) => [r.key, r.usd_per_million_output, r.replicas]), b.rows.map((r) => [r.key, r.usd_per_million_output, r.replicas]));
  assert.equal(a.preset, undefined);
  assert.equal(a.model.params, p.model.params);
  // Another shape is another answer: half the layers serve cheaper.
  const half = ops.serveRank({ serving: { model: { ...ownModelFrom(p.model), layers: 16, params: p.model.params / 2 }, ...formats, traffic: { requests_per_s: 10 } }, curves: false, limit: 0 });
  const full = ops.serveRank({ serving: { model: ownModelFrom(p.model), ...formats, traffic: { requests_per_s: 10 } }, curves: false, limit: 0 });
  assert.ok(half.rows[0].usd_per_million_output < full.rows[0].usd_per_million_output);
  assert.ok(fields.get('params').open, 'parameters must be above 0');
});
