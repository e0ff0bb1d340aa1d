// The calculator page: workload → ranked offers → charts → details → comparison → decision tools. Every number
// comes from the wasm engine, which runs in a Web Worker (engine/host.js) so that no engine call blocks the page.
//
// The page is a store and functions of it (docs/architecture.md, "The page"):
// - app.store (app/store.js): the state a URL hash can say, and the session (catalog summary, the user's
//   catalogs, notices, theme). Every change goes through app.update(patch).
// - app.answers (app/answers.js): the one cache of engine answers, keyed by the request.
// - the views (views/*.js, tools/*.js) draw from the state and the answers they are given (ctx); they hold no page
//   state of their own beyond what they drew last.
// - app.user and app.imports (app/userdata.js, app/importflow.js): the actions on the user's catalogs.
import { errorData } from '../engine/errors.js';
import { viewOfText } from '../engine/viewrows.js';
import { setErrorRenderer } from '../engine/client.js';
import { translator, DICTS, loadLanguage } from '../i18n/index.js';
import { h, tx, txv, clear, dataText, engineText, messageText, setMessageRenderer } from '../views/dom.js';
import { messageRenderer, MESSAGE_CATALOGS } from '../i18n/messages.js';
import { makeFormatter, todayIso } from '../format/format.js';
import { defaultCurrency, displayOf, SERVING_SORT } from '../state/state.js';
import { renderTable, syncTableMarks, trimTable } from '../views/table.js';
import { createCharts } from '../views/charts.js';
import { createSensitivity } from '../views/sensitivity.js';
import { createAccuracy } from '../views/accuracy.js';
import { renderDetails, renderCompare } from '../views/details.js';
import { workloadPanel, filtersPanel, weightsPanel, settingsBar } from '../views/controls.js';
import { dataPanel } from '../views/import.js';
import { renderOverview } from '../views/overview.js';
import { servingPanel, renderServing, markModelErrors } from '../views/serving.js';
import { PAGE_ROWS } from '../engine/serving.js';
import { applyTheme } from '../views/theme.js';
import { renderCalibrationSummary } from '../views/calibration.js';
import { workloadKey, formatMeasurement } from '../state/measurements.js';
import { createTools } from '../tools/panel.js';
import { timed } from '../views/profile.js';
import { userActions } from './userdata.js';
import { importActions } from './importflow.js';
import { download, savedMeasurements, saveMeasurements } from './saved.js';
import { memoStep } from './memo.js';
import { createAnswers, canonical } from './answers.js';
import { afterPaint, settler } from './paint.js';
import { nextTask } from '../views/tasks.js';

// Rows sent to the page per view: every row of the bundled catalog; a catalog of thousands of offers shows its
// first rows in the chosen order (the scatter still shows all of them, thinned; exports hold every row).
const VIEW_LIMIT = 250;
const CONTROL_KEYS = ['preset', 'custom', 'precision', 'software', 'filters', 'weights', 'currency', 'rate', 'serving'];
// A view depends on the rank request and the sort; the keys of the selected and compared rows only add rows to it.
const VIEW_KEY = ['request', 'sort'];
// What a failed engine call is kept as, per operation (the views draw these as errors); an operation not named here
// (the serving ranking) fails as an engine call does.
const FAILED = {
  call: (e) => ({ ok: false, error: errorData(e) }),
  sweep: (e) => ({ points: [], error: String(e.message || e) }),
};

// A view from the engine host as the page keeps it: the answer's text parsed in a task of its own (engine/viewrows.js),
// its rows indexed by key.
async function prepareView(v, bundled) {
  if (v.text !== undefined) {
    await nextTask();
    Object.assign(v, timed('parse view', () => viewOfText(v.text, bundled())));
    delete v.text;
    await nextTask();
  }
  v.fresh = true;
  v.lookedUp = new Set();
  if (v.error) { v.byKey = new Map(); v.rows = []; return v; }
  v.byKey = new Map([...v.extra, ...v.rows].map((r) => [r._key, r]));
  return v;
}

