#!/usr/bin/env node
// Builds every output: the native engine + Catch2 suite, the wasm engine module + the wasm Catch2 suite,
// the web bundle (dist/site/), the embeddable widget and the offline single file dist/gpuvalue.html.
// The CMake trees are the presets of CMakePresets.json (native, wasm, wasm-small); each stage says when it starts
// and how long it took. Parallel jobs: the machine's cores, or GPUVALUE_JOBS.
// Usage: node scripts/build.mjs [--web-only] [--bench] (--bench: also the Release tree of the native benchmark, build/bench)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from './build-web.mjs';
import { announce, buildStage } from './cmake.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webOnly = process.argv.includes('--web-only');
const withBench = process.argv.includes('--bench');

// The CMake trees, in build order. The speed-optimised engine serves the CLI and the JS tests; the size-optimised
// tree builds the engine of the site and the offline file, and the widget's engine (only the methods the widget calls).
const STAGES = [
  { preset: 'native', label: 'native Catch2 suite (-O1)' },
  { preset: 'wasm', label: 'wasm engine and wasm tests' },
  { preset: 'wasm-small', label: 'size-optimised wasm engines: the site and the offline file, the widget' },
  ...(withBench ? [{ preset: 'bench', label: 'native benchmark (Release)' }] : []),
];

function build({ preset, label }) {
  const r = buildStage(root, 'build', label, preset);
  if (!r.ok) {
    process.stderr.write(r.log);
    console.error(`build: preset ${preset} failed`);
    process.exit(1);
  }
}

try {
  if (!webOnly) for (const stage of STAGES) build(stage);
} catch (e) {
  console.error(`build: ${e.message}`);
  process.exit(1);
}

const out = await announce('build', 'web bundle, widget and offline page', () => buildWeb(root));
console.log(`build: dist/site/, widget dist/site/gpu-value.js, offline page dist/gpuvalue.html (${out.offlineBytes} bytes)`);
