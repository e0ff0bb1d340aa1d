// Decision tools (article §4-§5): advisor, spot/reserved portfolio planner, MIG packing, cost levers, scenario
// comparison, energy and own-vs-rent. One tab at a time (WAI-ARIA tabs: arrow keys move between them); the
// tab and every input the user set live in the URL hash (state.tools, "<tool>.<field>=value").
//
// A panel is { id, titleKey, introKey, inputsKey?(c, st), inputs(c, st, io), calls(c, st), render(out, results, c, st, io) }
// (render runs once some call answered ok, or always with alwaysRender; ownErrors: the panel shows the errors itself):
//   - inputs builds the labelled controls; io.set(field, text) stores a value in the URL state (rebuild: true
//     redraws the inputs, e.g. after a preset button);
//   - calls returns the engine calls for the current inputs, [{method, request} | {op, args}], or {messageKey} when the
//     panel cannot run (no offer selected…); they run in the engine host (a worker) and are cached on their JSON;
//   - render fills the results area from the engine's answers (every number from the engine; engine sentences
//     shown as engine text, catalog strings as data). Engine errors are shown with their JSON Pointer paths and
//     the inputs that carry those paths (data-path) are marked invalid.
import { h, tx } from '../views/dom.js';
import { whenNear } from '../views/near.js';
import { TOOL_IDS, displayOf } from '../state/state.js';
import { Chart, palette } from '../views/charts.js';
import { timed } from '../views/profile.js';
import { nextTask } from '../views/tasks.js';
import { errorBox } from './form.js';

// The tabs, in TOOL_IDS's order: each panel's code is loaded when its tab opens (on the site, a chunk of its own).
// A tab opens when the reader reaches the tools, chooses a tab, or follows a link that names a tool (session.toolsOpen).
export const TOOL_TABS = [
  { id: 'advise', titleKey: 'toolAdvise', load: () => import('./advise.js').then((m) => m.advisePanel) },
  { id: 'probe', titleKey: 'toolProbe', load: () => import('./probe.js').then((m) => m.probePanel) },
  { id: 'plan', titleKey: 'toolPlan', load: () => import('./plan.js').then((m) => m.planPanel) },
  { id: 'serverless', titleKey: 'toolServerless', load: () => import('./serverless.js').then((m) => m.serverlessPanel) },
  { id: 'mig', titleKey: 'toolMig', load: () => import('./mig.js').then((m) => m.migPanel) },
  { id: 'levers', titleKey: 'toolLevers', load: () => import('./levers.js').then((m) => m.leversPanel) },
  { id: 'compare', titleKey: 'toolCompare', load: () => import('./compare.js').then((m) => m.comparePanel) },
  { id: 'energy', titleKey: 'toolEnergy', load: () => import('./energy.js').then((m) => m.energyPanel) },
];
// A call of a panel: an engine method ({method, request}: the 'call' operation) or another operation of the engine
// host ({op, args}, e.g. the serving ranking).
const opOf = (s) => (s.op ? [s.op, s.args] : ['call', s]);
const errorPaths = (results) => results.filter((r) => r && r.ok === false)
  .flatMap((r) => (r.issues && r.issues.length ? r.issues : [r.error || {}]).filter((i) => !i.warning).map((i) => i.path || ''));

// What a panel may do with its own inputs: store them in the URL state, reset them, draw charts.
function toolIo(id, app, env) {
  return {
    set(fieldName, value, { rebuild: rb = false } = {}) { this.setMany({ [fieldName]: value }, { rebuild: rb }); },
    setMany(values, { rebuild: rb = false } = {}) {
      const cur = env.ctx().current().state;
      const next = { ...(cur.tools[id] || {}) };
      for (const [k, v] of Object.entries(values)) {
        if (v === undefined || v === null || v === '') delete next[k]; else next[k] = String(v);
      }
      if (rb) env.rebuild();
      app.update({ tools: { ...cur.tools, [id]: next } }, { inPlace: true });
    },
    reset() {
      const cur = env.ctx().current().state;
      const tools = { ...cur.tools };
      delete tools[id];
      env.rebuild();
      app.update({ tools }, { inPlace: true });
    },
    ctx: env.ctx,
    // A chart (views/plot.js) in the results area (destroyed when the results are drawn again).
    chart(canvas, config) {
      const chart = new Chart(canvas, config);
      env.charts.push(chart);
      return chart;
    },
    palette,
  };
}

