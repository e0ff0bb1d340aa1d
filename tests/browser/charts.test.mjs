// The page's own charts (web/src/views/plot.js) under the pointer: a point's tooltip names its offer, a bar's tooltip
// its full name, a legend entry hides and shows its dataset, and a chart follows its box when the window narrows.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, settled, shot } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

// Pixels with any ink in a canvas.
const ink = (page, id) => page.$eval(`#${id}`, (c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
  return n;
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: tooltips under the pointer, a legend entry that hides its dataset, a chart that follows its box`, async () => {
    const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=${lang}`,
      { viewport: { width: 1366, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    await settled(page);
    await page.$eval('#charts', (el) => el.scrollIntoView());
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

    // The most isolated point that fits: the pointer on it shows its offer's instance and provider.
    const point = await page.evaluate(() => {
      const chart = window.gpuvalue.app.charts.scatter;
      const all = chart.data.datasets.flatMap((d, i) => chart.getDatasetMeta(i).data.map((el, j) => ({ x: el.x, y: el.y, i, j, r: d.data[j].r })));
      const a = chart.chartArea;
      const inside = (p) => p.x > a.left + 6 && p.x < a.right - 6 && p.y > a.top + 6 && p.y < a.bottom - 6;
      const lonely = all.filter((p) => p.r && inside(p)).map((p) => ({ ...p, gap: Math.min(...all.filter((q) => q !== p).map((q) => Math.hypot(q.x - p.x, q.y - p.y))) }))
        .sort((p, q) => q.gap - p.gap)[0];
      const rect = chart.canvas.getBoundingClientRect();
      return { x: rect.left + lonely.x, y: rect.top + lonely.y, instance: lonely.r.instance, i: lonely.i, j: lonely.j, gap: lonely.gap };
    });
    assert.ok(point.gap > 4, `an isolated point (${point.gap} px)`);
    const before = await ink(page, 'chart-scatter');
    await page.mouse.move(point.x, point.y);
    const tip = await page.evaluate(() => {
      const c = window.gpuvalue.app.charts.scatter;
      return { active: c.getActiveElements().map((a) => [a.datasetIndex, a.index]), body: c.tooltip.body.map((b) => b.lines.join(' ')) };
    });
    assert.deepEqual(tip.active, [[point.i, point.j]]);
    assert.ok(tip.body[0].includes(point.instance), `${tip.body} / ${point.instance}`);
    assert.ok(await ink(page, 'chart-scatter') > before, 'the tooltip is drawn');
    await page.mouse.move(5, 5);
    assert.deepEqual(await page.evaluate(() => window.gpuvalue.app.charts.scatter.getActiveElements()), [], 'the pointer left: no tooltip');

    // A bar under the pointer: the tooltip's title is its whole name.
    const bar = await page.evaluate(() => {
      const c = window.gpuvalue.app.charts.bar;
      const el = c.getDatasetMeta(0).data[2];
      const rect = c.canvas.getBoundingClientRect();
      return { x: rect.left + (el.base + el.x) / 2, y: rect.top + el.y, label: String(c.data.labels[2]) };
    });
    await page.mouse.move(bar.x, bar.y);
    assert.deepEqual(await page.evaluate(() => window.gpuvalue.app.charts.bar.tooltip.title), [bar.label]);
    await page.mouse.move(5, 5);

    // The legend: a click on "offers that fit" hides them (less ink, no element of theirs under the pointer), a second
    // click shows them again.
    const legend = async () => page.evaluate(() => {
      const c = window.gpuvalue.app.charts.scatter;
      const last = c.data.datasets.length - 1;
      const item = c.legend.placed.find((p) => p.item.index === last);
      const rect = c.canvas.getBoundingClientRect();
      return { x: rect.left + item.x + 4, y: rect.top + c.legend.top + item.y + 6, hidden: [...c.hidden] , last };
    });
    const shown = await ink(page, 'chart-scatter');
    let l = await legend();
    assert.deepEqual(l.hidden, []);
    await page.mouse.click(l.x, l.y);
    l = await legend();
    assert.deepEqual(l.hidden, [l.last]);
    const hidden = await ink(page, 'chart-scatter');
    assert.ok(hidden < shown * 0.9, `ink ${shown} → ${hidden}`);
    await shot(page, `charts-legend-hidden-${lang}.png`);
    await page.mouse.click(l.x, l.y);
    assert.deepEqual((await legend()).hidden, []);

    // A narrower window: each chart takes its box's new width.
    await page.setViewportSize({ width: 700, height: 900 });
    await page.waitForFunction(() => {
      const c = window.gpuvalue.app.charts.scatter;
      return c.width === Math.floor(c.canvas.parentNode.getBoundingClientRect().width);
    }, null, { timeout: 5000 });
    const sizes = await page.evaluate(() => ['scatter', 'bar'].map((k) => {
      const c = window.gpuvalue.app.charts[k];
      return [c.width, Math.floor(c.canvas.parentNode.getBoundingClientRect().width), c.canvas.getBoundingClientRect().width];
    }));
    for (const [w, box, css] of sizes) assert.ok(w === box && Math.abs(css - box) < 1 && w < 700, `${w} / ${box} / ${css}`);
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}
