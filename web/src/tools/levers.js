// Cost levers for the current workload on the offer shown in the details panel: mixed precision, spot,
// reserved, MIG, more and fewer GPUs, each with time and cost before and after. engine.levers.
import { h, tx, txv, engineText, dataText } from '../views/dom.js';
import { kpi, times, workloadOf, scopeOf, put } from './form.js';

const LEVERS = ['mixed_precision', 'spot', 'reserved', 'mig', 'more_gpus', 'fewer_gpus'];

export const leversPanel = {
  id: 'levers',
  titleKey: 'toolLevers',
  introKey: 'toolLeversIntro',

  inputs(c) {
    return [tx('p', c.t, 'leversHow', { class: 'sub' })];
  },

  calls(c) {
    const row = c.selected;
    if (!row) return { messageKey: 'leversNeedOffer' };
    // The selected row's node count: the levers start from the configuration the table shows.
    return [{ method: 'levers', request: { ...workloadOf(c), instance: row.id, pricing: row.pricing, nodes: row.nodes, ...scopeOf(c) } }];
  },

  render(out, [r], c) {
    const { t, fmt } = c;
    const b = r.baseline;
    const row = c.selected;
    const delta = (ratio) => {
      if (!(ratio > 0)) return '—';
      const d = ratio - 1;
      return h('span', { class: d < -1e-9 ? 'better' : d > 1e-9 ? 'worse' : '' }, `${d > 0 ? '+' : d < 0 ? '−' : '±'}${fmt.pct(Math.abs(d), 0)}`);
    };
    const head = h('p', { class: 'summary-line', id: 'levers-context' },
      txv('span', t, 'leversContext', { instance: dataText('span', r.instance), provider: dataText('span', row ? `${row.provider} · ${row.region}` : ''), pricing: t(r.pricing) }));
    const base = h('div', { class: 'kpis', id: 'levers-baseline' },
      kpi(t('colGpu'), fmt.int(b.gpu_count)), kpi(t('precision'), String(b.precision).toUpperCase()),
      kpi(t('colTime'), fmt.duration(b.time_hours), { 'data-v': b.time_hours }), kpi(t('colCost'), fmt.money(b.cost_usd), { 'data-v': b.cost_usd }));
    const order = (l) => { const i = LEVERS.indexOf(l.lever); return i < 0 ? 99 : i; };
    const levers = r.levers.slice().sort((a, b2) => order(a) - order(b2));
    const table = h('div', { class: 'scroll-x' }, h('table', { class: 'mini levers', id: 'levers-table' },
      h('thead', {}, h('tr', {}, ['leverName', 'leverTime', 'leverCost', 'leverSpeed', 'leverCostChange', 'leverWhy'].map((k) => tx('th', t, k, { scope: 'col' })))),
      h('tbody', {}, levers.map((l) => {
        const ok = l.applicable && l.after;
        return h('tr', { 'data-lever': l.lever, class: ok ? '' : 'na' },
          h('th', { scope: 'row' }, tx('span', t, `lever_${l.lever}`), ok ? null : h('span', { class: 'sub' }, ` (${t('leverNa')})`),
            l.estimated ? tx('span', t, 'leverEstimated', { class: 'badge stale' }) : null),
          h('td', { class: 'num' }, ok ? `${fmt.duration(l.before.time_hours)} → ${fmt.duration(l.after.time_hours)}` : '—'),
          h('td', { class: 'num' }, ok ? `${fmt.money(l.before.cost_usd)} → ${fmt.money(l.after.cost_usd)}` : '—'),
          h('td', { class: 'num', 'data-v': l.speedup ?? '' }, ok ? times(fmt, l.speedup) : '—'),
          h('td', { class: 'num', 'data-v': l.cost_ratio ?? '' }, ok ? delta(l.cost_ratio) : '—'),
          h('td', { class: 'note' }, engineText('span', l.note),
            ok && l.after.instance !== b.instance ? h('span', { class: 'sub' }, ' · ', dataText('span', `${l.after.gpu_count}× · ${l.after.instance}`)) : null,
            h('details', { class: 'source' }, tx('summary', t, 'priceSource'), engineText('p', l.source))));
      }))));
    put(out, head, base, table, r.warnings.length ? h('ul', { class: 'warnings' }, r.warnings.map((w) => engineText('li', w))) : null);
  },
};

// A UI sentence with nodes in its {placeholders} (data stays marked as data inside the translated text).
