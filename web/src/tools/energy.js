// Energy and TCO: the job's electricity (TDP × utilisation × hours × PUE), its cost and CO2 at a grid intensity,
// air against liquid cooling (with the article's §5 PUE claim checked), and owning the GPUs against renting them
// with the break-even utilisation. engine.energy and engine.tco.
import { h, tx, txv, engineText, dataText } from '../views/dom.js';
import { NAMES } from '../state/names.js';
import { field, numberInput, selectInput, num, kpi, kv, verdict, assumptionsTable, moneyText, toUsdText, workloadOf, gpuOptions, put, errorBox } from './form.js';

function hardware(c, st) {
  const row = c.selected;
  return { gpu: st.gpu || (row ? row.gpu : 'a100-sxm4-40gb'), count: st.count ?? String(row ? row.total_gpus : 8) };
}

const coolingOf = (st) => (st.cool === 'liquid' ? 'liquid' : 'air');
// The site's grid, whose electricity price and CO2 stand in for the ones not typed: China's for a Chinese reader.
const GRIDS = ['world', 'china'];
const gridOf = (c, st) => (GRIDS.includes(st.grid) ? st.grid : c.state.lang === 'zh' ? 'china' : 'world');

export const energyPanel = {
  id: 'energy',
  ownErrors: true,  // a missing purchase price stops only the TCO half: its error is shown there
  titleKey: 'toolEnergy',
  introKey: 'toolEnergyIntro',
  inputsKey: (c, st) => JSON.stringify(st.gpu && st.count ? [] : hardware(c, st)),
  // No purchase price typed and none the engine has a source for: TCO asks for one (not an error of the panel).
  prompt: (r, st) => num(st.purchase) === undefined && Boolean(r.error) && r.error.path === '/purchase_usd',

  inputs(c, st, io) {
    const { t, fmt, gpus } = c;
    const dd = c.defaults.decisions;  // the engine's sourced defaults, shown as placeholders
    const hw = hardware(c, st);
    const grid = dd.grids[gridOf(c, st)];
    const money = (id, key, labelKey, path, attrs = {}) => field(id, t(labelKey, { cur: fmt.currency }),
      numberInput(id, moneyText(fmt, num(st[key])), (v) => io.set(key, toUsdText(fmt, v)), { min: 0, 'data-path': path, ...attrs }));
    const plain = (id, key, labelKey, path, attrs = {}) => field(id, t(labelKey), numberInput(id, st[key] ?? '', (v) => io.set(key, v), { min: 0, 'data-path': path, ...attrs }));
    return [
      h('fieldset', { class: 'group' }, tx('legend', t, 'enHardware'),
        h('div', { class: 'tool-grid' },
          field('en-gpu', t('migGpu'), selectInput('en-gpu', hw.gpu, gpuOptions(gpus), (v) => io.set('gpu', v), { 'data-path': '/gpu' })),
          field('en-count', t('enCount'), numberInput('en-count', hw.count, (v) => io.set('count', v), { min: 1, step: 1, 'data-path': '/count' })),
          plain('en-hours', 'hours', 'enHours', '/hours', { placeholder: t('enHoursAuto') }),
          plain('en-util', 'util', 'enUtil', '/utilisation', { max: 100, placeholder: '100' }))),
      h('fieldset', { class: 'group' }, tx('legend', t, 'enSite'),
        h('div', { class: 'tool-grid' },
          field('en-cool', t('enCooling'), selectInput('en-cool', coolingOf(st), NAMES.cooling.map((k) => [k, t(k === 'air' ? 'enAir' : 'enLiquid')]), (v) => io.set('cool', v === 'air' ? '' : v), { 'data-path': '/cooling' })),
          plain('en-pue', 'pue', 'enPue', '/pue', { min: 1, max: 5, placeholder: (coolingOf(st) === 'liquid' ? dd.pue_liquid_cooled : dd.pue_air_cooled).toFixed(2) }),
          field('en-grid', t('enGrid'), selectInput('en-grid', gridOf(c, st), GRIDS.map((k) => [k, t(k === 'china' ? 'enGridChina' : 'enGridWorld')]), (v) => io.set('grid', v), { 'data-path': '/grid' })),
          money('en-kwh', 'kwh', 'enPrice', '/usd_per_kwh', { placeholder: moneyText(fmt, grid.electricity_usd_per_kwh) }),
          plain('en-co2', 'co2', 'enCo2', '/kg_co2_per_kwh', { placeholder: String(grid.grid_kg_co2_per_kwh) }))),
      h('fieldset', { class: 'group' }, tx('legend', t, 'enOwnVsRent'),
        h('div', { class: 'tool-grid' },
          field('en-purchase', t('enPurchase', { cur: fmt.currency }),
            numberInput('en-purchase', moneyText(fmt, num(st.purchase)), (v) => io.set('purchase', toUsdText(fmt, v)), { min: 0, 'data-path': '/purchase_usd', 'aria-describedby': 'en-purchase-hint' }),
            tx('span', t, 'enPurchaseHint', { class: 'hint', id: 'en-purchase-hint' })),
          plain('en-years', 'years', 'enYears', '/amortisation_years', { placeholder: String(dd.amortisation_years) }),
          money('en-rent', 'rent', 'enRent', '/rent_usd_per_gpu_hour', { placeholder: t('enRentAuto') }),
          money('en-other', 'other', 'enOther', '/other_usd_per_year', { placeholder: moneyText(fmt, 0) }),
          plain('en-tu', 'tu', 'enTcoUtil', '/utilisation', { max: 100, placeholder: t('enTcoUtilNone') }))),
    ];
  },

  calls(c, st) {
    const hw = hardware(c, st);
    const site = { gpu: hw.gpu, count: num(hw.count) ?? null, cooling: coolingOf(st), grid: gridOf(c, st) };
    if (num(st.pue) !== undefined) site.pue = num(st.pue);
    if (num(st.kwh) !== undefined) site.usd_per_kwh = num(st.kwh);
    const energy = { ...site };
    if (num(st.co2) !== undefined) energy.kg_co2_per_kwh = num(st.co2);
    if (num(st.util) !== undefined) energy.utilisation = num(st.util) / 100;
    if (num(st.hours) !== undefined) energy.hours = num(st.hours);
    else Object.assign(energy, workloadOf(c));
    const tco = { ...site };
    if (num(st.purchase) !== undefined) tco.purchase_usd = num(st.purchase);
    if (num(st.years) !== undefined) tco.amortisation_years = num(st.years);
    if (num(st.rent) !== undefined) tco.rent_usd_per_gpu_hour = num(st.rent);
    if (num(st.other) !== undefined) tco.other_usd_per_year = num(st.other);
    if (num(st.tu) !== undefined) tco.utilisation = num(st.tu) / 100;
    return [{ method: 'energy', request: energy }, { method: 'tco', request: tco }];
  },

  render(out, [e, o], c, st, io) {
    const { t, fmt } = c;
    const kwh = (v) => t('unitKwh', { v: fmt.num(v, v < 100 ? 1 : 0) });
    const kg = (v) => (v >= 1000 ? t('unitTonnes', { v: fmt.num(v / 1000, 2) }) : t('unitKg', { v: fmt.num(v, 1) }));
    if (e && !e.ok) put(out, errorBox(t, e, 'tool-energy-error'));
    if (e && e.ok) {
      const cc = e.cooling_comparison;
      const art = cc.article_claim;
      const agrees = Math.abs(art.model_energy_saving_at_pue_1_05 - art.energy_saving) < 0.02;
      put(out, tx('h3', t, 'enEnergyTitle'),
        h('div', { class: 'kpis', id: 'en-kpis' },
          kpi(t('enIt'), kwh(e.it_energy_kwh), { 'data-v': e.it_energy_kwh }),
          kpi(t('enFacility'), kwh(e.facility_energy_kwh), { 'data-v': e.facility_energy_kwh, id: 'en-facility' }),
          kpi(t('enCost'), fmt.money(e.energy_cost_usd), { 'data-v': e.energy_cost_usd }),
          kpi(t('enCo2Out'), kg(e.co2_kg), { 'data-v': e.co2_kg, id: 'en-co2-out' })),
        kv([
          [t('enRun'), h('span', {}, t('enRunText', { n: fmt.int(e.gpu_count), hours: fmt.duration(e.hours), power: fmt.int(e.power_w), util: fmt.pct(e.utilisation, 0), pue: fmt.num(e.pue, 2) }))],
          [t('enHoursFrom'), engineText('span', e.hours_source)],
        ]),
        h('div', { class: 'scroll-x' }, h('table', { class: 'mini', id: 'en-cooling' },
          h('caption', { class: 'cap' }, tx('span', t, 'enCoolingTitle')),
          h('thead', {}, h('tr', {}, h('td', {}), tx('th', t, 'enPueCol', { scope: 'col' }), tx('th', t, 'enFacility', { scope: 'col' }), tx('th', t, 'enCost', { scope: 'col' }), tx('th', t, 'enCo2Out', { scope: 'col' }))),
          h('tbody', {}, [['enAir', cc.air], ['enLiquid', cc.liquid]].map(([k, x]) => h('tr', {}, tx('th', t, k, { scope: 'row' }),
            h('td', { class: 'num' }, fmt.num(x.pue, 2)), h('td', { class: 'num' }, kwh(x.facility_energy_kwh)), h('td', { class: 'num' }, fmt.money(x.cost_usd)), h('td', { class: 'num' }, kg(x.co2_kg))))))),
        h('p', { class: 'sub' }, t('enLiquidSaves', { p: fmt.pct(cc.liquid_energy_saving, 1) })),
        h('div', { class: 'verdict-box', id: 'en-claim', 'data-agrees': agrees ? '1' : '0' },
          h('p', {}, tx('strong', t, 'enArticleClaim'), ' ', t('enArticleClaimText', { pue: fmt.num(art.pue, 2), saving: fmt.pct(art.energy_saving, 0) }), ' ', h('span', { class: 'sub' }, '(', engineText('span', art.source), ')')),
          h('p', {}, tx('strong', t, 'enEngineSays'), ' ', t('enModelSaving', { saving: fmt.pct(art.model_energy_saving_at_pue_1_05, 1) }), ' ', verdict(t, agrees)),
          engineText('p', art.finding, { class: 'engine-note' })));
    }
    // Without a purchase price the TCO half asks for one instead of opening on an error.
    const needsPrice = o && !o.ok && energyPanel.prompt(o, st);
    if (needsPrice) {
      const g = c.gpus.find((x) => x.id === hardware(c, st).gpu);
      put(out, tx('h3', t, 'enTcoTitle'), txv('p', t, 'enTcoNeedsPrice', { gpu: dataText('span', g ? g.name : hardware(c, st).gpu) }, { class: 'notice', id: 'en-tco-needs-price' }));
    } else if (o && !o.ok) put(out, tx('h3', t, 'enTcoTitle'), errorBox(t, o, e && !e.ok ? 'tool-energy-error-2' : 'tool-energy-error'));
    if (o && o.ok) {
      const canvas = h('canvas', { id: 'en-tco-chart', role: 'img', 'aria-label': t('enTcoAria') });
      put(out, tx('h3', t, 'enTcoTitle'),
        engineText('p', o.verdict, { class: 'verdict-line', id: 'en-verdict' }),
        h('div', { class: 'kpis', id: 'en-tco-kpis' },
          kpi(t('enBreakEven'), o.never_breaks_even ? '—' : fmt.pct(o.break_even_utilisation, 0), { 'data-v': o.break_even_utilisation, id: 'en-break-even' }),
          kpi(t('enCapex'), fmt.money(o.capex_usd_per_year)),
          kpi(t('enEnergyYear'), fmt.money(o.energy_usd_per_year_at_full_load)),
          kpi(t('enRentRate'), fmt.money(o.rent_usd_per_gpu_hour))),
        h('figure', { class: 'chart tool-chart' }, tx('figcaption', t, 'enTcoChart'), h('div', { class: 'chart-box short' }, canvas)),
        h('div', { class: 'scroll-x' }, h('table', { class: 'mini', id: 'en-points' },
          h('thead', {}, h('tr', {}, ['enUtilCol', 'enOwnYear', 'enRentYear', 'enOwnPerHour', 'enCheaper'].map((k) => tx('th', t, k, { scope: 'col' })))),
          h('tbody', {}, o.points.map((p) => h('tr', { class: p.cheaper === 'own' ? 'own' : '' },
            h('td', { class: 'num' }, fmt.pct(p.utilisation, 0)), h('td', { class: 'num' }, fmt.money(p.own_usd_per_year)), h('td', { class: 'num' }, fmt.money(p.rent_usd_per_year)),
            h('td', { class: 'num' }, fmt.money(p.own_usd_per_used_gpu_hour)), h('td', {}, t(p.cheaper === 'own' ? 'enOwn' : 'enRent2'))))))));
      const col = io.palette();
      const line = (key, get, color) => ({ label: t(key), data: o.points.map((p) => ({ x: p.utilisation * 100, y: get(p) * fmt.factor })), showLine: true, borderColor: color, backgroundColor: color, pointRadius: 3, borderWidth: 2 });
      const datasets = [line('enOwnYear', (p) => p.own_usd_per_year, col.sel), line('enRentYear', (p) => p.rent_usd_per_year, col.pareto)];
      if (!o.never_breaks_even && o.break_even_utilisation > 0 && o.break_even_utilisation <= 1) {
        const u = o.break_even_utilisation;
        const p0 = o.points[0];
        const p1 = o.points[o.points.length - 1];
        const y = p0.rent_usd_per_year + ((p1.rent_usd_per_year - p0.rent_usd_per_year) * (u - p0.utilisation)) / ((p1.utilisation - p0.utilisation) || 1);
        datasets.push({ label: t('enBreakEven'), data: [{ x: u * 100, y: y * fmt.factor }], pointRadius: 7, pointStyle: 'rectRot', backgroundColor: col.cmp, borderColor: col.fg });
      }
      io.chart(canvas, {
        type: 'scatter', data: { datasets },
        options: { responsive: true, maintainAspectRatio: false, animation: false,
          plugins: { legend: { position: 'bottom', labels: { color: col.fg, boxWidth: 10 } },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${fmt.pct(item.raw.x / 100, 0)}, ${fmt.money(item.raw.y / fmt.factor)}` } } },
          scales: { x: { type: 'linear', min: 0, max: 100, title: { display: true, text: t('enUtilAxis'), color: col.fg }, ticks: { color: col.muted, callback: (v) => fmt.pct(Number(v) / 100, 0) }, grid: { color: col.grid } },
            y: { beginAtZero: true, title: { display: true, text: t('enYearAxis', { cur: fmt.currency }), color: col.fg }, ticks: { color: col.muted, callback: (v) => fmt.money(Number(v) / fmt.factor, { digits: 0 }) }, grid: { color: col.grid } } } },
      });
    }
    // Each half lists its own assumptions (the job's power is the GPUs' TDP; owning counts the whole server's).
    if (e && e.ok) put(out, tx('h3', t, 'enEnergyAssumptions'), assumptionsTable(t, fmt, e.assumptions, 'en-assumptions'));
    if (o && o.ok) put(out, tx('h3', t, 'enTcoAssumptions'), assumptionsTable(t, fmt, o.assumptions, 'en-tco-assumptions'));
  },
};
