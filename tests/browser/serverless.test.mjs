// The serverless planner tab and the catalog freshness controls in Chromium, from the offline file: every number
// against the same engine run in node, the typed load curve kept in the URL hash, stale prices hidden by default.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, offlineUrl, settled, nodeEngine, tableRows, shot } from './browser.mjs';

const browser = await launch();
const engine = await nodeEngine();
test.after(async () => { await browser.close(); });

const close = (a, b, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));
const panelDone = (page) => page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#tool-serverless')?.dataset.state)
  && !document.querySelector('#tool-serverless-out')?.hasAttribute('aria-busy'), null, { timeout: 30000 });
// The offers with a serverless price, in the order the page lists them (the catalog's order).
const serverlessOffers = () => engine.catalogSummary().filter((o) => o.prices.some((p) => p.model === 'serverless')).map((o) => o.id);

async function optionRows(page) {
  return page.$$eval('#sl-options tbody tr', (trs) => trs.map((tr) => ({
    option: tr.dataset.option, available: tr.dataset.available === '1', cost: Number(tr.querySelector('td[data-v]').dataset.v) })));
}

test('serverless tab: the example day, then a typed load, priced exactly as the engine prices them', async () => {
  const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=resnet50-imagenet&lang=en&tool=serverless`);
  await settled(page);
  await panelDone(page);
  const offer = serverlessOffers()[0];
  assert.ok(offer, 'the bundled catalog has serverless offers');
  assert.equal(await page.inputValue('#sl-offer'), offer);
  const r = engine.serverless({ offer });
  assert.equal(await page.$eval('#sl-cheapest', (el) => el.dataset.v), r.cheapest);
  assert.equal(await page.$eval('#sl-claim', (el) => el.dataset.holds), r.article_claim.holds ? '1' : '0');
  const rows = await optionRows(page);
  assert.deepEqual(rows.map((x) => x.option), r.options.map((o) => o.option));
  rows.forEach((x, i) => { assert.equal(x.available, r.options[i].available); assert.ok(close(x.cost, r.options[i].cost_usd), x.option); });
  await shot(page, 'serverless-en.png', { fullPage: true });

  // Two busy GPUs from 10:00 to 12:00, idle otherwise: the hash keeps it and the table follows the engine.
  for (const h of [10, 11]) {
    await page.fill(`#sl-h${h}`, '2');
    await page.press(`#sl-h${h}`, 'Enter');
  }
  await page.waitForFunction(() => (new URLSearchParams(location.hash.slice(1)).get('serverless.load') || '').split(',')[11] === '2', null, { timeout: 15000 });
  await panelDone(page);
  const load = Array(24).fill(0);
  load[10] = 2;
  load[11] = 2;
  const typed = engine.serverless({ offer, load_gpus: load });
  await page.waitForFunction((v) => Number(document.querySelector('#sl-kpis .kpi')?.dataset.v) === v, typed.busy_gpu_hours, { timeout: 15000 });
  const after = await optionRows(page);
  after.forEach((x, i) => assert.ok(close(x.cost, typed.options[i].cost_usd), x.option));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('filters: stale prices hidden by default, the catalog date and each provider’s oldest price shown', async () => {
  const { context, page } = await openPage(browser, `${offlineUrl}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  assert.equal(await page.isChecked('#hide-stale'), true);
  assert.equal(await page.isChecked('#hide-marketplace'), false);
  const offers = engine.catalogSummary().filter((o) => !o.example);
  const newest = offers.flatMap((o) => o.prices.map((p) => p.as_of)).sort().at(-1);
  assert.match(await page.textContent('#catalog-freshness summary'), new RegExp(newest));
  const providers = await page.$$eval('#catalog-freshness li', (lis) => lis.map((li) => li.dataset.provider));
  assert.deepEqual([...providers].sort(), [...new Set(offers.map((o) => o.provider))].sort());
  // No ranked row is stale while the filter is on; the engine ranks the same rows with include_stale false.
  const rows = await tableRows(page);
  assert.ok(rows.length > 0);
  assert.equal(await page.$$eval('#ranking tbody .badge.stale', (b) => b.length), 0);
  // Hiding marketplace hosts drops Vast.ai from the table and writes mk=0 into the hash.
  await page.check('#hide-marketplace');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('mk') === '0', null, { timeout: 15000 });
  await settled(page);
  assert.equal(await page.$$eval('#ranking tbody tr[data-provider="Vast.ai"]', (r) => r.length), 0);
  await context.close();
});
