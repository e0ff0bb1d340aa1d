// <gpu-value> custom element: the calculator's ranking in any documentation page (shadow DOM).
// Attributes: preset, catalog (URL of a catalog JSON, served pages only; ranked with the bundled offers on an engine
// of that element's own, never shared with other elements), lang (en|zh), compact, limit,
// software (tuned|typical; the preset's default when absent), horizon-days (each offer sized to finish within it;
// the engine's default, 30 days, when absent), include-stale and include-examples (boolean attributes: also rank
// stale prices and the seed article's illustrative offers, which are left out as on the page).
// mode="serving" answers the serving question instead: preset names a serving preset (llama3.1-8b, …), with rps,
// input-tokens, output-tokens, ttft-ms, tpot-ms, weights and kv as the page's serving inputs (the engine's defaults
// when absent); the offers by cost per million output tokens, those that miss the targets marked and below.
import { createEngine, GpuvalueError } from '../engine/client.js';
import { unpackBundle } from '../engine/bundle.js';
import { inflate } from '../engine/wasm.js';
import { providerName } from '../format/providers.js';
import { translator, pickLanguage } from '../i18n/index.js';
import { messageRenderer } from '../i18n/messages.js';
import { makeFormatter, hoursFromDays } from '../format/format.js';
import { servingOpsOf } from '../engine/serving.js';
import { h } from '../views/dom.js';
import { bundledFx, defaultCurrency } from '../state/state.js';

let wasmPromise;
let enginePromise;
// The script carries the engine's wasm as base64 of its gzip (scripts/build-web.mjs): inflated once, for every engine.
async function startEngine() {
  wasmPromise ||= window.__GPUVALUE_WASM__ ? inflate(window.__GPUVALUE_WASM__) : Promise.resolve(undefined);
  const wasmBinary = await wasmPromise;
  const factory = wasmBinary ? (options = {}) => window.createGpuvalue({ ...options, wasmBinary }) : window.createGpuvalue;
  return createEngine(factory, unpackBundle(window.__GPUVALUE_DATA__));
}
// The bundled catalog's engine, shared by every element without a catalog attribute.
function sharedEngine() {
  enginePromise ||= startEngine();
  return enginePromise;
}
// An element with a catalog attribute ranks the bundled offers and that file's on an engine of its own (one per URL),
// so its offers never appear in another element. A failed fetch or a refused file is not kept: the next refresh
// of an element with that URL tries again.
const catalogEngines = new Map();
function catalogEngine(url) {
  if (!catalogEngines.has(url)) {
    const ready = (async () => {
      const res = await fetch(url);
      if (!res.ok) throw Object.assign(new Error(`${url}: HTTP ${res.status}`), { http: { url, status: res.status } });
      const text = await res.text();
      const engine = await startEngine();
      const r = engine.addCatalog(text);
      if (!r.ok) throw Object.assign(new GpuvalueError(r), { url });
      return engine;
    })();
    catalogEngines.set(url, ready);
    ready.catch(() => { if (catalogEngines.get(url) === ready) catalogEngines.delete(url); });
  }
  return catalogEngines.get(url);
}

