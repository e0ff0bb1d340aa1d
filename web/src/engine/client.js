// The one loader between JavaScript and the wasm engine (page, widget, CLI and JS tests use it).
// The engine speaks JSON text; this turns results into objects and engine errors into GpuvalueError.

// The engine explains an error with a message {code, params} (web/src/i18n/messages.*.json says it in each
// language). An error's `explanation` is that message; its `message` text is "path: explanation" as rendered by the
// renderer set here (the page, the widget and the CLI set theirs, in the reader's language; without one the code
// and parameters are shown). Errors made in JavaScript with a plain text message keep that text.
const plainText = (m) => [m.code, ...Object.entries(m.params || {}).map(([k, v]) => `${k}=${v}`)].join(' ');
let renderExplanation = plainText;
export function setErrorRenderer(render) { renderExplanation = typeof render === 'function' ? render : plainText; }
export const isMessage = (m) => Boolean(m) && typeof m === 'object' && typeof m.code === 'string';
// "path: explanation" of an issue or error ({path, message}) in the renderer's language; a plain text message is
// complete as it is.
export function issueText(issue) {
  const m = issue && issue.message;
  if (!isMessage(m)) return String(m ?? '');
  return `${issue.path || '/'}: ${renderExplanation(m)}`;
}

export class GpuvalueError extends Error {
  constructor(result) {
    const err = (result && result.error) || { code: 'internal', message: { code: 'error.internal', params: { detail: '' } }, path: '' };
    super(issueText(err));
    this.name = 'GpuvalueError';
    this.code = err.code;
    this.path = err.path;
    this.explanation = isMessage(err.message) ? err.message : null;
    this.issues = (result && result.issues) || [];
  }
}

const encoder = typeof TextEncoder === 'function' ? new TextEncoder() : null;
const decoder = typeof TextDecoder === 'function' ? new TextDecoder() : null;
const PIECE_CHARS = 1 << 18;         // catalog text goes to the engine in pieces of this many characters
const WHOLE_TEXT_CHARS = 1 << 16;    // below this a catalog goes in one call

export class EngineClient {
  constructor(module, engine) {
    this.module = module;
    this.engine = engine;
    // The engine's dispatch table: [{name, argument: 'request'|'document'|'csv'|'none', description}].
    this.methodList = JSON.parse(engine.methods()).methods;
    // Each method that takes a JSON request is client.<name>(request) -> its answer (throws GpuvalueError).
    for (const { name, argument } of this.methodList) {
      if (argument === 'request' && !(name in this)) this[name] = (request) => this.call(name, request);
    }
  }

  // The names of the methods that take a JSON request (rank, estimate, cost and the decision tools).
  requestMethods() {
    return this.methodList.filter((m) => m.argument === 'request').map((m) => m.name);
  }

  // An engine method's answer as JSON text. Answers come back as a view of their UTF-8 bytes in wasm memory,
  // decoded here in one native call.
  text(method, arg, options = '') {
    const a = arg === undefined ? '' : typeof arg === 'string' ? arg : JSON.stringify(arg);
    if (decoder) return decoder.decode(this.engine.callBytes(method, a, options));
    return this.engine.call(method, a, options);
  }

  // Calls an engine method; returns the parsed result or throws GpuvalueError.
  call(method, arg) {
    const result = JSON.parse(this.text(method, arg));
    if (!result.ok) throw new GpuvalueError(result);
    return result;
  }

  // Like call, but returns the result object even when it is an error ({ok: false, error, issues}).
  tryCall(method, arg) {
    return JSON.parse(this.text(method, arg));
  }

  // Loads (mode 'load'), adds ('add') or checks ('validate') catalog text. Large texts go to the engine in pieces
  // encoded straight into its memory, so a 100,000-offer catalog never sits in wasm memory whole; malformed text
  // is then read whole once more, for the syntax error with its line and column.
  catalogText(mode, text) {
    const method = { load: 'loadCatalog', add: 'addCatalog', validate: 'validate' }[mode];
    if (text.length < WHOLE_TEXT_CHARS || !encoder || typeof this.engine.catalogBegin !== 'function') return this.tryCall(method, text);
    const begun = JSON.parse(this.engine.catalogBegin(mode, text.length));
    if (!begun.ok) return begun;
    for (let i = 0; i < text.length;) {
      let j = Math.min(text.length, i + PIECE_CHARS);
      const c = text.charCodeAt(j - 1);
      if (j < text.length && c >= 0xd800 && c <= 0xdbff) j -= 1;  // keep a surrogate pair in one piece
      const view = this.engine.catalogBuffer(3 * (j - i));
      if (!view) { this.engine.catalogEnd(); return this.tryCall(method, text); }
      const { written } = encoder.encodeInto(text.substring(i, j), view);
      if (!this.engine.catalogFeed(written)) break;
      i = j;
    }
    const r = JSON.parse(this.engine.catalogEnd());
    return r.retry_whole_text ? this.tryCall(method, text) : r;
  }

  defaults() { return this.call('defaults'); }
  presets() { return this.call('presets').presets; }
  gpus() { return this.call('gpus').gpus; }
  catalogSummary() { return this.call('catalogSummary').offers; }
  catalogFacts() { return this.call('catalogFacts'); }
  validate(text) { return this.catalogText('validate', text); }
  loadCatalog(text) { return this.catalogText('load', text); }
  addCatalog(text) { return this.catalogText('add', text); }
  importSkypilot(csv, options = {}) {
    return JSON.parse(this.text('importSkypilot', csv, JSON.stringify(options)));
  }
  heapBytes() { return this.module.heapBytes(); }
}

import { todayIso } from '../format/format.js';

export { todayIso };

// Creates an engine loaded with the bundled data ({gpus, presets, serving_presets?, catalogs: [{file, doc}]}). catalogTexts: the
// catalogs' documents as JSON text when the caller has them already (one stringify of a megabyte less at start).
// The catalogs go in through catalogText, encoded straight into wasm memory.
export async function createEngine(factory, data, { today = todayIso(), catalogTexts } = {}) {
  const module = await factory();
  const engine = new module.Engine();
  engine.setToday(today);
  const client = new EngineClient(module, engine);
  client.call('loadGpus', JSON.stringify(data.gpus));
  const texts = catalogTexts || data.catalogs.map((c) => JSON.stringify(c.doc));
  const loaded = client.loadCatalog(`[${texts.join(',')}]`);
  if (!loaded.ok) throw new GpuvalueError(loaded);
  client.call('loadPresets', JSON.stringify(data.presets));
  if (data.serving_presets) client.call('loadServingPresets', JSON.stringify(data.serving_presets));
  return client;
}
