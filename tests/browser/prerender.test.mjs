// The first screen the build prerenders (scripts/prerender.mjs) is what the live page then draws: the same rows in
// the same order with the same text, cell by cell, and the same overview, in English and in Chinese, from file://
// and from the served site. A link to another view, or catalogs of the reader's own, show a loading note instead of
// the default table.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, settled, offlineUrl } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

// Runs in the page before any of its scripts: records what #app shows right after the inline script of the first
// screen has run (a mutation observer's callback runs before the next script starts), as window.__first.
function recordFirstScreen() {
  const cells = (root) => [...root.querySelectorAll('#ranking tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()));
  const observer = new MutationObserver(() => {
    const app = document.getElementById('app');
    if (!app || window.__first || !(app.dataset.prerendered || document.getElementById('view-loading'))) return;
    window.__first = {
      prerendered: app.dataset.prerendered || null, inert: app.inert, lang: document.documentElement.lang,
      loading: document.getElementById('view-loading') ? document.getElementById('view-loading').textContent : null,
      rows: cells(app), keys: [...app.querySelectorAll('#ranking tbody tr')].map((tr) => tr.dataset.key),
      summary: (app.querySelector('#summary') || {}).textContent || null,
      picks: [...app.querySelectorAll('#picks .pick')].map((b) => b.textContent),
      engineStarted: Boolean(window.gpuvalue),
    };
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

async function open(url, locale, { before } = {}) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
  if (before) await context.addInitScript(before);
  await context.addInitScript(recordFirstScreen);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await settled(page);
  const first = await page.evaluate(() => window.__first || null);
  const live = await page.evaluate(() => ({
    rows: [...document.querySelectorAll('#ranking tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
    keys: [...document.querySelectorAll('#ranking tbody tr')].map((tr) => tr.dataset.key),
    summary: document.getElementById('summary').textContent,
    picks: [...document.querySelectorAll('#picks .pick')].map((b) => b.textContent),
    inert: document.getElementById('app').inert, prerendered: document.getElementById('app').dataset.prerendered || null,
  }));
  await context.close();
  return { first, live, errors };
}

for (const [lang, locale] of [['en', 'en-US'], ['zh', 'zh-CN']]) {
  for (const [where, url] of [['file://', () => offlineUrl], ['served', () => base]]) {
    test(`${where} ${lang}: the prerendered first screen equals the live one, cell by cell`, async () => {
      const { first, live, errors } = await open(url(), locale);
      assert.deepEqual(errors, []);
      assert.ok(first, 'the first screen was shown before the engine');
      assert.equal(first.prerendered, lang);
      assert.equal(first.engineStarted, false, 'recorded before the page script ran');
      assert.equal(first.inert, true, 'the prerendered screen takes no input');
      assert.ok(first.rows.length >= 10, `${first.rows.length} prerendered rows`);
      assert.ok(live.rows.length >= first.rows.length);
      assert.deepEqual(first.keys, live.keys.slice(0, first.keys.length), 'same rows in the same order');
      first.rows.forEach((cells, i) => assert.deepEqual(cells, live.rows[i], `row ${i + 1}`));
      assert.equal(first.summary, live.summary);
      assert.deepEqual(first.picks, live.picks);
      assert.equal(live.inert, false);
      assert.equal(live.prerendered, null);
    });
  }
}

test('the URL\'s language wins over the browser\'s', async () => {
  const { first } = await open(`${offlineUrl}#preset=resnet50-imagenet&lang=zh`, 'en-US');
  assert.equal(first.prerendered, 'zh');
  assert.equal(first.lang, 'zh-CN');
});

test('a link to another view shows a loading note, never the default table', async () => {
  for (const hash of ['#preset=llama2-7b-pretrain&lang=en', '#preset=resnet50-imagenet&lang=en&sort=cost_usd&dir=asc', '#lang=en&cur=CNY']) {
    const { first, live } = await open(`${offlineUrl}${hash}`, 'en-US');
    assert.equal(first.prerendered, null, hash);
    assert.deepEqual(first.rows, [], hash);
    assert.equal(first.loading, 'Computing this view…', hash);
    assert.ok(live.rows.length > 0, hash);
  }
  const { first } = await open(`${offlineUrl}#preset=llama2-7b-pretrain&lang=zh`, 'en-US');
  assert.equal(first.loading, '正在计算此视图…');
});

test('catalogs of the reader\'s own (their offers rank too) show the loading note', async () => {
  const doc = { instances: [{ id: 'mine-1', provider: 'Mine', instance_type: 'box', gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'home',
    prices: [{ model: 'on_demand', usd_per_hour: 0.5, as_of: '2026-11-01', source: 'test' }] }] };
  const stored = JSON.stringify({ version: 1, catalogs: [{ name: 'mine.json', kind: 'json', added: '2026-11-01', doc }] });
  const { first, live } = await open(offlineUrl, 'en-US', { before: `try { localStorage.setItem('gpuvalue.userCatalogs', ${JSON.stringify(stored)}); } catch {}` });
  assert.equal(first.prerendered, null);
  assert.ok(first.loading);
  assert.ok(live.keys.some((k) => k.startsWith('mine-1|')), 'the live table has the reader\'s offer');
});
