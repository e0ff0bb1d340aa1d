// The engine worker's script (dist/site/worker.js; the offline file's gv-worker element): the engine-side modules
// only, without the page's UI and charts. engine/host.js says how the page starts it.
// Messages: {id, op, args} in, {id, ok, value | error} out, the error as GpuvalueError data
// {code, message, path, issues}; 'init' first, then the operations of engine/core.js.
import { initCore } from './core.js';
import { inflate } from './wasm.js';
import { errorData, isWasmAbort } from './errors.js';

let core = null;
let stopped = null;  // the abort that stopped the engine: the host starts a fresh worker

async function init({ dataText, wasmGzBase64, today }) {
  if (typeof self.createGpuvalue !== 'function') throw new Error('the engine script did not load in the worker');
  const t0 = performance.now();
  let factory = self.createGpuvalue;
  if (wasmGzBase64) {
    const wasmBinary = await inflate(wasmGzBase64);
    factory = (options = {}) => self.createGpuvalue({ ...options, wasmBinary });
  }
  const t1 = performance.now();
  let t2 = t1;
  core = await initCore((options) => factory(options).then((m) => { t2 = performance.now(); return m; }), dataText, { today });
  const t3 = performance.now();
  // Where the worker's start-up went (inflating the wasm, compiling it, loading the data): shown by the bench.
  return { ...core.handle('meta'), startup: { inflateMs: t1 - t0, compileMs: t2 - t1, dataMs: t3 - t2, startedAt: performance.timeOrigin + t0 } };
}

function runWorker() {
  self.onmessage = async (e) => {
    const { id, op, args } = e.data || {};
    try {
      if (stopped) throw stopped;
      const value = op === 'init' ? await init(args) : await core.handle(op, args);
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
