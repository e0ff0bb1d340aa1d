// The calculator page: workload → ranked offers → charts → details → comparison → decision tools. Every number
// comes from the wasm engine, which runs in a Web Worker (engine/host.js) so that no engine call blocks the
// page; this module owns the state, asks the engine host for views and hands them to the view modules.
import { startHost } from '../engine/host.js';
import { errorData } from '../engine/errors.js';
import { setErrorRenderer } from '../engine/client.js';
import { pickLanguage, translator } from '../i18n/index.js';
import { h, tx, txv, clear, dataText, engineText, setMessageRenderer } from '../views/dom.js';
import { messageRenderer } from '../i18n/messages.js';
import { makeFormatter } from '../views/format.js';
import { defaultState, rankRequest, defaultCurrency, bundledFx } from './state.js';
import { parseHash, serializeHash } from './hash.js';
import { setNames } from './names.js';
import { renderTable, syncTableMarks, trimTable } from '../views/table.js';
import { createCharts } from '../views/charts.js';
import { createSensitivity } from '../views/sensitivity.js';
import { createAccuracy } from '../views/accuracy.js';
import { renderDetails, renderCompare } from '../views/details.js';
import { workloadPanel, filtersPanel, weightsPanel, settingsBar } from '../views/controls.js';
import { dataPanel } from '../views/import.js';
import { UserDataMethods } from './userdata.js';
import { ImportFlowMethods } from './importflow.js';
import { storedValues, resetStored, download, allDocs, resetDocs } from './saved.js';
import { OverviewMethods } from '../views/overview.js';
import { storedTheme, applyTheme } from '../views/theme.js';
import { createTools } from '../tools/panel.js';
import { timed, PROFILE } from './profile.js';
import { memoStep } from './memo.js';

const LANG_KEY = 'gpuvalue.lang';
const VIEW_CACHE = 12;
// Rows sent to the page per view: every row of the bundled catalog; a catalog of thousands of offers shows its
// first rows in the chosen order (the scatter still shows all of them, thinned; exports hold every row).
const VIEW_LIMIT = 250;
const CONTROL_KEYS = ['preset', 'custom', 'precision', 'software', 'filters', 'weights', 'currency', 'rate'];

async function loadData() {
  const inline = document.getElementById('gv-data');
  if (inline) return inline.textContent;
  const res = await fetch('data/bundle.json');
  if (!res.ok) throw new Error(`data/bundle.json: HTTP ${res.status}`);
  return res.text();
}

// Yields to the event loop: the rest runs in a new task (so that input and paint come in between). Answers from
// the engine worker arrive in a message task whose promise continuations would otherwise all run in that one task.
export const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });

// A view from the engine host, with a key index over every row it carries.
function prepareView(v) {
  v.fresh = true;
  v.lookedUp = new Set();
  if (v.error) { v.byKey = new Map(); v.rows = []; return v; }
  v.byKey = new Map([...v.extra, ...v.rows].map((r) => [r._key, r]));
  return v;
}


const safeStorage = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* blocked */ } },
};

