#!/usr/bin/env node
// `npm run bench`: the same engine operations natively and as wasm under node, and the page in headless
// Chromium; medians over repeated runs. `--json` prints the machine-readable figures; `--quick` skips 100k.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createEngine } from '../web/src/engine/client.js';
import { dataBundle } from '../scripts/build-web.mjs';
import { generateCatalog } from './generate.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const log = (...a) => { if (!args.includes('--json')) console.error(...a); };
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
// Median of `repeats` timed runs after `warmup` untimed ones (the first calls of wasm code run in V8's baseline
// compiler until the optimising tier takes over; the native side warms up the same way).
function timeMs(repeats, fn, warmup = 0) {
  for (let i = 0; i < warmup; i++) fn();
  const t = [];
  for (let i = 0; i < repeats; i++) { const a = performance.now(); fn(); t.push(performance.now() - a); }
  return median(t);
}

const factory = createRequire(import.meta.url)(path.join(root, 'dist/engine/gpuvalue_engine.cjs'));
const bundle = dataBundle(root);
const base = { gpus: bundle.gpus, presets: bundle.presets, catalogs: [] };
const rankReq = JSON.stringify({ preset: 'llama2-7b-pretrain', limit: 100 });
const results = {};
const rows = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-bench-'));

for (const n of quick ? [100, 10000] : [100, 10000, 100000]) {
  const text = JSON.stringify(generateCatalog(n, 42));
  const file = path.join(tmp, `catalog-${n}.json`);
  fs.writeFileSync(file, text);
  const repeats = n >= 100000 ? 3 : n >= 10000 ? 7 : 21;
  const engine = await createEngine(factory, base);
  const parse = timeMs(repeats, () => JSON.parse(text));
  let loadOk = true;
  const load = timeMs(repeats, () => { loadOk = loadOk && engine.loadCatalog(text).ok; });
  const rank = timeMs(Math.max(repeats, 15), () => engine.text('rank', rankReq), 5);
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
  const native = JSON.parse(execFileSync(path.join(root, 'build/native/gpuvalue_bench'), [path.join(root, 'data'), file, String(repeats), n === 10000 ? 'sweep' : ''], { encoding: 'utf8' }));
  rows.push({ n, parse, load, rank, sweep, heapMb, native, loadOk });
  log(`${n} offers: wasm load ${load.toFixed(1)} ms (JSON.parse ${parse.toFixed(1)} ms), rank ${rank.toFixed(2)} ms, native load ${native.load_ms.toFixed(1)} ms, rank ${native.rank_ms.toFixed(2)} ms`);
  if (n === 10000) Object.assign(results, { rank_10k_ms_wasm: rank, rank_10k_ms_native: native.rank_ms, load_10k_ms_wasm: load, json_parse_10k_ms: parse,
    sweep_ms_wasm: sweep, sweep_ms_native: native.sweep_ms, load_10k_ms_native: native.load_ms });
  if (n === 100000) Object.assign(results, { rank_100k_ms_wasm: rank, rank_100k_ms_native: native.rank_ms, load_100k_ms_wasm: load, wasm_heap_100k_mb: heapMb });
}

// Planner (decision tools), when the engine has it.
{
  const engine = await createEngine(factory, bundle);
  if (engine.requestMethods().includes('plan')) {
    results.planner_ms_wasm = timeMs(11, () => engine.text('plan', JSON.stringify({ example: 'article' })));
  }
}

// Page start: file:// offline page to first ranked table, headless Chromium.
const offline = path.join(root, 'dist/gpuvalue.html');
results.offline_html_gzip_bytes = zlib.gzipSync(fs.readFileSync(offline), { level: 9 }).length;
try {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const times = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(`${pathToFileURL(offline).href}#preset=resnet50-imagenet&lang=en`);
    await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
    times.push(Date.now() - t0);
    // Where the engine worker's start went (ms after navigation start; inflating, compiling, loading the data).
    const startup = await page.evaluate(() => {
      const s = window.gpuvalue && window.gpuvalue.host && window.gpuvalue.host.meta && window.gpuvalue.host.meta.startup;
      return s ? { worker_started_ms: s.startedAt - performance.timeOrigin, inflate_ms: s.inflateMs, compile_ms: s.compileMs, data_ms: s.dataMs } : null;
    });
    if (startup) (results.page_worker_startup = results.page_worker_startup || []).push(startup);
    await context.close();
  }
  await browser.close();
  results.page_ready_ms = median(times);
  if (results.page_worker_startup) {
    const runs = results.page_worker_startup;
    results.page_worker_startup = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, Math.round(median(runs.map((r) => r[k])))]));
  }
} catch (e) {
  log(`page benchmark skipped: ${e.message}`);
}
fs.rmSync(tmp, { recursive: true, force: true });

const budgets = [
  ['rank 10,000 offers, wasm', results.rank_10k_ms_wasm, 5, 'ms'],
  ['rank 100,000 offers, wasm', results.rank_100k_ms_wasm, 50, 'ms'],
  ['rank wasm / native (10k)', results.rank_10k_ms_wasm / results.rank_10k_ms_native, 1.5, '×'],
  ['load+validate 10k / JSON.parse', results.load_10k_ms_wasm / results.json_parse_10k_ms, 3, '×'],
  ['page start to ranked table (file://)', results.page_ready_ms, 500, 'ms'],
  ['dist/gpuvalue.html gzip', results.offline_html_gzip_bytes / 1024, 400, 'KB'],
  ['wasm heap with 100,000 offers', results.wasm_heap_100k_mb, 64, 'MB'],
];
if (args.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
} else {
  console.log('\n| operation | offers | wasm (ms) | native (ms) | JSON.parse (ms) |\n|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| load + validate | ${r.n} | ${r.load.toFixed(1)} | ${r.native.load_ms.toFixed(1)} | ${r.parse.toFixed(1)} |`);
    console.log(`| rank one workload | ${r.n} | ${r.rank.toFixed(2)} | ${r.native.rank_ms.toFixed(2)} | |`);
    if (r.sweep !== null) console.log(`| sweep (100 × rank) | ${r.n} | ${r.sweep.toFixed(1)} | ${r.native.sweep_ms.toFixed(1)} | |`);
  }
  if (results.planner_ms_wasm !== undefined) console.log(`| planner (article example) | | ${results.planner_ms_wasm.toFixed(2)} | | |`);
  if (results.page_worker_startup) {
    const s = results.page_worker_startup;
    console.log(`\npage start: engine worker running at ${s.worker_started_ms} ms; wasm inflated in ${s.inflate_ms} ms, compiled in ${s.compile_ms} ms, data loaded in ${s.data_ms} ms; first ranked table at ${results.page_ready_ms} ms`);
  }
  console.log('\n| budget | measured | limit | met |\n|---|---|---|---|');
  for (const [name, v, limit, unit] of budgets) {
    const m = v === undefined || Number.isNaN(v) ? 'n/a' : `${v.toFixed(unit === '×' ? 2 : 1)} ${unit}`;
    console.log(`| ${name} | ${m} | ${limit} ${unit} | ${v === undefined ? 'n/a' : v <= limit ? 'yes' : 'NO'} |`);
  }
  console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, node ${process.version}`);
}
