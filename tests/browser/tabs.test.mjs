// The saved catalogs when more than one thing changes them: two tabs of the page importing and removing, a removal
// while an import runs, a list written by a newer version, a damaged document in IndexedDB. No sequence may lose a
// stored catalog (or its IndexedDB document) that the user did not remove.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, startServer, settled, reloadWithStored, HOLD_ANSWERS } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const offer = (id, provider, notes = '') => ({ id, provider, instance_type: `t-${id}`, gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'eu-1', currency: 'USD',
  interconnect: 'nvswitch', prices: [{ model: 'on_demand', usd_per_hour: 19.5, as_of: '2026-11-20', source: 'https://example.com/prices' }], ...(notes ? { notes } : {}) });
// A catalog of `n` offers; with `pad`, each offer's notes make the document long enough for IndexedDB (over 100,000 characters).
const catalog = (prefix, provider, n, pad = 0) => JSON.stringify({ schema_version: 1, instances: Array.from({ length: n }, (_, i) => offer(`${prefix}-${i}`, provider, 'x'.repeat(pad))) });
const file = (name, text) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

const URL_EN = `${base}#preset=resnet50-imagenet&lang=en`;
const storedList = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('gpuvalue.userCatalogs')));
const listedNames = (page) => page.$$eval('#my-catalogs .cat-name', (els) => els.map((e) => e.textContent));
const idbKeys = (page) => page.evaluate(() => new Promise((resolve) => {
  const req = indexedDB.open('gpuvalue');
  req.onsuccess = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains('docs')) { resolve([]); return; }
    const keys = db.transaction('docs').objectStore('docs').getAllKeys();
    keys.onsuccess = () => resolve(keys.result.map(String).sort());
  };
}));

async function open(context, url = URL_EN) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await settled(page);
  await page.evaluate(() => { document.getElementById('data-panel').open = true; });
  return { page, errors };
}

async function importFile(page, name, text) {
  await page.setInputFiles('#import-file', file(name, text));
  await page.waitForFunction((n) => [...document.querySelectorAll('#my-catalogs .cat-name')].some((e) => e.textContent === n), name, { timeout: 60000 });
  await settled(page, { timeout: 60000 });
}

const removeNamed = (page, name) => page.click(`#my-catalogs li:has(.cat-name:text-is("${name}")) button[data-index]`);

test('two tabs: each tab\'s import stays, one tab\'s removal keeps the other\'s catalog and document, and each tab shows the other\'s change', async () => {
  const context = await browser.newContext();
  const b = await open(context);  // opened first, before anything was saved
  const a = await open(context);
  const big = catalog('a', 'Tab A Cloud', 40, 3000);
  assert.ok(big.length > 100_000, 'kept in IndexedDB');
  await importFile(a.page, 'a.json', big);
  // Tab B loads the list tab A wrote, without a reload, and says so.
  await b.page.waitForFunction(() => [...document.querySelectorAll('#my-catalogs .cat-name')].some((e) => e.textContent === 'a.json'), null, { timeout: 30000 });
  await b.page.waitForSelector('#storage-other-tab');
  await importFile(b.page, 'b.json', catalog('b', 'Tab B Cloud', 2));
  assert.deepEqual((await storedList(b.page)).catalogs.map((c) => c.name), ['a.json', 'b.json']);
  const aRef = (await storedList(b.page)).catalogs[0].ref;
  assert.ok(aRef, 'a.json is stored by reference');
  assert.deepEqual(await idbKeys(b.page), [aRef]);
  // Tab B removes its b.json: tab A's a.json and its IndexedDB document stay.
  await a.page.waitForFunction(() => [...document.querySelectorAll('#my-catalogs .cat-name')].some((e) => e.textContent === 'b.json'), null, { timeout: 30000 });
  await removeNamed(b.page, 'b.json');
  await b.page.waitForFunction(() => !document.querySelector('#my-catalogs .cat-name') || ![...document.querySelectorAll('#my-catalogs .cat-name')].some((e) => e.textContent === 'b.json'));
  await settled(b.page);
  assert.deepEqual((await storedList(a.page)).catalogs.map((c) => c.name), ['a.json']);
  assert.deepEqual(await idbKeys(a.page), [aRef], 'tab B\'s removal leaves tab A\'s document');
  await a.page.waitForFunction(() => ![...document.querySelectorAll('#my-catalogs .cat-name')].some((e) => e.textContent === 'b.json'), null, { timeout: 30000 });
  await a.page.reload();
  await settled(a.page);
  await a.page.evaluate(() => { document.getElementById('data-panel').open = true; });
  assert.deepEqual(await listedNames(a.page), ['a.json']);
  // Now tab A removes a.json: its document goes with it, in both tabs' view.
  await removeNamed(a.page, 'a.json');
  await settled(a.page);
  assert.deepEqual((await storedList(a.page)).catalogs, []);
  assert.deepEqual(await idbKeys(a.page), []);
  await b.page.waitForSelector('#my-catalogs-empty', { timeout: 30000 });
  assert.deepEqual([...a.errors, ...b.errors], []);
  await context.close();
});

