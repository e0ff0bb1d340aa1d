#!/usr/bin/env node
// The serving model's ratios between GPUs against MLPerf Inference's LLM benchmarks (data/serving-ratios.json):
// within one round and benchmark, the median output tokens/s of each GPU's 8-GPU systems over the submitters, and the
// ratio of every pair of GPUs, published and predicted (the engine's serve method, default constants, each system as
// 8 / replica_gpus replicas). The datasets' mean input lengths are not published, so each ratio is predicted at
// several input lengths.
// Nothing is fitted to these rows but ServingConstants::cdna3_eff, the MI300X's factor: it is chosen per round on the
// other rounds' MI300X ratios (leave-one-round-out), and its default on all of them.
//   node scripts/serving-ratios.mjs           summary
//   node scripts/serving-ratios.mjs --write   also writes "Ratios between GPUs" in docs/accuracy.md
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadServingEngine, median, gpusOfArchitecture } from './serving-accuracy.mjs';
import { withSection } from './serving-latency.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const data = JSON.parse(fs.readFileSync(path.join(root, 'data/serving-ratios.json'), 'utf8'));
export const { benchmarks, measurements } = data;
export const notUsed = data.not_used;

export const BEGIN = '<!-- serving-ratios:begin -->';
export const END = '<!-- serving-ratios:end -->';
// The order a pair is written in (the later GPU over the earlier).
export const ORDER = ['h100-sxm5-80gb', 'h200-sxm-141gb', 'b200', 'mi300x'];
export const CDNA3_GRID = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0];
// The GPUs ServingConstants::cdna3_eff applies to.
const CDNA3 = gpusOfArchitecture('cdna3');

// One GPU's systems in a round: the settings they share and the median of their values.
export function groups() {
  const out = new Map();
  for (const m of measurements) {
    if (!benchmarks[m.benchmark]) throw new Error(`${m.id}: benchmark ${m.benchmark} is not in 'benchmarks'`);
    const key = `${m.round}|${m.benchmark}|${m.gpu}`;
    if (!out.has(key)) out.set(key, { round: m.round, benchmark: m.benchmark, gpu: m.gpu, rows: [] });
    out.get(key).rows.push(m);
  }
  for (const g of out.values()) {
    const first = g.rows[0];
    for (const m of g.rows) {
      for (const k of ['replica_gpus', 'weights', 'kv', 'software', 'system_gpus'])
        if (m[k] !== first[k]) throw new Error(`${m.id}: ${k} differs from ${first.id}'s within ${g.round} ${g.benchmark} ${g.gpu}`);
    }
    Object.assign(g, { replica_gpus: first.replica_gpus, weights: first.weights, kv: first.kv, software: first.software,
      system_gpus: first.system_gpus, value: median(g.rows.map((m) => m.value)) });
  }
  return [...out.values()];
}

export function requestFor(g, inputTokens, constants) {
  const b = benchmarks[g.benchmark];
  const req = { preset: b.preset, gpu: g.gpu, count: g.replica_gpus, weights: g.weights,
    kv: g.kv, software: g.software, traffic: { input_tokens: inputTokens, output_tokens: b.output_tokens } };
  if (b.model) req.model = b.model;
  if (constants) req.constants = constants;
  return req;
}

// Output tokens/s the engine predicts for one 8-GPU system of the group.
export function predictSystem(engine, g, inputTokens, constants) {
  const a = engine.tryCall('serve', requestFor(g, inputTokens, constants));
  if (!a.ok) throw new Error(`${g.round} ${g.benchmark} ${g.gpu}: ${a.error.path} ${a.error.message.code}`);
  if (!a.capacity) throw new Error(`${g.round} ${g.benchmark} ${g.gpu}: does not fit`);
  return a.capacity.output_tokens_per_s * (g.system_gpus / g.replica_gpus);
}

