// File imports on the page: several files at once (dropped or picked together), one report per file, and the
// refresh of an earlier import of the same provider (replace or merge, after a summary of what changes).
// Methods of the page App (mixed in by app/main.js); the engine work is in engine/core.js (importFile,
// resolveImport), the entries and localStorage as in app/userdata.js.
import { todayIso } from '../engine/client.js';
import { busyMessage } from '../views/import.js';

// A new task (the engine's answer arrives in a message task; saving and redrawing each get their own).
const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });

export class ImportFlowMethods {
  // Files dropped or picked together, read one after the other; each gets its own line in the report.
  async importFiles(files) {
    const list = [...files];
    if (!list.length) return;
    this.markBusy();
    const items = [];
    this.userData.lastMessage = { kind: 'batch', items };
    let catalog = null;
    for (const file of list) {
      this.userData.busy = file.name;
      this.renderImportStatus();
      const item = await this.timedImport(file);
      if (item.catalog) catalog = item.catalog;
      delete item.catalog;
      items.push(item);
    }
    this.userData.busy = null;
    await nextTask();
    if (catalog) this.catalogChanged(catalog);
    else this.update({});
    if (items.some((i) => i.kind === 'error' || i.kind === 'conflict')) {
      document.getElementById('import-status')?.scrollIntoView({ block: 'nearest' });
    }
  }

  // One file, with the seconds it has taken shown while the engine works.
  async timedImport(file) {
    const t0 = Date.now();
    const tick = setInterval(() => {
      const el = document.getElementById('import-elapsed');
      if (el) el.textContent = this.t('importElapsed', { s: Math.round((Date.now() - t0) / 1000) });
    }, 1000);
    try {
      return await this.importOne(file);
    } finally {
      clearInterval(tick);
    }
  }

  // One file: its report item ({kind: 'ok' | 'error' | 'conflict', name, …}; a new catalog when one was added).
  // The File itself goes to the engine host, which reads, converts, checks and holds it: the page never reads it.
  async importOne(file) {
    const path = file.webkitRelativePath || file.name;
    let r;
    try {
      r = await this.host.request('importFile', { name: file.name, path, file, provider: this.userData.providerName.trim(), today: todayIso() });
    } catch (e) {
      r = { ok: false, errors: [e.code === 'cancelled' ? { path: '', message: this.t('importCancelled'), ui: true }
        : { path: e.explanation ? e.path || '' : '', message: e.explanation || String(e.message || e), ui: Boolean(e.aborted) }] };
    }
    if (!r.ok) return { kind: 'error', name: file.name, errors: r.errors || [], unmapped: r.unmapped || [] };
    const base = { name: file.name, provider: r.provider || '', count: r.count, warnings: r.warnings || [], unmapped: r.unmapped || [] };
    if (r.conflict) return { ...base, kind: 'conflict', entry: r.entry, conflict: r.conflict };
    this.setCatalogs(r.entries);
    // Too large for the browser's storage (about 5 million characters) or storage blocked: the catalog is used
    // for this session only, and the report says so (it is not an engine finding).
    const session = !(await this.persist());
    if (session) this.markSession(r.entry.uid);
    return { ...base, kind: 'ok', session, catalog: r.catalog };
  }

  // The user's answer to a refresh of an earlier import: 'replace', 'merge' or 'keep' (nothing changes).
  async resolveImport(item, mode) {
    const { index, name } = item.conflict;
    if (mode === 'keep') {
      const uid = item.entry && item.entry.uid;
      Object.assign(item, { kind: 'kept' });
      delete item.entry;
      this.update({});
      // The engine host lets the converted file go.
      if (uid) await this.host.request('resolveImport', { entry: { uid }, index, mode });
      return;
    }
    const current = this.userData.catalogs[index];
    if (!current || current.name !== name) {
      Object.assign(item, { kind: 'error', errors: [{ path: '', message: this.t('importGone', { name }), ui: true }] });
      this.update({});
      return;
    }
    this.markBusy();
    const before = this.userData.catalogs;
    const r = await this.host.request('resolveImport', { entry: item.entry, index, mode });
    this.setCatalogs(r.entries);
    if (!r.ok || !(await this.persist())) {
      const back = await this.host.request('setEntries', { entries: before });
      this.setCatalogs(back.entries);
      Object.assign(item, { kind: 'error', errors: r.ok ? [{ path: '', message: this.t('storageFull'), ui: true }] : r.errors });
      this.catalogChanged(back.catalog);
      return;
    }
    Object.assign(item, { kind: 'ok', resolved: mode, count: r.entries[index].count });
    delete item.entry;
    await nextTask();
    this.catalogChanged(r.catalog);
  }

  // Shows "importing…" in the data panel without rebuilding the controls.
  renderImportStatus() {
    const el = document.getElementById('import-status');
    if (el && this.userData.busy) el.replaceChildren(busyMessage(this.t, this.userData.busy, () => this.cancelImport()));
  }
}
