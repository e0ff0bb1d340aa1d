// Scenario comparison: 2-4 configurations (a GPU type × count, optionally at a given hourly price, or a catalog
// offer) for one workload side by side, with the speed-up and cost ratio against a baseline explained by GPU
// count, per-GPU throughput and scaling; the article's YOLOv7 case (§1) is a one-click preset. engine.compare.
import { h, tx, engineText, dataText, shardingMessage, boundMessage } from '../views/dom.js';
import { NAMES } from '../state/names.js';
import { calibratedMark } from '../views/calibration.js';
import { field, numberInput, selectInput, num, times, workloadOf, moneyText, toUsdText, verdict, gpuOptions, put } from './form.js';

const DEFAULT_CONFIGS = 'g:h100-sxm5-80gb:8,g:a100-sxm4-80gb:8';
export const YOLO_PRESET = { w: 'yolov7-coco', c: 'g:a100-sxm4-80gb:8,g:v100-sxm2-16gb:4', pricing: '', base: '' };
const YOLO_SPEEDUP = 2.3;  // the article's claim, shown next to the engine's finding (the engine returns it too)

// "g:gpu:count[:usd]" or "i:instance[:nodes]" items, comma separated.
function parseConfigs(text) {
  return String(text || DEFAULT_CONFIGS).split(',').slice(0, 4).map((s) => {
    const [kind, a = '', b = '', d = ''] = s.split(':');
    return kind === 'i' ? { kind: 'i', instance: a, nodes: b } : { kind: 'g', gpu: a, count: b, usd: d };
  });
}
const configsText = (cs) => cs.map((x) => (x.kind === 'i' ? ['i', x.instance, x.nodes] : ['g', x.gpu, x.count, x.usd]).join(':').replace(/:+$/, '')).join(',');

