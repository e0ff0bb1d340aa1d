// Files and the engine for the CLI: reading UTF-8 text and JSON the way the engine and the page do, the bundled
// data, and an engine that is replaced by a fresh instance after a wasm abort.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createEngine, GpuvalueError, todayIso } from '../../web/src/engine/client.js';
import { UsageError } from './options.mjs';
import { s } from './strings.mjs';
import { firstInvalidUtf8, bytePlace } from '../../web/src/format/utf8.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The largest data file read (a catalog, a SkyPilot CSV): far above the engine's own limits (200,000 import rows,
// 4 million JSON values; core/src/io/limits.hpp) for files of real offers, and a bound on what a device such as
// /dev/zero can make the command read.
export const MAX_DATA_FILE_BYTES = 256 * (1 << 20);

const tooLarge = (file, size, max) =>
  new GpuvalueError({ error: { code: 'too_large', path: file, message: s('error.file_too_large', { file, size, max }) } });

// The bytes of a regular file, at most `max` of them. A FIFO, a device or a directory is refused before anything is
// read (a FIFO would block, /dev/zero never ends); the file is opened without blocking and read through its own
// descriptor, so that what is checked is what is read, and a file growing past `max` while read is refused too.
function readBytes(file, max) {
  const notRegular = () => new GpuvalueError({ error: { code: 'invalid_value', path: file, message: s('error.not_regular_file', { file }) } });
  // stat first: it opens nothing (a socket on /dev/stdin cannot even be opened).
  let before = null;
  try { before = fs.statSync(file); } catch { /* open says what is wrong */ }
  if (before && !before.isFile()) throw notRegular();
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new UsageError(s('error.cannot_read', { file, detail: e.code === 'ENOENT' ? s('error.no_such_file') : e.message }));
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw notRegular();
    if (st.size > max) throw tooLarge(file, st.size, max);
    const chunks = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, max + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > max) throw tooLarge(file, total, max);
    }
    return Buffer.concat(chunks, total);
  } finally {
    fs.closeSync(fd);
  }
}

// Reads a UTF-8 text file (a regular file of at most `max` bytes). A leading byte order mark is dropped (the engine
// and the page drop it too). Bytes that are not UTF-8, and NUL bytes (no JSON or CSV text holds one; a reader that
// stops at it would judge a different document), are bad input (exit 1) with the place to look, the same verdict
// for every command that reads the file.
// A SkyPilot CSV keeps its NUL bytes (allowNul): the importer reads them itself, row by row, as the page's does.
export function readText(file, max = MAX_DATA_FILE_BYTES, { allowNul = false } = {}) {
  let buf = readBytes(file, max);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
  const nul = allowNul ? -1 : buf.indexOf(0);
  if (nul >= 0) {
    const where = bytePlace(buf, nul);
    throw new GpuvalueError({ error: { code: 'json_syntax', path: where, message: s('error.nul_byte', { file, where }) } });
  }
  const bad = firstInvalidUtf8(buf);
  if (bad >= 0) {
    const where = bytePlace(buf, bad);
    throw new GpuvalueError({ error: { code: 'json_syntax', path: where,
      message: s('error.not_utf8', { file, where, byte: buf[bad].toString(16).padStart(2, '0') }) } });
  }
  return buf.toString('utf8');
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
  return parseJson(readText(file, MAX_REQUEST_FILE_BYTES), file);
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
