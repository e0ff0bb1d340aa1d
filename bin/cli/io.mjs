// Files and the engine for the CLI: reading UTF-8 text and JSON the way the engine and the page do, the bundled
// data, and an engine that is replaced by a fresh instance after a wasm abort.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createEngine, GpuvalueError, todayIso } from '../../web/src/engine/client.js';
import { UsageError } from './options.mjs';
import { s } from './strings.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Reads a UTF-8 text file. A leading byte order mark is dropped (the engine and the page drop it too). Bytes that
// are not UTF-8 are bad input (exit 1), not silently replaced by U+FFFD: the engine rejects them in JSON too, and
// the position says where to look (columns count bytes, as the engine's do).
export function readText(file) {
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    throw new UsageError(s('error.cannot_read', { file, detail: e.code === 'ENOENT' ? s('error.no_such_file') : e.message }));
  }
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
  const text = buf.toString('utf8');
  if (text.includes('\uFFFD')) {
    const back = Buffer.from(text, 'utf8');
    let i = 0;
    while (i < buf.length && i < back.length && buf[i] === back[i]) i++;
    if (i < buf.length || back.length !== buf.length) {
      const line = buf.subarray(0, i).filter((b) => b === 10).length + 1;
      const column = i - buf.lastIndexOf(10, i - 1);
      const where = `line ${line}, column ${i === 0 ? 1 : column}`;
      throw new GpuvalueError({ error: { code: 'json_syntax', path: where,
        message: s('error.not_utf8', { file, where, byte: buf[i].toString(16).padStart(2, '0') }) } });
    }
  }
  return text;
}

// JSON.parse that rejects numbers beyond the range of a double (1e400 would silently become Infinity, then null).
export function parseJson(text, file) {
  try {
    return JSON.parse(text, (key, value) => {
      if (typeof value === 'number' && !Number.isFinite(value))
        throw new RangeError(s('error.number_out_of_range', { key: key ? ` "${key}"` : '' }));
      return value;
    });
  } catch (e) {
    throw new GpuvalueError({ error: { code: 'json_syntax', path: file, message: s('error.not_json', { file, detail: e.message }) } });
  }
}

// The engine's request size limit (core/src/io/limits.hpp, kMaxRequestBytes): a workload or demand file is part of
// a request, so a larger one is refused before it is read and parsed (a 25 MB file took a minute to parse).
const MAX_REQUEST_FILE_BYTES = 1 << 20;

// A workload or demand file.
export function readJsonFile(file) {
  let size = 0;
  try { size = fs.statSync(file).size; } catch { /* readText says what is wrong */ }
  if (size > MAX_REQUEST_FILE_BYTES)
    throw new GpuvalueError({ error: { code: 'too_large', path: file, message: s('error.file_too_large', { file, size, max: MAX_REQUEST_FILE_BYTES }) } });
  return parseJson(readText(file), file);
}

// The data files; the catalogs as their text, which the engine reads as it is (no parse and stringify at start).
function loadBundle() {
  const text = (p) => fs.readFileSync(path.join(root, p), 'utf8');
  const dir = path.join(root, 'data/catalog');
  const catalogTexts = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => text(`data/catalog/${f}`));
  const data = { gpus: JSON.parse(text('data/gpus.json')), presets: JSON.parse(text('data/presets.json')),
    serving_presets: JSON.parse(text('data/serving-presets.json')) };
  return { data, catalogTexts };
}

// The date prices are judged stale against: GPUVALUE_TODAY (YYYY-MM-DD, for reproducible answers) or the clock.
function today() {
  const t = process.env.GPUVALUE_TODAY;
  if (t === undefined || t === '') return todayIso();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(t) || Number.isNaN(Date.parse(`${t}T00:00:00Z`)) || new Date(`${t}T00:00:00Z`).toISOString().slice(0, 10) !== t)
    throw new UsageError(s('error.today', { value: t }));
  return t;
}

// A wasm abort (out of memory, a trap) leaves the instance in an unknown state: it is never called again.
export const isWasmAbort = (e) => e instanceof WebAssembly.RuntimeError || (e instanceof Error && /^Aborted\(/.test(e.message));

export async function engine() {
  const modulePath = path.join(root, 'dist/engine/gpuvalue_engine.cjs');
  if (!fs.existsSync(modulePath)) throw new UsageError(s('error.not_built'));
  const factory = createRequire(import.meta.url)(modulePath);
  const { data, catalogTexts } = loadBundle();
  return createEngine(factory, data, { today: today(), catalogTexts });
}
