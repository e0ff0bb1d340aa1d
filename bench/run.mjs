#!/usr/bin/env node
// `npm run bench`: the same engine operations natively and as wasm under node, and the page in headless
// Chromium; medians over repeated runs. `--json` prints the machine-readable figures; `--quick` skips 100k;
// `--page-only` measures only the page's start (no catalogs generated, no engine runs under node, no imports) and
// the bytes of each part of the offline file, the widget and the site (`--runs N` page loads each, default 9);
// `--check` exits with status 1 when a measured figure is over its budget (the budgets table below), naming each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../web/src/engine/client.js';
import { dataBundle } from '../scripts/build-web.mjs';
import { generateCatalog, generateSkypilotCsv } from './generate.mjs';
import { launchBrowser, defaultViewStart, otherViewStart, pageFloor, interactionPaint } from './page.mjs';
import { bytesReport, bytesTables } from './bytes.mjs';
import { longTasks } from './longtasks.mjs';
import { widgetLoads } from './widget.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = {};
const args = process.argv.slice(2);
const pageOnly = args.includes('--page-only');
const quick = pageOnly || args.includes('--quick');
const loads = Number(args[args.indexOf('--runs') + 1]) || 9;
const log = (...a) => { if (!args.includes('--json')) console.error(...a); };
const quantile = (a, q) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const median = (a) => quantile(a, 0.5);
// The quartiles of each figure's runs (results.spread[key] = [p25, p75]); the figure itself is the median.
const spread = {};
const put = (key, runs) => { results[key] = median(runs); spread[key] = [quantile(runs, 0.25), quantile(runs, 0.75)]; return results[key]; };
// `repeats` timed runs after `warmup` untimed ones (the first calls of wasm code run in V8's baseline compiler
// until the optimising tier takes over; the native side warms up the same way).
function timeRuns(repeats, fn, warmup = 0) {
  for (let i = 0; i < warmup; i++) fn();
  const t = [];
  for (let i = 0; i < repeats; i++) { const a = performance.now(); fn(); t.push(performance.now() - a); }
  return t;
}
const timeMs = (repeats, fn, warmup = 0) => median(timeRuns(repeats, fn, warmup));

const factory = createRequire(import.meta.url)(path.join(root, 'dist/engine/gpuvalue_engine.cjs'));
const bundle = dataBundle(root);
const base = { gpus: bundle.gpus, presets: bundle.presets, catalogs: [] };
const rankReq = JSON.stringify({ preset: 'llama2-7b-pretrain', limit: 100 });
// A first ranking of a workload: each run asks for a token count not ranked before, so no kept evaluation answers
// it (the engine keeps a workload's hardware evaluations for its next ranking).
let coldRun = 0;
const coldReq = () => JSON.stringify({ preset: 'llama2-7b-pretrain', limit: 100, workload: { tokens: 2e12 + 1e9 * ++coldRun } });
// A weight change after a first ranking: the kept evaluations answer, the scores and order are new.
let warmRun = 0;
const warmReq = () => JSON.stringify({ preset: 'llama2-7b-pretrain', limit: 100, weights: { unit_cost: 0.5 + 0.001 * ++warmRun } });
// What the page asks on every change: the view of the ranking (250 rows in a column's order with regions grouped,
// the picks and 600 scatter points), parsed into objects.
let pageRun = 0;
const pageReq = () => JSON.stringify({ preset: 'resnet50-imagenet', weights: { unit_cost: 0.5 + 0.001 * ++pageRun },
  view: { sort: { key: 'cost_usd', dir: 'asc' }, rows: 250, points: 600 } });
const rows = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-bench-'));
// The page's engine (the size-optimised build the site, the offline file and the widget carry), as the site serves
// it: its glue (a CommonJS script named .js, copied to .cjs for require) and its wasm.
function pageEngineFactory() {
  const glue = path.join(tmp, 'page-engine.cjs');
  fs.copyFileSync(path.join(root, 'dist/site/gpuvalue_engine.js'), glue);
  const create = createRequire(import.meta.url)(glue);
  const wasmBinary = fs.readFileSync(path.join(root, 'dist/site/gpuvalue_engine.wasm'));
  return (options = {}) => create({ ...options, wasmBinary });
}

