// The serving mode: the served model, its traffic and latency targets (servingPanel), and the engine's answer for
// every offer (renderServing): the offers by $ per million output tokens (those that miss the targets marked and
// below), and the throughput one GPU sustains against the time per output token it is held to.
import { h, tx, txv, engineText, dataText, foldPanel, priceDate } from './dom.js';
import { NAMES } from '../state/names.js';
import { Chart, palette } from './charts.js';
import { sortHeader } from './sortable.js';
import { providerName } from '../format/providers.js';

const NUMBER_DEBOUNCE_MS = 350;

// A number input that reports on typing (debounced) and at once on change; empty = 0 (the engine's default).
function numberField(id, label, value, onValue, attrs = {}) {
  const el = h('input', { id, type: 'number', inputmode: 'decimal', step: 'any', min: 0, value: value > 0 ? value : '', ...attrs });
  let timer = null;
  const send = () => { clearTimeout(timer); const v = el.value.trim() === '' ? 0 : Number(el.value); if (Number.isFinite(v) && v >= 0) onValue(v); };
  el.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(send, NUMBER_DEBOUNCE_MS); });
  el.addEventListener('change', send);
  return h('div', { class: 'field' }, h('label', { for: id }, label), el);
}

function selectField(id, label, value, options, onValue) {
  return h('div', { class: 'field' }, h('label', { for: id }, label),
    h('select', { id, onchange: (e) => onValue(e.target.value) },
      options.map(([v, text, raw]) => h('option', { value: v, selected: v === value, 'data-raw': raw ? '' : null }, text))));
}

// The link of a replica of several GPUs (the engine's serve answer's fabric), by its UI string.
const FABRIC_KEYS = { nvlink: 'serveNvlink', nvswitch: 'serveNvswitch', 'infinity-fabric': 'serveInfinityFabric', pcie: 'servePcie' };

// What each billing model means for a service that runs around the clock (the spot caveat: AWS warns 2 minutes before
// it reclaims a spot instance, https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html;
// Google Cloud 30 seconds, https://cloud.google.com/compute/docs/instances/spot).
const BILLING_HINTS = { on_demand: 'serveBillOnDemand', spot: 'serveBillSpot', reserved: 'serveBillReserved', monthly: 'serveBillMonthly' };

// Percentiles a latency target can be held at besides the median: what serving SLOs are written at (p90, p95, p99).
const SERVING_PERCENTILES = [90, 95, 99];

// The served model's name in the reader's language.
export const servingName = (p, lang) => (p && p.name && (p.name[lang] || p.name.en)) || (p && p.id) || '';

