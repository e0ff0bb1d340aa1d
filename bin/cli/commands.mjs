// What each command does with its parsed options: the request it sends to the engine and how it prints the answer.
// opts come from options.mjs (numbers already checked); a missing required option or a bad combination is a
// UsageError (exit 2), anything the engine refuses is a GpuvalueError (exit 1).
import path from 'node:path';
import { GpuvalueError } from '../../web/src/engine/client.js';
import { hoursFromDays } from '../../web/src/format/format.js';
import { UsageError, SERVING, COMMAND_TABLE } from './options.mjs';
import { language, localisedEngine, explain, termText, sentences, providerText } from './lang.mjs';
import { s } from './strings.mjs';
import { readText, readJsonFile, parseJson, isWasmAbort, engine as newEngine } from './io.mjs';
import {
  terminalText, jsonText, table, fmtH, withoutOk, adviseText, planText, migText, leversText, compareText, energyText, tcoText, serverlessText,
  priceDate,
} from './text.mjs';
import { serveAnswer, serveText, serveRank, serveRankText } from './serve.mjs';
import { probeCommand } from './probe.mjs';
import { writeOut, writeErr } from './streams.mjs';
import { measuredRequest, calibrationLines, calibratedMark, measuredCommand } from './measured.mjs';

const say = (text) => writeOut(`${terminalText(text)}\n`);
// A price read on a day, its source giving no date, carries that day in --json answers (absent otherwise).
const readOn = (x) => (x.read_on ? { read_on: x.read_on } : {});
const complain = (text) => writeErr(`${terminalText(text)}\n`);

function out(opts, obj, human) {
  if (opts.json) writeOut(`${jsonText(obj)}\n`);
  else say(human());
}

// The serving question over every catalog offer: `serve` without --gpu or --offer, or `rank` with a serving preset.
const TRAINING_ONLY = ['fits-only', 'horizon-days', 'budget', 'deadline', 'measured'];
const given = (v) => (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false);
async function serveRankCommand(opts, e, command) {
  const takes = (k) => COMMAND_TABLE[command].options.includes(k);
  const training = TRAINING_ONLY.find((k) => takes(k) && given(opts[k]));
  if (training) throw new UsageError(s('error.training_option', { option: `--${training}`, preset: opts.preset }), command);
  if (takes('count') && opts.count !== undefined) throw new UsageError(s('error.serve_gpu_or_offer'), command);
  if (!(await loadCatalogOptions(opts, e))) return 1;
  const a = serveRank(opts, e, command);
  if (!a.ok) throw new GpuvalueError(a);
  out(opts, withoutOk(a), () => serveRankText(a, opts));
  return 0;
}

function put(req, opts, key, field = key) {
  if (opts[key] !== undefined && opts[key] !== '') req[field] = opts[key];
}

function workloadRequest(opts) {
  if (opts.preset && opts.workload) throw new UsageError(s('error.preset_and_workload'));
  let req;
  if (opts.preset) req = { preset: opts.preset };
  else if (opts.workload) {
    const w = readJsonFile(opts.workload);
    req = { workload: w && w.workload ? w.workload : w };
  } else throw new UsageError(s('error.preset_or_workload'));
  // --software overrides the workload's (or preset's) software stack; beside a preset it is a workload override.
  if (opts.software !== undefined) {
    if (opts.software !== 'tuned' && opts.software !== 'typical') throw new UsageError(s('error.software', { value: opts.software }));
    req.workload = { ...(req.workload && typeof req.workload === 'object' ? req.workload : {}), software: opts.software };
  }
  return req;
}

// Which catalog prices a request may use: the seed article's illustrative offers and stale prices only when asked.
// A unit cost ($/TFLOPS·day) to 4 decimals, or "n/a" where the engine has none (null: no dense FP16 peak).
const unitText = (usd, sign) => (typeof usd === 'number' && usd > 0 ? `${sign}${usd.toFixed(4)}` : s('word.not_available'));
const scopeFilters = (opts) => ({ include_examples: !!opts['include-examples'], include_stale: !!opts['include-stale'] });