for (const n of pageOnly ? [] : quick ? [100, 10000] : [100, 10000, 100000]) {
  const text = JSON.stringify(generateCatalog(n, 42));
  const file = path.join(tmp, `catalog-${n}.json`);
  fs.writeFileSync(file, text);
  const repeats = n >= 100000 ? 3 : n >= 10000 ? 7 : 21;
  const engine = await createEngine(factory, base);
  const parseRuns = timeRuns(repeats, () => JSON.parse(text));
  let loadOk = true;
  const loadRuns = timeRuns(repeats, () => { loadOk = loadOk && engine.loadCatalog(text).ok; });
  const rankRuns = timeRuns(Math.max(repeats, 15), () => engine.text('rank', coldReq()), 5);
  engine.text('rank', warmReq());
  const warmRuns = timeRuns(Math.max(repeats, 15), () => engine.text('rank', warmReq()), 5);
  const [parse, load, rank, warm] = [parseRuns, loadRuns, rankRuns, warmRuns].map(median);
  const tag = n === 10000 ? '10k' : n === 100000 ? '100k' : null;
  if (tag) {
    put(`json_parse_${tag}_ms`, parseRuns); put(`load_${tag}_ms_wasm`, loadRuns); put(`rank_${tag}_ms_wasm`, rankRuns);
    put(`rank_${tag}_warm_ms_wasm`, warmRuns);
    engine.text('rankView', pageReq());
    put(`rank_view_${tag}_ms_wasm`, timeRuns(n >= 100000 ? 5 : 15, () => JSON.parse(engine.text('rankView', pageReq())).rows.length, 2));
    // The same view from the page's engine: its hot files are compiled for speed, and this ratio shows they are
    // (docs/toolchain.md T19: uninlined, the view took 2.5 times as long).
    const pageEngine = await createEngine(pageEngineFactory(), base);
    pageEngine.loadCatalog(text);
    pageEngine.text('rankView', pageReq());
    put(`rank_view_${tag}_ms_page_engine`, timeRuns(n >= 100000 ? 5 : 15, () => JSON.parse(pageEngine.text('rankView', pageReq())).rows.length, 2));
  }
  let sweep = null;
  if (n === 10000) {
    sweep = timeMs(3, () => {
      for (let i = 0; i < 100; i++) engine.text('rank', JSON.stringify({ preset: 'llama2-7b-pretrain', limit: 1, workload: { tokens: 1e11 * (i + 1) } }));
    });
  }
  // Wasm memory of an engine that loaded this catalog once and ranked it once (memory only grows, so this is
  // the high-water mark, including the 16 MB the module starts with).
  const fresh = await createEngine(factory, base);
  fresh.loadCatalog(text);
  fresh.text('rank', rankReq);
  const heapMb = fresh.heapBytes() / 1048576;
  const native = JSON.parse(execFileSync(path.join(root, 'build/bench/gpuvalue_bench'), [path.join(root, 'data'), file, String(repeats), n === 10000 ? 'sweep' : ''], { encoding: 'utf8' }));
  rows.push({ n, parse, load, rank, warm, sweep, heapMb, native, loadOk });
  log(`${n} offers: wasm load ${load.toFixed(1)} ms (JSON.parse ${parse.toFixed(1)} ms), rank ${rank.toFixed(2)} ms (after a weight change ${warm.toFixed(2)} ms), native load ${native.load_ms.toFixed(1)} ms, rank ${native.rank_ms.toFixed(2)} ms`);
  if (n === 10000) Object.assign(results, { rank_10k_ms_wasm: rank, rank_10k_ms_native: native.rank_ms, rank_10k_warm_ms_native: native.warm_rank_ms, load_10k_ms_wasm: load, json_parse_10k_ms: parse,
    sweep_ms_wasm: sweep, sweep_ms_native: native.sweep_ms, load_10k_ms_native: native.load_ms });
  if (n === 100000) Object.assign(results, { rank_100k_ms_wasm: rank, rank_100k_ms_native: native.rank_ms, load_100k_ms_wasm: load, wasm_heap_100k_mb: heapMb });
}

