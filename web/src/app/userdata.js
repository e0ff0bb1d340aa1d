// The user's own data on the page: stored catalogs loaded at start, the offer form, removal (file imports:
// app/importflow.js).
// Methods of the page App (mixed in by app/main.js). The engine host (engine/usercatalogs.js, in the worker) holds
// the catalogs' documents, converts and checks imports and keeps large documents in IndexedDB; the page keeps
// summaries of the entries ({uid, name, kind, added, count, ref?, session?, rejected?, missing?, blob}: a Blob of
// the document, never its text) and writes the list to localStorage (app/saved.js).
import { todayIso } from '../engine/client.js';
import { formValuesFrom } from './store.js';
import { readStored, setAside, writeStored, download } from './saved.js';
import { checkOfferValues } from '../views/import.js';

// Entries from the engine host, with the page's own mark kept: `session` (storage refused them) by uid.
function keepSession(next, before) {
  const session = new Set(before.filter((c) => c.session).map((c) => c.uid));
  return next.map((c) => (session.has(c.uid) && !c.session ? { ...c, session: true } : c));
}

export class UserDataMethods {
  async loadUserCatalogs() {
    const { raw } = readStored();
    let r;
    try {
      // The engine host reads the large documents the stored list names from IndexedDB itself.
      r = await this.host.request('initStore', { raw });
    } catch (e) {
      // Whatever went wrong while reading the stored value: it is unreadable data, set aside, not a dead page.
      r = { ...(await this.host.request('initStore', { raw: null })), problem: 'corrupt' };
    }
    if (r.problem) {
      const aside = setAside(raw);
      // Not set aside (too large to copy): the value stays where it is and nothing overwrites it this session.
      if (!aside.ok) this.userData.storeLocked = true;
      this.notices.push({ kind: 'warn', key: aside.ok ? (r.problem === 'newer' ? 'storageNewer' : 'storageCorrupt') : 'storageKeptInPlace',
        id: 'storage-notice', vars: { key: aside.key || '' } });
    }
    this.userData.catalogs = r.entries;
    // The documents the stored list names: only these are ever removed from IndexedDB (when the list drops them).
    this.userData.storedRefs = new Set(r.problem ? [] : r.entries.map((c) => c.ref).filter(Boolean));
    if (r.rejected.length) {
      this.notices.push({ kind: 'warn', key: 'storageRejected', id: 'storage-rejected', vars: { names: r.rejected.map((x) => x.name).join(', ') },
        details: r.rejected.map((x) => ({ name: x.name, error: x.error || null })) });
    }
    if (r.missing && r.missing.length) {
      this.notices.push({ kind: 'warn', key: 'storageMissing', id: 'storage-missing', vars: { names: r.missing.join(', ') } });
    }
    this.setCatalog(r.catalog);
    // A fresh engine (after a wasm abort or a cancelled import) gets the user's catalogs back.
    this.host.onRestart = () => this.restoreEngine();
  }

  async restoreEngine() {
    const r = await this.host.request('setEntries', { entries: this.userData.catalogs });
    this.setCatalogs(r.entries);
    this.catalogChanged(r.catalog);
  }

  // The user's entries as the engine host answered them.
  setCatalogs(entries) {
    this.userData.catalogs = keepSession(entries, this.userData.catalogs);
  }

  // Writes the entries that are not session-only, one write at a time. Resolves false when storage refuses
  // (nothing stored changes then), or while an unreadable value that could not be set aside still sits in the
  // list's place.
  persist() {
    const run = () => this.persistNow();
    this.persisting = (this.persisting || Promise.resolve()).then(run, run);
    return this.persisting;
  }

  // The engine host puts large documents in IndexedDB (each written and read back) and answers the list's
  // text; the page writes it to localStorage. The documents the new list no longer names are removed only once it
  // is written; when it cannot be, the ones just added go again. A document IndexedDB refuses stays in the list
  // itself, where localStorage's quota decides.
  async persistNow() {
    if (this.userData.storeLocked) return false;
    const session = this.userData.catalogs.filter((c) => c.session).map((c) => c.uid);
    const r = await this.host.request('storeDocs', { session });
    this.setCatalogs(r.entries);
    if (!writeStored(r.text)) {
      if (r.added.length) this.setCatalogs((await this.host.request('dropDocs', { refs: r.added })).entries);
      return false;
    }
    const named = new Set(this.userData.catalogs.filter((c) => !c.session).map((c) => c.ref).filter(Boolean));
    const gone = [...(this.userData.storedRefs || [])].filter((k) => !named.has(k));
    this.userData.storedRefs = named;
    if (gone.length) await this.host.request('dropDocs', { refs: gone });
    return true;
  }

  // A catalog kept for this session only (storage refused it): the page's mark, sent with every later write.
  markSession(uid) {
    const c = this.userData.catalogs.find((x) => x.uid === uid);
    if (c) c.session = true;
  }

