// The user's own data on the page: stored catalogs loaded at start, the offer form, removal (file imports:
// app/importflow.js). The page's actions on the user's data (app.user, made by userActions). The engine host
// (engine/usercatalogs.js, in the worker) holds the catalogs' documents, converts and checks imports and keeps
// large documents in IndexedDB; the page keeps summaries of the entries ({uid, name, kind, added, count, ref?, session?, rejected?, missing?, blob}: a Blob of
// the document, never its text) and writes the list to localStorage (app/saved.js).
import { todayIso } from '../format/format.js';
import { formValuesFrom } from '../engine/catalogstore.js';
import { readStored, setAside, writeStored, download } from './saved.js';
import { withStoreLock, storeStep, noteStored, noteRemoved, wouldLose, entryKey, syncFromStore, followOtherTabs } from './storesync.js';
import { checkOfferValues } from '../views/import.js';

// Entries from the engine host, with the page's own mark kept: `session` (storage refused them) by uid.
function keepSession(next, before) {
  const session = new Set(before.filter((c) => c.session).map((c) => c.uid));
  return next.map((c) => (session.has(c.uid) && !c.session ? { ...c, session: true } : c));
}

const ud = (app) => app.store.session.userData;
// Per page, the last write of the list: writes run one after the other.
const PERSISTING = new WeakMap();

