// Decision tools (article §4-§5): advisor, spot/reserved portfolio planner, MIG packing, cost levers, scenario
// comparison, energy and own-vs-rent. One tab at a time (WAI-ARIA tabs: arrow keys move between them); the
// tab and every input the user set live in the URL hash (state.tools, "<tool>.<field>=value").
//
// A panel is { id, titleKey, introKey, inputsKey?(c, st), inputs(c, st, io), calls(c, st), render(out, results, c, st, io) }:
//   - inputs builds the labelled controls; io.set(field, text) stores a value in the URL state (rebuild: true
//     redraws the inputs, e.g. after a preset button);
//   - calls returns the engine calls for the current inputs, [{method, request}], or {messageKey} when the
//     panel cannot run (no offer selected…); they run in the engine host (a worker) and are cached on their JSON;
//   - render fills the results area from the engine's answers (every number from the engine; engine sentences
//     shown as engine text, catalog strings as data). Engine errors are shown with their JSON Pointer paths and
//     the inputs that carry those paths (data-path) are marked invalid.
import { h, tx, engineText, dataText } from '../views/dom.js';
import { TOOL_IDS } from '../app/state.js';
import { Chart, palette } from '../views/charts.js';
import { timed } from '../app/profile.js';
import { errorData } from '../engine/errors.js';
import { advisePanel } from './advise.js';
import { planPanel } from './plan.js';
import { migPanel } from './mig.js';
import { leversPanel } from './levers.js';
import { comparePanel } from './compare.js';
import { energyPanel } from './energy.js';

export const TOOL_PANELS = [advisePanel, planPanel, migPanel, leversPanel, comparePanel, energyPanel];
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

// ---- controls shared by the panels (every one labelled; ids are unique per panel) ----

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
    return typeof v === 'string' ? engineText('span', v) : engineText('span', JSON.stringify(v));
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

// The engine's error: its message and every issue with its JSON Pointer path.
export function errorBox(t, result, id) {
  const issues = (result.issues && result.issues.filter((i) => !i.warning).length ? result.issues.filter((i) => !i.warning) : [result.error || { path: '', message: 'engine error' }]);
  return h('div', { class: 'notice bad tool-error', role: 'alert', id },
    h('p', {}, h('strong', { 'data-i18n': 'engineError' }, t('engineError')), h('br'), tx('span', t, 'toolErrorHint', { class: 'sub' })),
    h('ul', { class: 'issues' }, issues.map((i) => h('li', {},
      i.path ? h('code', { class: 'path', 'data-raw': '' }, i.path) : null, i.path ? ' ' : null,
      engineText('span', i.path && i.message.startsWith(`${i.path}: `) ? i.message.slice(i.path.length + 2) : i.message)))));
}

const errorPaths = (results) => results.filter((r) => r && r.ok === false)
  .flatMap((r) => (r.issues && r.issues.length ? r.issues : [r.error || {}]).filter((i) => !i.warning).map((i) => i.path || ''));

// ---- the tabs ----

