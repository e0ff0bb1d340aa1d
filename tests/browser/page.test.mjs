// The page in real Chromium: served over http, and the offline single file from file://.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, startServer, openPage, offlineUrl, artifacts } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

async function rankedRows(page) {
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.body.dataset.ready), '1');
  return page.$$eval('#ranking tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
}

test('served page shows the ranked table computed by the wasm engine', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  const rows = await rankedRows(page);
  assert.ok(rows.length > 50, `${rows.length} rows`);
  assert.match(rows[0][7], /\$/);            // job cost column
  assert.match(await page.textContent('#summary'), /offers fit/);
  await page.screenshot({ path: path.join(artifacts, 'page-http.png'), fullPage: false });
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('offline file works from file:// with zero network requests and zero console errors', async () => {
  const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=gpt3-175b&lang=en`);
  const rows = await rankedRows(page);
  assert.ok(rows.length > 10);
  const external = log.requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'));
  assert.deepEqual(external, []);
  assert.equal(log.requests.filter((u) => u.startsWith('file://')).length, 1);  // the page itself, nothing else
  assert.deepEqual(log.errors, []);
  await page.screenshot({ path: path.join(artifacts, 'page-offline.png') });
  await context.close();
});

test('language switch changes the UI to Chinese and is remembered', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await rankedRows(page);
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.textContent('h1 + .tagline'), /GPU 云/);
  assert.match(await page.textContent('#ranking thead'), /训练时间/);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.lang')), 'zh');
  await page.screenshot({ path: path.join(artifacts, 'page-zh.png') });
  await context.close();
});

test('the widget renders inside embed-example.html', async () => {
  const { context, page, log } = await openPage(browser, `${base}embed-example.html`);
  await page.waitForFunction(() => document.getElementById('widget-en')?.dataset.ready, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.getElementById('widget-en').dataset.ready), '1');
  const cells = await page.evaluate(() => document.getElementById('widget-en').shadowRoot.querySelectorAll('tbody tr').length);
  assert.ok(cells >= 1);
  await page.waitForFunction(() => document.getElementById('widget-zh')?.dataset.ready === '1');
  assert.match(await page.evaluate(() => document.getElementById('widget-zh').shadowRoot.textContent), /训练时间/);
  await page.screenshot({ path: path.join(artifacts, 'embed-example.png'), fullPage: true });
  assert.deepEqual(log.errors, []);
  await context.close();
});
