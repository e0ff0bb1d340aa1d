// Spot/reserved portfolio planner: a year of GPU demand -> the cheapest reserved / on-demand / spot mix that
// meets a completion target, its yearly cost and saving, every assumption with its source; or the article's
// start-up example (§4: 30 % spot + 70 % reserved, "58 % lower cost, 98.7 % completion") checked. engine.plan,
// run in the engine worker.
import { h, tx, engineText } from '../views/dom.js';
import { field, numberInput, selectInput, num, kpi, verdict, assumptionsTable, moneyText, toUsdText, put } from './form.js';

// A share as the percentage typed in the form (0.987 -> '98.7', without floating-point tails).
const percentText = (share) => String(+(share * 100).toPrecision(12));

// The demand form starts from the engine's article example (defaults().planner_example).
function demandDefaults(c) {
  const ex = c.defaults.planner_example;
  const inst = c.catalog.reservable.find((o) => o.id === ex.instance) || c.catalog.reservable[0];
  return {
    months: Array(12).fill(String(ex.monthly_gpu_hours)), peak: String(ex.gpus), inter: percentText(ex.interruptible_fraction),
    target: percentText(ex.target_completion_rate), inst: inst ? inst.id : '', gran: inst ? String(inst.gpu_count) : '1', task: String(ex.task_hours),
  };
}

function demandState(c, st) {
  const d = demandDefaults(c);
  const months = String(st.months || '').split(',');
  return {
    months: d.months.map((v, i) => (st.months !== undefined ? (months[i] ?? '') : v)),
    peak: st.peak ?? d.peak, inter: st.inter ?? d.inter, target: st.target ?? d.target,
    inst: st.inst ?? d.inst, gran: st.gran ?? d.gran, task: st.task ?? d.task, od: st.od, rv: st.rv, sp: st.sp,
  };
}

