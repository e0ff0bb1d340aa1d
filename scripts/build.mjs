#!/usr/bin/env node
// Builds every output: the native engine + Catch2 suite, the wasm engine module + the wasm Catch2 suite,
// the web bundle (dist/site/), the embeddable widget and the offline single file dist/gpuvalue.html.
// Usage: node scripts/build.mjs [--web-only]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webOnly = process.argv.includes('--web-only');
const jobs = String(Math.max(1, Math.min(2, (await import('node:os')).cpus().length)));

function run(cmd, args, opts = {}) {
  const t0 = Date.now();
  try {
    execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env }, maxBuffer: 1 << 28 });
  } catch (e) {
    process.stderr.write(String(e.stdout || '') + String(e.stderr || ''));
    console.error(`build: '${cmd} ${args.join(' ')}' failed`);
    process.exit(1);
  }
  return Date.now() - t0;
}

if (!webOnly) {
  const native = path.join(root, 'build/native');
  if (!fs.existsSync(path.join(native, 'CMakeCache.txt')))
    run('cmake', ['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
  const tn = run('cmake', ['--build', 'build/native', '-j', jobs]);
  console.log(`build: native engine and tests (${(tn / 1000).toFixed(1)} s)`);

  // The speed-optimised engine and the wasm test suite, then the size-optimised engine for the offline file.
  const emEnv = { env: { NODE_PATH: '/usr/share/nodejs' } };
  run('emcmake', ['cmake', '-S', '.', '-B', 'build/wasm', '-DCMAKE_BUILD_TYPE=Release', '-DGPUVALUE_WASM_SMALL=OFF'], emEnv);
  const tw = run('cmake', ['--build', 'build/wasm', '-j', jobs], emEnv);
  console.log(`build: wasm engine and wasm tests (${(tw / 1000).toFixed(1)} s)`);
  run('emcmake', ['cmake', '-S', '.', '-B', 'build/wasm-small', '-DCMAKE_BUILD_TYPE=MinSizeRel', '-DGPUVALUE_WASM_SMALL=ON', '-DBUILD_TESTING=OFF'], emEnv);
  const ts = run('cmake', ['--build', 'build/wasm-small', '-j', jobs, '--target', 'gpuvalue_wasm'], emEnv);
  console.log(`build: size-optimised wasm engine for the offline file (${(ts / 1000).toFixed(1)} s)`);
}

const out = await buildWeb(root);
console.log(`build: web bundle in dist/site/, widget dist/site/gpu-value.js, offline page dist/gpuvalue.html (${out.offlineBytes} bytes)`);
