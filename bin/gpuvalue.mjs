#!/usr/bin/env node
// gpuvalue command line: a thin layer over the same wasm engine the page uses.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createEngine, GpuvalueError, todayIso } from '../web/src/engine/client.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: gpuvalue <command> [options]

commands:
  estimate (--preset ID | --workload FILE) --gpu GPU_ID --count N [--precision P] [--software tuned|typical] [--json]
  rank     (--preset ID | --workload FILE) [--software tuned|typical] [--catalog FILE]... [--pricing on_demand|reserved|spot|tiered|all]
           [--fits-only] [--budget USD] [--deadline HOURS] [--limit N] [--json]
  cost     --instance ID --hours H [--pricing MODEL] [--nodes N] [--json]
  validate FILE...
  import skypilot FILE.csv [--provider NAME] [--as-of YYYY-MM-DD]
  presets | gpus  [--json]

decision tools (article §4-§5):
  advise   --params N [--tokens N] [--stage exploration|tuning|production] [--mode pretrain|finetune|lora]
           [--deadline HOURS] [--json]
  plan     (--demand FILE | --example article) [--json]
  mig      --gpu GPU_ID --jobs SPEC [--json]          SPEC: COUNTxMEMgb[:SHARE][@HOURSh],...  e.g. 7x8gb or 3x20gb,2x5gb@4h
  levers   (--preset ID | --workload FILE) --instance ID [--pricing MODEL] [--precision P] [--json]
  compare  (--preset ID | --workload FILE) --config C --config C [--config C]... [--pricing MODEL] [--baseline I] [--json]
           C: GPU_ID:COUNT[:USD_PER_HOUR] or INSTANCE[:NODES]   e.g. --config a100-sxm4-80gb:8 --config v100-sxm2-16gb:4
  energy   (--gpu GPU_ID | --instance ID) [--count N] (--hours H | --preset ID | --workload FILE)
           [--cooling air|liquid] [--pue P] [--utilisation U] [--usd-per-kwh X] [--kg-co2-per-kwh X] [--power-w W] [--json]
  tco      (--gpu GPU_ID | --instance ID) [--count N] [--purchase-usd X] [--years N] [--utilisation U] [--power-w W]
           [--cooling air|liquid] [--pue P] [--usd-per-kwh X] [--other-usd-per-year X] [--rent-usd-per-gpu-hour X]
           [--hours H | --preset ID] [--json]