export class App {
  // env: what the engine said at start and never changes ({data, fx, defaults, presets, gpus, bundledDocs, bundledIds}).
  constructor(root, host, store, env) {
    this.root = root;
    this.host = host;
    this.store = store;
    this.env = { ...env, gpuName: ((names) => (id) => names.get(id) ?? id)(new Map(env.gpus.map((g) => [g.id, g.name]))) };
    this.answers = createAnswers(host);
    this.user = userActions(this);
    this.imports = importActions(this);
    // What the last paint drew ({view, selKey}) and the paint's own bookkeeping (app/paint.js).
    this.shown = { view: null, selKey: null };
    this.paint = { timings: [] };
    this.el = null;
    applyTheme(store.session.theme);
    // A link that names a tool or its inputs opens the decision tools (tools/panel.js loads the open tab's panel).
    const namesTool = () => /(?:^#|&)tool=/.test(location.hash) || Object.keys(this.store.state.tools).length > 0;
    store.session.toolsOpen = namesTool();
    window.addEventListener('hashchange', () => {
      if (location.hash === this.paint.hash) return;
      const next = this.store.fromHash(location.hash);
      this.inLanguage(next.lang, () => {
        this.store.state = next;
        if (namesTool()) this.store.session.toolsOpen = true;
        this.build();
      });
    });
    if (window.matchMedia) window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.render());
    // Dropping files anywhere imports them (and keeps the browser from navigating to a file).
    document.addEventListener('dragover', (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault(); });
    document.addEventListener('drop', (e) => {
      const files = e.dataTransfer && e.dataTransfer.files;
      if (!files || !files.length) return;
      e.preventDefault();
      this.imports.importFiles(files);
    });
  }

  get state() { return this.store.state; }
  get t() { return translator(this.store.state.lang); }
  // True while a view of the ranking is on its way from the engine host.
  get viewInflight() { return this.answers.pending('view'); }

  // ---- state updates ----
  update(patch = {}, { inPlace = false } = {}) {
    const prev = this.store.set(this.withMeasurements(patch));
    if (!this.el || (patch.lang && patch.lang !== prev.lang) || (patch.task && patch.task !== prev.task)) return this.build();
    // Sorting, selecting and comparing leave the inputs as they are; an empty patch means "data changed".
    const keys = Object.keys(patch);
    if (!inPlace && (!keys.length || keys.some((k) => CONTROL_KEYS.includes(k)))) timed('controls', () => this.buildControls());
    timed('render', () => this.preserve(() => this.render()));
    return undefined;
  }

  // The user's measurements follow the workload: a new workload brings those saved for it, and a change of them is
  // saved for the workload on screen (app/saved.js).
  withMeasurements(patch) {
    const next = { ...this.state, ...patch };
    if ('measurements' in patch) {
      saveMeasurements(workloadKey(next), patch.measurements);
      return patch;
    }
    if (workloadKey(next) === workloadKey(this.state)) return patch;
    // Those of the workload left (a link's, say) are kept for it, so that coming back finds them.
    if (this.state.measurements.length) saveMeasurements(workloadKey(this.state), this.state.measurements);
    return { ...patch, measurements: savedMeasurements(workloadKey(next)) };
  }

  // A measurement the engine refuses (an unknown GPU, a speed its peak cannot reach…: its error's path is
  // /measurements/<i>/…) is dropped with a notice that says why, and the ranking is asked for again without it.
  // True when one was dropped.
  dropRefusedMeasurement(error) {
    const hit = /^\/measurements\/(\d+)/.exec((error && error.path) || '');
    const list = this.state.measurements;
    const i = hit ? Number(hit[1]) : -1;
    if (i < 0 || i >= list.length) return false;
    this.ctx();  // the renderer of the reader's language, for the reason
    const reason = error.explanation ? messageText(error.explanation) : String(error.message || error.code);
    const { session } = this.store;
    session.notices = [...session.notices.filter((n) => n.id !== 'calib-refused'),
      { kind: 'warn', key: 'calibRefused', id: 'calib-refused', vars: { measurement: formatMeasurement(list[i]), reason: `${error.path}: ${reason}` } }];
    this.update({ measurements: list.filter((_, j) => j !== i) }, { inPlace: true });
    return true;
  }

