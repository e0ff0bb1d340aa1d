// The serving ranking: every catalog offer for one served language model and its traffic, by what a million
// output tokens costs at the latency targets. Each number is the engine's `serve` answer for that offer: the
// offer's GPUs split into replicas of 1, 2, 4, … GPUs (tensor parallel within the instance), and the split that
// meets the targets cheapest is the offer's row, priced under the billing model the buyer chose.
// Runs in the engine host (the worker), never on the page.
import { daysBetween, todayIso } from '../format/format.js';

// TPOT targets (ms) the throughput-per-GPU curve is drawn at: from interactive chat (15-30 ms per token, i.e.
// 33-66 tokens/s a user reads) to batch jobs (300 ms), and 0 = no target (the largest batch that fits).
export const CURVE_TPOT_MS = [10, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 0];
const CURVE_GPUS = 5;       // GPUs (of the best rows) drawn on the chart
// Rows a view of the ranking sends at first, and adds with each "show more": the page is sent only what it shows.
export const PAGE_ROWS = 200;
// Questions whose every row the worker keeps: sorting or paging through a recent one costs a sort, not a ranking.
const KEPT_RANKINGS = 4;

// Replica sizes tried on an instance of n GPUs: the powers of two that divide n (tensor parallel splits heads
// evenly over 1, 2, 4 or 8 GPUs in vLLM, SGLang and TensorRT-LLM).
export function replicaSizes(n) {
  const out = [];
  for (let tp = 1; tp <= n; tp *= 2) if (n % tp === 0) out.push(tp);
  return out;
}

// The serve request of the page's serving state for an offer (or a GPU), without the hardware.
export function serveBase({ preset, model, weights, kv, software, pricing, traffic = {}, targets = {} }) {
  const req = {};
  if (preset) req.preset = preset;
  if (model) req.model = model;
  if (weights) req.weights = weights;
  if (kv) req.kv = kv;
  if (software) req.software = software;
  if (pricing) req.pricing = pricing;
  const t = {};
  for (const k of ['requests_per_s', 'tokens_per_day', 'input_tokens', 'output_tokens']) if (traffic[k] > 0) t[k] = traffic[k];
  if (Object.keys(t).length) req.traffic = t;
  const g = {};
  for (const k of ['ttft_ms', 'tpot_ms', 'percentile']) if (targets[k] > 0) g[k] = targets[k];
  if (Object.keys(g).length) req.targets = g;
  return req;
}

// Which of two answers for one offer is the better row: meeting the targets first, then fitting, then the lower
// $ per million output tokens.
function better(a, b) {
  if (!b) return true;
  if (a.met !== b.met) return a.met;
  if (a.fits !== b.fits) return a.fits;
  return a.usd_per_million_output < b.usd_per_million_output;
}

// The engine's answer for one offer (req names it) at the split of its gpuCount GPUs into replicas that is the better
// row (replicaSizes, better): the offer's row in the ranking, and `serve --offer` when no count is given. serve(req)
// returns the engine's answer; the first failing answer is returned when no split gives one.
export function bestSplit(serve, req, gpuCount) {
  const answers = [];
  for (const tp of replicaSizes(gpuCount)) {
    const r = serve({ ...req, count: tp });
    if (!r.ok) return answers.length ? bestOf(answers) : r;
    answers.push(r);
  }
  return bestOf(answers);
}

// The better row (`better`) of one offer's answers at its replica sizes, the first of equals.
function bestOf(answers) {
  let best = null;
  for (const r of answers) {
    const row = { met: Boolean(r.targets.met), fits: r.memory.fits, usd_per_million_output: r.cost ? r.cost.usd_per_million_output : Infinity, r };
    if (better(row, best)) best = row;
  }
  return best ? best.r : null;
}