Prices are USD. Exit status: 0 ok, 1 bad input (message on stderr), 2 usage error.`;

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { _: [], catalog: [], config: [] };
  const flags = new Set(['json', 'fits-only', 'help']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (flags.has(k)) { opts[k] = true; continue; }
      const v = inline !== undefined ? inline : argv[++i];
      if (v === undefined) throw new UsageError(`--${k} needs a value`);
      if (k === 'catalog') opts.catalog.push(v);
      else if (k === 'config') opts.config.push(v);
      else opts[k] = v;
    } else opts._.push(a);
  }
  return opts;
}

// Reads a UTF-8 text file. Bytes that are not UTF-8 are bad input (exit 1), not silently replaced by U+FFFD: the
// engine rejects them in JSON too, and the position says where to look (columns count bytes, as the engine's do).
function readText(file) {
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  const text = buf.toString('utf8');
  if (text.includes('\uFFFD')) {
    const back = Buffer.from(text, 'utf8');
    let i = 0;
    while (i < buf.length && i < back.length && buf[i] === back[i]) i++;
    if (i < buf.length || back.length !== buf.length) {
      const line = buf.subarray(0, i).filter((b) => b === 10).length + 1;
      const column = i - buf.lastIndexOf(10, i - 1);
      const where = `line ${line}, column ${i === 0 ? 1 : column}`;
      throw new GpuvalueError({ error: { code: 'json_syntax', path: where,
        message: `${file}: ${where}: not valid UTF-8 (byte 0x${buf[i].toString(16).padStart(2, '0')})` } });
    }
  }
  return text;
}

// JSON.parse that rejects numbers beyond the range of a double (1e400 would silently become Infinity, then null).
function parseJson(text, file) {
  try {
    return JSON.parse(text, (key, value) => {
      if (typeof value === 'number' && !Number.isFinite(value))
        throw new RangeError(`number${key ? ` "${key}"` : ''} is out of range (beyond +-1.8e308)`);
      return value;
    });
  } catch (e) {
    throw new GpuvalueError({ error: { code: 'json_syntax', path: file, message: `${file}: not valid JSON: ${e.message}` } });
  }
}

function number(opts, key, { required = false, integer = false, min = 0 } = {}) {
  if (opts[key] === undefined) {
    if (required) throw new UsageError(`--${key} is required`);
    return undefined;
  }
  const v = Number(opts[key]);
  if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v)))
    throw new UsageError(`--${key} must be ${integer ? 'a whole number' : 'a number'} >= ${min} (got "${opts[key]}")`);
  return v;
}

function workloadRequest(opts) {
  if (opts.preset && opts.workload) throw new UsageError('give --preset or --workload, not both');
  let req;
  if (opts.preset) req = { preset: opts.preset };
  else if (opts.workload) {
    const w = parseJson(readText(opts.workload), opts.workload);
    req = { workload: w && w.workload ? w.workload : w };
  } else throw new UsageError('give --preset ID or --workload FILE');
  // --software overrides the workload's (or preset's) software stack; beside a preset it is a workload override.
  if (opts.software !== undefined) {
    if (opts.software !== 'tuned' && opts.software !== 'typical') throw new UsageError(`--software must be tuned or typical (got "${opts.software}")`);
    req.workload = { ...(req.workload && typeof req.workload === 'object' ? req.workload : {}), software: opts.software };
  }
  return req;
}

function loadBundle() {
  const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
  const dir = path.join(root, 'data/catalog');
  const catalogs = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ file: f, doc: read(`data/catalog/${f}`) }));
  return { gpus: read('data/gpus.json'), presets: read('data/presets.json'), catalogs };
}

// The date prices are judged stale against: GPUVALUE_TODAY (YYYY-MM-DD, for reproducible answers) or the clock.
function today() {
  const t = process.env.GPUVALUE_TODAY;
  if (t === undefined || t === '') return todayIso();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(t) || Number.isNaN(Date.parse(`${t}T00:00:00Z`)) || new Date(`${t}T00:00:00Z`).toISOString().slice(0, 10) !== t)
    throw new UsageError(`GPUVALUE_TODAY must be a date YYYY-MM-DD (got "${t}")`);
  return t;
}

async function engine() {
  const modulePath = path.join(root, 'dist/engine/gpuvalue_engine.cjs');
  if (!fs.existsSync(modulePath)) throw new UsageError('the engine is not built yet: run `npm run build`');
  const factory = createRequire(import.meta.url)(modulePath);
  return createEngine(factory, loadBundle(), { today: today() });
}

function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.title.length, ...rows.map((r) => String(c.get(r)).length)));
  const line = (cells) => cells.map((s, i) => (columns[i].right ? String(s).padStart(widths[i]) : String(s).padEnd(widths[i]))).join('  ');
  return [line(columns.map((c) => c.title)), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => c.get(r))))].join('\n');
}

const fmtH = (h) => (h >= 48 ? `${(h / 24).toFixed(1)} d` : `${h.toFixed(1)} h`);

function out(opts, obj, human) {
  process.stdout.write(opts.json ? `${JSON.stringify(obj, null, 2)}\n` : `${human()}\n`);
}

// ---- decision tools (advise, plan, mig, levers, compare, energy, tco) ----

const pct = (x, d = 1) => `${(x * 100).toFixed(d)} %`;
const usd = (x) => (x === null || x === undefined ? '-' : Math.abs(x) < 100 ? `$${x.toFixed(2)}` : `$${Math.round(x).toLocaleString('en-US')}`);
const withoutOk = (r) => { const { ok, ...rest } = r; return rest; };

function readJsonFile(file) {
  return parseJson(readText(file), file);
}

function put(req, opts, key, field, numberOpts) {
  const v = number(opts, key, numberOpts);
  if (v !== undefined) req[field] = v;
}

function adviseText(r) {
  const mm = r.memory_model;
  const lines = [
    `${r.params.toExponential(2)} parameters, ${r.tokens.toExponential(2)} tokens (${r.tokens_source}), stage ${r.stage} -> ${r.stage_billing.pricing}`,
    `article §4.1:  ${r.article.rule}`,
    `memory model:  ${mm.gpu_class ? `${mm.gpu_count}× ${mm.gpu_class} (${mm.sharding})` : 'nothing fits'} — ${mm.agrees_with_article ? 'agrees with the article' : 'DISAGREES with the article'}`,
    '',
    'recommendations:',
  ];
  r.recommendations.forEach((x, i) => {
    lines.push(`  ${i + 1}. [${x.role}] ${x.gpu_count}× ${x.gpu} (${x.sharding}), ${x.pricing}${x.offer ? ` on ${x.offer.instances}× ${x.offer.instance} (${x.offer.provider})` : ''}: ${fmtH(x.time_hours)}, ${usd(x.cost_usd)}`);
    lines.push(`     ${x.reason}`);
  });
  lines.push('', table(r.ladder, [
    { title: 'class', get: (x) => x.gpu_class },
    { title: 'fits', get: (x) => (x.fits ? `${x.gpu_count} GPUs` : 'no') },
    { title: 'sharding', get: (x) => x.sharding ?? '-' },
    { title: 'GB/GPU', get: (x) => (x.memory ? `${x.memory.required_gb_per_gpu.toFixed(1)}/${x.memory.available_gb_per_gpu.toFixed(1)}` : '-'), right: true },
    { title: 'time', get: (x) => (x.time_hours ? fmtH(x.time_hours) : '-'), right: true },
    { title: 'pricing', get: (x) => x.pricing ?? '-' },
    { title: 'cost', get: (x) => (x.cost_usd ? usd(x.cost_usd) : '-'), right: true },
  ]));
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

function planText(r) {
  const lines = [
    `mix: ${pct(r.mix.reserved)} reserved (${r.reserved_gpus} GPUs, ${pct(r.reserved_utilisation, 0)} used), ${pct(r.mix.on_demand)} on-demand, ${pct(r.mix.spot)} spot`,
    `yearly cost ${usd(r.annual_cost_usd)} vs ${usd(r.on_demand_only_cost_usd)} all on-demand: ${pct(r.saving)} saved; completion ${pct(r.completion_rate, 2)} (target ${pct(r.target_completion_rate, 2)})`,
  ];
  if (r.article_claim) lines.push(`article claim: ${pct(r.article_claim.saving, 0)} saved at ${pct(r.article_claim.completion_rate)} completion (${r.article_claim.source})`);
  lines.push('', ...r.findings.map((f) => `- ${f}`), '', 'assumptions:');
  for (const [k, v] of Object.entries(r.assumptions)) lines.push(`  ${k}: ${typeof v.value === 'number' ? +v.value.toPrecision(6) : v.value} — ${v.source}`);
  return lines.join('\n');
}

function migText(r) {
  const lines = [`${r.jobs} job(s) on ${r.gpu_name}: ${r.fits ? 'all fit' : `${r.unplaced_jobs.length} do NOT fit`} on ${r.gpus_needed} GPU(s)`];
  for (const g of r.layout) {
    const counts = {};
    for (const p of g.profiles) counts[p] = (counts[p] || 0) + 1;
    lines.push(`  GPU ${g.gpu_index}: ${Object.entries(counts).map(([p, n]) => `${n}× ${p}`).join(' + ')}  (${g.compute_slices_used}/7 compute, ${g.memory_slices_used}/8 memory slices, ${fmtH(g.hours)})`);
  }
  lines.push(r.offer ? `cost ${usd(r.cost_usd)}, ${usd(r.cost_per_job_usd)} per job on ${r.offer.instance} (${r.offer.provider}, ${usd(r.offer.usd_per_hour)}/h, as of ${r.offer.as_of})` : 'no on-demand offer for this GPU in the catalog');
  lines.push('', table(r.alternatives, [
    { title: 'alternative', get: (x) => x.option },
    { title: 'fits', get: (x) => (x.fits ? 'yes' : `${x.jobs_that_fit}/${r.jobs}`) },
    { title: 'GPUs', get: (x) => x.gpus_needed, right: true },
    { title: 'cost', get: (x) => usd(x.cost_usd), right: true },
    { title: '$/job', get: (x) => usd(x.cost_per_job_usd), right: true },
    { title: 'offer', get: (x) => (x.offer ? x.offer.instance : '-') },
  ]), `cheapest: ${r.cheapest_option}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

