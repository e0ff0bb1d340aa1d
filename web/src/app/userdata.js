// The user's own data on the page: stored catalogs loaded at start, the offer form, removal (file imports:
// app/importflow.js).
// Methods of the page App (mixed in by app/main.js). The engine work (parsing, checking, importing thousands of
// SkyPilot rows) happens in the engine host (engine/core.js, in the worker); the page keeps the entries
// ({name, kind, added, count, docText}) and writes localStorage, which only the page can.
import { todayIso } from '../engine/client.js';
import { STORE_KEY, storeText, formValuesFrom } from './store.js';
import { checkOfferValues } from '../views/import.js';

export class UserDataMethods {
  async loadUserCatalogs() {
    let raw = null;
    try { raw = localStorage.getItem(STORE_KEY); } catch { /* storage blocked: nothing stored */ }
    const r = await this.host.request('initStore', { raw });
    if (r.problem) {
      this.notices.push({ kind: 'warn', key: r.problem === 'newer' ? 'storageNewer' : 'storageCorrupt', id: 'storage-notice' });
      try {
        localStorage.setItem(`${STORE_KEY}.unreadable`, raw);
        localStorage.removeItem(STORE_KEY);
      } catch { /* storage full or blocked: the notice still tells the user */ }
    }
    this.userData.catalogs = r.entries;
    if (r.rejected.length) {
      this.notices.push({ kind: 'warn', key: 'storageRejected', id: 'storage-rejected', vars: { names: r.rejected.map((x) => x.name).join(', ') },
        details: r.rejected.map((x) => `${x.name}: ${x.error ? x.error.message : ''}`) });
      this.persist();
    }
    this.setCatalog(r.catalog);
  }

  persist() {
    try {
      localStorage.setItem(STORE_KEY, storeText(this.userData.catalogs));
      return true;
    } catch {
      return false;
    }
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

  // While the engine host works on the user's data the page is busy (tests and screen readers wait for it);
  // the render that follows clears it.
  markBusy() { document.body.dataset.busy = '1'; }

  async removeCatalog(index) {
    this.markBusy();
    const next = this.userData.catalogs.filter((_, i) => i !== index);
    const r = await this.host.request('setEntries', { entries: next });
    this.userData.catalogs = r.entries;
    this.userData.lastMessage = null;
    this.persist();
    this.catalogChanged(r.catalog);
  }

  // The catalog record of an offer, without the engine when the page has it: bundled offers and typed offers.
  localRecord(id) {
    for (const d of this.bundledDocs) {
      const inst = d.instances.find((i) => i.id === id);
      if (inst) return { inst, fx: d.fx || null, bundled: true };
    }
    for (const c of this.userData.catalogs) {
      if (c.kind !== 'manual' || !c.docText.includes(JSON.stringify(id))) continue;
      const doc = JSON.parse(c.docText);
      const inst = doc.instances.find((i) => i.id === id);
      if (inst) return { inst, fx: doc.fx || null, bundled: false, kind: 'manual' };
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
    this.userData.catalogs = r.entries;
    if (!this.persist()) {
      const back = await this.host.request('setEntries', { entries: before });
      this.userData.catalogs = back.entries;
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
