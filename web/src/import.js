// The user's own data: catalogs imported from a file (our JSON format, or a SkyPilot vms.csv through
// engine.importSkypilot) and offers typed into a form. Kept in localStorage as {version: 1, catalogs: [...]};
// an unreadable value is moved aside and reported, never a blank page. A rejected import changes nothing:
// engine.addCatalog is all-or-nothing and loadCatalog keeps the old catalog on failure.
import { h, tx, engineText, dataText, foldPanel } from './dom.js';
import { PRICING_MODELS } from './state.js';
import { todayIso } from './engine-client.js';

export const STORE_KEY = 'gpuvalue.userCatalogs';
export const STORE_VERSION = 1;
const INTERCONNECTS = ['none', 'pcie', 'nvlink', 'nvswitch', 'infinity-fabric'];

function validEntry(c) {
  return c && typeof c === 'object' && typeof c.name === 'string' && ['json', 'skypilot', 'manual'].includes(c.kind)
    && c.doc && typeof c.doc === 'object' && Array.isArray(c.doc.instances);
}

// Reads the stored catalogs. Returns {catalogs, problem}; problem is 'corrupt' or 'newer' when the value was unusable.
export function loadStore(storage = localStorage) {
  let raw = null;
  try { raw = storage.getItem(STORE_KEY); } catch { return { catalogs: [], problem: null }; }
  if (raw === null) return { catalogs: [], problem: null };
  let v;
  try { v = JSON.parse(raw); } catch { v = undefined; }
  const problem = !v || typeof v !== 'object' || typeof v.version !== 'number' ? 'corrupt'
    : v.version > STORE_VERSION ? 'newer'
      : v.version !== STORE_VERSION || !Array.isArray(v.catalogs) || !v.catalogs.every(validEntry) ? 'corrupt' : null;
  if (problem) {
    try {
      storage.setItem(`${STORE_KEY}.unreadable`, raw);
      storage.removeItem(STORE_KEY);
    } catch { /* storage full or blocked: the notice still tells the user */ }
    return { catalogs: [], problem };
  }
  return { catalogs: v.catalogs, problem: null };
}

export function saveStore(catalogs, storage = localStorage) {
  storage.setItem(STORE_KEY, JSON.stringify({ version: STORE_VERSION, catalogs }));
}

// Loads bundled + user catalogs into the engine in one all-or-nothing call; if that fails, keeps the
// user catalogs the engine accepts one by one. Returns {catalogs (kept), rejected: [{entry, error}]}.
export function applyCatalogs(engine, bundledDocs, userCatalogs) {
  const all = engine.loadCatalog(JSON.stringify([...bundledDocs, ...userCatalogs.map((c) => c.doc)]));
  if (all.ok) return { catalogs: userCatalogs, rejected: [] };
  const base = engine.loadCatalog(JSON.stringify(bundledDocs));
  if (!base.ok) throw new Error(`bundled catalog rejected: ${base.error && base.error.message}`);
  const kept = [];
  const rejected = [];
  for (const c of userCatalogs) {
    const r = engine.addCatalog(JSON.stringify(c.doc));
    if (r.ok) kept.push(c);
    else rejected.push({ entry: c, error: r.error, issues: r.issues || [] });
  }
  return { catalogs: kept, rejected };
}

