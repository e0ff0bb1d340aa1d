// Web outputs: dist/site/ (served by `npm start`), dist/site/gpu-value.js (the embeddable widget, one file)
// and dist/gpuvalue.html (one self-contained file that works from file:// with no requests at all).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import { prerender, firstScript, firstTemplates } from './prerender.mjs';
import { packBundle } from '../web/src/engine/bundle.js';
import { bootScripts } from '../web/src/engine/boot.js';
import { bundledFx } from '../web/src/state/state.js';

export function dataBundle(root) {
  const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
  const catalogDir = path.join(root, 'data/catalog');
  // The free-text `notes` of GPU records and offers (datasheet and price-page caveats for maintainers) are not used
  // by the engine or shown by the page; they stay in data/ and are left out of the bundle to keep the offline file
  // under budget.
  const catalogs = fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => ({ file: `data/catalog/${f}`, doc: read(`data/catalog/${f}`) }));
  // Likewise an imported price's zone_median_usd_per_hour (the engine ignores it; it documents the import).
  const lean = ({ zone_median_usd_per_hour: median, ...p }) => p;
  for (const { doc } of catalogs) if (doc.instances) doc.instances = doc.instances.map(({ notes, ...o }) => ({ ...o, prices: (o.prices || []).map(lean) }));
  const gpus = read('data/gpus.json');
  // A GPU record's sources are read by the engine (it warns when there is none) but never shown or used for a
  // number; the bundle keeps each source's address (its first URL, else the text before any parenthesis) and drops
  // the quoted figures after it, which stay in data/gpus.json (about 9 KB less after gzip).
  const address = (source) => (source.match(/https?:\/\/[^\s)]+/) || [source.split(' (')[0]])[0];
  gpus.gpus = gpus.gpus.map(({ notes, ...g }) => ({ ...g, sources: (g.sources || []).map(address) }));
  // The serving presets' sources and notes are for maintainers (the engine ignores them); the bundle keeps the models.
  const serving = read('data/serving-presets.json');
  serving.presets = serving.presets.map(({ sources, notes, ...p }) => p);
  // The served model's members and their bounds as the engine reads them (its schema, written from its field table):
  // the page's own-model inputs and the URL's own model are read against them (web/src/state/servingmodel.js).
  const model = read('data/schema/serving-presets.schema.json').$defs.serving_model;
  const servingModel = { required: model.required, properties: Object.fromEntries(Object.entries(model.properties).map(([k, { description, ...p }]) => [k, p])) };
  return { gpus, presets: read('data/presets.json'), serving_presets: serving, serving_model: servingModel, catalogs };
}

// The notice every shipped script keeps: what third-party software the builds contain, under which licences
// (full texts in THIRD_PARTY_NOTICES). The engine's wasm (nlohmann/json, Emscripten's musl and libc++) has no
// comments of its own, so the notice travels on the engine's script. The page's script bundles no third-party
// package; one that did would keep its own licence comments (legalComments), beside the offline file's script.
export const NOTICE = `/*! gpuvalue, MIT licence (LICENSE). Third-party software in gpuvalue's builds, licence texts in
 THIRD_PARTY_NOTICES: nlohmann/json (MIT, Niels Lohmann), Emscripten runtime (MIT, the Emscripten Authors), musl libc (MIT,
 Rich Felker et al.), LLVM libc++, libc++abi and compiler-rt (Apache-2.0 WITH LLVM-exception), dlmalloc
 (public domain, Doug Lea). */
`;

