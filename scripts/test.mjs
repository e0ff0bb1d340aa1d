#!/usr/bin/env node
// Runs the test layers and ends with one line "N passed, N failed" over all of them:
//   1. the Catch2 suite natively (ctest in build/native)
//   2. the same suite compiled to wasm, under node (ctest in build/wasm; fails if it registers zero tests)
//   3. JS tests of the wasm module and the CLI (node --test tests/js)
//   4. browser tests in Debian's Chromium via playwright-core (node --test tests/browser)
//   5. sanitize: the Catch2 suite built with AddressSanitizer + UndefinedBehaviorSanitizer (g++, build/asan)
//   6. fuzz: each libFuzzer target (clang, build/fuzz) for GPUVALUE_FUZZ_SECONDS (20) seconds; one test per target
// Layers 5 and 6 build their own trees here (not in scripts/build.mjs). `node scripts/test.mjs sanitize fuzz` runs
// only the named layers.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TARGETS, buildFuzzers, runFuzzer, describe } from './fuzz.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const layers = [];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: process.env });
  const out = `${r.stdout || ''}${r.stderr || ''}`;
  return { status: r.status, out };
}

// Configures (first time) and builds one CMake tree for a layer; prints one line. Returns false on failure.
function buildTree(label, dir, configureArgs, target) {
  const t0 = Date.now();
  let r = { status: 0, out: '' };
  if (!fs.existsSync(path.join(root, dir, 'CMakeCache.txt'))) r = run('cmake', ['-S', '.', '-B', dir, ...configureArgs]);
  if (r.status === 0) r = run('cmake', ['--build', dir, '--target', target, '-j', '2']);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    process.stdout.write(`${r.out.split('\n').filter((l) => /error|Error/.test(l)).slice(0, 40).join('\n')}\n`);
    console.log(`build: ${label} FAILED (${secs} s)`);
    return false;
  }
  console.log(`build: ${label} (${secs} s)`);
  return true;
}

function sanitizeLayer() {
  const ok = buildTree('ASan+UBSan Catch2 suite in build/asan', 'build/asan',
    ['-DCMAKE_BUILD_TYPE=Debug', '-DCMAKE_CXX_FLAGS_DEBUG=-g -O1', '-DGPUVALUE_SANITIZE=ON'], 'gpuvalue_tests');
  if (!ok) return { name: 'sanitize', passed: 0, failed: 1 };
  return ctestLayer('sanitize', 'build/asan');
}

async function fuzzLayer() {
  const seconds = Number(process.env.GPUVALUE_FUZZ_SECONDS || 20);
  const b = buildFuzzers(root);
  if (!b.ok) {
    process.stdout.write(`${b.log.split('\n').filter((l) => /error|Error/.test(l)).slice(0, 40).join('\n')}\n`);
    console.log(`build: libFuzzer targets in build/fuzz FAILED (${b.seconds.toFixed(1)} s)`);
    return { name: 'fuzz', passed: 0, failed: 1 };
  }
  console.log(`build: ${TARGETS.length} libFuzzer targets (clang, ASan+UBSan) in build/fuzz (${b.seconds.toFixed(1)} s)`);
  let passed = 0, failed = 0;
  for (const t of TARGETS) {
    const r = await runFuzzer(root, t, { seconds, fresh: true });
    console.log(`[fuzz] ${describe(r)}`);
    if (r.ok) passed++;
    else failed++;
  }
  console.log(`[fuzz] ${passed} passed, ${failed} failed (build/fuzz, ${seconds} s per target)`);
  return { name: 'fuzz', passed, failed };
}

function ctestLayer(name, dir) {
  const list = run('ctest', ['--test-dir', dir, '-N']);
  const registered = Number((/Total Tests: (\d+)/.exec(list.out) || [])[1] || 0);
  if (registered === 0) {
    console.log(`[${name}] FAILED: ${dir} registers zero tests`);
    return { name, passed: 0, failed: 1 };
  }
  const r = run('ctest', ['--test-dir', dir, '-j2', '--output-on-failure', '--timeout', '300']);
  const m = /(\d+)% tests passed, (\d+) tests failed out of (\d+)/.exec(r.out);
  const total = m ? Number(m[3]) : registered;
  const failed = m ? Number(m[2]) : registered;
  if (failed || r.status !== 0) process.stdout.write(r.out.split('\n').filter((l) => !/^\s*\d+\/\d+ Test .*Passed/.test(l)).join('\n').slice(-20000));
  console.log(`[${name}] ${total - failed} passed, ${failed} failed (${dir})`);
  return { name, passed: total - failed, failed: failed || (r.status !== 0 && !failed ? 1 : 0) };
}

function nodeTestLayer(name, dir) {
  const files = fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.test.mjs')).map((f) => path.join(dir, f));
  if (!files.length) {
    console.log(`[${name}] FAILED: no test files in ${dir}`);
    return { name, passed: 0, failed: 1 };
  }
  const r = run('node', ['--test', '--test-reporter=tap', '--test-concurrency=1', ...files]);
  const pass = Number((/^# pass (\d+)/m.exec(r.out) || [])[1] || 0);
  const fail = Number((/^# fail (\d+)/m.exec(r.out) || [])[1] || 0);
  const cancelled = Number((/^# cancelled (\d+)/m.exec(r.out) || [])[1] || 0);
  if (fail || cancelled || r.status !== 0) {
    // Print failing subtests with their diagnostics.
    const lines = r.out.split('\n');
    const keep = [];
    lines.forEach((l, i) => { if (/^\s*not ok/.test(l)) keep.push(...lines.slice(i, i + 30)); });
    process.stdout.write(`${keep.join('\n').slice(-20000)}\n`);
  }
  const failed = fail + cancelled + (r.status !== 0 && !fail && !cancelled ? 1 : 0);
  console.log(`[${name}] ${pass} passed, ${failed} failed (${dir})`);
  return { name, passed: pass, failed };
}

const want = (n) => !only.length || only.includes(n);
const t0 = Date.now();
if (want('native')) layers.push(ctestLayer('native', 'build/native'));
if (want('wasm')) layers.push(ctestLayer('wasm', 'build/wasm'));
if (want('js')) layers.push(nodeTestLayer('js', 'tests/js'));
if (want('browser')) layers.push(nodeTestLayer('browser', 'tests/browser'));
if (want('sanitize')) layers.push(sanitizeLayer());
if (want('fuzz')) layers.push(await fuzzLayer());
const passed = layers.reduce((s, l) => s + l.passed, 0);
const failed = layers.reduce((s, l) => s + l.failed, 0);
console.log(`test time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
