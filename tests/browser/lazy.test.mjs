// The served site loads on demand what a first visit does not show (scripts/build-web.mjs splits the page's
// modules): the other language's strings when the reader switches, the Accuracy view's data when the view comes
// near the screen, a decision tool's panel when its tab opens, and nothing of them before.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, startServer, openPage, settled, root } from './browser.mjs';
import { siteScripts } from '../../bench/bytes.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const { lazy } = siteScripts(path.join(root, 'dist/site'));
// The site's chunks of one kind, by their module's name (chunks/<name>-<hash>.js).
const chunks = (name) => lazy.filter((f) => path.posix.basename(f).startsWith(`${name}-`));
const requested = (log) => log.requests.filter((u) => u.startsWith(base)).map((u) => new URL(u).pathname.slice(1));

test('the site has a chunk per language, none of them loaded by app.js itself', () => {
  assert.equal(chunks('strings.en').length, 1, lazy.join(', '));
  assert.equal(chunks('strings.zh').length, 1, lazy.join(', '));
});

// Opens the site as a reader whose browser prefers `locale`; checks that the first visit fetched the strings of
// `own` and not those of `other`.
async function firstVisit(locale, own, other) {
  const opened = await openPage(browser, base, { locale });
  assert.equal(await settled(opened.page), '1');
  const first = requested(opened.log);
  assert.ok(first.includes(chunks(`strings.${own}`)[0]), first.join(', '));
  assert.ok(!first.includes(chunks(`strings.${other}`)[0]), `the first visit loaded the ${other} strings: ${first.join(', ')}`);
  return opened;
}

test('a first visit in English loads the English strings only; switching to Chinese loads them then, the page wholly Chinese', async () => {
  const { context, page, log } = await firstVisit('en-US', 'en', 'zh');
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { timeout: 15000 });
  await settled(page);
  assert.ok(requested(log).includes(chunks('strings.zh')[0]), 'the switch loaded the Chinese strings');
  assert.match(await page.textContent('.tagline'), /GPU 云/);
  assert.match(await page.textContent('#ranking thead'), /训练时间/);
  // No English sentence left from before the switch: the header, the table's head and the sidebar's titles.
  assert.doesNotMatch(await page.textContent('header'), /Training time|Workload/);
  // Back to English: the strings are there already, the switch takes effect at once.
  await page.selectOption('#lang', 'en');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a first visit in Chinese loads the Chinese strings only', async () => {
  const { context, page, log } = await firstVisit('zh-CN', 'zh', 'en');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the Accuracy view loads its data when it comes near the screen, not before', async () => {
  const [chunk] = chunks('accuracy');
  assert.ok(chunk, lazy.join(', '));
  const { context, page, log } = await openPage(browser, `${base}#lang=en`);
  assert.equal(await settled(page), '1');
  assert.ok(!requested(log).includes(chunk), `the first visit loaded the accuracy data: ${requested(log).join(', ')}`);
  assert.equal(await page.$eval('#accuracy', (el) => el.dataset.state), 'loading');
  await page.$eval('#accuracy', (el) => el.scrollIntoView());
  await page.waitForFunction(() => document.querySelector('#accuracy')?.dataset.state === 'ready', null, { timeout: 15000 });
  assert.ok(requested(log).includes(chunk), 'the view loaded its data');
  assert.ok(await page.$('#chart-accuracy'), 'the chart is drawn');
  assert.ok((await page.$$('#accuracy-by-family tbody tr')).length > 0, 'the error by workload is listed');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a first visit loads no decision tool; reaching the tools loads the open tab\'s panel, choosing a tab loads that one', async () => {
  const toolChunks = ['advise', 'probe', 'plan', 'serverless', 'mig', 'levers', 'compare', 'energy'].map((id) => [id, chunks(id)[0]]);
  for (const [id, chunk] of toolChunks) assert.ok(chunk, `${id}: ${lazy.join(', ')}`);
  const { context, page, log } = await openPage(browser, `${base}#lang=en`);
  assert.equal(await settled(page), '1');
  const first = requested(log);
  for (const [id, chunk] of toolChunks) assert.ok(!first.includes(chunk), `the first visit loaded the ${id} tool: ${first.join(', ')}`);
  assert.equal(await page.$eval('#tool-advise', (el) => el.dataset.state), 'closed');
  await page.$eval('#tools', (el) => el.scrollIntoView());
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#tool-advise')?.dataset.state), null, { timeout: 30000 });
  assert.ok(requested(log).includes(toolChunks[0][1]), 'the advisor\'s panel was loaded');
  assert.ok(!requested(log).includes(toolChunks[7][1]), 'the energy panel was not');
  await page.click('#tab-energy');
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#tool-energy')?.dataset.state), null, { timeout: 30000 });
  assert.ok(requested(log).includes(toolChunks[7][1]), 'choosing the tab loaded the energy panel');
  assert.equal(await page.getAttribute('#tab-energy', 'aria-selected'), 'true');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a link to a tool opens it at once', async () => {
  const { context, page, log } = await openPage(browser, `${base}#lang=en&tool=mig`);
  assert.equal(await settled(page), '1');
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#tool-mig')?.dataset.state), null, { timeout: 30000 });
  assert.ok(requested(log).includes(chunks('mig')[0]), 'the MIG panel was loaded');
  assert.deepEqual(log.errors, []);
  await context.close();
});
