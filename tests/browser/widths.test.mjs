// The page at the widths people use (a phone, a tablet, a laptop, a desktop) in both languages: the essential
// columns of the ranking (offer, GPUs, time, job cost, why) are inside the window, the document never scrolls
// sideways, the only vertical scrollbar is the window's, and no chart label is cut off. A screenshot of each
// lands in test-artifacts/.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, settled, shot, offlineUrl } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const WIDTHS = [360, 768, 1366, 1920];
const ESSENTIAL = ['instance', 'gpus', 'time', 'cost', 'why'];

// Everything the checks need, measured in the page.
function measure(page, essential) {
  return page.evaluate((cols) => {
    const win = window.innerWidth;
    const out = { win, docWidth: document.documentElement.scrollWidth, outside: [], clipped: [], scrollers: [], labels: null, cards: null };
    const visible = (el) => { const s = getComputedStyle(el); return s.display !== 'none' && s.visibility !== 'hidden'; };
    const rows = [...document.querySelectorAll('#ranking tbody tr')].filter((tr) => !tr.hidden).slice(0, 6);
    for (const tr of rows) {
      for (const col of cols) {
        const td = tr.querySelector(`td[data-col="${col}"]`);
        const r = td && td.getBoundingClientRect();
        if (!td || !visible(td) || r.width < 1) { out.outside.push(`${col}: not shown`); continue; }
        if (r.left < -0.5 || r.right > win + 0.5) out.outside.push(`${col}: ${Math.round(r.left)}-${Math.round(r.right)} px`);
        if (td.scrollWidth > td.clientWidth + 1) out.clipped.push(`${col}: ${td.scrollWidth} > ${td.clientWidth}`);
      }
    }
    // Boxes between the table and the document that scroll vertically (a second scrollbar).
    for (let el = document.getElementById('ranking'); el && el !== document.documentElement; el = el.parentElement) {
      const s = getComputedStyle(el);
      if (['auto', 'scroll'].includes(s.overflowY) && el.scrollHeight > el.clientHeight + 1) out.scrollers.push(`${el.tagName}#${el.id}.${el.className}`);
    }
    const time = rows[0] && rows[0].querySelector('td[data-col="time"]');
    out.cards = time ? !['none', 'normal'].includes(getComputedStyle(time, '::before').content) : null;
    // The bar chart's category labels: each drawn label fits left of the axis line, inside the canvas.
    const app = window.gpuvalue && window.gpuvalue.app;
    const bar = app && app.charts && app.charts.bar;
    if (bar && bar.scales.y && bar.scales.y.labelWidths) {
      const y = bar.scales.y;
      const widest = Math.max(...y.labelWidths);
      const pad = (y.options.ticks.padding || 0);
      out.labels = { right: y.right, widest, pad, shown: y.ticks.map((t) => t.label), full: bar.data.labels.slice(), room: y.right - pad - widest };
    }
    return out;
  }, essential);
}

for (const width of WIDTHS) {
  for (const lang of ['en', 'zh']) {
    test(`${width} px, ${lang}: essential columns in view, no sideways scrolling, one scrollbar, chart labels whole`, async () => {
      const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=${lang}`, { viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      await settled(page);
      const m = await measure(page, ESSENTIAL);
      assert.equal(m.win, width);
      assert.ok(m.docWidth <= width, `the document is ${m.docWidth} px wide in a ${width} px window`);
      assert.deepEqual(m.outside, [], 'essential columns outside the window');
      assert.deepEqual(m.clipped, [], 'essential cells cut off');
      assert.deepEqual(m.scrollers, [], 'a second vertical scrollbar around the table');
      assert.equal(m.cards, width < 700, width < 700 ? 'rows are cards with labelled cells' : 'rows are table rows');
      assert.ok(m.labels, 'the bar chart is drawn');
      assert.ok(m.labels.room >= -0.5, `a bar label is cut off: widest ${m.labels.widest} px, axis at ${m.labels.right} px`);
      // A label shortened to fit is the start of the full name, an ellipsis, and the end it keeps whole (the region
      // count of an offer listed in several regions); the tooltip shows the whole name.
      m.labels.shown.forEach((s, i) => {
        const full = String(m.labels.full[i]);
        const cut = s.indexOf('…');
        assert.ok(s === full || (cut >= 0 && full.startsWith(s.slice(0, cut)) && full.endsWith(s.slice(cut + 1))), `${s} / ${full}`);
      });
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `widths-${width}-${lang}.png`);
      await page.evaluate(() => document.getElementById('charts').scrollIntoView());
      await shot(page, `widths-${width}-${lang}-charts.png`);
      // By keyboard: focus on the chart shows the first bar's whole name, the arrow keys the next ones.
      await page.focus('#chart-bars');
      await page.keyboard.press('ArrowDown');
      const tip = await page.evaluate(() => { const b = window.gpuvalue.app.charts.bar; return { title: b.tooltip.title, active: b.getActiveElements().map((e) => e.index) }; });
      assert.deepEqual(tip.active, [1]);
      assert.deepEqual(tip.title, [String(m.labels.full[1])]);
      // Baidu's offers have the longest names ("EasyDL TeslaGPU_V100_16G显存单卡_12核CPU_56G内存").
      await page.evaluate((l) => { location.hash = `#preset=resnet50-imagenet&prov=Baidu%20AI%20Cloud&lang=${l}`; }, lang);
      await page.waitForFunction(() => document.getElementById('summary')?.textContent.includes('ResNet'));
      await settled(page);
      const g = await measure(page, ESSENTIAL);
      assert.ok(g.labels.full.some((x) => String(x).length >= 30), `the long names are among the bars: ${g.labels.full.join(', ')}`);
      assert.ok(g.labels.room >= -0.5, `a bar label is cut off: widest ${g.labels.widest} px, axis at ${g.labels.right} px`);
      assert.deepEqual(g.outside, []);
      await page.evaluate(() => document.getElementById('charts').scrollIntoView());
      await shot(page, `widths-${width}-${lang}-long-names.png`);
      assert.deepEqual(log.errors, []);
      await context.close();
    });
  }
}

