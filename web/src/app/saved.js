// The user's stored data, handled so that nothing is lost: a value is only removed or overwritten once a copy of it
// is known to exist (written and read back), every unreadable value gets a slot of its own, and any exception while
// reading storage counts as unreadable data instead of stopping the page.
// localStorage holds the small state: the list of the user's catalogs and the small catalogs themselves. A large
// catalog document is kept in IndexedDB (no 5-million-character quota) and the list names it by key (app/store.js).
import { STORE_KEY, DOC_KEY_PREFIX } from './store.js';

export { download } from './export.js';

export const ASIDE_PREFIX = `${STORE_KEY}.unreadable`;
const PREFIX = 'gpuvalue.';

function storage() {
  try { return window.localStorage; } catch { return null; }
}

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

// ---- IndexedDB: large catalog documents, one record each (key -> JSON text) ----------------------------------------

const DB_NAME = 'gpuvalue';
const DOC_STORE = 'docs';
// Opening waits at most this long (another tab holding an older version blocks it): then the database counts as
// unavailable and the page goes on without it.
const OPEN_TIMEOUT_MS = 5000;

let dbPromise = null;
function openDb() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve) => {
      let idb = null;
      try { idb = globalThis.indexedDB || null; } catch { idb = null; }
      if (!idb) { resolve(null); return; }
      const timer = setTimeout(() => resolve(null), OPEN_TIMEOUT_MS);
      const done = (db) => { clearTimeout(timer); resolve(db); };
      try {
        const req = idb.open(DB_NAME, 1);
        req.onupgradeneeded = () => { if (!req.result.objectStoreNames.contains(DOC_STORE)) req.result.createObjectStore(DOC_STORE); };
        req.onsuccess = () => done(req.result);
        req.onerror = () => done(null);
        req.onblocked = () => done(null);
      } catch {
        done(null);
      }
    });
  }
  return dbPromise;
}

// One transaction on the document store: `work(store)` returns the request whose result is wanted (or null); the
// promise settles when the transaction completes (so a write is on disk), with that result, or rejects.
async function docTransaction(mode, work) {
  const db = await openDb();
  if (!db) throw new Error('IndexedDB is not available');
  return new Promise((resolve, reject) => {
    const tx = db.transaction(DOC_STORE, mode);
    const req = work(tx.objectStore(DOC_STORE));
    tx.oncomplete = () => resolve(req ? req.result : undefined);
    tx.onerror = () => reject(tx.error || new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error || new Error('IndexedDB transaction aborted'));
  });
}

// Stores a document under a new key and reads it back. Returns the key, or null when the database is unavailable
// or refuses it (quota): nothing is left behind then.
export async function putDoc(text) {
  const key = `${DOC_KEY_PREFIX}${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    await docTransaction('readwrite', (st) => st.put(text, key));
    if (await docTransaction('readonly', (st) => st.get(key)) === text) return key;
  } catch { /* refused: cleaned up below */ }
  try { await docTransaction('readwrite', (st) => st.delete(key)); } catch { /* nothing was written */ }
  return null;
}

// The documents under `keys` ({key: text}; a key with no record is absent), or null when the database cannot be read.
export async function readDocs(keys) {
  if (!keys.length) return {};
  try {
    const texts = await docTransaction('readonly', (st) => {
      const out = [];
      for (const k of keys) { const r = st.get(k); r.onsuccess = () => { out.push([k, r.result]); }; }
      return { get result() { return out; } };
    });
    return Object.fromEntries(texts.filter(([, v]) => typeof v === 'string'));
  } catch {
    return null;
  }
}

// Every stored document ({key: text}), for an export before a reset; {} when there is none or no database.
export async function allDocs() {
  try {
    const db = await openDb();
    if (!db) return {};
    const keys = await docTransaction('readonly', (st) => st.getAllKeys());
    return (await readDocs(keys.map(String))) || {};
  } catch {
    return {};
  }
}

// Removes every stored document (the start-up screen's reset, after the export).
export async function resetDocs() {
  try {
    if (await openDb()) await docTransaction('readwrite', (st) => st.clear());
  } catch { /* nothing to remove */ }
}

// Removes documents the list no longer names (after the list without them was written).
export async function deleteDocs(keys) {
  if (!keys.length) return;
  try { await docTransaction('readwrite', (st) => { for (const k of keys) st.delete(k); return null; }); } catch { /* kept; harmless */ }
}
