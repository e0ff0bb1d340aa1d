// <gpu-value> custom element: the calculator's ranking in any documentation page (shadow DOM).
// Attributes: preset, catalog (URL of a catalog JSON, served pages only; ranked with the bundled offers on an engine
// of that element's own, never shared with other elements), lang (en|zh), compact, limit,
// software (tuned|typical; the preset's default when absent), horizon-days (each offer sized to finish within it;
// the engine's default, 30 days, when absent), include-stale and include-examples (boolean attributes: also rank
// stale prices and the seed article's illustrative offers, which are left out as on the page).
// mode="serving" answers the serving question instead: preset names a serving preset (llama3.1-8b, …), with rps,
// input-tokens, output-tokens, ttft-ms, tpot-ms, weights and kv as the page's serving inputs (the engine's defaults
// when absent); the offers by cost per million output tokens, those that miss the targets marked and below.
// The engine runs in a worker started from this very script where the host page allows one (engine/widgetcore.js),
// so that ranking ~2,000 offers never holds up the host page; else on the page, a macrotask per question.
import { widgetCore, serveWidgetWorker, errorData } from '../engine/widgetcore.js';
import { providerName } from '../format/providers.js';
import { translator, pickLanguage } from '../i18n/index.js';
import { messageRenderer } from '../i18n/messages.js';
import { makeFormatter, hoursFromDays } from '../format/format.js';
import { h } from '../views/dom.js';
import { defaultCurrency } from '../state/state.js';

const inWorker = typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;
// The script's own URL, for the worker (a classic script: known while it first runs).
const SCRIPT_URL = !inWorker && document.currentScript ? document.currentScript.src : '';

// The engine on this page: each question after a macrotask, so that the element's caller returns first.
function pageHost() {
  const core = widgetCore();
  return {
    kind: 'page',
    async ask(question) {
      await new Promise((resolve) => { setTimeout(resolve, 0); });
      try {
        return await core.answer(question);
      } catch (e) {
        throw errorData(e);
      }
    },
  };
}

// The worker, or the page when no worker starts (no script URL, a file:// page, a policy that refuses the worker or
// wasm in it, window.GPUVALUE_NO_WORKER): questions still waiting are asked again on the page.
function startHost() {
  if (!SCRIPT_URL || typeof Worker !== 'function' || window.GPUVALUE_NO_WORKER) return pageHost();
  let worker;
  try {
    worker = new Worker(SCRIPT_URL);
  } catch {
    return pageHost();
  }
  const waiting = new Map();
  let next = 1;
  let page = null;
  const fallBack = () => {
    if (page) return;
    page = pageHost();
    worker.terminate();
    for (const w of waiting.values()) page.ask(w.question).then(w.resolve, w.reject);
    waiting.clear();
  };
  worker.onmessage = (e) => {
    const { id, ok, value, error, fatal } = e.data || {};
    if (fatal) { fallBack(); return; }
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (ok) w.resolve(value);
    else w.reject(error);
  };
  worker.onerror = (e) => { e.preventDefault(); fallBack(); };
  return {
    get kind() { return page ? 'page' : 'worker'; },
    ask(question) {
      if (page) return page.ask(question);
      return new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { question, resolve, reject });
        worker.postMessage({ id, question });
      });
    },
  };
}
let host;
const widgetHost = () => (host ||= startHost());

// The serving question of an element's attributes (the engine's defaults for those absent).
function servingQuestion(el) {
  const n = (name) => { const v = Number(el.getAttribute(name)); return el.hasAttribute(name) && Number.isFinite(v) && v >= 0 ? v : undefined; };
  const serving = { preset: el.getAttribute('preset') || 'llama3.1-8b', weights: el.getAttribute('weights') || undefined, kv: el.getAttribute('kv') || undefined,
    traffic: { requests_per_s: n('rps'), input_tokens: n('input-tokens'), output_tokens: n('output-tokens') }, targets: { ttft_ms: n('ttft-ms'), tpot_ms: n('tpot-ms') } };
  return { serving, filters: { include_examples: el.hasAttribute('include-examples'), include_stale: el.hasAttribute('include-stale') }, curves: false };
}

