// Quality: 360 px screens, light/dark themes and contrast, keyboard use and labels, print view, the widget.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, settled, tableRows, nodeEngine, shot } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
test.after(async () => { await browser.close(); server.close(); });

test('360 px wide: no horizontal page overflow, the table as cards within the page, controls wrap', async () => {
  for (const lang of ['en', 'zh']) {
    const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=${lang}`, { viewport: { width: 360, height: 780 } });
    await settled(page);
    // Open the widest parts too: a filter list, the comparison, the offer form.
    const rows = await tableRows(page, { visible: true });
    await page.check(`#ranking tbody tr[data-key="${rows[0].key}"] td.cmp input`);
    await page.check(`#ranking tbody tr[data-key="${rows[1].key}"] td.cmp input`);
    await settled(page);
    // Sidebar panels are folded on phones; open them (and their widest parts) for the overflow check.
    assert.equal(await page.$eval('#filters-panel', (d) => d.open), false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `mobile-360-${lang}.png`);
    for (const id of ['filters-panel-summary', 'weights-panel-summary', 'data-panel-summary', 'f-regions-summary', 'offer-form-summary']) await page.click(`#${id}`);
    const m = await page.evaluate(() => {
      const wrap = document.getElementById('table-wrap');
      const wide = [...document.querySelectorAll('body *')].filter((el) => {
        if (el.closest('.scroll-x, .sr-only')) return false;  // boxes that scroll sideways on purpose (wide tool tables), clipped screen-reader text
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5);
      }).map((el) => `${el.tagName}#${el.id}.${el.className}`);
      return { doc: document.documentElement.scrollWidth, win: window.innerWidth, wrapScroll: wrap.scrollWidth, wrapClient: wrap.clientWidth, wide: wide.slice(0, 10) };
    });
    assert.equal(m.win, 360);
    assert.ok(m.doc <= 360, `page is ${m.doc} px wide`);
    assert.deepEqual(m.wide, []);
    assert.ok(m.wrapScroll <= m.wrapClient + 1, `table ${m.wrapScroll} px wide in a ${m.wrapClient} px box`);
    await page.evaluate(() => document.getElementById('overview').scrollIntoView());
    await shot(page, `mobile-360-${lang}-results.png`);
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});

// WCAG contrast ratio of two CSS colours (rgb/rgba strings as computed by the browser).
function contrastPairs(page) {
  return page.evaluate(() => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const rgb = (v) => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color.match(/[\d.]+/g).slice(0, 3).map(Number); };
    const lum = ([r, g, b]) => {
      const c = [r, g, b].map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const out = {};
    for (const fg of ['--fg', '--muted', '--accent', '--bad', '--ok', '--warn']) for (const bg of ['--bg', '--panel', '--row', '--sel']) out[`${fg} on ${bg}`] = ratio(fg, bg);
    out.bg = getComputedStyle(document.body).backgroundColor;
    // The charts' colours on their panel, and the selected offer's bar against the other bars.
    out.charts = Object.fromEntries(['--chart-point', '--chart-pareto', '--chart-sel', '--chart-cmp', '--chart-bar'].map((v) => [v, ratio(v, '--panel')]));
    out.charts['--chart-sel / --chart-bar'] = ratio('--chart-sel', '--chart-bar');
    probe.remove();
    return out;
  });
}