function hardwareRequest(opts) {
  if (opts.gpu && opts.instance) throw new UsageError(s('error.gpu_and_instance'));
  if (!opts.gpu && !opts.instance) throw new UsageError(s('error.gpu_or_instance'));
  const req = opts.gpu ? { gpu: opts.gpu } : { instance: opts.instance };
  put(req, opts, 'count', 'count');
  if (opts.cooling) req.cooling = opts.cooling;
  put(req, opts, 'pue', 'pue');
  put(req, opts, 'utilisation', 'utilisation');
  put(req, opts, 'usd-per-kwh', 'usd_per_kwh');
  // The site's grid for the electricity price and CO2 the options leave out: China's for a Chinese reader.
  req.grid = opts.grid || (language(opts) === 'zh' ? 'china' : 'world');
  put(req, opts, 'power-w', 'power_w');
  return req;
}

function energyRequest(opts) {
  const req = hardwareRequest(opts);
  put(req, opts, 'kg-co2-per-kwh', 'kg_co2_per_kwh');
  put(req, opts, 'hours', 'hours');
  if (req.hours === undefined) {
    if (!opts.preset && !opts.workload) throw new UsageError(s('error.hours_or_workload'));
    Object.assign(req, workloadRequest(opts));
  }
  return req;
}

function compareConfig(text, gpuIds) {
  const parts = text.split(':');
  if (gpuIds.has(parts[0].toLowerCase())) {
    if (parts.length < 2 || parts.length > 3) throw new UsageError(s('error.config_gpu', { text }));
    const count = Number(parts[1]);
    if (!Number.isInteger(count) || count < 1) throw new UsageError(s('error.config_count', { text }));
    const c = { gpu: parts[0], count };
    if (parts.length === 3) {
      const price = Number(parts[2]);
      if (!Number.isFinite(price) || price <= 0) throw new UsageError(s('error.config_price', { text }));
      c.usd_per_hour = price;
    }
    return c;
  }
  if (parts.length > 2) throw new UsageError(s('error.config_form', { text }));
  const c = { instance: parts[0] };
  if (parts.length === 2) {
    const nodes = Number(parts[1]);
    if (!Number.isInteger(nodes) || nodes < 1) throw new UsageError(s('error.config_nodes', { text }));
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
    complain(`${idx !== null && files[Number(idx)] !== undefined ? files[Number(idx)] : s('word.catalog')}: ${rest || '/'}: ${explain(i.message)}`);
  }
  return false;
}

// --catalog replaces the bundled catalog, --add-catalog adds to it; false after a file's problems were reported.
async function loadCatalogOptions(opts, e) {
  if (opts.catalog.length && !(await loadCatalogs(e, 'loadCatalog', opts.catalog))) return false;
  if (opts['add-catalog'].length && !(await loadCatalogs(e, 'addCatalog', opts['add-catalog']))) return false;
  return true;
}

// Years of price dates the engine accepts (a date outside is a typo, not a price).
const FIRST_YEAR = 1990;
const LAST_YEAR = 2200;
const isDate = (t) => /^\d{4}-\d{2}-\d{2}$/.test(t) && +t.slice(0, 4) >= FIRST_YEAR && +t.slice(0, 4) <= LAST_YEAR
  && !Number.isNaN(Date.parse(`${t}T00:00:00Z`)) && new Date(`${t}T00:00:00Z`).toISOString().slice(0, 10) === t;