// The tab list (WAI-ARIA tabs: arrow keys, Home and End move between them).
function tabList(c, app) {
  const { t } = c;
  const active = c.state.tool;
  const focusTab = (id) => { const b = document.getElementById(`tab-${id}`); if (b) b.focus(); };
  // Choosing a tab opens the tools (its panel's code loads) and shows that tab.
  const choose = (id) => { app.session.toolsOpen = true; app.update({ tool: id }, { inPlace: true }); };
  const onKey = (e) => {
    const i = TOOL_IDS.indexOf(active);
    let next = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = TOOL_IDS[(i + 1) % TOOL_IDS.length];
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = TOOL_IDS[(i + TOOL_IDS.length - 1) % TOOL_IDS.length];
    else if (e.key === 'Home') next = TOOL_IDS[0];
    else if (e.key === 'End') next = TOOL_IDS[TOOL_IDS.length - 1];
    if (!next) return;
    e.preventDefault();
    choose(next);
    focusTab(next);
  };
  return h('div', { class: 'tablist', role: 'tablist', 'aria-label': t('toolsTitle'), onkeydown: onKey },
    TOOL_TABS.map((p) => h('button', {
      type: 'button', role: 'tab', id: `tab-${p.id}`, 'aria-selected': p.id === active ? 'true' : 'false', 'aria-controls': `tool-${p.id}`,
      tabindex: p.id === active ? '0' : '-1', class: 'tab', onclick: () => choose(p.id),
    }, tx('span', t, p.titleKey))));
}

// Marks the inputs whose data-path an engine error names (aria-invalid, pointing at the error box).
function markInvalid(section, paths, tab) {
  for (const el of section.querySelectorAll('[data-path]')) {
    const bad = paths.some((p) => p && (p === el.dataset.path || p.startsWith(`${el.dataset.path}/`)));
    if (bad) { el.setAttribute('aria-invalid', 'true'); el.setAttribute('aria-errormessage', `tool-${tab}-error`); } else { el.removeAttribute('aria-invalid'); el.removeAttribute('aria-errormessage'); }
  }
}

// ---- the tabs ----

// What the tools show before the open tab's panel is in: the tabs and a note (section state 'closed' until the tools
// open, 'loading' while the panel's code loads, 'error' when it could not be loaded).
function waiting(container, c, app, tab, state) {
  const section = h('div', { class: 'tool', id: `tool-${tab.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${tab.id}`, 'data-state': state },
    tx('p', c.t, state === 'error' ? 'toolLoadFailed' : 'toolLoading', { class: 'sub', id: `tool-${tab.id}-note` }));
  container.replaceChildren(tx('h2', c.t, 'toolsTitle', { id: 'tools-title' }), tx('p', c.t, 'toolsIntro', { class: 'hint' }), tabList(c, app), section);
}

// The open tab's panel once its code is in. Before, the tabs and a note are drawn (waiting), and the code is loaded
// once the tools are open: when they come near the screen (watched once the page shows a ranking: before it, the
// empty page would put them on the screen), when a tab is chosen, or when a link names a tool. again(): draw the
// tools again (a panel came in, or the tools opened).
function panelLoader(container, app, again) {
  const tabs = new Map(TOOL_TABS.map((p) => [p.id, p]));
  const panels = new Map();   // the panels loaded, by id
  const loads = new Set();    // the ids whose load is under way
  const failed = new Set();   // those whose code could not be loaded (tried again when the page is built again)
  let stopWatch = null;   // waiting for the tools to come near the screen
  let waitingKey = null;
  const tabOf = (c) => tabs.get(c.state.tool) || TOOL_TABS[0];

  function watch(c) {
    if (stopWatch || app.session.toolsOpen || !c.view) return;
    stopWatch = whenNear(container, () => { stopWatch = null; app.session.toolsOpen = true; again(); });
  }

  return {
    loaded: (c) => panels.get(tabOf(c).id),
    // The open tab's panel, or null while it is not in (the tabs and a note drawn, its load started if the tools are open).
    panel(c) {
      const tab = tabOf(c);
      if (panels.has(tab.id)) { waitingKey = null; return panels.get(tab.id); }
      const state = !app.session.toolsOpen ? 'closed' : failed.has(tab.id) ? 'error' : 'loading';
      const key = JSON.stringify([tab.id, state, c.state.lang]);
      if (waitingKey !== key) {
        const draw = () => waiting(container, c, app, tab, state);
        if (c.preserve) c.preserve(draw); else draw();
        waitingKey = key;
      }
      if (state === 'closed') watch(c);
      if (state === 'loading' && !loads.has(tab.id)) {
        loads.add(tab.id);
        tab.load().then((panel) => { panels.set(tab.id, panel); }, () => { failed.add(tab.id); })
          .then(() => { loads.delete(tab.id); again(); });
      }
      return null;
    },
    destroy() { if (stopWatch) stopWatch(); stopWatch = null; },
  };
}

