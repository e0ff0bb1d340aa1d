// The widget's engine (dist/site/gpu-value.js: the size-optimised module with only the methods the widget calls,
// wasm/CMakeLists.txt) against the page's (dist/site/gpuvalue_engine.js and .wasm), both as they ship: on the
// catalog the widget carries, the same rankings; a method the widget's engine leaves out answers an error.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { root } from './helpers.mjs';
import { createEngine, GpuvalueError } from '../../web/src/engine/client.js';
import { unpackBundle } from '../../web/src/engine/bundle.js';
import { servingOpsOf } from '../../web/src/engine/serving.js';

const site = path.join(root, 'dist/site');
const TODAY = '2026-12-02';

// An emscripten module's factory from its glue's text, run as CommonJS; the wasm given as bytes.
function factoryOf(glue, wasm, file) {
  const module = { exports: {} };
  vm.runInThisContext(`(function (module, exports, require, __dirname, __filename) {${glue}\n})`, { filename: file })(
    module, module.exports, createRequire(file), path.dirname(file), file);
  return (options = {}) => module.exports({ ...options, wasmBinary: wasm });
}

// The widget's script in its parts (scripts/build-web.mjs): the engine's glue, its wasm (base64 of its gzip) and the
// data, then the element.
const widgetFile = path.join(site, 'gpu-value.js');
const widgetJs = fs.readFileSync(widgetFile, 'utf8');
const glueEnd = widgetJs.indexOf(';self.__GPUVALUE_WASM__=');
const widgetWasm = zlib.gunzipSync(Buffer.from(/self\.__GPUVALUE_WASM__="([A-Za-z0-9+/=]+)"/.exec(widgetJs)[1], 'base64'));
const data = unpackBundle(JSON.parse(zlib.gunzipSync(Buffer.from(/self\.__GPUVALUE_DATA__="([A-Za-z0-9+/=]+)"/.exec(widgetJs)[1], 'base64')).toString('utf8')));
const pageWasm = fs.readFileSync(path.join(site, 'gpuvalue_engine.wasm'));

const widget = await createEngine(factoryOf(widgetJs.slice(0, glueEnd), widgetWasm, widgetFile), data, { today: TODAY });
const page = await createEngine(factoryOf(fs.readFileSync(path.join(site, 'gpuvalue_engine.js'), 'utf8'), pageWasm,
  path.join(site, 'gpuvalue_engine.js')), data, { today: TODAY });

test('the widget carries an engine of its own, smaller than the page\'s', () => {
  assert.ok(widgetWasm.length < 0.8 * pageWasm.length, `${widgetWasm.length} vs ${pageWasm.length} bytes of wasm`);
  const names = widget.methodList.map((m) => m.name).sort();
  assert.deepEqual(names, ['addCatalog', 'catalogSummary', 'defaults', 'gpus', 'loadCatalog', 'loadGpus', 'loadPresets',
    'loadServingPresets', 'presets', 'rank', 'serve', 'serveOffers', 'servingPresets']);
  assert.ok(page.methodList.length > names.length + 10, `${page.methodList.length} methods in the page's engine`);
  assert.equal(data.catalogs.flatMap((c) => c.doc.instances).length, page.catalogSummary().length);
});

test('the widget\'s default ranking is the page engine\'s, offer by offer', () => {
  // The widget's request for its default preset (web/src/app/widget.js), with every row and with its first ten.
  for (const limit of [0, 10]) {
    const req = { preset: 'resnet50-imagenet', limit, filters: { fits_only: true, include_examples: false, include_stale: false } };
    const w = widget.rank(req);
    const p = page.rank(req);
    assert.ok(w.results.length >= (limit || 50), `${w.results.length} rows`);
    assert.deepStrictEqual(w, p);
  }
  // And without the widget's filters: every offer, those that do not fit too.
  assert.deepStrictEqual(widget.rank({ preset: 'resnet50-imagenet' }), page.rank({ preset: 'resnet50-imagenet' }));
});

test('the widget\'s serving ranking (its default serving preset) is the page engine\'s', () => {
  const ask = (engine) => {
    const { ms, ...a } = servingOpsOf(engine).serveRank({ serving: { preset: 'llama3.1-8b', traffic: {}, targets: {} },
      filters: { include_examples: false, include_stale: false }, curves: false });
    assert.ok(ms >= 0);
    return a;
  };
  const w = ask(widget);
  assert.ok(w.ok && w.rows.length > 50, `${w.rows && w.rows.length} rows`);
  assert.deepStrictEqual(w, ask(page));
});

test('a method the widget\'s engine leaves out answers a clear error, and the engine goes on', () => {
  for (const [method, arg] of [['advise', { params_b: 7 }], ['estimate', { preset: 'resnet50-imagenet', gpu: 'h100-sxm5-80gb', count: 8 }],
    ['validate', '{"instances":[]}'], ['messages', '']]) {
    const r = widget.tryCall(method, arg);
    assert.equal(r.ok, false, method);
    assert.equal(r.error.code, 'not_found', method);
    assert.deepEqual(r.error.message, { code: 'error.method_not_in_engine', params: { id: method } });
    assert.equal(page.tryCall(method, arg).error?.message?.code === 'error.method_not_in_engine', false, `the page's ${method}`);
  }
  const csv = widget.importSkypilot('InstanceType,AcceleratorName\n', {});
  assert.equal(csv.error.message.code, 'error.method_not_in_engine');
  assert.throws(() => widget.call('tco', {}), (e) => e instanceof GpuvalueError && e.explanation.code === 'error.method_not_in_engine');
  assert.equal(widget.tryCall('noSuchMethod', {}).error.message.code, 'error.unknown_method');
  assert.ok(widget.rank({ preset: 'resnet50-imagenet', limit: 3 }).results.length === 3);
});