// The widget's strings: its UI keys (every t('key') and t('key', params) in web/src/app/widget.js, and the billing models it names with
// t(r.pricing)) and the engine's error messages (error.*, with the catalog terms term.* they name: what the widget
// shows when an attribute or a catalog is refused). The widget's build gets these subsets instead of the page's
// whole catalogs (about 40 KB less after gzip); a UI key the widget uses that a catalog lacks stops the build.
const PRICING_MODELS = ['on_demand', 'reserved', 'spot', 'tiered', 'monthly', 'serverless'];
function widgetStrings(root) {
  const source = fs.readFileSync(path.join(root, 'web/src/app/widget.js'), 'utf8');
  const keys = [...new Set([...source.matchAll(/\bt\('([A-Za-z_]+)'[,)]/g)].map((m) => m[1]))].concat(PRICING_MODELS);
  const i18n = path.join(root, 'web/src/i18n');
  const want = new Set(keys);
  // Engine message catalogs (messages.*.json): the error and term entries; UI catalogs: the widget's keys, all of them,
  // and the providers' names.
  const subset = (file) => {
    const all = JSON.parse(fs.readFileSync(path.join(i18n, file), 'utf8'));
    if (file.startsWith('messages.')) return Object.fromEntries(Object.entries(all).filter(([k]) => k.startsWith('error.') || k.startsWith('term.')));
    for (const k of keys) if (!(k in all)) throw new Error(`web/src/i18n/${file} has no string "${k}" the widget uses`);
    // Providers' names too (format/providers.js): the widget names them as the page does.
    return Object.fromEntries(Object.entries(all).filter(([k]) => want.has(k) || k.startsWith('provider:')));
  };
  return {
    name: 'widget-strings',
    setup(build) {
      build.onLoad({ filter: /[\\/]i18n[\\/][^\\/]+\.json$/ }, (args) => ({ contents: JSON.stringify(subset(path.basename(args.path))), loader: 'json' }));
    },
  };
}

// Fills a template placeholder literally (String.replace would expand $& and $' inside minified code).
const fill = (text, marker, value) => text.split(marker).join(value);

