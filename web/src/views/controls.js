// Inputs: workload (preset or the user's own model), precision, filters, ranking weights, and the
// page settings (language, currency and rate, theme). Each change calls ctx.update(patch, options).
import { h, tx, dataText, foldPanel } from './dom.js';
import { daysBetween } from '../format/format.js';
import { CURRENCIES, CUSTOM_FIELDS, customFromPreset } from '../state/state.js';
import { NAMES } from '../state/names.js';
import { providerName } from '../format/providers.js';

const SLIDER_DEBOUNCE_MS = 120;
const NUMBER_DEBOUNCE_MS = 350;

function debounce(fn, ms) {
  let timer = null;
  const d = (...args) => { clearTimeout(timer); timer = setTimeout(() => { timer = null; fn(...args); }, ms); };
  d.flush = (...args) => { clearTimeout(timer); timer = null; fn(...args); };
  return d;
}

// Parses a number input; empty means "not given".
const readNumber = (el) => {
  if (el.value.trim() === '') return undefined;
  const v = Number(el.value);
  return Number.isFinite(v) ? v : NaN;
};

function field(id, labelNode, control, hint) {
  return h('div', { class: 'field' }, h('label', { for: id }, labelNode), control, hint || null);
}

// options: [value, text, raw?]; raw marks text that is data or a language's own name, not a UI string.
function select(id, value, options, onchange, attrs = {}) {
  return h('select', { id, onchange: (e) => onchange(e.target.value), ...attrs },
    options.map(([v, text, raw]) => h('option', { value: v, selected: v === value, 'data-raw': raw ? '' : null }, text)));
}

// A number input that reports on typing (debounced) and at once on change/Enter.
function numberInput(id, value, onValue, attrs = {}) {
  const el = h('input', { id, type: 'number', inputmode: 'decimal', step: 'any', min: 0, value: value ?? '', ...attrs });
  const d = debounce(() => onValue(readNumber(el)), NUMBER_DEBOUNCE_MS);
  el.addEventListener('input', () => d());
  el.addEventListener('change', () => d.flush());
  return el;
}

// The precision the workload trains in unless the user picks one: the preset's, else the engine's default.
function ownPrecision(ctx) {
  const preset = !ctx.state.custom && ctx.presets.find((p) => p.id === ctx.state.preset);
  return (preset && preset.workload && preset.workload.precision) || ctx.defaults.workload_precision;
}

// A checkbox list inside <details>: keyboard friendly, every box has its label.
function multiSelect({ id, labelKey, options, selected, onChange }, t) {
  const known = new Set(options.map((o) => o.value));
  const all = [...options, ...selected.filter((v) => !known.has(v)).map((v) => ({ value: v, text: v }))];
  const summaryText = () => {
    if (!selected.length) return t('filterAll');
    const names = selected.map((v) => (all.find((o) => o.value === v) || { text: v }).text);
    return names.length <= 2 ? names.join(', ') : t('filterNSelected', { n: names.length });
  };
  const boxes = all.map((o, i) => h('li', {},
    h('input', { type: 'checkbox', id: `${id}-${i}`, value: o.value, checked: selected.includes(o.value),
      'aria-describedby': o.detail ? `${id}-${i}-detail` : null,
      onchange: () => onChange(boxes.filter((b) => b.querySelector('input').checked).map((b) => b.querySelector('input').value)) }),
    h('label', { for: `${id}-${i}`, 'data-raw': o.raw ? '' : null }, o.text),
    o.detail ? h('span', { class: 'hint multi-detail', id: `${id}-${i}-detail` }, ' ', o.detail) : null));
  return h('details', { class: 'multi', id: `${id}-multi` },
    h('summary', { id: `${id}-summary` }, tx('span', t, labelKey, { class: 'multi-label' }), ': ',
      h('span', { class: 'multi-value', 'data-raw': selected.length ? '' : null }, summaryText())),
    h('div', { class: 'multi-body' },
      h('fieldset', {}, tx('legend', t, labelKey, { class: 'sr-only' }), h('ul', { class: 'checks', id }, boxes)),
      selected.length ? h('button', { type: 'button', class: 'small', id: `${id}-clear`, onclick: () => onChange([]) }, t('filterClear')) : null));
}