// The serving ranking on the widget's engine (the same code the page's worker runs).
function serveRank(engine, el) {
  const n = (name) => { const v = Number(el.getAttribute(name)); return el.hasAttribute(name) && Number.isFinite(v) && v >= 0 ? v : undefined; };
  const serving = { preset: el.getAttribute('preset') || 'llama3.1-8b', weights: el.getAttribute('weights') || undefined, kv: el.getAttribute('kv') || undefined,
    traffic: { requests_per_s: n('rps'), input_tokens: n('input-tokens'), output_tokens: n('output-tokens') }, targets: { ttft_ms: n('ttft-ms'), tpot_ms: n('tpot-ms') } };
  const a = servingOpsOf(engine).serveRank({ serving, filters: { include_examples: el.hasAttribute('include-examples'), include_stale: el.hasAttribute('include-stale') }, curves: false });
  if (!a.ok) throw new GpuvalueError(a);
  const names = new Map(engine.gpus().map((g) => [g.id, g.name]));
  const preset = engine.call('servingPresets').presets.find((p) => p.id === serving.preset);
  return { a, gpuName: (id) => names.get(id) ?? id, preset };
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
  + 'caption{text-align:left;font-weight:600;padding-bottom:4px}'
  + '@container (max-width:519px){thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}'
  + 'tbody tr{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 8px;border-bottom:1px solid #8884;padding:4px 0}'
  + 'td{border:0;padding:2px 4px}td.name{grid-column:1/-1;font-weight:600}td.num{text-align:left;white-space:normal}'
  + 'td[data-label]::before{content:attr(data-label);display:block;font-size:11px;opacity:.75}}';

class GpuValueElement extends HTMLElement {
  static get observedAttributes() { return ['preset', 'lang', 'compact', 'limit', 'catalog', 'software', 'horizon-days', 'include-stale', 'include-examples', 'mode', 'rps', 'input-tokens', 'output-tokens', 'ttft-ms', 'tpot-ms', 'weights', 'kv']; }
  connectedCallback() { this.refresh(); }
  attributeChangedCallback() { if (this.isConnected) this.refresh(); }

  async refresh() {
    const shadow = this.shadowRoot || this.attachShadow({ mode: 'open' });
    const lang = pickLanguage(this.getAttribute('lang'), navigator.languages);
    const t = translator(lang);
    // Chinese readers see CNY at the catalog's dated rate, English readers USD (as on the page).
    const fx = bundledFx(window.__GPUVALUE_DATA__);
    const currency = fx ? defaultCurrency(lang) : 'USD';
    const fmt = makeFormatter({ lang, currency, rate: fx ? fx.CNY_per_USD : 1 });
    const compact = this.hasAttribute('compact');
    const limit = Math.max(1, Math.min(100, Number(this.getAttribute('limit')) || (compact ? 5 : 10)));
    // An engine error's explanation ({code, params}) in the element's language, after its JSON Pointer path.
    const say = (m) => messageRenderer({ lang, fmt })(m);
    const errorText = (e) => {
      if (e && e.http) return t('widgetCatalogHttp', { url: e.http.url, status: e.http.status });
      const where = e && e.url ? `${e.url}: ` : '';
      return e && e.explanation ? `${where}${e.path || '/'}: ${say(e.explanation)}` : String((e && e.message) || e);
    };
    try {
      const catalogUrl = this.getAttribute('catalog');
      const engine = await (catalogUrl ? catalogEngine(catalogUrl) : sharedEngine());
      if (this.getAttribute('mode') === 'serving') {
        const { a, gpuName, preset } = serveRank(engine, this);
        const title = (preset && preset.name && (preset.name[lang] || preset.name.en)) || this.getAttribute('preset');
        const { rows, headers } = servingRows(a, { t, fmt, compact, limit, gpuName });
        shadow.replaceChildren(h('style', {}, STYLE), h('div', { class: 'wrap', part: 'wrap' }, h('table', { part: 'table', 'data-mode': 'serving' },
          h('caption', {}, `gpuvalue · ${title} · ${t('serveTableTitle')}`),
          h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows))));
        this.dataset.ready = '1';
        return;
      }
      // Real, current offers only, as on the page: the seed article's illustrative instances and stale prices are
      // left out unless the attributes ask for them.
      const req = { preset: this.getAttribute('preset') || 'resnet50-imagenet', limit,
        filters: { fits_only: true, include_examples: this.hasAttribute('include-examples'), include_stale: this.hasAttribute('include-stale') } };
      const horizonDays = Number(this.getAttribute('horizon-days'));
      if (this.hasAttribute('horizon-days') && Number.isFinite(horizonDays) && horizonDays >= 0 && horizonDays <= 4e5) req.horizon_hours = hoursFromDays(horizonDays);
      const software = this.getAttribute('software');
      if (software === 'tuned' || software === 'typical') req.workload = { software };
      const result = engine.rank(req);
      const preset = engine.presets().find((p) => p.id === result.workload.name);
      const title = (preset && preset.name && (preset.name[lang] || preset.name.en)) || result.workload.name;
      const rows = result.results.map((r) => h('tr', { 'data-nodes': r.nodes, 'data-meets': r.meets_horizon ? '1' : '0' },
        h('td', { class: 'name' }, r.instance), h('td', { 'data-label': t('colProvider') }, `${providerName(t, r.provider)} · ${r.region}`),
        compact ? null : h('td', { 'data-label': t('colGpu') }, `${r.total_gpus}× ${r.gpu_name}`),
        h('td', { 'data-label': t('colPricing') }, t(r.pricing)),
        h('td', { class: 'num time', 'data-label': t('colTime') }, fmt.duration(r.time_hours), r.meets_horizon ? null : ` (${t('beyondHorizon')})`),
        h('td', { class: 'num cost', 'data-label': t('colCost') }, fmt.money(r.cost_usd))));
      const headers = [t('wInstance'), t('colProvider'), compact ? null : t('colGpu'), t('colPricing'), t('colTime'), t('colCost')].filter(Boolean);
      shadow.replaceChildren(h('style', {}, STYLE), h('div', { class: 'wrap', part: 'wrap' }, h('table', { part: 'table' },
        h('caption', {}, `gpuvalue · ${title}`),
        h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows))));
      this.dataset.ready = '1';
    } catch (e) {
      shadow.replaceChildren(h('p', { role: 'alert' }, `gpuvalue: ${errorText(e)}`));
      this.dataset.ready = 'error';
    }
  }
}

if (!customElements.get('gpu-value')) customElements.define('gpu-value', GpuValueElement);
