// The engine worker's script (dist/site/worker.js; the offline file's gv-worker element): the engine-side modules
// only, without the page's UI and charts. engine/host.js says how the page starts it.
// Messages: {id, op, args} in, {id, ok, value | error} out, the error as GpuvalueError data
// {code, message, path, issues}; 'init' first ('wasm' before it from the offline file's boot script, engine/boot.js),
// then the operations of engine/core.js.
import { initCore } from './core.js';
import { inflate, inflateText } from './wasm.js';
import { errorData, isWasmAbort } from './errors.js';

let core = null;
let stopped = null;  // the abort that stopped the engine: the host starts a fresh worker
let compiled = null; // {module, inflateMs, compileMs, startedAt}: the wasm sent ahead of the data (engine/boot.js)

// The wasm inflated and compiled as soon as it arrives ('wasm', from the offline file's boot script), while the
// page is still being parsed; 'init' then only instantiates it.
function compileWasm({ wasmGzBase64 }) {
  const t0 = performance.now();
  compiled = inflate(wasmGzBase64).then(async (bytes) => {
    const t1 = performance.now();
    const module = await WebAssembly.compile(bytes);
    return { module, inflateMs: t1 - t0, compileMs: performance.now() - t1, startedAt: performance.timeOrigin + t0 };
  });
  compiled.catch(() => {});  // 'init' reports the failure
  return compiled.then(() => ({}));
}

// The served site's wasm (gpuvalue_engine.wasm), compiled while its bytes arrive.
async function compileUrl(url) {
  const t0 = performance.now();
  let module;
  try {
    module = await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // A server that does not say application/wasm: the bytes whole, then compiled.
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    module = await WebAssembly.compile(await res.arrayBuffer());
  }
  return { module, inflateMs: 0, compileMs: performance.now() - t0, startedAt: performance.timeOrigin + t0 };
}

// The data comes as text, or (the offline file's boot script) as base64 of its gzip, inflated here.
async function init({ dataText, dataGzBase64, wasmGzBase64, wasmUrl, today }) {
  if (typeof self.createGpuvalue !== 'function') throw new Error('the engine script did not load in the worker');
  const t0 = performance.now();
  const text = dataText != null ? dataText : await inflateText(dataGzBase64);
  const dataInflateMs = performance.now() - t0;
  if (!compiled && wasmUrl) compiled = compileUrl(wasmUrl);
  let factory = self.createGpuvalue;
  let wasm = null;
  if (compiled) {
    wasm = await compiled;
    // Emscripten's hook for a module compiled elsewhere: instantiate it with the glue's imports.
    const instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(wasm.module, imports).then((instance) => receive(instance, wasm.module));
      return {};
    };
    factory = (options = {}) => self.createGpuvalue({ ...options, instantiateWasm });
  } else if (wasmGzBase64) {
    const wasmBinary = await inflate(wasmGzBase64);
    factory = (options = {}) => self.createGpuvalue({ ...options, wasmBinary });
  }
  const t1 = performance.now();
  let t2 = t1;
  const timings = {};
  core = await initCore((options) => factory(options).then((m) => { t2 = performance.now(); return m; }), text, { today, timings });
  const t3 = performance.now();
  const meta = core.handle('meta');
  Object.assign(timings, { metaMs: performance.now() - t3, readyAt: performance.timeOrigin + performance.now() });
  // Where the worker's start-up went (inflating the wasm, compiling it, loading the data): shown by the bench.
  const compileMs = wasm ? wasm.compileMs : t2 - t1 - timings.readMs;
  const startup = { inflateMs: wasm ? wasm.inflateMs : t1 - t0 - dataInflateMs, compileMs, dataMs: t3 - t2, startedAt: wasm ? wasm.startedAt : performance.timeOrigin + t0, initAt: performance.timeOrigin + t0 };
  return { ...meta, startup: { ...startup, ...timings, dataInflateMs } };
}

function runWorker() {
  self.onmessage = async (e) => {
    const { id, op, args } = e.data || {};
    try {
      if (stopped) throw stopped;
      const value = op === 'init' ? await init(args) : op === 'wasm' ? await compileWasm(args) : await core.handle(op, args);
      self.postMessage({ id, ok: true, value });
    } catch (err) {
      if (isWasmAbort(err)) {
        stopped = errorData(err);
        core = null;
      }
      self.postMessage({ id, ok: false, error: errorData(err) });
    }
  };
}

// In a worker it answers messages; run on the page (the main-thread fallback of engine/host.js) it only hands the
// page the engine core, so that the page's own script need not carry the engine side a second time.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) runWorker();
else globalThis.gpuvalueCore = { initCore };
