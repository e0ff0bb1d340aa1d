// Configures and builds the CMake trees through the presets in CMakePresets.json (`cmake --preset X`,
// `cmake --build --preset X`), so the flags of each tree are written down once. Used by build.mjs, test.mjs and
// fuzz.mjs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Parallel jobs for builds and ctest: the machine's cores, or GPUVALUE_JOBS when it is set.
export function jobs() {
  const raw = process.env.GPUVALUE_JOBS;
  if (raw === undefined || raw === '') return Math.max(1, os.availableParallelism());
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`GPUVALUE_JOBS must be a whole number of at least 1, not "${raw}"`);
  return n;
}

// The build directory of a configure preset (every preset builds in build/<preset name>).
export const presetDir = (preset) => `build/${preset}`;

function cmake(root, args, env) {
  const r = spawnSync('cmake', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  return { status: r.status ?? 1, out: `${r.stdout || ''}${r.stderr || ''}${r.error ? `${r.error.message}\n` : ''}` };
}

// Configures the preset's tree. Configuring again is cheap and changes nothing when the cache already matches.
// A tree the preset cannot configure (made with another generator, copied from another checkout, ...) loses its
// cache and is configured afresh once; its object files stay and are reused where they still fit.
function configure(root, preset, env) {
  let r = cmake(root, ['--preset', preset], env);
  if (r.status === 0) return { ...r, reconfigured: false };
  const dir = path.join(root, presetDir(preset));
  if (!fs.existsSync(path.join(dir, 'CMakeCache.txt'))) return { ...r, reconfigured: false };
  fs.rmSync(path.join(dir, 'CMakeCache.txt'), { force: true });
  fs.rmSync(path.join(dir, 'CMakeFiles'), { recursive: true, force: true });
  const again = cmake(root, ['--preset', preset], env);
  return { status: again.status, out: `${r.out}${again.out}`, reconfigured: true };
}

// Configures and builds one preset; `targets` overrides the build preset's targets.
// Returns {ok, seconds, log, reconfigured}.
export function buildPreset(root, preset, { targets = [], env = {} } = {}) {
  const t0 = Date.now();
  const c = configure(root, preset, env);
  let log = c.out;
  let status = c.status;
  if (status === 0) {
    const args = ['--build', '--preset', preset, '-j', String(jobs())];
    for (const t of targets) args.push('--target', t);
    const b = cmake(root, args, env);
    log += b.out;
    status = b.status;
  }
  return { ok: status === 0, seconds: (Date.now() - t0) / 1000, log, reconfigured: c.reconfigured };
}

// The lines of a build log worth showing when it failed.
export const errorLines = (log, max = 40) => log.split('\n').filter((l) => /error|Error/.test(l)).slice(0, max).join('\n');

// Prints "<prefix>: <label> …" before a stage and "<prefix>: <label> done (12.3 s)" after it; returns fn's value.
export function announce(prefix, label, fn) {
  console.log(`${prefix}: ${label} …`);
  const t0 = Date.now();
  const result = fn();
  const settle = (v) => {
    const failed = v && v.ok === false;
    console.log(`${prefix}: ${label} ${failed ? 'FAILED' : 'done'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return v;
  };
  return result instanceof Promise ? result.then(settle) : settle(result);
}

// Builds a preset as one announced stage ("<prefix>: <label> (preset X, build/X, N jobs) …", then its time), saying
// so when the tree had to be configured afresh. Returns buildPreset's result.
export function buildStage(root, prefix, label, preset, options = {}) {
  return announce(prefix, `${label} (preset ${preset}, ${presetDir(preset)}, ${jobs()} jobs)`, () => {
    const r = buildPreset(root, preset, options);
    if (r.reconfigured) console.log(`${prefix}: ${presetDir(preset)} could not be configured as it was; configured afresh`);
    return r;
  });
}
