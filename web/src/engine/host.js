// How the page starts the engine (startHost below is the engine folder's entry for the page):
// - Served site: a Web Worker whose code is the site's own two scripts, gpuvalue_engine.js (the wasm engine's
//   glue; the worker compiles gpuvalue_engine.wasm as it arrives) and worker.js (engine/worker.js: the engine-side modules without the page's UI), loaded by importScripts
//   from a small Blob (the CSP allows worker-src 'self' blob:).
// - Offline file (file://, no requests): a Blob worker made of the text of the inline gv-engine and gv-worker
//   elements; the wasm comes from the gv-wasm element (gzip + base64) and is inflated in the worker. The file's
//   boot scripts (engine/boot.js) start that worker while the page is parsed; startHost adopts it.
// - Main-thread fallback: when no worker can start (no Worker or Blob, a browser that refuses blob workers on
//   file:// or under a CSP, a worker that does not answer 'init' in time, or window.GPUVALUE_NO_WORKER), the very
//   same engine core (engine/core.js) runs on the page, one macrotask per call: the worker's script itself, run on
//   the page (the offline file's gv-worker text, or the site's worker.js), hands it over as globalThis.gpuvalueCore.
// Either way every call is host.request(op, args) -> Promise, and every failure is a GpuvalueError
// {code, message, path, issues} (engine/errors.js), so the page never waits on the engine synchronously and
// handles one error shape.
import { todayIso } from './client.js';
import { inflate } from './wasm.js';
import { asGpuvalueError, isWasmAbort } from './errors.js';

const INIT_TIMEOUT_MS = 60000;

// A host's restart: `replace` gives it a fresh engine; calls made meanwhile wait for that (host.replacing), then
// onRestart runs (unless the host failed). Resolves once onRestart has run. A restart asked for while the engine is
// being replaced is that one (the hosts return host.restarted); one asked for during onRestart (a wasm abort, a
// cancelled call) replaces the fresh engine in turn.
function replaceEngine(host, replace) {
  host.replacing = (async () => {
    try {
      await replace();
    } finally {
      host.replacing = null;
    }
  })();
  host.restarted = host.replacing.then(() => (!host.failed && host.onRestart ? host.onRestart() : undefined));
  return host.restarted;
}

// A host never calls an engine instance again after a wasm abort: it starts a fresh one (restart) and then
// calls onRestart, with which the page hands its own catalogs back to the new engine. cancel() does the same to
// stop a long call (an import of many rows): a worker busy in wasm can only be terminated. A call made meanwhile
// waits for the fresh engine (`replacing`), not for onRestart: the page's restore takes the store lock, and a
// call made by a step that holds that lock would otherwise wait for the restore while the restore waits for it.
class WorkerHost {
  constructor(worker, dataText) {
    this.kind = 'worker';
    this.dataText = dataText;
    this.next = 1;
    this.waiting = new Map();
    this.onRestart = null;
    this.attach(worker);
  }

  attach(worker) {
    this.worker = worker;
    worker.onmessage = (e) => {
      const { id, ok, value, error } = e.data || {};
      const w = this.waiting.get(id);
      if (!w) return;
      this.waiting.delete(id);
      if (ok) { w.resolve(value); return; }
      const err = asGpuvalueError(error);
      w.reject(err);
      if (isWasmAbort(err)) this.restart(err);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this.fail(asGpuvalueError(`engine worker: ${e.message || 'failed'}`));
    };
  }

  fail(err) {
    this.failed = err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }

  // Ends the current worker (its pending calls fail with `reason`) and starts a fresh one (replaceEngine below).
  restart(reason) {
    if (this.replacing) return this.restarted;
    for (const w of this.waiting.values()) w.reject(reason);
    this.waiting.clear();
    this.worker.terminate();
    return replaceEngine(this, async () => {
      try {
        const fresh = await startWorker(this.dataText);
        this.attach(fresh.worker);
        this.meta = fresh.meta;
        this.failed = null;
      } catch (e) {
        this.fail(asGpuvalueError(e));
      }
    });
  }

  cancel() {
    return this.restart(asGpuvalueError({ code: 'cancelled', message: 'cancelled' }));
  }

  async request(op, args) {
    if (this.replacing) await this.replacing;
    if (this.failed) throw this.failed;
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }
}

class LocalHost {
  constructor(core, start) {
    this.kind = 'main';
    this.core = core;
    this.start = start;  // () => a fresh core (a new wasm instance)
    this.onRestart = null;
  }

  // A macrotask per call, so that the event handler that asked returns (and the page paints) first.
  async request(op, args) {
    if (this.replacing) await this.replacing;
    await new Promise((resolve) => { setTimeout(resolve, 0); });
    try {
      return structuredClone(await this.core.handle(op, args));
    } catch (e) {
      if (isWasmAbort(e)) this.restart();
      throw asGpuvalueError(e);
    }
  }

  restart() {
    if (this.replacing) return this.restarted;
    return replaceEngine(this, async () => { this.core = await this.start(); });
  }

  // On the main thread a running call cannot be interrupted; there is nothing to cancel between calls.
  cancel() { return Promise.resolve(); }
}