// Every pair of GPUs within a round and benchmark (those `keep` accepts): published ratio (medians) and predicted at
// each checked input length.
export function pairs(engine, constantsFor = () => undefined, keep = () => true) {
  const gs = groups();
  const out = [];
  const sets = [...new Set(gs.map((g) => `${g.round}|${g.benchmark}`))];
  const benchOrder = Object.keys(benchmarks);
  sets.sort((a, b) => benchOrder.indexOf(a.split('|')[1]) - benchOrder.indexOf(b.split('|')[1]) || a.localeCompare(b));
  for (const set of sets) {
    const inSet = gs.filter((g) => `${g.round}|${g.benchmark}` === set).sort((a, b) => ORDER.indexOf(a.gpu) - ORDER.indexOf(b.gpu));
    const { round, benchmark } = inSet[0];
    for (let i = 0; i < inSet.length; i++) {
      for (let j = i + 1; j < inSet.length; j++) {
        const a = inSet[i], b = inSet[j];
        if (!keep({ from: a, to: b })) continue;
        const published = b.value / a.value;
        const predicted = benchmarks[benchmark].input_tokens_checked.map((n) => {
          const k = constantsFor(round);
          return predictSystem(engine, b, n, k) / predictSystem(engine, a, n, k);
        });
        out.push({ round, benchmark, from: a, to: b, published, predicted, errs: predicted.map((p) => p / published - 1) });
      }
    }
  }
  return out;
}

// A pair with a CDNA 3 GPU on either side: the pairs its factor changes.
export const involvesCdna3 = (p) => CDNA3.has(p.from.gpu) || CDNA3.has(p.to.gpu);
const worst = (errs) => errs.reduce((w, e) => (Math.abs(e) > Math.abs(w) ? e : w), 0);

// The MI300X factor: for each round with CDNA 3 systems, the grid value with the least mean |log error| of the
// CDNA 3 pairs of the other rounds (all checked input lengths); the default on every round's. The pairs are
// predicted once per grid value.
export function cdna3Folds(engine) {
  const at = new Map(CDNA3_GRID.map((f) => [f, pairs(engine, () => ({ cdna3_eff: f }), involvesCdna3)]));
  const cost = (f, rounds) => {
    const logs = at.get(f).filter((p) => rounds.includes(p.round)).flatMap((p) => p.errs.map((e) => Math.abs(Math.log1p(e))));
    return logs.reduce((s, x) => s + x, 0) / logs.length;
  };
  const best = (rounds) => CDNA3_GRID.reduce((b, f) => (cost(f, rounds) < cost(b, rounds) ? f : b), CDNA3_GRID[0]);
  const amdRounds = [...new Set(measurements.filter((m) => CDNA3.has(m.gpu)).map((m) => m.round))];
  const folds = Object.fromEntries(amdRounds.map((r) => [r, best(amdRounds.filter((x) => x !== r))]));
  return { folds, all: best(amdRounds) };
}

// The report: pairs at the engine's defaults, the MI300X pairs with each round's held-out factor.
export function evaluate(engine) {
  const { folds, all } = cdna3Folds(engine);
  const atDefaults = pairs(engine);
  const heldOut = pairs(engine, (round) => (round in folds ? { cdna3_eff: folds[round] } : undefined), involvesCdna3);
  const withoutFactor = pairs(engine, () => ({ cdna3_eff: 1 }), involvesCdna3);
  return { folds, all, atDefaults, heldOut, withoutFactor };
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const num = (x) => Math.round(x).toLocaleString('en-US');
const name = (g) => ({ 'h100-sxm5-80gb': 'H100 SXM', 'h200-sxm-141gb': 'H200', b200: 'B200', mi300x: 'MI300X' })[g.gpu];
const fmt = (g) => `${g.weights}${g.replica_gpus > 1 ? `, TP${g.replica_gpus}` : ''}`;
const range = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`;

// One line per benchmark: its rows, model, output length and the input lengths it is checked at.
function benchmarkLine(name) {
  const b = benchmarks[name];
  const rows = measurements.filter((m) => m.benchmark === name);
  const rounds = [...new Set(rows.map((m) => m.round))].sort().join(', ');
  return `- \`${name}\`: ${rows.length} systems of ${new Set(rows.map((m) => m.submitter)).size} submitters (rounds ${rounds}), predicted with the \`${b.preset}\` preset${b.model ? ' (with the benchmark model\'s parameters and vocabulary)' : ''} at ${b.input_tokens_checked.map(num).join(', ')} input tokens and ${b.output_tokens} output tokens.`;
}

