// The calculator page: workload → ranked offers, every number from the wasm engine.
import { createEngine, GpuvalueError } from './engine-client.js';
import { pickLanguage, translator } from './i18n.js';
import { h, clear } from './dom.js';

const LANG_KEY = 'gpuvalue.lang';

function readState() {
  const q = new URLSearchParams(location.hash.replace(/^#/, ''));
  return {
    preset: q.get('preset') || 'resnet50-imagenet',
    pricing: q.get('pricing') || 'all',
    fitsOnly: q.get('fits') === '1',
    lang: q.get('lang') || null,
  };
}

function writeState(state) {
  const q = new URLSearchParams();
  q.set('preset', state.preset);
  q.set('pricing', state.pricing);
  if (state.fitsOnly) q.set('fits', '1');
  q.set('lang', state.lang);
  history.replaceState(null, '', `#${q.toString()}`);
}

async function loadData() {
  const inline = document.getElementById('gv-data');
  if (inline) return JSON.parse(inline.textContent);
  const res = await fetch('data/bundle.json');
  if (!res.ok) throw new Error(`data/bundle.json: HTTP ${res.status}`);
  return res.json();
}

function fmtHours(hours, lang, t) {
  const nf = new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 1 });
  return hours >= 48 ? `${nf.format(hours / 24)} ${t('days')}` : `${nf.format(hours)} ${t('hours')}`;
}

function fmtUsd(v, lang, digits = 0) {
  return new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: digits }).format(v);
}

function render(root, engine, presets, state) {
  const t = translator(state.lang);
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  clear(root);
  const presetSelect = h('select', { id: 'preset', onchange: (e) => update({ preset: e.target.value }) },
    presets.map((p) => h('option', { value: p.id, selected: p.id === state.preset }, (p.name && p.name[state.lang]) || p.id)));
  const pricingSelect = h('select', { id: 'pricing', onchange: (e) => update({ pricing: e.target.value }) },
    ['all', 'on_demand', 'reserved', 'spot', 'tiered', 'monthly'].map((m) => h('option', { value: m, selected: m === state.pricing }, t(m))));
  const langSelect = h('select', { id: 'lang', onchange: (e) => { localStorage.setItem(LANG_KEY, e.target.value); update({ lang: e.target.value }); } },
    h('option', { value: 'zh', selected: state.lang === 'zh' }, '简体中文'), h('option', { value: 'en', selected: state.lang === 'en' }, 'English'));
  const fits = h('input', { type: 'checkbox', id: 'fits-only', checked: state.fitsOnly, onchange: (e) => update({ fitsOnly: e.target.checked }) });

  root.append(
    h('header', {}, h('h1', {}, t('title')), h('p', { class: 'tagline' }, t('tagline'))),
    h('section', { class: 'controls', 'aria-label': t('workload') },
      h('label', { for: 'preset' }, t('preset')), presetSelect,
      h('label', { for: 'pricing' }, t('pricing')), pricingSelect,
      h('label', { class: 'check' }, fits, t('fitsOnly')),
      h('label', { for: 'lang' }, t('language')), langSelect),
  );
  const out = h('section', { id: 'results' });
  root.append(out);

  let result;
  try {
    result = engine.rank({ preset: state.preset, pricing: state.pricing, filters: { fits_only: state.fitsOnly }, limit: 200 });
  } catch (e) {
    const msg = e instanceof GpuvalueError ? `${e.path}: ${e.message}` : String(e.message || e);
    out.append(h('p', { class: 'error', role: 'alert' }, `${t('engineError')}: ${msg}`));
    return;
  }
  out.append(h('p', { class: 'summary', id: 'summary' },
    t('resultsSummary', { fit: result.fitting_count, total: result.result_count, evaluated: result.evaluated_offers }),
    ' · ', `${t('totalFlops')}: ${result.workload.total_flops.toExponential(2)} FLOPs`));
  const head = h('tr', {}, [t('rank'), t('instance'), t('provider'), t('gpu'), t('pricing'), t('fits'), t('time'), t('cost'), t('unitCost'), t('score'), t('why')]
    .map((x) => h('th', { scope: 'col' }, x)));
  const rows = result.results.map((r, i) => h('tr', { class: r.fits ? '' : 'unfit', dataset: { id: r.id, pricing: r.pricing } },
    h('td', {}, String(i + 1)),
    h('td', {}, r.instance, r.example ? h('span', { class: 'badge' }, t('example')) : null),
    h('td', {}, `${r.provider} · ${r.region}`),
    h('td', {}, `${r.total_gpus}× ${r.gpu_name}`),
    h('td', {}, t(r.pricing)),
    h('td', {}, r.fits ? t('yes') : t('no')),
    h('td', { class: 'num' }, r.time_hours > 0 ? fmtHours(r.time_hours, state.lang, t) : '—'),
    h('td', { class: 'num' }, r.cost_usd > 0 ? fmtUsd(r.cost_usd, state.lang) : '—'),
    h('td', { class: 'num' }, r.usd_per_tflops_day.toFixed(4)),
    h('td', { class: 'num' }, r.score.toFixed(3)),
    h('td', { class: 'why' }, [...r.reasons, ...r.warnings].join('; '))));
  out.append(h('div', { class: 'table-wrap' }, h('table', { id: 'ranking' }, h('thead', {}, head), h('tbody', {}, rows))));
  document.body.dataset.ready = '1';
}

let current;
let update = () => {};

async function main() {
  const root = document.getElementById('app');
  try {
    const data = await loadData();
    const engine = await createEngine(window.createGpuvalue, data);
    const presets = engine.presets();
    const s = readState();
    current = { ...s, lang: pickLanguage(s.lang || localStorage.getItem(LANG_KEY), navigator.languages) };
    update = (patch) => {
      current = { ...current, ...patch };
      writeState(current);
      render(root, engine, presets, current);
    };
    update({});
  } catch (e) {
    clear(root).append(h('p', { class: 'error', role: 'alert' }, `gpuvalue could not start: ${e.message || e}`));
    document.body.dataset.ready = 'error';
  }
}

main();
