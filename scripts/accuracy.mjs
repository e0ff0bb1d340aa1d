#!/usr/bin/env node
// Compares the engine's throughput predictions with published measurements (data/measurements.json).
//   node scripts/accuracy.mjs            summary: median |error| on the calibration and held-out splits
//   node scripts/accuracy.mjs --write    also writes docs/accuracy.md (the full comparison table)
//   node scripts/accuracy.mjs --fit      fits the model constants on the calibration split only and prints them
//   node scripts/accuracy.mjs --json     machine-readable summary
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../web/src/engine/client.js';
import { dataBundle } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const measurements = JSON.parse(fs.readFileSync(path.join(root, 'data/measurements.json'), 'utf8')).measurements;

// Per-node network of the published systems (vendor system guides): DGX A100 has 8 x 200 Gb/s HDR
// InfiniBand; DGX H100/B200 8 x 400 Gb/s NDR; MosaicML's clusters 1600 Gb/s RoCE; Frontier 4 x 200 Gb/s Slingshot-11.
const NETWORK_GBPS = { 'infiniband-200g': 1600, 'roce-1600g': 1600, infiniband: 3200, 'slingshot-11': 800, unspecified: 3200 };

export function requestFor(m) {
  const count = m.gpu_count;
  const perNode = Math.max(1, Math.round(count / (m.nodes || 1)));
  const req = { gpu: m.gpu, count, gpus_per_node: perNode, precision: m.precision };
  if (m.interconnect) req.interconnect = m.interconnect;
  if ((m.nodes || 1) > 1) { req.network_gbps = NETWORK_GBPS[m.network] ?? 1600; req.rdma = true; }
  if (m.workload === 'resnet50') {
    req.preset = 'resnet50-imagenet';
    if (m.batch_per_gpu) req.workload = { batch_per_gpu: m.batch_per_gpu };
  } else if (m.workload === 'bert-large-squad') {
    req.preset = 'bert-large-squad';
  } else {
    const p = m.workload_params || {};
    const w = { kind: 'transformer', params: p.params, tokens: 1e12, seq_len: p.seq_len || 2048, mode: 'pretrain' };
    if (p.hidden) w.hidden = p.hidden;
    if (p.layers) w.layers = p.layers;
    if (p.heads) w.heads = p.heads;
    if (p.micro_batch) w.micro_batch = p.micro_batch;
    else if (m.batch_per_gpu && m.workload !== 'bert-large-pretrain') w.micro_batch = m.batch_per_gpu;
    if (p.global_batch) w.global_batch_tokens = p.global_batch * w.seq_len;
    else if (m.batch_per_gpu) w.global_batch_tokens = m.batch_per_gpu * count * w.seq_len;
    w.activation_checkpointing = p.activation_checkpointing === true || m.flops_convention === 'hardware_incl_recompute';
    if (p.mode === 'lora') w.mode = 'lora';
    else if (p.mode === 'sft' || p.mode === 'finetune') w.mode = 'finetune';
    const par = p.parallelism || {};
    if (par.tp || par.pp) {
      w.tensor_parallel = par.tp || 1;
      w.pipeline_parallel = par.pp || 1;
      w.zero_stage = par.fsdp ? 3 : 1;
    } else if (par.fsdp) {
      w.zero_stage = 3;
    }
    req.workload = w;
  }
  return req;
}

function predict(engine, m, constants) {
  const req = requestFor(m);
  if (constants) req.constants = constants;
  const r = engine.estimate(req);
  if (m.metric === 'samples_per_s') return r.throughput.samples_per_s;
  if (m.metric === 'tokens_per_s') return r.throughput.tokens_per_s;
  // tflops_per_gpu: the engine's effective TFLOPS counts hardware FLOPs (recomputation included when on).
  if (m.flops_convention === 'hardware_incl_recompute') return r.throughput.effective_tflops_per_gpu;
  // "model" (and unspecified) FLOPs exclude recomputation: scale by model/hardware FLOPs of the same job.
  const noRecompute = { ...req, workload: { ...req.workload, activation_checkpointing: false } };
  const model = engine.estimate(noRecompute).total_flops;
  return r.throughput.effective_tflops_per_gpu * (model / r.total_flops);
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };

export function evaluate(engine, constants) {
  return measurements.map((m) => {
    let pred = NaN, error = null;
    try { pred = predict(engine, m, constants); } catch (e) { error = e.message; }
    return { m, pred, err: Number.isFinite(pred) && pred > 0 ? pred / m.value - 1 : NaN, error };
  });
}