export function createTools(container, app) {
  const panels = new Map(TOOL_PANELS.map((p) => [p.id, p]));
  let built = null;      // {tab, inputsKey, section, inputsEl, outEl}
  let callsKey = null;
  let shownKey = null;
  let results = null;
  let rebuild = 0;
  let ctxNow = null;
  let liveCharts = [];
  const cache = new Map();

  function stateOf(c, id) { return c.state.tools[id] || {}; }

  function io(id) {
    return {
      set(fieldName, value, { rebuild: rb = false } = {}) { this.setMany({ [fieldName]: value }, { rebuild: rb }); },
      setMany(values, { rebuild: rb = false } = {}) {
        const cur = ctxNow.current().state;
        const next = { ...(cur.tools[id] || {}) };
        for (const [k, v] of Object.entries(values)) {
          if (v === undefined || v === null || v === '') delete next[k]; else next[k] = String(v);
        }
        if (rb) rebuild += 1;
        app.update({ tools: { ...cur.tools, [id]: next } }, { inPlace: true });
      },
      reset() {
        const cur = ctxNow.current().state;
        const tools = { ...cur.tools };
        delete tools[id];
        rebuild += 1;
        app.update({ tools }, { inPlace: true });
      },
      ctx: () => ctxNow,
      // A Chart.js chart in the results area (destroyed when the results are drawn again).
      chart(canvas, config) {
        const chart = new Chart(canvas, config);
        liveCharts.push(chart);
        return chart;
      },
      palette,
    };
  }

  function tabs(c) {
    const { t } = c;
    const active = c.state.tool;
    const focusTab = (id) => { const b = document.getElementById(`tab-${id}`); if (b) b.focus(); };
    const onKey = (e) => {
      const i = TOOL_IDS.indexOf(active);
      let next = null;
      if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = TOOL_IDS[(i + 1) % TOOL_IDS.length];
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = TOOL_IDS[(i + TOOL_IDS.length - 1) % TOOL_IDS.length];
      else if (e.key === 'Home') next = TOOL_IDS[0];
      else if (e.key === 'End') next = TOOL_IDS[TOOL_IDS.length - 1];
      if (!next) return;
      e.preventDefault();
      app.update({ tool: next }, { inPlace: true });
      focusTab(next);
    };
    return h('div', { class: 'tablist', role: 'tablist', 'aria-label': t('toolsTitle'), onkeydown: onKey },
      TOOL_PANELS.map((p) => h('button', {
        type: 'button', role: 'tab', id: `tab-${p.id}`, 'aria-selected': p.id === active ? 'true' : 'false', 'aria-controls': `tool-${p.id}`,
        tabindex: p.id === active ? '0' : '-1', class: 'tab', onclick: () => app.update({ tool: p.id }, { inPlace: true }),
      }, tx('span', t, p.titleKey))));
  }

  function markInvalid(section, paths) {
    for (const el of section.querySelectorAll('[data-path]')) {
      const bad = paths.some((p) => p && (p === el.dataset.path || p.startsWith(`${el.dataset.path}/`)));
      if (bad) { el.setAttribute('aria-invalid', 'true'); el.setAttribute('aria-errormessage', `tool-${built.tab}-error`); } else { el.removeAttribute('aria-invalid'); el.removeAttribute('aria-errormessage'); }
    }
  }

  function showResults(c, panel, st) {
    const out = built.outEl;
    const bad = results.filter((r) => r && r.ok === false);
    const render = () => {
      for (const ch of liveCharts) ch.destroy();
      liveCharts = [];
      out.replaceChildren();
      if (bad.length && !panel.ownErrors) out.append(errorBox(c.t, bad[0], `tool-${panel.id}-error`), ...bad.slice(1).map((r, i) => errorBox(c.t, r, `tool-${panel.id}-error-${i + 2}`)));
      if (results.some((r) => r && r.ok)) panel.render(out, results, c, st, io(panel.id));
    };
    if (c.preserve) c.preserve(render); else render();
    markInvalid(built.section, errorPaths(results));
    built.section.dataset.state = bad.length ? 'error' : 'ready';
  }

  function update(c) {
    ctxNow = c;
    const { t } = c;
    const panel = panels.get(c.state.tool) || TOOL_PANELS[0];
    const st = stateOf(c, panel.id);
    const inputsKey = JSON.stringify([panel.id, c.state.lang, c.state.currency, c.state.rate, c.catalog.version, rebuild,
      panel.inputsKey ? panel.inputsKey(c, st) : '']);
    if (!built || built.inputsKey !== inputsKey) {
      const keepFocus = () => {
        const section = h('div', { class: 'tool', id: `tool-${panel.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${panel.id}`, 'data-state': 'idle' });
        const inputsEl = h('div', { class: 'tool-inputs', id: `tool-${panel.id}-inputs` }, panel.inputs(c, st, io(panel.id)));
        const outEl = h('div', { class: 'tool-out', id: `tool-${panel.id}-out`, 'aria-live': 'polite' });
        section.append(tx('p', t, panel.introKey, { class: 'hint tool-intro' }), inputsEl, outEl);
        container.replaceChildren(tx('h2', t, 'toolsTitle', { id: 'tools-title' }), tx('p', t, 'toolsIntro', { class: 'hint' }), tabs(c), section);
        built = { tab: panel.id, inputsKey, section, inputsEl, outEl };
        shownKey = null;
      };
      if (c.preserve) c.preserve(keepFocus); else keepFocus();
    }
    const spec = panel.calls(c, st);
    const key = JSON.stringify([panel.id, spec, c.catalog.version]);
    const displayKey = JSON.stringify([key, c.state.lang, c.state.currency, c.state.rate, c.theme, built.inputsKey, panel.displayKey ? panel.displayKey(c, st) : '']);
    if (!Array.isArray(spec)) {
      callsKey = key;
      results = null;
      if (shownKey !== displayKey) {
        built.outEl.replaceChildren(tx('p', t, spec.messageKey, { class: 'empty', id: `tool-${panel.id}-message` }));
        markInvalid(built.section, []);
        built.section.dataset.state = 'ready';
        shownKey = displayKey;
      }
      return;
    }
    if (key !== callsKey) {
      callsKey = key;
      results = null;
      shownKey = null;
      const hit = cache.get(key);
      if (hit) results = hit;
      else {
        built.section.dataset.state = 'loading';
        built.outEl.setAttribute('aria-busy', 'true');
        Promise.all(spec.map((s) => c.host.request('call', s).catch((e) => ({ ok: false, error: errorData(e) }))))
          .then(async (rs) => {
            await new Promise((resolve) => { setTimeout(resolve, 0); });  // draw in a task of its own
            cache.set(key, rs);
            if (cache.size > 32) cache.delete(cache.keys().next().value);
            if (callsKey !== key || !built) return;
            results = rs;
            built.outEl.removeAttribute('aria-busy');
            const cur = ctxNow;
            const p = panels.get(cur.state.tool) || TOOL_PANELS[0];
            if (p.id !== panel.id) return;
            shownKey = JSON.stringify([key, cur.state.lang, cur.state.currency, cur.state.rate, cur.theme, built.inputsKey, p.displayKey ? p.displayKey(cur, stateOf(cur, p.id)) : '']);
            timed(`tool ${p.id}`, () => showResults(cur, p, stateOf(cur, p.id)));
          });
        return;
      }
    }
    if (results && shownKey !== displayKey) {
      shownKey = displayKey;
      built.outEl.removeAttribute('aria-busy');
      showResults(c, panel, st);
    }
  }

  return {
    update,
    destroy() { for (const ch of liveCharts) ch.destroy(); liveCharts = []; built = null; },
  };
}

// Options for a GPU select: [id, name, raw].
export const gpuOptions = (gpus, filter = () => true) => gpus.filter(filter).map((g) => [g.id, g.name, true]);

// The workload of the current view as an engine request fragment ({preset} or {workload}, and precision).
export function workloadOf(c) {
  const r = c.request || {};
  const out = r.preset ? { preset: r.preset } : { workload: r.workload };
  if (r.precision) out.precision = r.precision;
  return out;
}

// "3× NVIDIA A100 80GB SXM4" and the like: catalog/database text, kept as data.
export const dataLabel = (text, attrs = {}) => dataText('span', text, attrs);

// A ratio as "2.61×".
export const times = (fmt, x) => (Number.isFinite(x) && x > 0 ? `${fmt.num(x, 2)}×` : '—');
