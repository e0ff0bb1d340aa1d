// The user's catalogs as data (no DOM): the localStorage format, imports through the engine, the offer form's
// document. Runs where the engine runs (the worker, or the page when no worker could start).
//
// Stored in localStorage as {version: 1, catalogs: [{name, kind, added, doc}]}; version 2 lets an entry name its
// document in IndexedDB instead ({name, kind, added, ref, count}: documents over INLINE_DOC_CHARS, app/saved.js, which writes localStorage).
// In memory an entry is {name, kind, added, count, docText, ref?}: the document stays JSON text, so that a catalog
// of thousands of offers is never parsed or serialised again on the page's main thread (storeText splices the
// texts). An entry whose IndexedDB document could not be read has docText null and `missing` set; one whose document
// is not a catalog (damaged) keeps its text and has `unreadable` set.

import { issueText } from './client.js';

export const STORE_KEY = 'gpuvalue.userCatalogs';
export const STORE_VERSION = 2;
export const DOC_KEY_PREFIX = 'gpuvalue-doc-';
// Catalog documents longer than this (characters) are kept in IndexedDB, so that localStorage (about 5 million
// characters in all) holds only small state.
export const INLINE_DOC_CHARS = 100_000;
const KINDS = ['json', 'skypilot', 'manual'];

function validEntry(c) {
  if (!c || typeof c !== 'object' || typeof c.name !== 'string' || !KINDS.includes(c.kind)) return false;
  if (c.added !== undefined && typeof c.added !== 'string') return false;
  if (typeof c.ref === 'string') return c.ref.startsWith(DOC_KEY_PREFIX) && Number.isInteger(c.count) && c.count >= 0;
  return Boolean(c.doc && typeof c.doc === 'object' && !Array.isArray(c.doc) && Array.isArray(c.doc.instances));
}

// The IndexedDB keys a stored value names (read before the value is parsed, to fetch their documents).
export function docRefs(raw) {
  if (typeof raw !== 'string') return [];
  return [...new Set([...raw.matchAll(/"ref":"(gpuvalue-doc-[0-9a-z-]+)"/g)].map((m) => m[1]))];
}

// Parses a stored value; docs: the IndexedDB documents it names ({key: text}). Returns {entries, problem}; problem
// is 'corrupt' or 'newer' when it is unusable (the caller then moves the raw value aside). Any exception on the
// way counts as corrupt data.
export function parseStore(raw, docs = {}) {
  try {
    return readStore(raw, docs || {});
  } catch {
    return { entries: [], problem: 'corrupt' };
  }
}

// A document read from IndexedDB: {text} when it is a catalog document, {text, unreadable} when it is text of
// something else (damaged: kept, so that it can still be exported), null when there is none.
function docFrom(docs, ref) {
  const text = Object.prototype.hasOwnProperty.call(docs, ref) ? docs[ref] : null;
  if (typeof text !== 'string') return null;
  try {
    const d = JSON.parse(text);
    return d && typeof d === 'object' && Array.isArray(d.instances) ? { text } : { text, unreadable: true };
  } catch {
    return { text, unreadable: true };
  }
}

function readStore(raw, docs) {
  if (raw === null || raw === undefined) return { entries: [], problem: null };
  if (typeof raw !== 'string') return { entries: [], problem: 'corrupt' };
  let v;
  try { v = JSON.parse(raw); } catch { v = undefined; }
  const problem = !v || typeof v !== 'object' || typeof v.version !== 'number' ? 'corrupt'
    : v.version > STORE_VERSION ? 'newer'
      : !Number.isInteger(v.version) || v.version < 1 || !Array.isArray(v.catalogs) || !v.catalogs.every(validEntry)
        || (v.version === 1 && v.catalogs.some((c) => typeof c.ref === 'string')) ? 'corrupt' : null;
  if (problem) return { entries: [], problem };
  return {
    entries: v.catalogs.map((c) => {
      const base = { name: c.name, kind: c.kind, added: c.added || '' };
      if (typeof c.ref !== 'string') return { ...base, count: c.doc.instances.length, docText: JSON.stringify(c.doc) };
      const doc = docFrom(docs, c.ref);
      return doc === null ? { ...base, count: c.count, ref: c.ref, docText: null, missing: true }
        : { ...base, count: c.count, ref: c.ref, docText: doc.text, ...(doc.unreadable ? { unreadable: true } : {}) };
    }),
    problem: null,
  };
}