class App {
  constructor(root, host, data) {
    this.root = root;
    this.host = host;
    this.data = data;
    this.bundledDocs = data.catalogs.map((c) => c.doc);
    this.fx = bundledFx(data);
    this.defaults = host.meta.defaults;
    setNames(this.defaults.names);
    this.presets = host.meta.presets;
    this.gpus = host.meta.gpus;
    this.catalog = host.meta.catalog;
    this.views = new Map();
    this.detailsCache = new Map();
    this.notices = [];
    this.theme = storedTheme();
    this.userData = { catalogs: [], lastMessage: null, form: null, formOpen: false, editingId: null, formMessage: null, providerName: '', busy: null };
    this.timings = [];

    const presetIds = this.presets.map((p) => p.id);
    const lang = pickLanguage(null, navigator.languages);
    this.base = defaultState(this.defaults, { lang, rate: this.fx ? this.fx.CNY_per_USD : 0, presetId: presetIds.includes('resnet50-imagenet') ? 'resnet50-imagenet' : presetIds[0] });
    this.presetIds = presetIds;
    this.state = this.stateFromHash(location.hash);
    applyTheme(this.theme);
    window.addEventListener('hashchange', () => {
      if (location.hash === this.lastHash) return;
      this.state = this.stateFromHash(location.hash);
      this.build();
    });
    if (window.matchMedia) window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.render());
    // Dropping files anywhere imports them (and keeps the browser from navigating to a file).
    document.addEventListener('dragover', (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault(); });
    document.addEventListener('drop', (e) => {
      const files = e.dataTransfer && e.dataTransfer.files;
      if (!files || !files.length) return;
      e.preventDefault();
      this.importFiles(files);
    });
  }

  stateFromHash(hash) {
    const stored = safeStorage.get(LANG_KEY);
    const base = { ...structuredClone(this.base), lang: pickLanguage(stored, navigator.languages) };
    const c = this.catalog;
    return parseHash(hash, base, { presetIds: this.presetIds, known: c && { providers: c.providers, regions: c.regions, gpus: c.gpus } });
  }

  // ---- state updates ----
  update(patch = {}, { inPlace = false } = {}) {
    const prev = this.state;
    this.state = { ...prev, ...patch };
    if (!this.el || (patch.lang && patch.lang !== prev.lang)) return this.build();
    // Sorting, selecting and comparing leave the inputs as they are; an empty patch means "data changed".
    const keys = Object.keys(patch);
    if (!inPlace && (!keys.length || keys.some((k) => CONTROL_KEYS.includes(k)))) timed('controls', () => this.buildControls());
    timed('render', () => this.preserve(() => this.render()));
    return undefined;
  }

  // Switching currency keeps a budget the same amount of money (converted at the current rate).
  setCurrency(currency) {
    const { filters, rate } = this.state;
    let budget = filters.budget;
    if (budget > 0 && rate > 0 && currency !== this.state.currency) budget = +(currency === 'CNY' ? budget * rate : budget / rate).toFixed(2);
    this.update({ currency, filters: { ...filters, budget } });
  }

  setLanguage(lang) {
    safeStorage.set(LANG_KEY, lang);
    // The currency follows the language unless the reader chose the other one.
    const currency = this.state.currency === defaultCurrency(this.state.lang) ? defaultCurrency(lang) : this.state.currency;
    this.update({ lang, currency });
  }

  // Shows an offer in the details panel; brings the panel into view when it is below the screen.
  select(key, { focus = false } = {}) {
    this.update({ sel: key });
    const title = document.getElementById('details-title');
    if (!title) return;
    if (focus) title.focus();
    else if (title.getBoundingClientRect().top > window.innerHeight) title.scrollIntoView({ block: 'start' });
  }

  toggleCompare(key, on) {
    const cmp = this.state.cmp.filter((k) => k !== key);
    if (on && cmp.length < 4) cmp.push(key);
    this.update({ cmp });
  }

  get t() { return translator(this.state.lang); }

  ctx() {
    const fmt = makeFormatter({ lang: this.state.lang, currency: this.state.currency, rate: this.state.rate });
    if (!this.gpuName) {
      const names = new Map(this.gpus.map((g) => [g.id, g.name]));
      this.gpuName = (id) => names.get(id) ?? id;
    }
    const render = messageRenderer({ lang: this.state.lang, fmt, gpuName: this.gpuName });
    setMessageRenderer(render);
    setErrorRenderer(render);
    return {
      t: this.t, fmt, state: this.state, host: this.host, presets: this.presets, gpus: this.gpus, catalog: this.catalog,
      defaults: this.defaults, fx: this.fx, theme: this.theme, userData: this.userData, result: this.result, view: this.view,
      update: (p, o) => this.update(p, o), select: (k, o) => this.select(k, o), toggleCompare: (k, on) => this.toggleCompare(k, on),
      setLanguage: (l) => this.setLanguage(l), setCurrency: (c) => this.setCurrency(c), setTheme: (th) => { this.theme = th; applyTheme(th); this.update({}); },
      importFiles: (f) => this.importFiles(f), resolveImport: (item, mode) => this.resolveImport(item, mode), removeCatalog: (i) => this.removeCatalog(i), editOffer: (id, o) => this.editOffer(id, o),
      saveOffer: (v) => this.saveOffer(v), cancelOfferForm: () => this.cancelOfferForm(), current: () => this.ctxWithSel(),
      exportCatalog: (i) => this.exportCatalog(i), repairCatalog: (i) => this.repairCatalog(i), cancelImport: () => this.cancelImport(),
      selKey: this.selKey,
    };
  }

  // What the decision tools see: the page context plus the current request, rows, selection and comparison.
  toolCtx(selected = null, compared = []) {
    return { ...this.ctx(), request: this.request, rows: this.rows || [], selected, compared, selKey: this.selKey, preserve: (fn) => this.preserve(fn) };
  }

  sensitivityCtx(selected) {
    return { ...this.ctxWithSel(), request: this.request, selected, preserve: (fn) => this.preserve(fn) };
  }

  // Keeps keyboard focus and open <details> across a re-render of part of the page.
  preserve(fn) {
    const active = document.activeElement && document.activeElement.id;
    const folds = [...this.root.querySelectorAll('details.fold[id], details.multi[id]')].map((d) => [d.id, d.open]);
    fn();
    for (const [id, open] of folds) { const d = document.getElementById(id); if (d) d.open = open; }
    if (active) {
      const el = document.getElementById(active);
      if (el && el !== document.activeElement) el.focus({ preventScroll: true });
    }
  }

  // Builds the page skeleton for the current language, then the controls and the results.
  build() {
    this.preserve(() => {
      const t = this.t;
      document.documentElement.lang = this.state.lang === 'zh' ? 'zh-CN' : 'en';
      document.title = t('pageTitle');
      if (this.charts) { this.charts.destroy(); this.charts = null; }
      this.steps = this.renderSteps();
      this.detailsSel = undefined;
      this.el = {
        settings: h('div', { class: 'settings-slot' }),
        notices: h('div', { id: 'notices' }),
        sidebar: h('div', { class: 'sidebar' }),
        overview: h('section', { id: 'overview', class: 'overview', 'aria-labelledby': 'overview-title' }),
        charts: h('section', { id: 'charts', class: 'charts', 'aria-label': t('chartsTitle') }),
        table: h('div', { class: 'table-wrap', id: 'table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': 'table-title' }),
        details: h('aside', { id: 'details', class: 'panel details', 'aria-labelledby': 'details-title' }),
        compare: h('section', { id: 'compare', class: 'panel compare-panel', 'aria-labelledby': 'compare-title' }),
        sensitivity: h('section', { id: 'sensitivity', class: 'panel sensitivity', 'aria-labelledby': 'sensitivity-title' }),
        accuracy: h('section', { id: 'accuracy', class: 'panel accuracy', 'aria-labelledby': 'accuracy-title' }),
        tools: h('section', { id: 'tools', class: 'tools panel', 'aria-labelledby': 'tools-title' }),
        footer: h('footer', { class: 'foot' }),
      };
      const header = h('header', { class: 'top' },
        h('div', { class: 'brand' }, tx('h1', t, 'title'), tx('p', t, 'tagline', { class: 'tagline' })), this.el.settings);
      this.el.tableNote = h('p', { class: 'sub table-note', id: 'table-note', hidden: true });
      const main = h('main', { id: 'results', tabindex: '-1' },
        this.el.overview, this.el.charts,
        h('div', { class: 'main-grid' },
          h('section', { class: 'table-section', 'aria-labelledby': 'table-title' }, tx('h2', t, 'tableTitle', { id: 'table-title' }), this.el.tableNote, this.el.table),
          this.el.details),
        this.el.sensitivity, this.el.accuracy, this.el.compare, this.el.tools);
      this.el.main = main;
      // The skip link moves focus without touching the URL hash, which holds the state.
      const skip = tx('a', t, 'skipToResults', { class: 'skip', href: '#results', onclick: (e) => { e.preventDefault(); document.getElementById('results').focus(); } });
      clear(this.root).append(skip, header, this.el.notices,
        h('div', { class: 'layout' }, this.el.sidebar, main), this.el.footer);
      this.charts = createCharts(this.el.charts, this.ctx());
      if (this.sensitivity) this.sensitivity.destroy();
      this.sensitivity = createSensitivity(this.el.sensitivity, this);
      if (this.accuracy) this.accuracy.destroy();
      this.accuracy = createAccuracy(this.el.accuracy, this);
      if (this.tools) this.tools.destroy();
      this.tools = createTools(this.el.tools, this);
      this.buildControls();
      this.render();
    });
  }

  // Rebuilds the inputs (settings bar and sidebar) from the state.
  buildControls() {
    this.preserve(() => {
      const ctx = this.ctx();
      const { t } = ctx;
      this.el.settings.replaceChildren(settingsBar(ctx));
      this.el.sidebar.replaceChildren(workloadPanel(ctx), filtersPanel(ctx), weightsPanel(ctx), dataPanel(ctx));
      this.el.footer.replaceChildren(tx('p', t, this.host.kind === 'worker' ? 'footerEngine' : 'footerEngineMain'),
        h('p', {}, t('footerData', { offers: ctx.fmt.int(this.catalog.count), providers: ctx.fmt.int(this.catalog.providers.length) })));
    });
  }

  // Renders results for the current state. The ranking comes from the engine host (a worker) as a "view":
  // the rows in table order, cached here per request and sort. Without a cached view the page asks for one and
  // keeps showing the previous results (marked busy) until it arrives. What is drawn then is split into steps
  // (renderSteps) that re-run only when the inputs they declare change; the charts, deferred details and the
  // URL follow in the next animation frame so that the table paints first.
  render() {
    if (!this.el) return;
    const t0 = performance.now();
    const request = rankRequest(this.state);
    this.request = request;
    const vkey = JSON.stringify([request, this.state.sort, this.catalog.version]);
    const view = this.cachedView(vkey);
    if (!view) {
      this.markBusy();
      this.el.main.setAttribute('aria-busy', 'true');
      this.fetchView(vkey, request, this.state.sort);
      if (this.rows && this.rows.length > 60) trimTable(this.el.table);
      if (this.tools) this.tools.update(this.toolCtx());
      return;
    }
    this.el.main.removeAttribute('aria-busy');
    if (this.fetchMissingRows(view, request)) return;
    if (this.pendingSelectId && !view.error) {
      const hit = view.rows.find((r) => r.id === this.pendingSelectId);
      this.pendingSelectId = null;
      if (hit) { this.state = { ...this.state, sel: hit._key }; }
    }
    this.paint(view, request, t0);
  }

  // The cached view of a request and sort (most recently used last); null when the engine must make it.
  cachedView(vkey) {
    const view = this.views.get(vkey);
    if (!view) return null;
    this.views.delete(vkey);
    this.views.set(vkey, view);
    return view;
  }

  // Rows asked for by the URL or the comparison that lie beyond the rows shown: fetches them and renders again.
  // True while they are on their way.
  fetchMissingRows(view, request) {
    if (view.error || view.total <= view.rows.length) return false;
    const missing = [this.state.sel, ...this.state.cmp].filter((k) => k && !view.byKey.has(k) && !view.lookedUp.has(k));
    if (!missing.length) return false;
    missing.forEach((k) => view.lookedUp.add(k));
    this.markBusy();
    this.host.request('rows', { request, keys: missing }).then((rows) => {
      for (const r of rows) view.byKey.set(r._key, r);
      this.preserve(() => this.render());
    }, () => this.preserve(() => this.render()));
    return true;
  }

  // The render steps and the inputs each one reads (see memo.js); a new page skeleton brings new elements, so
  // every step runs again after build().
  renderSteps() {
    return {
      // The ranking's rows: the overview, the table and its note, formatted in the page's language and currency.
      rows: memoStep((p) => [p.view, p.state.lang, p.state.currency, p.state.rate, this.el.table], (p, view) => {
        this.rows = view.error ? [] : view.rows;
        this.byKey = view.byKey;
        timed('render: overview', () => this.renderOverview(p.ctx));
        timed('render: table', () => renderTable(this.el.table, this.rows, p.ctx, () => p.done('table')));
        const more = !view.error && view.total > this.rows.length;
        this.el.tableNote.hidden = !more;
        this.el.tableNote.replaceChildren(more ? tx('span', p.ctx.t, 'tableLimited', {}, { shown: p.ctx.fmt.int(this.rows.length), total: p.ctx.fmt.int(view.total) }) : '');
      }),
      // The details of the selected row. A new selection is what the user looks at: its details now. Other
      // changes (new ranking, currency…) redraw the details after the table has painted, with the charts. The
      // job under each billing model comes from the engine host and fills in when it arrives.
      details: memoStep((p) => [JSON.stringify(p.request), this.catalog.version, p.state.lang, p.state.currency, p.state.rate, this.el.details,
        p.ctx.selKey, p.state.cmp.includes(p.ctx.selKey), p.state.cmp.length >= 4], (p) => {
        this.detailsRun = (this.detailsRun || 0) + 1;
        if (p.ctx.selKey !== this.detailsSel) timed('render: details', () => this.showDetails(p.selected, p.ctx, () => p.done('details')));
        else p.later.details = true;
        this.detailsSel = p.ctx.selKey;
      }),
    };
  }

  // Draws a view: the steps whose inputs changed, the comparison and the tools now; the rest after the paint.
  paint(view, request, t0) {
    const state = this.state;
    const fresh = view.fresh;
    view.fresh = false;
    this.view = view;
    this.error = view.error;
    this.result = view.error ? null : view.meta;
    const ctx = this.ctx();
    const selected = (!view.error && (view.byKey.get(state.sel) || view.byKey.get(view.top))) || null;
    ctx.selKey = selected ? selected._key : null;
    this.selKey = ctx.selKey;
    this.renderNotices(ctx);
    const t1 = performance.now();
    this.markBusy();
    const timing = { rankMs: fresh ? view.ms : 0, roundTripMs: fresh ? view.roundTripMs : 0, cached: !fresh, total: view.total || 0 };
    const pass = { view, state, request, ctx, selected, later: {}, done: this.settler(t0, timing) };
    timing.viewChanged = this.steps.rows(pass);
    timing.rows = this.rows.length;
    if (!timing.viewChanged) { timed('render: marks', () => syncTableMarks(this.el.table, ctx)); pass.done('table'); }
    const tb = performance.now();
    if (!this.steps.details(pass)) pass.done('details');
    const compared = state.cmp.map((k) => this.byKey.get(k)).filter(Boolean);
    timed('render: compare', () => renderCompare(this.el.compare, compared, ctx));
    if (this.tools) timed('render: tools', () => this.tools.update(this.toolCtx(selected, compared)));
    const t2 = performance.now();
    Object.assign(timing, { renderMs: t2 - t1, totalMs: t2 - t0, tableMs: tb - t1, restMs: t2 - tb });
    this.timings.push(timing);
    if (this.timings.length > 50) this.timings.shift();
    document.body.dataset.updateMs = timing.totalMs.toFixed(1);
    document.body.dataset.ready = this.error ? 'error' : '1';
    document.body.dataset.host = this.host.kind;  // 'worker' or 'main' (not data-engine: that marks engine text)
    this.afterPaint(pass, timing);
  }

  // Tracks the three parts of a render (table, charts, details): when all have settled the page is no longer
  // busy. A newer render makes the older one's reports stale.
  settler(t0, timing) {
    const token = {};
    this.settleToken = token;
    const settled = { table: false, charts: false, details: false };
    const done = (part) => {
      if (this.settleToken !== token) return;
      settled[part] = true;
      if (settled.table && settled.charts && settled.details) {
        delete document.body.dataset.busy;
        timing.settledMs = performance.now() - t0;
      }
    };
    done.stale = () => this.settleToken !== token;
    return done;
  }

  // After the paint: charts, deferred details, and the URL (history.replaceState costs several ms). Each step is
  // its own short task (a long one would delay the next input): scatter, bars, details, the URL, then the
  // sensitivity chart.
  afterPaint({ view, selected, later, done }, timing) {
    cancelAnimationFrame(this.chartFrame);
    this.chartFrame = requestAnimationFrame(async () => {
      await nextTask();
      if (done.stale()) return;
      let tc = performance.now();
      const drawBars = timed('scatter chart', () => this.charts.update(this.rows, this.ctxWithSel(), view.scatter, { split: true }));
      timing.chartsMs = performance.now() - tc;
      await nextTask();
      if (done.stale()) return;
      tc = performance.now();
      timed('bar chart', drawBars);
      timing.chartsMs += performance.now() - tc;
      await nextTask();
      if (done.stale()) return;
      if (later.details) timed('details', () => this.showDetails(selected, this.ctxWithSel(), () => done('details')));
      timed('url', () => this.writeHash());
      await nextTask();
      if (done.stale()) return;
      if (this.sensitivity) timed('sensitivity', () => this.sensitivity.update(this.sensitivityCtx(selected)));
      if (this.accuracy) this.accuracy.update(this.sensitivityCtx(selected));
      done('charts');
    });
  }

  // The first view, asked for before the page is built (see main()).
  prefetchView() {
    const request = rankRequest(this.state);
    this.fetchView(JSON.stringify([request, this.state.sort, this.catalog.version]), request, this.state.sort);
  }

  // Asks the engine host for the view of a request and sort; one request in flight at a time (a slider
  // moved during a long ranking asks again for the latest state when the answer comes).
  fetchView(vkey, request, sort) {
    if (this.viewInflight) return;
    this.viewInflight = vkey;
    const t0 = performance.now();
    const keys = [this.state.sel, ...this.state.cmp].filter(Boolean);
    this.host.request('view', { request, sort, limit: VIEW_LIMIT, keys })
      .catch((e) => ({ error: errorData(e) }))
      .then(async (v) => {
        v.roundTripMs = performance.now() - t0;
        if (v.rowsJson !== undefined) {
          await nextTask();
          v.rows = timed('parse rows', () => JSON.parse(v.rowsJson));
          v.extra = JSON.parse(v.extraJson);
          delete v.rowsJson;
          delete v.extraJson;
          await nextTask();
          v.scatter = v.scatterJson ? timed('parse points', () => JSON.parse(v.scatterJson)) : null;
          delete v.scatterJson;
          if (v.scatter) await nextTask();
        }
        this.viewInflight = null;
        this.views.set(vkey, prepareView(v));
        while (this.views.size > VIEW_CACHE) this.views.delete(this.views.keys().next().value);
        timed('render', () => this.preserve(() => this.render()));
      });
  }

  // The details panel for a row: drawn now, then again with the engine's cost under each billing model.
  showDetails(row, ctx, onDone) {
    if (!row) { renderDetails(this.el.details, null, ctx); onDone(); return; }
    const args = { id: row.id, hours: row.compute_hours, nodes: row.nodes, pricing: row.pricing, deadline: this.state.filters.deadlineHours };
    const key = JSON.stringify([args, this.catalog.version]);
    const extra = this.detailsCache.get(key);
    renderDetails(this.el.details, row, ctx, extra || null);
    if (extra) { onDone(); return; }
    const run = this.detailsRun;
    this.host.request('details', args).catch((e) => ({ offer: null, breakdown: [{ model: row.pricing, error: String(e.message || e) }] })).then(async (x) => {
      await nextTask();
      this.detailsCache.set(key, x);
      if (this.detailsCache.size > 64) this.detailsCache.delete(this.detailsCache.keys().next().value);
      if (this.detailsRun === run && this.el.details.isConnected) timed('details', () => this.preserve(() => renderDetails(this.el.details, row, this.ctxWithSel(), x)));
      onDone();
    });
  }

  ctxWithSel() {
    const c = this.ctx();
    c.selKey = this.selKey;
    return c;
  }

  writeHash() {
    const hash = serializeHash(this.state, this.base);
    if (hash !== location.hash) history.replaceState(null, '', hash);
    this.lastHash = location.hash;
    const share = document.getElementById('share-url');
    if (share) share.value = location.href;
  }

  renderNotices(ctx) {
    const { t } = ctx;
    this.el.notices.replaceChildren(...this.notices.map((n, i) => h('div', { class: `notice ${n.kind}`, role: 'alert', id: n.id },
      n.vars ? txv('p', t, n.key, Object.fromEntries(Object.entries(n.vars).map(([k, v]) => [k, dataText('span', v)]))) : h('p', {}, t(n.key)),
      n.details ? h('ul', {}, n.details.map((d) => h('li', {}, dataText('span', d.name),
        d.error ? [': ', dataText('code', d.error.path || '/'), ' ', engineText('span', d.error.message)] : null))) : null,
      h('button', { type: 'button', class: 'small', onclick: () => { this.notices.splice(i, 1); this.renderNotices(this.ctx()); } }, t('dismiss')))));
  }

}