// One row from the engine's answer for an offer priced under `price` (the offer's price of the chosen billing
// model): what the serving table, the widget and the CLI show of it.
function rowOf(o, price, r) {
  const c = r.cost;
  const cap = r.capacity;
  const op = r.operating;
  return {
    key: o.id, id: o.id, instance: o.instance, provider: o.provider, region: o.region, gpu: o.gpu, gpu_count: o.gpu_count, marketplace: Boolean(o.marketplace),
    pricing: price.model, term_months: price.term_months || 0, as_of: price.as_of || '', read_on: price.read_on || '',
    replica_gpus: r.count, interconnect: r.interconnect, fabric: r.fabric,
    fits: r.memory.fits, met: Boolean(r.targets.met), ttft_met: r.targets.ttft_met, tpot_met: r.targets.tpot_met,
    replicas: op ? op.replicas : 0, gpus: c ? c.instances * o.gpu_count : 0, instances: c ? c.instances : 0,
    // Spot: the spare instances among `instances` and the reclaim model they come from.
    spare_instances: c ? c.spare_instances : 0, interruptions_per_instance_hour: c ? c.interruptions_per_instance_hour : 0,
    replace_hours: c ? c.replace_hours : 0,
    usd_per_hour: price.usd_per_hour,
    usd_per_million_output: c ? c.usd_per_million_output : Infinity, usd_per_million_input: c ? c.usd_per_million_input : 0,
    usd_per_million_blended: c ? c.usd_per_million_blended : 0, monthly_usd: c ? c.monthly_usd : 0,
    ttft_ms: op ? op.ttft_ms : 0, tpot_ms: op ? op.tpot_ms : 0, batch: cap ? cap.batch : 0,
    hints: r.memory.fits ? [] : r.hints || [],
  };
}

// The capacity of one replica of `count` GPUs as the TPOT target moves: output tokens/s per GPU against the TPOT
// the engine reaches at that batch (points with the same batch are one point).
function curveOf(client, base, row) {
  const seen = new Set();
  const points = [];
  for (const tpot of CURVE_TPOT_MS) {
    const req = { ...base, gpu: row.gpu, count: row.replica_gpus, interconnect: row.interconnect, targets: tpot > 0 ? { tpot_ms: tpot } : {} };
    delete req.traffic;
    const r = client.tryCall('serve', req);
    if (!r.ok || !r.capacity || !(r.capacity.batch > 0) || seen.has(r.capacity.batch)) continue;
    seen.add(r.capacity.batch);
    points.push({ target_tpot_ms: tpot, tpot_ms: r.capacity.tpot_ms, tokens_per_s_per_gpu: r.capacity.output_tokens_per_s / r.count, batch: r.capacity.batch });
  }
  return { gpu: row.gpu, replica_gpus: row.replica_gpus, interconnect: row.interconnect, points: points.sort((a, b) => a.tpot_ms - b.tpot_ms) };
}

// Same instance type, provider and price in several regions: one row, its regions listed.
function groupRegions(rows) {
  const groups = new Map();
  for (const r of rows) {
    const k = `${r.provider}|${r.instance}|${r.usd_per_hour}|${r.replica_gpus}`;
    const g = groups.get(k);
    if (g) g.regions.push(r.region);
    else groups.set(k, { ...r, regions: [r.region] });
  }
  return [...groups.values()];
}

// The rows in a column's order: by `key`, a numeric member of the rows, in `dir`, rows that do not fit (and so have
// no figures) last and ties in the ranking's order; by rank otherwise (the ranking's own order, or its reverse).
export function sortRows(rows, { key = 'rank', dir = 'asc' } = {}) {
  const sign = dir === 'desc' ? -1 : 1;
  if (key === 'rank' || !rows.length || typeof rows[0][key] !== 'number') return sign > 0 ? rows : [...rows].reverse();
  return [...rows].sort((a, b) => (b.fits - a.fits) || (a.fits ? sign * (a[key] - b[key]) : 0) || a.rank - b.rank);
}

// A request's text with object members in sorted order: equal questions meet however they were written.
const keyOf = (x) => JSON.stringify(x, (k, v) => (v && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(Object.keys(v).sort().map((n) => [n, v[n]])) : v));