// app: {update(patch, options), session} (session.toolsOpen: the tools have been opened in this page's life).
export function createTools(container, app) {
  let built = null;      // {tab, inputsKey, section, inputsEl, outEl}
  let callsKey = null;
  let shownKey = null;
  let results = null;
  let rebuild = 0;
  let ctxNow = null;
  const liveCharts = [];

  function stateOf(c, id) { return c.state.tools[id] || {}; }
  // What the results area shows depends on, declared once: the engine calls' key, the display settings, the
  // inputs built, and what the panel itself declares (displayKey).
  const displayKeyOf = (c, panel, key) => JSON.stringify([key, displayOf(c.state), c.theme,
    built.inputsKey, panel.displayKey ? panel.displayKey(c, stateOf(c, panel.id)) : '']);

  const env = {
    ctx: () => ctxNow,
    rebuild: () => { rebuild += 1; },
    charts: liveCharts,
  };
  const io = (id) => toolIo(id, app, env);
  const loader = panelLoader(container, app, () => { if (ctxNow) update(ctxNow); });

  function showResults(c, panel, st) {
    const out = built.outEl;
    // A panel may take some engine errors as a question to the user (panel.prompt): not an error of the panel.
    const bad = results.filter((r) => r && r.ok === false && !(panel.prompt && panel.prompt(r, st)));
    const render = () => {
      for (const ch of liveCharts) ch.destroy();
      liveCharts.length = 0;
      out.replaceChildren();
      if (bad.length && !panel.ownErrors) out.append(errorBox(c.t, bad[0], `tool-${panel.id}-error`), ...bad.slice(1).map((r, i) => errorBox(c.t, r, `tool-${panel.id}-error-${i + 2}`)));
      if (results.some((r) => r && r.ok) || panel.alwaysRender) panel.render(out, results, c, st, io(panel.id));
    };
    if (c.preserve) c.preserve(render); else render();
    markInvalid(built.section, errorPaths(bad), built.tab);
    built.section.dataset.state = bad.length ? 'error' : 'ready';
  }

  function update(c) {
    ctxNow = c;
    const { t } = c;
    const panel = loader.panel(c);
    if (!panel) { built = null; return; }
    const st = stateOf(c, panel.id);
    const inputsKey = JSON.stringify([panel.id, displayOf(c.state), c.catalog.version, rebuild,
      panel.inputsKey ? panel.inputsKey(c, st) : '']);
    if (!built || built.inputsKey !== inputsKey) {
      const keepFocus = () => {
        const section = h('div', { class: 'tool', id: `tool-${panel.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${panel.id}`, 'data-state': 'idle' });
        const inputsEl = h('div', { class: 'tool-inputs', id: `tool-${panel.id}-inputs` }, panel.inputs(c, st, io(panel.id)));
        const outEl = h('div', { class: 'tool-out', id: `tool-${panel.id}-out`, 'aria-live': 'polite' });
        section.append(tx('p', t, panel.introKey, { class: 'hint tool-intro' }), inputsEl, outEl);
        container.replaceChildren(tx('h2', t, 'toolsTitle', { id: 'tools-title' }), tx('p', t, 'toolsIntro', { class: 'hint' }), tabList(c, app), section);
        built = { tab: panel.id, inputsKey, section, inputsEl, outEl };
        shownKey = null;
      };
      if (c.preserve) c.preserve(keepFocus); else keepFocus();
    }
    const spec = panel.calls(c, st);
    const key = JSON.stringify([panel.id, spec, c.catalog.version]);
    const displayKey = displayKeyOf(c, panel, key);
    if (!Array.isArray(spec)) {
      callsKey = key;
      results = null;
      if (shownKey !== displayKey) {
        built.outEl.replaceChildren(tx('p', t, spec.messageKey, { class: 'empty', id: `tool-${panel.id}-message` }));
        markInvalid(built.section, [], built.tab);
        built.section.dataset.state = 'ready';
        shownKey = displayKey;
      }
      return;
    }
    if (key !== callsKey) {
      callsKey = key;
      results = null;
      shownKey = null;
      // The engine's answers come from the page's one cache (c.ask / c.peek: app/answers.js), one per call.
      const hit = spec.map((s) => c.peek(...opOf(s)));
      if (hit.every((x) => x !== undefined)) results = hit;
      else {
        built.section.dataset.state = 'loading';
        built.outEl.setAttribute('aria-busy', 'true');
        Promise.all(spec.map((s) => c.ask(...opOf(s))))
          .then(async (rs) => {
            await nextTask();  // draw in a task of its own
            if (callsKey !== key || !built) return;
            results = rs;
            built.outEl.removeAttribute('aria-busy');
            const cur = ctxNow;
            const p = loader.loaded(cur);
            if (!p || p.id !== panel.id) return;
            shownKey = displayKeyOf(cur, p, key);
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
    destroy() {
      for (const ch of liveCharts) ch.destroy();
      liveCharts.length = 0;
      built = null;
      loader.destroy();
    },
  };
}
