// Shareable state (URL hash round trip), the language switch over every visible UI string, and CNY.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, startServer, openPage, offlineUrl, settled, tableRows, shown, nodeEngine, shot, root } from './browser.mjs';
import { DICTS } from '../../web/src/i18n/index.js';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
test.after(async () => { await browser.close(); server.close(); });

const hashParams = async (page) => new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));

test('a URL with state opens the same view, and keeps it after a reload and in a fresh browser', async () => {
  const q = new URLSearchParams();
  q.set('preset', 'llama2-7b-pretrain');
  q.set('prec', 'fp16');
  for (const p of ['AWS', 'Google Cloud', 'Lambda']) q.append('prov', p);
  q.append('pricing', 'on_demand');
  q.append('pricing', 'spot');
  q.set('fits', '1');
  q.set('wu', '2');
  q.set('wt', '0.5');
  q.set('ws', '0');
  q.set('sort', 'cost_usd');
  q.set('dir', 'asc');
  q.set('lang', 'zh');
  q.set('cur', 'CNY');
  q.set('rate', '7.3');
  const expected = engine.rank({ preset: 'llama2-7b-pretrain', precision: 'fp16', weights: { unit_cost: 2, task: 0.5, service: 0 },
    filters: { providers: ['AWS', 'Google Cloud', 'Lambda'], pricing: ['on_demand', 'spot'], fits_only: true, include_examples: false } }).results;
  assert.ok(expected.length >= 5, `${expected.length} results`);
  const byCost = expected.slice().sort((a, b) => a.cost_usd - b.cost_usd);
  q.set('sel', `${byCost[2].id}|${byCost[2].pricing}`);
  q.append('cmp', `${byCost[0].id}|${byCost[0].pricing}`);
  q.append('cmp', `${byCost[1].id}|${byCost[1].pricing}`);

  const { context, page, log } = await openPage(browser, `${base}#${q}`);
  const top5 = (await tableRows(page)).slice(0, 5);
  assert.deepEqual(top5.map((r) => r.key), shown(byCost).slice(0, 5));
  // The controls show the state.
  assert.equal(await page.inputValue('#precision'), 'fp16');
  assert.equal(await page.inputValue('#lang'), 'zh');
  assert.equal(await page.inputValue('#currency'), 'CNY');
  assert.equal(Number(await page.inputValue('#rate')), 7.3);
  assert.equal(await page.isChecked('#fits-only'), true);
  assert.equal(Number(await page.inputValue('#w-unit_cost')), 2);
  assert.equal(Number(await page.inputValue('#w-service')), 0);
  assert.deepEqual((await page.$$eval('#f-providers input:checked', (els) => els.map((e) => e.value))).sort(), ['AWS', 'Google Cloud', 'Lambda']);
  assert.equal(await page.$eval('#sort-cost_usd', (b) => b.closest('th').getAttribute('aria-sort')), 'ascending');
  assert.match(await page.textContent('#details-title'), new RegExp(byCost[2].instance.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  assert.equal((await page.$$('#compare-table thead th')).length, 2);
  assert.match(top5[0].costText, /¥/);
  const hashBefore = await page.evaluate(() => location.hash);

  await page.reload();
  assert.deepEqual((await tableRows(page)).slice(0, 5).map((r) => r.key), top5.map((r) => r.key));
  assert.equal(await page.evaluate(() => location.hash), hashBefore);

  // A new hash (a pasted link, back/forward) switches the view without a reload.
  await page.evaluate(() => { location.hash = '#preset=gpt3-175b&lang=en&fits=1'; });
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  const gpt = await tableRows(page);
  const gptRanked = engine.rank({ preset: 'gpt3-175b', precision: 'bf16', weights: engine.defaults().weights, filters: { fits_only: true, include_examples: false } }).results;
  assert.deepEqual(gpt.map((r) => r.key), shown(gptRanked));
  assert.equal(await page.inputValue('#preset'), 'gpt3-175b');
  // GPT-3 175B's plan is a pipeline: the details give the layers each stage (or interleaved chunk) reruns, the
  // number Megatron's --recompute-num-layers takes.
  const plan = gptRanked[0].plan;
  assert.ok(plan.pipeline_parallel > 1 && plan.recompute === 'full', JSON.stringify(plan));
  await page.click(`#ranking tbody tr[data-key="${gpt[0].key}"] button.link`);
  await page.waitForFunction(() => [...document.querySelectorAll('#details dt')].some((dt) => dt.textContent === 'Activation recomputation'));
  const rerun = await page.$$eval('#details dt', (dts) => dts.find((dt) => dt.textContent === 'Activation recomputation').nextElementSibling.textContent);
  assert.equal(rerun, `full: ${plan.recompute_layers} layers rerun their forward pass (${plan.recompute_layers_per_stage} per ${plan.virtual_stages > 1 ? 'model chunk of the interleaved pipeline' : 'pipeline stage'})`);
  await context.close();

  // A fresh browser profile (no localStorage) gives the same view from the link alone, offline file too.
  const fresh = await openPage(browser, `${offlineUrl}${hashBefore}`, { locale: 'en-US' });
  assert.deepEqual((await tableRows(fresh.page)).slice(0, 5).map((r) => r.key), top5.map((r) => r.key));
  assert.equal(await fresh.page.inputValue('#lang'), 'zh');
  await fresh.context.close();
  assert.deepEqual(log.errors, []);
});

test('changes made with the controls are written to the URL and restore the view elsewhere', async () => {
  const { context, page } = await openPage(browser, `${base}#lang=en`);
  await settled(page);
  await page.selectOption('#preset', 'bert-large-pretrain');
  await settled(page);
  await page.click('#f-gpus-summary');
  await page.check('#f-gpus input[value="a100-sxm4-80gb"]');
  await settled(page);
  await page.click('#sort-time_hours');
  await settled(page);
  await page.$eval('#w-task', (el) => { el.value = '2.5'; el.dispatchEvent(new Event('change')); });
  await settled(page);
  // The rows a user sees (a region group's folded rows are not clicked).
  const rows = await tableRows(page, { visible: true });
  await page.click(`#ranking tbody tr:not([hidden]) >> nth=3 >> button.link`);
  await settled(page);
  const url = await page.evaluate(() => location.href);
  const q = await hashParams(page);
  assert.equal(q.get('preset'), 'bert-large-pretrain');
  assert.deepEqual(q.getAll('gpu'), ['a100-sxm4-80gb']);
  assert.equal(q.get('sort'), 'time_hours');
  assert.equal(q.get('wt'), '2.5');
  assert.equal(q.get('sel'), rows[3].key);
  assert.equal(await page.inputValue('#share-url'), url);

  const other = await openPage(browser, url);
  const again = await tableRows(other.page, { visible: true });
  assert.deepEqual(again.slice(0, 5).map((r) => r.key), rows.slice(0, 5).map((r) => r.key));
  assert.equal(again.find((r) => r.selected).key, rows[3].key);
  await other.context.close();
  await context.close();
});

// Visible text of the page: UI strings (data-i18n and every other text node), catalog and engine text excluded.
function collect(page) {
  return page.evaluate(() => {
    // Sections below the fold skip layout until they come near the screen (content-visibility: auto); lay them
    // all out, so that what is collected does not depend on how long the page above them is.
    for (const el of document.querySelectorAll('.tools, .sensitivity, .compare-panel')) el.style.contentVisibility = 'visible';
    const visible = (el) => el.getClientRects().length > 0 || el.tagName === 'OPTION';
    const keyed = [...document.querySelectorAll('[data-i18n]')].filter(visible).map((el) => [el.dataset.i18n, el.textContent.trim()]);
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || el.closest('script, style, [data-raw], [data-engine], code') || !visible(el)) continue;
      texts.push(n.textContent.trim());
    }
    return { keyed, texts, lang: document.documentElement.lang };
  });
}

