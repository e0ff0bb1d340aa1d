#!/usr/bin/env node
// Builds the named sanitizer trees one after the other (`node scripts/build-sanitizers.mjs asan fuzz`) and prints
// each build's time and log tail. scripts/test.mjs starts it in the background at the lowest CPU priority while its
// other layers run: ctest, node --test and the browser leave much of the second core idle, and the sanitize and
// fuzz layers then find their trees built.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPreset, errorLines } from './cmake.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let failed = 0;
for (const preset of process.argv.slice(2)) {
  const r = buildPreset(root, preset);
  console.log(`background build: preset ${preset} ${r.ok ? 'done' : 'FAILED'} (${r.seconds.toFixed(1)} s)`);
  if (!r.ok) { failed++; console.log(errorLines(r.log)); }
}
process.exit(failed ? 1 : 0);
