#!/usr/bin/env node
// Runs the test layers and ends with one line "N passed, N failed" over all of them:
//   1. native: the Catch2 suite natively (build/native/tests/gpuvalue_tests)
//   2. wasm: the same suite compiled to wasm, under node (build/wasm/tests/gpuvalue_tests.cjs)
//   3. js: JS tests of the wasm module and the CLI (node --test tests/js)
//   4. browser: browser tests in Debian's Chromium via playwright-core (node --test tests/browser)
//   5. lint: ESLint and the size check (npm run lint); one test per check (before 6 and 7: it runs while their tree
//      is still being built in the background)
//   6. sanitize: the Catch2 suite built with AddressSanitizer + UndefinedBehaviorSanitizer (preset asan, clang,
//      build/asan)
//   7. fuzz: each libFuzzer target (same tree: preset asan) for GPUVALUE_FUZZ_SECONDS (10) seconds, as many at once
//      as the machine has cores; one test per target
// The Catch2 layers run the suite's binary directly (scripts/catch2.mjs): its test cases shared among as many
// processes as the machine has cores, one test per TEST_CASE; a layer fails if the suite lists no test cases.
// Layers 6 and 7 build their tree here (not in scripts/build.mjs) through the preset asan of CMakePresets.json:
// scripts/build-sanitizers.mjs builds it in the background from the start, while the other layers run, under the
// idle scheduling class (chrt --idle: it runs only on a core no test wants, and yields it at once; its disk I/O in
// the idle class too), so no test waits for it; no test asserts on elapsed time either. The two layers wait for it,
// then build again (nothing left to do) and run.
// Parallel processes: the machine's cores, or GPUVALUE_JOBS.
// `node scripts/test.mjs sanitize fuzz` runs only the named layers. `--build` (what `npm test` passes) first runs
// scripts/build.mjs, with the background build already started: the serial steps of the other builds (links,
// wasm-opt, the web bundles) leave a core idle that the sanitizer tree takes.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TARGETS, FUZZ_DIR, buildFuzzers, runFuzzer, describe } from './fuzz.mjs';
import { buildStage, errorLines, jobs } from './cmake.mjs';
import { runLint } from './lint.mjs';
import { runSuite } from './catch2.mjs';
import { slowestTests } from './tap.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildFirst = process.argv.includes('--build');
const only = process.argv.slice(2).filter((a) => a !== '--build');
const layers = [];
const LAYERS = ['native', 'wasm', 'js', 'browser', 'sanitize', 'fuzz', 'lint'];
for (const n of only) {
  if (!LAYERS.includes(n)) {
    console.error(`test: unknown layer ${n} (${LAYERS.join(', ')})`);
    process.exit(2);
  }
}
try {
  jobs();
} catch (e) {
  console.error(`test: ${e.message}`);
  process.exit(2);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: process.env });
  const out = `${r.stdout || ''}${r.stderr || ''}`;
  return { status: r.status, out };
}

