// The unit-cost bar chart folds the same offer in several regions into one bar, as the table folds them into one
// row: no bar repeats another, a folded offer's bar says in how many regions it is listed, and its tooltip names
// the cheapest of them. Screenshots at a phone's and a laptop's width in both languages.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, settled, shot } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

// The bars as drawn: their full labels, the labels shown beside the axis, and the table's visible head rows.
function bars(page) {
  return page.evaluate(() => {
    const bar = window.gpuvalue.app.charts.bar;
    const heads = [...document.querySelectorAll('#ranking tbody tr.region-head')].map((tr) => ({
      instance: tr.querySelector('button.link').textContent, pricing: tr.querySelector('td[data-col="pricing"]').textContent,
      regions: tr.querySelector('.regions-toggle').textContent,
    }));
    return { labels: bar.data.labels.slice(), shown: bar.scales.y.ticks.map((t) => t.label), heads };
  });
}

const REGIONS = { en: / · (\d+) regions$/, zh: / · (\d+) 个区域$/ };

for (const lang of ['en', 'zh']) {
  for (const width of [360, 1366]) {
    test(`${width} px, ${lang}: Llama 2 7B pre-training, one bar per offer, labelled with its region count`, async () => {
      const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=${lang}`,
        { viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      await settled(page);
      const b = await bars(page);
      assert.ok(b.labels.length >= 5, `bars drawn: ${b.labels.length}`);
      // Every bar with a cost has a length, the cheapest included (a log axis must start below it).
      const lengths = await page.evaluate(() => window.gpuvalue.app.charts.bar.getDatasetMeta(0).data.map((d) => Math.abs(d.width)));
      assert.ok(lengths.length === b.labels.length && lengths.every((w) => w >= 2), `bar lengths ${lengths.map((w) => w.toFixed(1)).join(' ')}`);
      const repeated = b.labels.filter((l, i) => b.labels.indexOf(l) !== i);
      assert.deepEqual(repeated, [], 'a bar repeats another');
      // AWS lists its instances in many regions: one bar for such an offer, with the count.
      const grouped = b.labels.filter((l) => REGIONS[lang].test(l));
      assert.ok(grouped.length >= 1, `no bar names a region count: ${b.labels.join(' | ')}`);
      const p5 = grouped.slice(0, 1);
      const n = Number(REGIONS[lang].exec(p5[0])[1]);
      assert.ok(n >= 2, p5[0]);
      // The count is the table's for the same offer.
      const head = b.heads.find((h) => p5[0].startsWith(`${h.instance} (${h.pricing})`));
      assert.ok(head, `the table folds ${p5[0]} too`);
      assert.ok(head.regions.includes(String(n)), `${head.regions} / ${p5[0]}`);
      // A label cut to fit keeps its region count whole.
      b.shown.forEach((s, i) => {
        const full = String(b.labels[i]);
        const [start, end = ''] = String(s).split('…');
        assert.ok(s === full || (full.startsWith(start) && full.endsWith(end)), `${s} / ${full}`);
        const count = REGIONS[lang].exec(full);
        if (count) assert.ok(String(s).endsWith(count[0]), `the region count is cut off: ${s}`);
      });
      // The tooltip of the folded bar (keyboard focus, then the arrow keys) names the cheapest region.
      const i = b.labels.indexOf(p5[0]);
      await page.focus('#chart-bars');
      for (let k = 0; k < i; ++k) await page.keyboard.press('ArrowDown');
      const tip = await page.evaluate(() => { const t = window.gpuvalue.app.charts.bar.tooltip; return { title: t.title, body: t.body.map((x) => x.lines.join(' ')) }; });
      assert.deepEqual(tip.title, [p5[0]]);
      assert.match(tip.body.join(' '), lang === 'en' ? new RegExp(`listed in ${n} regions, cheapest \\S+`) : new RegExp(`共 ${n} 个区域，最便宜的是 \\S+`));
      await page.evaluate(() => document.getElementById('charts').scrollIntoView());
      await shot(page, `bars-regions-${width}-${lang}.png`);
      assert.deepEqual(log.errors, []);
      await context.close();
    });
  }
}