// Escapes text for an inline <script> element.
const inlineScript = (js) => js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
// base64 of the gzip of text (UTF-8) or bytes: how the offline file and the widget carry the wasm, the data and the
// page's script.
const gzBase64 = (textOrBytes) => zlib.gzipSync(textOrBytes, { level: 9 }).toString('base64');
// The licence comments the bundlers keep (/*! ... */, esbuild's legalComments), taken out of a script:
// [script, comments]. bench/bytes.mjs counts them with the same split.
export function licenceComments(js) {
  const kept = [];
  const rest = js.replace(/\/\*![\s\S]*?\*\//g, (c) => { kept.push(c); return ''; });
  return [rest, kept.join('\n')];
}
const sha256 = (text) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// Takes the wasm out of a SINGLE_FILE emscripten script: returns the script with an empty data URI in its place,
// the wasm's bytes, and the wasm as base64(gzip(wasm)). Without a data URI (another build mode) the script is
// returned as it is.
export function splitWasm(engineJs) {
  const prefix = 'data:application/octet-stream;base64,';
  const m = new RegExp(`${prefix.replace(/[/.+]/g, '\\$&')}([A-Za-z0-9+/=]+)`).exec(engineJs);
  if (!m) return { engine: engineJs, wasm: null, wasmGzBase64: null };
  const wasm = Buffer.from(m[1], 'base64');
  const wasmGzBase64 = gzBase64(wasm);
  return { engine: engineJs.slice(0, m.index) + prefix + engineJs.slice(m.index + m[0].length), wasm, wasmGzBase64 };
}

export async function buildWeb(root) {
  const dist = path.join(root, 'dist');
  const site = path.join(dist, 'site');
  fs.mkdirSync(path.join(site, 'data'), { recursive: true });
  // Speed-optimised engine for the CLI and node; the size-optimised one (its hot paths still compiled for speed,
  // wasm/CMakeLists.txt) for the site and the offline file: a third of the bytes to fetch and compile.
  const engineJs = NOTICE + fs.readFileSync(path.join(root, 'build/wasm/wasm/gpuvalue_engine.cjs'), 'utf8');
  const smallEngine = path.join(root, 'build/wasm-small/wasm/gpuvalue_engine.cjs');
  const engineSmallJs = fs.existsSync(smallEngine) ? NOTICE + fs.readFileSync(smallEngine, 'utf8') : engineJs;
  // The widget's engine: the same tree's module with only the methods the widget calls (wasm/CMakeLists.txt).
  const widgetEngineFile = path.join(root, 'build/wasm-small/wasm/gpuvalue_widget_engine.cjs');
  const engineWidgetJs = fs.existsSync(widgetEngineFile) ? NOTICE + fs.readFileSync(widgetEngineFile, 'utf8') : engineSmallJs;
  const data = dataBundle(root);
  // What the pages and the widget carry: the catalogs packed (web/src/engine/bundle.js), unpacked where they start.
  const dataJson = JSON.stringify(packBundle(data));

  // charset utf8: the Chinese UI strings stay UTF-8 instead of \uXXXX escapes (a third of the bytes; the pages are UTF-8).
  // legalComments eof: the licence comments of bundled packages (/*! ... */, @license) are kept, once each, at the end.
  const common = { bundle: true, format: 'iife', target: 'es2020', minify: true, legalComments: 'eof', logLevel: 'warning', charset: 'utf8' };
  // app.js draws the page (web/src/app/main.js); worker.js is the engine worker's code (web/src/engine/worker.js),
  // started by web/src/engine/host.js.
  // The page's catalogs one language at a time (web/src/i18n/catalogs.lazy.js in catalogs.js's place); the site's
  // app is ES modules split into chunks that load on demand (the other language, the accuracy view's data, each
  // decision tool's panel); the offline file's is one classic script with those imports bundled inline.
  const lazyStrings = { name: 'lazy-strings', setup(build) {
    build.onResolve({ filter: /^\.\/catalogs\.js$/ }, (args) => (args.importer.includes(`${path.sep}i18n${path.sep}`) ? { path: path.join(args.resolveDir, 'catalogs.lazy.js') } : undefined));
  } };
  const appEntry = path.join(root, 'web/src/app/main.js');
  const app = await esbuild.build({ ...common, entryPoints: [appEntry], write: false, plugins: [lazyStrings] });
  const appJs = app.outputFiles[0].text;
  const siteApp = await esbuild.build({ ...common, format: 'esm', splitting: true, entryPoints: { app: appEntry }, outdir: site,
    chunkNames: 'chunks/[name]-[hash]', write: false, plugins: [lazyStrings] });
  const workerBuild = await esbuild.build({ ...common, entryPoints: [path.join(root, 'web/src/engine/worker.js')], write: false });
  const workerJs = workerBuild.outputFiles[0].text;
  const widget = await esbuild.build({ ...common, entryPoints: [path.join(root, 'web/src/app/widget.js')], write: false, plugins: [widgetStrings(root)] });
  const widgetJs = widget.outputFiles[0].text;
  const css = (await esbuild.transform(fs.readFileSync(path.join(root, 'web/styles.css'), 'utf8'), { loader: 'css', minify: true, logLevel: 'warning' })).code;
  const template = fs.readFileSync(path.join(root, 'web/index.html'), 'utf8');

  // Served site: separate files; the catalog is fetched from data/bundle.json, and the engine's wasm from
  // gpuvalue_engine.wasm, as bytes the server compresses and the worker compiles while they arrive (as base64 inside
  // the script it was 498 KB after gzip, as bytes 365 KB; engine/worker.js).
  const { engine: engineSite, wasm: siteWasm } = splitWasm(engineSmallJs);
  fs.writeFileSync(path.join(site, 'gpuvalue_engine.js'), engineSite);
  if (siteWasm) fs.writeFileSync(path.join(site, 'gpuvalue_engine.wasm'), siteWasm);
  else fs.rmSync(path.join(site, 'gpuvalue_engine.wasm'), { force: true });
  fs.rmSync(path.join(site, 'chunks'), { recursive: true, force: true });
  fs.mkdirSync(path.join(site, 'chunks'));
  for (const f of siteApp.outputFiles) fs.writeFileSync(f.path, f.contents);
  fs.writeFileSync(path.join(site, 'worker.js'), workerJs);
  fs.writeFileSync(path.join(site, 'styles.css'), css);
  fs.writeFileSync(path.join(site, 'data/bundle.json'), dataJson);
  // worker-src: the engine worker is a Blob (web/src/engine/host.js); it imports gpuvalue_engine.js ('self').
  // The first screen (scripts/prerender.mjs): each language's markup in a template and the script that shows it
  // (inline in the offline file; first.js on the site, whose server's policy allows no inline script); empty until
  // the pages below have been written once and rendered.
  const first = { templates: '', script: '', hash: '' };
  const sitePage = () => {
    const siteCsp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self' data:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:";
    let siteHtml = fill(template, '<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${siteCsp}">`);
    siteHtml = fill(siteHtml, '<!--STYLES-->', '<link rel="stylesheet" href="styles.css">');
    if (first.script) fs.writeFileSync(path.join(site, 'first.js'), first.script);
    siteHtml = fill(siteHtml, '<!--FIRST-->', first.script ? `${first.templates}\n<script src="first.js"></script>` : '');
    siteHtml = fill(siteHtml, '<!--DATA-->', '');
    siteHtml = fill(siteHtml, '<!--SCRIPTS-->', '<script src="gpuvalue_engine.js"></script>\n<script type="module" src="app.js"></script>');
    fs.writeFileSync(path.join(site, 'index.html'), siteHtml);
  };
  sitePage();

  // Widget: engine + data + custom element in one classic script. The widget's own size-optimised engine (only the
  // methods it calls), its wasm as base64 of its gzip (inflated by the element when it first ranks).
  const { engine: engineWidget, wasmGzBase64: widgetWasm } = splitWasm(engineWidgetJs);
  const widgetEngine = (await esbuild.transform(engineWidget, { minify: true, target: 'es2020', legalComments: 'inline', logLevel: 'warning' })).code;
  // The data as base64 of its gzip too (inflated where the engine starts: the host page only holds a string), and
  // the catalogs' dated CNY rate, which the element itself reads to show prices in the reader's currency.
  const widgetFx = JSON.stringify(bundledFx(data)).replace(/</g, '\\u003c');
  const widgetFile = `${widgetEngine}\n;self.__GPUVALUE_WASM__=${JSON.stringify(widgetWasm || '')};self.__GPUVALUE_DATA__=${JSON.stringify(gzBase64(dataJson))};self.__GPUVALUE_FX__=${widgetFx};\n${widgetJs}`;
  fs.writeFileSync(path.join(site, 'gpu-value.js'), widgetFile);
  fs.copyFileSync(path.join(root, 'web/embed-example.html'), path.join(site, 'embed-example.html'));

  // Offline single file: everything inline, strict CSP with hashes.
  // The engine's wasm travels gzip-compressed and base64-encoded in a data element (the page inflates it
  // with DecompressionStream and hands it to the engine as wasmBinary): about a third of the raw file, and
  // smaller after gzip too than the base64 data URI emscripten's SINGLE_FILE embeds.
  const { engine: engineOffline, wasmGzBase64 } = splitWasm(engineSmallJs);
  // The emscripten glue minified (a quarter of the file's script bytes; the served engine stays as built). The
  // notice comment survives minification (legalComments inline); the CSP hashes below are of the final text.
  const engineInline = inlineScript((await esbuild.transform(engineOffline, { minify: true, target: 'es2020', legalComments: 'inline', logLevel: 'warning' })).code);
  // The page's script and the data as base64 of their gzip (as the wasm): the browser reads 2.0 MB → 0.9 MB of
  // file before it gets past the first screen (docs/performance.md, "The offline file's payloads compressed"); the
  // boot scripts and app/main.js inflate them. The page's script's licence comments stay readable text beside it.
  const [appCode, appLicences] = licenceComments(appJs);
  const appInline = inlineScript(appCode);
  const appGzBase64 = gzBase64(appInline);
  const workerInline = inlineScript(workerJs);
  const dataGzBase64 = gzBase64(dataJson);
  // The boot scripts (web/src/engine/boot.js) start the engine worker before the first screen, send it the wasm and
  // the data as soon as each is parsed, and run the page's script last, in a task of its own.
  const boot = bootScripts();
  // worker-src blob: the engine worker is made from the inline engine and worker scripts' text; a
  // blob worker inherits this policy, so 'wasm-unsafe-eval' lets it compile the wasm it is handed.
  const offlinePage = () => {
    // The engine's glue, the worker's code and the page's script are text the page runs by inserting a script
    // element (the boot scripts; engine/host.js when no worker can start): their hashes are allowed.
    const hashes = [engineInline, appInline, workerInline, boot.worker, boot.wasm, boot.data, boot.app].map(sha256).join(' ');
    const csp = ["default-src 'none'", `script-src ${hashes} ${first.hash} 'wasm-unsafe-eval'`,
      'worker-src blob:', 'connect-src data:', "style-src 'unsafe-inline'", 'img-src data: blob:'].join('; ');
    let offline = fill(template, '<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
    offline = fill(offline, '<!--STYLES-->', `<style>${css}</style>`);
    // In this order (docs/performance.md, "Where the offline file's start goes"): the first screen; the worker's code
    // and the engine's glue as text (type text/plain: not compiled on the page) and the boot script that starts the
    // worker from them, so that the worker's thread starts and compiles while the page parses the rest; the wasm and
    // the script that sends it; the data and the script that sends it; the page's script as text and the script that
    // runs it in a task of its own (an inline script is compiled inside the parser's task, while the worker's thread
    // was starting).
    offline = fill(offline, '<!--FIRST-->', [
      first.script ? `${first.templates}\n<script id="gv-first">${first.script}</script>` : '',
      `<script type="text/plain" id="gv-worker">${workerInline}</script>`, `<script type="text/plain" id="gv-engine">${engineInline}</script>`,
      `<script id="gv-boot">${boot.worker}</script>`].filter(Boolean).join('\n'));
    offline = fill(offline, '<!--DATA-->', '');
    offline = fill(offline, '<!--SCRIPTS-->', [
      wasmGzBase64 ? `<script type="application/octet-stream" id="gv-wasm" data-encoding="gzip+base64">${wasmGzBase64}</script>` : '',
      `<script id="gv-boot-wasm">${boot.wasm}</script>`,
      `<script type="application/json" id="gv-data" data-encoding="gzip+base64">${dataGzBase64}</script>`, `<script id="gv-boot-data">${boot.data}</script>`,
      appLicences.trim() ? `<script type="text/plain" id="gv-app-licences">${inlineScript(appLicences)}</script>` : '',
      `<script type="text/plain" id="gv-app" data-encoding="gzip+base64">${appGzBase64}</script>`, `<script id="gv-boot-app">${boot.app}</script>`].filter(Boolean).join('\n'));
    fs.writeFileSync(path.join(dist, 'gpuvalue.html'), offline);
    return offline;
  };
  offlinePage();
  // The default view rendered by the page itself, in each language, then written into both pages. Without Chromium
  // (or when the page does not come up) the pages stay as they are: the engine draws the first table.
  try {
    const templates = firstTemplates(await prerender(path.join(dist, 'gpuvalue.html')));
    Object.assign(first, { templates, script: inlineScript(firstScript()) });
    first.hash = sha256(first.script);
  } catch (e) {
    console.warn(`build: no prerendered first screen (${e.message.split('\n')[0]})`);
  }
  sitePage();
  const offline = offlinePage();

  // Engine module for the CLI and JS tests (UMD/CommonJS; T5: no ES6 output in node).
  fs.mkdirSync(path.join(dist, 'engine'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'engine/gpuvalue_engine.cjs'), engineJs);
  fs.writeFileSync(path.join(dist, 'engine/data-bundle.json'), JSON.stringify(data));
  return { offlineBytes: Buffer.byteLength(offline) };
}
