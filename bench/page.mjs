// The page's share of `npm run bench`, in headless Chromium (Debian's), every start timed on the page's own clock
// (ms from navigation start) by one script installed before the page's own (observeStart):
//   defaultViewStart  the offline file from file:// with no hash, as a reader opens it: the first ranked table
//                  painted (the build's prerendered first screen), the engine ready (the controls answer:
//                  data-ready), the first contentful paint, and the page's and the worker's start-up marks
//   otherViewStart the same file with a hash asking for a view the build did not prerender: to data-ready
//   pageFloor      a static HTML file of the same byte size with a 100-row table in its markup and no script: its
//                  100th row painted, what the browser alone costs on this machine
//   interactionPaint  a weight slider moved → table, charts and details painted, with a catalog imported into the
//                  page; measured inside the page (performance.now from the change event to the frame after the
//                  page reports every part settled)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
}

// Installed before any of a page's own scripts (context.addInitScript): records, on the page's own clock (ms from
// navigation start), when the first frame that has `selector` in the DOM has been painted, when body's data-ready
// first becomes '1', and the first-contentful-paint entry; and when the element was first in the DOM (table_dom_ms). Painted: the timestamp of the frame after the one whose
// animation-frame callback first found the element (a frame paints after its callbacks, so the next frame begins
// once that paint is done). The floor file is measured by the same script, so that the ratio compares like with like.
function observeStart(selector) {
  const marks = { table_ms: null, table_dom_ms: null, ready_ms: null, fcp_ms: null };
  window.__gvStart = marks;
  const seen = () => {
    const el = document.querySelector(selector);
    if (el && marks.table_dom_ms === null) marks.table_dom_ms = performance.now();
    return el;
  };
  const frame = () => requestAnimationFrame(() => {
    if (!seen()) { frame(); return; }
    requestAnimationFrame((ts) => { marks.table_ms = ts; });
  });
  frame();
  const ready = () => {
    seen();
    if (marks.ready_ms === null && document.body && document.body.dataset.ready === '1') marks.ready_ms = performance.now();
  };
  new MutationObserver(ready).observe(document, { attributes: true, childList: true, subtree: true, attributeFilter: ['data-ready'] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') marks.fcp_ms = e.startTime;
  }).observe({ type: 'paint', buffered: true });
}

// One load of `url` in a fresh context: the marks of observeStart once `done(marks)` holds, and what `after(page)`
// returns.
async function startLoad(browser, url, selector, done, after) {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(observeStart, selector);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(done, null, { timeout: 60000 });
  const marks = await page.evaluate(() => window.__gvStart);
  const extra = after ? await after(page) : null;
  await context.close();
  return { marks, extra };
}

// The engine worker's start in a loaded page (ms from navigation start): the page's own marks (web/src/app/main.js)
// and the worker's (web/src/engine/worker.js: inflating, compiling, loading the data).
function startupMarks() {
  const m = window.gpuvalue && window.gpuvalue.host && window.gpuvalue.host.meta && window.gpuvalue.host.meta.startup;
  const mark = (name) => { const e = performance.getEntriesByName(name)[0]; return e ? e.startTime : NaN; };
  const at = (t) => (t ? t - performance.timeOrigin : NaN);
  return m ? { boot_ms: mark('gv:boot'), boot_data_ms: mark('gv:boot-data'), script_ms: mark('gv:main'), worker_started_ms: at(m.startedAt), worker_init_ms: at(m.initAt), inflate_ms: m.inflateMs, compile_ms: m.compileMs,
    data_ms: m.dataMs, data_inflate_ms: m.dataInflateMs, data_read_ms: m.readMs, data_engine_ms: m.engineMs, data_core_ms: m.coreMs, meta_ms: m.metaMs, worker_ready_ms: at(m.readyAt),
    engine_ready_ms: mark('gv:engine'), store_ms: mark('gv:store'), user_ms: mark('gv:user'), built_ms: mark('gv:built'),
    boot_wasm_ms: mark('gv:boot-wasm') } : null;
}

