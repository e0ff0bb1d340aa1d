// The serving view with the reader's own model, in Chromium: entered in Chinese and in English it ranks as the same
// engine does in node, it comes back from the URL on a reload, an input the engine refuses shows the engine's error
// at that input (the table keeps the last answer), a link with a value out of bounds is read with a notice, and the
// advisor's answer for the workload's own shape opens in the serving view with that model filled in.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, startServer, openPage, settled, nodeEngine, shot, root } from './browser.mjs';
import { servingOpsOf } from '../../web/src/engine/serving.js';
import { messageRenderer } from '../../web/src/i18n/messages.js';
import { makeFormatter } from '../../web/src/format/format.js';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
const ops = servingOpsOf(engine);
test.after(async () => { await browser.close(); server.close(); });

// The page's default serving traffic and targets (state.js DEFAULT_SERVING): 10 requests/s, TTFT 2 s, TPOT 100 ms.
const TRAFFIC = { traffic: { requests_per_s: 10 }, targets: { ttft_ms: 2000, tpot_ms: 100 } };
const expected = (model) => ops.serveRank({ serving: { model, ...TRAFFIC } });
const servingPresets = JSON.parse(fs.readFileSync(path.join(root, 'data/serving-presets.json'), 'utf8')).presets;
const llama8b = servingPresets.find((p) => p.id === 'llama3.1-8b').model;
const render = (lang) => messageRenderer({ lang, fmt: makeFormatter({ lang }) });

const servingRows = (page) => page.$$eval('#serving-table tbody tr', (trs) => trs.map((tr) => ({
  key: tr.dataset.key, out: Number(tr.querySelector('td[data-col="out"]').dataset.v), replicas: Number(tr.querySelector('td[data-col="replicas"]').dataset.v),
  gpus: Number(tr.querySelector('td[data-col="gpus"]').dataset.v) })));

// The first rows on the page are the engine's for `model`, number for number.
async function sameRows(page, model, n = 15) {
  const want = expected(model);
  assert.equal(want.ok, true, JSON.stringify(want.error));
  const rows = await servingRows(page);
  assert.equal(rows.length, want.rows.length);
  rows.slice(0, n).forEach((r, i) => {
    assert.equal(r.key, want.rows[i].key, `row ${i + 1}`);
    assert.equal(r.out, want.rows[i].usd_per_million_output, `row ${i + 1}`);
    assert.equal(r.replicas, want.rows[i].replicas, `row ${i + 1}`);
    assert.equal(r.gpus, want.rows[i].gpus, `row ${i + 1}`);
  });
  return want;
}

// Types a value into an own-model input and waits until the URL holds it.
async function enter(page, key, value) {
  await page.fill(`#serve-m-${key}`, String(value));
  await page.press(`#serve-m-${key}`, 'Enter');
  await page.waitForFunction(([k, v]) => new URLSearchParams(location.hash.slice(1)).get(`sm.${k}`) === v, [key, String(value)], { timeout: 15000 });
}

const ownModel = (page) => page.evaluate(() => window.gpuvalue.app.state.serving.model);
// A chart resizes its canvas from a ResizeObserver after the window changes (views/plot.js): until then the canvas keeps
// the old width, so the check waits (up to 5 s) for the page to settle at the new width before it judges.
const noOverflow = async (page, width) => {
  await page.waitForFunction((W) => document.documentElement.scrollWidth <= W, width, { timeout: 5000 }).catch(() => {});
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= width, `the document is ${w} px wide in a ${width} px window`);
};