function leversText(r) {
  const b = r.baseline;
  const lines = [`${r.workload} on ${r.instance} (${r.pricing}): ${b.gpu_count} GPUs, ${b.precision}, ${fmtH(b.time_hours)}, ${usd(b.cost_usd)}`, ''];
  lines.push(table(r.levers, [
    { title: 'lever', get: (x) => x.lever },
    { title: 'time before -> after', get: (x) => (x.applicable ? `${fmtH(x.before.time_hours)} -> ${fmtH(x.after.time_hours)}` : '-') },
    { title: 'cost before -> after', get: (x) => (x.applicable ? `${usd(x.before.cost_usd)} -> ${usd(x.after.cost_usd)}` : '-') },
    { title: 'speed', get: (x) => (x.speedup ? `${x.speedup.toFixed(2)}×` : '-'), right: true },
    { title: 'cost', get: (x) => (x.cost_ratio ? `${x.cost_ratio.toFixed(2)}×` : '-'), right: true },
  ]), '');
  for (const l of r.levers) lines.push(`${l.lever}: ${l.note}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

function compareText(r) {
  const lines = [`${r.workload}, ${r.pricing} (baseline: ${r.configs[r.baseline].label})`, table(r.configs, [
    { title: 'config', get: (x) => x.label },
    { title: 'instance', get: (x) => x.instance || '-' },
    { title: '$/h', get: (x) => x.usd_per_hour.toFixed(2), right: true },
    { title: 'time', get: (x) => fmtH(x.time_hours), right: true },
    { title: 'cost', get: (x) => usd(x.cost_usd), right: true },
    { title: 'speed-up', get: (x) => `${x.speedup_vs_baseline.toFixed(2)}×`, right: true },
    { title: 'cost ratio', get: (x) => `${x.cost_ratio_vs_baseline.toFixed(2)}×`, right: true },
  ]), ''];
  for (const c of r.configs) lines.push(`${c.label}: ${c.explanation}${c.note ? ` (${c.note})` : ''}`);
  if (r.article_claim) lines.push('', `article: ${r.article_claim.claim}`, `model:   ${r.article_claim.finding}`);
  return lines.join('\n');
}

function energyText(r) {
  const c = r.cooling_comparison;
  return [
    `${r.gpu_count}× ${r.gpu} for ${fmtH(r.hours)} (${r.hours_source}) at ${r.power_w} W × ${r.utilisation} utilisation, PUE ${r.pue}`,
    `energy ${r.facility_energy_kwh.toFixed(1)} kWh (IT ${r.it_energy_kwh.toFixed(1)} kWh), ${usd(r.energy_cost_usd)}, ${r.co2_kg.toFixed(1)} kg CO2`,
    `air PUE ${c.air.pue}: ${c.air.facility_energy_kwh.toFixed(1)} kWh · liquid PUE ${c.liquid.pue}: ${c.liquid.facility_energy_kwh.toFixed(1)} kWh (${pct(c.liquid_energy_saving)} less)`,
    `article: PUE ${c.article_claim.pue}, ${pct(c.article_claim.energy_saving, 0)} less energy — ${c.article_claim.finding}`,
    'assumptions:',
    ...Object.entries(r.assumptions).map(([k, v]) => `  ${k}: ${v.value} — ${v.source}`),
  ].join('\n');
}

function tcoText(r) {
  return [
    `own ${r.gpu_count}× ${r.gpu}: ${usd(r.purchase_usd)} over ${r.amortisation_years} years = ${usd(r.capex_usd_per_year)}/year + energy up to ${usd(r.energy_usd_per_year_at_full_load)}/year; rent ${usd(r.rent_usd_per_gpu_hour)}/GPU-h`,
    r.verdict,
    table(r.points, [
      { title: 'utilisation', get: (x) => pct(x.utilisation, 0), right: true },
      { title: 'own $/year', get: (x) => usd(x.own_usd_per_year), right: true },
      { title: 'rent $/year', get: (x) => usd(x.rent_usd_per_year), right: true },
      { title: 'own $/used GPU-h', get: (x) => usd(x.own_usd_per_used_gpu_hour), right: true },
      { title: 'cheaper', get: (x) => x.cheaper },
    ]),
    'assumptions:',
    ...Object.entries(r.assumptions).map(([k, v]) => `  ${k}: ${v.value} — ${v.source}`),
  ].join('\n');
}

function hardwareRequest(opts) {
  if (opts.gpu && opts.instance) throw new UsageError('give --gpu or --instance, not both');
  if (!opts.gpu && !opts.instance) throw new UsageError('give --gpu GPU_ID or --instance ID');
  const req = opts.gpu ? { gpu: opts.gpu } : { instance: opts.instance };
  put(req, opts, 'count', 'count', { integer: true, min: 1 });
  if (opts.cooling) req.cooling = opts.cooling;
  put(req, opts, 'pue', 'pue', { min: 1 });
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

// The command line of each engine method, by method name (the dispatch table is the engine's: `unknown command`
// lists its methods). A command named otherwise than its method is in COMMAND_METHODS.
const COMMAND_METHODS = { import: 'importSkypilot' };
const COMMANDS = {
  validate: async (opts, e) => {
    const files = opts._.slice(1);
    if (!files.length) throw new UsageError('validate needs at least one FILE');
    let bad = 0;
    for (const f of files) {
      let text;
      try { text = readText(f); } catch (err) {
        if (!(err instanceof GpuvalueError)) throw err;
        console.error(err.message);
        bad++;
        continue;
      }
      const r = e.validate(text);
      const warnings = (r.issues || []).filter((i) => i.warning);
      if (r.ok) console.log(`${f}: ok (${r.count} ${r.kind === 'gpus' ? 'GPUs' : 'records'}${warnings.length ? `, ${warnings.length} warnings` : ''})`);
      else {
        bad++;
        for (const i of r.issues) console.error(`${f}: ${i.path || '/'}: ${i.message}${i.warning ? ' (warning)' : ''}`);
      }
    }
    return bad ? 1 : 0;
  },
  importSkypilot: async (opts, e, sub) => {
    if (sub !== 'skypilot' || !opts._[2]) throw new UsageError('usage: gpuvalue import skypilot FILE.csv');
    const file = opts._[2];
    const r = e.importSkypilot(readText(file), { provider: opts.provider || '', as_of: opts['as-of'] || undefined, source: `SkyPilot catalog ${path.basename(file)}` });
    for (const i of r.issues || []) console.error(`${file}: ${i.path ? `${i.path}: ` : ''}${i.message}`);
    if (!r.ok) return 1;
    process.stdout.write(`${JSON.stringify(r.catalog, null, 2)}\n`);
    console.error(`${file}: ${r.rows} rows -> ${r.offers} offers, ${r.skipped_rows} rows skipped`);
    return 0;
  },
  estimate: async (opts, e) => {
    const req = { ...workloadRequest(opts), gpu: opts.gpu, count: number(opts, 'count', { integer: true, min: 1 }) ?? 1 };
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
    if (opts.catalog.length) {
      const docs = opts.catalog.map((f) => parseJson(readText(f), f));
      const lr = e.loadCatalog(JSON.stringify(docs));
      if (!lr.ok) {
        for (const i of lr.issues) {
          const [, idx, rest] = /^\/(\d+)(.*)$/.exec(i.path) || [null, null, i.path];
          console.error(`${idx !== null ? opts.catalog[Number(idx)] : 'catalog'}: ${rest || '/'}: ${i.message}`);
        }
        return 1;
      }
    }
    const req = { ...workloadRequest(opts), pricing: opts.pricing || 'all', filters: {} };
    if (opts['fits-only']) req.filters.fits_only = true;
    const budget = number(opts, 'budget');
    if (budget !== undefined) req.filters.budget_usd = budget;
    const deadline = number(opts, 'deadline');
    if (deadline !== undefined) req.filters.deadline_hours = deadline;
    const limit = number(opts, 'limit', { integer: true });
    if (limit !== undefined) req.limit = limit;
    const r = e.rank(req);
    const results = r.results.map((x) => ({
      instance: x.instance, id: x.id, provider: x.provider, region: x.region, gpu: x.gpu, gpu_count: x.gpu_count, nodes: x.nodes,
      total_gpus: x.total_gpus, pricing: x.pricing, fits: x.fits, time_hours: x.time_hours, cost_usd: x.cost_usd,
      usd_per_tflops_day: x.usd_per_tflops_day, score: x.score, pareto: x.pareto, as_of: x.as_of, source: x.source,
      reasons: x.reasons, warnings: x.warnings, plan: x.plan,
    }));
    out(opts, { workload: r.workload, evaluated_offers: r.evaluated_offers, fitting_count: r.fitting_count, results }, () => {
      const rows = opts.limit ? results : results.slice(0, 25);
      return `${r.workload.name}: ${r.fitting_count} of ${r.result_count} offers fit (${r.workload.total_flops.toExponential(2)} FLOPs)\n` + table(rows, [
        { title: '#', get: (x) => results.indexOf(x) + 1, right: true },
        { title: 'instance', get: (x) => x.instance },
        { title: 'provider', get: (x) => `${x.provider} ${x.region}` },
        { title: 'GPUs', get: (x) => `${x.total_gpus}x ${x.gpu}` },
        { title: 'pricing', get: (x) => x.pricing },
        { title: 'fits', get: (x) => (x.fits ? 'yes' : 'no') },
        { title: 'time', get: (x) => fmtH(x.time_hours), right: true },
        { title: 'cost $', get: (x) => x.cost_usd.toFixed(0), right: true },
        { title: '$/TFLOPS·day', get: (x) => x.usd_per_tflops_day.toFixed(4), right: true },
        { title: 'score', get: (x) => x.score.toFixed(3), right: true },
      ]) + (rows.length < results.length ? `\n… ${results.length - rows.length} more (--limit N or --json)` : '');
    });
    return 0;
  },
  cost: async (opts, e) => {
    if (!opts.instance) throw new UsageError('--instance is required');
    const req = { instance: opts.instance, hours: number(opts, 'hours', { required: true }), pricing: opts.pricing || 'on_demand' };
    const nodes = number(opts, 'nodes', { integer: true, min: 1 });
    if (nodes !== undefined) req.nodes = nodes;
    const r = e.cost(req);
    const o = { instance: r.instance, id: r.id, provider: r.provider, pricing: r.pricing, hours: r.hours, nodes: r.nodes, billed_hours: r.billed_hours,
      cost_usd: r.cost_usd, usd_per_hour: r.usd_per_hour, usd_per_tflops_day: r.usd_per_tflops_day, as_of: r.as_of, source: r.source, warnings: r.warnings };
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
    const req = { params: number(opts, 'params', { required: true }) };
    put(req, opts, 'tokens', 'tokens');
    put(req, opts, 'deadline', 'deadline_hours');
    if (opts.stage) req.stage = opts.stage;
    if (opts.mode) req.mode = opts.mode;
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
  mig: async (opts, e) => {
    if (!opts.gpu) throw new UsageError('--gpu is required');
    if (!opts.jobs) throw new UsageError('--jobs is required (e.g. 7x8gb)');
    const r = e.mig({ gpu: opts.gpu, jobs: opts.jobs });
    out(opts, withoutOk(r), () => migText(r));
    return 0;
  },
  levers: async (opts, e) => {
    if (!opts.instance) throw new UsageError('--instance is required');
    const req = { ...workloadRequest(opts), instance: opts.instance };
    if (opts.pricing) req.pricing = opts.pricing;
    if (opts.precision) req.precision = opts.precision;
    const r = e.levers(req);
    out(opts, withoutOk(r), () => leversText(r));
    return 0;
  },
  compare: async (opts, e) => {
    if (opts.config.length < 2 || opts.config.length > 4) throw new UsageError('compare needs 2 to 4 --config');
    const gpuIds = new Set(e.gpus().flatMap((g) => [g.id, ...(g.aliases || [])].map((x) => x.toLowerCase())));
    const req = { ...workloadRequest(opts), configs: opts.config.map((c) => compareConfig(c, gpuIds)) };
    if (opts.pricing) req.pricing = opts.pricing;
    put(req, opts, 'baseline', 'baseline', { integer: true });
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
    const req = hardwareRequest(opts);
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

async function main(argv) {
  const opts = parseArgs(argv);
  const [cmd, sub] = opts._;
  if (!cmd || opts.help) {
    console.log(USAGE);
    return cmd || opts.help ? 0 : 2;
  }
  const e = await engine();
  const method = COMMAND_METHODS[cmd] ?? cmd;
  const names = e.methodList.map((m) => m.name);
  if (!names.includes(method)) throw new UsageError(`unknown command "${cmd}" (the engine's methods: ${names.join(', ')})`);
  if (!COMMANDS[method]) throw new UsageError(`the engine method "${method}" has no command line`);
  return COMMANDS[method](opts, e, sub);
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  if (err instanceof UsageError) {
    console.error(`gpuvalue: ${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (err instanceof GpuvalueError) {
    console.error(`gpuvalue: ${err.message}`);
    for (const i of err.issues.filter((x) => !x.warning).slice(1)) console.error(`gpuvalue: ${i.path || '/'}: ${i.message}`);
    process.exitCode = 1;
  } else {
    console.error(`gpuvalue: ${err && err.stack ? err.stack : err}`);
    process.exitCode = 1;
  }
});