export const planPanel = {
  id: 'plan',
  titleKey: 'toolPlan',
  introKey: 'toolPlanIntro',
  inputsKey: (c, st) => JSON.stringify([st.src || 'article', st.inst === 'own']),

  inputs(c, st, io) {
    const { t, fmt, catalog } = c;
    const src = st.src || 'article';
    const radios = h('fieldset', { class: 'radios' }, tx('legend', t, 'planSource'),
      h('input', { type: 'radio', name: 'plan-src', id: 'plan-src-article', value: 'article', checked: src === 'article', onchange: () => io.set('src', '', { rebuild: true }) }),
      tx('label', t, 'planSourceArticle', { for: 'plan-src-article' }),
      h('input', { type: 'radio', name: 'plan-src', id: 'plan-src-demand', value: 'demand', checked: src === 'demand', onchange: () => io.set('src', 'demand', { rebuild: true }) }),
      tx('label', t, 'planSourceDemand', { for: 'plan-src-demand' }));
    if (src === 'article') return [radios, tx('p', t, 'planArticleNote', { class: 'sub' })];

    const d = demandState(c, st);
    const monthName = new Intl.DateTimeFormat(fmt.locale, { month: 'short', timeZone: 'UTC' });
    const months = d.months.slice();
    const monthInputs = months.map((v, i) => h('div', { class: 'field month' },
      h('label', { for: `plan-m${i}` }, monthName.format(new Date(Date.UTC(2026, i, 15)))),
      numberInput(`plan-m${i}`, v, (x) => { months[i] = x; io.set('months', months.join(',')); }, { min: 0, 'data-path': `/demand/monthly_gpu_hours/${i}` })));
    // Stale prices are listed only when the page shows them (the filters' switch), as in the ranking.
    const reservable = catalog.reservable.filter((o) => !o.stale || !c.state.filters.hideStale || o.id === d.inst);
    const instOptions = [['own', t('planOwnPrices')], ...reservable.map((o) => [o.id, `${o.instance} · ${o.provider} · ${o.region} (${o.gpu_count}× ${o.gpu})`, true])];
    const usdField = (id, key, labelKey) => field(id, t(labelKey, { cur: fmt.currency }),
      numberInput(id, moneyText(fmt, num(d[key])), (x) => io.set(key, toUsdText(fmt, x)), { min: 0, 'data-path': '/demand/prices' }));
    return [
      radios,
      h('fieldset', { class: 'months' }, tx('legend', t, 'planMonths'), h('div', { class: 'month-grid' }, monthInputs)),
      h('div', { class: 'tool-grid' },
        field('plan-peak', t('planPeak'), numberInput('plan-peak', d.peak, (x) => io.set('peak', x), { min: 0, 'data-path': '/demand/peak_gpus' })),
        field('plan-inter', t('planInterruptible'), numberInput('plan-inter', d.inter, (x) => io.set('inter', x), { min: 0, max: 100, 'data-path': '/demand/interruptible_fraction' })),
        field('plan-target', t('planTarget'), numberInput('plan-target', d.target, (x) => io.set('target', x), { min: 0, max: 100, 'data-path': '/demand/target_completion_rate' })),
        field('plan-task', t('planTaskHours'), numberInput('plan-task', d.task, (x) => io.set('task', x), { min: 0, 'data-path': '/demand/spot/task_hours' })),
        field('plan-inst', t('planPrices'), selectInput('plan-inst', d.inst, instOptions, (v) => {
          const o = catalog.reservable.find((x) => x.id === v);
          io.setMany({ inst: v, gran: o ? String(o.gpu_count) : '1' }, { rebuild: true });
        }, { 'data-path': '/demand/instance' })),
        field('plan-gran', t('planGranularity'), numberInput('plan-gran', d.gran, (x) => io.set('gran', x), { min: 0, 'data-path': '/demand/reserved_granularity_gpus' }))),
      d.inst === 'own' ? h('div', { class: 'tool-grid' },
        usdField('plan-od', 'od', 'planOnDemandPrice'), usdField('plan-rv', 'rv', 'planReservedPrice'), usdField('plan-sp', 'sp', 'planSpotPrice')) : null,
      h('div', { class: 'actions' }, h('button', { type: 'button', id: 'plan-reset', onclick: () => io.setMany({ months: '', peak: '', inter: '', target: '', inst: '', gran: '', task: '', od: '', rv: '', sp: '' }, { rebuild: true }) }, t('planReset'))),
    ];
  },

  calls(c, st) {
    if ((st.src || 'article') === 'article') return [{ method: 'plan', request: { example: 'article' } }];
    const d = demandState(c, st);
    const pct = (x) => (num(x) === undefined ? undefined : num(x) / 100);
    const demand = {
      monthly_gpu_hours: d.months.map((x) => num(x) ?? null),
      peak_gpus: num(d.peak),
      interruptible_fraction: pct(d.inter),
      target_completion_rate: pct(d.target),
      reserved_granularity_gpus: num(d.gran),
      spot: { task_hours: num(d.task) },
    };
    if (d.inst && d.inst !== 'own') demand.instance = d.inst;
    else demand.prices = { on_demand_usd_per_gpu_hour: num(d.od), reserved_usd_per_gpu_hour: num(d.rv), spot_usd_per_gpu_hour: num(d.sp) };
    return [{ method: 'plan', request: { demand } }];
  },

  render(out, [r], c, st, io) {
    const { t, fmt } = c;
    const met = r.completion_rate >= r.target_completion_rate - 1e-12;
    const kpis = h('div', { class: 'kpis', id: 'plan-kpis' },
      kpi(t('planYearly'), fmt.money(r.annual_cost_usd), { 'data-v': r.annual_cost_usd, id: 'plan-yearly' }),
      kpi(t('planAllOnDemand'), fmt.money(r.on_demand_only_cost_usd), { 'data-v': r.on_demand_only_cost_usd }),
      kpi(t('planSaving'), fmt.pct(r.saving, 1), { 'data-v': r.saving, id: 'plan-saving' }),
      kpi(t('planCompletion'), h('span', {}, fmt.pct(r.completion_rate, 2), ' ', tx('span', t, met ? 'planTargetMet' : 'planTargetMissed', { class: `badge ${met ? 'ok' : 'bad'}` })),
        { 'data-v': r.completion_rate, id: 'plan-completion' }),
      kpi(t('planReservedGpus'), `${fmt.num(r.reserved_gpus, 1)} · ${t('planUsed', { p: fmt.pct(r.reserved_utilisation, 0) })}`));
    put(out, kpis, mixBar(t, fmt, r.mix, 'plan-mix'),
      h('p', { class: 'sub' }, t('planBreakdown', { reserved: fmt.money(r.cost_breakdown_usd.reserved), onDemand: fmt.money(r.cost_breakdown_usd.on_demand), spot: fmt.money(r.cost_breakdown_usd.spot) }),
        ' · ', t('planSpotModel', { paid: fmt.num(r.spot_model.paid_hours_per_useful_hour, 3), done: fmt.pct(r.spot_model.task_completion, 2) })));

    const canvas = h('canvas', { id: 'plan-monthly-chart', role: 'img', 'aria-label': t('planMonthlyAria') });
    put(out, h('figure', { class: 'chart tool-chart' }, tx('figcaption', t, 'planMonthly'), h('div', { class: 'chart-box short' }, canvas)));

    if (r.example === 'article' && r.article_claim) {
      const a = r.article_mix;
      const claim = r.article_claim;
      const agrees = Math.abs(a.saving - claim.saving) < 0.02;
      put(out, tx('h3', t, 'planArticleTitle'),
        h('div', { class: 'verdict-box', id: 'plan-claim', 'data-agrees': agrees ? '1' : '0' },
          engineText('p', claim.source, { class: 'sub' }),
          h('div', { class: 'scroll-x' }, h('table', { class: 'mini' },
            h('thead', {}, h('tr', {}, h('td', {}), tx('th', t, 'planClaim', { scope: 'col' }), tx('th', t, 'planModel', { scope: 'col' }))),
            h('tbody', {},
              h('tr', {}, tx('th', t, 'planSaving', { scope: 'row' }), h('td', { class: 'num' }, fmt.pct(claim.saving, 0)), h('td', { class: 'num', id: 'plan-model-saving' }, fmt.pct(a.saving, 1), ' ', verdict(t, agrees))),
              h('tr', {}, tx('th', t, 'planCompletion', { scope: 'row' }), h('td', { class: 'num' }, fmt.pct(claim.completion_rate, 1)), h('td', { class: 'num' }, fmt.pct(a.completion_rate, 2))),
              h('tr', {}, tx('th', t, 'planMix', { scope: 'row' }), h('td', {}, mixText(t, fmt, claim.mix)), h('td', {}, mixText(t, fmt, a.mix)))))),
          h('ul', { class: 'facts' },
            h('li', {}, t('planNeededRate', { rate: fmt.money(r.reserved_rate_needed_for_claim_usd_per_gpu_hour), share: fmt.pct(r.reserved_rate_needed_for_claim_share_of_on_demand, 0) })),
            h('li', {}, t('planNeededInterruptions', { rate: fmt.sig(r.interruptions_per_hour_for_claimed_completion, 2), every: fmt.duration(1 / r.interruptions_per_hour_for_claimed_completion) })),
            ...(r.sensitivity || []).map((s) => h('li', {}, engineText('span', s.case), ': ', t('planSensitivityCase', { saving: fmt.pct(s.article_mix_saving, 1), done: fmt.pct(s.article_mix_completion_rate, 2) }))))));
    }
    put(out, tx('h3', t, 'findingsTitle'), h('ul', { class: 'findings', id: 'plan-findings' }, r.findings.map((f) => engineText('li', f))),
      tx('h3', t, 'assumptionsTitle'), assumptionsTable(t, fmt, r.assumptions, 'plan-assumptions'));

    const col = io.palette();
    const months = new Intl.DateTimeFormat(fmt.locale, { month: 'short', timeZone: 'UTC' });
    io.chart(canvas, {
      type: 'bar',
      data: { labels: r.monthly_cost_usd.map((_, i) => months.format(new Date(Date.UTC(2026, i, 15)))),
        datasets: [{ label: t('planYearly'), data: r.monthly_cost_usd.map((v) => v * fmt.factor), backgroundColor: col.bar, borderWidth: 0 }] },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: false },
        tooltip: { callbacks: { label: (item) => fmt.money(item.raw / fmt.factor) } } },
      scales: { x: { ticks: { color: col.muted }, grid: { display: false } },
        y: { beginAtZero: true, ticks: { color: col.muted, callback: (v) => fmt.money(Number(v) / fmt.factor, { digits: 0 }) }, grid: { color: col.grid },
          title: { display: true, text: t('planMonthlyAxis', { cur: fmt.currency }), color: col.fg } } } },
    });
  },
};

export function mixText(t, fmt, mix) {
  return `${t('reserved')} ${fmt.pct(mix.reserved, 0)} · ${t('on_demand')} ${fmt.pct(mix.on_demand, 0)} · ${t('spot')} ${fmt.pct(mix.spot, 0)}`;
}

// The mix as one stacked bar (reserved, on-demand, spot), with the shares written out for screen readers.
function mixBar(t, fmt, mix, id) {
  const seg = (k, v) => (v > 0.0005 ? h('span', { class: `seg seg-${k}`, style: `flex-grow:${v}`, 'data-v': v, title: `${t(k)} ${fmt.pct(v, 1)}` }, v > 0.08 ? `${t(k)} ${fmt.pct(v, 0)}` : '') : null);
  return h('div', { class: 'mix', id },
    h('div', { class: 'mix-bar', role: 'img', 'aria-label': mixText(t, fmt, mix) }, seg('reserved', mix.reserved), seg('on_demand', mix.on_demand), seg('spot', mix.spot)),
    h('p', { class: 'sub mix-legend' }, mixText(t, fmt, mix)));
}