// The serving inputs. ctx.servingPresets: the engine's serving presets ({id, name}).
export function servingPanel(ctx) {
  const { t, state } = ctx;
  const v = state.serving;
  const set = (patch) => ctx.update({ serving: { ...ctx.current().state.serving, ...patch } }, { inPlace: true });
  const formats = (list, key) => [['', t('serveFormatPreset')], ...list.map((x) => [x, key ? t(`${key}${x}`) : x.toUpperCase(), !key])];
  return foldPanel('serving-panel', tx('h2', t, 'serveInputs', { id: 'serving-title' }),
    selectField('serve-preset', t('serveModel'), v.preset, ctx.servingPresets.map((p) => [p.id, servingName(p, state.lang), true]), (x) => set({ preset: x })),
    numberField('serve-rps', t('serveRps'), v.rps, (x) => set({ rps: x }), { placeholder: t('serveRpsNone') }),
    numberField('serve-input', t('serveInput'), v.input, (x) => set({ input: x }), { placeholder: t('serveEngineDefault') }),
    numberField('serve-output', t('serveOutput'), v.output, (x) => set({ output: x }), { min: 1, placeholder: t('serveEngineDefault') }),
    numberField('serve-ttft', t('serveTtft'), v.ttft, (x) => set({ ttft: x }), { placeholder: t('noLimit') }),
    numberField('serve-tpot', t('serveTpot'), v.tpot, (x) => set({ tpot: x }), { placeholder: t('noLimit') }),
    selectField('serve-pct', t('servePercentile'), String(v.pct || ''), [['', t('servePctMedian')], ...SERVING_PERCENTILES.map((p) => [String(p), `p${p}`, true])],
      (x) => set({ pct: Number(x) || 0 })),
    selectField('serve-weights', t('serveWeights'), v.weights, formats(NAMES.serving_weights), (x) => set({ weights: x })),
    selectField('serve-kv', t('serveKv'), v.kv, formats(NAMES.serving_kv), (x) => set({ kv: x })),
    selectField('serve-software', t('software'), v.software, [['', t('serveFormatPreset')], ...NAMES.serving_software.map((x) => [x, t(x === 'tuned' ? 'serveTuned' : 'serveTypical')])], (x) => set({ software: x })),
    // A new billing model redraws the inputs too: the hint below says what that model means.
    selectField('serve-pricing', t('serveBilling'), v.pricing, NAMES.serving_pricing.map((x) => [x, t(x)]),
      (x) => ctx.update({ serving: { ...ctx.current().state.serving, pricing: x } })),
    tx('p', t, BILLING_HINTS[v.pricing] || BILLING_HINTS.on_demand, { class: 'hint', id: 'serve-billing-hint' }),
    tx('p', t, 'serveScope', { class: 'hint', id: 'serve-scope' }));
}

// What a row says about the targets: met, which one it misses, or that the model does not fit.
function status(r, t) {
  if (!r.fits) return { key: 'serveNoFit', cls: 'nofit' };
  if (r.met) return { key: 'serveMet', cls: 'met' };
  if (!r.ttft_met && !r.tpot_met) return { key: 'serveMissBoth', cls: 'missed' };
  return { key: r.ttft_met ? 'serveMissTpot' : 'serveMissTtft', cls: 'missed' };
}

const ms = (fmt, x) => (x > 0 ? `${fmt.num(x, x < 10 ? 1 : 0)} ms` : '—');

// The table's columns: the sortable ones by their SERVING_SORT key (state.js), which is also their data-col.
const COLUMNS = [
  { id: 'rank', key: 'colRank', sort: 'rank', num: true }, { id: 'instance', key: 'colInstance' }, { id: 'gpu', key: 'serveReplica' },
  ...[['out', 'serveColOut'], ['in', 'serveColIn'], ['blended', 'serveColBlended'], ['hourly', 'serveColHourly'], ['replicas', 'serveColReplicas'],
    ['gpus', 'serveColGpus'], ['ttft', 'serveColTtft'], ['tpot', 'serveColTpot'], ['monthly', 'serveColMonthly']].map(([id, key]) => ({ id, key, sort: id, num: true })),
  { id: 'status', key: 'serveColStatus' },
];

// The billing model a row is priced under, in words: "Reserved, 1-year term".
function billingText(r, t) {
  if (!(r.term_months > 0)) return t(r.pricing);
  const term = r.term_months % 12 === 0 ? t('serveTermYears', { n: r.term_months / 12 }) : t('serveTermMonths', { n: r.term_months });
  return t('serveBillingTerm', { pricing: t(r.pricing), term });
}

// The price a row is priced at: one instance's hourly rate, the billing model and the price's date.
function priceCell(r, t, fmt) {
  return h('td', { class: 'num', 'data-col': 'hourly', 'data-v': r.usd_per_hour, 'data-pricing': r.pricing, 'data-label': t('serveColHourly') },
    fmt.money(r.usd_per_hour), h('span', { class: 'sub' }, billingText(r, t), ' · ', priceDate(t, fmt, r)));
}

