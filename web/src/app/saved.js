// The user's stored data, handled so that nothing is lost: a value is only removed or overwritten once a copy of it
// is known to exist (written and read back), every unreadable value gets a slot of its own, and any exception while
// reading storage counts as unreadable data instead of stopping the page.
// localStorage holds the small state: the list of the user's catalogs and the small catalogs themselves. A large
// catalog document is kept in IndexedDB (no 5-million-character quota) and the list names it by key (engine/catalogstore.js);
// the engine host reads and writes those documents (engine/docstore.js), so that megabytes of text never cross the
// page's main thread. The page itself reads them only for the start-up screen's export before a reset.
import { STORE_KEY } from '../engine/catalogstore.js';
import { browserStorage as storage } from '../state/settings.js';

export { allDocs, resetDocs } from '../engine/docstore.js';

export const ASIDE_PREFIX = `${STORE_KEY}.unreadable`;
const PREFIX = 'gpuvalue.';

// The raw stored value, or {raw: null, error} when storage cannot be read at all.
export function readStored() {
  try {
    const s = storage();
    return { raw: s ? s.getItem(STORE_KEY) : null, error: null };
  } catch (e) {
    return { raw: null, error: String(e && e.message ? e.message : e) };
  }
}

// Copies raw into a new slot and reads it back; only then is the original removed. Returns {ok, key}: when the
// copy cannot be made (storage full: the value may be over half the quota) the original stays where it is.
export function setAside(raw) {
  const s = storage();
  if (!s || raw === null || raw === undefined) return { ok: false, key: null };
  let key = `${ASIDE_PREFIX}.${new Date().toISOString()}`;
  try {
    for (let n = 2; s.getItem(key) !== null; ++n) key = `${ASIDE_PREFIX}.${new Date().toISOString()}.${n}`;
    s.setItem(key, raw);
    if (s.getItem(key) !== raw) return { ok: false, key: null };
    s.removeItem(STORE_KEY);
    return { ok: true, key };
  } catch {
    try { if (s.getItem(key) !== raw) s.removeItem(key); } catch { /* nothing was written */ }
    return { ok: false, key: null };
  }
}

// Every value the page keeps in this browser ({key: text}), for an export before a reset.
export function storedValues() {
  const s = storage();
  const out = {};
  if (!s) return out;
  try {
    for (let i = 0; i < s.length; ++i) {
      const k = s.key(i);
      if (k && k.startsWith(PREFIX)) out[k] = s.getItem(k);
    }
  } catch { /* what could be read is returned */ }
  return out;
}

// Removes the page's stored values (after an export).
export function resetStored() {
  const s = storage();
  if (!s) return;
  for (const k of Object.keys(storedValues())) {
    try { s.removeItem(k); } catch { /* keep going */ }
  }
}

// Writes the store value; false when storage refuses it (full, blocked) — the previous value is then unchanged.
export function writeStored(text) {
  try {
    const s = storage();
    if (!s) return false;
    s.setItem(STORE_KEY, text);
    return true;
  } catch {
    return false;
  }
}

// Offers content (text or a Blob) as a file download, through an object URL (which works from file:// too).
export function download(content, filename, type) {
  const url = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}

// The user's measurements (state/measurements.js), saved in this browser per workload (its workloadKey): at most
// MEASURED_WORKLOADS workloads, the most recently changed kept. A value that cannot be read counts as none.
export const MEASUREMENTS_KEY = 'gpuvalue.measurements';
const MEASURED_WORKLOADS = 50;

function measurementsByWorkload() {
  try {
    const s = storage();
    const v = s ? JSON.parse(s.getItem(MEASUREMENTS_KEY) || '{}') : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

// The measurements saved for a workload ([] when none); only objects with a GPU and a count are returned.
export function savedMeasurements(key) {
  const list = measurementsByWorkload()[key];
  return Array.isArray(list) ? list.filter((m) => m && typeof m === 'object' && typeof m.gpu === 'string' && Number.isInteger(m.count)) : [];
}

// Saves a workload's measurements (an empty list removes its entry); false when storage refuses.
export function saveMeasurements(key, list) {
  const all = measurementsByWorkload();
  delete all[key];
  if (list.length) all[key] = list;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - MEASURED_WORKLOADS))) delete all[k];
  try {
    const s = storage();
    if (!s) return false;
    if (keys.length) s.setItem(MEASUREMENTS_KEY, JSON.stringify(all)); else s.removeItem(MEASUREMENTS_KEY);
    return true;
  } catch {
    return false;
  }
}