export const comparePanel = {
  id: 'compare',
  titleKey: 'toolCompare',
  introKey: 'toolCompareIntro',
  inputsKey: (c, st) => JSON.stringify([parseConfigs(st.c).map((x) => x.kind), c.state.cmp.length >= 2]),

  inputs(c, st, io) {
    const { t, fmt, presets } = c;
    const cs = parseConfigs(st.c);
    const save = (rebuild = false) => io.set('c', configsText(cs), { rebuild });
    const name = (p) => (p.name && (p.name[c.state.lang] || p.name.en)) || p.id;
    const rows = cs.map((x, i) => {
      const id = (k) => `cmp-${k}-${i}`;
      const path = `/configs/${i}`;
      const cells = x.kind === 'i'
        ? [h('td', {}, dataText('span', x.instance, { class: 'cfg-instance' })),
          h('td', {}, h('label', { for: id('nodes'), class: 'sr-only' }, t('cmpNodesN', { n: i + 1 })),
            numberInput(id('nodes'), x.nodes, (v) => { x.nodes = v; save(); }, { min: 1, step: 1, placeholder: t('cmpAuto'), 'data-path': `${path}/nodes` })),
          h('td', {})]
        : [h('td', {}, h('label', { for: id('gpu'), class: 'sr-only' }, t('cmpGpuN', { n: i + 1 })),
          selectInput(id('gpu'), x.gpu, gpuOptions(c.gpus), (v) => { x.gpu = v; save(); }, { 'data-path': `${path}/gpu` })),
        h('td', {}, h('label', { for: id('count'), class: 'sr-only' }, t('cmpCountN', { n: i + 1 })),
          numberInput(id('count'), x.count, (v) => { x.count = v; save(); }, { min: 1, step: 1, 'data-path': `${path}/count` })),
        h('td', {}, h('label', { for: id('usd'), class: 'sr-only' }, t('cmpPriceN', { n: i + 1, cur: fmt.currency })),
          numberInput(id('usd'), moneyText(fmt, num(x.usd)), (v) => { x.usd = toUsdText(fmt, v); save(); }, { min: 0, placeholder: t('cmpCatalogPrice'), 'data-path': `${path}/usd_per_hour` }))];
      return h('tr', {}, h('th', { scope: 'row' }, t('cmpConfigN', { n: i + 1 })), ...cells,
        h('td', {}, cs.length > 2 ? h('button', { type: 'button', class: 'small', id: id('remove'), 'aria-label': t('cmpRemoveN', { n: i + 1 }),
          onclick: () => { cs.splice(i, 1); save(true); } }, t('remove')) : null));
    });
    const cmpRows = c.state.cmp;
    return [
      h('div', { class: 'actions' },
        h('button', { type: 'button', id: 'cmp-yolo', class: 'preset-button', onclick: () => io.setMany(YOLO_PRESET, { rebuild: true }) }, t('cmpYoloPreset')),
        h('button', { type: 'button', id: 'cmp-from-table', disabled: cmpRows.length < 2,
          onclick: () => {
            const ids = cmpRows.map((k) => k.split('|'));
            io.setMany({ c: configsText(ids.map(([inst]) => ({ kind: 'i', instance: inst, nodes: '' }))), pricing: ids[0][1] === 'on_demand' ? '' : ids[0][1], w: '' }, { rebuild: true });
          } }, t('cmpFromTable'))),
      h('div', { class: 'tool-grid' },
        field('cmp-workload', t('cmpWorkload'), selectInput('cmp-workload', st.w || 'current',
          [['current', t('cmpCurrentWorkload')], ...presets.map((p) => [p.id, name(p), true])], (v) => io.set('w', v === 'current' ? '' : v), { 'data-path': '/preset' })),
        field('cmp-pricing', t('colPricing'), selectInput('cmp-pricing', st.pricing || 'on_demand', NAMES.pricing_models.map((m) => [m, t(m)]), (v) => io.set('pricing', v === 'on_demand' ? '' : v), { 'data-path': '/pricing' })),
        field('cmp-base', t('cmpBaseline'), selectInput('cmp-base', st.base || '', [['', t('cmpBaselineAuto')], ...cs.map((_, i) => [String(i), t('cmpConfigN', { n: i + 1 })])],
          (v) => io.set('base', v), { 'data-path': '/baseline' }))),
      h('div', { class: 'scroll-x' }, h('table', { class: 'mini configs', id: 'cmp-configs' },
        h('caption', { class: 'cap' }, tx('span', t, 'cmpConfigs')),
        h('thead', {}, h('tr', {}, h('td', {}), tx('th', t, 'cmpGpuOrOffer', { scope: 'col' }), tx('th', t, 'cmpCount', { scope: 'col' }),
          h('th', { scope: 'col' }, t('cmpPrice', { cur: fmt.currency })), h('td', {}))),
        h('tbody', {}, rows))),
      h('div', { class: 'actions' }, h('button', { type: 'button', id: 'cmp-add', disabled: cs.length >= 4,
        onclick: () => { cs.push({ kind: 'g', gpu: 'l40s', count: '8', usd: '' }); save(true); } }, t('cmpAdd'))),
    ];
  },

  calls(c, st) {
    const configs = parseConfigs(st.c).map((x) => {
      if (x.kind === 'i') { const o = { instance: x.instance }; if (num(x.nodes) !== undefined) o.nodes = num(x.nodes); return o; }
      const o = { gpu: x.gpu, count: num(x.count) ?? null };
      if (num(x.usd) !== undefined) o.usd_per_hour = num(x.usd);
      return o;
    });
    const req = { ...(st.w && st.w !== 'current' ? { preset: st.w } : workloadOf(c)), pricing: st.pricing || 'on_demand', configs };
    if (st.base !== undefined && st.base !== '') req.baseline = Number(st.base);
    // The user's measurements are of the workload on screen: they calibrate its comparison, not another preset's.
    if (!(st.w && st.w !== 'current') && c.state.measurements.length) req.measurements = c.state.measurements;
    return [{ method: 'compare', request: req }];
  },

  render(out, [r], c) {
    const { t, fmt } = c;
    const cfgs = r.configs;
    const line = (key, show, attrs = {}) => h('tr', attrs, tx('th', t, key, { scope: 'row' }), cfgs.map((x, i) => h('td', { class: i === r.baseline ? 'baseline' : '' }, show(x, i))));
    const table = h('div', { class: 'scroll-x' }, h('table', { class: 'compare scenarios', id: 'cmp-table' },
      h('thead', {}, h('tr', {}, h('td', {}), cfgs.map((x, i) => h('th', { scope: 'col', class: i === r.baseline ? 'baseline' : '' },
        dataText('span', x.label), i === r.baseline ? tx('span', t, 'cmpIsBaseline', { class: 'badge' }) : null)))),
      h('tbody', {},
        line('advOffer', (x) => (x.instance ? dataText('span', `${x.instance} · ${x.provider}`) : tx('span', t, 'cmpGivenPrice'))),
        line('colHourly', (x) => fmt.money(x.usd_per_hour)),
        line('colTime', (x) => h('span', { 'data-v': x.time_hours }, fmt.duration(x.time_hours))),
        line('colCost', (x) => h('span', { 'data-v': x.cost_usd }, fmt.money(x.cost_usd))),
        line('cmpSpeedup', (x) => h('strong', { 'data-v': x.speedup_vs_baseline, class: 'speedup' }, times(fmt, x.speedup_vs_baseline)), { class: 'key' }),
        line('cmpCostRatio', (x) => h('strong', { 'data-v': x.cost_ratio_vs_baseline, class: 'cost-ratio' }, times(fmt, x.cost_ratio_vs_baseline)), { class: 'key' }),
        cfgs.some((x) => x.calibrated) ? line('calibBadge', (x) => calibratedMark(x, c) || '—', { id: 'cmp-calibrated' }) : null,
        line('colFits', (x) => (x.fits ? t('yes') : t('no'))),
        line('precision', (x) => String(x.precision).toUpperCase()),
        line('cmpPerGpu', (x) => fmt.num(x.single_gpu_tflops, 1)),
        line('bound', (x) => engineText('span', boundMessage(x.bound))),
        line('scalingEff', (x) => fmt.pct(x.scaling_efficiency, 0)),
        line('sharding', (x) => engineText('span', shardingMessage(x.sharding))),
        cfgs.some((x) => x.notes.length) ? line('cmpNote', (x) => (x.notes.length ? engineText('span', x.notes, { class: 'note-text' }) : ''), { class: 'notes-row' }) : null)));
    const why = h('ul', { class: 'explanations', id: 'cmp-explanations' }, cfgs.map((x) => h('li', {}, dataText('strong', x.label), ': ', engineText('span', x.explanation),
      x.notes.length ? h('span', { class: 'sub' }, ' (', engineText('span', x.notes), ')') : null)));
    const sources = h('details', { class: 'source' }, tx('summary', t, 'sourceTitle'),
      h('ul', {}, cfgs.map((x) => h('li', {}, dataText('span', x.label), ': ', engineText('span', x.price_source)))));
    put(out, tx('p', t, 'cmpHow', { class: 'sub' }), table, tx('h3', t, 'cmpWhy'), why, sources);
    const a = r.article_claim;
    if (a) {
      const agrees = Math.abs(a.model_speedup - a.claimed_speedup) / a.claimed_speedup < 0.15;
      put(out, tx('h3', t, 'cmpArticleTitle'), h('div', { class: 'verdict-box', id: 'cmp-claim', 'data-agrees': agrees ? '1' : '0' },
        h('p', {}, tx('strong', t, 'cmpArticleClaim'), ' ', engineText('span', a.claim), ' ', h('span', { class: 'sub' }, '(', engineText('span', a.source), ')')),
        h('div', { class: 'scroll-x' }, h('table', { class: 'mini' },
          h('thead', {}, h('tr', {}, h('td', {}), tx('th', t, 'planClaim', { scope: 'col' }), tx('th', t, 'planModel', { scope: 'col' }))),
          h('tbody', {},
            h('tr', {}, tx('th', t, 'cmpSpeedup', { scope: 'row' }), h('td', { class: 'num' }, times(fmt, a.claimed_speedup ?? YOLO_SPEEDUP)),
              h('td', { class: 'num', id: 'cmp-model-speedup', 'data-v': a.model_speedup }, times(fmt, a.model_speedup), ' ', verdict(t, agrees))),
            h('tr', {}, tx('th', t, 'cmpCostChange', { scope: 'row' }), h('td', { class: 'num' }, signedPct(fmt, a.claimed_cost_change)),
              h('td', { class: 'num', 'data-v': a.model_cost_change }, signedPct(fmt, a.model_cost_change)))))),
        engineText('p', a.finding, { class: 'engine-note' })));
    }
  },
};

const signedPct = (fmt, x) => (Number.isFinite(x) ? `${x > 0 ? '+' : x < 0 ? '−' : ''}${fmt.pct(Math.abs(x), 0)}` : '—');