// The serving answer as the widget's table: offer, replica, cost per million output tokens, TTFT/TPOT, targets.
function servingRows(a, { t, fmt, compact, limit, gpuName }) {
  const ms = (x) => (x > 0 ? `${fmt.num(x, 0)} ms` : '—');
  // Each key written out in a t('…') call: the build keeps only the UI strings the widget names that way.
  const statusText = (r) => (!r.fits ? t('serveNoFit') : r.met ? t('serveMet')
    : !r.ttft_met && !r.tpot_met ? t('serveMissBoth') : r.ttft_met ? t('serveMissTpot') : t('serveMissTtft'));
  const rows = a.rows.slice(0, limit).map((r) => h('tr', { 'data-met': r.met ? '1' : '0', 'data-fits': r.fits ? '1' : '0', 'data-gpu': r.gpu },
    h('td', { class: 'name' }, r.instance), h('td', { 'data-label': t('colProvider') }, providerName(t, r.provider)),
    h('td', { 'data-label': t('serveReplica') }, `${r.replica_gpus}× ${gpuName(r.gpu)}`),
    h('td', { class: 'num out', 'data-label': t('serveColOut') }, r.fits ? fmt.money(r.usd_per_million_output) : '—'),
    compact ? null : h('td', { class: 'num', 'data-label': t('serveColReplicas') }, r.fits ? fmt.int(r.replicas) : '—'),
    compact ? null : h('td', { class: 'num', 'data-label': `${t('serveColTtft')} / ${t('serveColTpot')}` }, `${ms(r.ttft_ms)} / ${ms(r.tpot_ms)}`),
    h('td', { class: 'status', 'data-label': t('serveColStatus') }, statusText(r))));
  const headers = [t('wInstance'), t('colProvider'), t('serveReplica'), t('serveColOut'), compact ? null : t('serveColReplicas'),
    compact ? null : `${t('serveColTtft')} / ${t('serveColTpot')}`, t('serveColStatus')].filter(Boolean);
  return { rows, headers };
}

// The element adapts to its own width (a container query on the host), not the window's: below 520 px each
// offer is a small card whose cells carry their column name, so time and cost stay in view in a narrow column.
const STYLE = ':host{display:block;container-type:inline-size;font:14px system-ui,"Noto Sans CJK SC",sans-serif;color:CanvasText}'
  + 'table{border-collapse:collapse;width:100%}'
  + 'th,td{padding:4px 6px;border-bottom:1px solid #8884;text-align:left;overflow-wrap:anywhere}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}'
  // The billing model is a word or two: kept on one line (in Chinese a narrow column broke 竞价 between its
  // characters); a column's name wraps between words only ("Targets" was broken before its last letter).
  + 'td.pricing{white-space:nowrap;overflow-wrap:normal}th{overflow-wrap:normal}'
  + 'caption{text-align:left;font-weight:600;padding-bottom:4px}'
  + '@container (max-width:519px){thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}'
  + 'tbody tr{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 8px;border-bottom:1px solid #8884;padding:4px 0}'
  + 'td{border:0;padding:2px 4px}td.name{grid-column:1/-1;font-weight:600}td.num{text-align:left;white-space:normal}'
  + 'td[data-label]::before{content:attr(data-label);display:block;font-size:11px;opacity:.75}}';

// The training question of an element's attributes. Real, current offers only, as on the page: the seed article's
// illustrative instances and stale prices are left out unless the attributes ask for them.
function rankQuestion(el, limit) {
  const req = { preset: el.getAttribute('preset') || 'resnet50-imagenet', limit,
    filters: { fits_only: true, include_examples: el.hasAttribute('include-examples'), include_stale: el.hasAttribute('include-stale') } };
  const horizonDays = Number(el.getAttribute('horizon-days'));
  if (el.hasAttribute('horizon-days') && Number.isFinite(horizonDays) && horizonDays >= 0 && horizonDays <= 4e5) req.horizon_hours = hoursFromDays(horizonDays);
  const software = el.getAttribute('software');
  if (software === 'tuned' || software === 'typical') req.workload = { software };
  return req;
}

// The ranking as the widget's table: offer, provider and region, GPUs, billing, time, cost.
function trainingRows(result, { t, fmt, compact }) {
  const rows = result.results.map((r) => h('tr', { 'data-nodes': r.nodes, 'data-meets': r.meets_horizon ? '1' : '0' },
    h('td', { class: 'name' }, r.instance), h('td', { 'data-label': t('colProvider') }, `${providerName(t, r.provider)} · ${r.region}`),
    compact ? null : h('td', { 'data-label': t('colGpu') }, `${r.total_gpus}× ${r.gpu_name}`),
    h('td', { class: 'pricing', 'data-label': t('colPricing') }, t(r.pricing)),
    h('td', { class: 'num time', 'data-label': t('colTime') }, fmt.duration(r.time_hours), r.meets_horizon ? null : ` (${t('beyondHorizon')})`),
    h('td', { class: 'num cost', 'data-label': t('colCost') }, fmt.money(r.cost_usd))));
  const headers = [t('wInstance'), t('colProvider'), compact ? null : t('colGpu'), t('colPricing'), t('colTime'), t('colCost')].filter(Boolean);
  return { rows, headers };
}

