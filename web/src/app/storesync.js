// The user's catalogs shared by every tab of the page: the stored list (localStorage, app/saved.js) is the one
// source of truth, and every change to it runs as one step that no other tab (and no other step of this tab) can
// interleave with:
//   1. take the store lock (Web Locks, across tabs; a promise chain where the browser has none),
//   2. read the stored list again; when another tab has changed it since this tab last read or wrote it, load
//      that list first (the engine host reads it as at start-up), keeping this tab's session-only catalogs,
//   3. make the change on the list now loaded, and write it.
// A write never drops a stored catalog the user did not remove here: the catalogs the stored list had are
// compared with the new list, and a write that would lose one is refused (the list is loaded again instead), so
// that a failed restore after an engine restart, or a change made on an old copy, cannot delete anything. The
// IndexedDB documents removed are only those of catalogs the user removed or replaced.
// Another tab's write shows here at once (the `storage` event), with a notice.
import { STORE_KEY } from '../engine/catalogstore.js';
import { readStored } from './saved.js';

export const LOCK_NAME = `${STORE_KEY}.lock`;
const ud = (app) => app.store.session.userData;

// Runs fn with the store lock held; one chain per page where Web Locks are missing (a tab then only orders its own steps).
// (Web Locks grant one name's requests in the order they were made, so the chain is needed only without them.)
const LOCAL = new WeakMap();
export function withStoreLock(app, fn) {
  const locks = typeof navigator !== 'undefined' && navigator.locks && typeof navigator.locks.request === 'function' ? navigator.locks : null;
  if (locks) return locks.request(LOCK_NAME, () => fn());
  const before = LOCAL.get(app) || Promise.resolve();
  const next = before.then(fn, fn);
  LOCAL.set(app, next.catch(() => {}));
  return next;
}

// What identifies a stored catalog across tabs and reloads: its IndexedDB key, else its name, kind, date and size.
export const entryKey = (c) => (c.ref ? `ref:${c.ref}` : `${c.kind}|${c.name}|${c.added}|${c.count}`);

// The stored catalogs this tab knows the list holds (after a load or a write): what a write must not lose.
// Nothing is marked removed any more: the list written (or loaded) is the one to compare the next write with.
export function noteStored(app, raw, catalogs) {
  ud(app).lastRaw = raw;
  ud(app).removedKeys = new Set();
  ud(app).removedRefs = new Set();
  ud(app).storedKeys = new Set(catalogs.filter((c) => !c.session).map(entryKey));
  ud(app).storedRefs = new Set(catalogs.filter((c) => !c.session).map((c) => c.ref).filter(Boolean));
}

// A catalog the user removed or replaced: the next write may drop it, and its IndexedDB document with it.
export function noteRemoved(app, c) {
  if (!c) return;
  (ud(app).removedKeys ||= new Set()).add(entryKey(c));
  if (c.ref) (ud(app).removedRefs ||= new Set()).add(c.ref);
}

// The stored catalogs a new list would lose without the user having removed them (keys), for a write to refuse.
export function wouldLose(app, catalogs) {
  const kept = new Set(catalogs.filter((c) => !c.session).map(entryKey));
  const removed = ud(app).removedKeys || new Set();
  return [...(ud(app).storedKeys || [])].filter((k) => !kept.has(k) && !removed.has(k));
}

// Step 2 above: when the stored list is not the one this tab last read or wrote, the engine host loads it (this
// tab's session-only catalogs stay), and the page shows the new catalog. True when it did.
export async function syncFromStore(app, { notice = true } = {}) {
  if (ud(app).storeLocked) return false;
  const { raw, error } = readStored();
  if (error || raw === ud(app).lastRaw) return false;
  const session = ud(app).catalogs.filter((c) => c.session);
  let r = await app.host.request('initStore', { raw });
  if (r.problem) return false;  // another version's or a damaged value: left alone; this tab's writes are refused by wouldLose
  if (session.length) r = { ...r, ...(await app.host.request('setEntries', { entries: [...r.entries, ...session] })) };
  app.user.setCatalogs(r.entries);
  noteStored(app, raw, r.entries);
  if (notice && !app.store.session.notices.some((n) => n.id === 'storage-other-tab')) {
    app.store.session.notices.push({ kind: 'ok', key: 'storageOtherTab', id: 'storage-other-tab', vars: {} });
  }
  app.catalogChanged(r.catalog);
  return true;
}

// A change to the user's catalogs (import, removal, repair, a typed offer): under the lock, on the stored list.
export function storeStep(app, fn) {
  return withStoreLock(app, async () => {
    await syncFromStore(app);
    return fn();
  });
}

// Another tab wrote the list: load it here too.
export function followOtherTabs(app) {
  if (typeof window === 'undefined') return;
  window.addEventListener('storage', (e) => {
    if (e.key === STORE_KEY || e.key === null) withStoreLock(app, () => syncFromStore(app));
  });
}
