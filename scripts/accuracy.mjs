#!/usr/bin/env node
// Compares the engine's throughput predictions with published measurements (data/measurements.json) under
// leave-one-source-out cross-validation (see crossValidate).
//   node scripts/accuracy.mjs            summary: LOSO median and p90 |error|, band coverage and width
//   node scripts/accuracy.mjs --write    also writes docs/accuracy.md and web/src/data/accuracy.json
//   node scripts/accuracy.mjs --fit      fits the model constants on all rows and prints them
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
// Meta's Llama 3 cluster: 400 Gb/s RoCE per GPU (Dubey et al. 2024, arXiv:2407.21783, §3.3.1); Jean Zay: 4 x 100 Gb/s
// Omni-Path per node (BLOOM paper, arXiv:2211.05100, §3.4.1).
const NETWORK_GBPS = { 'infiniband-200g': 1600, 'roce-1600g': 1600, infiniband: 3200, 'slingshot-11': 800, unspecified: 3200,
  'roce-3200g': 3200, 'omnipath-400g': 400 };

export function requestFor(m) {
  const count = m.gpu_count;
  const perNode = Math.max(1, Math.round(count / (m.nodes || 1)));
  const req = { gpu: m.gpu, count, gpus_per_node: perNode, precision: m.precision };
  const software = m.software || 'tuned';
  if (m.interconnect) req.interconnect = m.interconnect;
  if ((m.nodes || 1) > 1) { req.network_gbps = NETWORK_GBPS[m.network] ?? 1600; req.rdma = true; }
  if (m.workload === 'resnet50') {
    req.preset = 'resnet50-imagenet';
    req.workload = { software };
    if (m.batch_per_gpu) req.workload.batch_per_gpu = m.batch_per_gpu;
  } else if (m.workload === 'bert-large-squad') {
    req.preset = 'bert-large-squad';
    req.workload = { software };
    if (m.workload_params?.attention) req.workload.attention = m.workload_params.attention;
  } else {
    const p = m.workload_params || {};
    const w = { kind: 'transformer', params: p.params, tokens: 1e12, seq_len: p.seq_len || 2048, mode: 'pretrain', software };
    if (p.hidden) w.hidden = p.hidden;
    if (p.layers) w.layers = p.layers;
    if (p.heads) w.heads = p.heads;
    if (p.kv_heads) w.kv_heads = p.kv_heads;
    // Sequence binning (computed_seq_len) and attention kernels that write the scores to memory: data/measurements.json
    // conventions.
    if (p.computed_seq_len) w.computed_seq_len = p.computed_seq_len;
    if (p.attention) w.attention = p.attention;
    for (const k of ['experts', 'experts_per_token', 'shared_experts', 'expert_ffn_hidden', 'dense_layers', 'active_params'])
      if (p[k] !== undefined) w[k] = p[k];
    if (p.micro_batch) w.micro_batch = p.micro_batch;
    else if (m.batch_per_gpu && m.workload !== 'bert-large-pretrain') w.micro_batch = m.batch_per_gpu;
    if (p.global_batch) w.global_batch_tokens = p.global_batch * w.seq_len;
    else if (m.batch_per_gpu) w.global_batch_tokens = m.batch_per_gpu * count * w.seq_len;
    w.activation_checkpointing = p.activation_checkpointing === true || m.flops_convention === 'hardware_incl_recompute';
    // The recomputation the run used, where its source states it (data/measurements.json conventions: recompute).
    if (p.recompute) w.recompute = p.recompute;
    if (p.recompute_layers !== undefined) w.recompute_layers = p.recompute_layers;
    if (p.mode === 'lora') w.mode = 'lora';
    // The LoRA adapters' rank and targets and the dense FFN size, where a row states them (they size the adapters).
    for (const k of ['ffn_hidden', 'lora_rank', 'lora_targets', 'lora_trainable_params']) if (p[k] !== undefined) w[k] = p[k];
    else if (p.mode === 'sft' || p.mode === 'finetune') w.mode = 'finetune';
    const par = p.parallelism || {};
    if (par.tp || par.pp || par.cp) {
      w.tensor_parallel = par.tp || 1;
      w.pipeline_parallel = par.pp || 1;
      w.context_parallel = par.cp || 1;
      if (par.fsdp) w.zero_stage = 3;
    } else if (par.fsdp) {
      w.zero_stage = 3;
    }
    if (par.ep) w.expert_parallel = par.ep;
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
  // "model" (and unspecified) FLOPs exclude recomputation.
  return r.throughput.model_tflops_per_gpu;
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };

export function evaluate(engine, constants) {
  return measurements.map((m) => {
    let pred = NaN, error = null;
    try { pred = predict(engine, m, constants); } catch (e) { error = e.message; }
    return { m, pred, err: Number.isFinite(pred) && pred > 0 ? pred / m.value - 1 : NaN, error };
  });
}

// The document a row was published in: rows of one table are not independent, so cross-validation holds out
// whole documents (a repository at one commit and file, a paper, a documentation page).
export function sourceKey(m) {
  const src = m.source || m.id;
  const arxiv = /arXiv:\s*(\d{4}\.\d{4,5})/.exec(src);
  if (arxiv) return `arXiv:${arxiv[1]}`;
  const url = /^https?:\/\/[^\s(']+/.exec(src);
  if (url) return url[0];
  return src.split(' (')[0].split(' ')[0];
}

// Mixture-of-experts rows form their own family: their recalibration comes from the other MoE sources only.
export const family = (m) => (m.workload === 'resnet50' ? 'cnn' : m.workload === 'moe' ? 'moe' : 'transformer');
export const scaleOf = (m) => (m.gpu_count <= 1 ? '1' : m.gpu_count <= 64 ? '2-64' : '>64');
const gpuArch = Object.fromEntries(JSON.parse(fs.readFileSync(path.join(root, 'data/gpus.json'), 'utf8')).gpus.map((g) => [g.id, g.architecture]));
export const generationOf = (m) => gpuArch[m.gpu] || 'unknown';

const quantile = (a, q) => { const s = [...a].sort((x, y) => x - y); if (!s.length) return NaN; const i = (s.length - 1) * q; const lo = Math.floor(i); return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo); };
// The band's percentiles of the residual log-ratio: 10th and 90th, so that ~80 % of unseen rows fall inside.
const BAND_LOW_Q = 0.1, BAND_HIGH_Q = 0.9;

const lr = (r) => Math.log(r.m.value / r.pred);
const groupOf = (r) => `${family(r.m)}|${r.m.software || 'tuned'}`;

// The recalibration that rows give: the median log-ratio published/predicted of each workload family and software
// stack (of the family alone for a stack the rows lack).
function shiftFrom(train) {
  const shift = {};
  for (const g of new Set(train.map(groupOf))) shift[g] = median(train.filter((r) => groupOf(r) === g).map(lr));
  const famShift = {};
  for (const f of new Set(train.map((r) => family(r.m)))) famShift[f] = median(train.filter((r) => family(r.m) === f).map(lr));
  return (r) => shift[groupOf(r)] ?? famShift[family(r.m)] ?? 0;
}

// Residual log-ratios of every row predicted without its own source (recalibrated on the other sources), leaving
// out the source `exclude` altogether. Rows of one source share a bias, so residuals taken in-sample would make a band
// too narrow for a source it has not seen; these carry that source-to-source spread.
function heldOutResiduals(ok, exclude) {
  const out = [];
  for (const src of new Set(ok.map((r) => sourceKey(r.m)))) {
    if (src === exclude) continue;
    const shiftOf = shiftFrom(ok.filter((r) => { const k = sourceKey(r.m); return k !== src && k !== exclude; }));
    for (const r of ok.filter((x) => sourceKey(x.m) === src)) out.push({ r, resid: lr(r) - shiftOf(r) });
  }
  return out;
}

// The band: 10th and 90th percentile of held-out residuals.
function bandFrom(resids) {
  const rs = resids.map((x) => x.resid);
  return [quantile(rs, BAND_LOW_Q), quantile(rs, BAND_HIGH_Q)];
}

// The engine's band constants: the band of all rows' held-out residuals, as factors on throughput.
export function bandConstants(rows) {
  const [lo, hi] = bandFrom(heldOutResiduals(rows.filter((r) => Number.isFinite(r.err)), null));
  return { band_low: Number(Math.exp(lo).toFixed(3)), band_high: Number(Math.exp(hi).toFixed(3)) };
}

// Leave-one-source-out cross-validation. For each source, the rows of every other source give (a) the
// recalibration (shiftFrom) and (b) the band: the percentiles of their own held-out residuals, computed without the
// held-out source too. The held-out source's rows are then predicted with that recalibration and judged against
// that band.
export function crossValidate(rows) {
  const ok = rows.filter((r) => Number.isFinite(r.err));
  const out = [];
  for (const src of new Set(ok.map((r) => sourceKey(r.m)))) {
    const shiftOf = shiftFrom(ok.filter((r) => sourceKey(r.m) !== src));
    const [lo, hi] = bandFrom(heldOutResiduals(ok, src));
    for (const r of ok.filter((x) => sourceKey(x.m) === src)) {
      const pred = r.pred * Math.exp(shiftOf(r));
      out.push({ ...r, source: src, cv_pred: pred, cv_err: pred / r.m.value - 1, low: pred * Math.exp(lo), high: pred * Math.exp(hi),
        covered: r.m.value >= pred * Math.exp(lo) && r.m.value <= pred * Math.exp(hi), width: Math.exp(hi - lo) });
    }
  }
  return out;
}

// ---- Calibration on a user's measurement: how far a correction carries (ModelConstants calib_*) ----
// A user's measurement on configuration A fixes the model's error there; on configuration B the prediction is then
// off by how differently the model errs on B than on A. Pairs of rows that ONE source published for ONE workload
// (same model, sequence length, precision, mode and software stack) measure exactly that: with r = published /
// predicted (each row's leave-one-source-out prediction, crossValidate), r_B / r_A over every ordered pair is the error
// left on B after calibrating on A. The pairs are grouped by distance:
//   measured           the same GPU and count in another row (another batch size or setting of the same table: what
//                      separates the measured run from the job run later with its own settings)
//   same_gpu           the same GPU at another GPU count (other node counts, other parallel layouts)
//   same_architecture  another GPU of the same architecture (data/gpus.json)
//   other_architecture another architecture
// Each band is the 10th and 90th percentile of its ratios, as the model's own band is of its held-out residuals.

// One workload as published: the same model and shape, precision, mode and software stack.
function workloadKey(m) {
  const p = m.workload_params || {};
  return [m.workload, p.model ?? p.params ?? '', p.seq_len ?? '', m.precision, p.mode ?? 'pretrain', m.software || 'tuned'].join('|');
}

// r_B / r_A of every ordered pair of rows, grouped by the distance `distanceOf` gives (null: not a pair).
function pairRatios(rows, distanceOf) {
  const out = { measured: [], same_gpu: [], same_architecture: [], other_architecture: [] };
  for (let i = 0; i < rows.length; i++) {
    for (let j = 0; j < rows.length; j++) {
      if (i === j) continue;
      const d = distanceOf(rows[i].m, rows[j].m);
      if (d) out[d].push(rows[j].ratio / rows[i].ratio);
    }
  }
  return out;
}

// How far configuration b is from a, for rows of one source and workload (null otherwise).
function distanceOf(a, b) {
  if (workloadKey(a) !== workloadKey(b)) return null;
  const sameSource = sourceKey(a) === sourceKey(b);
  if (!sameSource) return null;
  if (a.gpu === b.gpu && a.gpu_count === b.gpu_count) return 'measured';
  if (a.gpu === b.gpu) return 'same_gpu';
  return generationOf(a) === generationOf(b) ? 'same_architecture' : 'other_architecture';
}

// The band of each distance over the cross-validated rows, and the median |error| left after calibrating:
// {distance: {pairs, low, high, median_error}}.
export function calibrationBands(cv) {
  const ratios = cv.filter((r) => Number.isFinite(r.cv_pred) && r.cv_pred > 0).map((r) => ({ m: r.m, ratio: r.m.value / r.cv_pred }));
  const pairs = pairRatios(ratios, distanceOf);
  return Object.fromEntries(Object.entries(pairs).map(([d, list]) => [d, {
    pairs: list.length, low: Number(quantile(list, BAND_LOW_Q).toFixed(3)), high: Number(quantile(list, BAND_HIGH_Q).toFixed(3)),
    median_error: median(list.map((x) => Math.abs(x - 1))),
  }]));
}

function stats(cv) {
  const e = cv.map((r) => Math.abs(r.cv_err));
  return { n: cv.length, median: median(e), p90: quantile(e, 0.9), coverage: cv.filter((r) => r.covered).length / Math.max(1, cv.length),
    width: median(cv.map((r) => r.width)) };
}

export function summarise(rows) {
  const cv = crossValidate(rows);
  const by = (key) => Object.fromEntries([...new Set(cv.map(key))].sort().map((k) => [k, stats(cv.filter((r) => key(r) === k))]));
  const fitted = rows.filter((r) => Number.isFinite(r.err)).map((r) => Math.abs(r.err));
  return {
    n: rows.length, failed: rows.filter((r) => !Number.isFinite(r.err)).length, sources: new Set(cv.map((r) => r.source)).size,
    in_sample_median: median(fitted), loso: stats(cv), large: stats(cv.filter((r) => r.m.gpu_count >= 64)),
    by_workload: by((r) => r.m.workload), by_generation: by((r) => generationOf(r.m)), by_scale: by((r) => scaleOf(r.m)),
    by_software: by((r) => r.m.software || 'tuned'), cv,
  };
}

const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : 'n/a');

function statsTable(title, groups) {
  return [`| ${title} | rows | median abs. error | p90 abs. error | band coverage | median band width (high/low) |`, '|---|---|---|---|---|---|',
    ...Object.entries(groups).map(([k, v]) => `| ${k} | ${v.n} | ${pct(v.median)} | ${pct(v.p90)} | ${pct(v.coverage)} | ${v.width.toFixed(2)}× |`), ''];
}

const CALIBRATION_DISTANCE = {
  measured: 'measured configuration (same GPU and count, another setting)', same_gpu: 'same GPU, another count',
  same_architecture: 'another GPU of the same architecture', other_architecture: 'another architecture',
};

function writeDocs(rows, s, calibration) {
  const fmt = (x) => (x >= 1000 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3));
  const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %` : 'n/a');
  const lines = [
    '# Accuracy of the throughput model', '',
    'Generated by `node scripts/accuracy.mjs --write` (after `node scripts/build.mjs`); do not edit by hand.', '',
    `Each row is a published measurement from \`data/measurements.json\` (${s.n} rows from ${s.sources} sources; every row names`,
    'its source and the software stack it ran: `tuned` for vendor containers, Megatron-class frameworks and MLPerf-class',
    'submissions, `typical` for a stock framework). The engine predicts each row from the same GPU, GPU count, nodes,',
    'precision, software stack and workload shape; where the source publishes its parallel layout, the layout is fixed',
    'and the plan search chooses the rest (recomputation, micro-batch, interleaving). Two properties of a source\'s stack',
    'are part of its rows\' workload (`conventions` in `data/measurements.json`): attention kernels that write the score',
    'matrices to memory (`attention: materialized`: DeepLearningExamples BERT, Megatron-LM 2021, BLOOM, OPT), whose traffic',
    'the roofline adds (Korthikanti et al. 2022, eq. 1), and sequence binning, where a batch is padded only to its longest',
    'sample (`computed_seq_len`: DeepLearningExamples BERT phase 2 on LDDL data, 288 of 512 tokens computed per sequence).', '',
    '## Method: leave-one-source-out cross-validation', '',
    'Rows of one published table share a software version, a cluster and a benchmark script, so they are not independent:',
    'holding out every 4th row would leave its siblings in the training set. Instead each **source** (one paper, one',
    'documentation page, one repository file at one commit) is held out in turn. From the rows of all *other* sources the',
    'script takes (a) the median log-ratio published/predicted of each workload family and software stack, which',
    'recalibrates the engine\'s efficiency for that family and stack, and (b) the 10th and 90th percentiles of the',
    'log-ratios of those other sources\' rows, each predicted without its own source as well (rows of one source share a',
    'bias, so in-sample residuals would give a band too narrow for a source not seen), which form the band. The held-out',
    'rows are predicted with that recalibration and judged against',
    'that band: the error and coverage below are on rows whose source took no part in either. The engine\'s own',
    'constants (`core/src/model/performance.hpp`, `node scripts/accuracy.mjs --fit`) are fitted on all rows; the',
    'recalibration step is what cross-validation re-estimates per fold.', '',
    'The engine\'s `band_low`/`band_high` constants are the same percentiles of every row\'s out-of-source residual;',
    '`time_hours_low`/`time_hours_high` of every estimate come from them.', '',
    ...statsTable('overall', { 'all rows': s.loso, 'rows on ≥ 64 GPUs': s.large }),
    `In-sample median absolute error (engine constants as shipped, no recalibration): ${pct(s.in_sample_median)}.`, '',
    '## Calibrated on your own measurement: how far a correction carries', '',
    'A measurement of your own job (`gpuvalue probe`, then `--measured`) fixes the model\'s error on the measured',
    'configuration; on another one the prediction is off by how differently the model errs there. Pairs of rows that one',
    'source published for one workload (same model, sequence length, precision, mode and software stack) show how far',
    'that is: with r = published / predicted (the leave-one-source-out prediction of each row, as above), r_B / r_A over',
    'every ordered pair is the error left on B after calibrating on A. Grouped by distance, the 10th and 90th percentiles',
    'are the band of a calibrated prediction (`calib_*` in `core/src/model/performance.hpp`; `calibrationBands` in',
    '`scripts/accuracy.mjs`; `node scripts/accuracy.mjs` prints them):', '',
    '| distance | pairs of rows | band | median abs. error after calibrating |', '|---|---|---|---|',
    ...Object.entries(calibration).map(([d, b]) => `| ${CALIBRATION_DISTANCE[d]} | ${b.pairs} | ${b.low}–${b.high} | ${pct(b.median_error)} |`), '',
    `Uncalibrated, the rows' leave-one-source-out median absolute error is ${pct(s.loso.median)} (above)${
      calibration.other_architecture.median_error >= s.loso.median
        ? `: across architectures a correction carries no better than the model alone (${pct(calibration.other_architecture.median_error)}), so measure on the architecture you mean to rent when you can` : ''}.`, '',
    'The "measured" pairs are few (one configuration published at several batch sizes or settings); the wider bands rest on',
    'hundreds of pairs. The model\'s own constants are fitted on all rows, so the ratio of two rows\' errors is in-sample as',
    'far as the architecture factors go; the uncalibrated band above is the out-of-source one.', '',
    '## By workload family', '', ...statsTable('workload', s.by_workload),
    '## By GPU generation', '', ...statsTable('generation', s.by_generation),
    '## By scale (GPUs)', '', ...statsTable('GPUs', s.by_scale),
    '## By software stack', '', ...statsTable('software', s.by_software),
    '## Every measurement', '',
    '| id | source | software | GPU | count | precision | metric | published | predicted (LOSO) | error | band | inside |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...s.cv.map((r) => `| ${r.m.id} | ${r.source} | ${r.m.software} | ${r.m.gpu} | ${r.m.gpu_count} | ${r.m.precision} | ${r.m.metric} | ${fmt(r.m.value)} | ${fmt(r.cv_pred)} | ${signed(r.cv_err)} | ${fmt(r.low)}–${fmt(r.high)} | ${r.covered ? 'yes' : 'no'} |`),
    ...rows.filter((r) => !Number.isFinite(r.err)).map((r) => `| ${r.m.id} | not predicted: ${r.error} |`),
    '',
  ];
  // The serving section (written by scripts/serving-accuracy.mjs --write) stays as it is.
  const file = path.join(root, 'docs/accuracy.md');
  const previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const serving = previous.indexOf('\n## Serving');
  fs.writeFileSync(file, lines.join('\n') + (serving < 0 ? '' : previous.slice(serving)));
}

