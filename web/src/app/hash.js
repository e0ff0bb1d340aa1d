// The page state's URL-hash form ("#preset=…&lang=…"): read over a base state, and written with only what differs
// from it. The names a field takes (precisions, billing models, workload kinds, modes) are the engine's (names.js).
import { NAMES } from './names.js';
import { CUSTOM_FIELDS, SORT_KEYS, CURRENCIES, TOOL_IDS } from './state.js';

// The groups of tool inputs kept in the URL as "<group>.<field>=value".
const TOOL_GROUPS = [...TOOL_IDS, 'sens'];
const TOOL_FIELD = new RegExp(`^(${TOOL_GROUPS.join('|')})\\.([a-z][a-z0-9_]{0,15})$`);

const num = (v) => {
  if (v === null || v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

// Reads a hash ("#preset=…&lang=…") over a base state. Unknown or malformed values are ignored.
export function parseHash(hash, base, { presetIds = [] } = {}) {
  const q = new URLSearchParams(String(hash || '').replace(/^#/, ''));
  const s = structuredClone(base);
  const preset = q.get('preset');
  if (preset && (!presetIds.length || presetIds.includes(preset))) s.preset = preset;
  const kind = q.get('kind');
  if (kind && NAMES.workload_kinds.includes(kind)) {
    const c = { kind, mode: NAMES.modes.includes(q.get('mode')) ? q.get('mode') : 'pretrain' };
    for (const [key, , urlKey, type] of CUSTOM_FIELDS[kind]) {
      if (!q.has(urlKey)) continue;
      if (type === 'bool') c[key] = q.get(urlKey) === '1';
      else if (num(q.get(urlKey)) !== undefined) c[key] = num(q.get(urlKey));
    }
    s.custom = c;
  }
  if (NAMES.precisions.includes(q.get('prec'))) s.precision = q.get('prec');
  if (q.get('sw') === 'tuned' || q.get('sw') === 'typical') s.software = q.get('sw');
  const f = s.filters;
  if (q.has('prov')) f.providers = q.getAll('prov').filter(Boolean);
  if (q.has('reg')) f.regions = q.getAll('reg').filter(Boolean);
  if (q.has('gpu')) f.gpus = q.getAll('gpu').filter(Boolean);
  // "pricing" may repeat or be one comma list; "all" (the old single select) means no filter.
  if (q.has('pricing')) f.pricing = q.getAll('pricing').flatMap((p) => p.split(',')).filter((p) => NAMES.pricing_models.includes(p));
  if (q.has('fits')) f.fitsOnly = q.get('fits') === '1';
  if (q.has('ex')) f.examples = q.get('ex') === '1';
  if (num(q.get('budget')) > 0) f.budget = num(q.get('budget'));
  if (num(q.get('deadline')) > 0) f.deadlineHours = num(q.get('deadline'));
  for (const [k, u] of [['unit_cost', 'wu'], ['task', 'wt'], ['service', 'ws']]) {
    const v = num(q.get(u));
    if (v !== undefined && v >= 0 && v <= 100) s.weights[k] = v;
  }
  const sort = q.get('sort');
  if (SORT_KEYS.includes(sort)) s.sort = { key: sort, dir: q.get('dir') === 'desc' ? 'desc' : 'asc' };
  if (q.get('sel')) s.sel = q.get('sel');
  if (q.has('cmp')) s.cmp = q.getAll('cmp').filter(Boolean).slice(0, 4);
  if (TOOL_IDS.includes(q.get('tool'))) s.tool = q.get('tool');
  for (const [k, v] of q) {
    const m = TOOL_FIELD.exec(k);
    if (m && v !== '') (s.tools[m[1]] ||= {})[m[2]] = v.slice(0, 1000);
  }
  if (q.get('lang') === 'en' || q.get('lang') === 'zh') s.lang = q.get('lang');
  if (CURRENCIES.includes(q.get('cur'))) s.currency = q.get('cur');
  const rate = num(q.get('rate'));
  if (rate > 0 && rate < 1000) s.rate = rate;
  return s;
}

// Writes only what differs from the defaults, in a stable order.
export function serializeHash(s, base) {
  const q = new URLSearchParams();
  if (s.custom) {
    q.set('kind', s.custom.kind);
    q.set('mode', s.custom.mode || 'pretrain');
    for (const [key, , urlKey, type] of CUSTOM_FIELDS[s.custom.kind]) {
      const v = s.custom[key];
      if (type === 'bool') { if (v) q.set(urlKey, '1'); } else if (typeof v === 'number' && Number.isFinite(v)) q.set(urlKey, String(v));
    }
  } else {
    q.set('preset', s.preset);
  }
  if (s.precision !== base.precision) q.set('prec', s.precision);
  if (s.software) q.set('sw', s.software);
  const f = s.filters;
  for (const p of f.providers) q.append('prov', p);
  for (const r of f.regions) q.append('reg', r);
  for (const g of f.gpus) q.append('gpu', g);
  for (const p of f.pricing) q.append('pricing', p);
  if (f.fitsOnly) q.set('fits', '1');
  if (f.examples !== base.filters.examples) q.set('ex', f.examples ? '1' : '0');
  if (f.budget > 0) q.set('budget', String(f.budget));
  if (f.deadlineHours > 0) q.set('deadline', String(f.deadlineHours));
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
  if (s.currency !== 'USD') q.set('cur', s.currency);
  if (s.rate !== base.rate) q.set('rate', String(s.rate));
  return `#${q.toString()}`;
}