// The App's methods for the user's data and the overview live in their own modules.
for (const part of [UserDataMethods, ImportFlowMethods, OverviewMethods]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== 'constructor') Object.defineProperty(App.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}

// The start-up error screen's way out: every value the page stored (localStorage, and the large catalogs in
// IndexedDB under "indexedDB:<key>"), offered as a file, then removed.
function startupReset() {
  const ts = [translator('en'), translator('zh')];
  const reset = async () => {
    const docs = Object.fromEntries(Object.entries(await allDocs()).map(([k, v]) => [`indexedDB:${k}`, v]));
    download(JSON.stringify({ ...storedValues(), ...docs }, null, 1), `gpuvalue-stored-data-${new Date().toISOString().slice(0, 10)}.json`, 'application/json');
    // The download starts from the link's click; the reload waits a moment so that it is not cut off.
    await new Promise((resolve) => { setTimeout(resolve, 300); });
    resetStored();
    await resetDocs();
    location.reload();
  };
  return h('div', { class: 'notice', id: 'startup-reset' }, h('p', {}, ts.map((t) => t('resetStoredHint')).join(' / ')),
    h('button', { type: 'button', id: 'startup-reset-button', onclick: reset }, ts.map((t) => t('resetStored')).join(' / ')));
}

async function main() {
  const root = document.getElementById('app');
  try {
    // Start-up marks (gv:*), read by the bench to say where the page's start goes.
    performance.mark('gv:main');
    const dataText = await loadData();
    const data = JSON.parse(dataText);
    const host = await startHost(dataText);
    performance.mark('gv:engine');
    const app = new App(root, host, data);
    window.gpuvalue = { app, timings: app.timings, host, profile: PROFILE };
    await app.loadUserCatalogs();
    // Read the link again now that the user's own catalogs are in: their providers, regions and GPUs are known names.
    if (app.userData.catalogs.length) app.state = app.stateFromHash(location.hash);
    // Ask for the first ranking before building the page: the worker ranks while the DOM is built.
    app.prefetchView();
    app.build();
    performance.mark('gv:built');
  } catch (e) {
    clear(root).append(h('p', { class: 'error', role: 'alert' }, `gpuvalue could not start / 无法启动: ${e.message || e}`), startupReset());
    document.body.dataset.ready = 'error';
  }
}

main();