for (const lang of ['zh', 'en']) {
  test(`${lang}: an own model entered in the serving panel ranks as the engine does, and a reload restores it`, async () => {
    const { context, page, log } = await openPage(browser, `${base}#task=serve&sp=llama3.1-8b&lang=${lang}`,
      { viewport: { width: 1366, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    assert.equal(await settled(page), '1');
    await page.check('#serve-source-own');
    await page.waitForSelector('#serve-m-params');
    // Filled in from the preset chosen: its members, as the preset file states them.
    const filled = await ownModel(page);
    assert.deepEqual(filled, llama8b);
    assert.equal(Number(await page.inputValue('#serve-m-kv_heads')), llama8b.kv_heads);
    assert.equal(await page.inputValue('#serve-m-experts'), '', 'a member the preset leaves out stays empty');
    await settled(page);
    await sameRows(page, llama8b);
    // A deeper model with fewer KV heads and no stated head size (the engine derives hidden / heads).
    await enter(page, 'layers', 48);
    await enter(page, 'params', 12e9);
    await enter(page, 'kv_heads', 4);
    await page.fill('#serve-m-head_dim', '');
    await page.press('#serve-m-head_dim', 'Enter');
    await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).has('sm.head_dim'), null, { timeout: 15000 });
    await settled(page);
    const model = { params: 12e9, layers: 48, hidden: 4096, heads: 32, kv_heads: 4, vocab: 128256 };
    assert.deepEqual(await ownModel(page), model);
    const want = await sameRows(page, model);
    assert.notEqual(want.rows[0].usd_per_million_output, expected(llama8b).rows[0].usd_per_million_output, 'another model, another answer');
    assert.equal(await page.textContent('#serve-own-name'), lang === 'zh' ? '你的模型（120亿参数）' : 'Your model (12B parameters)');
    assert.match(await page.textContent('#serve-question'), lang === 'zh' ? /BF16/ : /in BF16 with a FP16 KV cache/);
    // The own model's choice, hint and labels in the reader's language ("token" is the term in both).
    const panel = (await page.$$eval('#serve-source, #serve-own-hint, #serve-own-model label', (els) => els.map((e) => e.textContent))).join(' ');
    assert.ok(panel.length > 200, panel);
    if (lang === 'zh') assert.deepEqual(panel.replace(/token/g, ' ').match(/[A-Za-z]{3,}/g), null, panel);
    else assert.equal(/[\u3400-\u9fff]/.test(panel), false, panel);
    await shot(page, `serving-own-${lang}-1366.png`);
    await noOverflow(page, 1366);
    await page.setViewportSize({ width: 360, height: 800 });
    await noOverflow(page, 360);
    const box = await page.$eval('#serve-m-kv_heads', (el) => { const r = el.getBoundingClientRect(); return [r.left, r.right]; });
    assert.ok(box[0] >= 0 && box[1] <= 360, `the input is in view: ${box}`);
    await shot(page, `serving-own-${lang}-360.png`, { fullPage: false });
    await page.evaluate(() => document.getElementById('serve-own-model').scrollIntoView());
    await shot(page, `serving-own-${lang}-360-inputs.png`, { fullPage: false });
    // The URL holds the model: a reload (and a shared link) brings it back, inputs and table.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.reload();
    assert.equal(await settled(page), '1');
    assert.equal(await page.isChecked('#serve-source-own'), true);
    assert.deepEqual(await ownModel(page), model);
    assert.equal(await page.inputValue('#serve-m-layers'), '48');
    assert.equal(await page.inputValue('#serve-m-head_dim'), '');
    await sameRows(page, model, 5);
    // Back to the preset: the preset's answer.
    await page.check('#serve-source-preset');
    await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).has('sm'), null, { timeout: 15000 });
    await settled(page);
    assert.equal(await ownModel(page), null);
    const preset = ops.serveRank({ serving: { preset: 'llama3.1-8b', ...TRAFFIC } });
    assert.equal((await servingRows(page))[0].key, preset.rows[0].key);
    assert.deepEqual(log.errors, []);
    await context.close();
  });

  test(`${lang}: an input the engine refuses shows the engine's error at that input, and the table keeps the last answer`, async () => {
    const model = { params: 8e9, layers: 32, hidden: 4096, heads: 32, kv_heads: 8 };
    const q = Object.entries(model).map(([k, v]) => `sm.${k}=${v}`).join('&');
    const { context, page, log } = await openPage(browser, `${base}#task=serve&sm=1&${q}&lang=${lang}`, { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    assert.equal(await settled(page), '1');
    await sameRows(page, model, 5);
    const good = await servingRows(page);
    // 5 key/value heads do not divide 32 attention heads (grouped-query attention needs whole groups).
    await enter(page, 'kv_heads', 5);
    await page.waitForFunction(() => document.querySelector('#serve-m-kv_heads').getAttribute('aria-invalid') === 'true', null, { timeout: 15000 });
    const refused = engine.tryCall('serve', { model: { ...model, kv_heads: 5 }, gpu: 'h100-sxm' });
    assert.equal(refused.error.path, '/model/kv_heads');
    assert.equal(await page.textContent('#serve-m-kv_heads-error'), render(lang)(refused.error.message));
    assert.match(await page.textContent('#serve-m-kv_heads-error'), lang === 'zh' ? /整除注意力头数（32）/ : /must divide the attention heads \(32\)/);
    for (const other of ['params', 'heads', 'layers']) assert.equal(await page.getAttribute(`#serve-m-${other}`, 'aria-invalid'), null, other);
    assert.equal(await page.getAttribute('#serve-error', 'data-kept'), '1');
    assert.deepEqual(await servingRows(page), good, 'the table is the last answer the engine could give');
    await shot(page, `serving-own-error-${lang}.png`);
    // Heads out of the engine's bounds: its range, in the reader's language, at the heads input.
    await enter(page, 'kv_heads', 8);
    await enter(page, 'heads', 0);
    await page.waitForFunction(() => document.querySelector('#serve-m-heads').getAttribute('aria-invalid') === 'true', null, { timeout: 15000 });
    const out = engine.tryCall('serve', { model: { ...model, heads: 0 }, gpu: 'h100-sxm' });
    assert.equal(await page.textContent('#serve-m-heads-error'), render(lang)(out.issues.find((i) => i.path === '/model/heads').message));
    assert.equal(await page.getAttribute('#serve-m-kv_heads', 'aria-invalid'), null, 'the fixed input is no longer marked');
    // Fixed: the error goes and the table is the engine's for the new model.
    await enter(page, 'heads', 64);
    await settled(page);
    assert.equal(await page.getAttribute('#serve-m-heads', 'aria-invalid'), null);
    assert.equal(await page.$('#serve-error'), null);
    await sameRows(page, { ...model, heads: 64 }, 5);
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('a link with an own-model value out of the engine\'s bounds is read without it, with a notice, never a blank page', async () => {
  for (const lang of ['en', 'zh']) {
    const { context, page, log } = await openPage(browser, `${base}#task=serve&sm=1&sm.params=8e9&sm.layers=32&sm.hidden=4096&sm.heads=32&sm.kv_heads=-3&sm.vocab=1e99&lang=${lang}`);
    assert.equal(await settled(page), '1', 'kv_heads and vocab left out, the model is served');
    assert.match(await page.textContent('#serve-url-dropped'), /sm\.kv_heads=-3, sm\.vocab=1e99/);
    assert.match(await page.textContent('#serve-url-dropped'), lang === 'zh' ? /已被忽略/ : /were left out/);
    assert.deepEqual(await ownModel(page), { params: 8e9, layers: 32, hidden: 4096, heads: 32 });
    assert.equal(await page.inputValue('#serve-m-kv_heads'), '');
    await sameRows(page, { params: 8e9, layers: 32, hidden: 4096, heads: 32 }, 5);
    await context.close();
    assert.deepEqual(log.errors, []);
  }
  // A required member dropped: the engine says so at its input, and the page says why it cannot rank.
  const { context, page, log } = await openPage(browser, `${base}#task=serve&sm=1&sm.params=-1&sm.layers=32&sm.hidden=4096&sm.heads=32&lang=en`);
  assert.equal(await settled(page), 'error');
  assert.equal(await page.getAttribute('#serve-m-params', 'aria-invalid'), 'true');
  assert.equal(await page.textContent('#serve-m-params-error'), 'is required');
  assert.equal(await page.getAttribute('#serve-error', 'data-kept'), '0');
  assert.match(await page.textContent('#serve-error'), /cannot rank[\s\S]*\/model\/params/);
  assert.match(await page.textContent('#serve-url-dropped'), /sm\.params=-1/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the advisor\'s answer for the workload\'s own shape opens in the serving view with that model filled in', async () => {
  const presets = JSON.parse(fs.readFileSync(path.join(root, 'data/presets.json'), 'utf8')).presets;
  // Llama 2 7B (no serving preset of its shape): the advisor serves its own layers, hidden size, heads and vocabulary.
  const w = presets.find((p) => p.id === 'llama2-7b-pretrain').workload;
  const model = { params: w.params, layers: w.layers, hidden: w.hidden, heads: w.heads, vocab: w.vocab };
  for (const lang of ['en', 'zh']) {
    const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=${lang}&tool=advise&advise.stage=production`);
    await settled(page);
    await page.waitForSelector('#adv-serve-open', { timeout: 30000 });
    assert.equal(await page.getAttribute('#adv-serve-open', 'data-how'), 'own');
    const advised = await page.$eval('#adv-serve-offer', (el) => el.dataset.key);
    await page.click('#adv-serve-open');
    await page.waitForSelector('#serving-table');
    await settled(page);
    assert.equal(await page.isChecked('#serve-source-own'), true);
    assert.deepEqual(await ownModel(page), model);
    assert.equal(Number(await page.inputValue('#serve-m-layers')), w.layers);
    assert.equal(Number(await page.inputValue('#serve-m-heads')), w.heads);
    const q = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    assert.equal(q.get('task'), 'serve');
    assert.equal(Number(q.get('sm.params')), w.params);
    const want = await sameRows(page, model, 10);
    // The advisor's offer is the serving view's cheapest that meets the targets (both at on-demand prices).
    assert.equal(advised, want.rows.find((r) => r.met).key);
    assert.equal(await page.$eval('#serve-best', (el) => el.dataset.key), advised);
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});
