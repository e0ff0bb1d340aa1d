// The page's side of the engine: a Web Worker running engine-core.js when the browser allows one, otherwise
// the same core on the main thread. Either way every call is request(op, args) -> Promise, so the page never
// waits on the engine synchronously.
//
// The worker is a Blob made of the engine script and app.js itself (which runs engine-worker.js when it finds no
// document): the offline file's inline scripts, so no request from file:// and the CSP only needs
// worker-src blob:; on the served site, importScripts of the same two files. Some browsers refuse blob workers
// on file:// or under a CSP; then the page falls back to the main thread.
import { initCore } from './engine-core.js';
import { todayIso } from './engine-client.js';
import { inflate } from './engine-worker.js';

const INIT_TIMEOUT_MS = 60000;

class WorkerHost {
  constructor(worker) {
    this.kind = 'worker';
    this.worker = worker;
    this.next = 1;
    this.waiting = new Map();
    worker.onmessage = (e) => {
      const { id, ok, value, error } = e.data || {};
      const w = this.waiting.get(id);
      if (!w) return;
      this.waiting.delete(id);
      if (ok) w.resolve(value); else w.reject(new Error(error));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this.fail(new Error(`engine worker: ${e.message || 'failed'}`));
    };
  }

  fail(err) {
    this.failed = err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }

  request(op, args) {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }
}

class LocalHost {
  constructor(core) {
    this.kind = 'main';
    this.core = core;
  }

  // A macrotask per call, so that the event handler that asked returns (and the page paints) first.
  request(op, args) {
    return new Promise((resolve, reject) => {
      setTimeout(() => {
        try { resolve(structuredClone(this.core.handle(op, args))); } catch (e) { reject(e); }
      }, 0);
    });
  }
}

function inflateOnPage(el) {
  return inflate(el.textContent.trim());
}

// The worker runs the engine script and the worker's own script (worker-main.js: the engine-side modules without
// the page's UI); app.js, which can also serve as the worker, when that script is not there.
function workerBlobSource() {
  const engineEl = document.getElementById('gv-engine');
  const workerEl = document.getElementById('gv-worker') || document.getElementById('gv-app');
  if (engineEl && workerEl) return `${engineEl.textContent}\n;${workerEl.textContent}`;
  const src = (name) => { const el = [...document.scripts].find((s) => s.src && new URL(s.src).pathname.endsWith(`/${name}`)); return el ? el.src : null; };
  const engine = src('gpuvalue_engine.js');
  const app = src('app.js');
  if (!engine || !app) return null;
  const worker = new URL('worker.js', app).href;
  return `importScripts(${JSON.stringify(engine)}, ${JSON.stringify(worker)});`;
}

async function startWorker(dataText) {
  if (typeof Worker !== 'function' || typeof Blob !== 'function' || !window.URL || !URL.createObjectURL) throw new Error('no Web Worker');
  const source = workerBlobSource();
  if (!source) throw new Error('no engine script to start a worker with');
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  let worker;
  try {
    worker = new Worker(url);
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }
  const host = new WorkerHost(worker);
  const wasmEl = document.getElementById('gv-wasm');
  const init = host.request('init', { dataText, wasmGzBase64: wasmEl ? wasmEl.textContent.trim() : null, today: todayIso() });
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('engine worker did not start')), INIT_TIMEOUT_MS); });
  try {
    host.meta = await Promise.race([init, timeout]);
  } catch (e) {
    worker.terminate();
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return host;
}

async function startLocal(dataText) {
  const el = document.getElementById('gv-wasm');
  let factory = window.createGpuvalue;
  if (el) {
    const wasmBinary = await inflateOnPage(el);
    factory = (options = {}) => window.createGpuvalue({ ...options, wasmBinary });
  }
  const core = await initCore(factory, dataText, { today: todayIso() });
  const host = new LocalHost(core);
  host.meta = core.handle('meta');
  return host;
}

// Starts the engine: in a worker when possible (unless the page asks for the main thread with
// window.GPUVALUE_NO_WORKER), else on the main thread. Returns a host with .kind, .meta and .request().
export async function startHost(dataText) {
  if (!window.GPUVALUE_NO_WORKER) {
    try {
      return await startWorker(dataText);
    } catch (e) {
      if (window.console) console.info(`gpuvalue: running the engine on the page (${e.message || e})`);
    }
  }
  return startLocal(dataText);
}
