// The page in real Chromium: served over http, and the offline single file from file://.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { launch, startServer, openPage, offlineUrl, settled, tableRows, shot, root } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

test('served page shows the ranked table computed by the wasm engine', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  assert.equal(await settled(page), '1');
  const rows = await tableRows(page);
  assert.ok(rows.length > 50, `${rows.length} rows`);
  assert.match(rows[0].costText, /\$/);
  assert.ok(rows[0].cost > 0 && rows[0].time > 0);
  assert.match(await page.textContent('#summary'), /fit in memory/);
  await shot(page, 'page-http.png');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('offline file works from file:// with zero network requests and zero console errors', async () => {
  const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=gpt3-175b&lang=en`);
  assert.equal(await settled(page), '1');
  const rows = await tableRows(page);
  assert.ok(rows.length > 10);
  // blob: is the engine worker's script, made in memory from the page's own inline scripts (not a network request).
  const external = log.requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:') && !u.startsWith('blob:null/'));
  assert.deepEqual(external, []);
  assert.equal(log.requests.filter((u) => u.startsWith('file://')).length, 1);  // the page itself, nothing else
  assert.deepEqual(log.errors, []);
  await shot(page, 'page-offline.png');
  await context.close();
});

test('language switch changes the UI to Chinese and is remembered', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await settled(page);
  assert.match(await page.textContent('.tagline'), /GPU 云/);
  assert.match(await page.textContent('#ranking thead'), /训练时间/);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.lang')), 'zh');
  await shot(page, 'page-zh.png');
  await context.close();
});

test('the widget renders inside embed-example.html', async () => {
  const { context, page, log } = await openPage(browser, `${base}embed-example.html`);
  await page.waitForFunction(() => document.getElementById('widget-en')?.dataset.ready, null, { timeout: 90000 });
  assert.equal(await page.evaluate(() => document.getElementById('widget-en').dataset.ready), '1');
  const cells = await page.evaluate(() => document.getElementById('widget-en').shadowRoot.querySelectorAll('tbody tr').length);
  assert.ok(cells >= 1);
  await page.waitForFunction(() => document.getElementById('widget-zh')?.dataset.ready === '1');
  assert.match(await page.evaluate(() => document.getElementById('widget-zh').shadowRoot.textContent), /训练时间/);
  // A Chinese widget names providers as the page does in Chinese (web/src/i18n/zh-CN.json provider:…), compact too.
  const zhDict = JSON.parse(fs.readFileSync(path.join(root, 'web/src/i18n/zh-CN.json'), 'utf8'));
  const zhNames = Object.entries(zhDict)
    .filter(([k, v]) => k.startsWith('provider:') && v !== k.slice(9)).map(([k, v]) => [k.slice(9), v]);
  const providerCells = await page.evaluate(async (label) => {
    const el = document.createElement('gpu-value');
    for (const [k, v] of [['preset', 'llama2-7b-pretrain'], ['lang', 'zh'], ['compact', ''], ['limit', '100']]) el.setAttribute(k, v);
    document.body.append(el);
    await new Promise((resolve) => { const tick = () => (el.dataset.ready ? resolve() : setTimeout(tick, 50)); tick(); });
    return [...el.shadowRoot.querySelectorAll('td[data-label]')].filter((td) => td.dataset.label === label).map((td) => td.textContent);
  }, zhDict.colProvider);
  assert.ok(providerCells.length >= 10, providerCells.join(' | '));
  assert.ok(providerCells.some((c) => zhNames.some(([, zh]) => c.startsWith(zh))), providerCells.join(' | '));
  for (const c of providerCells) assert.ok(!zhNames.some(([en]) => c === en || c.startsWith(`${en} · `)), c);
  await shot(page, 'embed-example.png', { fullPage: true });
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the widget script stays within its 262 KB gzip guard, its wasm carried as base64 of its gzip', () => {
  const js = fs.readFileSync(path.join(root, 'dist/site/gpu-value.js'), 'utf8');
  const gz = zlib.gzipSync(js, { level: 9 }).length;
  // A guard against growth, set 1 % over the script of 2026-12-07, evening (265,383 B: its engine answers serveOffers,
  // 2.7 KB, and the script starts a worker of itself, 1 KB); before, 1 % over that morning's (262,514 B), whose engine's hot files are compiled
  // for speed for the first time (docs/toolchain.md T19: the ranking view 2.5 times as fast, the wasm 24 KB larger
  // after gzip); before, 1 % over the script of 2026-12-06 with the widget's own engine, only the methods the
  // widget calls (238,275 B: its wasm 141.6 KB after gzip, the page's engine 239.3 KB; docs/performance.md, "The
  // widget's engine"), under the 300 KB budget (`npm run bench`, widget_js_gzip_kb). With the page's engine it was
  // 335,982 B that day (its earlier sizes: README's size rows).
  assert.ok(gz <= 262 * 1024, `${gz} bytes gzip`);
  assert.match(js, /self\.__GPUVALUE_WASM__="[A-Za-z0-9+/=]{100000,}"/);
});

test('the served site\'s first visit stays within its 474 KB gzip guard, the engine\'s wasm fetched as bytes', async () => {
  const { context, page, log } = await openPage(browser, base);
  assert.equal(await settled(page), '1');
  // Every file the first visit loaded from the site, measured as the server's gzip -9 of it.
  const files = [...new Set(log.requests.filter((u) => u.startsWith(base)).map((u) => new URL(u).pathname.slice(1) || 'index.html'))];
  const gz = files.reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(root, 'dist/site', f)), { level: 9 }).length, 0);
  // A guard against growth, set over the first visit of 2026-12-07, late night (480,065 bytes, + 1 %: the page draws its
  // charts itself, views/plot.js, 6.6 KB after gzip where Chart.js was 60.6 KB); before, over 532,249 bytes (+ 1 %: the engine's hot files compiled
  // for speed, docs/toolchain.md T19, 31 KB more wasm after gzip); before, over 497,504 bytes (+ 1 %: the other language, the Accuracy view's
  // data and the decision tools' panels load on demand, tests/browser/lazy.test.mjs; 554,550 before them;
  // earlier 546,755 bytes, 533.9 KB, + 1 %: the size-optimised engine,
  // 232,456 bytes of wasm after gzip; 557,942 before its last trim, 675,347 with the speed-optimised one); the wasm as a
  // file of its own, 366,910 bytes after gzip where as base64 inside gpuvalue_engine.js it was 498,229; the 350 KB
  // target is measured by `npm run bench` (site_first_visit_gzip_bytes) and is missed.
  assert.ok(gz <= 474 * 1024, `${gz} bytes gzip: ${files.join(', ')}`);
  assert.ok(files.includes('gpuvalue_engine.wasm'), files.join(', '));
  assert.doesNotMatch(fs.readFileSync(path.join(root, 'dist/site/gpuvalue_engine.js'), 'utf8'), /base64,[A-Za-z0-9+/=]{1000}/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the offline file stays within its 533 KB gzip guard, the wasm inflated from a data element', async (t) => {
  const html = fs.readFileSync(path.join(root, 'dist/gpuvalue.html'));
  const gz = zlib.gzipSync(html).length;
  // A guard against growth, set over the file of 2026-12-07, late night (527.3 KB, + 1 %: the page's own charts instead
  // of Chart.js, 55 KB less); before, over the file of that day (580.1 KB, + 1 %: the engine's hot files compiled for speed,
  // docs/toolchain.md T19, 31 KB more wasm after gzip); before, over 537.1 KB (+ 1 %: the size-optimised engine 10.5 KB smaller after
  // gzip; 548.3 KB before it, 535.7 KB with the measure-and-calibrate tab, the engine's
  // calibration and the serving ranking's billing and sorting; 509.2 KB before: 2,519 offers with Azure and Alibaba's regions, the page's
  // serving mode, the engine with mixture-of-experts training and LLM serving, the prerendered first screen in two
  // languages; 487 KB before the catalog and the serving mode, 460 KB before the engine's new models); the 300 KB
  // target is measured by `npm run bench` (docs/performance.md) and is missed.
  assert.ok(gz <= 533 * 1024, `${gz} bytes gzip`);
  const text = html.toString('utf8');
  assert.match(text, /<script type="application\/octet-stream" id="gv-wasm" data-encoding="gzip\+base64">[A-Za-z0-9+/=]{100000,}<\/script>/);
  assert.doesNotMatch(text, /base64,[A-Za-z0-9+/=]{1000}/, 'no second copy of the wasm as a data URI');
  // The data and the page's script as base64 of their gzip too (the browser reads under half the bytes before the
  // first screen), and each inflates to what the build made: the packed catalog, the page's script. The licences of
  // any package bundled into the page's script would stay readable beside it.
  const packed = (id) => {
    const m = new RegExp(`<script type="[a-z/]+" id="${id}" data-encoding="gzip\\+base64">([A-Za-z0-9+/=]+)</script>`).exec(text);
    assert.ok(m, `${id} as gzip+base64`);
    return zlib.gunzipSync(Buffer.from(m[1], 'base64')).toString('utf8');
  };
  const data = JSON.parse(packed('gv-data'));
  assert.deepEqual(data, JSON.parse(fs.readFileSync(path.join(root, 'dist/site/data/bundle.json'), 'utf8')));
  assert.match(packed('gv-app'), /DecompressionStream|gpuvalue/);
  assert.ok(html.length < 1.2e6, `${html.length} bytes raw`);
  // The page's script bundles no third-party package (its charts are its own): no licences to keep beside it.
  assert.doesNotMatch(text, /id="gv-app-licences"/);
  assert.doesNotMatch(packed('gv-app'), /\/\*!/);
  const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=resnet50-imagenet&lang=en`);
  assert.equal(await settled(page), '1');
  const startup = await page.evaluate(() => performance.now());
  t.diagnostic(`offline page ready after ${startup.toFixed(0)} ms (since navigation start); ${gz} bytes gzip`);
  // The engine worker was started by the file's boot script (web/src/engine/boot.js), before the page's own script
  // ran, and the page took it over: no second worker, the data sent once.
  const boot = await page.evaluate(() => ({
    boot: performance.getEntriesByName('gv:boot').map((e) => e.startTime), data: performance.getEntriesByName('gv:boot-data').map((e) => e.startTime),
    main: performance.getEntriesByName('gv:main').map((e) => e.startTime), adopted: window.gpuvalueBoot === null, kind: document.body.dataset.host,
  }));
  assert.equal(boot.boot.length, 1);
  assert.equal(boot.data.length, 1);
  assert.ok(boot.boot[0] <= boot.data[0] && boot.data[0] <= boot.main[0], JSON.stringify(boot));
  assert.equal(boot.adopted, true);
  assert.equal(boot.kind, 'worker');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('an offline file whose page script cannot be inflated says so in both languages, over its first screen', async () => {
  // The file as built, its page script's gzip cut short (a broken copy): the boot script's inflate fails.
  const text = fs.readFileSync(path.join(root, 'dist/gpuvalue.html'), 'utf8');
  const broken = text.replace(/(id="gv-app" data-encoding="gzip\+base64">)([A-Za-z0-9+/=]+)/, (m, open, b64) => open + Buffer.from(b64, 'base64').subarray(0, 5000).toString('base64'));
  assert.notEqual(broken, text);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-broken-'));
  const file = path.join(dir, 'gpuvalue.html');
  fs.writeFileSync(file, broken);
  const { context, page } = await openPage(browser, pathToFileURL(file).href);
  try {
    assert.equal(await settled(page), 'error');
    const alert = await page.textContent('#app [role=alert]');
    assert.match(alert, /gpuvalue could not start \/ 无法启动: \S/);
    assert.ok(await page.$('#ranking tbody tr'), 'the first screen stays');
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
