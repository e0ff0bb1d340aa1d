// The page state. Everything a view depends on lives here, and hash.js writes it into the URL hash, so a shared
// link (index.html#…) restores the same workload, filters, weights, sort, selection, language and currency.
// The names a field takes (precisions, billing models, workload kinds, modes) are the engine's (names.js).
import { NAMES } from './names.js';
import { hoursFromDays, daysFromHours } from '../format/format.js';

// Where the reader's language choice is kept (localStorage).
export const LANG_KEY = 'gpuvalue.lang';
// The workload the page opens with (when the engine's presets have it; else their first).
export const DEFAULT_PRESET = 'resnet50-imagenet';
export const CURRENCIES = ['USD', 'CNY'];
// The currency a reader of each language sees unless they choose another: CNY (at the catalog's dated rate) in
// Chinese, USD in English.
export const defaultCurrency = (lang) => (lang === 'zh' ? 'CNY' : 'USD');
export const SORT_KEYS = ['rank', 'total_gpus', 'time_hours', 'cost_usd', 'usd_per_hour', 'usd_per_tflops_day', 'memory', 'score'];
// Decision-tool tabs (tools/panel.js); hash.js keeps their inputs in the URL.
export const TOOL_IDS = ['advise', 'probe', 'plan', 'serverless', 'mig', 'levers', 'compare', 'energy'];

// What the page answers: which offer trains a model ('train'), or which serves a language model ('serve').
export const TASKS = ['train', 'serve'];
// The serving question the page opens with: a served model, its traffic and latency targets. Empty members mean
// the engine's defaults (its serve request: 1,000 input and 300 output tokens, no target, the preset's formats).
// model: null serves the preset; else the reader's own model ({params, layers, …}: state/servingmodel.js), served
// instead of it.
export const DEFAULT_SERVING = { preset: 'llama3.1-70b', model: null, rps: 10, input: 0, output: 0, ttft: 2000, tpot: 100, pct: 0, weights: '', kv: '', software: '', pricing: 'on_demand' };
// The serving inputs: [state key, URL key, type]; numbers are read within the engine's bounds (serving_fields.cpp).
export const SERVING_FIELDS = [
  ['preset', 'sp', 'id'], ['rps', 'rps', 'number'], ['input', 'tin', 'number'], ['output', 'tout', 'number'],
  ['ttft', 'ttft', 'number'], ['tpot', 'tpot', 'number'], ['pct', 'pct', 'number'], ['weights', 'wq', 'id'], ['kv', 'kvq', 'id'], ['software', 'ssw', 'id'],
  ['pricing', 'spr', 'id'],
];
// The serving table's sortable columns (the URL's ssort) and the row member each sorts by (engine/serving.js
// sortRows); a first click sorts ascending: cheapest, fastest, fewest first.
export const SERVING_SORT = { rank: 'rank', out: 'usd_per_million_output', in: 'usd_per_million_input', blended: 'usd_per_million_blended',
  hourly: 'usd_per_hour', replicas: 'replicas', gpus: 'gpus', ttft: 'ttft_ms', tpot: 'tpot_ms', monthly: 'monthly_usd' };

// The worker's serveRank arguments for a state: the serving question and the page's offer filters.
export function servingRequest(s) {
  const v = s.serving;
  const model = v.model ? Object.fromEntries(Object.entries(v.model).filter(([, x]) => typeof x === 'number' && Number.isFinite(x))) : null;
  const serving = { ...(model ? { model } : { preset: v.preset }), weights: v.weights || undefined, kv: v.kv || undefined, software: v.software || undefined, pricing: v.pricing || undefined,
    traffic: { requests_per_s: v.rps, input_tokens: v.input, output_tokens: v.output }, targets: { ttft_ms: v.ttft, tpot_ms: v.tpot, percentile: v.pct } };
  const f = s.filters;
  return { serving, filters: { providers: f.providers, regions: f.regions, gpus: f.gpus, include_examples: f.examples, include_stale: !f.hideStale, include_marketplace: !f.hideMarketplace } };
}

// Custom workload fields per kind: [state key, engine key, URL key, type].
// [state key, engine key, URL key, type, mode]: type 'number', 'bool' or the list of a choice's values; a field with
// a mode is shown and sent only for a model of that mode.
export const CUSTOM_FIELDS = {
  transformer: [
    ['params', 'params', 'params', 'number'], ['tokens', 'tokens', 'tokens', 'number'],
    ['seq_len', 'seq_len', 'seq', 'number'], ['layers', 'layers', 'layers', 'number'],
    ['hidden', 'hidden', 'hidden', 'number'], ['heads', 'heads', 'heads', 'number'], ['kv_heads', 'kv_heads', 'kvh', 'number'],
    ['micro_batch', 'micro_batch', 'mb', 'number'],
    ['activation_checkpointing', 'activation_checkpointing', 'ac', 'bool'],
    ['lora_rank', 'lora_rank', 'lr', 'number', 'lora'],
    ['lora_targets', 'lora_targets', 'lt', ['attention', 'all_linear'], 'lora'],
    ['lora_qkv', 'lora_qkv', 'lq', ['fused', 'separate'], 'lora'],
  ],
  cnn: [
    ['gflops_per_sample', 'gflops_per_sample', 'gflops', 'number'], ['samples', 'samples', 'samples', 'number'],
    ['epochs', 'epochs', 'epochs', 'number'], ['params', 'params', 'params', 'number'],
  ],
  custom: [['total_flops', 'total_flops', 'flops', 'number'], ['params', 'params', 'params', 'number']],
};

