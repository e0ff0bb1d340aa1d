// Saved catalogs in the browser: large ones live in IndexedDB (localStorage keeps the small list), a stored catalog
// the engine now rejects shows each error with its path and can be exported, repaired (its valid offers kept) or
// fixed and imported again, and the start-up error screen exports every stored value before it resets them.
// The stored catalogs are real documents: one whose offer id a bundled offer now uses and one whose GPU is unknown.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { unpackBundle } from '../../web/src/engine/bundle.js';
import { launch, startServer, openPage, settled, reloadWithStored, shot, tableRows, root } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const bundle = unpackBundle(JSON.parse(fs.readFileSync(path.join(root, 'dist/site/data/bundle.json'), 'utf8')));
const bundledId = bundle.catalogs.flatMap((c) => c.doc.instances).find((i) => !i.example).id;

const offer = (id, extra = {}) => ({ id, provider: 'Mine Cloud', instance_type: `m-${id}`, gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'eu-1', currency: 'USD',
  interconnect: 'nvswitch', prices: [{ model: 'on_demand', usd_per_hour: 17.5, as_of: '2026-11-20', source: 'https://example.com/prices' }], ...extra });
// Saved before the bundled catalog gained an offer with the id of its second offer; its fourth names a GPU that is not in the database.
const brokenDoc = { schema_version: 1, instances: [offer('mine-a'), offer(bundledId), offer('mine-c'), offer('mine-d', { gpu: 'gone-gpu' })] };
const stored = JSON.stringify({ version: 1, catalogs: [{ name: 'mine.json', kind: 'json', added: '2026-11-20', doc: brokenDoc }] });

async function openStored(url, value, opts = {}) {
  const { context, page, log } = await openPage(browser, url, opts);
  await settled(page);
  await reloadWithStored(page, { 'gpuvalue.userCatalogs': value });
  await settled(page);
  await page.evaluate(() => { document.getElementById('data-panel').open = true; });
  return { context, page, log };
}

// The ranking's rows of one provider (the link's provider filter; the bundled offers would push them past the rows shown).
async function providerRows(page, provider, lang = 'en') {
  await page.evaluate(([p, l]) => { location.hash = `#preset=resnet50-imagenet&lang=${l}&prov=${encodeURIComponent(p)}`; }, [provider, lang]);
  await page.waitForFunction((p) => { const trs = [...document.querySelectorAll('#ranking tbody tr')]; return trs.length && trs.every((tr) => tr.dataset.provider === p); }, provider, { timeout: 60000 });
  return tableRows(page, { all: true });
}

const storedList = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('gpuvalue.userCatalogs')));
const downloaded = async (page, click) => {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(click)]);
  return fs.readFileSync(await dl.path(), 'utf8');
};

