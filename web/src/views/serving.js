// The serving mode: the served model, its traffic and latency targets (servingPanel), and the engine's answer for
// every offer (renderServing): the offers by $ per million output tokens (those that miss the targets marked and
// below), and the throughput one GPU sustains against the time per output token it is held to.
import { h, tx, txv, engineText, dataText, foldPanel, priceDate } from './dom.js';
import { NAMES } from '../state/names.js';
import { Chart, palette } from './charts.js';
import { sortHeader } from './sortable.js';
import { providerName } from '../format/providers.js';
import { SERVING_MODEL, ownModelFrom, modelMemberOf } from '../state/servingmodel.js';

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

// A member of the reader's own model: a number input (empty = not given, the engine derives it) that reports on typing
// (debounced) and at once on change, the value in short form beside it, and the engine's error about it
// (markModelErrors).
function modelField(f, value, t, fmt, onValue) {
  const id = `serve-m-${f.key}`;
  const el = h('input', { id, type: 'number', inputmode: 'decimal', step: f.integer ? 1 : 'any', min: 0, value: value ?? '', 'data-path': `/model/${f.key}`,
    required: f.required, 'aria-describedby': `${id}-hint ${id}-error` });
  const hint = h('span', { class: 'hint', id: `${id}-hint`, 'aria-live': 'polite' });
  const show = (v) => { hint.textContent = v >= 1e4 ? `= ${fmt.compact(v)}` : ''; };
  show(value);
  let timer = null;
  const send = () => {
    clearTimeout(timer);
    const v = el.value.trim() === '' ? undefined : Number(el.value);
    show(v);
    if (v === undefined || Number.isFinite(v)) onValue(v);
  };
  el.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(send, NUMBER_DEBOUNCE_MS); });
  el.addEventListener('change', send);
  return h('div', { class: 'field', 'data-member': f.key }, h('label', { for: id }, t(`serveM_${f.key}`)), el, hint,
    h('span', { class: 'field-error', id: `${id}-error`, role: 'alert' }));
}

// Which model is served: a preset, or the reader's own (its shape, pre-filled from the chosen preset so that it starts
// as a model the engine serves).
function modelChoice(ctx, set) {
  const { t, state, fmt } = ctx;
  const v = state.serving;
  const presetOf = (id) => ctx.servingPresets.find((p) => p.id === id);
  const choose = (own) => ctx.update({ serving: { ...ctx.current().state.serving, model: own ? ownModelFrom((presetOf(v.preset) || {}).model) : null } });
  const source = h('fieldset', { class: 'radios', id: 'serve-source' }, tx('legend', t, 'serveSource'),
    h('input', { type: 'radio', name: 'serve-source', id: 'serve-source-preset', value: 'preset', checked: !v.model, onchange: () => choose(false) }),
    tx('label', t, 'serveSourcePreset', { for: 'serve-source-preset' }),
    h('input', { type: 'radio', name: 'serve-source', id: 'serve-source-own', value: 'own', checked: Boolean(v.model), onchange: () => choose(true) }),
    tx('label', t, 'serveSourceOwn', { for: 'serve-source-own' }));
  if (!v.model) return [source, selectField('serve-preset', t('serveModel'), v.preset, ctx.servingPresets.map((p) => [p.id, servingName(p, state.lang), true]), (x) => set({ preset: x }))];
  const setMember = (key, x) => {
    const model = { ...ctx.current().state.serving.model };
    if (x === undefined) delete model[key]; else model[key] = x;
    set({ model });
  };
  return [source, tx('p', t, 'serveOwnHint', { class: 'hint', id: 'serve-own-hint' }),
    h('div', { class: 'own-model', id: 'serve-own-model' }, SERVING_MODEL.fields.map((f) => modelField(f, v.model[f.key], t, fmt, (x) => setMember(f.key, x))))];
}