test('the language switch changes every visible UI string (compared with the English run)', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=gpt3-175b&lang=en&cmp=${encodeURIComponent('aws-p5.48xlarge-us-east-1|on_demand')}&cmp=${encodeURIComponent('aws-p4d.24xlarge-us-east-1|on_demand')}&pricing=on_demand&pricing=spot`);
  await settled(page);
  // Open everything that hides text: filter lists, the offer form; and show CNY controls.
  for (const id of ['f-providers-summary', 'f-pricing-summary', 'offer-form-summary']) await page.click(`#${id}`);
  await page.selectOption('#currency', 'CNY');
  await settled(page);
  // The decision tools' panel loads when the tools come near the screen: open it before collecting, so that both
  // languages are collected with the same panels on the page (and its strings are compared too).
  await page.$eval('#tools', (el) => el.scrollIntoView());
  await page.waitForFunction(() => document.querySelector('#tools .tool')?.dataset.state === 'ready', null, { timeout: 60000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  const en = await collect(page);
  await page.selectOption('#lang', 'zh');
  await settled(page);
  const zh = await collect(page);
  assert.equal(zh.lang, 'zh-CN');
  await shot(page, 'lang-zh-full.png', { fullPage: true });

  const enKeys = en.keyed.map(([k]) => k);
  const zhKeys = zh.keyed.map(([k]) => k);
  assert.ok(enKeys.length > 100, `${enKeys.length} keyed strings`);
  assert.deepEqual(zhKeys, enKeys, 'the same strings are on screen in both languages');
  en.keyed.forEach(([key, text], i) => {
    const zhText = zh.keyed[i][1];
    if (!/\{\w+\}/.test(DICTS.en[key])) {
      assert.equal(text, DICTS.en[key], `en ${key}`);
      assert.equal(zhText, DICTS.zh[key], `zh ${key}`);
    }
    if (DICTS.en[key] !== DICTS.zh[key]) assert.notEqual(zhText, text, `${key} did not change`);
  });
  // No English UI text left anywhere in the Chinese page (names, units and formats that are English in Chinese too excepted).
  const allowed = new Set(['gpuvalue', 'GPU', 'GPUs', 'TFLOPS', 'FLOPs', 'GFLOPs', 'USD', 'CNY', 'CSV', 'JSON', 'SkyPilot', 'vms', 'csv', 'LoRA',
    'Transformer', 'CNN', 'PCIe', 'NVLink', 'NVSwitch', 'Infinity', 'Fabric', 'RDMA', 'InfiniBand', 'RoCE', 'EFA', 'SLA', 'AWS',
    'token', 'WebAssembly', 'userCatalogs', 'unreadable', 'Gbit', 'TFLOPS·', 'FP16',
    // Terms used as they are in Chinese too: Multi-Instance GPU, power usage effectiveness, the YOLOv7 model, JSON Pointer.
    'MIG', 'PUE', 'YOLOv', 'Pointer',
    // Proper names: the Megatron-LM framework, GPU architectures (the Accuracy view).
    'Megatron', 'Blackwell', 'Hopper', 'Ampere', 'Ada', 'Lovelace', 'Volta', 'Turing', 'CDNA']);
  const english = zh.texts.flatMap((s) => s.match(/[A-Za-z][A-Za-z·]{2,}/g) || []).filter((w) => !allowed.has(w));
  assert.deepEqual([...new Set(english)], []);
  // And the English page really had English in those places.
  assert.ok(en.texts.some((s) => /Ranked offers/.test(s)));
  assert.ok(zh.texts.some((s) => /报价排名/.test(s)));
  // Numbers and dates follow the language: Chinese units for durations, CNY as ¥.
  const rows = await tableRows(page);
  assert.match(rows[0].timeText, /天|小时|分钟/);
  assert.match(rows[0].costText, /^¥/);
  await context.close();
});

test('CNY uses the catalog’s rate by default, the rate is editable, budgets are typed in CNY', async () => {
  // The fx blocks of the catalog files bundled into the page (data/catalog/*.json).
  const bundle = JSON.parse(fs.readFileSync(path.join(root, 'dist/site/data/bundle.json'), 'utf8'));
  const rates = bundle.catalogs.map((c) => c.doc.fx).filter((fx) => fx && fx.CNY_per_USD)
    .sort((a, b) => b.as_of.localeCompare(a.as_of));
  assert.ok(rates.length >= 1 && rates.every((fx) => fx.source), 'the catalog has a sourced CNY rate');
  const catalogRate = rates[0].CNY_per_USD;
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await page.selectOption('#currency', 'CNY');
  await settled(page);
  assert.equal(Number(await page.inputValue('#rate')), catalogRate);
  assert.match(await page.textContent('#rate-source'), new RegExp(String(catalogRate)));
  const parse = (s) => Number(s.replace(/[^\d.]/g, ''));
  // Amounts of 100 and more are shown in whole units, smaller ones with two decimals.
  const near = (text, v) => Math.abs(parse(text) - v) <= (v >= 100 ? 0.5 : 0.005) + 1e-9;
  let rows = await tableRows(page);
  const r0 = rows.find((r) => r.cost > 10);
  assert.match(r0.costText, /^CN¥/);
  assert.ok(near(r0.costText, r0.cost * catalogRate), `${r0.costText} vs ${r0.cost} × ${catalogRate}`);
  await page.fill('#rate', '7.5');
  await page.dispatchEvent('#rate', 'change');
  await settled(page);
  rows = await tableRows(page);
  const r1 = rows.find((r) => r.key === r0.key);
  assert.ok(near(r1.costText, r1.cost * 7.5), `${r1.costText} vs ${r1.cost} × 7.5`);
  assert.notEqual(r1.costText, r0.costText);
  assert.equal((await hashParams(page)).get('rate'), '7.5');
  assert.match(await page.textContent('label[for="budget"]'), /CNY/);
  await page.fill('#budget', '150');
  await page.dispatchEvent('#budget', 'change');
  await settled(page);
  rows = await tableRows(page);
  const want = engine.rank({ preset: 'resnet50-imagenet', precision: 'bf16', weights: engine.defaults().weights,
    filters: { fits_only: false, include_examples: false, budget_usd: 150 / 7.5 } }).results;
  // More than the view's 250 rows are within budget: the table is the head of the engine's order (where the cut
  // falls next to a region group is the view's business, tested in tests/js/rank-view.test.mjs).
  const head = shown(want);
  assert.ok(rows.length >= Math.min(250, head.length), `${rows.length} rows`);
  assert.deepEqual(rows.map((r) => r.key), head.slice(0, rows.length));
  assert.ok(rows.length > 0 && rows.every((r) => r.cost * 7.5 <= 150 + 1e-9));
  assert.match(await page.textContent('#details'), /CN¥/);
  await shot(page, 'currency-cny.png');
  await context.close();
});

test('the default language follows the browser; a chosen language is remembered across visits', async () => {
  const zh = await openPage(browser, base, { locale: 'zh-CN' });
  await settled(zh.page);
  assert.equal(await zh.page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await zh.page.textContent('#table-title'), /报价排名/);
  await zh.page.selectOption('#lang', 'en');
  await settled(zh.page);
  await zh.page.goto(base);  // no language in the URL: the stored choice wins over the browser's
  await settled(zh.page);
  assert.equal(await zh.page.evaluate(() => document.documentElement.lang), 'en');
  await zh.context.close();
  const en = await openPage(browser, base, { locale: 'en-US' });
  await settled(en.page);
  assert.match(await en.page.textContent('#table-title'), /Ranked offers/);
  await en.context.close();
});

test('the page stays busy from a change until its new view is painted, whatever an earlier paint still finishes', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  const first = await page.inputValue('#w-unit_cost');
  await page.fill('#w-unit_cost', '1.3');
  await page.dispatchEvent('#w-unit_cost', 'change');
  await settled(page);
  // A change the page answers from its cache (the first weight again: painted at once, its charts and details
  // follow in later tasks), then in the same task one that needs a new ranking (a budget): the first paint's late
  // parts must not end the busy mark while the new view is on its way.
  const report = await page.evaluate((weight) => new Promise((resolve) => {
    const app = window.gpuvalue.app;
    const set = (id, value) => {
      const el = document.getElementById(id);
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    };
    set('w-unit_cost', weight);
    set('budget', '20');
    const idleWhileWaiting = [];
    let polls = 0;
    const poll = () => {
      polls += 1;
      const busy = Boolean(document.body.dataset.busy);
      if (!busy && app.viewInflight) idleWhileWaiting.push(polls);
      if (!busy && !app.viewInflight && polls > 1) { resolve({ idleWhileWaiting, polls }); return; }
      setTimeout(poll, 0);
    };
    poll();
  }), first);
  assert.deepEqual(report.idleWhileWaiting, [], `not busy while a view was on its way (polls ${report.idleWhileWaiting.join(', ')} of ${report.polls})`);
  const rows = await tableRows(page);
  assert.ok(rows.length > 0 && rows.every((r) => r.cost <= 20 + 1e-9), 'the table shows the offers within the budget');
  await context.close();
});
