// Headless Debian Chromium through playwright-core (never a downloaded browser), plus a local server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { createServer, listen } from '../../scripts/serve.mjs';
import { collapseRegions, firstRows, rowKey } from '../reference/view.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const artifacts = path.join(root, 'test-artifacts');
fs.mkdirSync(artifacts, { recursive: true });
export const offlineUrl = pathToFileURL(path.join(root, 'dist/gpuvalue.html')).href;

export async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function startServer() {
  const server = createServer(path.join(root, 'dist/site'));
  const port = await listen(server, 0);
  return { server, base: `http://127.0.0.1:${port}/` };
}

// Installed before a page's scripts (context.addInitScript): the page's engine worker still does every piece of work,
// but while window.holdAnswers is true its answers wait, until window.releaseAnswers() delivers them in order. A test
// can then look at the page while a request is on its way, without racing the worker.
export const HOLD_ANSWERS = () => {
  const Real = window.Worker;
  const held = [];
  window.holdAnswers = false;
  window.releaseAnswers = () => { window.holdAnswers = false; for (const deliver of held.splice(0)) deliver(); };
  window.Worker = class extends Real {
    set onmessage(fn) {
      super.onmessage = fn && ((e) => (window.holdAnswers ? held.push(() => fn.call(this, e)) : fn.call(this, e)));
    }
    get onmessage() { return super.onmessage; }
  };
};

// A page that records console errors, page errors and every request; `init`: a script run before the page's own.
export async function openPage(browser, url, { locale = 'en-US', viewport = { width: 1280, height: 900 }, init = null } = {}) {
  const context = await browser.newContext({ locale, viewport });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const log = { errors: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text()); });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('request', (r) => log.requests.push(r.url()));
  await page.goto(url);
  return { context, page, log };
}

// Reloads a page with localStorage as an earlier visit left it. The new document sets the values itself, before its
// first script (a page-scoped init script, once: a token in the tab's sessionStorage), instead of the old document
// just before the reload: Chromium sends the old document's write to the browser process on another pipe than the
// one the new document reads from, and on a loaded machine the new document could start without it. clear: empty
// localStorage first.
let seeds = 0;
export async function reloadWithStored(page, values, { clear = false } = {}) {
  seeds += 1;
  const token = `gv-test-seed-${process.pid}-${seeds}`;
  await page.addInitScript(({ token: t, values: v, clear: c }) => {
    if (sessionStorage.getItem(t)) return;
    sessionStorage.setItem(t, '1');
    if (c) localStorage.clear();
    for (const [key, value] of Object.entries(v)) localStorage.setItem(key, value);
  }, { token, values, clear });
  await page.reload();
}

// Waits until the page has finished an update: results rendered, every table row in the DOM, charts drawn.
export async function settled(page, { timeout = 30000 } = {}) {
  // Not busy (what is on screen is drawn) and every table row in the DOM (later rows come in short tasks).
  await page.waitForFunction(() => document.body.dataset.ready && !document.body.dataset.busy && !document.querySelector('[data-complete="0"]'), null, { timeout });
  return page.evaluate(() => document.body.dataset.ready);
}

// The ranked table as data: the raw numbers come from the cells' data-v attributes.
// The keys (id|pricing) of engine results as the table lists them: the same offer in other regions right after
// its first row (app/rows.js), the first VIEW_LIMIT rows (app/main.js), never cutting a region group.
const VIEW_LIMIT = 250;
export const shown = (results) => firstRows(collapseRegions(results.map((r) => ({ ...r, _key: rowKey(r) }))), VIEW_LIMIT)
  .map((r) => `${r.id}|${r.pricing}`);

// The ranking's rows in table order, the folded rows of a region group too (hidden: true); { visible: true } keeps
// only the rows a user sees.
export async function tableRows(page, { visible = false } = {}) {
  await settled(page);
  return page.$$eval(visible ? '#ranking tbody tr:not([hidden])' : '#ranking tbody tr', (trs) => trs.map((tr) => {
    const v = (col) => tr.querySelector(`td[data-col="${col}"]`);
    const num = (col) => Number(v(col).dataset.v);
    const text = (col) => v(col).textContent;
    return {
      key: tr.dataset.key, provider: tr.dataset.provider, gpu: tr.dataset.gpu, rank: num('rank'), instance: tr.querySelector('button.link').textContent,
      pricing: v('pricing').dataset.v, time: num('time'), cost: num('cost'), hourly: num('hourly'), unit: num('unit'),
      memory: num('memory'), fits: v('memory').dataset.fits === '1', score: num('score'), gpus: num('gpus'),
      costText: text('cost'), timeText: text('time'), selected: tr.classList.contains('selected'), hidden: tr.hidden,
      member: tr.classList.contains('region-member'),
    };
  }));
}

// The same engine the page runs, in node, with the same data and today's date (for expected values).
export async function nodeEngine() {
  const { createRequire } = await import('node:module');
  const { createEngine, todayIso } = await import('../../web/src/engine/client.js');
  // Exactly the engine the page loads (dist/site/gpuvalue_engine.js as CommonJS, its wasm gpuvalue_engine.wasm).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-engine-'));
  const copy = path.join(dir, 'engine.cjs');
  fs.copyFileSync(path.join(root, 'dist/site/gpuvalue_engine.js'), copy);
  const wasmBinary = fs.readFileSync(path.join(root, 'dist/site/gpuvalue_engine.wasm'));
  const glue = createRequire(import.meta.url)(copy);
  fs.rmSync(dir, { recursive: true, force: true });  // required: the module stays loaded
  const factory = (options = {}) => glue({ ...options, wasmBinary });
  const { unpackBundle } = await import('../../web/src/engine/bundle.js');
  const data = unpackBundle(JSON.parse(fs.readFileSync(path.join(root, 'dist/site/data/bundle.json'), 'utf8')));  // the page's data
  return createEngine(factory, data, { today: todayIso() });
}

// The text the English page shows for an engine message (USD, GPU names from the engine's database).
export async function englishRenderer(engine) {
  const { messageRenderer } = await import('../../web/src/i18n/messages.js');
  const { makeFormatter } = await import('../../web/src/format/format.js');
  const names = new Map(engine.gpus().map((g) => [g.id, g.name]));
  return messageRenderer({ lang: 'en', fmt: makeFormatter({ lang: 'en' }), gpuName: (id) => names.get(id) ?? id });
}

// Screenshots for a person to look at (test-artifacts/). A full-page capture of the long ranking page costs seconds of
// CPU on a 2-core machine (3.5-4.7 s each, measured beside a build; a viewport capture 0.35 s), so the test run
// takes the viewport and `GPUVALUE_SHOTS=full npm test` (or a single file run so) takes the whole page.
export const fullShots = process.env.GPUVALUE_SHOTS === 'full';
export const shot = (page, name, opts = {}) => page.screenshot({ path: path.join(artifacts, name), ...opts, fullPage: Boolean(opts.fullPage) && fullShots });

// An element's screenshot: the part of it one screen shows (a 250-row table is ~27,000 px tall: 2.9 s to capture
// whole), or all of it with GPUVALUE_SHOTS=full.
export async function elementShot(page, handle, name) {
  const file = path.join(artifacts, name);
  if (fullShots) return handle.screenshot({ path: file });
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return handle.screenshot({ path: file });
  const y = Math.max(0, box.y);
  const clip = { x: Math.max(0, box.x), y, width: Math.min(box.width, viewport.width), height: Math.min(box.y + box.height, viewport.height) - y };
  return page.screenshot({ path: file, clip });
}