// The serving inputs. ctx.servingPresets: the engine's serving presets ({id, name, model}).
export function servingPanel(ctx) {
  const { t, state } = ctx;
  const v = state.serving;
  const set = (patch) => ctx.update({ serving: { ...ctx.current().state.serving, ...patch } }, { inPlace: true });
  const formats = (list, key) => [['', t(v.model ? 'serveEngineDefault' : 'serveFormatPreset')], ...list.map((x) => [x, key ? t(`${key}${x}`) : x.toUpperCase(), !key])];
  return foldPanel('serving-panel', tx('h2', t, 'serveInputs', { id: 'serving-title' }),
    ...modelChoice(ctx, set),
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
    cell('monthly', 'serveColMonthly', r.fits ? fmt.money(r.monthly_usd, { digits: 0, compact: true }) : '—', r.monthly_usd),
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
  const { t, fmt } = ctx;
  const best = a.best;
  const tr = a.traffic || {};
  const tg = a.targets || {};
  const question = txv('p', t, 'serveQuestion', {
    model: answerModelName(a, ctx), weights: dataText('span', String(a.weights || '').toUpperCase()),
    kv: dataText('span', String(a.kv || '').toUpperCase()), rps: tr.requests_per_s > 0 ? t('serveRpsValue', { n: fmt.num(tr.requests_per_s, 2) }) : t('serveRpsNone'), input: fmt.int(tr.input_tokens), output: fmt.int(tr.output_tokens),
    ttft: tg.ttft_ms > 0 ? ms(fmt, tg.ttft_ms) : t('noLimit'), tpot: tg.tpot_ms > 0 ? ms(fmt, tg.tpot_ms) : t('noLimit'), p: fmt.int(tg.percentile),
  }, { id: 'serve-question', class: 'sub' });
  const counts = h('p', { class: 'sub', id: 'serve-counts' }, t('serveCounts', { total: a.total, met: a.met, fits: a.fits }));
  if (!best) return [question, tx('p', t, a.fits ? 'serveNoneMet' : 'serveNoneFits', { class: 'notice warn', id: 'serve-none' }), counts];
  const head = h('div', { class: 'verdict-box', id: 'serve-best', 'data-key': best.key },
    txv('p', t, 'serveBest', { offer: dataText('strong', `${best.instance} · ${providerName(t, best.provider)}`), gpus: `${best.replica_gpus}× ${ctx.gpuName(best.gpu)}` }),
    h('p', { class: 'sub' }, t(best.as_of ? 'servePricedAt' : best.read_on ? 'servePricedAtReadOn' : 'servePricedAtUndated',
      { rate: fmt.money(best.usd_per_hour), billing: billingText(best, t), date: fmt.date(best.as_of || best.read_on || '') })),
    h('div', { class: 'kpis' }, [
      ['serveColOut', fmt.money(best.usd_per_million_output)], ['serveColIn', fmt.money(best.usd_per_million_input)],
      ['serveColBlended', fmt.money(best.usd_per_million_blended)], ['serveColReplicas', `${fmt.int(best.replicas)} · ${t('serveGpusN', { n: best.gpus })}${best.spare_instances > 0 ? ` ${t('serveSparesParen', { n: fmt.int(best.spare_instances * best.gpu_count) })}` : ''}`],
      ['serveColTtft', ms(fmt, best.ttft_ms)], ['serveColTpot', ms(fmt, best.tpot_ms)], ['serveColMonthly', fmt.money(best.monthly_usd, { digits: 0 })],
    ].map(([k, v]) => h('div', { class: 'kpi' }, tx('span', t, k, { class: 'kpi-label' }), h('span', { class: 'kpi-value' }, v)))));
  return [question, head, counts];
}

// The throughput-per-GPU curves: one line per GPU of the best rows (its replica size), points where the batch that
// meets each TPOT target changes. Returns the chart (to destroy before the next draw).
function curveData(a, ctx, col) {
  const colours = [col.pareto, col.point, col.sel, col.cmp, col.muted];
  return a.curves.map((c, i) => ({
    label: `${c.replica_gpus}× ${ctx.gpuName(c.gpu)}`, showLine: true, borderColor: colours[i % colours.length], backgroundColor: colours[i % colours.length],
    data: c.points.map((p) => ({ x: p.tpot_ms, y: p.tokens_per_s_per_gpu, batch: p.batch })),
  }));
}

function curveChart(canvas, a, ctx) {
  const { t, fmt } = ctx;
  const col = palette();
  const datasets = curveData(a, ctx, col);
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

// The model an answer is for: its preset's name, or the reader's own model with its parameter count.
function answerModelName(a, ctx) {
  const preset = a.preset && ctx.servingPresets.find((p) => p.id === a.preset);
  if (preset) return dataText('strong', servingName(preset, ctx.state.lang));
  return h('strong', { id: 'serve-own-name' }, ctx.t('serveOwnName', { params: ctx.fmt.compact(a.model ? a.model.params : 0) }));
}

// The errors of an answer that is one (its issues, else its error), warnings left out.
const errorsOf = (a) => (a && a.ok === false ? (a.issues && a.issues.length ? a.issues : [a.error || {}]).filter((i) => !i.warning) : []);

// The engine's errors about the own model's members, each at its input (aria-invalid, the message below it in the
// reader's language); the inputs of an answer without them are cleared. Errors elsewhere stay in the results.
export function markModelErrors(root, a) {
  const byMember = new Map();
  for (const i of errorsOf(a)) { const k = modelMemberOf(i.path); if (k && !byMember.has(k)) byMember.set(k, i); }
  for (const el of root.querySelectorAll('#serve-own-model input[data-path]')) {
    const key = el.closest('[data-member]').dataset.member;
    const slot = root.querySelector(`#serve-m-${key}-error`);
    const issue = byMember.get(key);
    if (issue) { el.setAttribute('aria-invalid', 'true'); slot.replaceChildren(engineText('span', issue.message)); } else { el.removeAttribute('aria-invalid'); slot.replaceChildren(); }
  }
}

// Why the engine cannot rank: each error with its JSON Pointer path and its message in the reader's language.
function errorNotice(a, ctx, kept) {
  const { t } = ctx;
  return h('div', { class: 'notice bad', role: 'alert', id: 'serve-error', 'data-kept': kept ? '1' : '0' },
    h('p', {}, tx('strong', t, 'engineError'), ' ', t(kept ? 'serveKeptLast' : 'serveCannotRank')),
    h('ul', { class: 'issues' }, errorsOf({ ok: false, ...a }).map((i) => h('li', {}, dataText('code', i.path || '/'), ' ', i.message ? engineText('span', i.message) : ''))));
}

// Draws the answer into el; for an answer that is an error, the error and below it the last answer that was not
// (`kept`), when there is one. `chart`: the chart of the answer drawn before in the same language, theme and currency,
// updated in place when its figure is still in el (a new chart reads the page's styles as it starts, each read a
// layout of the new table: ~120 ms a change on a 2-core machine), else destroyed. Returns the chart drawn, or null.
export function renderServing(el, ctx, a, kept = null, chart = null) {
  const { t } = ctx;
  const title = tx('h2', t, 'serveResults', { id: 'serve-results-title' });
  const failed = !a || a.ok === false;
  const shown = failed ? kept : a;
  const figure = chart && chart.canvas && el.contains(chart.canvas) ? chart.canvas.closest('figure') : null;
  if (chart && (!figure || !shown || shown.ok === false || !shown.curves.length)) chart.destroy();
  if (!shown || shown.ok === false) {
    el.replaceChildren(title, errorNotice(a || {}, ctx, false));
    return null;
  }
  const head = [title, ...(failed ? [errorNotice(a, ctx, true)] : []), ...summary(shown, ctx), ...billingNotes(shown, ctx)];
  const rows = [tx('h3', t, 'serveTableTitle', { id: 'serve-table-title' }), ...servingTable(shown, ctx)];
  if (figure && shown.curves.length) {
    el.querySelector(':scope > .serve-head').replaceChildren(...head);
    el.querySelector(':scope > .serve-rows').replaceChildren(...rows);
    chart.data.datasets = curveData(shown, ctx, palette());
    chart.update('none');
    return chart;
  }
  const canvas = h('canvas', { id: 'serve-chart', role: 'img', 'aria-label': t('serveChartLabel') });
  el.replaceChildren(h('div', { class: 'serve-head' }, head),
    h('figure', { class: 'serve-figure' }, tx('figcaption', t, 'serveChartTitle', { class: 'cap' }), h('div', { class: 'chart-box serve-chart' }, canvas),
      tx('p', t, 'serveChartNote', { class: 'sub' })),
    h('div', { class: 'serve-rows' }, rows));
  return shown.curves.length ? curveChart(canvas, shown, ctx) : null;
}