function servingRow(r, ctx) {
  const { t, fmt } = ctx;
  const st = status(r, t);
  const lab = (key) => ({ 'data-label': t(key) });
  const cell = (col, key, text, v) => h('td', { class: 'num', 'data-col': col, 'data-v': v, ...lab(key) }, text);
  const regions = r.regions.length > 1 ? t('serveRegions', { n: r.regions.length }) : r.region;
  return h('tr', { 'data-key': r.key, 'data-gpu': r.gpu, 'data-met': r.met ? '1' : '0', 'data-fits': r.fits ? '1' : '0', class: st.cls },
    h('td', { class: 'num', 'data-col': 'rank' }, fmt.int(r.rank)),
    h('td', { class: 'name', 'data-col': 'instance' }, dataText('strong', r.instance),
      r.marketplace ? tx('span', t, 'badgeMarketplace', { class: 'badge' }) : null, h('br'), dataText('span', `${providerName(t, r.provider)} · ${regions}`, { class: 'sub' })),
    h('td', { 'data-col': 'gpu', ...lab('serveReplica') }, `${r.replica_gpus}× `, dataText('span', ctx.gpuName(r.gpu)), ' ',
      r.fabric === 'none' ? null : tx('span', t, FABRIC_KEYS[r.fabric] || 'servePcie', { class: 'sub' })),
    cell('out', 'serveColOut', r.fits ? fmt.money(r.usd_per_million_output) : '—', r.usd_per_million_output),
    cell('in', 'serveColIn', r.fits ? fmt.money(r.usd_per_million_input) : '—', r.usd_per_million_input),
    cell('blended', 'serveColBlended', r.fits ? fmt.money(r.usd_per_million_blended) : '—', r.usd_per_million_blended),
    priceCell(r, t, fmt),
    cell('replicas', 'serveColReplicas', r.fits ? fmt.int(r.replicas) : '—', r.replicas),
    cell('gpus', 'serveColGpus', r.fits ? (r.spare_instances > 0 ? [fmt.int(r.gpus), h('br'), h('span', { class: 'sub spares' }, t('serveSpares', { n: fmt.int(r.spare_instances * r.gpu_count) }))] : fmt.int(r.gpus)) : '—', r.gpus),
    cell('ttft', 'serveColTtft', ms(fmt, r.ttft_ms), r.ttft_ms),
    cell('tpot', 'serveColTpot', ms(fmt, r.tpot_ms), r.tpot_ms),
    cell('monthly', 'serveColMonthly', r.fits ? fmt.money(r.monthly_usd, { digits: 0 }) : '—', r.monthly_usd),
    h('td', { 'data-col': 'status', ...lab('serveColStatus') }, tx('span', t, st.key, { class: `badge ${st.cls}` }),
      !r.fits && r.hints.length ? engineText('span', r.hints[0], { class: 'sub hint-text' }) : null));
}

// The table: a sortable header per numeric column (the order kept in the URL), the rows sent, and below them how
// many of all there are with the buttons that show more.
function servingTable(a, ctx) {
  const { t, fmt, state } = ctx;
  const onSort = (serveSort) => ctx.update({ serveSort });
  const head = COLUMNS.map((c) => (c.sort ? sortHeader(c, t, { sort: state.serveSort, onSort, idPrefix: 'serve-sort-' })
    : tx('th', t, c.key, { scope: 'col', 'data-col': c.id })));
  const more = a.total - a.rows.length;
  const step = ctx.servingPageRows;
  return [h('div', { class: 'serving-wrap', tabindex: '0', role: 'region', 'aria-labelledby': 'serve-table-title' },
    h('table', { id: 'serving-table', class: 'serving' }, h('thead', {}, h('tr', {}, head)), h('tbody', {}, a.rows.map((r) => servingRow(r, ctx))))),
  h('div', { class: 'serve-more', id: 'serve-more' },
    h('p', { class: 'sub', id: 'serve-shown', 'aria-live': 'polite' }, t('serveShown', { shown: fmt.int(a.rows.length), total: fmt.int(a.total) })),
    more > 0 ? h('button', { type: 'button', id: 'serve-more-rows', onclick: () => ctx.showMoreServing(false) }, t('serveShowMore', { n: fmt.int(Math.min(more, step)) })) : null,
    more > step ? h('button', { type: 'button', id: 'serve-all-rows', onclick: () => ctx.showMoreServing(true) }, t('serveShowAll', { n: fmt.int(a.total) })) : null)];
}

