// Serverless planner: a day's load curve (GPUs busy in each hour, editable) bought as serverless workers billed per
// second, or as on-demand (all day or hour by hour), reserved or spot instances of the same GPU; the idle share each
// leaves, the cheapest, and the article's "65 % less idle waste" (§5) checked on this day. engine.serverless, run in
// the engine worker.
import { h, tx, engineText, dataText, priceDate } from '../views/dom.js';
import { field, numberInput, selectInput, num, kpi, verdict, assumptionsTable, put } from './form.js';

const HOURS = 24;

function loadState(c, st) {
  const parts = String(st.load || '').split(',');
  return Array.from({ length: HOURS }, (_, i) => (st.load !== undefined ? (parts[i] ?? '') : ''));
}

export const serverlessPanel = {
  id: 'serverless',
  titleKey: 'toolServerless',
  introKey: 'toolServerlessIntro',
  inputsKey: (c, st) => JSON.stringify([st.offer || '']),

  inputs(c, st, io) {
    const { t, catalog } = c;
    const offers = catalog.serverless || [];
    const offer = st.offer || (offers[0] ? offers[0].id : '');
    const load = loadState(c, st);
    const hourInputs = load.map((v, i) => h('div', { class: 'field month' },
      h('label', { for: `sl-h${i}` }, t('slHour', { h: String(i).padStart(2, '0') })),
      numberInput(`sl-h${i}`, v, (x) => { load[i] = x; io.set('load', load.some((y) => y !== '') ? load.join(',') : ''); },
        { min: 0, placeholder: t('slDefault'), 'data-path': `/load_gpus/${i}` })));
    return [
      h('div', { class: 'tool-grid' },
        field('sl-offer', t('slOffer'), selectInput('sl-offer', offer, offers.map((o) => [o.id, `${o.instance} · ${o.provider} (${o.gpu})`, true]),
          (v) => io.set('offer', v, { rebuild: true }), { 'data-path': '/offer' })),
        field('sl-cold', t('slColdStart'), numberInput('sl-cold', st.cold ?? '', (x) => io.set('cold', x), { min: 0, placeholder: t('slDefault'), 'data-path': '/cold_start_s' })),
        field('sl-idle', t('slIdleTimeout'), numberInput('sl-idle', st.idle ?? '', (x) => io.set('idle', x), { min: 0, placeholder: t('slDefault'), 'data-path': '/idle_timeout_s' })),
        field('sl-cap', t('slMaxConcurrency'), numberInput('sl-cap', st.cap ?? '', (x) => io.set('cap', x), { min: 1, placeholder: t('slDefault'), 'data-path': '/max_concurrency' }))),
      h('fieldset', { class: 'months' }, tx('legend', t, 'slLoad'), h('div', { class: 'month-grid' }, hourInputs)),
      h('div', { class: 'actions' }, h('button', { type: 'button', id: 'sl-reset', onclick: () => io.setMany({ load: '', cold: '', idle: '', cap: '' }, { rebuild: true }) }, t('planReset'))),
    ];
  },

  calls(c, st) {
    const offers = c.catalog.serverless || [];
    const offer = st.offer || (offers[0] ? offers[0].id : '');
    if (!offer) return { messageKey: 'slNoOffer' };
    const request = { offer };
    const load = loadState(c, st);
    // Hours left empty count as idle once any hour is typed; all empty = the engine's example day.
    if (load.some((x) => x !== '')) request.load_gpus = load.map((x) => num(x) ?? 0);
    if (num(st.cold) !== undefined) request.cold_start_s = num(st.cold);
    if (num(st.idle) !== undefined) request.idle_timeout_s = num(st.idle);
    if (num(st.cap) !== undefined) request.max_concurrency = num(st.cap);
    return [{ method: 'serverless', request }];
  },

  render(out, [r], c) {
    const { t, fmt } = c;
    const sl = r.options.find((o) => o.option === 'serverless');
    const claim = r.article_claim;
    put(out, h('div', { class: 'kpis', id: 'sl-kpis' },
      kpi(t('slBusy'), `${fmt.num(r.busy_gpu_hours, 1)} · ${t('slPeak', { n: fmt.num(r.peak_gpus, 1) })}`, { 'data-v': r.busy_gpu_hours }),
      kpi(t('slCheapest'), r.cheapest ? t(`slOpt_${r.cheapest}`) : '—', { id: 'sl-cheapest', 'data-v': r.cheapest }),
      kpi(t('slIdleAvoided'), sl && sl.available ? fmt.pct(sl.idle_avoided_share, 1) : '—', { id: 'sl-avoided', 'data-v': sl ? sl.idle_avoided_share : 0 })),
    r.instance ? h('p', { class: 'sub' }, t('slCompared', { date: priceDate(t, fmt, r.instance) }), ' ', dataText('span', `${r.instance.instance} · ${r.instance.provider}`)) : null,
    h('div', { class: 'scroll-x' }, h('table', { class: 'mini', id: 'sl-options' },
      h('thead', {}, h('tr', {}, ...['slOption', 'slRate', 'slBilled', 'slIdle', 'slIdleAvoided', 'slCost'].map((k) => tx('th', t, k, { scope: 'col' })))),
      h('tbody', {}, r.options.map((o) => h('tr', { 'data-option': o.option, 'data-available': o.available ? '1' : '0' },
        tx('th', t, `slOpt_${o.option}`, { scope: 'row' }),
        h('td', { class: 'num' }, o.available ? fmt.money(o.usd_per_gpu_hour) : '—'),
        h('td', { class: 'num' }, o.available ? fmt.num(o.billed_gpu_hours, 1) : '—'),
        h('td', { class: 'num' }, o.available ? fmt.pct(o.idle_share, 1) : '—'),
        h('td', { class: 'num' }, o.available ? fmt.pct(o.idle_avoided_share, 1) : '—'),
        h('td', { class: 'num', 'data-v': o.cost_usd }, o.available ? fmt.money(o.cost_usd) : t('slUnavailable'))))))),
    h('div', { class: 'verdict-box', id: 'sl-claim', 'data-holds': claim.holds ? '1' : '0' },
      engineText('p', claim.claim, { class: 'sub' }), engineText('p', claim.source, { class: 'sub' }),
      claim.comparable ? h('p', {}, t('slClaimResult', { claimed: fmt.pct(claim.claimed_idle_reduction, 0), here: fmt.pct(claim.idle_reduction, 1) }), ' ', verdict(t, claim.holds))
        : tx('p', t, 'slNotComparable')),
    r.warnings.length ? h('ul', { class: 'findings' }, r.warnings.map((w) => engineText('li', w))) : null,
    tx('h3', t, 'assumptionsTitle'), assumptionsTable(t, fmt, r.assumptions, 'sl-assumptions'));
  },
};