const ACTIONS = {
  async loadUserCatalogs(app) {
    const { raw } = readStored();
    let r;
    try {
      // The engine host reads the large documents the stored list names from IndexedDB itapp.user.
      r = await app.host.request('initStore', { raw });
    } catch (e) {
      // Whatever went wrong while reading the stored value: it is unreadable data, set aside, not a dead page.
      r = { ...(await app.host.request('initStore', { raw: null })), problem: 'corrupt' };
    }
    if (r.problem === 'newer') {
      // A newer version's list stays exactly where that version looks for it: this session saves nothing over it.
      ud(app).storeLocked = true;
      app.store.session.notices.push({ kind: 'warn', key: 'storageNewerKept', id: 'storage-notice', vars: {} });
    } else if (r.problem) {
      const aside = setAside(raw);
      // Not set aside (too large to copy): the value stays where it is and nothing overwrites it this session.
      if (!aside.ok) ud(app).storeLocked = true;
      app.store.session.notices.push({ kind: 'warn', key: aside.ok ? 'storageCorrupt' : 'storageKeptInPlace', id: 'storage-notice', vars: { key: aside.key || '' } });
    }
    ud(app).catalogs = r.entries;
    // The catalogs (and IndexedDB documents) the stored list names: a write may drop only those the user removes.
    noteStored(app, r.problem ? null : raw, r.problem ? [] : r.entries);
    followOtherTabs(app);
    if (r.rejected.length) {
      app.store.session.notices.push({ kind: 'warn', key: 'storageRejected', id: 'storage-rejected', vars: { names: r.rejected.map((x) => x.name).join(', ') },
        details: r.rejected.map((x) => ({ name: x.name, error: x.error || null })) });
    }
    if (r.missing && r.missing.length) {
      app.store.session.notices.push({ kind: 'warn', key: 'storageMissing', id: 'storage-missing', vars: { names: r.missing.join(', ') } });
    }
    app.setCatalog(r.catalog);
    // A fresh engine (after a wasm abort or a cancelled import) gets the user's catalogs back.
    app.host.onRestart = () => app.user.restoreEngine();
  },

  // A fresh engine gets the catalogs again; when it cannot, nothing is saved this session (the page would list
  // catalogs the engine no longer has, and a write from that list could lose them). When the engine was replaced
  // again meanwhile (its call failed for that), the newer engine's restore follows and this one is not a failure.
  restoreEngine(app) {
    return withStoreLock(app, async () => {
      try {
        const r = await app.host.request('setEntries', { entries: ud(app).catalogs });
        app.user.setCatalogs(r.entries);
        app.catalogChanged(r.catalog);
      } catch {
        if (app.host.replacing) return;
        ud(app).storeLocked = true;
        app.store.session.notices.push({ kind: 'warn', key: 'storageRestoreFailed', id: 'storage-restore', vars: {} });
        app.update({});
      }
    });
  },

  // The user's entries as the engine host answered them.
  setCatalogs(app, entries) {
    ud(app).catalogs = keepSession(entries, ud(app).catalogs);
  },

  // Writes the entries that are not session-only, one write at a time. Resolves false when storage refuses
  // (nothing stored changes then), or while an unreadable value that could not be set aside still sits in the
  // list's place.
  persist(app) {
    const run = () => app.user.persistNow();
    const before = PERSISTING.get(app) || Promise.resolve();
    const next = before.then(run, run);
    PERSISTING.set(app, next);
    return next;
  },

  // The engine host puts large documents in IndexedDB (each written and read back) and answers the list's
  // text; the page writes it to localStorage. The documents the new list no longer names are removed only once it
  // is written; when it cannot be, the ones just added go again. A document IndexedDB refuses stays in the list
  // itself, where localStorage's quota decides.
  // A list that would lose a stored catalog the user did not remove is not written: the stored list is loaded
  // again instead (storesync.js), and nothing is removed.
  async persistNow(app) {
    if (ud(app).storeLocked) return false;
    if (wouldLose(app, ud(app).catalogs).length) {
      ud(app).lastRaw = undefined;
      await syncFromStore(app, { notice: false });
      return false;
    }
    const session = ud(app).catalogs.filter((c) => c.session).map((c) => c.uid);
    const r = await app.host.request('storeDocs', { session });
    app.user.setCatalogs(r.entries);
    if (!writeStored(r.text)) {
      if (r.added.length) app.user.setCatalogs((await app.host.request('dropDocs', { refs: r.added })).entries);
      return false;
    }
    const named = new Set(ud(app).catalogs.filter((c) => !c.session).map((c) => c.ref).filter(Boolean));
    const gone = [...(ud(app).removedRefs || [])].filter((k) => !named.has(k) && ud(app).storedRefs.has(k));
    noteStored(app, r.text, ud(app).catalogs);
    if (gone.length) await app.host.request('dropDocs', { refs: gone });
    return true;
  },

  // A catalog kept for this session only (storage refused it): the page's mark, sent with every later write.
  markSession(app, uid) {
    const c = ud(app).catalogs.find((x) => x.uid === uid);
    if (c) c.session = true;
  },

  // The document of one of the user's catalogs as a file: its Blob, never read on the page.
  exportCatalog(app, index) {
    const c = ud(app).catalogs[index];
    if (c && c.blob) download(c.blob, `${c.name.replace(/[^\w.-]+/g, '_') || 'catalog'}.json`, 'application/json');
  },

  // Stops the file being imported: its engine call (the worker is replaced), or, when the import still waits for
  // the store lock, the call before it is made.
  cancelImport(app) {
    if (!ud(app).busy) return;
    ud(app).cancelled = ud(app).busy;
    app.host.cancel();
  },

  // Removes the catalog at index (as the list showed it: found again by its key if another tab changed the list).
  async removeCatalog(app, index) {
    const target = ud(app).catalogs[index];
    if (!target) return;
    app.markBusy();
    await storeStep(app, async () => {
      const at = findEntry(ud(app).catalogs, target);
      if (at < 0) { app.update({}); return; }  // removed in another tab already
      noteRemoved(app, ud(app).catalogs[at]);
      const r = await app.host.request('setEntries', { entries: ud(app).catalogs.filter((_, i) => i !== at) });
      app.user.setCatalogs(r.entries);
      ud(app).lastMessage = null;
      await app.user.persist();
      app.catalogChanged(r.catalog);
    });
  },

  // A rejected stored catalog: its offers that pass become a new catalog (named "… (valid offers)"); the rejected
  // one stays stored as it was, for export or removal. The report names every offer left out and why.
  async repairCatalog(app, index) {
    const c = ud(app).catalogs[index];
    if (!c || !c.rejected) return;
    app.markBusy();
    await storeStep(app, () => app.user.repairNow(c));
  },

  async repairNow(app, c) {
    const index = findEntry(ud(app).catalogs, c);
    if (index < 0) { app.update({}); return; }
    const r = await app.host.request('repairEntry', { index, suffix: app.t('repairedSuffix'), today: todayIso() });
    if (!r.ok) {
      ud(app).lastMessage = { kind: 'error', titleKey: 'repairFailed', name: c.name, errors: r.errors || [] };
      app.update({});
      return;
    }
    app.user.setCatalogs(r.entries);
    const entry = ud(app).catalogs[ud(app).catalogs.length - 1];
    const session = !(await app.user.persist());
    if (session) app.user.markSession(entry.uid);
    ud(app).lastMessage = { kind: 'repaired', name: entry.name, from: c.name, count: entry.count, dropped: r.dropped, session };
    app.catalogChanged(r.catalog);
  },

  // The catalog record of a bundled offer, without the engine (the page has the bundled documents).
  localRecord(app, id) {
    for (const d of app.env.bundledDocs) {
      const inst = d.instances.find((i) => i.id === id);
      if (inst) return { inst, fx: d.fx || null, bundled: true };
    }
    return null;
  },

  // Opens the offer form, filled from an offer (a copy of a bundled one, or one of the user's own to edit).
  async editOffer(app, id, { template }) {
    const rec = app.user.localRecord(id) || await app.host.request('offerRecord', { id });
    if (!rec) return;
    ud(app).form = formValuesFrom(rec.inst, { fx: rec.fx });
    if (template) {
      ud(app).form.as_of = todayIso();
      ud(app).form.source = '';
    }
    ud(app).editingId = !template && rec.kind === 'manual' ? id : null;
    ud(app).formOpen = true;
    ud(app).formMessage = null;
    app.update({});
    const panel = document.getElementById('data-panel');
    if (panel) panel.open = true;
    const el = document.getElementById('of-provider');
    if (el) { el.scrollIntoView({ block: 'center' }); el.focus(); }
  },

  cancelOfferForm(app) {
    Object.assign(ud(app), { form: null, editingId: null, formOpen: false, formMessage: null });
    app.update({});
  },

  async saveOffer(app, values) {
    const t = app.t;
    const fail = (errors) => {
      ud(app).form = values;
      ud(app).formOpen = true;
      ud(app).formMessage = { kind: 'error', titleKey: 'ofFailed', errors };
      app.update({});
      document.getElementById('offer-status')?.focus?.();
    };
    const errors = checkOfferValues(values, t);
    if (errors.length) return fail(errors);
    app.markBusy();
    return storeStep(app, () => app.user.saveOfferNow(values, fail));
  },

  async saveOfferNow(app, values, fail) {
    const t = app.t;
    const editing = ud(app).editingId;
    if (editing) noteRemoved(app, ud(app).catalogs.find((c) => c.offerId === editing));
    const before = ud(app).catalogs;
    const r = await app.host.request('saveOffer', { values, rate: app.store.state.rate, today: todayIso(), editingId: editing });
    if (!r.ok) return fail(r.errors);
    app.user.setCatalogs(r.entries);
    if (!(await app.user.persist())) {
      const back = await app.host.request('setEntries', { entries: before });
      app.user.setCatalogs(back.entries);
      app.setCatalog(back.catalog);
      return fail([{ path: '', message: t('storageFull'), ui: true }]);
    }
    Object.assign(ud(app), { form: null, editingId: null, formOpen: false, formMessage: null,
      lastMessage: { kind: 'ok', name: r.entry.name, count: 1, warnings: [] } });
    // Show the saved offer in the details panel once the new ranking is in (when it is in the current view).
    app.store.session.pendingSelectId = r.id;
    app.catalogChanged(r.catalog);
    return undefined;
  },
};

// The index of a catalog in a list: the same entry (uid), or, after the list was loaded again, the one with its key.
export function findEntry(list, c) {
  const same = list.findIndex((x) => x.uid === c.uid);
  return same >= 0 ? same : list.findIndex((x) => entryKey(x) === entryKey(c));
}

// The actions bound to one page: app.user.name(...args) runs ACTIONS.name(app, ...args).
export function userActions(app) {
  return Object.fromEntries(Object.entries(ACTIONS).map(([name, act]) => [name, (...args) => act(app, ...args)]));
}
