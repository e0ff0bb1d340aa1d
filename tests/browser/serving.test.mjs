// The serving mode in Chromium: the page's serving question, the ranking the worker computes (the same numbers as
// web/src/engine/serving.js on the same engine in node), the throughput-per-GPU chart, the URL round trip, both
// languages at a phone's and a laptop's width, the widget's mode="serving" and the advisor's production stage.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, startServer, openPage, settled, nodeEngine, shot, root } from './browser.mjs';
import { servingOpsOf } from '../../web/src/engine/serving.js';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
const ops = servingOpsOf(engine);
test.after(async () => { await browser.close(); server.close(); });

const QUESTION = { preset: 'llama3.1-70b', rps: 10, ttft: 2000, tpot: 100 };
const expected = ({ preset, rps, ttft, tpot }) => ops.serveRank({ serving: { preset, traffic: { requests_per_s: rps }, targets: { ttft_ms: ttft, tpot_ms: tpot } } });
const hashOf = ({ preset, rps, ttft, tpot }, lang) => `#task=serve&sp=${preset}&rps=${rps}&ttft=${ttft}&tpot=${tpot}&lang=${lang}`;

// The serving table as data (raw numbers from data-v).
const servingRows = (page) => page.$$eval('#serving-table tbody tr', (trs) => trs.map((tr) => ({
  key: tr.dataset.key, met: tr.dataset.met === '1', fits: tr.dataset.fits === '1',
  out: Number(tr.querySelector('td[data-col="out"]').dataset.v), replicas: Number(tr.querySelector('td[data-col="replicas"]').dataset.v),
  outText: tr.querySelector('td[data-col="out"]').textContent })));

