// The page state's URL-hash form ("#preset=…&lang=…"): read over a base state, and written with only what differs
// from it. The names a field takes (precisions, billing models, workload kinds, modes) are the engine's (names.js).
import { NAMES } from './names.js';
import { parseMeasurements, formatMeasurement } from './measurements.js';
import { CUSTOM_FIELDS, SORT_KEYS, CURRENCIES, TOOL_IDS, TASKS, SERVING_FIELDS, SERVING_SORT, defaultCurrency } from './state.js';
import { parseOwnModel, writeOwnModel } from './servingmodel.js';

// The groups of tool inputs kept in the URL as "<group>.<field>=value".
const TOOL_GROUPS = [...TOOL_IDS, 'sens'];
const TOOL_FIELD = new RegExp(`^(${TOOL_GROUPS.join('|')})\\.([a-z][a-z0-9_]{0,15})$`);

// Bounds on what a hash may carry: a shared link the page writes stays far below them, and a hostile one is read in
// time proportional to these caps, not to its length.
const MAX_HASH_CHARS = 16384;   // the rest of a longer hash is ignored
const MAX_VALUE_CHARS = 200;    // a longer value (an id, a name, a tool input) is dropped
const MAX_REPEATS = 64;         // values kept of a repeated key (prov, reg, gpu, cmp)
// Ranges a number must fall in to be read; outside it the value is ignored, as a malformed one is.
const RANGES = {
  budget: [1e-6, 1e12],         // display-currency budget
  deadline: [1e-3, 1e7],        // hours (1e7 h is over 1,000 years)
  horizon: [0, 4e5],            // days (0 = none; the engine takes up to 1e7 hours)
  rate: [1e-3, 1000],           // CNY per USD
  custom: [1e-12, 1e30],        // workload sizes: parameters, tokens, FLOPs, layers, …
  rps: [0, 1e9],                // serving: requests per second (the engine's requests_per_s bounds)
  tin: [0, 1e7], tout: [0, 1e7], // serving: input and output tokens per request (0 = the engine's default)
  ttft: [0, 1e7], tpot: [0, 1e7], // serving: latency targets in ms (0 = none)
  pct: [1, 99.9],               // serving: the percentile of requests the TTFT target holds for (absent: the engine's p50)
};
// The names a serving field may take (the engine's, names.js); the preset's are the serving presets' ids.
const SERVING_CHOICES = { weights: 'serving_weights', kv: 'serving_kv', software: 'serving_software', pricing: 'serving_pricing' };

// The serving inputs of a hash over the base's; report.servingModel lists the own model's values dropped.
function parseServing(q, base, servingIds, report) {
  const own = parseOwnModel(q, MAX_VALUE_CHARS);
  const v = { ...base, model: own.model };
  if (report) report.servingModel = own.dropped;
  for (const [key, urlKey, type] of SERVING_FIELDS) {
    const raw = q.get(urlKey);
    if (raw === null) continue;
    if (type === 'number') { const n = num(raw, RANGES[urlKey]); if (n !== undefined) v[key] = n; continue; }
    const ok = key === 'preset' ? raw.length <= MAX_VALUE_CHARS && (!servingIds.length || servingIds.includes(raw)) : NAMES[SERVING_CHOICES[key]].includes(raw);
    if (ok) v[key] = raw;
  }
  return v;
}

const num = (v, [lo, hi] = [-Infinity, Infinity]) => {
  if (v === null || v === undefined || v === '' || v.length > 40) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= lo && n <= hi ? n : undefined;
};

// The values of a key that are short enough and, when the page knows the names (known), name something.
function listOf(q, key, known) {
  const set = known && new Set(known);
  return q.getAll(key).filter((v) => v && v.length <= MAX_VALUE_CHARS && (!set || set.has(v))).slice(0, MAX_REPEATS);
}