// The offline file from file:// in the default view (no hash: what a reader opening the file sees), `runs` fresh
// loads: firstTable (the first ranked table's rows painted: the build's prerendered first screen), engineReady (the
// page's controls answer: data-ready), fcp, and the start-up marks of each load.
export async function defaultViewStart(browser, offlineFile, runs = 9) {
  const out = { firstTable: [], tableInDom: [], engineReady: [], fcp: [], startup: [] };
  for (let i = 0; i < runs; i++) {
    const { marks, extra } = await startLoad(browser, pathToFileURL(offlineFile).href, '#ranking tbody tr', () => {
      const m = window.__gvStart;
      return m && m.table_ms !== null && m.ready_ms !== null;
    }, (page) => page.evaluate(startupMarks));
    out.firstTable.push(marks.table_ms);
    out.tableInDom.push(marks.table_dom_ms);
    out.engineReady.push(marks.ready_ms);
    out.fcp.push(marks.fcp_ms);
    if (extra) out.startup.push(extra);
  }
  return out;
}

// The same file with a hash that asks for a view the build did not prerender (another preset): the page shows a
// loading note, then the live table once the engine has ranked it. Times to data-ready.
export async function otherViewStart(browser, offlineFile, runs = 9, hash = '#preset=gpt3-175b&lang=en') {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const { marks } = await startLoad(browser, `${pathToFileURL(offlineFile).href}${hash}`, '#ranking tbody tr', () => {
      const m = window.__gvStart;
      return m && m.ready_ms !== null;
    });
    times.push(marks.ready_ms);
  }
  return { times };
}

// A static page as heavy as the offline file: a 100-row table in the markup, then a comment that pads the file
// to the same byte size (the browser still reads and tokenises it), no script.
export function writeFloorPage(dir, bytes) {
  const row = (i) => `<tr><td>${i + 1}</td><td>p5.48xlarge</td><td>AWS</td><td>us-east-1</td><td>Spot</td><td>3 days</td><td>$12,345</td><td>$0.42</td></tr>`;
  const head = `<!doctype html><html lang="en"><meta charset="utf-8"><title>floor</title><table id="t"><tbody>${Array.from({ length: 100 }, (_, i) => row(i)).join('')}</tbody></table>`;
  const tail = '</html>\n';
  const pad = Math.max(0, bytes - Buffer.byteLength(head) - Buffer.byteLength(tail) - 7);
  // Varied padding text, so that the file is not a run of one character.
  let filler = '';
  for (let i = 0; filler.length < pad; i++) filler += `${(i * 2654435761 % 4294967296).toString(36)} `;
  const file = path.join(dir, 'floor.html');
  fs.writeFileSync(file, `${head}<!--${filler.slice(0, pad)}-->${tail}`);
  return file;
}

// The static floor file's 100-row table painted, timed by the same script as the page's first table.
export async function pageFloor(browser, bytes, runs = 9) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-floor-'));
  const file = writeFloorPage(dir, bytes);
  const times = [];
  try {
    for (let i = 0; i < runs; i++) {
      const { marks } = await startLoad(browser, pathToFileURL(file).href, '#t tbody tr:nth-child(100)', () => window.__gvStart && window.__gvStart.table_ms !== null);
      times.push(marks.table_ms);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { times };
}

// Imports `catalogFile` into the offline page, then moves the unit-cost weight slider `changes` times (a new value
// each time, so that no cached ranking answers it) and times each change until painted.
export async function interactionPaint(browser, offlineFile, catalogFile, changes = 15) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const settled = () => page.waitForFunction(() => document.body.dataset.ready === '1' && !document.body.dataset.busy, null, { timeout: 300000 });
  await page.goto(`${pathToFileURL(offlineFile).href}#preset=resnet50-imagenet&lang=en`);
  await settled();
  await page.setInputFiles('#import-file', catalogFile);
  await page.waitForSelector('#import-ok', { timeout: 600000 });
  await settled();
  const times = [];
  for (let i = 0; i < changes + 2; i++) {
    const ms = await page.evaluate((value) => new Promise((resolve) => {
      const el = document.getElementById('w-unit_cost');
      const t0 = performance.now();
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      // Settled: no part of the page busy; painted: the frame after that, then the task after the frame.
      const tick = () => (document.body.dataset.busy ? requestAnimationFrame(tick) : requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)));
      requestAnimationFrame(tick);
    }), 0.5 + 0.1 * i);
    if (i >= 2) times.push(ms);  // the first two warm the worker's code paths
  }
  await context.close();
  return { times };
}
