// The form helpers and result widgets shared by the decision-tool panels (every control labelled; ids are unique
// per panel). The panels and the tab container (panel.js) import them from here.
import { h, tx, engineText, dataText } from '../views/dom.js';

const INPUT_DEBOUNCE_MS = 300;

export function debounce(fn, ms) {
  let timer = null;
  const d = (...args) => { clearTimeout(timer); timer = setTimeout(() => { timer = null; fn(...args); }, ms); };
  d.flush = (...args) => { clearTimeout(timer); timer = null; fn(...args); };
  d.cancel = () => clearTimeout(timer);
  return d;
}

// Appends nodes, skipping null/false (Element.append would write "null").
export function put(el, ...nodes) {
  el.append(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
  return el;
}

export function field(id, label, control, hint) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint || null);
}

// A number input bound to a tool field; typing is debounced, change/Enter applies at once.
export function numberInput(id, value, onText, attrs = {}) {
  const el = h('input', { id, type: 'number', inputmode: 'decimal', step: 'any', value: value ?? '', ...attrs });
  const d = debounce(() => onText(el.value.trim()), INPUT_DEBOUNCE_MS);
  el.addEventListener('input', () => d());
  el.addEventListener('change', () => d.flush());
  return el;
}

export function selectInput(id, value, options, onChange, attrs = {}) {
  return h('select', { id, onchange: (e) => onChange(e.target.value), ...attrs },
    options.map(([v, text, raw]) => h('option', { value: v, selected: v === value, 'data-raw': raw ? '' : null }, text)));
}

// Parses a typed number; '' (or nothing) means "not given".
export const num = (text) => (text === undefined || text === null || String(text).trim() === '' ? undefined : Number(text));

// A money amount the engine takes in USD, typed in the display currency: shown converted, stored in USD.
export function moneyText(fmt, usd) {
  if (usd === undefined || !Number.isFinite(usd)) return '';
  return String(+fmt.fromUsd(usd).toPrecision(6));
}
export const toUsdText = (fmt, text) => (text === '' ? '' : String(+(Number(text) / fmt.factor).toPrecision(8)));

// A key figure: label above, value below.
export function kpi(label, value, attrs = {}) {
  return h('div', { class: 'kpi', ...attrs }, h('span', { class: 'kpi-label' }, label), h('span', { class: 'kpi-value' }, value));
}

export function kv(pairs, attrs = {}) {
  return h('dl', { class: 'kv', ...attrs }, pairs.filter(Boolean).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

// "agrees" / "disagrees" with the article, as a badge.
export function verdict(t, agrees, attrs = {}) {
  return tx('span', t, agrees ? 'verdictAgrees' : 'verdictDisagrees', { class: `badge ${agrees ? 'ok' : 'bad'}`, ...attrs });
}

// Assumptions as the engine lists them: {key: {value, source}} -> a table of name, value and source.
export function assumptionsTable(t, fmt, assumptions, id) {
  const label = (k) => { const key = `as_${k}`; const s = t(key); return s === key ? dataText('span', k) : s; };
  // Shares as percentages, USD amounts in the display currency (the engine's unit is USD), the rest as given.
  const val = (k, v) => {
    if (typeof v === 'number') {
      if ((/(_fraction|_rate)$/.test(k) || k === 'utilisation') && v <= 1) return fmt.pct(v, 1);
      if (/usd/.test(k)) return v > 0 ? fmt.unitMoney(v) : fmt.money(v);
      return fmt.sig(v, 4);
    }
    return typeof v === 'string' || (v && v.code) ? engineText('span', v) : engineText('span', JSON.stringify(v));
  };
  const entries = Object.entries(assumptions || {});
  const sourced = entries.some(([, a]) => a && typeof a === 'object' && a.source);
  const rows = entries.map(([k, a]) => {
    const isObj = a && typeof a === 'object' && 'value' in a;
    const v = isObj ? a.value : a;
    return h('tr', { 'data-key': k }, h('th', { scope: 'row' }, label(k)), h('td', { class: typeof v === 'number' ? 'num' : 'text' }, val(k, v)),
      sourced ? h('td', { class: 'src' }, isObj && a.source ? engineText('span', a.source) : '') : null);
  });
  return h('div', { class: 'scroll-x' }, h('table', { class: 'mini assumptions', id },
    h('thead', {}, h('tr', {}, tx('th', t, 'asName', { scope: 'col' }), tx('th', t, 'asValue', { scope: 'col' }), sourced ? tx('th', t, 'asSource', { scope: 'col' }) : null)),
    h('tbody', {}, rows)));
}

// The engine's error: every issue with its JSON Pointer path and its explanation in the reader's language.
export function errorBox(t, result, id) {
  const errors = (result.issues || []).filter((i) => !i.warning);
  const err = result.error || { path: '', message: 'engine error' };
  const issues = errors.length ? errors : [{ path: err.path, message: err.explanation || err.message }];
  return h('div', { class: 'notice bad tool-error', role: 'alert', id },
    h('p', {}, h('strong', { 'data-i18n': 'engineError' }, t('engineError')), h('br'), tx('span', t, 'toolErrorHint', { class: 'sub' })),
    h('ul', { class: 'issues' }, issues.map((i) => h('li', {},
      i.path ? h('code', { class: 'path', 'data-raw': '' }, i.path) : null, i.path ? ' ' : null,
      engineText('span', typeof i.message === 'string' && i.path && i.message.startsWith(`${i.path}: `) ? i.message.slice(i.path.length + 2) : i.message)))));
}

// Options for a GPU select: [id, name, raw].
export const gpuOptions = (gpus, filter = () => true) => gpus.filter(filter).map((g) => [g.id, g.name, true]);

// Which catalog prices a tool may pick: the page's switches for the article's illustrative offers and stale prices.
export function scopeOf(c) {
  const f = c.state.filters;
  return { include_examples: Boolean(f.examples), include_stale: !f.hideStale };
}

// The workload of the current view as the ranking asks for it, as an engine request fragment: {preset} and the
// workload members that override it (the software stack), or {workload}; and the precision.
export function workloadOf(c) {
  const r = c.request || {};
  const out = r.preset ? { preset: r.preset } : {};
  if (r.workload) out.workload = r.workload;
  if (r.precision) out.precision = r.precision;
  return out;
}

// "3× NVIDIA A100 80GB SXM4" and the like: catalog/database text, kept as data.
export const dataLabel = (text, attrs = {}) => dataText('span', text, attrs);

// A ratio as "2.61×".
export const times = (fmt, x) => (Number.isFinite(x) && x > 0 ? `${fmt.num(x, 2)}×` : '—');