  // Switching currency keeps a budget the same amount of money (converted at the current rate).
  setCurrency(currency) {
    const { filters, rate } = this.state;
    let budget = filters.budget;
    if (budget > 0 && rate > 0 && currency !== this.state.currency) budget = +(currency === 'CNY' ? budget * rate : budget / rate).toFixed(2);
    this.update({ currency, filters: { ...filters, budget } });
  }

  setLanguage(lang) {
    this.inLanguage(lang, () => {
      this.store.rememberLanguage(lang);
      // The currency follows the language unless the reader chose the other one.
      const currency = this.state.currency === defaultCurrency(this.state.lang) ? defaultCurrency(lang) : this.state.currency;
      this.update({ lang, currency });
    });
  }

  // Runs `fn` once the page has the strings of `lang` (i18n/catalogs.lazy.js: the site loads the other language
  // when the reader switches): at once when it has them, else after a short busy state in which the page stays
  // whole in the language it was in. When they cannot be loaded the page stays as it was, with a notice.
  inLanguage(lang, fn) {
    if (DICTS[lang]) { fn(); return; }
    this.markBusy();
    this.root.setAttribute('aria-busy', 'true');
    loadLanguage(lang).then(() => { this.root.removeAttribute('aria-busy'); fn(); }, () => {
      this.root.removeAttribute('aria-busy');
      const { session } = this.store;
      session.notices = [...session.notices.filter((n) => n.id !== 'language-failed'), { kind: 'warn', key: 'languageLoadFailed', id: 'language-failed' }];
      this.update({});
    });
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

  // A new catalog in the engine: every cached answer belongs to the old one.
  setCatalog(catalog) {
    this.store.session.catalog = catalog;
    this.answers.clear();
  }

  catalogChanged(catalog) {
    this.setCatalog(catalog);
    this.update({});
  }

  // While the engine host works (on a new view or the user's data) the page is busy (tests and screen readers
  // wait for it); the paint that follows clears it. What an earlier paint still has to finish (charts, details)
  // no longer clears the mark.
  markBusy() {
    document.body.dataset.busy = '1';
    this.paint.settleToken = {};
  }

  // What every view is given: the state, the session, the last drawn view and the page's actions.
  ctx() {
    const { state, session } = this.store;
    const fmt = makeFormatter({ lang: state.lang, currency: state.currency, rate: state.rate });
    const render = messageRenderer({ lang: state.lang, fmt, gpuName: this.env.gpuName });
    setMessageRenderer(render);
    setErrorRenderer(render);
    const { view } = this.shown;
    return {
      t: this.t, fmt, state, presets: this.env.presets, servingPresets: this.env.servingPresets, gpuName: this.env.gpuName, gpus: this.env.gpus, defaults: this.env.defaults, fx: this.env.fx,
      catalog: session.catalog, theme: session.theme, userData: session.userData, view, result: view && !view.error ? view.meta : null,
      selKey: this.shown.selKey, request: this.store.request(),
      ask: (op, args) => this.answers.ask(op, args, { orError: FAILED[op] || FAILED.call }), peek: (op, args) => this.answers.peek(op, args),
      update: (p, o) => this.update(p, o), select: (k, o) => this.select(k, o), toggleCompare: (k, on) => this.toggleCompare(k, on),
      setLanguage: (l) => this.setLanguage(l), setCurrency: (c) => this.setCurrency(c),
      setTheme: (th) => { session.theme = th; applyTheme(th); this.update({}); },
      importFiles: (f) => this.imports.importFiles(f), resolveImport: (item, mode) => this.imports.resolveImport(item, mode),
      removeCatalog: (i) => this.user.removeCatalog(i), editOffer: (id, o) => this.user.editOffer(id, o),
      saveOffer: (v) => this.user.saveOffer(v), cancelOfferForm: () => this.user.cancelOfferForm(), current: () => this.ctx(),
      exportCatalog: (i) => this.user.exportCatalog(i), repairCatalog: (i) => this.user.repairCatalog(i), cancelImport: () => this.user.cancelImport(),
      copyLink: (button) => this.copyLink(button), exportAs: (kind) => this.exportAs(kind), preserve: (fn) => this.preserve(fn),
      showMoreServing: (all) => this.showMoreServing(all), servingPageRows: PAGE_ROWS,
    };
  }

  // Keeps keyboard focus and open <details> across a re-render of part of the page.
  preserve(fn) {
    const active = document.activeElement && document.activeElement.id;
    // The prerendered first screen's folds are not the reader's: the live page opens its own (foldPanel).
    const folds = this.root.dataset.prerendered ? [] : [...this.root.querySelectorAll('details.fold[id], details.multi[id]')].map((d) => [d.id, d.open]);
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
      if (this.servingChart) { this.servingChart.destroy(); this.servingChart = null; }
      this.paint.steps = this.renderSteps();
      this.paint.detailsSel = undefined;
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
        h('div', { class: 'brand' }, tx('h1', t, 'title'), tx('p', t, 'tagline', { class: 'tagline' })), this.taskSwitch(), this.el.settings);
      if (this.state.task === 'serve') { this.buildServing(header); return; }
      this.el.tableNote = h('p', { class: 'sub table-note', id: 'table-note', hidden: true });
      this.el.calibration = h('p', { class: 'calib-summary', id: 'calib-summary', role: 'status', hidden: true });
      const main = h('main', { id: 'results', tabindex: '-1' },
        this.el.overview, this.el.charts,
        h('div', { class: 'main-grid' },
          h('section', { class: 'table-section', 'aria-labelledby': 'table-title' }, tx('h2', t, 'tableTitle', { id: 'table-title' }), this.el.calibration, this.el.tableNote, this.el.table),
          this.el.details),
        this.el.sensitivity, this.el.accuracy, this.el.compare, this.el.tools);
      this.mount(header, main);
      const parts = { update: (p, o) => this.update(p, o), session: this.store.session };
      this.charts = createCharts(this.el.charts, this.ctx());
      if (this.sensitivity) this.sensitivity.destroy();
      this.sensitivity = createSensitivity(this.el.sensitivity, parts);
      if (this.accuracy) this.accuracy.destroy();
      this.accuracy = createAccuracy(this.el.accuracy);
      if (this.tools) this.tools.destroy();
      this.tools = createTools(this.el.tools, parts);
      this.buildControls();
      this.render();
    });
  }

  // The two questions the page answers: training (the ranking) or serving a language model.
  taskSwitch() {
    const t = this.t;
    return h('div', { class: 'task-switch', role: 'group', 'aria-label': t('taskLabel') }, ['train', 'serve'].map((k) => h('button', {
      type: 'button', id: `task-${k}`, 'aria-pressed': this.state.task === k ? 'true' : 'false', onclick: () => this.update({ task: k }),
    }, t(k === 'train' ? 'taskTrain' : 'taskServe'))));
  }

  // Puts the page's skeleton in place: the header, the notices, the sidebar beside the main column, the footer.
  mount(header, main) {
    this.el.main = main;
    // The skip link moves focus without touching the URL hash, which holds the state.
    const skip = tx('a', this.t, 'skipToResults', { class: 'skip', href: '#results', onclick: (e) => { e.preventDefault(); document.getElementById('results').focus(); } });
    // The prerendered first screen (scripts/prerender.mjs) or the loading note gives way to the live page.
    this.root.inert = false;
    this.root.removeAttribute('aria-busy');
    delete this.root.dataset.prerendered;
    clear(this.root).append(skip, header, this.el.notices, h('div', { class: 'layout' }, this.el.sidebar, main), this.el.footer);
  }

  // The serving mode's skeleton: its inputs in the sidebar, its answer in the main column.
  buildServing(header) {
    this.el.serving = h('section', { id: 'serving', class: 'serving-results panel', 'aria-labelledby': 'serve-results-title' });
    this.shown.serving = null;
    this.mount(header, h('main', { id: 'results', tabindex: '-1' }, this.el.serving));
    for (const k of ['sensitivity', 'accuracy', 'tools']) if (this[k]) { this[k].destroy(); this[k] = null; }
    this.buildControls();
    this.render();
  }

  // The serving view's arguments: the question, the table's order and how many of its rows are shown (the first
  // PAGE_ROWS of a new question, more as the reader asks for them).
  servingArgs() {
    const question = this.store.servingRequest();
    const key = canonical(question);
    if (!this.servingRows || this.servingRows.key !== key) this.servingRows = { key, rows: PAGE_ROWS };
    const { key: column, dir } = this.state.serveSort;
    return { ...question, sort: { key: SERVING_SORT[column] || 'rank', dir }, limit: this.servingRows.rows };
  }

  // Shows PAGE_ROWS more rows of the serving table (every row when `all`).
  showMoreServing(all) {
    const answer = this.shown.serving;
    if (!answer || answer.ok === false || !this.servingRows) return;
    this.servingRows.rows = all ? answer.total : this.servingRows.rows + PAGE_ROWS;
    this.preserve(() => this.render());
  }

  // The serving mode's render: the worker's serving ranking for the current question (cached by its request).
  renderServing() {
    const args = this.servingArgs();
    const answer = this.answers.peek('serveRank', args);
    if (!answer) {
      this.markBusy();
      this.el.main.setAttribute('aria-busy', 'true');
      if (!this.shown.serving) this.el.serving.replaceChildren(tx('p', this.t, 'serveComputing', { class: 'sub', id: 'serve-computing' }));
      this.answers.ask('serveRank', args, { orError: FAILED.call }).then(() => this.preserve(() => this.render()));
      return;
    }
    this.el.main.removeAttribute('aria-busy');
    if (this.shown.serving !== answer || this.shown.servingDisplay !== displayOf(this.state)) {
      // The chart is kept for another answer in the same language, theme and currency (updated in place).
      if (this.servingChart && this.shown.servingDisplay !== displayOf(this.state)) { this.servingChart.destroy(); this.servingChart = null; }
      const ctx = this.ctx();
      this.renderNotices(ctx);
      // An answer that is an error keeps the last one that was not below it (the reader sees what to fix and what
      // the table said before).
      this.servingChart = renderServing(this.el.serving, ctx, answer, this.shown.servingGood, this.servingChart);
      this.shown.serving = answer;
      if (answer.ok !== false) this.shown.servingGood = answer;
      this.shown.servingDisplay = displayOf(this.state);
    }
    markModelErrors(this.el.sidebar, answer);
    this.writeHash();
    delete document.body.dataset.busy;
    document.body.dataset.ready = answer.ok === false ? 'error' : '1';
    document.body.dataset.host = this.host.kind;
  }

  // Rebuilds the inputs (settings bar and sidebar) from the state.
  buildControls() {
    this.preserve(() => {
      const ctx = this.ctx();
      const { t } = ctx;
      this.el.settings.replaceChildren(settingsBar(ctx));
      if (this.state.task === 'serve') this.el.sidebar.replaceChildren(servingPanel(ctx), filtersPanel(ctx, { serving: true }), dataPanel(ctx));
      else this.el.sidebar.replaceChildren(workloadPanel(ctx), filtersPanel(ctx), weightsPanel(ctx), dataPanel(ctx));
      this.el.footer.replaceChildren(tx('p', t, this.host.kind === 'worker' ? 'footerEngine' : 'footerEngineMain'),
        h('p', {}, t('footerData', { offers: ctx.fmt.int(ctx.catalog.count), providers: ctx.fmt.int(ctx.catalog.providers.length) })));
    });
  }

  // The view's arguments for the current state.
  viewArgs() {
    const { state } = this.store;
    return { request: this.store.request(), sort: state.sort, limit: VIEW_LIMIT, keys: [state.sel, ...state.cmp].filter(Boolean) };
  }

  // Renders results for the current state. The ranking comes from the engine host as a "view": the rows in table
  // order, from the page's one cache of answers. Without a cached view the page asks for one and keeps showing the
  // previous results (marked busy) until it arrives.
  render() {
    if (!this.el) return;
    if (this.state.task === 'serve') { this.renderServing(); return; }
    const t0 = performance.now();
    const args = this.viewArgs();
    const view = this.answers.peek('view', args, { by: VIEW_KEY });
    if (!view) {
      this.markBusy();
      this.el.main.setAttribute('aria-busy', 'true');
      this.fetchView(args);
      const shownRows = this.shown.view ? this.shown.view.rows : [];
      if (shownRows.length > 60) trimTable(this.el.table);
      if (this.tools) this.tools.update(this.toolCtx());
      return;
    }
    this.el.main.removeAttribute('aria-busy');
    if (view.error && this.dropRefusedMeasurement(view.error)) return;
    if (this.fetchMissingRows(view, args.request)) return;
    const pending = this.store.session.pendingSelectId;
    if (pending && !view.error) {
      const hit = view.rows.find((r) => r.id === pending);
      this.store.session.pendingSelectId = null;
      if (hit) this.store.set({ sel: hit._key });
    }
    this.draw(view, args.request, t0);
  }

  // Asks the engine host for the view of the current state; one view request in flight at a time (a slider moved
  // during a long ranking asks again for the latest state when the answer comes).
  fetchView(args) {
    if (this.answers.pending('view')) return;
    const t0 = performance.now();
    this.answers.ask('view', args, { by: VIEW_KEY, orError: (e) => ({ error: errorData(e) }), prepare: (v) => { v.roundTripMs = performance.now() - t0; return prepareView(v, this.env.bundledIds); } })
      .then(() => timed('render', () => this.preserve(() => this.render())));
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
      rows: memoStep((p) => [p.view, displayOf(p.state), this.el.table], (p, view) => {
        const rows = view.error ? [] : view.rows;
        timed('render: overview', () => renderOverview(this.el.overview, p.ctx));
        renderCalibrationSummary(this.el.calibration, p.ctx);
        timed('render: table', () => renderTable(this.el.table, rows, p.ctx, () => p.done('table')));
        const more = !view.error && view.total > rows.length;
        this.el.tableNote.hidden = !more;
        this.el.tableNote.replaceChildren(more ? tx('span', p.ctx.t, 'tableLimited', {}, { shown: p.ctx.fmt.int(rows.length), total: p.ctx.fmt.int(view.total) }) : '');
      }),
      // The details of the selected row. A new selection is what the user looks at: its details now. Other
      // changes (new ranking, currency…) redraw the details after the table has painted, with the charts. The
      // job under each billing model comes from the engine host and fills in when it arrives.
      details: memoStep((p) => [canonical(p.request), p.ctx.catalog.version, displayOf(p.state), this.el.details,
        p.ctx.selKey, p.state.cmp.includes(p.ctx.selKey), p.state.cmp.length >= 4], (p) => {
        this.paint.detailsRun = (this.paint.detailsRun || 0) + 1;
        if (p.ctx.selKey !== this.paint.detailsSel) timed('render: details', () => this.showDetails(p.selected, p.ctx, () => p.done('details')));
        else p.later.details = true;
        this.paint.detailsSel = p.ctx.selKey;
      }),
    };
  }

  // Draws a view: the steps whose inputs changed, the comparison and the tools now; the rest after the paint.
  draw(view, request, t0) {
    const { state } = this.store;
    const fresh = view.fresh;
    view.fresh = false;
    const selected = (!view.error && (view.byKey.get(state.sel) || view.byKey.get(view.top))) || null;
    this.shown = { view, selKey: selected ? selected._key : null };
    const ctx = this.ctx();
    this.renderNotices(ctx);
    const t1 = performance.now();
    this.markBusy();
    const timing = { rankMs: fresh ? view.ms : 0, roundTripMs: fresh ? view.roundTripMs : 0, cached: !fresh, total: view.total || 0 };
    const pass = { view, state, request, ctx, selected, later: {}, done: settler(this.paint, t0, timing) };
    timing.viewChanged = this.paint.steps.rows(pass);
    timing.rows = view.rows.length;
    if (!timing.viewChanged) { timed('render: marks', () => syncTableMarks(this.el.table, ctx)); pass.done('table'); }
    const tb = performance.now();
    if (!this.paint.steps.details(pass)) pass.done('details');
    // Details drawn after the paint: their engine answer is asked for now, so that it comes while the table paints.
    if (pass.later.details && selected) this.askDetails(selected).catch(() => {});
    const compared = state.cmp.map((k) => view.byKey.get(k)).filter(Boolean);
    timed('render: compare', () => renderCompare(this.el.compare, compared, ctx));
    if (this.tools) timed('render: tools', () => this.tools.update(this.toolCtx(selected, compared)));
    const t2 = performance.now();
    Object.assign(timing, { renderMs: t2 - t1, totalMs: t2 - t0, tableMs: tb - t1, restMs: t2 - tb });
    this.paint.timings.push(timing);
    if (this.paint.timings.length > 50) this.paint.timings.shift();
    document.body.dataset.updateMs = timing.totalMs.toFixed(1);
    document.body.dataset.ready = view.error ? 'error' : '1';
    document.body.dataset.host = this.host.kind;  // 'worker' or 'main' (not data-engine: that marks engine text)
    afterPaint(this, pass, timing);
  }

  // What the decision tools see: the page context plus the current rows, selection and comparison.
  toolCtx(selected = null, compared = []) {
    const view = this.shown.view;
    return { ...this.ctx(), rows: (view && view.rows) || [], selected, compared };
  }

  // The details panel's engine request for a row (its arguments, and the request: cached, asked once however often).
  detailsArgs(row) {
    return { id: row.id, hours: row.compute_hours, nodes: row.nodes, pricing: row.pricing, deadline: this.state.filters.deadlineHours };
  }

  askDetails(row) {
    const failed = (e) => ({ offer: null, breakdown: [{ model: row.pricing, error: String(e.message || e) }] });
    return this.answers.ask('details', this.detailsArgs(row), { orError: failed });
  }

  // The details panel for a row: drawn now, then again with the engine's cost under each billing model.
  showDetails(row, ctx, onDone) {
    if (!row) { renderDetails(this.el.details, null, ctx); onDone(); return; }
    const extra = this.answers.peek('details', this.detailsArgs(row));
    renderDetails(this.el.details, row, ctx, extra || null);
    if (extra) { onDone(); return; }
    const run = this.paint.detailsRun;
    this.askDetails(row).then(async (x) => {
      await nextTask();
      if (this.paint.detailsRun === run && this.el.details.isConnected) timed('details', () => this.preserve(() => renderDetails(this.el.details, row, this.ctx(), x)));
      onDone();
    });
  }

  writeHash() {
    const hash = this.store.toHash();
    if (hash !== location.hash) history.replaceState(null, '', hash);
    this.paint.hash = location.hash;
    const share = document.getElementById('share-url');
    if (share) share.value = location.href;
  }

  copyLink(button) {
    const input = document.getElementById('share-url');
    const done = () => { button.textContent = this.t('copied'); };
    input.select();
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(location.href).then(done, () => { /* selected for manual copy */ });
  }

  // The whole ranking as a file: the engine host writes it (every row, messages in the reader's language).
  exportAs(kind) {
    const { state } = this.store;
    const file = `gpuvalue-${state.custom ? 'custom' : state.preset}-${todayIso()}.${kind}`;
    const type = kind === 'csv' ? 'text/csv;charset=utf-8' : 'application/json';
    const messages = kind === 'csv' ? MESSAGE_CATALOGS[state.lang] : undefined;
    this.host.request('exportRows', { request: this.store.request(), sort: state.sort, kind, lang: state.lang, messages, currency: state.currency, rate: state.rate, hash: location.hash })
      .then((text) => download(text, file, type));
  }

  renderNotices(ctx) {
    const { t } = ctx;
    const { notices } = this.store.session;
    this.el.notices.replaceChildren(...notices.map((n, i) => h('div', { class: `notice ${n.kind}`, role: 'alert', id: n.id },
      n.vars ? txv('p', t, n.key, Object.fromEntries(Object.entries(n.vars).map(([k, v]) => [k, dataText('span', v)]))) : h('p', {}, t(n.key)),
      n.details ? h('ul', {}, n.details.map((d) => h('li', {}, dataText('span', d.name),
        d.error ? [': ', dataText('code', d.error.path || '/'), ' ', engineText('span', d.error.message)] : null))) : null,
      h('button', { type: 'button', class: 'small', onclick: () => { notices.splice(i, 1); this.renderNotices(this.ctx()); } }, t('dismiss')))));
  }
}
