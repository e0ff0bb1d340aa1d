// The offline file's early start of the engine worker. Two small inline scripts, written by the build from the
// functions below (their text, so they run before the page's own script is parsed):
// - bootWorker, right after the engine's scripts and the wasm: starts the worker from the gv-engine and gv-worker
//   text and sends it the wasm, which the worker inflates and compiles while the browser goes on parsing the page;
// - bootData, right after the data: sends the data, which the worker loads into the engine ('init', id 0) while the
//   browser parses and runs the page's own script.
// The worker's answers wait in `answers` until engine/host.js adopts the worker (adoptBoot). Anything missing or
// failing leaves window.gpuvalueBoot unset, and the page starts the engine itself, as it always could.
// Both functions are run from their source text: they use nothing outside themselves, in ES5.
export function bootWorker() {
  try {
    if (window.GPUVALUE_NO_WORKER || typeof Worker !== 'function' || typeof Blob !== 'function' || !window.URL || !URL.createObjectURL) return;
    var text = function (id) { var el = document.getElementById(id); return el ? el.textContent : null; };
    var engine = text('gv-engine');
    var code = text('gv-worker');
    var wasm = text('gv-wasm');
    if (!engine || !code || !wasm) return;
    var url = URL.createObjectURL(new Blob([engine + '\n;' + code], { type: 'text/javascript' }));
    var worker = new Worker(url);
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    var boot = { worker: worker, answers: [], failed: null };
    worker.onmessage = function (e) { boot.answers.push(e); };
    worker.onerror = function (e) { e.preventDefault(); boot.failed = e.message || 'failed'; };
    worker.postMessage({ id: -1, op: 'wasm', args: { wasmGzBase64: wasm.trim() } });
    window.gpuvalueBoot = boot;
    performance.mark('gv:boot');
  } catch (e) {
    window.gpuvalueBoot = null;
  }
}

export function bootData() {
  var boot = window.gpuvalueBoot;
  var el = document.getElementById('gv-data');
  if (!boot || !el) return;
  boot.dataText = el.textContent;
  // The engine's "today" as engine/client.js's todayIso says it.
  boot.worker.postMessage({ id: 0, op: 'init', args: { dataText: boot.dataText, wasmGzBase64: null, today: new Date().toISOString().slice(0, 10) } });
  performance.mark('gv:boot-data');
}

// The inline scripts' text.
export const bootScripts = () => ({ worker: `(${bootWorker.toString()})();`, data: `(${bootData.toString()})();` });
