// Every panel of the page, every decision tool and the widget in Chinese and in English, engine messages
// included: all visible text is collected, names from the catalog and the GPU database, URLs, ids and units
// are taken out, and what is left must hold no run of Latin-script words in Chinese and no Chinese character in
// English. Each tool runs with its default inputs and with one changed input; screenshots of each panel in both
// languages go to test-artifacts/.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { unpackBundle } from '../../web/src/engine/bundle.js';
import { launch, startServer, openPage, settled, shot, elementShot, root } from './browser.mjs';
import { DICTS } from '../../web/src/i18n/index.js';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

// Names that are the same in every language: every string of the data the page ships (instance types,
// providers, regions, price sources, GPU names, CPU models, preset ids and names), plus units, formats and
// product terms. Whole data strings are taken out of the text first (a Chinese instance name stays on the
// English page), then single words.
const bundle = unpackBundle(JSON.parse(fs.readFileSync(path.join(root, 'dist/site/data/bundle.json'), 'utf8')));
const DATA = new Set();
const NAMES = new Set();
const WORD = /[A-Za-z][A-Za-z0-9]*/g;
const addData = (v) => {
  if (typeof v === 'string') { if (v.length > 1) DATA.add(v); for (const w of v.match(WORD) || []) NAMES.add(w); } else if (Array.isArray(v)) v.forEach(addData);
  else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => { if (k !== 'notes' && k !== 'description') addData(x); });
};
for (const g of bundle.gpus.gpus) for (const k of ['id', 'name', 'aliases', 'mig_profiles']) addData(g[k]);
for (const c of bundle.catalogs) for (const o of c.doc.instances || []) addData(o);
for (const p of bundle.presets.presets || []) { addData(p.id); addData(p.name && p.name.en); }
// The Accuracy view's published measurements: ids, workloads, GPUs and sources are data.
const accuracy = JSON.parse(fs.readFileSync(path.join(root, 'web/src/data/accuracy.json'), 'utf8'));
for (const r of accuracy.rows) for (const k of ['workload', 'gpu', 'source']) addData(r[k]);
for (const w of Object.keys(accuracy.by_workload)) addData(w);
const DATA_BY_LENGTH = [...DATA].sort((a, b) => b.length - a.length);
const TERMS = ['gpuvalue', 'GPU', 'GPUs', 'TFLOPS', 'FLOPs', 'GFLOPs', 'PFLOPS', 'USD', 'CNY', 'US', 'CSV', 'JSON', 'SkyPilot', 'vms', 'csv',
  'LoRA', 'Transformer', 'CNN', 'PCIe', 'NVLink', 'NVSwitch', 'Infinity', 'Fabric', 'RDMA', 'InfiniBand', 'RoCE', 'EFA', 'SLA', 'AWS',
  'token', 'WebAssembly', 'userCatalogs', 'unreadable', 'Gbit', 'FP16', 'FP32', 'TF32', 'BF16', 'FP8', 'MIG', 'PUE', 'YOLOv7', 'Pointer',
  'AMP', 'AdamW', 'ZeRO', 'SXM', 'DGX', 'NVIDIA', 'TDP', 'CO2', 'gCO2', 'kWh', 'NVML', 'nvidia', 'smi', 'lgipp', 'NREL', 'ESIF', 'EIA',
  'Ember', 'Uptime', 'Institute', 'Meta', 'Llama', 'Spot', 'Advisor', 'DeepLearningExamples', 'Young', 'Hoffmann', 'HBM', 'GDDR',
  'mig', 'json', 'max', 'count', 'compute', 'slices', 'memory', 'other', 'usd', 'per', 'year', 'docs', 'sources', 'md',
  'GPT', 'BERT', 'ResNet', 'ImageNet', 'COCO', 'SQuAD',
  'Google', 'Amazon', 'Electric', 'Power', 'Annual', 'Global', 'Electricity', 'Review', 'Data', 'Center', 'Survey', 'PR', 'C00',
  'GB', 'TB', 'MB', 'KB', 'PF', 'TP', 'PP', 'hr', 'min', 'al', 'et', 'ML', 'IT', 'Gb', 'W', 'x', 'K',
  'Intel', 'Gaudi', 'Inferentia', 'Trainium', 'TPU', 'PyTorch', 'torchvision',
  'Megatron', 'Blackwell', 'Hopper', 'Ampere', 'Ada', 'Lovelace', 'Volta', 'Turing', 'CDNA'];
for (const w of TERMS) NAMES.add(w);