// Inputs whose own DOM already shows the new value update with { inPlace: true } (no rebuild of the inputs);
// the others rebuild them (focus and open lists are kept by app/main.js).
export function workloadPanel(ctx) {
  const { t, state, presets, fmt, update } = ctx;
  const custom = state.custom;
  const presetById = new Map(presets.map((p) => [p.id, p]));
  const name = (p) => (p.name && (p.name[state.lang] || p.name.en)) || p.id;

  const source = h('fieldset', { class: 'radios' }, tx('legend', t, 'workloadSource'),
    h('input', { type: 'radio', name: 'wsource', id: 'wsource-preset', value: 'preset', checked: !custom,
      onchange: () => update({ custom: null }) }),
    tx('label', t, 'sourcePreset', { for: 'wsource-preset' }),
    h('input', { type: 'radio', name: 'wsource', id: 'wsource-custom', value: 'custom', checked: Boolean(custom),
      onchange: () => update({ custom: customFromPreset(presetById.get(state.preset), null, ctx.defaults) }) }),
    tx('label', t, 'sourceCustom', { for: 'wsource-custom' }));

  const body = [];
  if (!custom) {
    body.push(field('preset', tx('span', t, 'preset'),
      select('preset', state.preset, presets.map((p) => [p.id, name(p), true]), (v) => update({ preset: v, sel: null, cmp: [] }, { inPlace: true }))));
  } else {
    const setCustom = (patch, opts) => update({ custom: { ...ctx.current().state.custom, ...patch } }, opts);
    body.push(field('kind', tx('span', t, 'kind'), select('kind', custom.kind, NAMES.workload_kinds.map((k) => [k, t(`kind_${k}`)]), (k) => {
      // Another kind starts from the engine's example of that kind; total FLOPs from the last ranking.
      const next = { ...customFromPreset(null, k, ctx.defaults), mode: ctx.current().state.custom.mode };
      if (k === 'custom' && ctx.result) next.total_flops = ctx.result.workload.total_flops;
      update({ custom: next });
    })));
    body.push(tx('p', t, 'customPlanHint', { class: 'hint', id: 'custom-plan-hint' }));
    body.push(field('mode', tx('span', t, 'mode'), select('mode', custom.mode || 'pretrain', NAMES.modes.map((m) => [m, t(`mode_${m}`)]), (m) => setCustom({ mode: m }))));
    for (const [key, , , type, mode] of CUSTOM_FIELDS[custom.kind]) {
      const id = `w-${key}`;
      if (mode && mode !== (custom.mode || 'pretrain')) continue;
      if (Array.isArray(type)) {
        const value = type.includes(custom[key]) ? custom[key] : type[0];  // the first value is the engine's default
        body.push(field(id, tx('span', t, `f_${key}`), select(id, value, type.map((v) => [v, t(`f_${key}_${v}`)]), (v) => setCustom({ [key]: v }))));
        continue;
      }
      if (type === 'bool') {
        body.push(h('div', { class: 'field check' },
          h('input', { type: 'checkbox', id, checked: Boolean(custom[key]), onchange: (e) => setCustom({ [key]: e.target.checked }) }),
          tx('label', t, `f_${key}`, { for: id })));
        continue;
      }
      const hint = h('span', { class: 'hint', id: `${id}-hint`, 'aria-live': 'polite' }, custom[key] > 0 ? `= ${fmt.compact(custom[key])}` : '');
      const input = numberInput(id, custom[key], (v) => {
        hint.textContent = v > 0 ? `= ${fmt.compact(v)}` : '';
        setCustom({ [key]: v === undefined || Number.isNaN(v) ? undefined : v }, { inPlace: true });
      }, { 'aria-describedby': `${id}-hint` });
      body.push(field(id, tx('span', t, `f_${key}`), input, hint));
    }
  }
  body.push(field('precision', tx('span', t, 'precision'),
    select('precision', state.precision, [['', t('precisionOwn', { p: ownPrecision(ctx).toUpperCase() })], ...NAMES.precisions.map((p) => [p, p.toUpperCase(), true])],
      (v) => update({ precision: v }, { inPlace: true }))));
  body.push(field('software', tx('span', t, 'software'),
    select('software', state.software || '', [['', t('softwareDefault')], ['tuned', t('softwareTuned')], ['typical', t('softwareTypical')]],
      (v) => update({ software: v }, { inPlace: true })),
    tx('span', t, 'softwareHint', { class: 'hint' })));

  return h('section', { class: 'panel', id: 'workload-panel', 'aria-labelledby': 'workload-title' },
    tx('h2', t, 'workload', { id: 'workload-title' }), source, ...body);
}

