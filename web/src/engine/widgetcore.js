// The widget's engine side (web/src/app/widget.js): the engines a page's <gpu-value> elements share and the two
// questions an element asks of them. It runs in a worker started from the widget's own script where the host page
// allows one, else on the page; either way an element only sends a question and draws the answer.
// The script carries the engine's glue (createGpuvalue), its wasm and the bundled data, each as base64 of its gzip,
// as globals (scripts/build-web.mjs), in a window and in a worker alike.
import { createEngine, GpuvalueError } from './client.js';
import { unpackBundle } from './bundle.js';
import { inflate, inflateText } from './wasm.js';
import { servingOpsOf } from './serving.js';
import { errorData as engineErrorData } from './errors.js';

// An error as plain data that crosses postMessage (the engine's error shape, errors.js), with the element's catalog
// URL and HTTP status when the error is about its catalog file (widget.js errorText words them).
export function errorData(e) {
  return { ...engineErrorData(e), url: e && e.url, http: e && e.http };
}

export function widgetCore(scope = globalThis) {
  let wasmPromise;
  let dataPromise;
  let shared;
  const byUrl = new Map();
  const servingOps = new WeakMap();

  // The wasm and the data inflated once, for every engine (both at once).
  async function startEngine() {
    wasmPromise ||= scope.__GPUVALUE_WASM__ ? inflate(scope.__GPUVALUE_WASM__) : Promise.resolve(undefined);
    dataPromise ||= inflateText(scope.__GPUVALUE_DATA__).then((text) => JSON.parse(text));
    const [wasmBinary, data] = await Promise.all([wasmPromise, dataPromise]);
    const factory = wasmBinary ? (options = {}) => scope.createGpuvalue({ ...options, wasmBinary }) : scope.createGpuvalue;
    return createEngine(factory, unpackBundle(data));
  }

  // An element with a catalog attribute ranks the bundled offers and that file's on an engine of its own (one per URL),
  // so its offers never appear in another element. A failed fetch or a refused file is not kept: the next question
  // with that URL tries again. `href` is the URL resolved against the host page, `url` the attribute as written.
  function catalogEngine(url, href) {
    if (!byUrl.has(href)) {
      const ready = (async () => {
        const res = await fetch(href);
        if (!res.ok) throw Object.assign(new Error(`${url}: HTTP ${res.status}`), { http: { url, status: res.status } });
        const text = await res.text();
        const engine = await startEngine();
        const r = engine.addCatalog(text);
        if (!r.ok) throw Object.assign(new GpuvalueError(r), { url });
        return engine;
      })();
      byUrl.set(href, ready);
      ready.catch(() => { if (byUrl.get(href) === ready) byUrl.delete(href); });
    }
    return byUrl.get(href);
  }

  function opsOf(engine) {
    if (!servingOps.has(engine)) servingOps.set(engine, servingOpsOf(engine));
    return servingOps.get(engine);
  }

  // {op: 'rank', req} -> the ranking and its preset's names; {op: 'serve', req: serveRank's arguments} -> the serving
  // ranking, the GPUs' names and the serving preset's names. `catalog`: {url, href} of the element's catalog file.
  async function answer({ op, req, catalog }) {
    const engine = await (catalog ? catalogEngine(catalog.url, catalog.href) : (shared ||= startEngine()));
    if (op === 'serve') {
      const a = opsOf(engine).serveRank(req);
      if (!a.ok) throw new GpuvalueError(a);
      const gpus = engine.gpus().map((g) => [g.id, g.name]);
      const preset = engine.call('servingPresets').presets.find((p) => p.id === req.serving.preset);
      return { a, gpus, presetName: preset ? preset.name : null };
    }
    const result = engine.rank(req);
    const preset = engine.presets().find((p) => p.id === result.workload.name);
    return { result, presetName: preset ? preset.name : null };
  }
  return { answer };
}

// The worker's side: each message {id, question} is answered {id, ok, value | error}. A failed start of the engine
// itself (a host whose policy refuses wasm in workers) is answered {id, fatal}, and the page answers on its own.
export function serveWidgetWorker(scope = globalThis) {
  const core = widgetCore(scope);
  scope.onmessage = async (e) => {
    const { id, question } = e.data || {};
    try {
      scope.postMessage({ id, ok: true, value: await core.answer(question) });
    } catch (err) {
      const fatal = err instanceof WebAssembly.CompileError || err instanceof WebAssembly.RuntimeError || (err && err.name === 'EvalError');
      scope.postMessage({ id, ok: false, fatal, error: errorData(err) });
    }
  };
  scope.postMessage({ hello: true });
}