// Planner (decision tools), when the engine has it.
if (!pageOnly) {
  const engine = await createEngine(factory, bundle);
  if (engine.requestMethods().includes('plan')) {
    results.planner_ms_wasm = timeMs(11, () => engine.text('plan', JSON.stringify({ example: 'article' })));
  }
}

// The page in headless Chromium (bench/page.mjs): the default view's start from file:// (first ranked table painted,
// engine ready), a view the build did not prerender, the browser's own floor for a file of the same size, and a
// slider change painted with 10,000 (and 100,000) imported offers; the bytes of each part (bench/bytes.mjs).
const offline = path.join(root, 'dist/gpuvalue.html');
results.offline_html_gzip_bytes = zlib.gzipSync(fs.readFileSync(offline), { level: 9 }).length;
results.widget_js_gzip_bytes = zlib.gzipSync(fs.readFileSync(path.join(root, 'dist/site/gpu-value.js')), { level: 9 }).length;
results.bytes = bytesReport(root);
results.site_first_visit_gzip_bytes = results.bytes.site.total.gzip;
// The longest task of each interaction: its median and every run (bench/longtasks.mjs).
const perInteraction = (per) => Object.fromEntries(Object.entries(per).map(([k, runs]) => [k, { median: median(runs), runs: runs.map(Math.round) }]));
try {
  const browser = await launchBrowser();
  log(`page: ${loads} loads each of the default view, another view and the floor file …`);
  const start = await defaultViewStart(browser, offline, loads);
  put('first_table_ms', start.firstTable);
  put('first_table_in_dom_ms', start.tableInDom);
  put('engine_ready_ms', start.engineReady);
  put('first_contentful_paint_ms', start.fcp);
  if (start.startup.length) {
    results.page_worker_startup = Object.fromEntries(Object.keys(start.startup[0]).map((k) => [k, Math.round(median(start.startup.map((r) => r[k])))]));
  }
  put('other_view_ready_ms', (await otherViewStart(browser, offline, loads)).times);
  put('page_floor_ms', (await pageFloor(browser, fs.statSync(offline).size, loads)).times);
  for (const k of ['first_table', 'engine_ready', 'other_view_ready']) results[`${k}_over_floor`] = results[`${k}_ms`] / results.page_floor_ms;
  log('page: the widget on a host page with three elements, 5 loads …');
  const widget = await widgetLoads(browser, path.join(root, 'dist/site'), 5);
  put('widget_ready_ms', widget.ready);
  put('widget_host_main_thread_js_ms', widget.busy);
  for (const n of pageOnly ? [] : quick ? [10000] : [10000, 100000]) {
    const tag = n === 10000 ? '10k' : '100k';
    log(`page: a slider change with ${n} imported offers …`);
    put(`interaction_paint_ms_${tag}`, (await interactionPaint(browser, offline, path.join(tmp, `catalog-${n}.json`))).times);
  }
  // The longest main-thread task of each interaction (median over runs; 0 = none over 50 ms): the bundled catalog,
  // then with 10,000 (and 100,000) imported offers, the import itself included.
  if (!pageOnly) results.longest_task_ms = {};
  for (const n of pageOnly ? [] : quick ? [0, 10000] : [0, 10000, 100000]) {
    const tag = n === 0 ? 'bundled' : n === 10000 ? '10k' : '100k';
    log(`page: long tasks per interaction (${n ? `${n} imported offers` : 'bundled catalog'}) …`);
    const per = await longTasks(browser, offline, { catalogFile: n ? path.join(tmp, `catalog-${n}.json`) : null, runs: n >= 100000 ? 3 : 5 });
    results.longest_task_ms[tag] = perInteraction(per);
    const worst = Object.entries(per).filter(([k]) => k !== 'import').map(([, runs]) => median(runs));
    results[`longest_task_ms_${tag}`] = Math.max(...worst);
    if (per.import) results[`import_longest_task_ms_${tag}`] = median(per.import);
  }
  // A SkyPilot file of 190,000 rows imported on the page (converted in the worker; the page draws the report).
  if (!quick) {
    const csv = path.join(tmp, 'skypilot-190k-vms.csv');
    fs.writeFileSync(csv, generateSkypilotCsv(190000));
    log('page: long tasks of a 190,000-row SkyPilot import …');
    const per = await longTasks(browser, offline, { catalogFile: csv, runs: 3 });
    results.longest_task_ms.skypilot_190k = perInteraction(per);
    results.import_longest_task_ms_skypilot_190k = median(per.import);
  }
  await browser.close();
} catch (e) {
  log(`page benchmark skipped: ${e.message}`);
}
results.spread = spread;
fs.rmSync(tmp, { recursive: true, force: true });