export function summarise(rows) {
  const by = (f) => rows.filter(f).map((r) => Math.abs(r.err)).filter(Number.isFinite);
  const out = { calibration: median(by((r) => r.m.split === 'calibration')), holdout: median(by((r) => r.m.split === 'holdout')),
    all: median(by(() => true)), n: rows.length, failed: rows.filter((r) => !Number.isFinite(r.err)).length, by_workload: {} };
  for (const w of [...new Set(rows.map((r) => r.m.workload))]) out.by_workload[w] = median(by((r) => r.m.workload === w));
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const factory = createRequire(import.meta.url)(path.join(root, 'dist/engine/gpuvalue_engine.cjs'));
  const engine = await createEngine(factory, dataBundle(root), { today: '2026-12-02' });
  if (args.includes('--fit')) {
    // Coordinate descent on log-scale multipliers, minimising the median |log(pred/actual)| on the
    // calibration split (plus a small mean term so that the optimum is unique). Held-out rows are not used.
    const defaults = engine.defaults().constants;
    const keys = ['compute_eff_transformer', 'compute_eff_cnn', 'bytes_per_flop_transformer', 'bytes_per_flop_cnn', 'fp32_eff_factor',
      'fp8_eff_factor', 'arch_volta', 'arch_ampere', 'arch_ampere_gddr', 'arch_ada', 'arch_hopper', 'arch_blackwell', 'arch_cdna2'];
    const c = { ...defaults };
    const loss = (cc) => {
      const rows = evaluate(engine, cc).filter((r) => r.m.split === 'calibration');
      const l = rows.map((r) => (Number.isFinite(r.err) ? Math.abs(Math.log(1 + r.err)) : 5));
      return median(l) + 0.25 * l.reduce((s, x) => s + x, 0) / l.length;
    };
    let best = loss(c);
    for (let round = 0; round < 6; round++) {
      for (const k of keys) {
        for (const f of [1.25, 0.8, 1.1, 0.91, 1.04, 0.96]) {
          const t = { ...c, [k]: c[k] * f };
          if (k.startsWith('compute_eff') || k.endsWith('_factor')) t[k] = Math.min(t[k], 1);
          if (k.startsWith('arch_')) t[k] = Math.min(t[k], 2);
          const l = loss(t);
          if (l < best - 1e-6) { best = l; Object.assign(c, t); }
        }
      }
      console.error(`round ${round}: loss ${best.toFixed(4)}`);
    }
    const fitted = Object.fromEntries(keys.map((k) => [k, Number(c[k].toPrecision(3))]));
    console.log(JSON.stringify(fitted, null, 2));
    const s = summarise(evaluate(engine, fitted));
    console.log(`with fitted constants: calibration median |error| ${(s.calibration * 100).toFixed(1)} %, holdout ${(s.holdout * 100).toFixed(1)} %`);
    return;
  }
  const rows = evaluate(engine);
  const s = summarise(rows);
  if (args.includes('--json')) { console.log(JSON.stringify(s, null, 2)); return; }
  console.log(`measurements: ${s.n} (${s.failed} not predicted)`);
  console.log(`median |error| calibration ${(s.calibration * 100).toFixed(1)} %, held-out ${(s.holdout * 100).toFixed(1)} %, all ${(s.all * 100).toFixed(1)} %`);
  for (const [w, v] of Object.entries(s.by_workload)) console.log(`  ${w.padEnd(22)} ${(v * 100).toFixed(1)} %`);
  if (args.includes('--write')) {
    const pct = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %` : 'n/a');
    const fmt = (x) => (x >= 1000 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3));
    const lines = [
      '# Accuracy of the throughput model',
      '',
      'Generated by `node scripts/accuracy.mjs --write` (after `npm run build`); do not edit by hand.',
      '',
      'Each row is a published measurement from `data/measurements.json` (sources in `docs/measurements-sources.md`),',
      'predicted by the engine from the same GPU, GPU count, nodes, precision and workload shape. The model constants',
      '(`core/src/model/performance.hpp`) were fitted with `node scripts/accuracy.mjs --fit` on the',
      '**calibration** rows only; the **held-out** rows (every 4th by id) were never used for fitting.',
      '',
      `| split | rows | median absolute error |`,
      '|---|---|---|',
      `| calibration | ${rows.filter((r) => r.m.split === 'calibration').length} | ${(s.calibration * 100).toFixed(1)} % |`,
      `| held-out | ${rows.filter((r) => r.m.split === 'holdout').length} | ${(s.holdout * 100).toFixed(1)} % |`,
      `| all | ${rows.length} | ${(s.all * 100).toFixed(1)} % |`,
      '',
      '| workload | median absolute error |',
      '|---|---|',
      ...Object.entries(s.by_workload).map(([w, v]) => `| ${w} | ${(v * 100).toFixed(1)} % |`),
      '',
      '## Every measurement',
      '',
      '| id | split | GPU | count | precision | metric | published | predicted | error |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.m.id} | ${r.m.split} | ${r.m.gpu} | ${r.m.gpu_count} | ${r.m.precision} | ${r.m.metric} | ${fmt(r.m.value)} | ${Number.isFinite(r.pred) ? fmt(r.pred) : r.error} | ${pct(r.err)} |`),
      '',
    ];
    fs.writeFileSync(path.join(root, 'docs/accuracy.md'), lines.join('\n'));
    console.log('wrote docs/accuracy.md');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
