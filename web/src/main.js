// The calculator page: workload → ranked offers → charts → details → comparison. Every number comes from the
// wasm engine; this module owns the state, calls the engine and hands the results to the view modules.
import { createEngine, GpuvalueError } from './engine-client.js';
import { pickLanguage, translator } from './i18n.js';
import { h, tx, txv, clear, dataText } from './dom.js';
import { makeFormatter } from './format.js';
import { defaultState, parseHash, serializeHash, rankRequest, rowKey } from './state.js';
import { sortRows, renderTable, syncTableMarks } from './table.js';
import { createCharts } from './charts.js';
import { renderDetails, renderCompare } from './details.js';
import { workloadPanel, filtersPanel, weightsPanel, settingsBar } from './controls.js';
import { dataPanel } from './import.js';
import { UserDataMethods } from './userdata.js';
import { OverviewMethods } from './overview.js';
import { storedTheme, applyTheme } from './theme.js';
import { renderTools } from './tools.js';

const LANG_KEY = 'gpuvalue.lang';
const CACHE_SIZE = 24;
const CONTROL_KEYS = ['preset', 'custom', 'precision', 'filters', 'weights', 'currency', 'rate'];

async function loadData() {
  const inline = document.getElementById('gv-data');
  if (inline) return JSON.parse(inline.textContent);
  const res = await fetch('data/bundle.json');
  if (!res.ok) throw new Error(`data/bundle.json: HTTP ${res.status}`);
  return res.json();
}

// The CNY rate shipped with the catalog: the most recent fx block of the bundled files.
export function bundledFx(data) {
  return data.catalogs.map((c) => c.doc.fx).filter((fx) => fx && fx.CNY_per_USD > 0)
    .sort((a, b) => String(b.as_of).localeCompare(String(a.as_of)))[0] || null;
}

const safeStorage = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* blocked */ } },
};

class App {
  constructor(root, engine, data) {
    this.root = root;
    this.engine = engine;
    this.data = data;
    this.bundledDocs = data.catalogs.map((c) => c.doc);
    this.fx = bundledFx(data);
    this.defaults = engine.defaults();
    this.presets = engine.presets();
    this.gpus = engine.gpus();
    this.cache = new Map();
    this.notices = [];
    this.theme = storedTheme();
    this.userData = { catalogs: [], lastMessage: null, form: null, formOpen: false, editingId: null, formMessage: null, providerName: '' };
    this.timings = [];
    this.loadUserCatalogs();
    this.refreshOffers();

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
    // Dropping a file anywhere imports it (and keeps the browser from navigating to the file).
    document.addEventListener('dragover', (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault(); });
    document.addEventListener('drop', (e) => {
      const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      if (!f) return;
      e.preventDefault();
      this.importFile(f);
    });
  }

  stateFromHash(hash) {
    const stored = safeStorage.get(LANG_KEY);
    const base = { ...structuredClone(this.base), lang: pickLanguage(stored, navigator.languages) };
    return parseHash(hash, base, { presetIds: this.presetIds });
  }

  // ---- state updates ----
  update(patch = {}, { inPlace = false } = {}) {
    const prev = this.state;
    this.state = { ...prev, ...patch };
    if (!this.el || (patch.lang && patch.lang !== prev.lang)) return this.build();
    // Sorting, selecting and comparing leave the inputs as they are; an empty patch means "data changed".
    const keys = Object.keys(patch);
    if (!inPlace && (!keys.length || keys.some((k) => CONTROL_KEYS.includes(k)))) this.buildControls();
    this.preserve(() => this.render());
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
    this.update({ lang });
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
    return {
      t: this.t, fmt, state: this.state, engine: this.engine, presets: this.presets, gpus: this.gpus, offers: this.offers,
      defaults: this.defaults, fx: this.fx, theme: this.theme, userData: this.userData, result: this.result,
      update: (p, o) => this.update(p, o), select: (k, o) => this.select(k, o), toggleCompare: (k, on) => this.toggleCompare(k, on),
      setLanguage: (l) => this.setLanguage(l), setCurrency: (c) => this.setCurrency(c), setTheme: (th) => { this.theme = th; applyTheme(th); this.update({}); },
      importFile: (f) => this.importFile(f), removeCatalog: (i) => this.removeCatalog(i), editOffer: (id, o) => this.editOffer(id, o),
      saveOffer: (v) => this.saveOffer(v), cancelOfferForm: () => this.cancelOfferForm(), current: () => this.ctxWithSel(),
      selKey: this.selKey,
    };
  }

