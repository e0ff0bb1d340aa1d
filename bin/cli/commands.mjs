// What each command does with its parsed options: the request it sends to the engine and how it prints the answer.
// opts come from options.mjs (numbers already checked); a missing required option or a bad combination is a
// UsageError (exit 2), anything the engine refuses is a GpuvalueError (exit 1).
import path from 'node:path';
import { GpuvalueError } from '../../web/src/engine/client.js';
import { UsageError } from './options.mjs';
import { language, localisedEngine, sentences } from './lang.mjs';
import { readText, readJsonFile, parseJson, isWasmAbort, engine as newEngine } from './io.mjs';
import {
  terminalText, jsonText, table, fmtH, withoutOk, adviseText, planText, migText, leversText, compareText, energyText, tcoText, serverlessText,
} from './text.mjs';

const say = (text) => process.stdout.write(`${terminalText(text)}\n`);
const complain = (text) => process.stderr.write(`${terminalText(text)}\n`);

function out(opts, obj, human) {
  if (opts.json) process.stdout.write(`${jsonText(obj)}\n`);
  else say(human());
}

function put(req, opts, key, field = key) {
  if (opts[key] !== undefined && opts[key] !== '') req[field] = opts[key];
}

function workloadRequest(opts) {
  if (opts.preset && opts.workload) throw new UsageError('give --preset or --workload, not both');
  let req;
  if (opts.preset) req = { preset: opts.preset };
  else if (opts.workload) {
    const w = readJsonFile(opts.workload);
    req = { workload: w && w.workload ? w.workload : w };
  } else throw new UsageError('give --preset ID or --workload FILE');
  // --software overrides the workload's (or preset's) software stack; beside a preset it is a workload override.
  if (opts.software !== undefined) {
    if (opts.software !== 'tuned' && opts.software !== 'typical') throw new UsageError(`--software must be tuned or typical (got "${opts.software}")`);
    req.workload = { ...(req.workload && typeof req.workload === 'object' ? req.workload : {}), software: opts.software };
  }
  return req;
}

// Which catalog prices a request may use: the seed article's illustrative offers and stale prices only when asked.
const scopeFilters = (opts) => ({ include_examples: !!opts['include-examples'], include_stale: !!opts['include-stale'] });

function hardwareRequest(opts) {
  if (opts.gpu && opts.instance) throw new UsageError('give --gpu or --instance, not both');
  if (!opts.gpu && !opts.instance) throw new UsageError('give --gpu GPU_ID or --instance ID');
  const req = opts.gpu ? { gpu: opts.gpu } : { instance: opts.instance };
  put(req, opts, 'count', 'count');
  if (opts.cooling) req.cooling = opts.cooling;
  put(req, opts, 'pue', 'pue');
  put(req, opts, 'utilisation', 'utilisation');
  put(req, opts, 'usd-per-kwh', 'usd_per_kwh');
  put(req, opts, 'power-w', 'power_w');
  return req;
}

function energyRequest(opts) {
  const req = hardwareRequest(opts);
  put(req, opts, 'kg-co2-per-kwh', 'kg_co2_per_kwh');
  put(req, opts, 'hours', 'hours');
  if (req.hours === undefined) {
    if (!opts.preset && !opts.workload) throw new UsageError('give --hours H, --preset ID or --workload FILE');
    Object.assign(req, workloadRequest(opts));
  }
  return req;
}

function compareConfig(text, gpuIds) {
  const parts = text.split(':');
  if (gpuIds.has(parts[0].toLowerCase())) {
    if (parts.length < 2 || parts.length > 3) throw new UsageError(`--config ${text}: expected GPU_ID:COUNT[:USD_PER_HOUR]`);
    const count = Number(parts[1]);
    if (!Number.isInteger(count) || count < 1) throw new UsageError(`--config ${text}: COUNT must be a whole number >= 1`);
    const c = { gpu: parts[0], count };
    if (parts.length === 3) {
      const price = Number(parts[2]);
      if (!Number.isFinite(price) || price <= 0) throw new UsageError(`--config ${text}: USD_PER_HOUR must be a number > 0`);
      c.usd_per_hour = price;
    }
    return c;
  }
  if (parts.length > 2) throw new UsageError(`--config ${text}: expected INSTANCE[:NODES] or GPU_ID:COUNT[:USD_PER_HOUR]`);
  const c = { instance: parts[0] };
  if (parts.length === 2) {
    const nodes = Number(parts[1]);
    if (!Number.isInteger(nodes) || nodes < 1) throw new UsageError(`--config ${text}: NODES must be a whole number >= 1`);
    c.nodes = nodes;
  }
  return c;
}

