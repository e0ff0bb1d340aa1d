// Shared setup for the JS tests: the real built wasm module and the real data files.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createEngine } from '../../web/src/engine/client.js';
import { dataBundle } from '../../scripts/build-web.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const enginePath = path.join(root, 'dist/engine/gpuvalue_engine.cjs');

export async function loadEngine() {
  const factory = createRequire(import.meta.url)(enginePath);
  return createEngine(factory, dataBundle(root), { today: '2026-12-02' });
}

export function cli(args, { input } = {}) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/gpuvalue.mjs'), ...args], { cwd: root, encoding: 'utf8', input, maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

export function tmpFile(name, text) {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR || '/tmp'), 'gpuvalue-'));
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}
