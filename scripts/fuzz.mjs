#!/usr/bin/env node
// Builds the libFuzzer targets (tests/fuzz/, clang++ with ASan+UBSan: preset asan of CMakePresets.json, in build/asan,
// the tree of the sanitized Catch2 suite too, with as many jobs as the machine has cores or GPUVALUE_JOBS) and runs
// each for N seconds.
// Fails on any crash, sanitizer report, timeout (> 10 s per input) or out-of-memory; each failing input is copied to
// tests/corpus/fuzz-crashes/<target>-<name>, where the Catch2 corpus test picks it up as a regression test.
// Usage: node scripts/fuzz.mjs [--seconds N (60)] [--targets catalog,gpus,...] [--strict] [--no-build]
// The working corpus of each target persists in build/asan/corpus/<target>/, so later runs start where earlier ones
// stopped. See docs/reliability.md for a long run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStage, errorLines } from './cmake.mjs';

export const TARGETS = ['catalog', 'gpus', 'skypilot', 'workload', 'requests', 'limits'];
const SCRIPT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Valid requests for the decision tools ("method\n{json}", the fuzz_requests input format).
const REQUEST_SEEDS = {
  cost: [{ instance: 'GN10', hours: 150, pricing: 'tiered' }, { instance: 'p4d.24xlarge', hours: 1000, pricing: 'spot', nodes: 4, spot: { deadline_hours: 2000 } }],
  advise: [{ params: 7e9, stage: 'tuning', mode: 'lora', tokens: 1e9 }, { params: 1.75e11, stage: 'production', deadline_hours: 720 }],
  plan: [{ example: 'article' }, { demand: { monthly_gpu_hours: [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200], interruptible_fraction: 0.4,
    target_completion_rate: 0.95, prices: { on_demand_usd_per_gpu_hour: 4, reserved_usd_per_gpu_hour: 2.5, spot_usd_per_gpu_hour: 1.2 } } }],
  mig: [{ gpu: 'a100-sxm4-80gb', jobs: '7x8gb,2x20gb@4h' }, { gpu: 'h100-sxm5-80gb', jobs: [{ count: 3, memory_gb: 10, compute_share: 0.2, hours: 5 }] }],
  levers: [{ preset: 'resnet50-imagenet', instance: 'p3.2xlarge', precision: 'fp32' }, { preset: 'llama2-7b-pretrain', instance: 'p4d.24xlarge', pricing: 'spot' }],
  compare: [{ preset: 'yolov7-coco', configs: [{ gpu: 'a100-sxm4-80gb', count: 8 }, { gpu: 'v100-sxm2-16gb', count: 4 }] },
    { preset: 'bert-large-pretrain', configs: [{ instance: 'p4d.24xlarge', nodes: 2 }, { gpu: 'h100-sxm5-80gb', count: 8, usd_per_hour: 30 }], baseline: 1 }],
  energy: [{ gpu: 'a100-sxm4-40gb', count: 8, hours: 100, cooling: 'liquid' }, { instance: 'p4d.24xlarge', preset: 'gpt3-175b', pue: 1.4 }],
  tco: [{ gpu: 'a100-sxm4-40gb', count: 8 }, { gpu: 'h100-sxm5-80gb', count: 64, purchase_usd: 2.5e6, amortisation_years: 4, utilisation: 0.6, rent_usd_per_gpu_hour: 3 }],
};

function copyInto(dir, name, data) {
  fs.writeFileSync(path.join(dir, name.replace(/[^A-Za-z0-9._-]/g, '_')), data);
}

