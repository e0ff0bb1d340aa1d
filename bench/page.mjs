// The page's share of `npm run bench`, in headless Chromium (Debian's):
//   pageReady      navigation start → first ranked table of the offline file from file://
//   pageFloor      the same measurement on a static HTML file of the same byte size with a 100-row table in its
//                  markup and no script: what the browser alone costs on this machine
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

// Milliseconds from page.goto to `ready(page)` resolving, in a fresh context each run.
async function timedLoads(browser, url, runs, ready, after) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(url);
    await ready(page);
    times.push(Date.now() - t0);
    if (after) await after(page);
    await context.close();
  }
  return times;
}

// The offline page's start times, and where the engine worker's start went in each run (ms after navigation
// start; inflating, compiling, loading the data).
export async function pageReady(browser, offlineFile, runs = 9) {
  const startup = [];
  const times = await timedLoads(browser, `${pathToFileURL(offlineFile).href}#preset=resnet50-imagenet&lang=en`, runs,
    (page) => page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 }),
    async (page) => {
      const s = await page.evaluate(() => {
        const m = window.gpuvalue && window.gpuvalue.host && window.gpuvalue.host.meta && window.gpuvalue.host.meta.startup;
        // The page's own start-up marks (web/src/app/main.js): its script running, the engine ready, the page built.
        const mark = (name) => { const e = performance.getEntriesByName(name)[0]; return e ? e.startTime : NaN; };
        return m ? { script_ms: mark('gv:main'), worker_started_ms: m.startedAt - performance.timeOrigin, inflate_ms: m.inflateMs, compile_ms: m.compileMs,
          data_ms: m.dataMs, engine_ready_ms: mark('gv:engine'), built_ms: mark('gv:built') } : null;
      });
      if (s) startup.push(s);
    });
  return { times, startup };
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

export async function pageFloor(browser, bytes, runs = 9) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-floor-'));
  const file = writeFloorPage(dir, bytes);
  const times = await timedLoads(browser, pathToFileURL(file).href, runs,
    (page) => page.waitForFunction(() => document.querySelectorAll('#t tbody tr').length === 100, null, { timeout: 30000 }));
  fs.rmSync(dir, { recursive: true, force: true });
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
