// <gpu-value> custom element: the calculator's ranking in any documentation page (shadow DOM).
// Attributes: preset, catalog (URL of a catalog JSON, served pages only), lang (en|zh), compact, limit.
import { createEngine } from './engine-client.js';
import { translator, pickLanguage } from './i18n.js';
import { h } from './dom.js';

let enginePromise;
function sharedEngine() {
  enginePromise ||= createEngine(window.createGpuvalue, window.__GPUVALUE_DATA__);
  return enginePromise;
}

class GpuValueElement extends HTMLElement {
  static get observedAttributes() { return ['preset', 'lang', 'compact', 'limit', 'catalog']; }
  connectedCallback() { this.refresh(); }
  attributeChangedCallback() { if (this.isConnected) this.refresh(); }

  async refresh() {
    const shadow = this.shadowRoot || this.attachShadow({ mode: 'open' });
    const lang = pickLanguage(this.getAttribute('lang'), navigator.languages);
    const t = translator(lang);
    const compact = this.hasAttribute('compact');
    const limit = Number(this.getAttribute('limit')) || (compact ? 5 : 10);
    try {
      const engine = await sharedEngine();
      const catalogUrl = this.getAttribute('catalog');
      if (catalogUrl) {
        const res = await fetch(catalogUrl);
        const r = engine.addCatalog(await res.text());
        if (!r.ok) throw new Error(`${catalogUrl}: ${r.error.message}`);
      }
      const result = engine.rank({ preset: this.getAttribute('preset') || 'resnet50-imagenet', filters: { fits_only: true }, limit });
      const style = h('style', {}, ':host{display:block;font:14px system-ui,sans-serif;color:CanvasText}table{border-collapse:collapse;width:100%}th,td{padding:4px 6px;border-bottom:1px solid #8884;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:600;padding-bottom:4px}');
      const rows = result.results.map((r) => h('tr', {},
        h('td', {}, r.instance), h('td', {}, r.provider),
        compact ? null : h('td', {}, `${r.total_gpus}× ${r.gpu_name}`),
        h('td', {}, t(r.pricing)),
        h('td', { class: 'num' }, `${(r.time_hours / (r.time_hours >= 48 ? 24 : 1)).toFixed(1)} ${r.time_hours >= 48 ? t('days') : t('hours')}`),
        h('td', { class: 'num' }, `$${r.cost_usd.toFixed(0)}`)));
      const headers = [t('instance'), t('provider'), compact ? null : t('gpu'), t('pricing'), t('time'), t('cost')].filter(Boolean);
      shadow.replaceChildren(style, h('table', { part: 'table' },
        h('caption', {}, `gpuvalue · ${result.workload.name}`),
        h('thead', {}, h('tr', {}, headers.map((x) => h('th', {}, x)))), h('tbody', {}, rows)));
      this.dataset.ready = '1';
    } catch (e) {
      shadow.replaceChildren(h('p', { role: 'alert' }, `gpuvalue: ${e.message || e}`));
      this.dataset.ready = 'error';
    }
  }
}

if (!customElements.get('gpu-value')) customElements.define('gpu-value', GpuValueElement);
