#!/usr/bin/env node
// How soon the offline file shows its first ranked table, against the browser's floor, in headless Chromium: the
// time from navigation to the first row of #ranking on screen (the build's prerendered first screen, or the live
// table when there is none), to the live page ready (data-ready, as `npm run bench` measures page_ready_ms), and
// to the 100-row table of a static file of the same size (bench/page.mjs's floor). Medians of RUNS fresh loads.
// Usage: node scripts/first-table.mjs [RUNS] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser, writeFloorPage } from '../bench/page.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a))) || 9;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

// ms from navigation start to each condition (performance.now() in the page when it first holds).
async function load(browser, url, conditions) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  const out = {};
  for (const [name, fn] of Object.entries(conditions)) {
    await page.waitForFunction(fn, null, { timeout: 60000, polling: 'raf' });
    out[name] = await page.evaluate(() => performance.now());
  }
  await context.close();
  return out;
}

const offline = path.join(root, 'dist/gpuvalue.html');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-first-'));
const floorFile = writeFloorPage(dir, fs.statSync(offline).size);
const browser = await launchBrowser();
const page = { first: [], ready: [] };
const floor = [];
try {
  for (let i = 0; i < runs; i++) {
    const r = await load(browser, `${pathToFileURL(offline).href}#preset=resnet50-imagenet&lang=en`, {
      first: () => document.querySelector('#ranking tbody tr'),
      ready: () => document.body.dataset.ready === '1',
    });
    page.first.push(r.first);
    page.ready.push(r.ready);
    floor.push((await load(browser, pathToFileURL(floorFile).href, { floor: () => document.querySelectorAll('#t tbody tr').length === 100 })).floor);
  }
} finally {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
const result = { runs, first_table_ms: Math.round(median(page.first)), page_ready_ms: Math.round(median(page.ready)), floor_ms: Math.round(median(floor)) };
result.first_table_over_floor = +(result.first_table_ms / result.floor_ms).toFixed(2);
result.ready_over_floor = +(result.page_ready_ms / result.floor_ms).toFixed(2);
if (args.includes('--json')) console.log(JSON.stringify(result));
else console.log(`first table ${result.first_table_ms} ms (${result.first_table_over_floor} × the floor), live page ready ${result.page_ready_ms} ms (${result.ready_over_floor} ×), floor ${result.floor_ms} ms; medians of ${runs} loads`);
