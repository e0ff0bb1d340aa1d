// Expert scenarios in Chromium: the page's first screen and the widget at their defaults, for every preset. One
// page load per preset (presets are switched in the same page, the widgets share one page); screenshots of each
// first screen go to test-artifacts/. What any expert would accept: the first row fits, finishes within the
// stated horizon, is a real offer at a current price, and shows its node count and total GPUs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, settled, tableRows, shot, nodeEngine } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
const PRESETS = engine.presets().map((p) => p.id);
const HORIZON_HOURS = engine.defaults().horizon_hours;
test.after(async () => { await browser.close(); server.close(); });

// The first row as the page draws it, with what its cells say.
const firstRow = (page) => page.$eval('#ranking tbody tr', (tr) => ({
  key: tr.dataset.key,
  rank: tr.querySelector('td[data-col="rank"]').textContent,
  gpus: tr.querySelector('td[data-col="gpus"]').textContent,
  late: tr.querySelector('td[data-col="time"]').dataset.late === '1',
  badges: [...tr.querySelectorAll('.badge')].map((b) => b.className),
}));

// The pre-training presets of frontier models, which no offer may finish within 30 days (the engine then warns).
const FRONTIER = new Set(['llama3.1-70b-pretrain', 'llama3.1-405b-pretrain', 'deepseek-v3-pretrain', 'qwen3-30b-a3b-pretrain',
  'llama3.1-8b-pretrain']);

