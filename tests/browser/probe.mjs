// A probe installed in a page before its own scripts run (context.addInitScript): it records, with the time of
// each, what the page's main thread does that grows with the size of the data, so that tests can assert the
// page's design guarantees without measuring time:
//   parses    JSON.parse of a text over 64 KiB on the main thread (chars)
//   reads     a Blob or File over 64 KiB read on the main thread (Blob.text/arrayBuffer/stream/bytes, FileReader)
//   sent      every message the page posts to a worker (approximate bytes of what is copied; Blobs and Files are
//             handles and count 0; the op name when the message has one)
//   received  every message the page receives from a worker (the same measure)
//   rowsAdded the number of rows added to the ranking table's body by each task (one MutationObserver delivery)
//   wasm      WebAssembly compiles or instantiations on the main thread
//   engine    every engine method called on the main thread (the engine's glue run on the page, as the main-thread
//             fallback runs it: its Engine's call and callBytes are wrapped), by name
// window.__probe.since(t) returns the records after t (performance.now()).
export function installProbe() {
  const BIG = 64 * 1024;
  const p = { parses: [], reads: [], sent: [], received: [], rowsAdded: [], wasm: 0, engine: [] };
  window.__probe = p;
  const now = () => performance.now();
  // What a structured clone copies, roughly: characters of strings, 8 bytes a number, the bytes of buffers;
  // Blobs and Files move as handles. Depth-limited, cycles skipped.
  const bytes = (v, seen = new Set(), depth = 0) => {
    if (v === null || v === undefined || typeof v === 'boolean') return 1;
    if (typeof v === 'number') return 8;
    if (typeof v === 'string') return v.length;
    if (typeof v !== 'object' || depth > 32 || seen.has(v)) return 0;
    if (v instanceof Blob) return 0;
    if (v instanceof ArrayBuffer) return v.byteLength;
    if (ArrayBuffer.isView(v)) return v.byteLength;
    seen.add(v);
    let n = 0;
    if (v instanceof Map) for (const [k, x] of v) n += bytes(k, seen, depth + 1) + bytes(x, seen, depth + 1);
    else if (Array.isArray(v)) for (const x of v) n += bytes(x, seen, depth + 1);
    else for (const k of Object.keys(v)) n += k.length + bytes(v[k], seen, depth + 1);
    return n;
  };
  const parse = JSON.parse;
  JSON.parse = function probedParse(text, reviver) {
    if (typeof text === 'string' && text.length > BIG) p.parses.push({ at: now(), chars: text.length });
    return parse.call(this, text, reviver);
  };
  for (const m of ['text', 'arrayBuffer', 'stream', 'bytes']) {
    const f = Blob.prototype[m];
    if (!f) continue;
    Blob.prototype[m] = function probedRead(...a) {
      if (this.size > BIG) p.reads.push({ at: now(), bytes: this.size, how: `Blob.${m}` });
      return f.apply(this, a);
    };
  }
  for (const m of ['readAsText', 'readAsArrayBuffer', 'readAsDataURL', 'readAsBinaryString']) {
    const f = FileReader.prototype[m];
    FileReader.prototype[m] = function probedReader(blob, ...a) {
      if (blob && blob.size > BIG) p.reads.push({ at: now(), bytes: blob.size, how: `FileReader.${m}` });
      return f.call(this, blob, ...a);
    };
  }
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function probedPost(msg, ...rest) {
    p.sent.push({ at: now(), bytes: bytes(msg), op: msg && typeof msg === 'object' ? msg.op : undefined });
    return post.call(this, msg, ...rest);
  };
  const record = (e) => p.received.push({ at: now(), bytes: bytes(e.data) });
  const onmessage = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
  if (onmessage) {
    Object.defineProperty(Worker.prototype, 'onmessage', {
      configurable: true,
      get() { return onmessage.get.call(this); },
      set(fn) { onmessage.set.call(this, typeof fn === 'function' ? function probed(e) { record(e); return fn.call(this, e); } : fn); },
    });
  }
  const listen = EventTarget.prototype.addEventListener;
  Worker.prototype.addEventListener = function probedListen(type, fn, ...rest) {
    if (type === 'message' && typeof fn === 'function') return listen.call(this, type, function probed(e) { record(e); return fn.call(this, e); }, ...rest);
    return listen.call(this, type, fn, ...rest);
  };
  for (const m of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
    const f = WebAssembly[m];
    if (f) WebAssembly[m] = function probedWasm(...a) { p.wasm++; return f.apply(this, a); };
  }
  // The engine's glue defines createGpuvalue (a var of a classic script: the setter below receives it); the modules
  // it makes get their Engine's calls recorded.
  const recordCalls = (m) => {
    const proto = m && m.Engine && m.Engine.prototype;
    for (const name of ['call', 'callBytes']) {
      const f = proto && proto[name];
      if (typeof f !== 'function' || f.probed) continue;
      proto[name] = function probedCall(method, ...a) { p.engine.push({ at: now(), method }); return f.call(this, method, ...a); };
      proto[name].probed = true;
    }
    return m;
  };
  let factory;
  Object.defineProperty(window, 'createGpuvalue', {
    configurable: true,
    get: () => factory,
    set(f) { factory = typeof f === 'function' ? (...a) => f(...a).then(recordCalls) : f; },
  });
  const watch = () => {
    new MutationObserver((list) => {
      let n = 0;
      for (const r of list) {
        for (const node of r.addedNodes) {
          if (node.nodeType !== 1) continue;
          n += (node.matches('#ranking tbody tr') ? 1 : 0) + node.querySelectorAll('#ranking tbody tr').length;
        }
      }
      if (n) p.rowsAdded.push({ at: now(), rows: n });
    }).observe(document, { childList: true, subtree: true });
  };
  if (document.documentElement) watch();
  else document.addEventListener('readystatechange', watch, { once: true });
  p.since = (t) => ({
    parses: p.parses.filter((x) => x.at >= t), reads: p.reads.filter((x) => x.at >= t),
    sent: p.sent.filter((x) => x.at >= t), received: p.received.filter((x) => x.at >= t),
    rowsAdded: p.rowsAdded.filter((x) => x.at >= t), wasm: p.wasm, engine: p.engine.filter((x) => x.at >= t),
  });
}