  // The document of one of the user's catalogs as a file: its Blob, never read on the page.
  exportCatalog(index) {
    const c = this.userData.catalogs[index];
    if (c && c.blob) download(c.blob, `${c.name.replace(/[^\w.-]+/g, '_') || 'catalog'}.json`, 'application/json');
  }

  cancelImport() {
    if (this.userData.busy) this.host.cancel();
  }

  // A new catalog in the engine: cached views and details belong to the old one.
  setCatalog(catalog) {
    this.catalog = catalog;
    this.catalogVersion = catalog.version;
    this.views.clear();
    this.detailsCache.clear();
  }

  catalogChanged(catalog) {
    this.setCatalog(catalog);
    this.update({});
  }

  // While the engine host works (on a new view or the user's data) the page is busy (tests and screen readers
  // wait for it); the paint that follows clears it. What an earlier paint still has to finish (charts, details)
  // no longer clears the mark.
  markBusy() {
    document.body.dataset.busy = '1';
    this.settleToken = {};
  }

  async removeCatalog(index) {
    this.markBusy();
    const next = this.userData.catalogs.filter((_, i) => i !== index);
    const r = await this.host.request('setEntries', { entries: next });
    this.setCatalogs(r.entries);
    this.userData.lastMessage = null;
    await this.persist();
    this.catalogChanged(r.catalog);
  }

  // A rejected stored catalog: its offers that pass become a new catalog (named "… (valid offers)"); the rejected
  // one stays stored as it was, for export or removal. The report names every offer left out and why.
  async repairCatalog(index) {
    const c = this.userData.catalogs[index];
    if (!c || !c.rejected) return;
    this.markBusy();
    const r = await this.host.request('repairEntry', { index, suffix: this.t('repairedSuffix'), today: todayIso() });
    if (!r.ok) {
      this.userData.lastMessage = { kind: 'error', titleKey: 'repairFailed', name: c.name, errors: r.errors || [] };
      this.update({});
      return;
    }
    this.setCatalogs(r.entries);
    const entry = this.userData.catalogs[this.userData.catalogs.length - 1];
    const session = !(await this.persist());
    if (session) this.markSession(entry.uid);
    this.userData.lastMessage = { kind: 'repaired', name: entry.name, from: c.name, count: entry.count, dropped: r.dropped, session };
    this.catalogChanged(r.catalog);
  }

  // The catalog record of a bundled offer, without the engine (the page has the bundled documents).
  localRecord(id) {
    for (const d of this.bundledDocs) {
      const inst = d.instances.find((i) => i.id === id);
      if (inst) return { inst, fx: d.fx || null, bundled: true };
    }
    return null;
  }

  // Opens the offer form, filled from an offer (a copy of a bundled one, or one of the user's own to edit).
  async editOffer(id, { template }) {
    const rec = this.localRecord(id) || await this.host.request('offerRecord', { id });
    if (!rec) return;
    this.userData.form = formValuesFrom(rec.inst, { fx: rec.fx });
    if (template) {
      this.userData.form.as_of = todayIso();
      this.userData.form.source = '';
    }
    this.userData.editingId = !template && rec.kind === 'manual' ? id : null;
    this.userData.formOpen = true;
    this.userData.formMessage = null;
    this.update({});
    const panel = document.getElementById('data-panel');
    if (panel) panel.open = true;
    const el = document.getElementById('of-provider');
    if (el) { el.scrollIntoView({ block: 'center' }); el.focus(); }
  }

  cancelOfferForm() {
    Object.assign(this.userData, { form: null, editingId: null, formOpen: false, formMessage: null });
    this.update({});
  }

  async saveOffer(values) {
    const t = this.t;
    const fail = (errors) => {
      this.userData.form = values;
      this.userData.formOpen = true;
      this.userData.formMessage = { kind: 'error', titleKey: 'ofFailed', errors };
      this.update({});
      document.getElementById('offer-status')?.focus?.();
    };
    const errors = checkOfferValues(values, t);
    if (errors.length) return fail(errors);
    this.markBusy();
    const editing = this.userData.editingId;
    const before = this.userData.catalogs;
    const r = await this.host.request('saveOffer', { values, rate: this.state.rate, today: todayIso(), editingId: editing });
    if (!r.ok) return fail(r.errors);
    this.setCatalogs(r.entries);
    if (!(await this.persist())) {
      const back = await this.host.request('setEntries', { entries: before });
      this.setCatalogs(back.entries);
      this.setCatalog(back.catalog);
      return fail([{ path: '', message: t('storageFull'), ui: true }]);
    }
    Object.assign(this.userData, { form: null, editingId: null, formOpen: false, formMessage: null,
      lastMessage: { kind: 'ok', name: r.entry.name, count: 1, warnings: [] } });
    // Show the saved offer in the details panel once the new ranking is in (when it is in the current view).
    this.pendingSelectId = r.id;
    this.catalogChanged(r.catalog);
    return undefined;
  }
}
