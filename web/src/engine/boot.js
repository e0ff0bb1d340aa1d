// The offline file's early start of the engine worker and of the page's script. Small inline scripts, written by
// the build from the functions below (their text, so they run before the page's own script is parsed):
// - bootWorker, right after the first screen and the engine's glue and the worker's code (both as text, type
//   text/plain): starts the worker from the gv-engine and gv-worker text, so that the worker's thread starts and
//   compiles its script while the browser parses the rest of the file;
// - bootWasm, right after the wasm: sends it, and the worker inflates and compiles it while the browser goes on;
// - bootData, right after the data: sends the data, which the worker loads into the engine ('init', id 0) while the
//   browser parses and runs the page's own script;
// - bootApp, last: inflates the page's script (gv-app, base64 of its gzip) and runs it in a task of its own, once the
//   file is parsed. An inline script is compiled inside the parser's task where the parser meets it (the page's 600 KB,
//   ~290 ms on the loaded machine), and the worker's thread, starting at that moment, started slowly
//   (docs/performance.md).
// The worker's answers wait in `answers` until engine/host.js adopts the worker (adoptBoot). Anything missing or
// failing leaves window.gpuvalueBoot unset, and the page starts the engine itself, as it always could.
// The functions are run from their source text: they use nothing outside themselves, in ES5.
export function bootWorker() {
  try {
    if (window.GPUVALUE_NO_WORKER || typeof Worker !== 'function' || typeof Blob !== 'function' || !window.URL || !URL.createObjectURL) return;
    var text = function (id) { var el = document.getElementById(id); return el ? el.textContent : null; };
    var engine = text('gv-engine');
    var code = text('gv-worker');
    if (!engine || !code) return;
    var url = URL.createObjectURL(new Blob([engine + '\n;' + code], { type: 'text/javascript' }));
    var worker = new Worker(url);
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    var boot = { worker: worker, answers: [], failed: null };
    worker.onmessage = function (e) { boot.answers.push(e); };
    worker.onerror = function (e) { e.preventDefault(); boot.failed = e.message || 'failed'; };
    window.gpuvalueBoot = boot;
    performance.mark('gv:boot');
  } catch (e) {
    window.gpuvalueBoot = null;
  }
}

export function bootWasm() {
  var boot = window.gpuvalueBoot;
  var el = document.getElementById('gv-wasm');
  if (!boot || !el) return;
  boot.worker.postMessage({ id: -1, op: 'wasm', args: { wasmGzBase64: el.textContent.trim() } });
  boot.wasm = true;
  performance.mark('gv:boot-wasm');
}

export function bootData() {
  var boot = window.gpuvalueBoot;
  var el = document.getElementById('gv-data');
  if (!boot || !boot.wasm || !el) return;
  // The data as the element holds it (base64 of its gzip): the page's own copy (app/main.js) is the same element's,
  // so the host adopts this worker (engine/host.js) when the keys match.
  boot.dataKey = el.textContent;
  // The engine's "today" as engine/client.js's todayIso says it.
  boot.worker.postMessage({ id: 0, op: 'init', args: { dataText: null, dataGzBase64: boot.dataKey.trim(), wasmGzBase64: null, today: new Date().toISOString().slice(0, 10) } });
  performance.mark('gv:boot-data');
}

// The page's script, from the gv-app element's text (base64 of its gzip: a fifth of the bytes for the browser to
// read before the first screen), in a task of its own (a script element made from it runs where it is inserted; the
// policy allows it by the hash of that text). Once only. When it cannot be inflated, the page says so in both
// languages instead of staying on its first screen. The inflate is engine/wasm.js's inflateText written out again:
// a boot script uses nothing outside itself.
export function bootApp() {
  setTimeout(function () {
    var el = document.getElementById('gv-app');
    if (!el || window.gpuvalueApp) return;
    window.gpuvalueApp = true;
    var run = function (text) {
      var script = document.createElement('script');
      script.textContent = text;
      document.body.appendChild(script);
    };
    var fail = function (e) {
      var p = document.createElement('p');
      p.className = 'error';
      p.setAttribute('role', 'alert');
      p.textContent = 'gpuvalue could not start / 无法启动: ' + ((e && e.message) || e);
      var root = document.getElementById('app');
      root.insertBefore(p, root.firstChild);
      document.body.dataset.ready = 'error';
    };
    try {
      var base64 = el.textContent.trim();
      var bytes;
      if (typeof Uint8Array.fromBase64 === 'function') bytes = Uint8Array.fromBase64(base64);
      else {
        var bin = atob(base64);
        bytes = new Uint8Array(bin.length);
        for (var i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
      }
      new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) {
        performance.mark('gv:boot-app');
        run(text);
      }, fail);
    } catch (e) {
      fail(e);
    }
  }, 0);
}

// The inline scripts' text.
export const bootScripts = () => Object.fromEntries(Object.entries({ worker: bootWorker, wasm: bootWasm, data: bootData, app: bootApp })
  .map(([k, f]) => [k, `(${f.toString()})();`]));