// The command line of each engine method, by method name.
export const COMMANDS = {
  // With --json: {files: [{file, ok, kind?, count?, issues, error?}]} on stdout, the same exit status.
  validate: async (opts, e0, files) => {
    let e = e0;
    let bad = 0;
    const report = [];
    const problem = (file, text) => { report.push({ file, ok: false, issues: [], error: text }); if (!opts.json) complain(text); };
    for (const f of files) {
      let text;
      try { text = readText(f); } catch (err) {
        if (!(err instanceof GpuvalueError)) throw err;
        problem(f, err.message);
        bad++;
        continue;
      }
      let r;
      try { r = e.validate(text); } catch (err) {
        if (!isWasmAbort(err)) throw err;
        problem(f, s('validate.stopped', { file: f, detail: err.message }));
        bad++;
        e = localisedEngine(await newEngine(), opts);
        continue;
      }
      report.push({ file: f, ok: r.ok, kind: r.kind, count: r.count, issues: r.issues || [] });
      if (!r.ok) bad++;
      if (opts.json) continue;
      const warnings = (r.issues || []).filter((i) => i.warning);
      if (r.ok) say(s('validate.ok', { file: f, count: r.count, kind: r.kind === 'gpus' ? 'gpus' : 'records', warnings: warnings.length }));
      else for (const i of r.issues) complain(`${f}: ${i.path || '/'}: ${explain(i.message)}${i.warning ? s('validate.warning') : ''}`);
    }
    if (opts.json) writeOut(`${jsonText({ files: report })}\n`);
    return bad ? 1 : 0;
  },
  importSkypilot: async (opts, e, [sub, file]) => {
    if (sub !== 'skypilot') throw new UsageError(s('error.import_format', { value: sub }), 'import');
    const asOf = opts['as-of'];
    if (asOf !== undefined && !isDate(asOf)) throw new UsageError(s('error.as_of', { first: FIRST_YEAR, last: LAST_YEAR, value: asOf }), 'import');
    const r = e.importSkypilot(readText(file, undefined, { allowNul: true }), { provider: opts.provider || '', as_of: asOf, source: `SkyPilot catalog ${path.basename(file)}` });
    // With --json: the whole answer (catalog, rows, offers, skipped_rows, issues, unmapped) on stdout.
    if (opts.json) {
      writeOut(`${jsonText(withoutOk(r))}\n`);
      return r.ok ? 0 : 1;
    }
    for (const i of r.issues || []) complain(`${file}: ${i.path ? `${i.path}: ` : ''}${explain(i.message)}`);
    const unmapped = (r.unmapped || []).map((u) => s('import.unmapped_name', { name: u.name, rows: u.rows }));
    if (unmapped.length) complain(s('import.unmapped', { file, names: unmapped.join(', ') }));
    if (!r.ok) return 1;
    writeOut(`${jsonText(r.catalog)}\n`);
    complain(s('import.summary', { file, rows: r.rows, offers: r.offers, skipped: r.skipped_rows }));
    return 0;
  },
  estimate: async (opts, e) => {
    const req = { ...workloadRequest(opts), gpu: opts.gpu, count: opts.count ?? 1 };
    if (!opts.gpu) throw new UsageError(s('error.required_option', { option: '--gpu' }));
    const measured = measuredRequest(opts, e);
    Object.assign(req, measured.request);
    if (opts.precision) req.precision = opts.precision;
    const r = measured.answer(() => e.estimate(req));
    const p = r.plan;
    out(opts, r, () => [
      s('estimate.title', { workload: r.workload, gpu_count: r.gpu_count, gpu: r.gpu, nodes: r.nodes, precision: r.precision }),
      s('estimate.time', { time: fmtH(r.time_hours), low: fmtH(r.time_hours_low), high: fmtH(r.time_hours_high) }),
      s('estimate.throughput', { tflops: r.throughput.effective_tflops_per_gpu.toFixed(1), samples: r.throughput.samples_per_s.toFixed(1),
        tokens: r.throughput.tokens_per_s ? s('estimate.tokens', { tokens: r.throughput.tokens_per_s.toFixed(0) }) : '' }),
      s('estimate.memory', { required: r.memory.required_gb_per_gpu.toFixed(1), available: r.memory.available_gb_per_gpu.toFixed(1),
        fits: r.memory.fits ? 'yes' : 'no', sharding: r.memory.sharding }),
      s('estimate.plan', { tp: p.tensor_parallel, pp: p.pipeline_parallel, cp: p.context_parallel, ep: p.expert_parallel, dp: p.data_parallel, zero: p.zero_stage,
        recompute: p.recompute, micro: p.micro_batch, accumulation: p.grad_accumulation, bubble: (p.bubble_fraction * 100).toFixed(1) }),
      s('estimate.software', { software: s(`software.${r.software}`), other: s(`software.${r.other_software.software}`), time: fmtH(r.other_software.time_hours) }),
      ...calibrationLines(r.calibration),
      ...(r.calibrated ? [s('measured.this', { mark: calibratedMark(r.calibrated) })] : []),
      ...r.warnings.map((w) => s('line.warning', { text: w })),
    ].join('\n'));
    return 0;
  },
  rank: async (opts, e) => {
    if (opts.preset && e.call('servingPresets').presets.some((p) => p.id === opts.preset)) return serveRankCommand(opts, e, 'rank');
    const serving = SERVING.find((k) => opts[k] !== undefined);
    if (serving) throw new UsageError(s('error.serving_option', { option: `--${serving}` }), 'rank');
    if (!(await loadCatalogOptions(opts, e))) return 1;
    const measured = measuredRequest(opts, e);
    const req = { ...workloadRequest(opts), pricing: opts.pricing || 'all', filters: scopeFilters(opts), ...measured.request };
    if (opts['horizon-days'] !== undefined) req.horizon_hours = hoursFromDays(opts['horizon-days']);
    if (opts['fits-only']) req.filters.fits_only = true;
    if (opts['no-marketplace']) req.filters.include_marketplace = false;
    if (opts.budget !== undefined) req.filters.budget_usd = opts.budget;
    if (opts.deadline !== undefined) req.filters.deadline_hours = opts.deadline;
    if (opts.limit !== undefined) req.limit = opts.limit;
    const r = measured.answer(() => e.rank(req));
    const results = r.results.map((x) => ({
      instance: x.instance, id: x.id, provider: x.provider, region: x.region, gpu: x.gpu, gpu_count: x.gpu_count, nodes: x.nodes,
      total_gpus: x.total_gpus, pricing: x.pricing, fits: x.fits, meets_horizon: x.meets_horizon, time_hours: x.time_hours, cost_usd: x.cost_usd,
      usd_per_tflops_day: x.usd_per_tflops_day, score: x.score, pareto: x.pareto, example: x.example, stale: x.stale, as_of: x.as_of, ...readOn(x), source: x.source,
      reasons: x.reasons, warnings: x.warnings, plan: x.plan, ...(x.calibrated ? { calibrated: x.calibrated } : {}),
    }));
    out(opts, { workload: r.workload, evaluated_offers: r.evaluated_offers, fitting_count: r.fitting_count, meeting_count: r.meeting_count,
      horizon: r.horizon, fit_hints: r.fit_hints, ...(r.calibration ? { calibration: r.calibration } : {}), results }, () => {
      const rows = opts.limit ? results : results.slice(0, 25);
      const kind = r.horizon.source === 'deadline' ? 'deadline' : 'horizon';
      const horizon = !(r.horizon.hours > 0) ? '' : r.horizon.widened_hours
        ? s('rank.horizon_widened', { count: r.horizon.widened_count, time: fmtH(r.horizon.hours), widened: fmtH(r.horizon.widened_hours), kind })
        : s('rank.horizon', { count: r.meeting_count, time: fmtH(r.horizon.hours), kind });
      const hints = r.fit_hints.length ? `\n${s('rank.fit_hints', { hints: sentences(r.fit_hints) })}` : '';
      const calibration = calibrationLines(r.calibration).map((l) => `\n${l}`).join('');
      const mark = r.calibration ? [{ title: s('column.calibrated'), get: (x) => calibratedMark(x.calibrated) }] : [];
      return `${s('rank.title', { workload: r.workload.name, fitting: r.fitting_count, total: r.result_count, flops: r.workload.total_flops.toExponential(2) })}${horizon}${hints}${calibration}\n` + table(rows, [
        { title: '#', get: (x) => (x.fits ? results.indexOf(x) + 1 : '-'), right: true },
        { title: s('column.instance'), get: (x) => `${x.instance}${x.example ? s('rank.example') : ''}` },
        { title: s('column.provider'), get: (x) => `${providerText(x.provider)} ${x.region}` },
        { title: s('column.gpus'), get: (x) => `${x.total_gpus}x ${x.gpu}${x.nodes > 1 ? s('rank.nodes', { n: x.nodes }) : ''}` },
        { title: s('column.pricing'), get: (x) => termText('pricing', x.pricing) },
        { title: s('column.fits'), get: (x) => s(x.fits ? 'word.yes' : 'word.no') },
        { title: s('column.time'), get: (x) => `${fmtH(x.time_hours)}${x.fits && !x.meets_horizon ? s('rank.late') : ''}`, right: true },
        { title: s('column.cost_usd'), get: (x) => x.cost_usd.toFixed(0), right: true },
        { title: '$/TFLOPS·day', get: (x) => unitText(x.usd_per_tflops_day, ''), right: true },
        { title: s('column.score'), get: (x) => x.score.toFixed(3), right: true },
        ...mark,
        { title: s('column.why'), get: (x) => x.reasons.join(language(opts) === 'zh' ? '；' : '; ') },
      ]) + (rows.length < results.length ? `\n${s('rank.more', { n: results.length - rows.length })}` : '');
    });
    return 0;
  },
  cost: async (opts, e) => {
    if (!opts.instance) throw new UsageError(s('error.required_option', { option: '--instance' }));
    if (opts.hours === undefined) throw new UsageError(s('error.required_option', { option: '--hours' }), 'cost');
    const req = { instance: opts.instance, hours: opts.hours, pricing: opts.pricing || 'on_demand' };
    if (opts.nodes !== undefined) req.nodes = opts.nodes;
    if (opts['cold-start-s'] !== undefined) req.cold_start_s = opts['cold-start-s'];
    const r = e.cost(req);
    const o = { instance: r.instance, id: r.id, provider: r.provider, pricing: r.pricing, hours: r.hours, nodes: r.nodes, billed_hours: r.billed_hours,
      cost_usd: r.cost_usd, usd_per_hour: r.usd_per_hour, usd_per_tflops_day: r.usd_per_tflops_day, as_of: r.as_of, ...readOn(r), source: r.source, warnings: r.warnings };
    if (r.serverless) Object.assign(o, { available: r.available, note: r.note, serverless: r.serverless });
    out(opts, o, () => s('cost.line', { instance: r.instance, provider: providerText(r.provider), pricing: termText('pricing', r.pricing), hours: r.hours,
      cost: r.cost_usd.toFixed(2), unit: unitText(r.usd_per_tflops_day, '$'), date: priceDate(r) }));
    return 0;
  },
  probe: async (opts, e) => probeCommand(opts, e, workloadRequest(opts), out),
  measured: async (opts, e, positionals) => measuredCommand(opts, e, positionals, out),
  presets: async (opts, e) => {
    const p = e.presets();
    const lang = language(opts);
    out(opts, p, () => p.map((x) => `${x.id.padEnd(22)} ${x.name?.[lang] ?? x.name?.en ?? ''}`).join('\n'));
    return 0;
  },
  gpus: async (opts, e) => {
    const g = e.gpus();
    out(opts, g, () => table(g, [
      { title: s('column.id'), get: (x) => x.id }, { title: s('column.name'), get: (x) => x.name },
      { title: 'GB', get: (x) => x.memory_gb, right: true }, { title: 'GB/s', get: (x) => x.memory_bandwidth_gbs, right: true },
      { title: 'FP16 TFLOPS', get: (x) => x.tflops.fp16 ?? '-', right: true }]));
    return 0;
  },
  // The advisor's own transformer of --params (and --tokens), or the job of a preset or workload file as rank ranks
  // it (then --params, --tokens and --mode, when given, must be the workload's: the engine says so at their path).
  advise: async (opts, e) => {
    const own = opts.preset !== undefined || opts.workload !== undefined;
    if (!own && opts.params === undefined) throw new UsageError(s('error.required_option', { option: '--params' }), 'advise');
    const req = own ? workloadRequest(opts) : {};
    put(req, opts, 'params');
    put(req, opts, 'precision');
    put(req, opts, 'tokens', 'tokens');
    put(req, opts, 'deadline', 'deadline_hours');
    for (const k of ['stage', 'mode']) put(req, opts, k);
    Object.assign(req, scopeFilters(opts));
    if (opts['horizon-days'] !== undefined) req.horizon_hours = hoursFromDays(opts['horizon-days']);
    const r = e.advise(req);
    out(opts, withoutOk(r), () => adviseText(r));
    return 0;
  },
  plan: async (opts, e) => {
    if (!!opts.demand === !!opts.example) throw new UsageError(s('error.demand_or_example'));
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
    if (!opts.offer) throw new UsageError(s('error.offer_required'), 'serverless');
    const req = { offer: opts.offer };
    if (opts.instance) req.instance = opts.instance;
    if (opts.load !== undefined) {
      const load = String(opts.load).split(',').map((x) => (/^\s*\d+(\.\d+)?\s*$/.test(x) ? Number(x) : NaN));
      if (load.length !== 24 || load.some((x) => !Number.isFinite(x))) throw new UsageError(s('error.load'), 'serverless');
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
    if (!opts.gpu) throw new UsageError(s('error.required_option', { option: '--gpu' }));
    if (!opts.jobs) throw new UsageError(s('error.jobs_required'));
    const r = e.mig({ gpu: opts.gpu, jobs: opts.jobs, ...scopeFilters(opts) });
    out(opts, withoutOk(r), () => migText(r));
    return 0;
  },
  levers: async (opts, e) => {
    if (!opts.instance) throw new UsageError(s('error.required_option', { option: '--instance' }));
    const req = { ...workloadRequest(opts), instance: opts.instance, ...scopeFilters(opts) };
    for (const k of ['pricing', 'precision', 'nodes']) put(req, opts, k);
    const r = e.levers(req);
    out(opts, withoutOk(r), () => leversText(r));
    return 0;
  },
  compare: async (opts, e) => {
    if (opts.config.length < 2 || opts.config.length > 4) throw new UsageError(s('error.compare_configs'));
    const gpuIds = new Set(e.gpus().flatMap((g) => [g.id, ...(g.aliases || [])].map((x) => x.toLowerCase())));
    const measured = measuredRequest(opts, e);
    const req = { ...workloadRequest(opts), configs: opts.config.map((c) => compareConfig(c, gpuIds)), ...measured.request };
    if (opts.pricing) req.pricing = opts.pricing;
    put(req, opts, 'baseline', 'baseline');
    const r = measured.answer(() => e.compare(req));
    const calibration = r.calibration
      ? ['', ...calibrationLines(r.calibration), ...r.configs.map((c) => `${c.label}: ${calibratedMark(c.calibrated)}`)] : [];
    out(opts, withoutOk(r), () => [compareText(r), ...calibration].join('\n'));
    return 0;
  },
  energy: async (opts, e) => {
    const r = e.energy(energyRequest(opts));
    out(opts, withoutOk(r), () => energyText(r));
    return 0;
  },
  serve: async (opts, e) => {
    if (opts.gpu || opts.offer) {
      const { r, split } = serveAnswer(opts, e);
      out(opts, withoutOk(r), () => serveText(r, { split }));
      return 0;
    }
    return serveRankCommand(opts, e, 'serve');
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