// The served site's engine wasm, beside its script (the offline file carries its own in gv-wasm): an absolute URL,
// so that a Blob worker can fetch it.
function siteWasmUrl() {
  if (document.getElementById('gv-wasm')) return null;
  const el = [...document.scripts].find((s) => s.src && new URL(s.src).pathname.endsWith('/gpuvalue_engine.js'));
  return el ? new URL('gpuvalue_engine.wasm', el.src).href : null;
}

// The worker's code: the offline file's inline engine and worker scripts, or on the served site a Blob that
// imports the site's engine and worker scripts. Null when neither is on the page.
function workerBlobSource() {
  const engineEl = document.getElementById('gv-engine');
  const workerEl = document.getElementById('gv-worker');
  if (engineEl && workerEl) return `${engineEl.textContent}\n;${workerEl.textContent}`;
  const src = (name) => { const el = [...document.scripts].find((s) => s.src && new URL(s.src).pathname.endsWith(`/${name}`)); return el ? el.src : null; };
  const engine = src('gpuvalue_engine.js');
  const app = src('app.js');
  if (!engine || !app) return null;
  const worker = new URL('worker.js', app).href;
  return `importScripts(${JSON.stringify(engine)}, ${JSON.stringify(worker)});`;
}

// The host once its worker has answered 'init' (its meta kept), or a failure, the worker ended, after INIT_TIMEOUT_MS.
async function awaitInit(host, init) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(asGpuvalueError('engine worker did not start')), INIT_TIMEOUT_MS); });
  try {
    host.meta = await Promise.race([init, timeout]);
  } catch (e) {
    host.worker.terminate();
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return host;
}

// The worker the offline file's boot script started (engine/boot.js), its 'init' (id 0) already sent: the host
// takes it over and hands it the answers that came before.
async function adoptBoot(boot, dataText) {
  const host = new WorkerHost(boot.worker, dataText);
  const init = new Promise((resolve, reject) => { host.waiting.set(0, { resolve, reject }); });
  for (const e of boot.answers.splice(0)) boot.worker.onmessage(e);
  if (boot.failed) host.fail(asGpuvalueError(`engine worker: ${boot.failed}`));
  return awaitInit(host, init);
}

async function startWorker(dataText, dataKey) {
  const boot = window.gpuvalueBoot;
  if (boot) {
    window.gpuvalueBoot = null;
    if (boot.dataKey === dataKey) return adoptBoot(boot, dataText);
    boot.worker.terminate();  // started, but not sent this data: not of use
  }
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
  const host = new WorkerHost(worker, dataText);
  const wasmEl = document.getElementById('gv-wasm');
  const init = host.request('init', { dataText, wasmGzBase64: wasmEl ? wasmEl.textContent.trim() : null, wasmUrl: siteWasmUrl(), today: todayIso() });
  return awaitInit(host, init);
}

// Runs an inline element's text (type text/plain: the offline file's engine glue and worker code) as a script on the
// page; the policy allows it by the hash of that text.
function runInline(el) {
  const script = document.createElement('script');
  script.textContent = el.textContent;
  document.head.append(script);
}

// The engine core for the main-thread fallback, from the worker's script run on the page (and the engine's glue,
// which the offline file carries as text for the worker).
async function pageCore() {
  const glue = document.getElementById('gv-engine');
  if (typeof window.createGpuvalue !== 'function' && glue) runInline(glue);
  if (!globalThis.gpuvalueCore) {
    const inline = document.getElementById('gv-worker');
    const app = [...document.scripts].find((s) => s.src && new URL(s.src).pathname.endsWith('/app.js'));
    const script = document.createElement('script');
    await new Promise((resolve, reject) => {
      if (inline) { runInline(inline); resolve(); return; }
      if (!app) { reject(new Error('no engine script to run on the page')); return; }
      script.onload = resolve;
      script.onerror = () => reject(new Error('worker.js did not load'));
      script.src = new URL('worker.js', app.src).href;
      document.head.append(script);
    });
  }
  if (!globalThis.gpuvalueCore) throw new Error('the engine core did not start on the page');
  return globalThis.gpuvalueCore;
}

async function startLocal(dataText) {
  const { initCore } = await pageCore();
  const el = document.getElementById('gv-wasm');
  let factory = window.createGpuvalue;
  const url = siteWasmUrl();
  if (el || url) {
    const wasmBinary = el ? await inflate(el.textContent.trim()) : await fetch(url).then((res) => {
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return res.arrayBuffer();
    });
    factory = (options = {}) => window.createGpuvalue({ ...options, wasmBinary });
  }
  const start = () => initCore(factory, dataText, { today: todayIso() });
  const host = new LocalHost(await start(), start);
  host.meta = host.core.handle('meta');
  return host;
}

// Starts the engine: in a worker when possible (unless the page asks for the main thread with
// window.GPUVALUE_NO_WORKER), else on the main thread. Returns a host with .kind, .meta and .request(). dataKey:
// the data as its element holds it (the boot script's worker is adopted when it was sent the same).
export async function startHost(dataText, dataKey = dataText) {
  if (!window.GPUVALUE_NO_WORKER) {
    try {
      return await startWorker(dataText, dataKey);
    } catch (e) {
      if (window.console) console.info(`gpuvalue: running the engine on the page (${e.message || e})`);
    }
  }
  return startLocal(dataText);
}