// Spot: the reclaim model behind the spare instances, in the first row's figures (a row's published rate, else
// the engine's default), and what it leaves out.
function spotNote(a, ctx) {
  const { t, fmt } = ctx;
  const r = a.rows.find((x) => x.fits && x.interruptions_per_instance_hour > 0);
  const figures = r ? t('serveSpotModel', { perDay: fmt.num(r.interruptions_per_instance_hour * 24, 2), minutes: fmt.int(r.replace_hours * 60),
    spares: fmt.int(r.spare_instances), instances: fmt.int(r.instances - r.spare_instances), instance: r.instance }) : '';
  return h('p', { class: 'notice warn', id: 'serve-spot-note' }, [t('serveSpotCaveat'), figures].filter(Boolean).join(ctx.state.lang === 'zh' ? '' : ' '));
}

// What the billing model leaves out and warns of: offers without a price under it (counted, not priced on demand
// instead), and for spot, that the capacity can be taken back.
function billingNotes(a, ctx) {
  const { t, fmt, state } = ctx;
  const name = t(a.pricing).toLocaleLowerCase(state.lang === 'zh' ? 'zh-CN' : 'en');
  return [
    a.unpriced > 0 ? h('p', { class: 'sub', id: 'serve-unpriced' }, t('serveUnpriced', { n: a.unpriced, count: fmt.int(a.unpriced), pricing: name })) : null,
    a.pricing === 'spot' ? spotNote(a, ctx) : null,
  ].filter(Boolean);
}

// The headline: the cheapest offer meeting the targets (or the note that none does), and the question asked.
function summary(a, ctx) {
  const { t, fmt, state } = ctx;
  const best = a.best;
  const preset = ctx.servingPresets.find((p) => p.id === state.serving.preset);
  const tr = a.traffic || {};
  const tg = a.targets || {};
  const question = txv('p', t, 'serveQuestion', {
    model: dataText('strong', servingName(preset, state.lang)), weights: dataText('span', String(a.weights || '').toUpperCase()),
    kv: dataText('span', String(a.kv || '').toUpperCase()), rps: tr.requests_per_s > 0 ? t('serveRpsValue', { n: fmt.num(tr.requests_per_s, 2) }) : t('serveRpsNone'), input: fmt.int(tr.input_tokens), output: fmt.int(tr.output_tokens),
    ttft: tg.ttft_ms > 0 ? ms(fmt, tg.ttft_ms) : t('noLimit'), tpot: tg.tpot_ms > 0 ? ms(fmt, tg.tpot_ms) : t('noLimit'), p: fmt.int(tg.percentile),
  }, { id: 'serve-question', class: 'sub' });
  const counts = h('p', { class: 'sub', id: 'serve-counts' }, t('serveCounts', { total: a.total, met: a.met, fits: a.fits }));
  if (!best) return [question, tx('p', t, a.fits ? 'serveNoneMet' : 'serveNoneFits', { class: 'notice warn', id: 'serve-none' }), counts];
  const head = h('div', { class: 'verdict-box', id: 'serve-best', 'data-key': best.key },
    txv('p', t, 'serveBest', { offer: dataText('strong', `${best.instance} · ${providerName(t, best.provider)}`), gpus: `${best.replica_gpus}× ${ctx.gpuName(best.gpu)}` }),
    h('p', { class: 'sub' }, t('servePricedAt', { rate: fmt.money(best.usd_per_hour), billing: billingText(best, t) }), ' ', priceDate(t, fmt, best)),
    h('div', { class: 'kpis' }, [
      ['serveColOut', fmt.money(best.usd_per_million_output)], ['serveColIn', fmt.money(best.usd_per_million_input)],
      ['serveColBlended', fmt.money(best.usd_per_million_blended)], ['serveColReplicas', `${fmt.int(best.replicas)} · ${t('serveGpusN', { n: best.gpus })}${best.spare_instances > 0 ? ` ${t('serveSparesParen', { n: fmt.int(best.spare_instances * best.gpu_count) })}` : ''}`],
      ['serveColTtft', ms(fmt, best.ttft_ms)], ['serveColTpot', ms(fmt, best.tpot_ms)], ['serveColMonthly', fmt.money(best.monthly_usd, { digits: 0 })],
    ].map(([k, v]) => h('div', { class: 'kpi' }, tx('span', t, k, { class: 'kpi-label' }), h('span', { class: 'kpi-value' }, v)))));
  return [question, head, counts];
}