// Starts the background build of the sanitizer trees the chosen layers need; the promise settles when it ends.
// Its output goes to build/sanitizer-builds.log (a pipe would fill while the other layers block this process).
// SCHED_IDLE (`chrt --idle 0`, util-linux) where the machine has it, else the lowest nice value.
function startSanitizerBuilds(presets) {
  if (!presets.length) return Promise.resolve();
  fs.mkdirSync(path.join(root, 'build'), { recursive: true });
  const logFile = path.join(root, 'build/sanitizer-builds.log');
  const fd = fs.openSync(logFile, 'w');
  const build = [process.execPath, path.join(root, 'scripts/build-sanitizers.mjs'), ...presets];
  const idle = spawnSync('chrt', ['--idle', '0', 'ionice', '-c', '3', 'true']).status === 0;
  const [cmd, ...args] = idle ? ['chrt', '--idle', '0', 'ionice', '-c', '3', ...build] : ['nice', '-n', '19', ...build];
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', fd, fd], env: process.env });
  fs.closeSync(fd);
  const t0 = Date.now();
  return Object.assign(new Promise((resolve) => child.on('close', () => {
    console.log(`build: sanitizer trees (${presets.join(', ')}) built in the background (${idle ? 'idle class' : 'nice 19'}) `
      + `in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    resolve();
  })), { child });
}

async function sanitizeLayer(background) {
  await background;
  const b = buildStage(root, 'build', 'ASan+UBSan Catch2 suite', 'asan');
  if (!b.ok) {
    process.stdout.write(`${errorLines(b.log)}\n`);
    return { name: 'sanitize', passed: 0, failed: 1 };
  }
  return catchLayer('sanitize', 'build/asan');
}

async function fuzzLayer(background) {
  await background;
  const seconds = Number(process.env.GPUVALUE_FUZZ_SECONDS || 10);
  const b = buildFuzzers(root, 'build', `${TARGETS.length} libFuzzer targets (clang, ASan+UBSan)`);
  if (!b.ok) {
    process.stdout.write(`${errorLines(b.log)}\n`);
    return { name: 'fuzz', passed: 0, failed: 1 };
  }
  // The targets run side by side, as many at once as the machine has cores: each still gets `seconds` of one core.
  let passed = 0, failed = 0;
  const queue = [...TARGETS];
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const r = await runFuzzer(root, t, { seconds, fresh: true });
      console.log(`[fuzz] ${describe(r)}`);
      if (r.ok) passed++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs(), TARGETS.length) }, worker));
  console.log(`[fuzz] ${passed} passed, ${failed} failed (${FUZZ_DIR}, ${seconds} s per target, ${Math.min(jobs(), TARGETS.length)} at once)`);
  return { name: 'fuzz', passed, failed };
}

// The Catch2 suite of a build tree, run by scripts/catch2.mjs.
async function catchLayer(name, dir) {
  const binary = path.join(root, dir, 'tests', name === 'wasm' ? 'gpuvalue_tests.cjs' : 'gpuvalue_tests');
  if (!fs.existsSync(binary)) {
    console.log(`[${name}] FAILED: ${path.relative(root, binary)} is not built`);
    return { name, passed: 0, failed: 1 };
  }
  const command = name === 'wasm' ? [process.execPath, binary] : [binary];
  const r = await runSuite(command, { cwd: root, jobs: jobs() });
  if (r.failures.length) process.stdout.write(`${r.failures.join('\n').slice(-20000)}\n`);
  console.log(`[${name}] ${r.passed} passed, ${r.failed} failed (${dir}, ${r.registered} test cases)`);
  return { name, passed: r.passed, failed: r.failed };
}

function nodeTestLayer(name, dir) {
  const files = fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.test.mjs')).map((f) => path.join(dir, f));
  if (!files.length) {
    console.log(`[${name}] FAILED: no test files in ${dir}`);
    return { name, passed: 0, failed: 1 };
  }
  // Test files run side by side, as many at once as the machine has cores: no test asserts on elapsed time, and every
  // wait is for a condition (with a timeout far above a loaded machine's), so sharing the cores changes no verdict.
  const r = run('node', ['--test', '--test-reporter=tap', `--test-concurrency=${jobs()}`, ...files]);
  // The whole report (every test's duration) for a look at where the time went: build/test-logs/<layer>.tap.
  fs.mkdirSync(path.join(root, 'build/test-logs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'build/test-logs', `${name}.tap`), r.out);
  const pass = Number((/^# pass (\d+)/m.exec(r.out) || [])[1] || 0);
  const fail = Number((/^# fail (\d+)/m.exec(r.out) || [])[1] || 0);
  const cancelled = Number((/^# cancelled (\d+)/m.exec(r.out) || [])[1] || 0);
  // Known gaps (node:test's todo): run and reported every time, neither passed nor failed.
  const todo = Number((/^# todo (\d+)/m.exec(r.out) || [])[1] || 0);
  if (fail || cancelled || r.status !== 0) {
    // Print failing subtests with their diagnostics.
    const lines = r.out.split('\n');
    const keep = [];
    lines.forEach((l, i) => { if (/^\s*not ok/.test(l)) keep.push(...lines.slice(i, i + 30)); });
    process.stdout.write(`${keep.join('\n').slice(-20000)}\n`);
  }
  const failed = fail + cancelled + (r.status !== 0 && !fail && !cancelled ? 1 : 0);
  if (todo) process.stdout.write(`${r.out.split('\n').filter((l) => /# TODO/.test(l)).join('\n')}\n`);
  console.log(`[${name}] ${pass} passed, ${failed} failed${todo ? `, ${todo} known gap${todo > 1 ? 's' : ''} (todo)` : ''} (${dir})`);
  console.log(`[${name}] slowest tests: ${slowestTests(r.out, 6)}`);
  return { name, passed: pass, failed };
}

function lintLayer() {
  let passed = 0, failed = 0;
  for (const r of runLint(root)) {
    if (r.ok) passed++;
    else {
      failed++;
      process.stdout.write(r.out.split('\n').slice(-60).join('\n'));
    }
    console.log(`[lint] ${r.name} ${r.ok ? 'ok' : 'FAILED'}`);
  }
  console.log(`[lint] ${passed} passed, ${failed} failed (eslint, lint-size)`);
  return { name: 'lint', passed, failed };
}

const want = (n) => !only.length || only.includes(n);
const t0 = Date.now();
const background = startSanitizerBuilds(want('sanitize') || want('fuzz') ? ['asan'] : []);
if (buildFirst) {
  const b = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit', env: process.env });
  if (b.status !== 0) {
    console.log(`test: the build failed (scripts/build.mjs exit ${b.status ?? b.signal})`);
    background.child?.kill();
    process.exit(1);
  }
  console.log(`build: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
// Each layer's wall time, from the end of the one before (the sanitizer layers' includes waiting for their tree).
let lap = Date.now();
const add = async (name, run) => {
  if (!want(name)) return;
  layers.push(await run());
  console.log(`[${name}] ${((Date.now() - lap) / 1000).toFixed(1)} s`);
  lap = Date.now();
};
await add('native', () => catchLayer('native', 'build/native'));
await add('wasm', () => catchLayer('wasm', 'build/wasm'));
await add('js', () => nodeTestLayer('js', 'tests/js'));
await add('browser', () => nodeTestLayer('browser', 'tests/browser'));
await add('lint', () => lintLayer());
await add('sanitize', () => sanitizeLayer(background));
await add('fuzz', () => fuzzLayer(background));
const passed = layers.reduce((s, l) => s + l.passed, 0);
const failed = layers.reduce((s, l) => s + l.failed, 0);
console.log(`test time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
