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

// The CLI run in this process (bin/cli/main.mjs `run`, what bin/gpuvalue.mjs calls) with its output captured, in
// English unless --lang says otherwise (LANG=en_US.UTF-8, LC_ALL empty, as a spawned `cli` run from a test sees).
// Commands share one engine loaded the CLI's way, except those given a catalog file (--catalog, --add-catalog), which
// change the engine's data and get a fresh one. For tests that run many commands; `cli` checks the process itself.
let sharedCliEngine = null;
export async function cliIn(args) {
  const { run } = await import('../../bin/cli/main.mjs');
  const { engine } = await import('../../bin/cli/io.mjs');
  const changesData = args.some((a) => /^--(add-)?catalog(=|$)/.test(a));
  const e = changesData ? await engine() : (sharedCliEngine ??= await engine());
  const text = { stdout: '', stderr: '' };
  const sink = (k) => ({ write: (chunk) => { text[k] += chunk; return true; } });
  const env = { LC_ALL: process.env.LC_ALL, LANG: process.env.LANG };
  Object.assign(process.env, { LC_ALL: '', LANG: 'en_US.UTF-8' });
  try {
    const code = await run(args, { out: sink('stdout'), err: sink('stderr'), engine: e });
    return { code, signal: null, ...text };
  } finally {
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}

// A command's JSON answer, run as cliIn does; fails the test, with the command and its stderr, on a non-zero exit.
export async function cliJson(args) {
  const r = await cliIn(args);
  if (r.code !== 0) throw new Error(`${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export function tmpFile(name, text) {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR || '/tmp'), 'gpuvalue-'));
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}