// The stored value for a list of entries, spliced from their JSON texts (an entry with a ref is stored by it).
export function storeText(entries) {
  const head = (e) => `{"name":${JSON.stringify(e.name)},"kind":${JSON.stringify(e.kind)},"added":${JSON.stringify(e.added)}`;
  const parts = entries.map((e) => (e.ref ? `${head(e)},"ref":${JSON.stringify(e.ref)},"count":${Number(e.count) || 0}}` : `${head(e)},"doc":${e.docText}}`));
  return `{"version":${entries.some((e) => e.ref) ? 2 : 1},"catalogs":[${parts.join(',')}]}`;
}

// Loads bundled + user catalogs into the engine in one all-or-nothing call; if that fails, keeps the user
// catalogs the engine accepts one by one. bundledTexts: the bundled documents as JSON texts.
// Returns {entries (kept), rejected: [{entry, error, issues}]}.
export function applyCatalogs(engine, bundledTexts, entries) {
  const all = engine.loadCatalog(`[${[...bundledTexts, ...entries.map((c) => c.docText)].join(',')}]`);
  if (all.ok) return { entries, rejected: [] };
  const base = engine.loadCatalog(`[${bundledTexts.join(',')}]`);
  if (!base.ok) throw new Error(`bundled catalog rejected: ${issueText(base.error)}`);
  const kept = [];
  const rejected = [];
  for (const c of entries) {
    const r = engine.addCatalog(c.docText);
    if (r.ok) kept.push(c);
    else rejected.push({ entry: c, error: r.error, issues: r.issues || [] });
  }
  return { entries: kept, rejected };
}

export function isSkypilotCsv(name, text) {
  if (/\.csv$/i.test(name)) return true;
  const first = text.slice(0, 2000).split(/\r?\n/, 1)[0];
  return !/^\s*[[{]/.test(text) && /InstanceType/.test(first);
}

// Imports one file's text into the engine. Returns {ok, entry?, count?, warnings?, errors?, unmapped?} (unmapped: the
// SkyPilot accelerator names that match no GPU, [{name, rows}]); changes nothing on failure.
export function importText(engine, name, text, { provider = '', today }) {
  let docText;
  let kind;
  let warnings = [];
  let unmapped = [];
  if (isSkypilotCsv(name, text)) {
    kind = 'skypilot';
    const r = engine.importSkypilot(text, { provider: provider || undefined, as_of: today, source: `SkyPilot vms.csv (${name})` });
    const errors = (r.issues || []).filter((i) => !i.warning);
    if (!r.ok) return { ok: false, errors: errors.length ? errors : [r.error || { path: '', key: 'importUnreadable', ui: true }] };
    warnings = (r.issues || []).filter((i) => i.warning);
    unmapped = r.unmapped || [];
    if (!r.offers) return { ok: false, errors: [{ path: '', key: 'importNoGpuOffers', ui: true }], warnings, unmapped };
    docText = JSON.stringify(r.catalog);
  } else {
    kind = 'json';
    docText = text.replace(/^\uFEFF/, '');
  }
  const add = engine.addCatalog(docText);
  if (!add.ok) return { ok: false, errors: (add.issues || []).filter((i) => !i.warning).concat(add.issues && add.issues.length ? [] : [add.error]), warnings };
  // The stored text must read back with JSON.parse: the engine's reader accepted it, but keep it compact and plain.
  if (kind === 'json') {
    try { docText = JSON.stringify(JSON.parse(docText)); } catch { return { ok: false, errors: [{ path: '', key: 'importNotJson', ui: true }], warnings }; }
  }
  warnings = warnings.concat((add.issues || []).filter((i) => i.warning));
  return { ok: true, entry: { name, kind, added: today, count: add.count, docText }, count: add.count, warnings, unmapped };
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