test('for every preset the first row of the page fits, finishes within the stated 30-day horizon (frontier pre-training: marked late when no offer can) and is a real, current offer', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=${PRESETS[0]}&lang=en`);
  for (const id of PRESETS) {
    if (id !== PRESETS[0]) {
      await page.selectOption('#preset', id);
      await page.waitForFunction((p) => location.hash.includes(`preset=${p}`), id);
    }
    assert.equal(await settled(page), '1', id);
    const rows = await tableRows(page);
    const top = rows[0];
    assert.ok(top.fits, `${id}: ${top.key}`);
    // Frontier pre-training may miss the horizon on every offer (tests/js/scenarios.test.mjs); the row says so.
    const late = FRONTIER.has(id) && top.time > HORIZON_HOURS;
    if (!late) assert.ok(top.time <= HORIZON_HOURS, `${id}: ${top.key} takes ${top.time} h`);
    const cells = await firstRow(page);
    assert.equal(cells.rank, '1', id);
    assert.equal(cells.late, late, id);
    assert.match(cells.gpus, /^\d+×/, `${id}: total GPUs shown`);
    assert.ok(!cells.badges.some((c) => /stale/.test(c)), `${id}: stale badge on the first row`);
    // The first row agrees with the engine's ranking of the same request (no example, no stale price).
    const r = engine.rank({ preset: id, filters: { include_examples: false, include_stale: false, fits_only: false, include_marketplace: true }, horizon_hours: HORIZON_HOURS, limit: 1 });
    // The horizon is stated above the table, with the number of offers within it; when none finishes within it, the
    // doubled horizon the first rows finish within, and the first row does.
    if (late) {
      assert.ok(r.horizon.widened_hours >= 2 * HORIZON_HOURS && top.time <= r.horizon.widened_hours, `${id}: ${top.time} h, widened to ${r.horizon.widened_hours} h`);
      const n = r.horizon.widened_count.toLocaleString('en-US');
      assert.match(await page.textContent('#horizon-summary'), new RegExp(`^no offer finishes within 30(\\.0)? days; the ${n} that finish(es)? within \\S+ \\S+ rank first`), id);
    } else {
      assert.match(await page.textContent('#horizon-summary'), /within the horizon of 30(\.0)? days/, id);
    }
    assert.equal(top.key, `${r.results[0].id}|${r.results[0].pricing}`, id);
    // Each preset trains in its own precision (DeepSeek-V3 in FP8) unless the reader picks another.
    const own = (engine.presets().find((p) => p.id === id).workload.precision || engine.defaults().workload_precision).toUpperCase();
    assert.equal(r.workload.precision.toUpperCase(), own, id);
    assert.match(await page.textContent('#summary'), new RegExp(`precision ${own}$`), id);
    assert.equal(await page.inputValue('#precision'), '', id);
    assert.ok(!r.results[0].example && !r.results[0].stale, id);
    await shot(page, `scenario-first-screen-${id}.png`);
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the horizon is a page control kept in the link: a shorter one scales offers out, and non-fitting rows are not numbered', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&hz=10&lang=en`);
  assert.equal(await settled(page), '1');
  assert.equal(await page.inputValue('#horizon'), '10');
  const rows = await tableRows(page);
  assert.ok(rows[0].fits && rows[0].time <= 240, `${rows[0].key} ${rows[0].time}`);
  await shot(page, 'scenario-horizon-10-days.png');
  // GPT-3 175B fits only on multi-node offers: the rows that do not fit are listed without a rank number. The
  // fitting rows come first and can fill the first screen, so the view is narrowed to Lambda's single machines.
  await page.selectOption('#preset', 'gpt3-175b');
  await page.waitForFunction(() => location.hash.includes('preset=gpt3-175b'));
  await settled(page);
  await page.evaluate(() => { location.hash = `${location.hash.slice(1)}&prov=Lambda`; });
  await page.waitForFunction(() => {
    const trs = [...document.querySelectorAll('#ranking tbody tr')];
    return trs.length > 0 && trs.every((tr) => tr.dataset.provider === 'Lambda');
  }, null, { timeout: 30000 });
  await settled(page);
  const unfit = await page.$$eval('#ranking tbody tr', (trs) => trs.filter((tr) => tr.querySelector('td[data-col="memory"]').dataset.fits === '0')
    .map((tr) => tr.querySelector('td[data-col="rank"]').textContent));
  assert.ok(unfit.length > 0 && unfit.every((t) => t === '—'), JSON.stringify(unfit.slice(0, 5)));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('"My own model" starts from an example that fits by itself, and a workload that fits nowhere says what would make it fit', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=bert-large-pretrain&lang=en`);
  await settled(page);
  await page.check('#wsource-custom');
  await page.waitForFunction(() => location.hash.includes('kind=transformer'));
  assert.equal(await settled(page), '1');
  assert.equal(await page.inputValue('#w-micro_batch'), '', 'the micro-batch is left to the engine');
  const rows = await tableRows(page);
  assert.ok(rows[0].fits, 'the example fits');
  assert.equal(await page.$('#fit-hints'), null);
  // A model too large for any cluster: nothing is numbered as if it fitted, and the page says what it would need.
  await page.goto(`${base}#kind=transformer&mode=pretrain&params=900000000000000&tokens=1000000000000&lang=en`);
  await settled(page);
  assert.match(await page.textContent('#fit-hints'), /What would make it fit[\s\S]*does not fit even on/);
  assert.match(await page.textContent('#bars-note'), /No offer fits/);
  assert.equal(await page.$eval('#ranking tbody tr td[data-col="rank"]', (td) => td.textContent), '—');
  await shot(page, 'scenario-custom-model.png');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the widget example shows, for its presets, first rows within the horizon with their GPU counts', async () => {
  const { context, page, log } = await openPage(browser, `${base}embed-example.html`);
  for (const id of ['widget-en', 'widget-zh']) {
    await page.waitForFunction((w) => document.getElementById(w)?.dataset.ready === '1', id, { timeout: 30000 });
    const first = await page.evaluate((w) => {
      const tr = document.getElementById(w).shadowRoot.querySelector('tbody tr');
      return { meets: tr.dataset.meets, nodes: Number(tr.dataset.nodes), time: tr.querySelector('td.time').textContent };
    }, id);
    assert.equal(first.meets, '1', `${id}: ${first.time}`);
    assert.ok(first.nodes >= 1);
  }
  // The widget's own horizon attribute.
  await page.evaluate(() => {
    const w = document.createElement('gpu-value');
    w.id = 'widget-hz';
    w.setAttribute('preset', 'llama2-7b-pretrain');
    w.setAttribute('lang', 'en');
    w.setAttribute('horizon-days', '10');
    document.body.append(w);
  });
  await page.waitForFunction(() => document.getElementById('widget-hz')?.dataset.ready === '1', null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.getElementById('widget-hz').shadowRoot.querySelector('tbody tr').dataset.meets), '1');
  await shot(page, 'scenario-widget.png', { fullPage: true });
  assert.deepEqual(log.errors, []);
  await context.close();
});