// HOLD_ANSWERS (browser.mjs): a test can act while an engine call is surely still pending.
test('a removal clicked while an import runs waits for it: the import is kept and the removed catalog goes', async () => {
  const context = await browser.newContext();
  await context.addInitScript(HOLD_ANSWERS);
  const { page, errors } = await open(context);
  await importFile(page, 'old.json', catalog('old', 'Old Cloud', 2));
  // The import's answer is held until the removal has been clicked.
  await page.evaluate(() => { window.holdAnswers = true; });
  await page.setInputFiles('#import-file', file('new.json', catalog('new', 'New Cloud', 200)));
  await page.waitForSelector('#import-busy', { timeout: 30000 });
  await removeNamed(page, 'old.json');
  assert.ok(await page.$('#import-busy'), 'the removal was clicked while the import ran');
  assert.deepEqual(await listedNames(page), ['old.json'], 'the removal waits for the import');
  await page.evaluate(() => window.releaseAnswers());
  await page.waitForFunction(() => [...document.querySelectorAll('#my-catalogs .cat-name')].map((e) => e.textContent).join() === 'new.json', null, { timeout: 90000 });
  await settled(page, { timeout: 60000 });
  assert.deepEqual((await storedList(page)).catalogs.map((c) => c.name), ['new.json']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a list written by a newer version is neither moved aside nor overwritten by an import in this version', async () => {
  const context = await browser.newContext();
  const { page, errors } = await open(context);
  const newer = JSON.stringify({ version: 3, catalogs: [{ name: 'future.json', kind: 'json', added: '2027-01-01', blob: 'x' }] });
  await reloadWithStored(page, { 'gpuvalue.userCatalogs': newer });
  await settled(page);
  await page.evaluate(() => { document.getElementById('data-panel').open = true; });
  assert.match(await page.textContent('#storage-notice'), /newer version[\s\S]*nothing you change in this tab is saved/);
  await importFile(page, 'mine.json', catalog('mine', 'Mine Cloud', 1));
  assert.ok(await page.$('#import-session-only'), 'the import is for this session only');
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')), newer);
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('unreadable'))), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a damaged IndexedDB document is listed as damaged, exports byte for byte, and outlives later imports', async () => {
  const context = await browser.newContext();
  const { page, errors } = await open(context);
  const damaged = '{"schema_version":1,"instances":[{"id":"cut-off-by-a-crash",';
  await page.evaluate((text) => new Promise((resolve, reject) => {
    const req = indexedDB.open('gpuvalue', 1);
    req.onupgradeneeded = () => { if (!req.result.objectStoreNames.contains('docs')) req.result.createObjectStore('docs'); };
    req.onsuccess = () => {
      const tx = req.result.transaction('docs', 'readwrite');
      tx.objectStore('docs').put(text, 'gpuvalue-doc-damaged1');
      tx.oncomplete = () => { req.result.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
  }), damaged);
  await reloadWithStored(page, { 'gpuvalue.userCatalogs':
    JSON.stringify({ version: 2, catalogs: [{ name: 'dmg.json', kind: 'json', added: '2026-11-01', ref: 'gpuvalue-doc-damaged1', count: 3 }] }) });
  await settled(page);
  await page.evaluate(() => { document.getElementById('data-panel').open = true; });
  assert.match(await page.textContent('#damaged-0'), /damaged/);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-0')]);
  assert.equal(fs.readFileSync(await dl.path(), 'utf8'), damaged);
  await importFile(page, 'later.json', catalog('later', 'Later Cloud', 1));
  assert.deepEqual((await storedList(page)).catalogs.map((c) => c.name), ['dmg.json', 'later.json']);
  assert.deepEqual(await idbKeys(page), ['gpuvalue-doc-damaged1']);
  assert.deepEqual(errors, []);
  await context.close();
});
