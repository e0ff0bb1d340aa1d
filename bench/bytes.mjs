#!/usr/bin/env node
// Where the bytes are: each part of the offline file (dist/gpuvalue.html), of the widget (dist/site/gpu-value.js)
// and of the served site's first visit (dist/site/; the chunks it loads on demand in a table of their own), raw and after `gzip -9` of the part alone. A part alone
// compresses a little worse than inside its file, so the parts' gzip sizes add up to a little more than the file's.
// `npm run bench -- --json` reports it as `bytes`; `node bench/bytes.mjs` prints the tables (after `npm run build`).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { licenceComments } from '../scripts/build-web.mjs';

const gz = (text) => zlib.gzipSync(Buffer.from(text, 'utf8'), { level: 9 }).length;
const size = (text) => ({ raw: Buffer.byteLength(text, 'utf8'), gzip: gz(text) });

// Splits `text` into named parts: each [name, RegExp] takes the first group of every match; the rest is `rest`.
function split(text, rules, rest) {
  const parts = {};
  let left = text;
  for (const [name, re] of rules) {
    left = left.replace(re, (whole, inner) => { parts[name] = (parts[name] || '') + inner; return whole.replace(inner, ''); });
  }
  parts[rest] = left;
  return parts;
}

// {part: text} → {part: {raw, gzip}}, with the scripts' licence comments in a part of their own, and the whole.
function measure(parts, scripts, whole) {
  const out = {};
  let notices = '';
  for (const [name, text] of Object.entries(parts)) {
    if (!scripts.includes(name)) { out[name] = size(text); continue; }
    const [code, kept] = licenceComments(text);
    if (code) out[name] = size(code);
    notices += kept;
  }
  out.licences = size(notices);
  out.total = { raw: Buffer.byteLength(whole, 'utf8'), gzip: gz(whole), gzip6: zlib.gzipSync(Buffer.from(whole, 'utf8')).length };
  return out;
}

export function offlineParts(html) {
  const el = (attrs) => new RegExp(`<script${attrs}>([\\s\\S]*?)</script>`, 'g');
  const parts = split(html, [
    ['data', el(' type="application/json" id="gv-data"[^>]*')],
    ['engine_wasm', el(' type="application/octet-stream" id="gv-wasm"[^>]*')],
    ['engine_glue', el('(?: type="text/plain")? id="gv-engine"')],
    ['worker', el(' type="text/plain" id="gv-worker"')],
    ['app', el('(?: type="(?:module|text/plain)")? id="gv-app"[^>]*')],
    ['app_licences', el(' type="text/plain" id="gv-app-licences"')],
    ['first_script', el(' id="gv-first"')],
    ['boot', el(' id="gv-boot[^"]*"')],
    ['first_templates', /<template id="gv-first-[^"]+">([\s\S]*?)<\/template>/g],
    ['styles', /<style>([\s\S]*?)<\/style>/g],
  ], 'markup');
  return measure(parts, ['engine_glue', 'worker', 'app', 'app_licences', 'first_script', 'boot'], html);
}

export function widgetParts(js) {
  const parts = split(js, [
    ['engine_wasm', /self\.__GPUVALUE_WASM__="([^"]*)"/g],
    ['data', /self\.__GPUVALUE_DATA__="([^"]*)"/g],
  ], 'script');
  // The engine's glue comes first, up to the wasm's assignment; the widget's own script after the data.
  const at = parts.script.indexOf(';self.__GPUVALUE_WASM__');
  const glue = at > 0 ? parts.script.slice(0, at) : '';
  return measure({ engine_wasm: parts.engine_wasm, data: parts.data, engine_glue: glue, widget: parts.script.slice(glue.length) },
    ['engine_glue', 'widget'], js);
}

// The site's page script as ES modules (scripts/build-web.mjs): app.js and the chunks it imports statically load on
// every visit; a chunk reached only by import() loads on demand. Paths relative to the site's folder.
const staticImports = (js) => [...js.matchAll(/\bimport\s*(?:\{[^}]*\}|\*\s*as\s*[\w$]+|[\w$]+)?\s*(?:from\s*)?"(\.\.?\/[^"]+)"/g)].map((m) => m[1]);
export function siteScripts(siteDir) {
  const first = [];
  const walk = (file) => {
    if (first.includes(file) || !fs.existsSync(path.join(siteDir, file))) return;
    first.push(file);
    const js = fs.readFileSync(path.join(siteDir, file), 'utf8');
    for (const spec of staticImports(js)) walk(path.posix.join(path.posix.dirname(file), spec));
  };
  walk('app.js');
  const chunkDir = path.join(siteDir, 'chunks');
  const chunks = fs.existsSync(chunkDir) ? fs.readdirSync(chunkDir).filter((f) => f.endsWith('.js')).sort().map((f) => `chunks/${f}`) : [];
  return { first, lazy: chunks.filter((f) => !first.includes(f)) };
}