// Seeds: the real data files, the corpus (known-bug reproducers excepted) and earlier crashes of the target.
export function writeSeeds(root, target, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const corpus = path.join(root, 'tests/corpus');
  const expected = JSON.parse(fs.readFileSync(path.join(corpus, 'expected.json'), 'utf8'));
  const methods = {
    catalog: ['loadCatalog', 'addCatalog', 'validate'], gpus: ['loadGpus'], skypilot: ['importSkypilot'],
    workload: ['estimate', 'rank'], requests: Object.keys(REQUEST_SEEDS), limits: [],
  }[target];
  for (const [file, want] of Object.entries(expected)) {
    if (want.known_bug || !methods.includes(want.method)) continue;
    const data = fs.readFileSync(path.join(corpus, file));
    copyInto(dir, file, target === 'requests' ? Buffer.concat([Buffer.from(`${want.method}\n`), data]) : data);
  }
  const read = (p) => fs.readFileSync(path.join(root, p));
  if (target === 'catalog')
    for (const f of fs.readdirSync(path.join(root, 'data/catalog')).filter((f) => f.endsWith('.json'))) copyInto(dir, `data-${f}`, read(`data/catalog/${f}`));
  if (target === 'gpus') copyInto(dir, 'data-gpus.json', read('data/gpus.json'));
  if (target === 'skypilot') {
    const fixtures = path.join(root, 'tests/fixtures/skypilot');
    if (fs.existsSync(fixtures))
      for (const f of fs.readdirSync(fixtures).filter((f) => f.endsWith('.csv'))) copyInto(dir, `fixture-${f}`, read(`tests/fixtures/skypilot/${f}`));
  }
  if (target === 'workload') {
    const presets = JSON.parse(read('data/presets.json')).presets;
    presets.forEach((p, i) => {
      copyInto(dir, `preset-${i}-estimate.json`, JSON.stringify({ preset: p.id, gpu: 'h100-sxm5-80gb', count: 8 }));
      copyInto(dir, `preset-${i}-rank.json`, JSON.stringify({ workload: p.workload, pricing: 'all', filters: { fits_only: true }, spot: { deadline_hours: 1000 }, limit: 10 }));
    });
  }
  // limits: the first byte picks the case (colliding SkyPilot ids, request size, offer size), the rest shapes it.
  if (target === 'limits')
    for (const [name, bytes] of [['ids', [0, 33, 35, 36]], ['ids-many', [0, 255, 33, 35, 37, 38, 42]], ['request', [1, 0]], ['request-over', [1, 5]], ['offer', [2, 0, 4]], ['offer-over', [2, 255, 255]]])
      copyInto(dir, `seed-${name}`, Buffer.from(bytes));
  if (target === 'requests')
    for (const [m, list] of Object.entries(REQUEST_SEEDS)) list.forEach((r, i) => copyInto(dir, `${m}-${i}.txt`, `${m}\n${JSON.stringify(r)}`));
  const crashes = path.join(root, 'tests/corpus/fuzz-crashes');
  if (fs.existsSync(crashes))
    for (const f of fs.readdirSync(crashes).filter((f) => f.startsWith(`${target}-`))) copyInto(dir, `crash-${f}`, fs.readFileSync(path.join(crashes, f)));
  return fs.readdirSync(dir).length;
}

// The tree the fuzz targets are built in: the sanitizer tree (preset asan), shared with the sanitized Catch2 suite.
export const FUZZ_DIR = 'build/asan';

// Configures and builds the fuzz targets (preset asan, build/asan, target `fuzzers`) as one announced stage;
// returns {ok, seconds, log}.
export function buildFuzzers(root, prefix = 'fuzz', label = `${TARGETS.length} targets`) {
  return buildStage(root, prefix, label, 'asan', { targets: ['fuzzers'] });
}

