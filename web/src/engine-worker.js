// The engine worker. app.js (main.js) runs this when it finds itself in a worker: engine-host.js makes a Blob
// worker of the engine script + app.js (the offline file's inline scripts, or importScripts of the served site's
// files), so it works from file:// under the strict CSP (worker-src blob:) with no request.
// Messages: {id, op, args} in, {id, ok, value | error} out; 'init' first, then engine-core.js operations.
import { initCore } from './engine-core.js';

let core = null;

// base64(gzip(wasm)) -> wasm bytes. A data: URL fetch decodes the base64 natively (the page's CSP allows
// connect-src data:); atob and a byte loop when that fails.
export async function inflate(base64) {
  let stream;
  try {
    stream = (await fetch(`data:application/octet-stream;base64,${base64}`)).body;
  } catch {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
    stream = new Blob([bytes]).stream();
  }
  return new Response(stream.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

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

export function runWorker() {
  self.onmessage = async (e) => {
    const { id, op, args } = e.data || {};
    try {
      const value = op === 'init' ? await init(args) : core.handle(op, args);
      self.postMessage({ id, ok: true, value });
    } catch (err) {
      self.postMessage({ id, ok: false, error: String((err && err.message) || err) });
    }
  };
}