// What every drawn number depends on besides the engine's answer: the language, the currency and its rate (one
// value, for the redraw checks of the views).
export const displayOf = (s) => `${s.lang}|${s.currency}|${s.rate}`;

export function defaultState(engineDefaults, { lang = 'en', rate = 0, presetId = 'resnet50-imagenet' } = {}) {
  return {
    task: 'train',                  // 'serve': the serving question (serving) instead of the training ranking
    serving: { ...DEFAULT_SERVING },
    serveSort: { key: 'rank', dir: 'asc' },  // the serving table's order: a SERVING_SORT column and direction
    preset: presetId,
    custom: null,                   // {kind, mode, ...fields} when the workload is the user's own
    measurements: [],               // the user's measurements of this workload (state/measurements.js), at most 8
    precision: '',                  // '' = the workload's own (a preset's, else the engine's default); or one the user chose
    software: '',                   // '' = the preset's (or engine's) default stack; 'tuned' | 'typical'
    // budget is in the display currency (what the user typed); the request converts it to USD at the current rate.
    // The seed article's illustrative offers are not real offers: shown only on request (ex=1).
    // Stale prices (older than the engine's stale_after_days) are hidden unless asked for (st=1).
    // horizonDays: each offer is sized to finish within it (the engine's default horizon, in days).
    filters: { providers: [], regions: [], gpus: [], pricing: [], fitsOnly: false, examples: false, budget: 0, deadlineHours: 0,
      hideStale: true, hideMarketplace: false, horizonDays: daysFromHours(engineDefaults.horizon_hours) },
    weights: { ...engineDefaults.weights },
    sort: { key: 'rank', dir: 'asc' },
    sel: null,                      // row key "offer id|pricing model" shown in the details panel
    cmp: [],                        // row keys compared side by side (2–4)
    tool: 'advise',                 // the decision tool shown
    tools: {},                      // {group: {field: text}}: tool inputs the user set (the tools' defaults otherwise)
    lang,
    currency: defaultCurrency(lang),
    rate,                           // CNY per USD
    defaultRate: rate,
    defaultExamples: false,
    defaultHorizonDays: daysFromHours(engineDefaults.horizon_hours),
    defaultWeights: { ...engineDefaults.weights },
  };
}


// The CNY rate shipped with the catalog: the most recent fx block of the bundled files.
export function bundledFx(data) {
  return data.catalogs.map((c) => c.doc.fx).filter((fx) => fx && fx.CNY_per_USD > 0)
    .sort((a, b) => String(b.as_of).localeCompare(String(a.as_of)))[0] || null;
}

// The engine.rank request for a state (everything that changes the ranking, nothing that only changes the view).
export function rankRequest(s) {
  const req = {};
  if (s.custom) {
    const w = { kind: s.custom.kind, mode: s.custom.mode || 'pretrain', name: 'custom' };
    for (const [key, engineKey, , type, mode] of CUSTOM_FIELDS[s.custom.kind]) {
      const v = s.custom[key];
      if (mode && mode !== w.mode) continue;
      if (type === 'bool') w[engineKey] = Boolean(v);
      else if (Array.isArray(type)) { if (type.includes(v)) w[engineKey] = v; }
      else if (typeof v === 'number' && Number.isFinite(v)) w[engineKey] = v;
    }
    req.workload = w;
  } else {
    req.preset = s.preset;
  }
  if (s.precision) req.precision = s.precision;
  if (s.measurements && s.measurements.length) req.measurements = s.measurements;
  if (s.software === 'tuned' || s.software === 'typical') req.workload = { ...(req.workload || {}), software: s.software };
  req.weights = { ...s.weights };
  const f = s.filters;
  const filters = { fits_only: f.fitsOnly, include_examples: f.examples, include_stale: !f.hideStale, include_marketplace: !f.hideMarketplace };
  if (f.providers.length) filters.providers = f.providers;
  if (f.regions.length) filters.regions = f.regions;
  if (f.gpus.length) filters.gpus = f.gpus;
  if (f.pricing.length) filters.pricing = f.pricing;
  if (f.budget > 0) filters.budget_usd = s.currency === 'CNY' && s.rate > 0 ? f.budget / s.rate : f.budget;
  if (f.deadlineHours > 0) filters.deadline_hours = f.deadlineHours;
  req.filters = filters;
  req.horizon_hours = hoursFromDays(f.horizonDays);
  return req;
}

// The user's own model of a kind (the preset's kind when none is given), starting from the engine's example for
// that kind (defaults().custom_workloads): a model that fits by itself, with the micro-batch, recomputation and
// parallel plan left to the engine. Nothing of the preset's own shape is carried over.
export function customFromPreset(preset, kind, engineDefaults) {
  const w = (preset && preset.workload) || {};
  const fromPreset = w.kind === 'vision' ? 'cnn' : w.kind;
  const k = kind || (NAMES.workload_kinds.includes(fromPreset) ? fromPreset : 'custom');
  const example = (engineDefaults && engineDefaults.custom_workloads && engineDefaults.custom_workloads[k]) || {};
  const c = { kind: k, mode: NAMES.modes.includes(example.mode) ? example.mode : 'pretrain' };
  for (const [key, engineKey, , type] of CUSTOM_FIELDS[k]) {
    if (example[engineKey] === undefined) continue;
    c[key] = type === 'bool' ? Boolean(example[engineKey]) : Array.isArray(type) ? String(example[engineKey]) : Number(example[engineKey]);
  }
  return c;
}

// The workload field that sets the job's size, per workload kind (the sensitivity chart's 'size' parameter).
export function sizeField(kind) {
  if (kind === 'transformer') return 'tokens';
  if (kind === 'cnn' || kind === 'vision') return 'epochs';
  return 'total_flops';
}