// The chunk of a language's strings (web/src/i18n/strings.<lang>.js) among the lazy ones.
const stringsChunk = (lazy, lang) => lazy.find((f) => path.posix.basename(f).startsWith(`strings.${lang}-`));

// The files a first visit of the served site loads (the default view in the reader's language, English here), each
// measured alone; the total is their sum. The chunks it does not load are siteLazyParts'.
export function siteParts(siteDir, lang = 'en') {
  const read = (f) => (fs.existsSync(path.join(siteDir, f)) ? fs.readFileSync(path.join(siteDir, f), 'utf8') : '');
  const index = read('index.html');
  const templates = split(index, [['first', /<template id="gv-first-[^"]+">([\s\S]*?)<\/template>/g]], 'page');
  const engine = read('gpuvalue_engine.js');
  const m = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(engine);
  // The wasm as a file of its own (bytes; before, base64 inside the engine's script).
  const wasmFile = path.join(siteDir, 'gpuvalue_engine.wasm');
  const wasmGzip = fs.existsSync(wasmFile) ? zlib.gzipSync(fs.readFileSync(wasmFile), { level: 9 }).length : null;
  const { first, lazy } = siteScripts(siteDir);
  const strings = stringsChunk(lazy, lang);
  const scripts = [...first, ...(strings ? [strings] : [])];
  const parts = {
    'index.html': templates.page, first_templates: templates.first || '', 'first.js': read('first.js'), 'styles.css': read('styles.css'),
    ...Object.fromEntries(scripts.map((f) => [f, read(f)])),
    engine_glue: m ? engine.replace(m[1], '') : engine, engine_wasm: m ? m[1] : '', 'worker.js': read('worker.js'), 'data/bundle.json': read('data/bundle.json'),
  };
  const out = measure(parts, [...scripts, 'engine_glue', 'worker.js', 'first.js'], '');
  delete out.total;
  if (wasmGzip !== null) out['gpuvalue_engine.wasm'] = { raw: fs.statSync(wasmFile).size, gzip: wasmGzip };
  if (!m) delete out.engine_wasm;
  const sum = (k) => Object.entries(out).filter(([n]) => n !== 'total').reduce((s, [, v]) => s + v[k], 0);
  out.total = { raw: sum('raw'), gzip: sum('gzip') };
  return out;
}

// The site's chunks a first visit does not load (the other language, the accuracy view's data, the decision tools'
// panels), each measured alone with its licence comments.
export function siteLazyParts(siteDir, lang = 'en') {
  const { lazy } = siteScripts(siteDir);
  const mine = stringsChunk(lazy, lang);
  return Object.fromEntries(lazy.filter((f) => f !== mine).map((f) => [f, size(fs.readFileSync(path.join(siteDir, f), 'utf8'))]));
}

export function bytesReport(root) {
  const dist = path.join(root, 'dist');
  return {
    offline: offlineParts(fs.readFileSync(path.join(dist, 'gpuvalue.html'), 'utf8')),
    widget: widgetParts(fs.readFileSync(path.join(dist, 'site/gpu-value.js'), 'utf8')),
    site: siteParts(path.join(dist, 'site')),
    site_lazy: siteLazyParts(path.join(dist, 'site')),
  };
}

// Markdown tables of a bytesReport: one row per part, raw / gzip -9 in bytes.
export function bytesTables(report) {
  const n = (x) => x.toLocaleString('en-US');
  return Object.entries(report).map(([what, parts]) => [`| ${what}: part | raw bytes | gzip -9 bytes |`, '|---|---|---|',
    ...Object.entries(parts).map(([name, v]) => `| ${name} | ${n(v.raw)} | ${n(v.gzip)}${v.gzip6 ? ` (gzip -6: ${n(v.gzip6)})` : ''} |`)].join('\n')).join('\n\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = bytesReport(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  console.log(process.argv.includes('--json') ? JSON.stringify(report, null, 1) : bytesTables(report));
}
