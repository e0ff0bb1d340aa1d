#!/usr/bin/env node
// gpuvalue command line: a thin layer over the same wasm engine the page uses.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createEngine, GpuvalueError } from '../web/src/engine-client.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: gpuvalue <command> [options]

commands:
  estimate (--preset ID | --workload FILE) --gpu GPU_ID --count N [--precision P] [--json]
  rank     (--preset ID | --workload FILE) [--catalog FILE]... [--pricing on_demand|reserved|spot|tiered|all]
           [--fits-only] [--budget USD] [--deadline HOURS] [--limit N] [--json]
  cost     --instance ID --hours H [--pricing MODEL] [--nodes N] [--json]
  validate FILE...
  import skypilot FILE.csv [--provider NAME] [--as-of YYYY-MM-DD]
  presets | gpus  [--json]

Prices are USD. Exit status: 0 ok, 1 bad input (message on stderr), 2 usage error.`;

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { _: [], catalog: [] };
  const flags = new Set(['json', 'fits-only', 'help']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (flags.has(k)) { opts[k] = true; continue; }
      const v = inline !== undefined ? inline : argv[++i];
      if (v === undefined) throw new UsageError(`--${k} needs a value`);
      if (k === 'catalog') opts.catalog.push(v);
      else opts[k] = v;
    } else opts._.push(a);
  }
  return opts;
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
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
  if (opts.preset) return { preset: opts.preset };
  if (opts.workload) {
    let w;
    try { w = JSON.parse(readText(opts.workload)); } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new GpuvalueError({ error: { code: 'json_syntax', path: opts.workload, message: `${opts.workload}: not valid JSON: ${e.message}` } });
    }
    return { workload: w && w.workload ? w.workload : w };
  }
  throw new UsageError('give --preset ID or --workload FILE');
}

function loadBundle() {
  const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
  const dir = path.join(root, 'data/catalog');
  const catalogs = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ file: f, doc: read(`data/catalog/${f}`) }));
  return { gpus: read('data/gpus.json'), presets: read('data/presets.json'), catalogs };
}

async function engine() {
  const modulePath = path.join(root, 'dist/engine/gpuvalue_engine.cjs');
  if (!fs.existsSync(modulePath)) throw new UsageError('the engine is not built yet: run `npm run build`');
  const factory = createRequire(import.meta.url)(modulePath);
  return createEngine(factory, loadBundle());
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

async function main(argv) {
  const opts = parseArgs(argv);
  const [cmd, sub] = opts._;
  if (!cmd || opts.help) {
    console.log(USAGE);
    return cmd || opts.help ? 0 : 2;
  }
  if (cmd === 'validate') {
    const files = opts._.slice(1);
    if (!files.length) throw new UsageError('validate needs at least one FILE');
    const e = await engine();
    let bad = 0;
    for (const f of files) {
      const r = e.validate(readText(f));
      const warnings = (r.issues || []).filter((i) => i.warning);
      if (r.ok) console.log(`${f}: ok (${r.count} ${r.kind === 'gpus' ? 'GPUs' : 'records'}${warnings.length ? `, ${warnings.length} warnings` : ''})`);
      else {
        bad++;
        for (const i of r.issues) console.error(`${f}: ${i.path || '/'}: ${i.message}${i.warning ? ' (warning)' : ''}`);
      }
    }
    return bad ? 1 : 0;
  }
  if (cmd === 'import') {
    if (sub !== 'skypilot' || !opts._[2]) throw new UsageError('usage: gpuvalue import skypilot FILE.csv');
    const e = await engine();
    const file = opts._[2];
    const r = e.importSkypilot(readText(file), { provider: opts.provider || '', as_of: opts['as-of'] || undefined, source: `SkyPilot catalog ${path.basename(file)}` });
    for (const i of r.issues || []) console.error(`${file}: ${i.path ? `${i.path}: ` : ''}${i.message}`);
    if (!r.ok) return 1;
    process.stdout.write(`${JSON.stringify(r.catalog, null, 2)}\n`);
    console.error(`${file}: ${r.rows} rows -> ${r.offers} offers, ${r.skipped_rows} rows skipped`);
    return 0;
  }
  const e = await engine();
  if (cmd === 'estimate') {
    const req = { ...workloadRequest(opts), gpu: opts.gpu, count: number(opts, 'count', { integer: true, min: 1 }) ?? 1 };
    if (!opts.gpu) throw new UsageError('--gpu is required');
    if (opts.precision) req.precision = opts.precision;
    const r = e.estimate(req);
    out(opts, r, () => [
      `${r.workload} on ${r.gpu_count}× ${r.gpu} (${r.nodes} node${r.nodes > 1 ? 's' : ''}, ${r.precision})`,
      `time to train  ${fmtH(r.time_hours)}  (band ${fmtH(r.time_hours_low)} – ${fmtH(r.time_hours_high)})`,
      `throughput     ${r.throughput.effective_tflops_per_gpu.toFixed(1)} TFLOPS/GPU effective, ${r.throughput.samples_per_s.toFixed(1)} samples/s${r.throughput.tokens_per_s ? `, ${r.throughput.tokens_per_s.toFixed(0)} tokens/s` : ''}`,
      `memory         ${r.memory.required_gb_per_gpu.toFixed(1)} of ${r.memory.available_gb_per_gpu.toFixed(1)} GB per GPU, ${r.memory.fits ? 'fits' : 'DOES NOT FIT'} (${r.memory.sharding})`,
      ...r.warnings.map((w) => `warning: ${w}`),
    ].join('\n'));
    return 0;
  }
  if (cmd === 'rank') {
    if (opts.catalog.length) {
      const docs = opts.catalog.map((f) => {
        try { return JSON.parse(readText(f)); } catch (err) {
          if (err instanceof UsageError) throw err;
          throw new GpuvalueError({ error: { code: 'json_syntax', path: f, message: `${f}: not valid JSON: ${err.message}` } });
        }
      });
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
      reasons: x.reasons, warnings: x.warnings,
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
  }
  if (cmd === 'cost') {
    if (!opts.instance) throw new UsageError('--instance is required');
    const req = { instance: opts.instance, hours: number(opts, 'hours', { required: true }), pricing: opts.pricing || 'on_demand' };
    const nodes = number(opts, 'nodes', { integer: true, min: 1 });
    if (nodes !== undefined) req.nodes = nodes;
    const r = e.cost(req);
    const o = { instance: r.instance, id: r.id, provider: r.provider, pricing: r.pricing, hours: r.hours, nodes: r.nodes, billed_hours: r.billed_hours,
      cost_usd: r.cost_usd, usd_per_hour: r.usd_per_hour, usd_per_tflops_day: r.usd_per_tflops_day, as_of: r.as_of, source: r.source, warnings: r.warnings };
    out(opts, o, () => `${r.instance} (${r.provider}) ${r.pricing} for ${r.hours} h: $${r.cost_usd.toFixed(2)}  ·  $${r.usd_per_tflops_day.toFixed(4)}/TFLOPS·day  ·  price as of ${r.as_of}`);
    return 0;
  }
  if (cmd === 'presets') {
    const p = e.presets();
    out(opts, p, () => p.map((x) => `${x.id.padEnd(22)} ${x.name?.en ?? ''}`).join('\n'));
    return 0;
  }
  if (cmd === 'gpus') {
    const g = e.gpus();
    out(opts, g, () => table(g, [
      { title: 'id', get: (x) => x.id }, { title: 'name', get: (x) => x.name },
      { title: 'GB', get: (x) => x.memory_gb, right: true }, { title: 'GB/s', get: (x) => x.memory_bandwidth_gbs, right: true },
      { title: 'FP16 TFLOPS', get: (x) => x.tflops.fp16 ?? '-', right: true }]));
    return 0;
  }
  throw new UsageError(`unknown command "${cmd}"`);
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
