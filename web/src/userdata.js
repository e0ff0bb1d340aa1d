// The user's own data on the page: stored catalogs loaded at start, file imports, the offer form, removal.
// Methods of the page App (mixed in by main.js); the storage format and engine calls are in import.js.
import { todayIso } from './engine-client.js';
import { loadStore, saveStore, applyCatalogs, importText, offerDoc, newOfferId, formValuesFrom, checkOfferValues } from './import.js';

export class UserDataMethods {
  loadUserCatalogs() {
    const { catalogs, problem } = loadStore();
    if (problem) this.notices.push({ kind: 'warn', key: problem === 'newer' ? 'storageNewer' : 'storageCorrupt', id: 'storage-notice' });
    const { catalogs: kept, rejected } = applyCatalogs(this.engine, this.bundledDocs, catalogs);
    this.userData.catalogs = kept;
    if (rejected.length) {
      this.notices.push({ kind: 'warn', key: 'storageRejected', id: 'storage-rejected', vars: { names: rejected.map((r) => r.entry.name).join(', ') },
        details: rejected.map((r) => `${r.entry.name}: ${r.error ? r.error.message : ''}`) });
      this.persist();
    }
  }

  persist() {
    try {
      saveStore(this.userData.catalogs);
      return true;
    } catch {
      return false;
    }
  }

  refreshOffers() {
    this.catalogVersion = (this.catalogVersion || 0) + 1;
    this.offers = new Map(this.engine.catalogSummary().map((o) => [o.id, o]));
    this.userIds = new Set(this.userData.catalogs.flatMap((c) => c.doc.instances.map((i) => i.id)));
    this.cache.clear();
  }

  catalogChanged() {
    this.refreshOffers();
    this.update({});
  }

  async importFile(file) {
    const text = await file.text();
    const r = importText(this.engine, file.name, text, { provider: this.userData.providerName.trim(), today: todayIso() });
    if (!r.ok) {
      this.userData.lastMessage = { kind: 'error', name: file.name, errors: r.errors };
      this.update({});
      document.getElementById('import-error')?.scrollIntoView({ block: 'nearest' });
      return;
    }
    this.userData.catalogs.push(r.entry);
    if (!this.persist()) {
      this.userData.catalogs.pop();
      applyCatalogs(this.engine, this.bundledDocs, this.userData.catalogs);
      this.userData.lastMessage = { kind: 'error', name: file.name, errors: [{ path: '', message: this.t('storageFull'), ui: true }] };
      this.update({});
      return;
    }
    this.userData.lastMessage = { kind: 'ok', name: file.name, count: r.count, warnings: r.warnings };
    this.catalogChanged();
  }

  removeCatalog(index) {
    const next = this.userData.catalogs.filter((_, i) => i !== index);
    const { catalogs } = applyCatalogs(this.engine, this.bundledDocs, next);
    this.userData.catalogs = catalogs;
    this.userData.lastMessage = null;
    this.persist();
    this.catalogChanged();
  }

  // Opens the offer form, filled from an offer (a copy of a bundled one, or one of the user's own to edit).
  editOffer(id, { template }) {
    const stored = this.userData.catalogs.find((c) => c.doc.instances.some((i) => i.id === id));
    const bundled = this.bundledDocs.find((d) => d.instances.some((i) => i.id === id));
    const doc = stored ? stored.doc : bundled;
    const inst = doc && doc.instances.find((i) => i.id === id);
    if (!inst) return;
    this.userData.form = formValuesFrom(inst, doc);
    if (template) {
      this.userData.form.as_of = todayIso();
      this.userData.form.source = '';
    }
    this.userData.editingId = !template && stored && stored.kind === 'manual' ? id : null;
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

  saveOffer(values) {
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
    const editing = this.userData.editingId;
    const taken = new Set(this.offers.keys());
    values.id = editing || newOfferId(values, taken);
    const doc = offerDoc(values, { rate: this.state.rate, today: todayIso() });
    const entry = { name: `${values.provider} ${values.instance_type}`, kind: 'manual', added: todayIso(), doc };
    let next;
    if (editing) {
      next = this.userData.catalogs.map((c) => (c.kind === 'manual' && c.doc.instances[0].id === editing ? entry : c));
      const docs = [...this.bundledDocs, ...next.map((c) => c.doc)];
      const r = this.engine.loadCatalog(JSON.stringify(docs));
      if (!r.ok) return fail(r.issues.filter((i) => !i.warning).map((i) => ({ ...i, path: i.path.replace(/^\/\d+/, '') })));
    } else {
      const r = this.engine.addCatalog(JSON.stringify(doc));
      if (!r.ok) return fail(r.issues.filter((i) => !i.warning));
      next = [...this.userData.catalogs, entry];
    }
    this.userData.catalogs = next;
    if (!this.persist()) {
      this.userData.catalogs = next.filter((c) => c !== entry);
      applyCatalogs(this.engine, this.bundledDocs, this.userData.catalogs);
      return fail([{ path: '', message: t('storageFull'), ui: true }]);
    }
    Object.assign(this.userData, { form: null, editingId: null, formOpen: false, formMessage: null,
      lastMessage: { kind: 'ok', name: entry.name, count: 1, warnings: [] } });
    this.refreshOffers();
    this.update({});
    // Show the saved offer in the details panel when it is in the current view.
    const row = this.rows.find((r) => r.id === values.id);
    if (row) this.update({ sel: row._key });
  }
}