function boundedHash(hash) {
  const text = String(hash || '').replace(/^#/, '');
  if (text.length <= MAX_HASH_CHARS) return text;
  const cut = text.lastIndexOf('&', MAX_HASH_CHARS);
  return text.slice(0, cut > 0 ? cut : 0);
}

// Reads a hash ("#preset=…&lang=…") over a base state. Unknown, malformed, too long and out-of-range values are
// ignored. known: {providers, regions, gpus} of the catalog; filter values naming none of them are dropped.
// gpuIds: the GPUs a measurement may name. report, when given, collects what the reader should be told of:
// report.measurements lists the measurements (m=…) that could not be read, report.servingModel the own served
// model's values (sm.…) out of the engine's bounds.
export function parseHash(hash, base, { presetIds = [], known = null, servingIds = [], gpuIds = null, report = null } = {}) {
  const q = new URLSearchParams(boundedHash(hash));
  const s = structuredClone(base);
  if (TASKS.includes(q.get('task'))) s.task = q.get('task');
  s.serving = parseServing(q, base.serving || {}, servingIds, report);
  if (Object.hasOwn(SERVING_SORT, q.get('ssort') || '')) s.serveSort = { key: q.get('ssort'), dir: q.get('sdir') === 'desc' ? 'desc' : 'asc' };
  const preset = q.get('preset');
  if (preset && preset.length <= MAX_VALUE_CHARS && (!presetIds.length || presetIds.includes(preset))) s.preset = preset;
  const kind = q.get('kind');
  if (kind && NAMES.workload_kinds.includes(kind)) {
    const c = { kind, mode: NAMES.modes.includes(q.get('mode')) ? q.get('mode') : 'pretrain' };
    for (const [key, , urlKey, type] of CUSTOM_FIELDS[kind]) {
      if (!q.has(urlKey)) continue;
      if (type === 'bool') c[key] = q.get(urlKey) === '1';
      else if (Array.isArray(type)) { if (type.includes(q.get(urlKey))) c[key] = q.get(urlKey); }
      else if (num(q.get(urlKey), RANGES.custom) !== undefined) c[key] = num(q.get(urlKey), RANGES.custom);
    }
    s.custom = c;
  }
  if (q.has('m')) {
    const m = parseMeasurements(q.getAll('m').slice(0, MAX_REPEATS), { gpuIds });
    s.measurements = m.measurements;
    if (report) report.measurements = m.dropped;
  }
  if (report) report.measurementsGiven = q.has('m');
  if (NAMES.precisions.includes(q.get('prec'))) s.precision = q.get('prec');
  if (q.get('sw') === 'tuned' || q.get('sw') === 'typical') s.software = q.get('sw');
  const f = s.filters;
  if (q.has('prov')) f.providers = listOf(q, 'prov', known && known.providers);
  if (q.has('reg')) f.regions = listOf(q, 'reg', known && known.regions);
  if (q.has('gpu')) f.gpus = listOf(q, 'gpu', known && known.gpus);
  // "pricing" may repeat or be one comma list; "all" (the old single select) means no filter.
  if (q.has('pricing')) f.pricing = q.getAll('pricing').flatMap((p) => p.split(',')).filter((p) => NAMES.pricing_models.includes(p));
  if (q.has('fits')) f.fitsOnly = q.get('fits') === '1';
  if (q.has('ex')) f.examples = q.get('ex') === '1';
  if (q.has('st')) f.hideStale = q.get('st') !== '1';
  if (q.has('mk')) f.hideMarketplace = q.get('mk') === '0';
  if (num(q.get('budget'), RANGES.budget) !== undefined) f.budget = num(q.get('budget'), RANGES.budget);
  if (num(q.get('deadline'), RANGES.deadline) !== undefined) f.deadlineHours = num(q.get('deadline'), RANGES.deadline);
  if (num(q.get('hz'), RANGES.horizon) !== undefined) f.horizonDays = num(q.get('hz'), RANGES.horizon);
  for (const [k, u] of [['unit_cost', 'wu'], ['task', 'wt'], ['service', 'ws']]) {
    const v = num(q.get(u), [0, 100]);
    if (v !== undefined) s.weights[k] = v;
  }
  const sort = q.get('sort');
  if (SORT_KEYS.includes(sort)) s.sort = { key: sort, dir: q.get('dir') === 'desc' ? 'desc' : 'asc' };
  if (q.get('sel') && q.get('sel').length <= MAX_VALUE_CHARS) s.sel = q.get('sel');
  if (q.has('cmp')) s.cmp = listOf(q, 'cmp').slice(0, 4);
  if (TOOL_IDS.includes(q.get('tool'))) s.tool = q.get('tool');
  for (const [k, v] of q) {
    const m = TOOL_FIELD.exec(k);
    if (m && v !== '' && v.length <= MAX_VALUE_CHARS) (s.tools[m[1]] ||= {})[m[2]] = v;
  }
  if (q.get('lang') === 'en' || q.get('lang') === 'zh') s.lang = q.get('lang');
  s.currency = CURRENCIES.includes(q.get('cur')) ? q.get('cur') : defaultCurrency(s.lang);
  const rate = num(q.get('rate'), RANGES.rate);
  if (rate !== undefined) s.rate = rate;
  return s;
}

// Writes only what differs from the defaults, in a stable order.
export function serializeHash(s, base) {
  const q = new URLSearchParams();
  if (s.task !== base.task) q.set('task', s.task);
  const sv = s.serving || {};
  for (const [key, urlKey] of SERVING_FIELDS) if (sv[key] !== (base.serving || {})[key]) q.set(urlKey, String(sv[key]));
  writeOwnModel(q, sv.model);
  const ss = s.serveSort;
  if (ss && (ss.key !== 'rank' || ss.dir !== 'asc')) { q.set('ssort', ss.key); q.set('sdir', ss.dir); }
  if (s.custom) {
    q.set('kind', s.custom.kind);
    q.set('mode', s.custom.mode || 'pretrain');
    for (const [key, , urlKey, type] of CUSTOM_FIELDS[s.custom.kind]) {
      const v = s.custom[key];
      if (type === 'bool') { if (v) q.set(urlKey, '1'); } else if (Array.isArray(type)) { if (type.includes(v)) q.set(urlKey, v); } else if (typeof v === 'number' && Number.isFinite(v)) q.set(urlKey, String(v));
    }
  } else {
    q.set('preset', s.preset);
  }
  for (const m of s.measurements || []) q.append('m', formatMeasurement(m));
  if (s.precision !== base.precision) q.set('prec', s.precision);
  if (s.software) q.set('sw', s.software);
  const f = s.filters;
  for (const p of f.providers) q.append('prov', p);
  for (const r of f.regions) q.append('reg', r);
  for (const g of f.gpus) q.append('gpu', g);
  for (const p of f.pricing) q.append('pricing', p);
  if (f.fitsOnly) q.set('fits', '1');
  if (f.examples !== base.filters.examples) q.set('ex', f.examples ? '1' : '0');
  if (f.hideStale !== base.filters.hideStale) q.set('st', f.hideStale ? '0' : '1');
  if (f.hideMarketplace !== base.filters.hideMarketplace) q.set('mk', f.hideMarketplace ? '0' : '1');
  if (f.budget > 0) q.set('budget', String(f.budget));
  if (f.deadlineHours > 0) q.set('deadline', String(f.deadlineHours));
  if (f.horizonDays !== base.filters.horizonDays) q.set('hz', String(f.horizonDays));
  for (const [k, u] of [['unit_cost', 'wu'], ['task', 'wt'], ['service', 'ws']])
    if (s.weights[k] !== base.weights[k]) q.set(u, String(s.weights[k]));
  if (s.sort.key !== 'rank' || s.sort.dir !== 'asc') { q.set('sort', s.sort.key); q.set('dir', s.sort.dir); }
  if (s.sel) q.set('sel', s.sel);
  for (const k of s.cmp) q.append('cmp', k);
  if (s.tool !== base.tool) q.set('tool', s.tool);
  for (const g of TOOL_GROUPS) {
    const fields = s.tools[g] || {};
    for (const f of Object.keys(fields).sort()) if (fields[f] !== undefined && fields[f] !== null && fields[f] !== '') q.set(`${g}.${f}`, String(fields[f]));
  }
  q.set('lang', s.lang);
  if (s.currency !== defaultCurrency(s.lang)) q.set('cur', s.currency);
  if (s.rate !== base.rate) q.set('rate', String(s.rate));
  return `#${q.toString()}`;
}
