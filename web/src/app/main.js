// The calculator page's start: the data, the engine host, the store, then the page (app/page.js). The first
// ranking is asked for before the page is built, so that the worker ranks while the DOM is built.
import { startHost } from '../engine/host.js';
import { inflateText } from '../engine/wasm.js';
import { unpackDoc } from '../engine/bundle.js';
import { bundledIdsOf } from '../engine/viewrows.js';
import { pickLanguage, translator, loadLanguage } from '../i18n/index.js';
import { h, clear } from '../views/dom.js';
import { defaultState, bundledFx, DEFAULT_PRESET, LANG_KEY } from '../state/state.js';
import { readSetting } from '../state/settings.js';
import { setNames } from '../state/names.js';
import { setServingModel } from '../state/servingmodel.js';
import { storedValues, resetStored, download, allDocs, resetDocs } from './saved.js';
import { storedTheme } from '../views/theme.js';
import { PROFILE } from '../views/profile.js';
import { createStore } from './store.js';
import { App } from './page.js';
import { LOCALES } from '../format/format.js';

// The data's text, and its key: the offline file's element's text (base64 of its gzip), by which the host knows the
// worker the boot script started has the same data (engine/host.js); on the served site, the fetched text.
async function loadData() {
  const inline = document.getElementById('gv-data');
  if (inline) {
    const key = inline.textContent;
    return { text: await inflateText(key.trim()), key };
  }
  const res = await fetch('data/bundle.json');
  if (!res.ok) throw new Error(`data/bundle.json: HTTP ${res.status}`);
  const text = await res.text();
  return { text, key: text };
}

// The store of a page whose engine has started: the default state (the engine's defaults, the catalog's dated CNY
// rate, the default preset), the state the URL's hash says over it, and the session's first values.
function startStore(host, data) {
  const { defaults, presets, catalog } = host.meta;
  setNames(defaults.names);
  setServingModel(data.serving_model);
  const fx = bundledFx(data);
  const presetIds = presets.map((p) => p.id);
  const base = defaultState(defaults, { lang: pickLanguage(null, navigator.languages), rate: fx ? fx.CNY_per_USD : 0,
    presetId: presetIds.includes(DEFAULT_PRESET) ? DEFAULT_PRESET : presetIds[0] });
  const session = { catalog, notices: [], theme: storedTheme(), pendingSelectId: null,
    userData: { catalogs: [], lastMessage: null, form: null, formOpen: false, editingId: null, formMessage: null, providerName: '', busy: null, cancelled: null } };
  const servingPresets = ((data.serving_presets && data.serving_presets.presets) || []).map(({ id, name, model }) => ({ id, name, params: model.params, model }));
  const servingIds = servingPresets.map((p) => p.id);
  if (servingIds.length && !servingIds.includes(base.serving.preset)) base.serving.preset = servingIds[0];
  const store = createStore({ base, presetIds, servingIds, gpuIds: host.meta.gpus.map((g) => g.id), session });
  store.state = store.fromHash(location.hash);
  let docs = null;
  const bundledDocs = { [Symbol.iterator]: () => (docs ||= data.catalogs.map((c) => unpackDoc(c.doc)))[Symbol.iterator]() };
  // The bundled offers' ids (rows that are not among them are the user's), read from the packed catalogs when first asked for.
  let ids = null;
  const bundledIds = () => (ids ||= bundledIdsOf(data));
  return { store, env: { data, fx, defaults, presets, servingPresets, gpus: host.meta.gpus, bundledDocs, bundledIds } };
}

// The language the page will most likely be drawn in (the URL's, else the stored or the browser's: app/store.js
// decides), so that its strings load while the engine starts.
function likelyLanguage() {
  const asked = new URLSearchParams(location.hash.slice(1)).get('lang');
  return asked === 'en' || asked === 'zh' ? asked : pickLanguage(readSetting(LANG_KEY), navigator.languages);
}

// The start-up error screen's way out: every value the page stored (localStorage, and the large catalogs in
// IndexedDB under "indexedDB:<key>"), offered as a file, then removed.
async function startupReset() {
  await Promise.all(['en', 'zh'].map((l) => loadLanguage(l).catch(() => false)));
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

// The first screen's one-time costs paid while the page's thread waits for the engine: the first Intl number,
// plural and date formatters of a page load ICU's data for them (the CPU profile of a start put ~160 ms of the
// page's build, on the loaded machine, in the first fmt.int of the filters panel). A task of its own, in each language.
function warmFormatters() {
  setTimeout(() => {
    for (const locale of Object.values(LOCALES)) {
      new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(1234.5);
      new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(1.5);
      new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', unitDisplay: 'short' }).format(2);
      new Intl.PluralRules(locale).select(2);
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(0);
    }
  }, 0);
}

async function main() {
  const root = document.getElementById('app');
  try {
    // Start-up marks (gv:*), read by the bench to say where the page's start goes.
    performance.mark('gv:main');
    const strings = loadLanguage(likelyLanguage());
    const { text: dataText, key: dataKey } = await loadData();
    // The engine starts first (or, in the offline file, has started already: engine/boot.js); the page reads the
    // data for itself while the worker loads it.
    const starting = startHost(dataText, dataKey);
    warmFormatters();
    // Packed as the file carries it (engine/bundle.js): what the start reads (the serving model and presets, the
    // catalogs' dated CNY rate) is the same packed or not; the bundled documents are unpacked when first asked for.
    const data = JSON.parse(dataText);
    const host = await starting;
    performance.mark('gv:engine');
    const { store, env } = startStore(host, data);
    await strings;
    await loadLanguage(store.state.lang);
    const app = new App(root, host, store, env);
    window.gpuvalue = { app, timings: app.paint.timings, host, profile: PROFILE };
    performance.mark('gv:store');
    await app.user.loadUserCatalogs();
    performance.mark('gv:user');
    // Read the link again now that the user's own catalogs are in: their providers, regions and GPUs are known names.
    if (store.session.userData.catalogs.length) store.state = store.fromHash(location.hash);
    // Ask for the first ranking before building the page: the worker ranks while the DOM is built.
    if (store.state.task !== 'serve') app.fetchView(app.viewArgs());
    app.build();
    performance.mark('gv:built');
  } catch (e) {
    clear(root).append(h('p', { class: 'error', role: 'alert' }, `gpuvalue could not start / 无法启动: ${e.message || e}`));
    root.append(await startupReset());
    document.body.dataset.ready = 'error';
  }
}

main();