for (const [lang, width] of [['en', 1366], ['zh', 360]]) {
  test(`${lang}, ${width} px: a rejected stored catalog shows its errors with their paths, exports, and keeps its valid offers`, async () => {
    const { context, page, log } = await openStored(`${base}#preset=resnet50-imagenet&lang=${lang}`, stored,
      { viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    assert.match(await page.textContent('#storage-rejected'), /mine\.json/);
    // The notice gives the engine's reason in the reader's language (rendered when shown, not at start-up).
    const reasons = await page.$$eval('#storage-rejected li [data-engine]', (els) => els.map((e) => e.textContent));
    assert.ok(reasons.length >= 1, 'the notice gives the reason');
    for (const r of reasons) (lang === 'zh' ? assert.match : assert.doesNotMatch)(r, /[\u3400-\u9fff]/, r);
    await page.evaluate(() => { document.getElementById('data-panel').open = true; });
    const paths = await page.$$eval('#rejected-0 code.path', (els) => els.map((e) => e.textContent));
    assert.ok(paths.some((p) => p.startsWith('/instances/1')), `the duplicate id is named by its path: ${paths}`);
    assert.ok(paths.some((p) => p.startsWith('/instances/3')), `the unknown GPU is named by its path: ${paths}`);
    assert.ok(!paths.some((p) => /^\/instances\/[02]/.test(p)), paths.join(' '));
    await page.evaluate(() => document.getElementById('rejected-0').scrollIntoView({ block: 'center' }));
    await shot(page, `storage-rejected-${lang}-${width}.png`);
    // Export gives the stored document unchanged.
    assert.deepEqual(JSON.parse(await downloaded(page, '#export-0')), brokenDoc);
    // Keep the valid offers: a new catalog with offers 0 and 2; the rejected one stays stored as it was.
    await page.click('#repair-0');
    await page.waitForSelector('#repair-ok');
    await settled(page);
    const dropped = await page.$$eval('#repair-ok-dropped li', (lis) => lis.map((li) => li.textContent));
    assert.equal(dropped.length, 2, dropped.join(' | '));
    assert.ok(dropped[0].includes(bundledId) && dropped[0].includes('/instances/1'), dropped[0]);
    assert.ok(dropped[1].includes('mine-d') && dropped[1].includes('/instances/3'), dropped[1]);
    const mine = await providerRows(page, 'Mine Cloud', lang);
    assert.deepEqual([...new Set(mine.map((r) => r.instance))].sort(), ['m-mine-a', 'm-mine-c']);
    const list = await storedList(page);
    assert.equal(list.catalogs.length, 2);
    assert.deepEqual(list.catalogs[0].doc, brokenDoc, 'the rejected catalog is kept as it was');
    assert.deepEqual(list.catalogs[1].doc.instances.map((i) => i.id), ['mine-a', 'mine-c']);
    await page.evaluate(() => document.getElementById('repair-ok').scrollIntoView({ block: 'center' }));
    await shot(page, `storage-repaired-${lang}-${width}.png`);
    // After a reload: the repaired catalog is loaded, the original is still listed as not loaded.
    await page.reload();
    await settled(page);
    assert.equal((await providerRows(page, 'Mine Cloud', lang)).length, mine.length);
    assert.ok(await page.$('#rejected-0'));
    assert.equal(await page.$('#rejected-1'), null);
    assert.equal(await page.$('#repair-0'), null, 'its valid offers are kept once, not twice');
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('a rejected stored catalog, fixed and imported again, replaces the stored one', async () => {
  const { context, page, log } = await openStored(`${base}#preset=resnet50-imagenet&lang=en`, stored);
  const doc = JSON.parse(await downloaded(page, '#export-0'));
  const fixed = { ...doc, instances: doc.instances.filter((i) => i.id !== bundledId).map((i) => ({ ...i, gpu: 'h100-sxm5-80gb' })) };
  await page.setInputFiles('#import-file', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(fixed)) });
  await page.waitForSelector('#import-conflict');
  await page.click('#import-conflict button[data-mode="replace"]');
  await page.waitForSelector('#import-ok');
  await settled(page);
  assert.equal(await page.$('#rejected-0'), null, 'nothing is rejected any more');
  const list = await storedList(page);
  assert.deepEqual(list.catalogs.map((c) => c.doc.instances.length), [3]);
  assert.deepEqual([...new Set((await providerRows(page, 'Mine Cloud')).map((r) => r.instance))].sort(), ['m-mine-a', 'm-mine-c', 'm-mine-d']);
  assert.deepEqual(log.errors, []);
  await context.close();
});

// A catalog of 6 million characters: more than localStorage holds in all.
function bigCatalog() {
  const pad = 'x'.repeat(2900);
  return { schema_version: 1, instances: Array.from({ length: 2000 }, (_, i) => offer(`big-${i}`, { provider: 'Big Cloud', region: `r-${i % 40}`, notes: pad })) };
}

const idbRecords = (page) => page.evaluate(() => new Promise((resolve) => {
  const req = indexedDB.open('gpuvalue');
  req.onsuccess = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains('docs')) { resolve({}); return; }
    const out = {};
    const cur = db.transaction('docs').objectStore('docs').openCursor();
    cur.onsuccess = () => { const c = cur.result; if (c) { out[c.key] = c.value.length; c.continue(); } else resolve(out); };
  };
}));

test('a catalog larger than localStorage is kept in IndexedDB, survives a reload and goes with its removal', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  const text = JSON.stringify(bigCatalog());
  assert.ok(text.length > 5_500_000, `${text.length} characters`);
  await page.setInputFiles('#import-file', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForSelector('#import-ok', { timeout: 60000 });
  await settled(page, { timeout: 60000 });
  assert.equal(await page.$('#import-session-only'), null, 'saved, not session-only');
  const raw = await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs'));
  assert.ok(raw.length < 1000, `localStorage holds only the list (${raw.length} characters)`);
  const list = JSON.parse(raw);
  assert.equal(list.version, 2);
  assert.deepEqual(list.catalogs.map((c) => [c.name, c.count]), [['big.json', 2000]]);
  const records = await idbRecords(page);
  assert.deepEqual(records, { [list.catalogs[0].ref]: text.length });
  await page.reload();
  await settled(page, { timeout: 60000 });
  assert.match(await page.textContent('#my-catalogs'), /big\.json/);
  assert.ok((await providerRows(page, 'Big Cloud')).length > 10, 'the offers are back after a reload');
  assert.equal(await page.$('#storage-missing'), null);
  // Removing the catalog removes its document once the list without it is written.
  await page.evaluate(() => { document.getElementById('data-panel').open = true; });
  await page.click('#my-catalogs button[data-index="0"]');
  await settled(page);
  assert.deepEqual(await idbRecords(page), {});
  assert.deepEqual((await storedList(page)).catalogs, []);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the start-up error screen exports every stored value, IndexedDB documents included, then resets them', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  // A stored list naming a document in IndexedDB, next to the rejected catalog.
  const big = JSON.stringify(bigCatalog());
  await page.setInputFiles('#import-file', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(big) });
  await page.waitForSelector('#import-ok', { timeout: 60000 });
  await settled(page, { timeout: 60000 });
  const list = await storedList(page);
  const value = JSON.stringify({ version: 2, catalogs: [...JSON.parse(stored).catalogs, list.catalogs[0]] });
  // The page cannot start (its data does not arrive): the error screen offers the reset.
  await page.route('**/data/bundle.json', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await reloadWithStored(page, { 'gpuvalue.userCatalogs': value });
  await page.waitForSelector('#startup-reset-button');
  assert.match(await page.textContent('#app'), /could not start/);
  await shot(page, 'startup-reset.png');
  await page.unroute('**/data/bundle.json');
  const exported = JSON.parse(await downloaded(page, '#startup-reset-button'));
  assert.equal(exported['gpuvalue.userCatalogs'], value, 'the stored list, byte for byte');
  assert.equal(exported[`indexedDB:${list.catalogs[0].ref}`], big, 'the IndexedDB document, byte for byte');
  await page.waitForFunction(() => document.body.dataset.ready && document.body.dataset.ready !== 'error', null, { timeout: 60000 });
  await settled(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')), null);
  assert.deepEqual(await idbRecords(page), {});
  assert.ok((await tableRows(page)).length > 10, 'the page starts after the reset');
  await context.close();
});
