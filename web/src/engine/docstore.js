// Large catalog documents in IndexedDB, one record each (key -> JSON text). The engine host uses these (in the
// engine worker, or on the page when no worker runs): the worker reads an imported file, stores its document and
// reads it back at start-up, so the page's main thread never holds, clones or writes megabytes of text. Every
// function works where IndexedDB does not (a private window that refuses it, Node): it then answers "unavailable".
import { DOC_KEY_PREFIX } from './catalogstore.js';

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