export function isSkypilotCsv(name, text) {
  if (/\.csv$/i.test(name)) return true;
  const first = text.slice(0, 2000).split(/\r?\n/, 1)[0];
  return !/^\s*[[{]/.test(text) && /InstanceType/.test(first);
}

const issueList = (issues, id) => h('ul', { class: 'issues', id },
  issues.map((i) => h('li', {}, i.path ? h('code', { class: 'path', 'data-raw': '' }, i.path) : null, i.path ? ' ' : null,
    i.ui ? h('span', {}, i.message) : engineText('span', i.message))));

// Imports one file's text. Returns {ok, entry?, count?, warnings?, errors?} and changes nothing on failure.
export function importText(engine, name, text, { provider = '', today }) {
  let doc;
  let kind;
  let warnings = [];
  if (isSkypilotCsv(name, text)) {
    kind = 'skypilot';
    const r = engine.importSkypilot(text, { provider: provider || undefined, as_of: today, source: `SkyPilot vms.csv (${name})` });
    const errors = (r.issues || []).filter((i) => !i.warning);
    if (!r.ok) return { ok: false, errors: errors.length ? errors : [r.error || { path: '', message: 'import failed' }] };
    warnings = (r.issues || []).filter((i) => i.warning);
    if (!r.offers) return { ok: false, errors: [{ path: '', message: 'no GPU offers found in the file' }], warnings };
    doc = r.catalog;
  } else {
    kind = 'json';
    try { doc = JSON.parse(text); } catch { doc = null; }
  }
  const add = engine.addCatalog(kind === 'json' ? text : JSON.stringify(doc));
  if (!add.ok) return { ok: false, errors: (add.issues || []).filter((i) => !i.warning).concat(add.issues && add.issues.length ? [] : [add.error]), warnings };
  warnings = warnings.concat((add.issues || []).filter((i) => i.warning));
  return { ok: true, entry: { name, kind, added: today, doc }, count: add.count, warnings };
}

const slug = (s) => String(s).toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '') || 'x';

// Builds a one-offer catalog document from the form values. Prices typed in CNY are converted at `rate`.
export function offerDoc(v, { rate, today }) {
  const cny = v.currency === 'CNY';
  const usd = (x) => +(cny ? x / rate : x).toFixed(4);
  const prices = [];
  const base = { as_of: v.as_of || today, source: v.source };
  const local = (x) => (cny ? { local_per_hour: x } : {});
  if (v.on_demand > 0) prices.push({ model: 'on_demand', usd_per_hour: usd(v.on_demand), ...local(v.on_demand), ...base });
  if (v.spot > 0) prices.push({ model: 'spot', usd_per_hour: usd(v.spot), ...local(v.spot), ...base });
  if (v.reserved > 0) prices.push({ model: 'reserved', usd_per_hour: usd(v.reserved), term_months: v.term_months || 12, ...local(v.reserved), ...base });
  if (v.monthly > 0) prices.push({ model: 'monthly', usd_per_month: usd(v.monthly), ...(cny ? { local_per_month: v.monthly } : {}), ...base });
  const inst = {
    id: v.id, provider: v.provider, instance_type: v.instance_type, gpu: v.gpu, gpu_count: v.gpu_count,
    region: v.region, currency: cny ? 'CNY' : 'USD', interconnect: v.interconnect, prices,
  };
  if (v.network_gbps > 0) inst.network_gbps = v.network_gbps;
  if (v.rdma) inst.rdma = true;
  const doc = { schema_version: 1, instances: [inst] };
  if (cny) doc.fx = { CNY_per_USD: rate, as_of: today, source: 'rate set on the gpuvalue page' };
  return doc;
}

export function newOfferId(v, taken) {
  const base = `user-${slug(v.provider)}-${slug(v.instance_type)}-${slug(v.region)}`;
  let id = base;
  for (let i = 2; taken.has(id); ++i) id = `${base}-${i}`;
  return id;
}

// Form values from a full catalog record (bundled file or stored user document).
export function formValuesFrom(inst, doc) {
  const p = (m) => (inst.prices || []).find((x) => x.model === m);
  const cny = inst.currency === 'CNY' && doc && doc.fx;
  const hourly = (x) => (x ? (cny && x.local_per_hour ? x.local_per_hour : x.usd_per_hour) : undefined);
  const monthly = p('monthly');
  return {
    provider: inst.provider, instance_type: inst.instance_type, region: inst.region, gpu: inst.gpu, gpu_count: inst.gpu_count,
    interconnect: inst.interconnect || 'none', network_gbps: inst.network_gbps, rdma: Boolean(inst.rdma), currency: cny ? 'CNY' : 'USD',
    on_demand: hourly(p('on_demand')), spot: hourly(p('spot')), reserved: hourly(p('reserved')),
    term_months: p('reserved') && p('reserved').term_months,
    monthly: monthly ? (cny && monthly.local_per_month ? monthly.local_per_month : monthly.usd_per_month) : undefined,
    as_of: (inst.prices && inst.prices[0] && inst.prices[0].as_of) || '', source: (inst.prices && inst.prices[0] && inst.prices[0].source) || '',
  };
}

// The "Your data" panel: drop zone + file picker, the SkyPilot provider name, the offer form and the list.
export function dataPanel(ctx) {
  const { t, fmt, gpus, userData } = ctx;
  const status = h('div', { id: 'import-status', role: 'status', 'aria-live': 'polite' });
  if (userData.lastMessage) status.append(renderMessage(userData.lastMessage, t));

  const provider = h('input', { type: 'text', id: 'import-provider', value: userData.providerName || '', autocomplete: 'off',
    oninput: (e) => { userData.providerName = e.target.value; } });
  // The native file input is visually hidden (its button text would follow the browser's language, not the
  // page's); its label is the visible button, and keyboard focus on the input outlines that label.
  const file = h('input', { type: 'file', id: 'import-file', class: 'sr-only file-input', accept: '.json,.csv,application/json,text/csv',
    onchange: (e) => { const f = e.target.files && e.target.files[0]; if (f) ctx.importFile(f); e.target.value = ''; } });
  const drop = h('div', { class: 'drop', id: 'drop-zone' },
    tx('p', t, 'dropHint'),
    h('div', { class: 'field file-field' }, file, tx('label', t, 'chooseFile', { for: 'import-file', class: 'file-button' })),
    h('div', { class: 'field' }, tx('label', t, 'skypilotProvider', { for: 'import-provider' }), provider,
      tx('span', t, 'skypilotProviderHint', { class: 'hint' })));
  for (const ev of ['dragenter', 'dragover']) drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add('over'); });
  for (const ev of ['dragleave', 'drop']) drop.addEventListener(ev, () => drop.classList.remove('over'));

  const list = userData.catalogs.length
    ? h('ul', { class: 'my-catalogs', id: 'my-catalogs' }, userData.catalogs.map((c, i) => h('li', {},
      dataText('span', c.name, { class: 'cat-name' }), ' ',
      h('span', { class: 'sub' }, t(`kindStore_${c.kind}`), ' · ', t('offersN', { n: fmt.int(c.doc.instances.length) }), ' · ', fmt.date(c.added)),
      ' ',
      c.kind === 'manual' ? h('button', { type: 'button', class: 'small', onclick: () => ctx.editOffer(c.doc.instances[0].id, { template: false }),
        'aria-label': t('editNamed', { name: c.name }) }, t('edit')) : null,
      h('button', { type: 'button', class: 'small', 'data-index': i, onclick: () => ctx.removeCatalog(i),
        'aria-label': t('removeNamed', { name: c.name }) }, t('remove')))))
    : tx('p', t, 'noUserData', { class: 'sub', id: 'my-catalogs-empty' });

  return foldPanel('data-panel', tx('h2', t, 'yourData', { id: 'data-title' }), drop, status,
    tx('h3', t, 'myCatalogs'), list,
    offerForm(ctx, gpus));
}