// The throughput-per-GPU curves: one line per GPU of the best rows (its replica size), points where the batch that
// meets each TPOT target changes. Returns the chart (to destroy before the next draw).
function curveChart(canvas, a, ctx) {
  const { t, fmt } = ctx;
  const col = palette();
  const colours = [col.pareto, col.point, col.sel, col.cmp, col.muted];
  const datasets = a.curves.map((c, i) => ({
    label: `${c.replica_gpus}× ${ctx.gpuName(c.gpu)}`, showLine: true, borderColor: colours[i % colours.length], backgroundColor: colours[i % colours.length],
    data: c.points.map((p) => ({ x: p.tpot_ms, y: p.tokens_per_s_per_gpu, batch: p.batch })),
  }));
  const title = (text) => ({ display: true, text, color: col.fg });
  return new Chart(canvas, {
    type: 'scatter', data: { datasets },
    options: { animation: false, maintainAspectRatio: false,
      scales: { x: { type: 'logarithmic', title: title(t('serveAxisTpot')), grid: { color: col.grid }, ticks: { color: col.muted, maxRotation: 0, autoSkip: true, callback: (x) => fmt.num(Number(x), 0) } },
        y: { type: 'linear', beginAtZero: true, title: title(t('serveAxisTps')), grid: { color: col.grid }, ticks: { color: col.muted, callback: (y) => fmt.int(Number(y)) } } },
      plugins: { legend: { labels: { color: col.fg, boxWidth: 12, font: { size: 11 } } },
        tooltip: { callbacks: { label: (c) => t('serveCurveTip', { gpu: c.dataset.label, tps: fmt.int(c.raw.y), tpot: fmt.num(c.raw.x, 1), batch: fmt.int(c.raw.batch) }) } } } },
  });
}

// Draws the answer into el. Returns the chart (the caller destroys it before the next draw).
export function renderServing(el, ctx, a) {
  const { t } = ctx;
  const title = tx('h2', t, 'serveResults', { id: 'serve-results-title' });
  if (!a || a.ok === false) {
    const e = (a && a.error) || {};
    el.replaceChildren(title, h('div', { class: 'notice bad', role: 'alert', id: 'serve-error' },
      h('p', {}, tx('strong', t, 'engineError'), ' ', dataText('code', e.path || '/'), ' ', e.message ? engineText('span', e.message) : '')));
    return null;
  }
  const canvas = h('canvas', { id: 'serve-chart', role: 'img', 'aria-label': t('serveChartLabel') });
  el.replaceChildren(title, ...summary(a, ctx), ...billingNotes(a, ctx),
    h('figure', { class: 'serve-figure' }, tx('figcaption', t, 'serveChartTitle', { class: 'cap' }), h('div', { class: 'chart-box serve-chart' }, canvas),
      tx('p', t, 'serveChartNote', { class: 'sub' })),
    tx('h3', t, 'serveTableTitle', { id: 'serve-table-title' }), ...servingTable(a, ctx));
  return a.curves.length ? curveChart(canvas, a, ctx) : null;
}