test('dark and light themes: system preference, the toggle remembered, text contrast at least 4.5:1, chart colours 3:1', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await contrastPairs(page);
  assert.equal(dark.bg, 'rgb(18, 19, 22)');
  await page.selectOption('#theme', 'light');
  await settled(page);
  const light = await contrastPairs(page);
  assert.equal(light.bg, 'rgb(255, 255, 255)', 'the toggle overrides the system preference');
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.theme')), 'light');
  for (const [name, c] of [['dark', dark], ['light', light]]) {
    for (const [pair, r] of Object.entries(c)) if (pair !== 'bg' && pair !== 'charts') assert.ok(r >= 4.5, `${name}: ${pair} = ${r.toFixed(2)}`);
    // Graphics: 3:1 on the panel (WCAG 1.4.11); the selected bar told from the others by lightness too, not by hue
    // alone (the dark theme's were 1.27:1 apart).
    const { '--chart-sel / --chart-bar': apart, ...onPanel } = c.charts;
    for (const [v, r] of Object.entries(onPanel)) assert.ok(r >= 3, `${name}: ${v} on --panel = ${r.toFixed(2)}`);
    assert.ok(apart >= 1.5, `${name}: the selected bar and the others are ${apart.toFixed(2)}:1 apart`);
  }
  await page.reload();
  await settled(page);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
  assert.equal(await page.inputValue('#theme'), 'light');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.selectOption('#theme', 'dark');
  await settled(page);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(18, 19, 22)');
  await page.click(`#ranking tbody tr:not([hidden]) >> nth=1 >> button.link`);
  await settled(page);
  await shot(page, 'theme-dark.png', { fullPage: false });
  await page.evaluate(() => document.getElementById('details').scrollIntoView());
  await shot(page, 'theme-dark-details.png');
  await page.selectOption('#theme', 'auto');
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.theme')), null);
  await context.close();
});

test('keyboard: every control is labelled, focus is visible, sorting, filtering and details work without a mouse', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=zh`);
  await settled(page);
  // The first Tab reaches the skip link; Enter moves focus to the results without changing the URL state.
  const hash = await page.evaluate(() => location.hash);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'results');
  assert.equal(await page.evaluate(() => location.hash), hash);

  await page.click('#offer-form-summary');
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'hidden' && !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map((el) => `${el.tagName}#${el.id}`));
  assert.deepEqual(unlabelled, []);
  const nameless = await page.evaluate(() => [...document.querySelectorAll('button, a[href], summary')]
    .filter((el) => !el.textContent.trim() && !el.getAttribute('aria-label')).map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(nameless, []);

  // Focus is drawn: a 3 px outline on keyboard focus.
  await page.focus('#preset');
  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => { const s = getComputedStyle(document.activeElement); return [document.activeElement.id, s.outlineStyle, parseFloat(s.outlineWidth)]; });
  assert.equal(ring[1], 'solid', JSON.stringify(ring));
  assert.ok(ring[2] >= 2);

  // Sort with Enter on the column button; keyboard focus stays on it after the table is redrawn.
  await page.focus('#sort-cost_usd');
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'sort-cost_usd');
  let rows = await tableRows(page, { visible: true });
  const fit = rows.filter((r) => r.fits).map((r) => r.cost);
  assert.deepEqual(fit, fit.slice().sort((a, b) => a - b));

  // Open a filter list with Enter, tick a box with Space.
  await page.focus('#f-providers-summary');
  await page.keyboard.press('Enter');
  await page.focus('#f-providers input[value="Lambda"]');
  await page.keyboard.press('Space');
  await settled(page);
  assert.equal(await page.evaluate(() => document.activeElement.value), 'Lambda');
  rows = await tableRows(page);
  assert.ok(rows.length > 0 && rows.every((r) => r.provider === 'Lambda'));

  // Open an offer's details with Enter: focus lands on the details heading.
  await page.focus('#ranking tbody tr:not([hidden]) >> nth=1 >> button.link');
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'details-title');
  assert.match(await page.textContent('#details-title'), new RegExp(rows[1].instance.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // Sliders move with the arrow keys.
  await page.focus('#w-task');
  for (let i = 0; i < 4; ++i) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('wt') === '1.2');
  await settled(page);
  await context.close();
});

