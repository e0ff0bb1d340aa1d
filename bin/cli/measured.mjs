// --measured of estimate, rank and compare, and the `measured` command: the user's own measurements, each a file of
// the probe script's JSON lines (one measurement per line) or a typed short form ("3150 tokens/s on a100-sxm4-80gb
// x8"), read by the engine's parse_measurement; and the lines that say what an answer was calibrated on.
import fs from 'node:fs';
import { GpuvalueError } from '../../web/src/engine/client.js';
import { readText } from './io.mjs';
import { explain } from './lang.mjs';
import { s } from './strings.mjs';

// An argument that names a regular file is a file of probe lines; anything else is a typed measurement.
const isFile = (arg) => { try { return fs.statSync(arg).isFile(); } catch { return false; } };

// The engine's error with where it came from: the file and line, or the typed text.
function located(err, where) {
  const error = { code: err.code, path: `${where}${err.path ? `: ${err.path}` : ''}`, message: err.explanation ?? err.message };
  return new GpuvalueError({ error, issues: [] });
}

function parseOne(e, text, where) {
  try {
    return e.parse_measurement({ text }).measurement;
  } catch (err) {
    if (err instanceof GpuvalueError) throw located(err, where);
    throw err;
  }
}

// The measurement objects of every --measured value, in order: each non-empty line of a file (lines starting with #
// are comments), or the value itself; `origins` says where each came from.
export function measurementsOf(values, e, origins = []) {
  const out = [];
  const add = (text, where) => { out.push(parseOne(e, text, where)); origins.push(where); };
  for (const arg of values || []) {
    if (!isFile(arg)) {
      add(arg, s('measured.typed', { text: arg }));
      continue;
    }
    const lines = readText(arg).split(/\r?\n/);
    const before = out.length;
    lines.forEach((line, i) => {
      if (line.trim() && !line.trim().startsWith('#')) add(line, s('measured.line', { file: arg, line: i + 1 }));
    });
    if (out.length === before) throw new GpuvalueError({ error: { code: 'invalid_value', path: arg, message: s('measured.empty_file', { file: arg }) }, issues: [] });
  }
  return out;
}

// The request's measurements member (absent without --measured), and `answer(fn)`: the engine's answer to fn(), an
// error about /measurements/<i> said with the --measured value (or file and line) it came from.
export function measuredRequest(opts, e) {
  const origins = [];
  const list = measurementsOf(opts.measured, e, origins);
  const answer = (fn) => {
    try {
      return fn();
    } catch (err) {
      const at = err instanceof GpuvalueError && /^\/measurements\/(\d+)/.exec(err.path || '');
      if (at && origins[Number(at[1])]) throw located(err, origins[Number(at[1])]);
      throw err;
    }
  };
  return { request: list.length ? { measurements: list } : {}, answer };
}

// The lines of an answer's calibration: what each measurement says (the engine's summary, rendered), its flags, and
// how much several measurements disagree. [] without a calibration.
export function calibrationLines(calibration) {
  if (!calibration) return [];
  const lines = [];
  for (const m of calibration.measurements) {
    lines.push(explain(m.summary));
    for (const f of m.flags) lines.push(s('line.warning', { text: explain(f) }));
  }
  if (calibration.measurements.length > 1) lines.push(s('measured.spread', { spread: calibration.spread.toFixed(2), factor: calibration.factor.toFixed(2) }));
  return lines;
}

// The mark of a calibrated row: how near its measurement is.
export const calibratedMark = (c) => (c ? s(`measured.distance.${c.distance}`) : '');

// `gpuvalue measured FILE|TEXT...`: the measurements as the engine reads them, to check them before ranking.
export function measuredCommand(opts, e, positionals, out) {
  const list = measurementsOf(positionals, e);
  const names = Object.fromEntries(e.gpus().map((g) => [g.id, g.name]));
  out(opts, { measurements: list }, () => list.map((m) => s('measured.item', {
    rate: (m.tokens_per_s ?? m.samples_per_s).toLocaleString('en-US'), unit: m.tokens_per_s !== undefined ? 'tokens' : 'samples',
    count: m.count, gpu: names[m.gpu] ?? m.gpu, source: m.source, layers: m.layers_run ? s('measured.layers', { run: m.layers_run, of: m.layers }) : '',
  })).join('\n'));
  return 0;
}