  rank() {
    const request = rankRequest(this.state);
    const key = JSON.stringify(request);
    this.request = request;
    if (this.cache.has(key)) {
      const hit = this.cache.get(key);
      this.cache.delete(key);
      this.cache.set(key, hit);
      return { ...hit, cached: true };
    }
    let entry;
    const t0 = performance.now();
    try {
      const result = this.engine.rank(request);
      result.results.forEach((r, i) => { r._rank = i + 1; r._key = rowKey(r); r._user = this.userIds.has(r.id); });
      entry = { result, error: null };
    } catch (e) {
      entry = { result: null, error: e instanceof GpuvalueError ? { path: e.path, message: e.message } : { path: '', message: String(e.message || e) } };
    }
    entry.ms = performance.now() - t0;
    this.cache.set(key, entry);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value);
    return { ...entry, cached: false };
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
      this.buildId = (this.buildId || 0) + 1;
      this.viewKey = null;
      this.detailsKey = null;
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
        tools: h('div', { id: 'tools', class: 'tools' }),
        footer: h('footer', { class: 'foot' }),
      };
      const header = h('header', { class: 'top' },
        h('div', { class: 'brand' }, tx('h1', t, 'title'), tx('p', t, 'tagline', { class: 'tagline' })), this.el.settings);
      const main = h('main', { id: 'results', tabindex: '-1' },
        this.el.overview, this.el.charts,
        h('div', { class: 'main-grid' },
          h('section', { class: 'table-section', 'aria-labelledby': 'table-title' }, tx('h2', t, 'tableTitle', { id: 'table-title' }), this.el.table),
          this.el.details),
        this.el.compare, this.el.tools);
      // The skip link moves focus without touching the URL hash, which holds the state.
      const skip = tx('a', t, 'skipToResults', { class: 'skip', href: '#results', onclick: (e) => { e.preventDefault(); document.getElementById('results').focus(); } });
      clear(this.root).append(skip, header, this.el.notices,
        h('div', { class: 'layout' }, this.el.sidebar, main), this.el.footer);
      this.charts = createCharts(this.el.charts, this.ctx());
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
      const providers = new Set([...this.offers.values()].map((o) => o.provider)).size;
      this.el.footer.replaceChildren(tx('p', t, 'footerEngine'), h('p', {}, t('footerData', { offers: this.offers.size, providers })));
    });
  }

  // Renders results for the current state. Re-ranks only when the rank request changed, re-renders the
  // table only when its rows or formatting changed (a new selection just moves the marks), and redraws the
  // charts in the next animation frame so that the table paints first.
  render() {
    if (!this.el) return;
    const t0 = performance.now();
    const ranked = this.rank();
    const t1 = performance.now();
    const state = this.state;
    this.result = ranked.result;
    this.error = ranked.error;
    const viewKey = JSON.stringify([this.request, state.sort, state.lang, state.currency, state.rate, this.catalogVersion, this.el.table.isConnected && this.buildId]);
    const viewChanged = viewKey !== this.viewKey;
    if (viewChanged) {
      this.viewKey = viewKey;
      this.rows = ranked.result ? sortRows(ranked.result.results, state.sort) : [];
      this.byKey = new Map(this.rows.map((r) => [r._key, r]));
    }
    const ctx = this.ctx();
    const selected = this.byKey.get(state.sel) || (ranked.result && ranked.result.results[0]) || null;
    ctx.selKey = selected ? selected._key : null;
    this.selKey = ctx.selKey;
    this.renderNotices(ctx);
    if (viewChanged) this.renderOverview(ctx);
    const ta = performance.now();
    document.body.dataset.busy = '1';
    const settle = { table: false, charts: false };
    const done = (part) => {
      settle[part] = true;
      if (settle.table && settle.charts && this.settleToken === token) {
        delete document.body.dataset.busy;
        timing.settledMs = performance.now() - t0;
      }
    };
    const token = {};
    this.settleToken = token;
    if (viewChanged) renderTable(this.el.table, this.rows, ctx, () => done('table'));
    else { syncTableMarks(this.el.table, ctx); done('table'); }
    const tb = performance.now();
    const detailsKey = JSON.stringify([this.request, state.lang, state.currency, state.rate, this.catalogVersion, this.buildId, ctx.selKey, state.cmp.includes(ctx.selKey), state.cmp.length >= 4, this.state.filters.deadlineHours]);
    // A new selection is what the user looks at: its details now. Other changes (new ranking, currency…)
    // redraw the details after the table has painted, with the charts.
    let detailsLater = false;
    if (detailsKey !== this.detailsKey) {
      this.detailsKey = detailsKey;
      if (ctx.selKey !== this.detailsSel) { renderDetails(this.el.details, selected, ctx); this.detailsPending = undefined; } else detailsLater = true;
      this.detailsSel = ctx.selKey;
    }
    const compared = state.cmp.map((k) => this.byKey.get(k)).filter(Boolean);
    renderCompare(this.el.compare, compared, ctx);
    renderTools(this.el.tools, { ...ctx, request: this.request, rows: this.rows, selected, compared });
    const t2 = performance.now();
    const timing = { rankMs: ranked.cached ? 0 : ranked.ms, renderMs: t2 - t1, totalMs: t2 - t0, cached: ranked.cached, rows: this.rows.length,
      tableMs: tb - ta, restMs: t2 - tb, viewChanged };
    this.timings.push(timing);
    if (this.timings.length > 50) this.timings.shift();
    document.body.dataset.updateMs = timing.totalMs.toFixed(1);
    document.body.dataset.ready = this.error ? 'error' : '1';
    // After the paint: charts, deferred details, and the URL (history.replaceState costs several ms).
    if (detailsLater) this.detailsPending = selected;
    cancelAnimationFrame(this.chartFrame);
    this.chartFrame = requestAnimationFrame(() => setTimeout(() => {
      if (this.settleToken !== token) return;
      const tc = performance.now();
      this.charts.update(this.rows, this.ctxWithSel());
      if (this.detailsPending !== undefined) {
        renderDetails(this.el.details, this.detailsPending, this.ctxWithSel());
        this.detailsPending = undefined;
      }
      this.writeHash();
      timing.chartsMs = performance.now() - tc;
      done('charts');
    }, 0));
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
      n.details ? h('ul', {}, n.details.map((d) => dataText('li', d))) : null,
      h('button', { type: 'button', class: 'small', onclick: () => { this.notices.splice(i, 1); this.renderNotices(this.ctx()); } }, t('dismiss')))));
  }

}

// The App's methods for the user's data and the overview live in their own modules.
for (const part of [UserDataMethods, OverviewMethods]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== 'constructor') Object.defineProperty(App.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}

// The engine factory. In the offline file the wasm is a gzip+base64 data element (scripts/build-web.mjs):
// inflate it in memory (no request) and pass it as wasmBinary; the served page's engine script carries its own.
async function engineFactory() {
  const el = document.getElementById('gv-wasm');
  if (!el) return window.createGpuvalue;
  const text = atob(el.textContent.trim());
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
  const wasmBinary = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  return (options = {}) => window.createGpuvalue({ ...options, wasmBinary });
}

async function main() {
  const root = document.getElementById('app');
  try {
    const data = await loadData();
    const engine = await createEngine(await engineFactory(), data);
    const app = new App(root, engine, data);
    window.gpuvalue = { app, timings: app.timings };
    app.build();
  } catch (e) {
    clear(root).append(h('p', { class: 'error', role: 'alert' }, `gpuvalue could not start / 无法启动: ${e.message || e}`));
    document.body.dataset.ready = 'error';
  }
}

main();