test('print view: results and details without the controls', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en&fits=1&prov=AWS`);
  await settled(page);
  await page.emulateMedia({ media: 'print' });
  const shown = await page.evaluate(() => Object.fromEntries(['.sidebar', '.toolbar', '.settings', '#table-wrap', '#details', '#charts']
    .map((s) => [s, getComputedStyle(document.querySelector(s)).display])));
  assert.equal(shown['.sidebar'], 'none');
  assert.equal(shown['.toolbar'], 'none');
  assert.equal(shown['.settings'], 'none');
  assert.notEqual(shown['#table-wrap'], 'none');
  assert.notEqual(shown['#details'], 'none');
  assert.equal(await page.$eval('#table-wrap', (w) => getComputedStyle(w).overflow), 'visible');
  await shot(page, 'print.png', { fullPage: true });
  // On paper (A4 portrait is about 720 CSS px between the margins) and on a wide landscape page: the cells of a
  // row never overlap, and none reaches past the table.
  for (const width of [720, 1100]) {
    await page.setViewportSize({ width, height: 1000 });
    const bad = await page.evaluate(() => {
      const table = document.getElementById('ranking').getBoundingClientRect();
      const out = [];
      for (const tr of [...document.querySelectorAll('#ranking tbody tr:not([hidden])')].slice(0, 8)) {
        const cells = [...tr.children].filter((td) => getComputedStyle(td).display !== 'none').map((td) => [td.dataset.col, td.getBoundingClientRect()]);
        for (const [col, r] of cells) if (r.right > table.right + 0.5 || r.left < table.left - 0.5) out.push(`${col} outside the table`);
        for (let i = 0; i < cells.length; ++i) {
          for (let j = i + 1; j < cells.length; ++j) {
            const [a, ra] = cells[i];
            const [b, rb] = cells[j];
            const overlap = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 0.5 && Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 0.5;
            if (overlap) out.push(`${a} overlaps ${b}`);
          }
        }
      }
      return out;
    });
    assert.deepEqual(bad, [], `print at ${width} px`);
    await shot(page, `print-${width}.png`, { fullPage: true });
  }
  await context.close();
});

test('the widget: preset, lang, compact, limit and catalog attributes, and the iframe snippet', async () => {
  const extra = { schema_version: 1, instances: [{ id: 'widget-test-h100x8', provider: 'Widget Test Cloud', instance_type: 'wt.h100x8', gpu: 'h100-sxm5-80gb', gpu_count: 8,
    region: 'wt-1', currency: 'USD', interconnect: 'nvswitch', rdma: true, network_gbps: 3200,
    prices: [{ model: 'on_demand', usd_per_hour: 0.5, as_of: new Date().toISOString().slice(0, 10), source: 'test' }] }] };
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.route('**/widget-test-catalog.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(extra) }));
  await page.goto(`${base}embed-example.html`);
  const widgetRows = (id) => page.evaluate((i) => [...document.getElementById(i).shadowRoot.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)), id);
  await page.waitForFunction(() => ['widget-en', 'widget-zh'].every((id) => document.getElementById(id)?.dataset.ready === '1'), null, { timeout: 30000 });
  const en = await widgetRows('widget-en');
  const want = engine.rank({ preset: 'llama2-7b-pretrain', filters: { fits_only: true, include_examples: false }, limit: 5 }).results;
  assert.equal(en.length, 5, 'compact shows 5 rows');
  assert.equal(en[0].length, 5, 'compact hides the GPU column');
  assert.deepEqual(en.map((r) => r[0]), want.map((r) => r.instance));
  const zhHead = await page.evaluate(() => document.getElementById('widget-zh').shadowRoot.querySelector('thead').textContent);
  assert.match(zhHead, /训练时间/);
  assert.equal((await widgetRows('widget-zh')).length, 10);

  await page.evaluate(() => { const w = document.getElementById('widget-en'); w.dataset.ready = ''; w.setAttribute('limit', '3'); w.setAttribute('lang', 'zh'); });
  await page.waitForFunction(() => document.getElementById('widget-en').dataset.ready === '1');
  assert.equal((await widgetRows('widget-en')).length, 3);
  assert.match(await page.evaluate(() => document.getElementById('widget-en').shadowRoot.textContent), /任务成本/);

  await page.evaluate(() => { const w = document.getElementById('widget-zh'); w.dataset.ready = ''; w.setAttribute('catalog', 'widget-test-catalog.json'); });
  await page.waitForFunction(() => document.getElementById('widget-zh').dataset.ready === '1');
  assert.ok((await widgetRows('widget-zh')).some((r) => r[0] === 'wt.h100x8'), 'the extra catalog is ranked');

  const frame = page.frame({ url: /index\.html/ });
  await frame.waitForFunction(() => document.body.dataset.ready === '1' && !document.body.dataset.busy, null, { timeout: 30000 });
  assert.ok(await frame.$$eval('#ranking tbody tr', (trs) => trs.length) > 10);
  assert.equal(await frame.evaluate(() => document.documentElement.lang), 'en');
  assert.match(await frame.textContent('#summary'), /GPT-3 175B/);
  await shot(page, 'widget.png', { fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});