// A catalog file's documents go to the engine: loadCatalog replaces the bundled catalog, addCatalog adds to it.
async function loadCatalogs(e, method, files) {
  const docs = files.map((f) => parseJson(readText(f), f));
  const lr = method === 'loadCatalog' ? e.loadCatalog(JSON.stringify(docs)) : e.addCatalog(JSON.stringify(docs));
  if (lr.ok) return true;
  for (const i of lr.issues) {
    const [, idx, rest] = /^\/(\d+)(.*)$/.exec(i.path) || [null, null, i.path];
    complain(`${idx !== null && files[Number(idx)] !== undefined ? files[Number(idx)] : 'catalog'}: ${rest || '/'}: ${i.message}`);
  }
  return false;
}

// Years of price dates the engine accepts (a date outside is a typo, not a price).
const FIRST_YEAR = 1990;
const LAST_YEAR = 2200;
const isDate = (t) => /^\d{4}-\d{2}-\d{2}$/.test(t) && +t.slice(0, 4) >= FIRST_YEAR && +t.slice(0, 4) <= LAST_YEAR
  && !Number.isNaN(Date.parse(`${t}T00:00:00Z`)) && new Date(`${t}T00:00:00Z`).toISOString().slice(0, 10) === t;

// The command line of each engine method, by method name.
export const COMMANDS = {
  validate: async (opts, e0, files) => {
    let e = e0;
    let bad = 0;
    for (const f of files) {
      let text;
      try { text = readText(f); } catch (err) {
        if (!(err instanceof GpuvalueError)) throw err;
        complain(err.message);
        bad++;
        continue;
      }
      let r;
      try { r = e.validate(text); } catch (err) {
        if (!isWasmAbort(err)) throw err;
        complain(`${f}: the engine stopped on this file (${err.message}); it is too large to check`);
        bad++;
        e = localisedEngine(await newEngine(), opts);
        continue;
      }
      const warnings = (r.issues || []).filter((i) => i.warning);
      if (r.ok) say(`${f}: ok (${r.count} ${r.kind === 'gpus' ? 'GPUs' : 'records'}${warnings.length ? `, ${warnings.length} warnings` : ''})`);
      else {
        bad++;
        for (const i of r.issues) complain(`${f}: ${i.path || '/'}: ${i.message}${i.warning ? ' (warning)' : ''}`);
      }
    }
    return bad ? 1 : 0;
  },
  importSkypilot: async (opts, e, [sub, file]) => {
    if (sub !== 'skypilot') throw new UsageError(`import knows one format, skypilot (got "${sub}")`, 'import');
    const asOf = opts['as-of'];
    if (asOf !== undefined && !isDate(asOf)) throw new UsageError(`--as-of must be a date YYYY-MM-DD between ${FIRST_YEAR} and ${LAST_YEAR} (got "${asOf}")`, 'import');
    const r = e.importSkypilot(readText(file), { provider: opts.provider || '', as_of: asOf, source: `SkyPilot catalog ${path.basename(file)}` });
    for (const i of r.issues || []) complain(`${file}: ${i.path ? `${i.path}: ` : ''}${i.message}`);
    if (!r.ok) return 1;
    process.stdout.write(`${jsonText(r.catalog)}\n`);
    complain(`${file}: ${r.rows} rows -> ${r.offers} offers, ${r.skipped_rows} rows skipped`);
    return 0;
  },
  estimate: async (opts, e) => {
    const req = { ...workloadRequest(opts), gpu: opts.gpu, count: opts.count ?? 1 };
    if (!opts.gpu) throw new UsageError('--gpu is required');
    if (opts.precision) req.precision = opts.precision;
    const r = e.estimate(req);
    out(opts, r, () => [
      `${r.workload} on ${r.gpu_count}× ${r.gpu} (${r.nodes} node${r.nodes > 1 ? 's' : ''}, ${r.precision})`,
      `time to train  ${fmtH(r.time_hours)}  (band ${fmtH(r.time_hours_low)} – ${fmtH(r.time_hours_high)})`,
      `throughput     ${r.throughput.effective_tflops_per_gpu.toFixed(1)} TFLOPS/GPU effective, ${r.throughput.samples_per_s.toFixed(1)} samples/s${r.throughput.tokens_per_s ? `, ${r.throughput.tokens_per_s.toFixed(0)} tokens/s` : ''}`,
      `memory         ${r.memory.required_gb_per_gpu.toFixed(1)} of ${r.memory.available_gb_per_gpu.toFixed(1)} GB per GPU, ${r.memory.fits ? 'fits' : 'DOES NOT FIT'} (${r.memory.sharding})`,
      `plan           TP ${r.plan.tensor_parallel} × PP ${r.plan.pipeline_parallel} × CP ${r.plan.context_parallel} × DP ${r.plan.data_parallel}, ZeRO ${r.plan.zero_stage}, recompute ${r.plan.recompute}, micro-batch ${r.plan.micro_batch} × ${r.plan.grad_accumulation}, bubble ${(r.plan.bubble_fraction * 100).toFixed(1)} %`,
      `software       ${r.software}; ${r.other_software.software} software would take ~${fmtH(r.other_software.time_hours)}`,
      ...r.warnings.map((w) => `warning: ${w}`),
    ].join('\n'));
    return 0;
  },
  rank: async (opts, e) => {
    if (opts.catalog.length && !(await loadCatalogs(e, 'loadCatalog', opts.catalog))) return 1;
    if (opts['add-catalog'].length && !(await loadCatalogs(e, 'addCatalog', opts['add-catalog']))) return 1;
    const req = { ...workloadRequest(opts), pricing: opts.pricing || 'all', filters: scopeFilters(opts) };
    if (opts['horizon-days'] !== undefined) req.horizon_hours = opts['horizon-days'] * 24;
    if (opts['fits-only']) req.filters.fits_only = true;
    if (opts['no-marketplace']) req.filters.include_marketplace = false;
    if (opts.budget !== undefined) req.filters.budget_usd = opts.budget;
    if (opts.deadline !== undefined) req.filters.deadline_hours = opts.deadline;
    if (opts.limit !== undefined) req.limit = opts.limit;
    const r = e.rank(req);
    const results = r.results.map((x) => ({
      instance: x.instance, id: x.id, provider: x.provider, region: x.region, gpu: x.gpu, gpu_count: x.gpu_count, nodes: x.nodes,
      total_gpus: x.total_gpus, pricing: x.pricing, fits: x.fits, meets_horizon: x.meets_horizon, time_hours: x.time_hours, cost_usd: x.cost_usd,
      usd_per_tflops_day: x.usd_per_tflops_day, score: x.score, pareto: x.pareto, example: x.example, stale: x.stale, as_of: x.as_of, source: x.source,
      reasons: x.reasons, warnings: x.warnings, plan: x.plan,
    }));
    out(opts, { workload: r.workload, evaluated_offers: r.evaluated_offers, fitting_count: r.fitting_count, meeting_count: r.meeting_count,
      horizon: r.horizon, fit_hints: r.fit_hints, results }, () => {
      const rows = opts.limit ? results : results.slice(0, 25);
      const horizon = r.horizon.hours > 0 ? `; ${r.meeting_count} finish within ${fmtH(r.horizon.hours)} (${r.horizon.source === 'deadline' ? 'deadline' : 'horizon'})` : '';
      const hints = r.fit_hints.length ? `\nnothing fits; what would: ${sentences(r.fit_hints)}` : '';
      return `${r.workload.name}: ${r.fitting_count} of ${r.result_count} offers fit${horizon} (${r.workload.total_flops.toExponential(2)} FLOPs)${hints}\n` + table(rows, [
        { title: '#', get: (x) => (x.fits ? results.indexOf(x) + 1 : '-'), right: true },
        { title: 'instance', get: (x) => `${x.instance}${x.example ? ' (example)' : ''}` },
        { title: 'provider', get: (x) => `${x.provider} ${x.region}` },
        { title: 'GPUs', get: (x) => `${x.total_gpus}x ${x.gpu}${x.nodes > 1 ? ` (${x.nodes} nodes)` : ''}` },
        { title: 'pricing', get: (x) => x.pricing },
        { title: 'fits', get: (x) => (x.fits ? 'yes' : 'no') },
        { title: 'time', get: (x) => `${fmtH(x.time_hours)}${x.fits && !x.meets_horizon ? ' (late)' : ''}`, right: true },
        { title: 'cost $', get: (x) => x.cost_usd.toFixed(0), right: true },
        { title: '$/TFLOPS·day', get: (x) => x.usd_per_tflops_day.toFixed(4), right: true },
        { title: 'score', get: (x) => x.score.toFixed(3), right: true },
        { title: 'why', get: (x) => x.reasons.join(language(opts) === 'zh' ? '；' : '; ') },
      ]) + (rows.length < results.length ? `\n… ${results.length - rows.length} more (--limit N or --json)` : '');
    });
    return 0;
  },
  cost: async (opts, e) => {
    if (!opts.instance) throw new UsageError('--instance is required');
    if (opts.hours === undefined) throw new UsageError('--hours is required', 'cost');
    const req = { instance: opts.instance, hours: opts.hours, pricing: opts.pricing || 'on_demand' };
    if (opts.nodes !== undefined) req.nodes = opts.nodes;
    if (opts['cold-start-s'] !== undefined) req.cold_start_s = opts['cold-start-s'];
    const r = e.cost(req);
    const o = { instance: r.instance, id: r.id, provider: r.provider, pricing: r.pricing, hours: r.hours, nodes: r.nodes, billed_hours: r.billed_hours,
      cost_usd: r.cost_usd, usd_per_hour: r.usd_per_hour, usd_per_tflops_day: r.usd_per_tflops_day, as_of: r.as_of, source: r.source, warnings: r.warnings };
    if (r.serverless) Object.assign(o, { available: r.available, note: r.note, serverless: r.serverless });
    out(opts, o, () => `${r.instance} (${r.provider}) ${r.pricing} for ${r.hours} h: $${r.cost_usd.toFixed(2)}  ·  $${r.usd_per_tflops_day.toFixed(4)}/TFLOPS·day  ·  price as of ${r.as_of}`);
    return 0;
  },
  presets: async (opts, e) => {
    const p = e.presets();
    out(opts, p, () => p.map((x) => `${x.id.padEnd(22)} ${x.name?.en ?? ''}`).join('\n'));
    return 0;
  },
  gpus: async (opts, e) => {
    const g = e.gpus();
    out(opts, g, () => table(g, [
      { title: 'id', get: (x) => x.id }, { title: 'name', get: (x) => x.name },
      { title: 'GB', get: (x) => x.memory_gb, right: true }, { title: 'GB/s', get: (x) => x.memory_bandwidth_gbs, right: true },
      { title: 'FP16 TFLOPS', get: (x) => x.tflops.fp16 ?? '-', right: true }]));
    return 0;
  },
  advise: async (opts, e) => {
    if (opts.params === undefined) throw new UsageError('--params is required', 'advise');
    const req = { params: opts.params };
    put(req, opts, 'tokens', 'tokens');
    put(req, opts, 'deadline', 'deadline_hours');
    for (const k of ['stage', 'mode']) put(req, opts, k);
    Object.assign(req, scopeFilters(opts));
    if (opts['horizon-days'] !== undefined) req.horizon_hours = opts['horizon-days'] * 24;
    const r = e.advise(req);
    out(opts, withoutOk(r), () => adviseText(r));
    return 0;
  },
  plan: async (opts, e) => {
    if (!!opts.demand === !!opts.example) throw new UsageError('give --demand FILE or --example article');
    let req;
    if (opts.example) req = { example: opts.example };
    else {
      const d = readJsonFile(opts.demand);
      req = { demand: d && d.demand ? d.demand : d };
    }
    const r = e.plan(req);
    out(opts, withoutOk(r), () => planText(r));
    return 0;
  },
  serverless: async (opts, e) => {
    if (!opts.offer) throw new UsageError('--offer is required (an offer with a serverless price)', 'serverless');
    const req = { offer: opts.offer };
    if (opts.instance) req.instance = opts.instance;
    if (opts.load !== undefined) {
      const load = String(opts.load).split(',').map((x) => (/^\s*\d+(\.\d+)?\s*$/.test(x) ? Number(x) : NaN));
      if (load.length !== 24 || load.some((x) => !Number.isFinite(x))) throw new UsageError('--load needs 24 decimal numbers >= 0, comma-separated', 'serverless');
      req.load_gpus = load;
    }
    if (opts['cold-start-s'] !== undefined) req.cold_start_s = opts['cold-start-s'];
    if (opts['idle-timeout-s'] !== undefined) req.idle_timeout_s = opts['idle-timeout-s'];
    if (opts['max-concurrency'] !== undefined) req.max_concurrency = opts['max-concurrency'];
    const r = e.serverless(req);
    out(opts, withoutOk(r), () => serverlessText(r));
    return 0;
  },
  mig: async (opts, e) => {
    if (!opts.gpu) throw new UsageError('--gpu is required');
    if (!opts.jobs) throw new UsageError('--jobs is required (e.g. 7x8gb)');
    const r = e.mig({ gpu: opts.gpu, jobs: opts.jobs, ...scopeFilters(opts) });
    out(opts, withoutOk(r), () => migText(r));
    return 0;
  },
  levers: async (opts, e) => {
    if (!opts.instance) throw new UsageError('--instance is required');
    const req = { ...workloadRequest(opts), instance: opts.instance, ...scopeFilters(opts) };
    for (const k of ['pricing', 'precision', 'nodes']) put(req, opts, k);
    const r = e.levers(req);
    out(opts, withoutOk(r), () => leversText(r));
    return 0;
  },
  compare: async (opts, e) => {
    if (opts.config.length < 2 || opts.config.length > 4) throw new UsageError('compare needs 2 to 4 --config');
    const gpuIds = new Set(e.gpus().flatMap((g) => [g.id, ...(g.aliases || [])].map((x) => x.toLowerCase())));
    const req = { ...workloadRequest(opts), configs: opts.config.map((c) => compareConfig(c, gpuIds)) };
    if (opts.pricing) req.pricing = opts.pricing;
    put(req, opts, 'baseline', 'baseline');
    const r = e.compare(req);
    out(opts, withoutOk(r), () => compareText(r));
    return 0;
  },
  energy: async (opts, e) => {
    const r = e.energy(energyRequest(opts));
    out(opts, withoutOk(r), () => energyText(r));
    return 0;
  },
  tco: async (opts, e) => {
    const req = { ...hardwareRequest(opts), ...scopeFilters(opts) };
    put(req, opts, 'purchase-usd', 'purchase_usd');
    put(req, opts, 'years', 'amortisation_years');
    put(req, opts, 'other-usd-per-year', 'other_usd_per_year');
    put(req, opts, 'rent-usd-per-gpu-hour', 'rent_usd_per_gpu_hour');
    const r = withoutOk(e.tco(req));
    let energy;
    if (opts.hours !== undefined || opts.preset || opts.workload) {
      energy = withoutOk(e.energy(energyRequest(opts)));
      r.energy = energy;
    }
    out(opts, r, () => tcoText(r) + (energy ? `\n\n${energyText(energy)}` : ''));
    return 0;
  },
};

