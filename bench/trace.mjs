#!/usr/bin/env node
// Where the offline file's start goes, from Chromium's own performance trace (CDP Tracing): loads
// dist/gpuvalue.html from file:// (no hash, the default view) `runs` times in headless Chromium and prints, for the
// page's main thread and the engine worker's thread, each piece of work of 5 ms or more (parsing the HTML, running
// or compiling a script, style and layout, paint, the worker's start) with its start and length on the page's clock
// (ms from navigation start), then the page's marks (gv:*, bench/page.mjs) and first paints.
// Usage: node bench/trace.mjs [RUNS] [--file path.html] [--json] [--save trace.json]
/* global document, requestAnimationFrame */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser } from './page.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const runs = Number(args.find((a) => /^\d+$/.test(a))) || 1;
const file = path.resolve(opt('--file') || path.join(root, 'dist/gpuvalue.html'));
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'loading', 'v8', 'v8.execute',
  'blink.user_timing', 'toplevel', 'disabled-by-default-v8.compile', 'v8.wasm', 'worker'];
// The trace events that are work done (complete events, 'X', or begin/end pairs) and worth naming.
const NAMES = new Set(['ParseHTML', 'EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall',
  'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize',
  'Commit', 'HitTest', 'ParseAuthorStyleSheet', 'v8.parseOnBackground', 'v8.run', 'V8.GCScavenger', 'MajorGC', 'MinorGC',
  'v8.wasm.compileLazy', 'wasm.SyncCompile', 'wasm.AsyncCompile', 'WebAssembly.compile', 'V8.GC_MC_BACKGROUND_MARKING',
  'EventDispatch', 'HandlePostMessage', 'v8.produceModuleCache', 'ScheduleStyleRecalculation', 'Document::updateStyle',
  'BlinkGC.AtomicPhase', 'ThreadState::performIdleLazySweep', 'WorkerThread::StartWorkerThread',
  'WorkerGlobalScope::EvaluateClassicScript', 'DedicatedWorker::Start', 'v8.newInstance']);

async function traceLoad(browser) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => { events.push(...e.value); });
  const complete = new Promise((resolve) => { cdp.once('Tracing.tracingComplete', resolve); });
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReportEvents' });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'commit' });
  await page.waitForFunction(() => document.body && document.body.dataset.ready === '1', null, { timeout: 60000 });
  await page.evaluate(() => new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(r)); }));
  const marks = await page.evaluate(() => Object.fromEntries([...performance.getEntriesByType('mark'), ...performance.getEntriesByType('paint')]
    .map((e) => [e.name, Math.round(e.startTime)])));
  await cdp.send('Tracing.end');
  await complete;
  await context.close();
  return { events, marks };
}

// The events of the page's renderer: the main thread and the worker thread(s), times in ms from navigation start
// (the navigationStart mark of the main frame).
function summarise(events) {
  const threads = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const nav = events.filter((e) => e.name === 'navigationStart' && e.args && e.args.data && e.args.data.isLoadingMainFrame
    && /^file:/.test(e.args.data.documentLoaderURL || '')).pop();
  if (!nav) throw new Error('no navigationStart in the trace');
  const main = `${nav.pid}:${nav.tid}`;
  const ms = (ts) => Math.round((ts - nav.ts) / 100) / 10;
  const open = new Map();
  const work = [];
  for (const e of events.slice().sort((a, b) => a.ts - b.ts)) {
    const key = `${e.pid}:${e.tid}`;
    if (e.pid !== nav.pid || !NAMES.has(e.name)) continue;
    const name = threads.get(key) || key;
    if (!(key === main || /Worker/i.test(name))) continue;
    const detail = (e.args && (e.args.data || e.args.beginData)) || {};
    const what = detail.url ? `${e.name} ${String(detail.url).split('/').pop().slice(0, 40)}:${detail.lineNumber ?? detail.startLine ?? ''}` : e.name;
    if (e.ph === 'X') work.push({ thread: key === main ? 'main' : 'worker', at: ms(e.ts), ms: Math.round((e.dur || 0) / 100) / 10, what, depth: 0 });
    else if (e.ph === 'B') open.set(`${key}:${e.name}`, { e, what });
    else if (e.ph === 'E' && open.has(`${key}:${e.name}`)) {
      const b = open.get(`${key}:${e.name}`);
      open.delete(`${key}:${e.name}`);
      work.push({ thread: key === main ? 'main' : 'worker', at: ms(b.e.ts), ms: Math.round((e.ts - b.e.ts) / 100) / 10, what: b.what });
    }
  }
  return work.filter((w) => w.ms >= 5 && w.at >= 0).sort((a, b) => a.at - b.at);
}

const browser = await launchBrowser();
const out = [];
try {
  for (let i = 0; i < runs; i++) {
    const { events, marks } = await traceLoad(browser);
    if (opt('--save')) fs.writeFileSync(opt('--save'), JSON.stringify({ traceEvents: events }));
    out.push({ marks, work: summarise(events) });
  }
} finally {
  await browser.close();
}
if (args.includes('--json')) console.log(JSON.stringify(out, null, 1));
else {
  for (const [i, { marks, work }] of out.entries()) {
    console.log(`load ${i + 1}: marks ${Object.entries(marks).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    for (const w of work) console.log(`  ${w.thread.padEnd(6)} ${String(w.at).padStart(7)} ms  ${String(w.ms).padStart(6)} ms  ${w.what}`);
  }
}