// The rows the page's Accuracy view plots: published vs LOSO-predicted, with band, family, generation and source.
// What the Accuracy view draws (web/src/views/accuracy.js), nothing more: it travels in the offline file.
export function pageData(s) {
  return {
    generated_by: 'node scripts/accuracy.mjs --write', method: 'leave-one-source-out cross-validation (docs/accuracy.md)',
    loso: { median: s.loso.median, p90: s.loso.p90, coverage: s.loso.coverage, width: s.loso.width, n: s.loso.n },
    by_workload: Object.fromEntries(Object.entries(s.by_workload).map(([k, v]) => [k, { n: v.n, median: v.median, p90: v.p90 }])),
    rows: s.cv.map((r) => ({ workload: r.m.workload, family: family(r.m), generation: generationOf(r.m), gpu: r.m.gpu,
      gpu_count: r.m.gpu_count, published: r.m.value, predicted: Number(r.cv_pred.toPrecision(4)), source: r.source })),
  };
}

async function main() {
  const args = process.argv.slice(2);
  const factory = createRequire(import.meta.url)(path.join(root, 'dist/engine/gpuvalue_engine.cjs'));
  const engine = await createEngine(factory, dataBundle(root), { today: '2026-12-02' });
  if (args.includes('--fit')) {
    // Coordinate descent on log-scale multipliers, minimising the median |log(pred/actual)| over all rows (plus a
    // small mean term so that the optimum is unique). Cross-validation (crossValidate) judges the result.
    const defaults = engine.defaults().constants;
    const keys = ['compute_eff_transformer', 'compute_eff_cnn', 'bytes_per_flop_transformer', 'bytes_per_flop_cnn', 'fp32_eff_factor',
      'fp8_eff_factor', 'arch_volta', 'arch_ampere', 'arch_ampere_gddr', 'arch_ada', 'arch_hopper', 'arch_blackwell', 'arch_cdna2', 'arch_cdna3',
      'software_typical_factor'];
    const c = { ...defaults };
    const loss = (cc) => {
      const l = evaluate(engine, cc).map((r) => (Number.isFinite(r.err) ? Math.abs(Math.log(1 + r.err)) : 5));
      return median(l) + 0.25 * l.reduce((s, x) => s + x, 0) / l.length;
    };
    let best = loss(c);
    for (let round = 0; round < 4; round++) {
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
    console.log(`with fitted constants: LOSO median |error| ${pct(s.loso.median)}, coverage ${pct(s.loso.coverage)}`);
    return;
  }
  const rows = evaluate(engine);
  const s = summarise(rows);
  if (args.includes('--json')) { const { cv, ...rest } = s; console.log(JSON.stringify(rest, null, 2)); return; }
  console.log(`measurements: ${s.n} (${s.failed} not predicted) from ${s.sources} sources`);
  console.log(`LOSO median |error| ${pct(s.loso.median)} (p90 ${pct(s.loso.p90)}), >=64 GPUs ${pct(s.large.median)}; band coverage ${pct(s.loso.coverage)}, width ${s.loso.width.toFixed(2)}x`);
  console.log(`band constants (held-out residuals): ${JSON.stringify(bandConstants(rows))}`);
  const calibration = calibrationBands(s.cv);
  console.log(`calibration bands (pairs of one source's rows): ${Object.entries(calibration).map(([d, b]) => `${d} ${b.low}–${b.high} (${b.pairs} pairs)`).join(', ')}`);
  for (const [w, v] of Object.entries(s.by_workload)) console.log(`  ${w.padEnd(22)} ${pct(v.median)}  coverage ${pct(v.coverage)}`);
  if (args.includes('--write')) {
    writeDocs(rows, s, calibration);
    fs.mkdirSync(path.join(root, 'web/src/data'), { recursive: true });
    fs.writeFileSync(path.join(root, 'web/src/data/accuracy.json'), `${JSON.stringify(pageData(s))}\n`);
    console.log('wrote docs/accuracy.md and web/src/data/accuracy.json');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