// The filters of the ranking; for serving ({ serving: true }) only those that choose offers (providers, regions, GPUs,
// examples, stale and marketplace offers): serving is priced on demand, and fit, budget and horizon are its own.
export function filtersPanel(ctx, { serving = false } = {}) {
  const { t, state, fmt, catalog, gpus, update } = ctx;
  const f = state.filters;
  const setF = (patch, opts) => update({ filters: { ...ctx.current().state.filters, ...patch } }, opts);
  const gpuName = new Map(gpus.map((g) => [g.id, g.name]));
  // In the reader's language's order (阿里云 among the Chinese names by pinyin, not under A for Alibaba).
  const collator = new Intl.Collator(state.lang === 'zh' ? 'zh-CN' : 'en');
  const providers = catalog.providers.map((p) => ({ value: p, text: providerName(t, p), raw: true, detail: providerDetail(t, catalog.providerStats && catalog.providerStats[p]) }))
    .sort((a, b) => collator.compare(a.text, b.text));
  const regions = catalog.regions.map((r) => ({ value: r, text: r, raw: true }));
  const gpuIds = catalog.gpus.map((g) => ({ value: g, text: gpuName.get(g) || g, raw: true }));
  const pricing = NAMES.pricing_models.map((m) => ({ value: m, text: t(m) }));

  return foldPanel('filters-panel', tx('h2', t, 'filters', { id: 'filters-title' }),
    multiSelect({ id: 'f-providers', labelKey: 'filterProvider', options: providers, selected: f.providers, onChange: (v) => setF({ providers: v }) }, t),
    multiSelect({ id: 'f-regions', labelKey: 'filterRegion', options: regions, selected: f.regions, onChange: (v) => setF({ regions: v }) }, t),
    multiSelect({ id: 'f-gpus', labelKey: 'filterGpu', options: gpuIds, selected: f.gpus, onChange: (v) => setF({ gpus: v }) }, t),
    serving ? null : multiSelect({ id: 'f-pricing', labelKey: 'filterPricing', options: pricing, selected: f.pricing, onChange: (v) => setF({ pricing: v }) }, t),
    serving ? null : h('div', { class: 'field check' },
      h('input', { type: 'checkbox', id: 'fits-only', checked: f.fitsOnly, onchange: (e) => setF({ fitsOnly: e.target.checked }, { inPlace: true }) }),
      tx('label', t, 'fitsOnly', { for: 'fits-only' })),
    h('div', { class: 'field check' },
      h('input', { type: 'checkbox', id: 'include-examples', checked: f.examples, onchange: (e) => setF({ examples: e.target.checked }, { inPlace: true }) }),
      tx('label', t, 'includeExamples', { for: 'include-examples' })),
    h('div', { class: 'field check' },
      h('input', { type: 'checkbox', id: 'hide-stale', checked: f.hideStale, onchange: (e) => setF({ hideStale: e.target.checked }, { inPlace: true }) }),
      h('label', { for: 'hide-stale' }, t('hideStale', { days: fmt.int(ctx.defaults.stale_after_days) }))),
    h('div', { class: 'field check' },
      h('input', { type: 'checkbox', id: 'hide-marketplace', checked: f.hideMarketplace, onchange: (e) => setF({ hideMarketplace: e.target.checked }, { inPlace: true }) }),
      tx('label', t, 'hideMarketplace', { for: 'hide-marketplace' })),
    freshnessNote(ctx),
    ...(serving ? [] : trainingLimits(ctx, f, setF)),
    h('button', { type: 'button', id: 'filters-reset', onclick: () => update({ filters: { providers: [], regions: [], gpus: [], pricing: [], fitsOnly: false, examples: ctx.current().state.defaultExamples, budget: 0, deadlineHours: 0, hideStale: true, hideMarketplace: false, horizonDays: ctx.current().state.defaultHorizonDays } }) }, t('filtersReset')));
}

// The training ranking's limits: budget, deadline and the horizon a job is sized to.
function trainingLimits({ t, fmt }, f, setF) {
  return [
    field('budget', h('span', {}, t('budget', { cur: fmt.currency })),
      numberInput('budget', f.budget > 0 ? f.budget : '', (v) => setF({ budget: v > 0 ? v : 0 }, { inPlace: true }), { placeholder: t('noLimit') })),
    field('deadline', tx('span', t, 'deadline'),
      numberInput('deadline', f.deadlineHours > 0 ? f.deadlineHours : '', (v) => setF({ deadlineHours: v > 0 ? v : 0 }, { inPlace: true }), { placeholder: t('noLimit') })),
    field('horizon', tx('span', t, 'horizon'),
      numberInput('horizon', f.horizonDays, (v) => { if (v !== undefined && v >= 0) setF({ horizonDays: v }, { inPlace: true }); },
        { min: 0, 'aria-describedby': 'horizon-hint' }),
      tx('span', t, 'horizonHint', { class: 'hint', id: 'horizon-hint' })),
  ];
}