test('the offline file at 360 and 1366 px: the same layout from file://', async () => {
  for (const width of [360, 1366]) {
    const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=resnet50-imagenet&lang=zh`, { viewport: { width, height: 900 }, locale: 'zh-CN' });
    await settled(page);
    const m = await measure(page, ESSENTIAL);
    assert.ok(m.docWidth <= width, `the document is ${m.docWidth} px wide`);
    assert.deepEqual(m.outside, []);
    assert.deepEqual(m.scrollers, []);
    assert.ok(m.labels && m.labels.room >= -0.5);
    await shot(page, `widths-offline-${width}.png`);
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});

test('the same offer in many regions is one row that opens to show every region', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en&prov=JD%20Cloud`, { viewport: { width: 1366, height: 900 } });
  await settled(page);
  const heads = await page.$$eval('#ranking tbody tr.region-head', (trs) => trs.map((tr) => ({ key: tr.dataset.key, text: tr.querySelector('.regions-toggle').textContent })));
  assert.ok(heads.length > 0, 'JD Cloud lists its V100 machines in two regions');
  assert.match(heads[0].text, /2 regions, cheapest \S+/);
  const hidden = await page.$$eval(`#ranking tbody tr[data-member-of="${heads[0].key}"]`, (trs) => trs.map((tr) => tr.hidden));
  assert.ok(hidden.length >= 1 && hidden.every(Boolean), 'the other regions are folded');
  await page.click(`#ranking tbody tr[data-key="${heads[0].key}"] .regions-toggle`);
  assert.equal(await page.getAttribute(`#ranking tbody tr[data-key="${heads[0].key}"] .regions-toggle`, 'aria-expanded'), 'true');
  const shown = await page.$$eval(`#ranking tbody tr[data-member-of="${heads[0].key}"]`, (trs) => trs.map((tr) => !tr.hidden && tr.getBoundingClientRect().height > 0));
  assert.ok(shown.every(Boolean), 'opened: every region is a row');
  await shot(page, 'regions-open.png');
  await context.close();
});

test('the embedding example and the widget fit a phone; the widget follows its own width, not the window', async () => {
  const { context, page, log } = await openPage(browser, `${base}embed-example.html`, { viewport: { width: 360, height: 800 } });
  await page.waitForFunction(() => ['widget-en', 'widget-zh'].every((id) => document.getElementById(id)?.dataset.ready === '1'), null, { timeout: 30000 });
  const m = await page.evaluate(() => {
    const win = window.innerWidth;
    const cells = (id) => [...document.getElementById(id).shadowRoot.querySelectorAll('tbody tr:first-child td.time, tbody tr:first-child td.cost')]
      .map((td) => { const r = td.getBoundingClientRect(); return { w: r.width, left: r.left, right: r.right }; });
    return { win, doc: document.documentElement.scrollWidth, en: cells('widget-en'), zh: cells('widget-zh') };
  });
  assert.ok(m.doc <= m.win, `the example page is ${m.doc} px wide`);
  for (const c of [...m.en, ...m.zh]) assert.ok(c.w > 0 && c.left >= 0 && c.right <= m.win + 0.5, JSON.stringify(c));
  assert.equal(m.en.length, 2);
  await shot(page, 'embed-360.png', { fullPage: true });
  // In a wide window but a narrow column, the widget is still laid out as cards (a container query).
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => { document.getElementById('widget-zh').style.width = '300px'; });
  const narrow = await page.evaluate(() => getComputedStyle(document.getElementById('widget-zh').shadowRoot.querySelector('tbody tr')).display);
  assert.equal(narrow, 'grid');
  await page.evaluate(() => { document.getElementById('widget-zh').style.width = ''; });
  const wide = await page.evaluate(() => getComputedStyle(document.getElementById('widget-zh').shadowRoot.querySelector('tbody tr')).display);
  assert.equal(wide, 'table-row');
  assert.deepEqual(log.errors, []);
  await context.close();
});