export function renderMessage(msg, t) {
  if (msg.kind === 'ok') {
    return h('div', { class: 'notice ok', id: 'import-ok' },
      h('p', {}, t('importOk', { n: msg.count }), ' ', dataText('span', msg.name)),
      msg.warnings && msg.warnings.length ? h('div', {}, tx('p', t, 'importWarnings'), issueList(msg.warnings, 'import-warnings')) : null);
  }
  return h('div', { class: 'notice error', id: 'import-error', role: 'alert' },
    h('p', {}, h('strong', {}, t(msg.titleKey || 'importFailed')), ' ', msg.name ? dataText('span', msg.name) : null),
    tx('p', t, 'importNothingChanged'),
    issueList(msg.errors || [], 'import-errors'));
}

function offerForm(ctx, gpus) {
  const { t, userData, fmt } = ctx;
  const v = userData.form || { as_of: todayIso(), gpu_count: 1 };
  const editing = Boolean(userData.editingId);
  const input = (id, key, attrs = {}) => h('input', { id: `of-${id}`, name: key, value: v[key] ?? '', ...attrs });
  const num = (id, key, attrs = {}) => input(id, key, { type: 'number', step: 'any', min: 0, inputmode: 'decimal', ...attrs });
  const f = (id, labelKey, control, vars) => h('div', { class: 'field' }, h('label', { for: `of-${id}` }, t(labelKey, vars)), control);
  const cur = v.currency || ctx.state.currency;
  const form = h('form', { id: 'offer-form', novalidate: true },
    f('provider', 'ofProvider', input('provider', 'provider', { required: true, autocomplete: 'off' })),
    f('instance', 'ofInstance', input('instance', 'instance_type', { required: true, autocomplete: 'off' })),
    f('region', 'ofRegion', input('region', 'region', { required: true, autocomplete: 'off' })),
    f('gpu', 'ofGpu', h('select', { id: 'of-gpu', name: 'gpu' }, gpus.map((g) => h('option', { value: g.id, selected: g.id === v.gpu, 'data-raw': '' }, g.name)))),
    f('count', 'ofCount', num('count', 'gpu_count', { min: 1, max: 1024, step: 1, required: true })),
    f('interconnect', 'ofInterconnect', h('select', { id: 'of-interconnect', name: 'interconnect' },
      INTERCONNECTS.map((i) => h('option', { value: i, selected: i === (v.interconnect || 'none') }, t(`ic_${i}`))))),
    f('network', 'ofNetwork', num('network', 'network_gbps')),
    h('div', { class: 'field check' }, h('input', { type: 'checkbox', id: 'of-rdma', name: 'rdma', checked: Boolean(v.rdma) }), tx('label', t, 'ofRdma', { for: 'of-rdma' })),
    f('currency', 'ofCurrency', h('select', { id: 'of-currency', name: 'currency' },
      ['USD', 'CNY'].map((c) => h('option', { value: c, selected: c === cur }, t(`cur_${c}`))))),
    f('ondemand', 'ofOnDemand', num('ondemand', 'on_demand')),
    f('spot', 'ofSpot', num('spot', 'spot')),
    f('reserved', 'ofReserved', num('reserved', 'reserved')),
    f('term', 'ofTerm', num('term', 'term_months', { min: 1, step: 1 })),
    f('monthly', 'ofMonthly', num('monthly', 'monthly')),
    f('asof', 'ofAsOf', input('asof', 'as_of', { type: 'date', required: true })),
    f('source', 'ofSource', input('source', 'source', { required: true, autocomplete: 'off' })),
    tx('p', t, 'ofCnyNote', { class: 'hint' }, { rate: fmt.num(ctx.state.rate, 4) }),
    h('div', { class: 'actions' },
      h('button', { type: 'submit', id: 'offer-save' }, t(editing ? 'ofSaveEdit' : 'ofSaveNew')),
      h('button', { type: 'button', id: 'offer-cancel', onclick: () => ctx.cancelOfferForm() }, t('cancel'))),
    h('div', { id: 'offer-status', role: 'status', 'aria-live': 'polite' }, userData.formMessage ? renderMessage(userData.formMessage, t) : null));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const fd = new FormData(form);
    const n = (k) => { const x = String(fd.get(k) || '').trim(); return x === '' ? undefined : Number(x); };
    const s = (k) => String(fd.get(k) || '').trim();
    ctx.saveOffer({
      provider: s('provider'), instance_type: s('instance_type'), region: s('region'), gpu: s('gpu'), gpu_count: n('gpu_count'),
      interconnect: s('interconnect'), network_gbps: n('network_gbps'), rdma: fd.get('rdma') !== null, currency: s('currency'),
      on_demand: n('on_demand'), spot: n('spot'), reserved: n('reserved'), term_months: n('term_months'), monthly: n('monthly'),
      as_of: s('as_of'), source: s('source'),
    });
  });
  return h('details', { class: 'offer-details', id: 'offer-form-details', open: userData.formOpen || null,
    ontoggle: (e) => { userData.formOpen = e.target.open; } },
  h('summary', { id: 'offer-form-summary' }, t(editing ? 'ofTitleEdit' : 'ofTitleNew')), form);
}

// Client-side checks before the engine sees the offer (the engine then checks everything again).
export function checkOfferValues(v, t) {
  const errors = [];
  const err = (path, key) => errors.push({ path, message: t(key), ui: true });
  for (const k of ['provider', 'instance_type', 'region', 'source']) if (!v[k]) err(k, 'ofRequired');
  if (!(Number.isInteger(v.gpu_count) && v.gpu_count >= 1)) err('gpu_count', 'ofCountInvalid');
  if (!PRICING_MODELS.some((m) => v[m] > 0)) err('prices', 'ofNeedPrice');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v.as_of || '')) err('as_of', 'ofRequired');
  return errors;
}