// [what, key of results, limit, unit]
const budgets = [
  ['first ranked table painted, default view (file://) / browser floor', 'first_table_over_floor', 1.3, '×'],
  ['engine ready (controls answer), default view / browser floor', 'engine_ready_over_floor', 2.5, '×'],
  ['slider change painted, 10,000 offers', 'interaction_paint_ms_10k', 50, 'ms'],
  ['slider change painted, 100,000 offers', 'interaction_paint_ms_100k', 150, 'ms'],
  ['longest main-thread task of an interaction, bundled catalog', 'longest_task_ms_bundled', 50, 'ms'],
  ['longest main-thread task of an interaction, 10,000 offers', 'longest_task_ms_10k', 50, 'ms'],
  ['longest main-thread task of an interaction, 100,000 offers', 'longest_task_ms_100k', 50, 'ms'],
  ['longest main-thread task of an import, 10,000 offers', 'import_longest_task_ms_10k', 50, 'ms'],
  ['longest main-thread task of an import, 100,000 offers', 'import_longest_task_ms_100k', 50, 'ms'],
  ['longest main-thread task of an import, 190,000-row SkyPilot file', 'import_longest_task_ms_skypilot_190k', 50, 'ms'],
  ['dist/gpuvalue.html gzip', 'offline_html_gzip_kb', 300, 'KB'],
  ['dist/site/gpu-value.js gzip', 'widget_js_gzip_kb', 300, 'KB'],
  ['rank 100,000 offers, wasm', 'rank_100k_ms_wasm', 10, 'ms'],
  ['rank wasm / native (10k)', 'rank_10k_wasm_over_native', 1.2, '×'],
  ['load+validate 10k / JSON.parse', 'load_10k_over_json_parse', 1.5, '×'],
  ['wasm heap with 100,000 offers', 'wasm_heap_100k_mb', 48, 'MB'],
  ['ranking view (10k), page engine / speed-optimised engine', 'rank_view_10k_page_over_speed', 1.5, '×'],
];
results.offline_html_gzip_kb = results.offline_html_gzip_bytes / 1024;
results.widget_js_gzip_kb = results.widget_js_gzip_bytes / 1024;
results.rank_10k_wasm_over_native = results.rank_10k_ms_wasm / results.rank_10k_ms_native;
results.load_10k_over_json_parse = results.load_10k_ms_wasm / results.json_parse_10k_ms;
results.rank_view_10k_page_over_speed = results.rank_view_10k_ms_page_engine / results.rank_view_10k_ms_wasm;
const measured = (v) => typeof v === 'number' && Number.isFinite(v);
const over = budgets.filter(([, key, limit]) => measured(results[key]) && results[key] > limit);
if (args.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
} else {
  console.log('\n| operation | offers | wasm (ms) | native (ms) | JSON.parse (ms) |\n|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| load + validate | ${r.n} | ${r.load.toFixed(1)} | ${r.native.load_ms.toFixed(1)} | ${r.parse.toFixed(1)} |`);
    console.log(`| rank one workload | ${r.n} | ${r.rank.toFixed(2)} | ${r.native.rank_ms.toFixed(2)} | |`);
    console.log(`| rank again, new weights | ${r.n} | ${r.warm.toFixed(2)} | ${r.native.warm_rank_ms.toFixed(2)} | |`);
    if (r.sweep !== null) console.log(`| sweep (100 × rank) | ${r.n} | ${r.sweep.toFixed(1)} | ${r.native.sweep_ms.toFixed(1)} | |`);
  }
  if (results.planner_ms_wasm !== undefined) console.log(`| planner (article example) | | ${results.planner_ms_wasm.toFixed(2)} | | |`);
  if (results.page_worker_startup) {
    const s = results.page_worker_startup;
    console.log(`\npage start (default view): the page's script running at ${s.script_ms} ms; engine worker running at ${s.worker_started_ms} ms; wasm inflated in ${s.inflate_ms} ms, compiled in ${s.compile_ms} ms, data loaded in ${s.data_ms} ms; engine ready on the page at ${s.engine_ready_ms} ms; page built at ${s.built_ms} ms (from navigation start)`);
  }
  console.log(`first ranked table in the DOM ${results.first_table_in_dom_ms} ms, painted ${results.first_table_ms} ms, first contentful paint ${results.first_contentful_paint_ms} ms, engine ready (data-ready) ${results.engine_ready_ms} ms; a view not prerendered ready ${results.other_view_ready_ms} ms; browser floor (static file of the same size, 100-row table painted) ${results.page_floor_ms} ms`);
  if (results.widget_ready_ms !== undefined) console.log(`widget: three elements on a served host page ready ${Math.round(results.widget_ready_ms)} ms, the host page's main thread running JS and wasm ${Math.round(results.widget_host_main_thread_js_ms)} ms of it`);
  console.log(`\n${bytesTables(results.bytes)}`);
  console.log('\n| budget | measured | limit | met |\n|---|---|---|---|');
  for (const [name, key, limit, unit] of budgets) {
    const v = results[key];
    const m = measured(v) ? `${v.toFixed(unit === '×' ? 2 : 1)} ${unit}` : 'n/a';
    const q = spread[key] ? ` (p25–p75 ${spread[key].map((x) => x.toFixed(1)).join('–')})` : '';
    console.log(`| ${name} | ${m}${q} | ${limit} ${unit} | ${measured(v) ? (v <= limit ? 'yes' : 'NO') : 'n/a'} |`);
  }
  if (results.longest_task_ms) {
    console.log('\nlongest main-thread task per interaction (ms, each run; 0 = none over 50 ms):');
    for (const [tag, per] of Object.entries(results.longest_task_ms)) {
      console.log(`  ${tag}: ${Object.entries(per).map(([k, v]) => `${k} ${v.runs.join('/')}`).join(', ')}`);
    }
  }
  console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, node ${process.version}`);
}
if (args.includes('--check')) {
  for (const [name, key, limit, unit] of over) console.error(`bench: over budget: ${name} (${key}) ${results[key].toFixed(2)} ${unit} > ${limit} ${unit}`);
  const unmeasured = budgets.filter(([, key]) => !measured(results[key])).map(([, key]) => key);
  if (unmeasured.length) console.error(`bench: not measured in this run: ${unmeasured.join(', ')}`);
  console.error(over.length ? `bench: ${over.length} of ${budgets.length - unmeasured.length} budgets exceeded` : 'bench: every measured budget met');
  process.exit(over.length ? 1 : 0);
}