// A provider's offer count and price date(s) beside its name in the provider filter: "12 offers · prices of
// 2026-05-20", a range when its prices differ in date, or "date unknown, read on …" when none is dated.
function providerDetail(t, st) {
  if (!st) return null;
  const dated = st.oldest ? (st.oldest === st.newest ? st.oldest : `${st.oldest} – ${st.newest}`) : '';
  if (dated) return t('providerOffersDated', { n: st.offers, date: dated });
  if (st.read_on) return t('providerOffersUndated', { n: st.offers, date: st.read_on });
  return t('offersN', { n: st.offers });
}

// The catalog's date and, per provider, its oldest price (folded away: one line per provider).
function freshnessNote(ctx) {
  const { t, catalog, defaults } = ctx;
  if (!catalog.date) return null;
  const staleDays = defaults.stale_after_days;
  const age = (asOf) => Math.round(daysBetween(asOf, catalog.date));
  return h('details', { class: 'field freshness', id: 'catalog-freshness' },
    h('summary', {}, t('catalogDate', { date: catalog.date })),
    h('ul', {}, ...(catalog.oldest || []).map((x) => h('li', { class: age(x.as_of) > staleDays ? 'stale-text' : null, 'data-provider': x.provider },
      dataText('span', providerName(t, x.provider)), ': ', t('oldestPrice', { date: x.as_of })))));
}

export function weightsPanel(ctx) {
  const { t, state, fmt, update } = ctx;
  const dims = [['unit_cost', 'weightUnit', 'weightUnitHelp'], ['task', 'weightTask', 'weightTaskHelp'], ['service', 'weightService', 'weightServiceHelp']];
  const pending = { ...state.weights };
  const push = debounce(() => update({ weights: { ...pending } }, { inPlace: true }), SLIDER_DEBOUNCE_MS);
  const sliders = dims.map(([k, labelKey, helpKey]) => {
    const out = h('output', { for: `w-${k}`, id: `w-${k}-out` }, fmt.num(state.weights[k], 2));
    const input = h('input', { type: 'range', id: `w-${k}`, min: 0, max: 3, step: 0.05, value: state.weights[k], 'aria-describedby': `w-${k}-help` });
    input.addEventListener('input', () => { pending[k] = Number(input.value); out.textContent = fmt.num(pending[k], 2); push(); });
    input.addEventListener('change', () => { pending[k] = Number(input.value); push.flush(); });
    return h('div', { class: 'field slider' }, h('label', { for: `w-${k}` }, t(labelKey), ' ', out), input,
      tx('span', t, helpKey, { class: 'hint', id: `w-${k}-help` }));
  });
  return foldPanel('weights-panel', tx('h2', t, 'weights', { id: 'weights-title' }), tx('p', t, 'weightsHelp', { class: 'hint' }), ...sliders,
    h('button', { type: 'button', id: 'weights-reset', onclick: () => update({ weights: { ...state.defaultWeights } }) }, t('weightsReset')));
}

export function settingsBar(ctx) {
  const { t, state, update, theme, setTheme, fx } = ctx;
  const rateInput = numberInput('rate', state.rate, (v) => { if (v > 0) update({ rate: v }, { inPlace: true }); }, { min: 0.0001, step: 'any' });
  return h('div', { class: 'settings', role: 'group', 'aria-label': t('settings') },
    field('lang', tx('span', t, 'language'), select('lang', state.lang, [['zh', '简体中文', true], ['en', 'English', true]], (v) => ctx.setLanguage(v))),
    field('currency', tx('span', t, 'currency'), select('currency', state.currency, CURRENCIES.map((c) => [c, t(`cur_${c}`)]), (v) => ctx.setCurrency(v))),
    state.currency === 'CNY' ? field('rate', tx('span', t, 'rate'), rateInput,
      fx ? h('span', { class: 'hint', id: 'rate-source' }, t('rateSource', { rate: fx.CNY_per_USD, date: ctx.fmt.date(fx.as_of) })) : null) : null,
    field('theme', tx('span', t, 'theme'), select('theme', theme, [['auto', t('themeAuto')], ['light', t('themeLight')], ['dark', t('themeDark')]], setTheme)));
}