// Runs one target for `seconds`; returns {target, ok, execs, cov, ft, corpus, seconds, crashes: [files], reason}.
// `fresh` starts from the seeds alone (build/asan/ci-corpus/, emptied first) instead of the corpus earlier runs grew,
// so that the run takes the same time however long the machine has been fuzzing (npm test uses it).
export function runFuzzer(root, target, { seconds = 60, strict = false, fresh = false, buildDir = FUZZ_DIR } = {}) {
  const dir = path.join(root, buildDir);
  const exe = path.join(dir, 'tests/fuzz', `fuzz_${target}`);
  const work = path.join(dir, fresh ? 'ci-corpus' : 'corpus', target);
  if (fresh) fs.rmSync(work, { recursive: true, force: true });
  const seeds = path.join(dir, 'seeds', target);
  const artifacts = path.join(dir, 'artifacts', target);
  fs.mkdirSync(work, { recursive: true });
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
  const nseeds = writeSeeds(root, target, seeds);
  const logFile = path.join(dir, `fuzz_${target}.log`);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const out = fs.openSync(logFile, 'w');
    const child = spawn(exe, [work, seeds, `-max_total_time=${seconds}`, '-timeout=10', '-rss_limit_mb=2560', '-print_final_stats=1',
      `-artifact_prefix=${artifacts}/`], { cwd: dir, stdio: ['ignore', out, out],
      env: { ...process.env, GPUVALUE_FUZZ_STRICT: strict ? '1' : '0', ASAN_OPTIONS: 'detect_leaks=1', UBSAN_OPTIONS: 'print_stacktrace=1' } });
    // libFuzzer stops itself after max_total_time; the guard covers a hang outside an input (e.g. at start-up).
    const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      fs.closeSync(out);
      const log = fs.readFileSync(logFile, 'utf8');
      const done = [...log.matchAll(/^#(\d+)\s+(?:DONE|pulse|NEW|REDUCE|INITED)\s+cov: (\d+) ft: (\d+) corp: (\d+)/gm)].pop();
      const stat = (k) => Number((new RegExp(`^stat::${k}:\\s+(\\d+)`, 'm').exec(log) || [])[1] || 0);
      const crashes = [];
      const dest = path.join(root, 'tests/corpus/fuzz-crashes');
      for (const f of fs.readdirSync(artifacts)) {
        fs.mkdirSync(dest, { recursive: true });
        const name = `${target}-${f}`;
        fs.copyFileSync(path.join(artifacts, f), path.join(dest, name));
        crashes.push(path.join('tests/corpus/fuzz-crashes', name));
      }
      const ok = code === 0 && !signal && crashes.length === 0;
      const reason = ok ? '' : ((/^(==\d+==ERROR: .*|SUMMARY: .*|fuzz check failed: .*|.*runtime error: .*|ERROR: libFuzzer: .*)$/m.exec(log) || [])[1]
        || `exit ${code}${signal ? ` (${signal})` : ''}`);
      resolve({ target, ok, seeds: nseeds, execs: stat('number_of_executed_units') || (done ? Number(done[1]) : 0),
        cov: done ? Number(done[2]) : 0, ft: done ? Number(done[3]) : 0, corpus: done ? Number(done[4]) : 0,
        rss: stat('peak_rss_mb'), seconds: (Date.now() - t0) / 1000, crashes, reason, log: logFile });
    });
  });
}

export function describe(r) {
  const rate = r.seconds > 0 ? Math.round(r.execs / r.seconds) : 0;
  const head = `fuzz_${r.target}: ${r.seconds.toFixed(0)} s, ${r.execs} execs (${rate}/s), cov ${r.cov}, ft ${r.ft}, corpus ${r.corpus}, rss ${r.rss} MB`;
  return r.ok ? `${head} — ok` : `${head} — FAILED: ${r.reason}${r.crashes.length ? ` (input: ${r.crashes.join(', ')})` : ''} (log: ${path.relative(SCRIPT_ROOT, r.log)})`;
}

async function main() {
  const argv = process.argv.slice(2);
  const arg = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
  };
  const seconds = Number(arg('seconds', '60'));
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('--seconds must be a positive number');
  const targets = arg('targets', TARGETS.join(',')).split(',').filter(Boolean);
  for (const t of targets) if (!TARGETS.includes(t)) throw new Error(`unknown target ${t} (${TARGETS.join(', ')})`);
  if (!argv.includes('--no-build')) {
    const b = buildFuzzers(SCRIPT_ROOT);
    if (!b.ok) {
      process.stderr.write(`${errorLines(b.log)}\n`);
      process.exit(1);
    }
  }
  let failed = 0;
  for (const t of targets) {
    const r = await runFuzzer(SCRIPT_ROOT, t, { seconds, strict: argv.includes('--strict') });
    console.log(describe(r));
    if (!r.ok) failed++;
  }
  console.log(`fuzz: ${targets.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`fuzz: ${e.message}`);
    process.exit(2);
  });
}