// Every offer's row for one question, in the ranking's order, with the counts of offers left out and the curves.
function rankAll(s, { serving, filters, curves: withCurves }) {
  const base = serveBase(serving);
  const pricing = serving.pricing || 'on_demand';
  // The question on one GPU alone: its model, traffic and targets as the engine reads them, and any error in it (an
  // unknown preset or billing model) once, before any offer is asked.
  const head = s.client.tryCall('serve', { ...base, gpu: s.gpus[0].id, count: 1 });
  if (!head.ok) return { ok: false, error: head.error, issues: head.issues || [] };
  const staleDays = s.defaults.stale_after_days;
  const today = todayIso();
  const pick = (list, v) => !list || !list.length || list.includes(v);
  const known = new Set(s.gpus.map((g) => g.id));
  const chosen = [];
  let stale = 0;
  let unpriced = 0;
  for (const o of s.offers.values()) {
    if (o.example && !filters.include_examples) continue;
    if (o.marketplace && filters.include_marketplace === false) continue;
    if (!known.has(o.gpu)) continue;
    if (!pick(filters.providers, o.provider) || !pick(filters.regions, o.region) || !pick(filters.gpus, o.gpu)) continue;
    const price = o.prices.find((p) => p.model === pricing);
    if (!price) { unpriced += 1; continue; }
    const date = price.as_of || price.read_on;
    if (!filters.include_stale && date && daysBetween(date, today) > staleDays) { stale += 1; continue; }
    chosen.push({ o, price, sizes: replicaSizes(o.gpu_count) });
  }
  // Every offer at every replica size in one engine call; each offer's row is its better split (bestOf).
  const asked = s.client.tryCall('serveOffers', { ...base, offers: chosen.flatMap(({ o, sizes }) => sizes.map((count) => ({ offer: o.id, count }))) });
  if (!asked.ok) return { ok: false, error: asked.error, issues: asked.issues || [] };
  const rows = [];
  let at = 0;
  for (const { o, price, sizes } of chosen) {
    rows.push(rowOf(o, price, bestOf(asked.offers.slice(at, at + sizes.length))));
    at += sizes.length;
  }
  const grouped = groupRegions(rows).sort((a, b) => (b.met - a.met) || (b.fits - a.fits)
    || a.usd_per_million_output - b.usd_per_million_output || a.id.localeCompare(b.id));
  grouped.forEach((r, i) => { r.rank = i + 1; if (!Number.isFinite(r.usd_per_million_output)) r.usd_per_million_output = 0; });
  const curves = [];
  for (const r of grouped) {
    if (!withCurves || curves.length >= CURVE_GPUS || !r.fits) break;
    if (!curves.some((c) => c.gpu === r.gpu)) curves.push(curveOf(s.client, base, r));
  }
  return {
    ok: true, preset: serving.preset, pricing, total: grouped.length, met: grouped.filter((r) => r.met).length, fits: grouped.filter((r) => r.fits).length,
    stale, unpriced, best: grouped.find((r) => r.met) || null, all: grouped, curves,
    // The targets as asked (whether they are met is each row's).
    traffic: head.traffic, targets: { ttft_ms: head.targets.ttft_ms, tpot_ms: head.targets.tpot_ms, percentile: head.targets.percentile }, model: head.model, weights: head.weights, kv: head.kv, software: head.software,
  };
}

// s: the engine core's shared state (client, offers, defaults, version). The operation: serveRank({serving, filters,
// sort, limit, curves}) where serving = {preset, weights?, kv?, software?, pricing?, traffic, targets} (pricing: the
// billing model, on_demand when absent; offers without that price are left out and counted as `unpriced`),
// filters = {providers, regions, gpus, include_examples, include_stale, include_marketplace}, sort = {key: a numeric
// row member or 'rank', dir}; limit: the first rows of that order sent (0 = all); curves: false leaves out the
// throughput-per-GPU curves (the widget has no chart). Every offer's row is kept for the last few questions, so that
// another order or more rows of the same question sort rows instead of asking the engine again.
export function servingOps(s) {
  const kept = new Map();
  return {
    serveRank({ serving, filters = {}, curves = true, limit = PAGE_ROWS, sort = { key: 'rank', dir: 'asc' } }) {
      const t0 = Date.now();
      const key = keyOf({ serving, filters, curves, version: s.version });
      let all = kept.get(key);
      if (all) kept.delete(key);
      else all = rankAll(s, { serving, filters, curves });
      kept.set(key, all);
      while (kept.size > KEPT_RANKINGS) kept.delete(kept.keys().next().value);
      if (!all.ok) return { ...all, ms: Date.now() - t0 };
      const { all: rows, ...rest } = all;
      const sorted = sortRows(rows, sort);
      return { ...rest, sort, rows: limit > 0 ? sorted.slice(0, limit) : sorted, ms: Date.now() - t0 };
    },
  };
}

// The serving operations on an engine client alone (the widget, which runs the engine on its page, and tests).
export function servingOpsOf(client) {
  return servingOps({ client, offers: new Map(client.catalogSummary().map((o) => [o.id, o])), defaults: client.defaults(), gpus: client.gpus() });
}