// What is left of a text once URLs, docs/sources.md anchors, data strings and the names above are taken out.
function strip(text) {
  let t = text.replace(/https?:\/\/\S+/g, ' ').replace(/docs\/sources\.md#[\w-]+/g, ' ').replace(/\bdata\/[\w/-]+\.json\b/g, ' ');
  for (const d of DATA_BY_LENGTH) if (t.includes(d)) t = t.split(d).join(' ');
  return t.replace(WORD, (w) => (NAMES.has(w) ? ' ' : w));
}
const latinRuns = (texts) => [...new Set(texts.flatMap((s) => strip(s).match(/[A-Za-z]{3,}(?:[\s,.;:'’-]+[A-Za-z]{2,})*/g) || []))];
const cjk = (texts) => [...new Set(texts.flatMap((s) => strip(s).match(/[\u3400-\u9fff\uff00-\uffef]+/g) || []))];

// Every visible text node under the page (and inside the widgets' shadow roots), engine messages included;
// the language picker's own option names are the only text shown in both languages.
function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const visible = (el) => el.getClientRects().length > 0;
    const walk = (rootNode) => {
      const walker = document.createTreeWalker(rootNode, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeType === Node.ELEMENT_NODE) { if (n.shadowRoot) walk(n.shadowRoot); continue; }
        const el = n.parentElement;
        if (!n.textContent.trim() || el.closest('script, style, #lang, code, .loading') || !visible(el)) continue;
        out.push(n.textContent.trim());
      }
    };
    walk(document.body);
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (el.closest('#lang')) continue;
      for (const a of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    return out;
  });
}

const panelDone = (page, id) => page.waitForFunction((i) => ['ready', 'error'].includes(document.querySelector(`#tool-${i}`)?.dataset.state)
  && !document.querySelector(`#tool-${i}-out`)?.hasAttribute('aria-busy'), id, { timeout: 60000 });

// One changed input per tool: a non-default run.
const CHANGES = {
  advise: async (page) => { await page.fill('#adv-params', '70000000000'); await page.press('#adv-params', 'Enter'); },
  // A typed measurement: the list, the calibrated rows and the line above the table.
  probe: async (page) => { await page.fill('#probe-paste', '3150 tokens/s on a100-sxm4-80gb x8'); await page.click('#probe-add'); },
  plan: null,
  mig: null,
  levers: null,
  compare: async (page) => page.click('#cmp-yolo'),
  energy: async (page) => page.selectOption('#en-gpu', 'a100-sxm4-40gb'),
};

// The message keys of the tool panels on screen (data-i18n), per language and stage: both languages must show the
// same strings, each one in the Chinese dictionary.
const KEYED = { en: {}, zh: {} };
const keyedTexts = (page) => page.$$eval('#tools [data-i18n], #sensitivity [data-i18n]',
  (els) => els.filter((el) => el.getClientRects().length > 0 || el.tagName === 'OPTION').map((el) => el.dataset.i18n));

function check(lang, where, texts) {
  if (lang === 'zh') assert.deepEqual(latinRuns(texts), [], `${where}: English words on the Chinese page`);
  else assert.deepEqual(cjk(texts), [], `${where}: Chinese characters on the English page`);
}

for (const lang of ['zh', 'en']) {
  test(`${lang}: every panel, the details of a spot and a reserved offer and the comparison speak ${lang}`, async () => {
    const cmp = ['aws-p5.48xlarge-us-east-1|on_demand', 'aws-p4d.24xlarge-us-east-1|spot'].map(encodeURIComponent);
    const { context, page, log } = await openPage(browser, `${base}#preset=gpt3-175b&lang=${lang}&ex=1&cmp=${cmp[0]}&cmp=${cmp[1]}`,
      { locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: 1400, height: 1000 } });
    await settled(page);
    for (const id of ['filters-panel', 'weights-panel', 'data-panel']) await page.evaluate((i) => { const d = document.getElementById(i); if (d) d.open = true; }, id);
    const texts = [];
    // Details of several offers: the cheapest, a spot and a reserved one, and the article's GN8 (claim checks).
    const keys = await page.$$eval('#ranking tbody tr', (trs) => trs.map((tr) => tr.dataset.key));
    const picks = [keys[0], keys.find((k) => k.endsWith('|spot')), keys.find((k) => k.endsWith('|reserved')), keys.find((k) => /gn8/i.test(k))].filter(Boolean);
    assert.ok(picks.length >= 3, 'offers to open');
    for (const [i, key] of picks.entries()) {
      await page.evaluate((k) => { location.hash = location.hash.replace(/&?sel=[^&]*/, '') + `&sel=${encodeURIComponent(k)}`; }, key);
      await page.waitForFunction(() => document.getElementById('details-title') && !document.getElementById('cost-breakdown-pending'), null, { timeout: 30000 });
      await settled(page);
      texts.push(...await visibleTexts(page));
      await elementShot(page, await page.$('#details'), `lang-${lang}-details-${i}.png`);
    }
    check(lang, 'page', texts);
    for (const id of ['overview', 'table-wrap', 'compare', 'charts', 'filters-panel', 'data-panel']) {
      const el = await page.$(`#${id}`);
      if (el) await elementShot(page, el, `lang-${lang}-${id}.png`);
    }
    assert.ok(texts.some((s) => (lang === 'zh' ? /可容纳/ : /fits on/).test(s)), 'the ranking reasons are on the page');
    assert.deepEqual(log.errors, []);
    await context.close();
  });

  test(`${lang}: all six decision tools, with default and changed inputs, speak ${lang}`, async () => {
    const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=${lang}&tool=advise`,
      { locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: 1400, height: 1000 } });
    await settled(page);
    const first = await page.$eval('#ranking tbody tr', (tr) => tr.dataset.key);
    await page.evaluate((k) => { location.hash += `&sel=${encodeURIComponent(k)}`; }, first);
    await settled(page);
    for (const tab of Object.keys(CHANGES)) {
      await page.click(`#tab-${tab}`);
      await panelDone(page, tab);
      await page.evaluate(() => { for (const d of document.querySelectorAll('#tools details')) d.open = true; });
      check(lang, `${tab} (defaults)`, await visibleTexts(page));
      KEYED[lang][`${tab} (defaults)`] = await keyedTexts(page);
      await elementShot(page, await page.$('#tools'), `lang-${lang}-tool-${tab}.png`);
      if (CHANGES[tab]) {
        // The change is taken when the tool's inputs in the URL change; then the panel's run finishes.
        const before = await page.evaluate(() => location.hash);
        await CHANGES[tab](page);
        await page.waitForFunction((h) => location.hash !== h, before, { timeout: 60000 });
        await panelDone(page, tab);
        await page.evaluate(() => { for (const d of document.querySelectorAll('#tools details')) d.open = true; });
        check(lang, `${tab} (changed)`, await visibleTexts(page));
        KEYED[lang][`${tab} (changed)`] = await keyedTexts(page);
        await elementShot(page, await page.$('#tools'), `lang-${lang}-tool-${tab}-changed.png`);
      }
    }
    await page.waitForFunction(() => document.querySelector('#sensitivity')?.dataset.state === 'ready', null, { timeout: 60000 });
    check(lang, 'sensitivity', await visibleTexts(page));
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('every tool panel shows the same strings in English and Chinese, each one translated', () => {
  const stages = Object.keys(KEYED.en);
  assert.ok(stages.length >= 10, `only ${stages.length} tool stages were read`);
  assert.deepEqual(Object.keys(KEYED.zh).sort(), [...stages].sort());
  for (const stage of stages) {
    assert.ok(KEYED.en[stage].length > 3, `${stage}: no message keys on screen`);
    assert.deepEqual(KEYED.zh[stage], KEYED.en[stage], `${stage}: the same strings on screen`);
    for (const key of KEYED.en[stage]) assert.ok(key in DICTS.zh, `${stage}: ${key} has no Chinese text`);
  }
});

test('the widget speaks the language of its lang attribute', async () => {
  const { context, page, log } = await openPage(browser, `${base}embed-example.html`);
  await page.waitForFunction(() => ['widget-en', 'widget-zh'].every((id) => document.getElementById(id)?.dataset.ready === '1'), null, { timeout: 90000 });
  const shadowTexts = (id) => page.evaluate((i) => {
    const out = [];
    const walker = document.createTreeWalker(document.getElementById(i).shadowRoot, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent.trim() && !n.parentElement.closest('style')) out.push(n.textContent.trim());
    return out;
  }, id);
  check('zh', 'widget zh', (await shadowTexts('widget-zh')).filter((s) => !s.startsWith('gpuvalue ·')));
  check('en', 'widget en', await shadowTexts('widget-en'));
  assert.ok((await shadowTexts('widget-zh')).some((s) => s.startsWith('¥')), 'Chinese readers see CNY');
  await page.evaluate(() => { const w = document.getElementById('widget-en'); w.dataset.ready = ''; w.setAttribute('lang', 'zh'); w.setAttribute('preset', 'gpt3-175b'); });
  await page.waitForFunction(() => document.getElementById('widget-en').dataset.ready === '1');
  check('zh', 'widget switched to zh', (await shadowTexts('widget-en')).filter((s) => !s.startsWith('gpuvalue ·')));
  await shot(page, 'lang-widgets.png', { fullPage: true });
  assert.deepEqual(log.errors, []);
  await context.close();
});
