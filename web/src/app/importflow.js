// File imports on the page: several files at once (dropped or picked together), one report per file, and the
// refresh of an earlier import of the same provider (replace or merge, after a summary of what changes).
// The page's import actions (app.imports, made by importActions); the engine work is in engine/core.js (importFile,
// resolveImport), the entries and localStorage as in app/userdata.js.
import { todayIso } from '../format/format.js';
import { busyMessage } from '../views/import.js';
import { storeStep, noteRemoved } from './storesync.js';
import { nextTask } from '../views/tasks.js';

// A new task (the engine's answer arrives in a message task; saving and redrawing each get their own).

const ud = (app) => app.store.session.userData;

const ACTIONS = {
  // Files dropped or picked together, read one after the other; each gets its own line in the report.
  async importFiles(app, files) {
    const list = [...files];
    if (!list.length) return;
    app.markBusy();
    const items = [];
    ud(app).lastMessage = { kind: 'batch', items };
    let catalog = null;
    for (const file of list) {
      ud(app).busy = file.name;
      ud(app).cancelled = null;
      app.imports.renderImportStatus();
      const item = await app.imports.timedImport(file);
      if (item.catalog) catalog = item.catalog;
      delete item.catalog;
      items.push(item);
    }
    ud(app).busy = null;
    await nextTask();
    if (catalog) app.catalogChanged(catalog);
    else app.update({});
    if (items.some((i) => i.kind === 'error' || i.kind === 'conflict')) {
      document.getElementById('import-status')?.scrollIntoView({ block: 'nearest' });
    }
  },

  // One file, with the seconds it has taken shown while the engine works.
  async timedImport(app, file) {
    const t0 = Date.now();
    const tick = setInterval(() => {
      const el = document.getElementById('import-elapsed');
      if (el) el.textContent = app.t('importElapsed', { s: Math.round((Date.now() - t0) / 1000) });
    }, 1000);
    try {
      // One file is one change of the stored list (app/storesync.js): a removal waits for it, and so does another tab.
      return await storeStep(app, () => app.imports.importOne(file));
    } finally {
      clearInterval(tick);
    }
  },

  // One file: its report item ({kind: 'ok' | 'error' | 'conflict', name, …}; a new catalog when one was added).
  // The File itself goes to the engine host, which reads, converts, checks and holds it: the page never reads it.
  async importOne(app, file) {
    const path = file.webkitRelativePath || file.name;
    let r;
    try {
      // Cancelled while it waited for the store lock: never begun.
      if (ud(app).cancelled === file.name) throw Object.assign(new Error('cancelled'), { code: 'cancelled' });
      r = await app.host.request('importFile', { name: file.name, path, file, provider: ud(app).providerName.trim(), today: todayIso() });
    } catch (e) {
      r = { ok: false, errors: [e.code === 'cancelled' ? { path: '', message: app.t('importCancelled'), ui: true }
        : e.code === 'not_utf8' ? { path: e.path, message: app.t('importNotUtf8', { byte: e.message }), ui: true }
          : { path: e.explanation ? e.path || '' : '', message: e.explanation || String(e.message || e), ui: Boolean(e.aborted) }] };
    }
    if (!r.ok) return { kind: 'error', name: file.name, errors: r.errors || [], unmapped: r.unmapped || [] };
    const base = { name: file.name, provider: r.provider || '', count: r.count, warnings: r.warnings || [], unmapped: r.unmapped || [] };
    if (r.conflict) return { ...base, kind: 'conflict', entry: r.entry, conflict: r.conflict };
    app.user.setCatalogs(r.entries);
    // Too large for the browser's storage (about 5 million characters) or storage blocked: the catalog is used
    // for this session only, and the report says so (it is not an engine finding).
    const session = !(await app.user.persist());
    if (session) app.user.markSession(r.entry.uid);
    return { ...base, kind: 'ok', session, catalog: r.catalog };
  },

  // The user's answer to a refresh of an earlier import: 'replace', 'merge' or 'keep' (nothing changes).
  async resolveImport(app, item, mode) {
    const { index } = item.conflict;
    if (mode === 'keep') {
      const uid = item.entry && item.entry.uid;
      Object.assign(item, { kind: 'kept' });
      delete item.entry;
      app.update({});
      // The engine host lets the converted file go.
      if (uid) await app.host.request('resolveImport', { entry: { uid }, index, mode });
      return;
    }
    app.markBusy();
    await storeStep(app, () => app.imports.replaceNow(item, mode));
  },

  // Replaces or merges the earlier import, found by its name (another tab may have changed the list since).
  async replaceNow(app, item, mode) {
    const { name } = item.conflict;
    const index = ud(app).catalogs.findIndex((c) => c.name === name && c.added === item.conflict.added);
    const current = ud(app).catalogs[index];
    if (!current) {
      Object.assign(item, { kind: 'error', errors: [{ path: '', message: app.t('importGone', { name }), ui: true }] });
      app.update({});
      return;
    }
    noteRemoved(app, current);
    const before = ud(app).catalogs;
    const r = await app.host.request('resolveImport', { entry: item.entry, index, mode });
    app.user.setCatalogs(r.entries);
    if (!r.ok || !(await app.user.persist())) {
      const back = await app.host.request('setEntries', { entries: before });
      app.user.setCatalogs(back.entries);
      Object.assign(item, { kind: 'error', errors: r.ok ? [{ path: '', message: app.t('storageFull'), ui: true }] : r.errors });
      app.catalogChanged(back.catalog);
      return;
    }
    Object.assign(item, { kind: 'ok', resolved: mode, count: r.entries[index].count });
    delete item.entry;
    await nextTask();
    app.catalogChanged(r.catalog);
  },

  // Shows "importing…" in the data panel without rebuilding the controls.
  renderImportStatus(app) {
    const el = document.getElementById('import-status');
    if (el && ud(app).busy) el.replaceChildren(busyMessage(app.t, ud(app).busy, () => app.user.cancelImport()));
  },
};

// The actions bound to one page: app.imports.name(...args) runs ACTIONS.name(app, ...args).
export function importActions(app) {
  return Object.fromEntries(Object.entries(ACTIONS).map(([name, act]) => [name, (...args) => act(app, ...args)]));
}
