// The serving ranking: every catalog offer for one served language model and its traffic, by what a million
// output tokens costs at the latency targets. Each number is the engine's `serve` answer for that offer: the
// offer's GPUs split into replicas of 1, 2, 4, … GPUs (tensor parallel within the instance), and the split that
// meets the targets cheapest is the offer's row. The engine prices serving at the on-demand rate only.
// Runs in the engine host (the worker), never on the page.
import { daysBetween, todayIso } from '../format/format.js';

// TPOT targets (ms) the throughput-per-GPU curve is drawn at: from interactive chat (15-30 ms per token, i.e.
// 33-66 tokens/s a user reads) to batch jobs (300 ms), and 0 = no target (the largest batch that fits).
export const CURVE_TPOT_MS = [10, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 0];
const CURVE_GPUS = 5;       // GPUs (of the best rows) drawn on the chart
const ROW_LIMIT = 200;      // rows sent to the page

// Replica sizes tried on an instance of n GPUs: the powers of two that divide n (tensor parallel splits heads
// evenly over 1, 2, 4 or 8 GPUs in vLLM, SGLang and TensorRT-LLM).
export function replicaSizes(n) {
  const out = [];
  for (let tp = 1; tp <= n; tp *= 2) if (n % tp === 0) out.push(tp);
  return out;
}

// The serve request of the page's serving state for an offer (or a GPU), without the hardware.
export function serveBase({ preset, weights, kv, software, traffic = {}, targets = {} }) {
  const req = { preset };
  if (weights) req.weights = weights;
  if (kv) req.kv = kv;
  if (software) req.software = software;
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

// The link a replica's GPUs talk over, as a buyer names it (the row's fabric; its interconnect stays the engine's): none for one GPU, AMD's Infinity Fabric where the
// engine's scale-up link ("nvlink": NVLink, NVSwitch or Infinity Fabric, the offer's interconnect) is AMD's.
function fabricOf(o, r) {
  if (r.count <= 1) return 'none';
  return r.interconnect === 'nvlink' && o.interconnect === 'infinity-fabric' ? 'infinity-fabric' : r.interconnect;
}

// One row from the engine's answer for an offer.
function rowOf(o, r, dateOf) {
  const c = r.cost;
  const price = o.prices.find((p) => p.model === 'on_demand') || {};
  const cap = r.capacity;
  const op = r.operating;
  return {
    key: o.id, id: o.id, instance: o.instance, provider: o.provider, region: o.region, gpu: o.gpu, gpu_count: o.gpu_count, marketplace: Boolean(o.marketplace),
    date: dateOf(o), as_of: price.as_of || '', read_on: price.read_on || '', replica_gpus: r.count, interconnect: r.interconnect, fabric: fabricOf(o, r), weights: r.weights, kv: r.kv,
    fits: r.memory.fits, met: Boolean(r.targets.met), ttft_met: r.targets.ttft_met, tpot_met: r.targets.tpot_met,
    replicas: op ? op.replicas : 0, gpus: c ? c.instances * o.gpu_count : 0, instances: c ? c.instances : 0,
    usd_per_hour: c ? c.offer.usd_per_hour : 0,
    usd_per_million_output: c ? c.usd_per_million_output : Infinity, usd_per_million_input: c ? c.usd_per_million_input : 0,
    usd_per_million_blended: c ? c.usd_per_million_blended : 0, monthly_usd: c ? c.monthly_usd : 0,
    ttft_ms: op ? op.ttft_ms : 0, tpot_ms: op ? op.tpot_ms : 0, batch: cap ? cap.batch : 0, bound: cap ? cap.bound : '',
    output_tokens_per_s_per_gpu: cap ? cap.output_tokens_per_s / r.count : 0,
    memory: r.memory, hints: r.hints || [],
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

// s: the engine core's shared state (client, offers, defaults). The operation: serveRank({serving, filters}) where
// serving = {preset, weights?, kv?, software?, traffic, targets} and filters = {providers, regions, gpus,
// include_examples, include_stale, include_marketplace}; limit: rows sent (0 = all); curves: false leaves out the throughput-per-GPU curves (the widget has no chart).
export function servingOps(s) {
  return {
    serveRank({ serving, filters = {}, curves: withCurves = true, limit = ROW_LIMIT }) {
      const t0 = Date.now();
      const base = serveBase(serving);
      const staleDays = s.defaults.stale_after_days;
      const dateOf = (o) => { const p = o.prices.find((x) => x.model === 'on_demand'); return p ? (p.as_of || p.read_on || '') : ''; };
      const today = todayIso();
      const pick = (list, v) => !list || !list.length || list.includes(v);
      const rows = [];
      let first = null;
      let stale = 0;
      for (const o of s.offers.values()) {
        if (!o.prices.some((p) => p.model === 'on_demand')) continue;
        if (o.example && !filters.include_examples) continue;
        if (o.marketplace && filters.include_marketplace === false) continue;
        if (!pick(filters.providers, o.provider) || !pick(filters.regions, o.region) || !pick(filters.gpus, o.gpu)) continue;
        const date = dateOf(o);
        if (!filters.include_stale && date && daysBetween(date, today) > staleDays) { stale += 1; continue; }
        let best = null;
        for (const tp of replicaSizes(o.gpu_count)) {
          const r = s.client.tryCall('serve', { ...base, offer: o.id, count: tp });
          if (!r.ok) { first ||= r; break; }
          const row = rowOf(o, r, dateOf);
          if (better(row, best)) best = row;
        }
        if (best) rows.push(best);
      }
      if (!rows.length && first) return { ok: false, error: first.error, issues: first.issues || [], ms: Date.now() - t0 };
      const grouped = groupRegions(rows).sort((a, b) => (b.met - a.met) || (b.fits - a.fits)
        || a.usd_per_million_output - b.usd_per_million_output || a.id.localeCompare(b.id));
      grouped.forEach((r, i) => { r.rank = i + 1; if (!Number.isFinite(r.usd_per_million_output)) r.usd_per_million_output = 0; });
      const curves = [];
      for (const r of grouped) {
        if (!withCurves || curves.length >= CURVE_GPUS || !r.fits) break;
        if (!curves.some((c) => c.gpu === r.gpu)) curves.push(curveOf(s.client, base, r));
      }
      const head = s.client.tryCall('serve', { ...base, gpu: (grouped[0] && grouped[0].gpu) || s.gpus[0].id, count: 1 });
      return {
        ok: true, preset: serving.preset, total: grouped.length, met: grouped.filter((r) => r.met).length, fits: grouped.filter((r) => r.fits).length, stale,
        rows: limit > 0 ? grouped.slice(0, limit) : grouped, curves,
        traffic: head.ok ? head.traffic : null, targets: head.ok ? head.targets : null, model: head.ok ? head.model : null,
        weights: head.ok ? head.weights : null, kv: head.ok ? head.kv : null, software: head.ok ? head.software : null,
        ms: Date.now() - t0,
      };
    },
  };
}

// The serving operations on an engine client alone (the widget, which runs the engine on its page, and tests).
export function servingOpsOf(client) {
  return servingOps({ client, offers: new Map(client.catalogSummary().map((o) => [o.id, o])), defaults: client.defaults(), gpus: client.gpus() });
}