const presetTitle = (name, lang) => name && (name[lang] || name.en);

// The element's class, defined on the page only (its base class does not exist in the worker).
function defineElement() {
  class GpuValueElement extends HTMLElement {
    static get observedAttributes() { return ['preset', 'lang', 'compact', 'limit', 'catalog', 'software', 'horizon-days', 'include-stale', 'include-examples', 'mode', 'rps', 'input-tokens', 'output-tokens', 'ttft-ms', 'tpot-ms', 'weights', 'kv']; }
    connectedCallback() { this.schedule(); }
    attributeChangedCallback() { if (this.isConnected) this.schedule(); }

    // One question for the changes of one task: an element upgraded with seven attributes gets seven attribute
    // callbacks and a connected one in a row, and asked the engine eight times.
    schedule() {
      if (this.scheduled) return;
      this.scheduled = true;
      queueMicrotask(() => { this.scheduled = false; if (this.isConnected) this.refresh(); });
    }

    async refresh() {
      // Only the latest question's answer is drawn: attributes changed while one was on its way ask again.
      const asked = (this.asked = (this.asked || 0) + 1);
      const shadow = this.shadowRoot || this.attachShadow({ mode: 'open' });
      const lang = pickLanguage(this.getAttribute('lang'), navigator.languages);
      const t = translator(lang);
      // Chinese readers see CNY at the catalog's dated rate, English readers USD (as on the page).
      const fx = window.__GPUVALUE_FX__ || null;
      const fmt = makeFormatter({ lang, currency: fx ? defaultCurrency(lang) : 'USD', rate: fx ? fx.CNY_per_USD : 1 });
      const compact = this.hasAttribute('compact');
      const limit = Math.max(1, Math.min(100, Number(this.getAttribute('limit')) || (compact ? 5 : 10)));
      // An engine error's explanation ({code, params}) in the element's language, after its JSON Pointer path.
      const say = (m) => messageRenderer({ lang, fmt })(m);
      const errorText = (e) => {
        if (e && e.http) return t('widgetCatalogHttp', { url: e.http.url, status: e.http.status });
        const where = e && e.url ? `${e.url}: ` : '';
        return e && e.explanation ? `${where}${e.path || '/'}: ${say(e.explanation)}` : String((e && e.message) || e);
      };
      const url = this.getAttribute('catalog');
      const catalog = url ? { url, href: new URL(url, document.baseURI).href } : undefined;
      const serving = this.getAttribute('mode') === 'serving';
      try {
        const v = await widgetHost().ask(serving ? { op: 'serve', req: servingQuestion(this), catalog } : { op: 'rank', req: rankQuestion(this, limit), catalog });
        if (asked !== this.asked) return;
        let table;
        if (serving) {
          const names = new Map(v.gpus);
          const { rows, headers } = servingRows(v.a, { t, fmt, compact, limit, gpuName: (id) => names.get(id) ?? id });
          table = h('table', { part: 'table', 'data-mode': 'serving' },
            h('caption', {}, `gpuvalue · ${presetTitle(v.presetName, lang) || this.getAttribute('preset')} · ${t('serveTableTitle')}`),
            h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows));
        } else {
          const { rows, headers } = trainingRows(v.result, { t, fmt, compact });
          table = h('table', { part: 'table' }, h('caption', {}, `gpuvalue · ${presetTitle(v.presetName, lang) || v.result.workload.name}`),
            h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows));
        }
        shadow.replaceChildren(h('style', {}, STYLE), h('div', { class: 'wrap', part: 'wrap' }, table));
        this.dataset.ready = '1';
      } catch (e) {
        if (asked !== this.asked) return;
        shadow.replaceChildren(h('p', { role: 'alert' }, `gpuvalue: ${errorText(e)}`));
        this.dataset.ready = 'error';
      }
    }
  }
  if (!customElements.get('gpu-value')) customElements.define('gpu-value', GpuValueElement);
}

if (inWorker) serveWidgetWorker();
else defineElement();