for (const lang of ['en', 'zh']) {
  for (const width of [360, 1366]) {
    test(`serving page, ${lang}, ${width} px: the worker's ranking, met rows first, the chart, nothing off screen`, async () => {
      const { context, page, log } = await openPage(browser, `${base}${hashOf(QUESTION, lang)}`,
        { viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      assert.equal(await settled(page), '1');
      assert.equal(await page.evaluate(() => document.body.dataset.host), 'worker', 'the serving ranking runs in the worker');
      const want = expected(QUESTION);
      const rows = await servingRows(page);
      assert.equal(rows.length, want.rows.length);
      rows.slice(0, 20).forEach((r, i) => {
        assert.equal(r.key, want.rows[i].key, `row ${i + 1}`);
        assert.equal(r.out, want.rows[i].usd_per_million_output, `row ${i + 1}`);
        assert.equal(r.replicas, want.rows[i].replicas, `row ${i + 1}`);
      });
      assert.ok(rows[0].met, 'the first row meets the targets');
      const firstMiss = rows.findIndex((r) => !r.met);
      assert.ok(firstMiss < 0 || rows.slice(firstMiss).every((r) => !r.met), 'missed rows below every met one');
      assert.equal(await page.$eval('#serve-best', (el) => el.dataset.key), want.rows.find((r) => r.met).key);
      // The best offer's price date said once, in one sentence: dated, or unknown with the day it was read.
      const best = want.rows.find((r) => r.met);
      const priced = await page.textContent('#serve-best p.sub');
      const unknown = lang === 'zh' ? /价格日期不详，读取于 \S/ : /price date unknown, read on \S/;
      if (best.as_of) assert.doesNotMatch(priced, lang === 'zh' ? /不详/ : /unknown/, priced);
      else if (best.read_on) assert.match(priced, unknown, priced);
      assert.doesNotMatch(priced, /dated date|日期 日期/, priced);
      // Chinese readers see CNY, English readers USD.
      assert.match(rows[0].outText, lang === 'zh' ? /¥/ : /\$/);
      assert.match(await page.textContent('#serving-table thead'), lang === 'zh' ? /每百万输出 token/ : /Per 1M output tokens/);
      // The chart: one line per GPU of the best rows, from the engine's curves.
      const chart = await page.evaluate(() => {
        const c = window.gpuvalue.app.servingChart;
        return c && c.data.datasets.map((d) => d.data.length);
      });
      assert.deepEqual(chart, want.curves.map((c) => c.points.length));
      const docWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(docWidth <= width, `the document is ${docWidth} px wide in a ${width} px window`);
      const out = await page.$eval('#serving-table tbody tr td[data-col="out"]', (td) => { const r = td.getBoundingClientRect(); return [r.left, r.right, r.width]; });
      assert.ok(out[0] >= -0.5 && out[1] <= width + 0.5 && out[2] > 0, `the cost per million output tokens is in view: ${out}`);
      if (width === 1366) {
        // On a laptop every column, the targets included, is in the table's box: no sideways scrolling to read a row.
        const fit = await page.$eval('#serving-table', (t) => [t.scrollWidth, t.parentElement.clientWidth]);
        assert.ok(fit[0] <= fit[1] + 1, `the serving table is ${fit[0]} px wide in a ${fit[1]} px box`);
      }
      await shot(page, `serving-${lang}-${width}.png`, { fullPage: width === 1366 });
      assert.deepEqual(log.errors, []);
      await context.close();
    });
  }
}

test('the serving inputs live in the URL: a changed input is written to the hash and a reload restores it', async () => {
  const { context, page, log } = await openPage(browser, `${base}${hashOf(QUESTION, 'en')}`);
  await settled(page);
  await page.evaluate(() => { window.firstCanvas = window.gpuvalue.app.servingChart.canvas; });
  await page.fill('#serve-rps', '40');
  await page.press('#serve-rps', 'Enter');
  await page.selectOption('#serve-kv', 'fp8');
  await page.waitForFunction(() => { const q = new URLSearchParams(location.hash.slice(1)); return q.get('rps') === '40' && q.get('kvq') === 'fp8'; }, null, { timeout: 15000 });
  await settled(page);
  // The chart was updated in place (the same canvas, still on the page) and draws the new answer's curves.
  const changed = ops.serveRank({ serving: { preset: QUESTION.preset, kv: 'fp8', traffic: { requests_per_s: 40 }, targets: { ttft_ms: QUESTION.ttft, tpot_ms: QUESTION.tpot } } });
  const drawn = await page.evaluate(() => {
    const c = window.gpuvalue.app.servingChart;
    return { same: c.canvas === window.firstCanvas, inPage: document.contains(c.canvas), ys: c.data.datasets.map((d) => d.data.map((p) => p.y)) };
  });
  assert.ok(drawn.same && drawn.inPage, 'the chart is the one drawn first, still on the page');
  assert.deepEqual(drawn.ys, changed.curves.map((c) => c.points.map((p) => p.tokens_per_s_per_gpu)));
  await page.reload();
  await settled(page);
  assert.equal(await page.inputValue('#serve-rps'), '40');
  assert.equal(await page.inputValue('#serve-kv'), 'fp8');
  const want = ops.serveRank({ serving: { preset: QUESTION.preset, kv: 'fp8', traffic: { requests_per_s: 40 }, targets: { ttft_ms: QUESTION.ttft, tpot_ms: QUESTION.tpot } } });
  const rows = await servingRows(page);
  assert.equal(rows[0].key, want.rows[0].key);
  assert.equal(rows[0].replicas, want.rows[0].replicas);
  assert.equal(rows[0].out, want.rows[0].usd_per_million_output);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the task switch turns the training ranking into the serving view and back', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  assert.equal(await page.getAttribute('#task-train', 'aria-pressed'), 'true');
  await page.click('#task-serve');
  await page.waitForSelector('#serving-table');
  await settled(page);
  assert.equal(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('task'), 'serve');
  assert.equal(await page.getAttribute('#task-serve', 'aria-pressed'), 'true');
  assert.equal(await page.$('#ranking'), null);
  await page.click('#task-train');
  await page.waitForSelector('#ranking');
  await settled(page);
  assert.equal(await page.$('#serving-table'), null);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the advisor\'s production stage recommends a serving configuration from the engine\'s serving answer', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en&tool=advise&advise.params=70000000000&advise.stage=production`);
  await settled(page);
  await page.waitForSelector('#adv-serving', { timeout: 30000 });
  // 70e9 parameters: the nearest serving preset is Llama 3.1 70B, at the page's default serving traffic and targets.
  const want = expected(QUESTION).rows.find((r) => r.met);
  assert.equal(await page.$eval('#adv-serve-offer', (el) => el.dataset.key), want.key);
  assert.match(await page.textContent('#adv-serving'), /Llama 3\.1 70B/);
  assert.equal(await page.getAttribute('#adv-serve-question', 'data-how'), 'nearest');
  assert.match(await page.textContent('#adv-serving'), /per million output tokens/);
  await page.click('#adv-serve-open');
  await page.waitForSelector('#serving-table');
  assert.equal(await page.inputValue('#serve-preset'), 'llama3.1-70b');
  // Other stages do not ask for it.
  await page.click('#task-train');
  await page.waitForSelector('#adv-stage');
  await page.selectOption('#adv-stage', 'exploration');
  await page.waitForFunction(() => document.querySelector('#tool-advise')?.dataset.state === 'ready' && !document.querySelector('#adv-serving'), null, { timeout: 30000 });
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the advisor serves the workload\'s own model: its serving preset when one has the same shape, else that shape itself', async () => {
  const presets = JSON.parse(fs.readFileSync(path.join(root, 'data/presets.json'), 'utf8')).presets;
  const shape = (id) => presets.find((p) => p.id === id).workload;
  // Llama 2 7B (32 layers, 4096 hidden, 32 heads, no GQA) has no serving preset of its shape (Mistral 7B has 8 KV
  // heads): the engine serves the workload's own shape.
  const w = shape('llama2-7b-pretrain');
  const own = ops.serveRank({ serving: { model: { params: w.params, layers: w.layers, hidden: w.hidden, heads: w.heads, vocab: w.vocab },
    traffic: { requests_per_s: QUESTION.rps }, targets: { ttft_ms: QUESTION.ttft, tpot_ms: QUESTION.tpot } } });
  for (const lang of ['en', 'zh']) {
    const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=${lang}&tool=advise&advise.stage=production`);
    await settled(page);
    await page.waitForSelector('#adv-serving', { timeout: 30000 });
    assert.equal(await page.getAttribute('#adv-serve-question', 'data-how'), 'own');
    assert.equal(await page.$eval('#adv-serve-offer', (el) => el.dataset.key), own.rows.find((r) => r.met).key);
    assert.match(await page.textContent('#adv-serve-question'), lang === 'zh' ? /Llama 2 7B[\s\S]*的模型/ : /the model of Llama 2 7B/);
    // Its button opens that shape in the serving view as the reader's own model (tests/browser/serving-model.test.mjs).
    assert.equal(await page.getAttribute('#adv-serve-open', 'data-how'), 'own');
    assert.deepEqual(log.errors, []);
    await context.close();
  }
  // Llama 3.1 70B's pretraining workload has the shape of the llama3.1-70b serving preset: that preset is served.
  const { context, page, log } = await openPage(browser, `${base}#preset=llama3.1-70b-pretrain&lang=en&tool=advise&advise.stage=production`);
  await settled(page);
  await page.waitForSelector('#adv-serving', { timeout: 30000 });
  assert.equal(await page.getAttribute('#adv-serve-question', 'data-how'), 'match');
  assert.equal(await page.$eval('#adv-serve-offer', (el) => el.dataset.key), expected(QUESTION).rows.find((r) => r.met).key);
  assert.ok(await page.$('#adv-serve-open'));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the widget answers the serving question with mode="serving", in both languages', async () => {
  const { context, page, log } = await openPage(browser, `${base}embed-example.html`);
  await page.waitForFunction(() => document.getElementById('widget-serve')?.dataset.ready, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.getElementById('widget-serve').dataset.ready), '1');
  const want = ops.serveRank({ serving: { preset: 'llama3.1-8b', traffic: { requests_per_s: 5 }, targets: { ttft_ms: 1000, tpot_ms: 50 } }, curves: false });
  const got = await page.evaluate(() => [...document.getElementById('widget-serve').shadowRoot.querySelectorAll('tbody tr')]
    .map((tr) => ({ gpu: tr.dataset.gpu, met: tr.dataset.met, name: tr.querySelector('td.name').textContent, status: tr.querySelector('td.status').textContent })));
  assert.equal(got.length, 5, 'compact: five rows');
  got.forEach((r, i) => { assert.equal(r.name, want.rows[i].instance); assert.equal(r.gpu, want.rows[i].gpu); assert.equal(r.met, want.rows[i].met ? '1' : '0'); });
  // The status in words (the widget carries only the UI strings it names).
  got.forEach((r) => { assert.doesNotMatch(r.status, /^serve/); if (r.met === '1') assert.equal(r.status, 'met'); });
  assert.ok(got.some((r) => r.met === '1'));
  await page.evaluate(() => document.getElementById('widget-serve').setAttribute('lang', 'zh'));
  await page.waitForFunction(() => /每百万输出 token/.test(document.getElementById('widget-serve').shadowRoot.textContent), null, { timeout: 30000 });
  assert.match(await page.evaluate(() => document.getElementById('widget-serve').shadowRoot.querySelector('td.status').textContent), /^(满足|首 token 超时|每 token 超时|均超时|放不下)$/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('serving has the offer filters: hiding marketplace hosts reranks from the URL, training-only limits are absent', async () => {
  const { context, page, log } = await openPage(browser, `${base}${hashOf(QUESTION, 'en')}`);
  await settled(page);
  for (const id of ['f-providers', 'f-regions', 'f-gpus', 'hide-marketplace', 'hide-stale']) assert.ok(await page.$(`#${id}`), `#${id} in serving mode`);
  for (const id of ['f-pricing', 'budget', 'deadline', 'horizon', 'fits-only']) assert.equal(await page.$(`#${id}`), null, `#${id} is a training limit`);
  await page.check('#hide-marketplace');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('mk') === '0');
  await settled(page);
  const want = ops.serveRank({ serving: { preset: QUESTION.preset, traffic: { requests_per_s: QUESTION.rps }, targets: { ttft_ms: QUESTION.ttft, tpot_ms: QUESTION.tpot } },
    filters: { include_marketplace: false } });
  assert.ok(want.rows.every((r) => !r.marketplace));
  assert.deepEqual((await servingRows(page)).slice(0, 30).map((r) => r.key), want.rows.slice(0, 30).map((r) => r.key));
  await page.reload();
  await settled(page);
  assert.equal(await page.isChecked('#hide-marketplace'), true, 'the filter comes back from the URL');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the TTFT target can hold for p90/p95/p99 of requests: the ranking is the engine\'s at that percentile, and the URL keeps it', async () => {
  const { context, page, log } = await openPage(browser, `${base}${hashOf(QUESTION, 'en')}`);
  await settled(page);
  const p50 = await servingRows(page);
  await page.selectOption('#serve-pct', '99');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('pct') === '99');
  await settled(page);
  const want = ops.serveRank({ serving: { preset: QUESTION.preset, traffic: { requests_per_s: QUESTION.rps },
    targets: { ttft_ms: QUESTION.ttft, tpot_ms: QUESTION.tpot, percentile: 99 } } });
  assert.equal(want.targets.percentile, 99);
  const p99 = await servingRows(page);
  assert.deepEqual(p99.slice(0, 20).map((r) => [r.key, r.out]), want.rows.slice(0, 20).map((r) => [r.key, r.usd_per_million_output]));
  assert.ok(p99.filter((r) => r.met).length <= p50.filter((r) => r.met).length, 'a tail target is met by no more offers than a median one');
  assert.match(await page.textContent('#serving'), /p99/);
  await page.reload();
  await settled(page);
  assert.equal(await page.inputValue('#serve-pct'), '99', 'the percentile comes back from the URL');
  assert.deepEqual(log.errors, []);
  await context.close();
});

// The question of QUESTION as the engine host is asked it, with a table order and a billing model.
const question = (extra = {}) => ({ preset: QUESTION.preset, traffic: { requests_per_s: QUESTION.rps }, targets: { ttft_ms: QUESTION.ttft, tpot_ms: QUESTION.tpot }, ...extra });
const hashParam = (page, key) => page.evaluate((k) => new URLSearchParams(location.hash.slice(1)).get(k), key);
const keysOf = (rows) => rows.map((r) => r.key);

for (const lang of ['en', 'zh']) {
  test(`serving table, ${lang}: a header sorts every row (mouse and keyboard) and the URL keeps it; show more; reserved prices`, async () => {
    const { context, page, log } = await openPage(browser, `${base}${hashOf(QUESTION, lang)}`, { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    await settled(page);
    const before = await servingRows(page);
    await page.click('#serve-sort-monthly');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('ssort') === 'monthly');
    await settled(page);
    const asc = ops.serveRank({ serving: question(), sort: { key: 'monthly_usd', dir: 'asc' } });
    assert.deepEqual(keysOf((await servingRows(page)).slice(0, 40)), keysOf(asc.rows.slice(0, 40)), 'cheapest month first, over every offer');
    assert.notDeepEqual(keysOf((await servingRows(page)).slice(0, 40)), keysOf(before.slice(0, 40)), 'the order changed');
    assert.equal(await page.getAttribute('th[data-col="monthly"]', 'aria-sort'), 'ascending');
    assert.equal(await page.getAttribute('th[data-col="out"]', 'aria-sort'), 'none');
    // The keyboard: the header is a button; Enter on it turns the order round.
    await page.focus('#serve-sort-monthly');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('sdir') === 'desc');
    await settled(page);
    const desc = ops.serveRank({ serving: question(), sort: { key: 'monthly_usd', dir: 'desc' } });
    assert.deepEqual(keysOf((await servingRows(page)).slice(0, 40)), keysOf(desc.rows.slice(0, 40)));
    assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'serve-sort-monthly', 'focus stays on the header');
    await page.reload();
    await settled(page);
    assert.equal(await page.getAttribute('th[data-col="monthly"]', 'aria-sort'), 'descending', 'the order comes back from the URL');
    assert.deepEqual(keysOf((await servingRows(page)).slice(0, 20)), keysOf(desc.rows.slice(0, 20)));
    // Show more: 200 of all, then 400, in the same order.
    const total = desc.total;
    assert.ok(total > 400, `${total} offers`);
    const fmt = new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US');
    assert.match(await page.textContent('#serve-shown'), new RegExp(`${fmt.format(200)}.*${fmt.format(total)}|${fmt.format(total)}.*${fmt.format(200)}`));
    await page.click('#serve-more-rows');
    await page.waitForFunction(() => document.querySelectorAll('#serving-table tbody tr').length === 400);
    await settled(page);
    const more = ops.serveRank({ serving: question(), sort: { key: 'monthly_usd', dir: 'desc' }, limit: 400 });
    assert.deepEqual(keysOf(await servingRows(page)), keysOf(more.rows));
    // Reserved: the prices change and every row says it is priced reserved, with the offers lacking one counted.
    await page.selectOption('#serve-pricing', 'reserved');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('spr') === 'reserved');
    await settled(page);
    const reserved = ops.serveRank({ serving: question({ pricing: 'reserved' }), sort: { key: 'monthly_usd', dir: 'desc' } });
    const rows = await servingRows(page);
    assert.deepEqual(rows.map((r) => [r.key, r.out]), reserved.rows.map((r) => [r.key, r.usd_per_million_output]));
    const cells = await page.$$eval('#serving-table td[data-col="hourly"]', (tds) => tds.map((td) => [td.dataset.pricing, td.textContent]));
    const word = lang === 'zh' ? /预留／包年，1 年期/ : /Reserved, 1-year term/;
    assert.ok(cells.every(([p]) => p === 'reserved') && cells.some(([, text]) => word.test(text)), cells[0].join(' '));
    assert.match(await page.textContent('#serve-unpriced'), new RegExp(fmt.format(reserved.unpriced)));
    assert.equal(await hashParam(page, 'ssort'), 'monthly', 'the order stays');
    assert.match(await page.textContent('#serve-billing-hint'), lang === 'zh' ? /全天候/ : /around the clock/, 'the sidebar says what reserved means');
    // Spot carries the interruption caveat; on-demand does not.
    assert.equal(await page.$('#serve-spot-note'), null);
    await page.selectOption('#serve-pricing', 'spot');
    await page.waitForSelector('#serve-spot-note');
    assert.match(await page.textContent('#serve-spot-note'), lang === 'zh' ? /收回/ : /reclaimed/);
    // The spares each row keeps for reclaimed instances, as the engine counts them, and the model in the note.
    await settled(page);
    const spot = ops.serveRank({ serving: question({ pricing: 'spot' }), sort: { key: 'monthly_usd', dir: 'desc' } });
    assert.ok(spot.rows.some((r) => r.spare_instances > 0), 'some row keeps spares');
    const gpuCells = await page.$$eval('#serving-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.key, tr.querySelector('td[data-col="gpus"]').textContent]));
    for (const r of spot.rows.filter((x) => x.fits)) {
      const text = gpuCells.find(([k]) => k === r.key)[1];
      if (r.spare_instances > 0) assert.ok(text.includes(lang === 'zh' ? `备用 ${r.spare_instances * r.gpu_count}` : `${r.spare_instances * r.gpu_count} spare`), `${r.key}: ${text}`);
      else assert.doesNotMatch(text, /spare|备用/, r.key);
    }
    // On a laptop the spot table, spares and all, still fits its box.
    await page.setViewportSize({ width: 1366, height: 900 });
    const fit = await page.$eval('#serving-table', (t) => [t.scrollWidth, t.parentElement.clientWidth]);
    assert.ok(fit[0] <= fit[1] + 1, `the spot serving table is ${fit[0]} px wide in a ${fit[1]} px box`);
    const first = spot.rows.find((r) => r.fits);
    assert.match(await page.textContent('#serve-spot-note'), new RegExp(`99[  ]?%[\\s\\S]*${first.instance.replace(/[.]/g, '\\.')}`));
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}