// How many pairs hold within 15 %, and the direction of the errors by GPU pair.
function pairSummary(ps) {
  const worstOf = (p) => worst(p.errs);
  const within = ps.filter((p) => Math.abs(worstOf(p)) <= 0.15).length;
  const byPair = new Map();
  for (const p of ps) {
    const k = `${name(p.to)} / ${name(p.from)}`;
    if (!byPair.has(k)) byPair.set(k, []);
    byPair.get(k).push(worstOf(p));
  }
  const parts = [...byPair].map(([k, es]) => `${k} ${es.map(pct).join(', ')}`);
  return `${within} of ${ps.length} pairs are within 15 % at every input length checked. By GPU pair: ${parts.join('; ')}.`;
}

function section(r) {
  const row = (p) => `| ${p.round} | ${p.benchmark} | ${name(p.to)} (${fmt(p.to)}) / ${name(p.from)} (${fmt(p.from)}) | ${p.to.rows.length} / ${p.from.rows.length} | ${num(p.to.value)} / ${num(p.from.value)} | ${p.published.toFixed(2)}× | ${range(p.predicted)} | ${pct(worst(p.errs))} |`;
  const head = ['| round | benchmark | pair | systems | median tokens/s | published | predicted | worst error |', '|---|---|---|---|---|---|---|---|'];
  const nvidia = r.atDefaults.filter((p) => !involvesCdna3(p));
  const worstNvidia = Math.max(...nvidia.flatMap((p) => p.errs.map(Math.abs)));
  return [
    BEGIN,
    '### Ratios between GPUs (MLPerf Inference)',
    '',
    'Generated by `node scripts/serving-ratios.mjs --write` (after `node scripts/build.mjs`); do not edit by hand.',
    '',
    `MLPerf Inference's LLM benchmarks, closed division, Offline scenario (no latency limit), systems of 8 GPUs with the status "available" (data/serving-ratios.json: ${measurements.length} systems of ${new Set(measurements.map((m) => m.submitter)).size} submitters). Each GPU's figure is the median over a round's submitters, so one ratio compares the same dataset, rules and precision choices, each on its vendor's tuned stack. The datasets publish no mean input length, so every ratio is predicted at several input lengths and the table gives the range and the worst error over them; the output length is the reference run's mean. These rows are not in the calibration set above: the NVIDIA ratios are out-of-sample.`,
    '',
    ...Object.keys(benchmarks).map(benchmarkLine),
    '',
    `**NVIDIA GPUs, at the engine's defaults** (worst error over all pairs and input lengths: ${pct(worstNvidia).replace('+', '')}):`,
    '',
    ...head, ...nvidia.map(row),
    '',
    pairSummary(nvidia),
    '',
    `**MI300X** (vLLM on ROCm, the submitters' FP8 stack). Without a factor for its architecture the engine predicts it from its datasheet (2,615 FP8 TFLOPS, 5.3 TB/s) as much faster than it served:`,
    '',
    ...head, ...r.withoutFactor.map(row),
    '',
    `So the serving model has \`cdna3_eff\`, the MI300X's share of the peaks and bandwidth the other efficiencies give, chosen per round on the other rounds' MI300X ratios (${Object.entries(r.folds).map(([k, v]) => `${k} predicted with ${v}`).join(', ')}; on every round ${r.all}, the engine's default). Held out:`,
    '',
    ...head, ...r.heldOut.map(row),
    '',
    'What this leaves doubtful: dense models only, few MI300X rounds, and the other AMD GPU in the catalog (MI250, CDNA 2) has no published serving run and no factor.',
    END,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const engine = await loadServingEngine();
  const r = evaluate(engine);
  for (const p of r.atDefaults) console.log(`${p.round} ${p.benchmark} ${p.to.gpu}/${p.from.gpu}: published ${p.published.toFixed(3)}, predicted ${p.predicted.map((x) => x.toFixed(3)).join(' ')}, worst ${pct(worst(p.errs))}`);
  console.log(`cdna3_eff folds ${JSON.stringify(r.folds)}, all ${r.all}`);
  for (const p of r.heldOut) console.log(`held out ${p.round} ${p.benchmark} ${p.to.gpu}/${p.from.gpu}: published ${p.published.toFixed(3)}, predicted ${p.predicted.map((x) => x.toFixed(3)).join(' ')}, worst ${pct(worst(p.errs))}`);
  if (process.argv.includes('--write')) {
    const file = path.join(root, 'docs/accuracy.md');
    fs.writeFileSync(file, withSection(fs.readFileSync(file, 'utf8'), section(r), BEGIN, END));
    console.log('wrote "Ratios between GPUs" in docs/accuracy.md');
  }
}
