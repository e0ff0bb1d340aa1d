// The user's catalogs on the engine's side: loading the stored ones, imports, replacing, repairing and removing
// them, offers typed into the form, and their large documents in IndexedDB (engine/docstore.js).
// The engine host owns the documents: an entry here is {uid, name, kind, added, count, docText, ref?, session?,
// rejected?, problems?, problem_count?, missing?}. The page gets summaries (summary below): the same without the
// text, with a Blob of it instead, which crosses to the page as a handle (no copy, no parse). The page gives
// summaries back (a removal, an undo, a fresh engine after a restart): an entry this host holds is found by its
// uid, any other is read from its Blob here, never on the page's main thread.
import { docRefs, parseStore, storeText, applyCatalogs, importText, offerDoc, newOfferId, isSkypilotCsv, INLINE_DOC_CHARS } from './catalogstore.js';
import { inferProvider, refreshedEntry, fileProviders, providersOf, changeSummary, mergeDocs } from './imports.js';
import { putDoc, readDocs, deleteDocs } from './docstore.js';
import { firstInvalidUtf8, bytePlace } from '../format/utf8.js';

// Errors kept per rejected entry (the rest are counted).
const PROBLEMS_KEPT = 20;

const newUid = () => `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
const withUid = (e) => (e.uid ? e : { ...e, uid: newUid() });

// The id of the one offer of a typed offer's document (the page's edit button names it).
function offerIdOf(e) {
  if (e.kind !== 'manual' || typeof e.docText !== 'string') return undefined;
  try { return JSON.parse(e.docText).instances[0].id; } catch { return undefined; }
}

// Loads the user's entries into the engine. Every entry is kept (a stored catalog is never dropped): the ones the
// engine refuses carry `rejected` (the first reason) and `problems` (the errors with their JSON Pointer paths, at
// most PROBLEMS_KEPT, and `problem_count`), are left out of the engine, and stay stored for export, repair or
// removal; an entry whose stored document is missing (docText null) is kept as it is.
function loadEntries(s, entries) {
  const plain = entries.map(({ rejected, problems, problem_count: pc, ...e }) => withUid(e));
  // A damaged document (not JSON, or not a catalog) never reaches the engine: spliced into the list the engine
  // reads, its text could read as other documents. It is refused here, with the reason, and kept for export.
  const damaged = plain.filter((e) => e.unreadable && typeof e.docText === 'string');
  const r = applyCatalogs(s.client, s.bundledTexts, plain.filter((e) => typeof e.docText === 'string' && !e.unreadable));
  for (const e of damaged) r.rejected.push({ entry: e, error: { path: '', message: 'the stored document is not a catalog (damaged)' }, issues: [] });
  const refused = new Map(r.rejected.map((x) => [x.entry, x]));
  const marked = (e, x) => {
    const errors = x.issues.filter((i) => !i.warning);
    const list = (errors.length ? errors : [x.error || { path: '', message: 'rejected' }]).map((i) => ({ path: i.path || '', message: i.message || '' }));
    return { ...e, rejected: list[0].message || 'rejected', problems: list.slice(0, PROBLEMS_KEPT), problem_count: list.length };
  };
  s.entries = plain.map((e) => (refused.has(e) ? marked(e, refused.get(e)) : e));
  return {
    entries: summaries(s), catalog: s.refresh(),
    rejected: r.rejected.map((x) => ({ name: x.entry.name, error: x.error, issues: x.issues })),
    missing: plain.filter((e) => e.missing).map((e) => e.name),
  };
}

// An entry as the page holds it: everything but the text, plus a Blob of the text (made once per entry).
function summary(s, e) {
  const { docText, ...rest } = e;
  if (typeof docText === 'string' && !s.blobs.has(e.uid)) s.blobs.set(e.uid, new Blob([docText], { type: 'application/json' }));
  const offerId = offerIdOf(e);
  return { ...rest, ...(offerId !== undefined ? { offerId } : {}), ...(s.blobs.has(e.uid) ? { blob: s.blobs.get(e.uid) } : {}) };
}

// Every entry as the page holds it; the Blobs of entries that are gone are let go.
function summaries(s) {
  const live = new Set([...s.entries, ...s.pending.values()].map((e) => e.uid));
  for (const uid of [...s.blobs.keys()]) if (!live.has(uid)) s.blobs.delete(uid);
  return s.entries.map((e) => summary(s, e));
}

// The entry behind a summary from the page, with its text: the one this host holds under its uid, else its Blob
// read here (a fresh engine after a restart, an undo to entries since replaced), else its docText (tests and
// Node callers give plain entries). A summary with neither keeps docText null (its stored document is missing).
async function entryOf(s, c) {
  const held = s.entries.find((e) => e.uid && e.uid === c.uid) || (c.uid && s.pending.get(c.uid));
  const { blob, offerId, ...rest } = c;
  if (held && typeof held.docText === 'string') return { ...rest, docText: held.docText };
  if (blob && typeof blob.text === 'function') return { ...rest, docText: await blob.text() };
  return { ...rest, docText: typeof c.docText === 'string' ? c.docText : null };
}

// The offers of a rejected entry that the engine accepts, as a new entry (the rejected one stays as it is): the
// offers an error names by its path (/instances/N/…) are left out, until the rest loads. Fails when an error
// names no offer (the document itself is wrong) or no offer is left.
function repairedEntry(s, e, { suffix, today }) {
  const doc = JSON.parse(e.docText);
  const list = Array.isArray(doc.instances) ? doc.instances : [];
  const dropped = new Map();  // index in the stored document -> the first error that names it
  while (dropped.size < list.length) {
    const kept = list.map((_, i) => i).filter((i) => !dropped.has(i));
    const text = JSON.stringify({ ...doc, instances: kept.map((i) => list[i]) });
    const r = s.client.addCatalog(text);
    if (r.ok) {
      const entry = { uid: newUid(), name: `${e.name}${suffix}`, kind: e.kind === 'manual' ? 'json' : e.kind, added: today, count: kept.length, docText: text };
      return { ok: true, entry, dropped: [...dropped].map(([i, p]) => ({ id: String(list[i] && list[i].id !== undefined ? list[i].id : ''), ...p })) };
    }
    const errors = (r.issues || []).filter((i) => !i.warning);
    const before = dropped.size;
    for (const is of errors) {
      const m = /^\/instances\/(\d+)(?=\/|$)/.exec(is.path || '');
      if (!m) return { ok: false, errors: [is] };
      const at = kept[Number(m[1])];
      if (at !== undefined && !dropped.has(at)) dropped.set(at, { path: `/instances/${at}${is.path.slice(m[0].length)}`, message: is.message });
    }
    if (dropped.size === before) return { ok: false, errors: errors.length ? errors : [r.error] };
  }
  return { ok: false, errors: [{ path: '/instances', message: 'no offer of the catalog passes the engine checks' }] };
}

const strictUtf8 = typeof TextDecoder === 'function' ? new TextDecoder('utf-8', { fatal: true }) : null;

// The text of an imported file: given as text, or a File (or Blob) read here. Bytes that are not UTF-8 are refused
// where they are, as the CLI refuses them (bin/cli/io.mjs readText), instead of being read as U+FFFD: the error's
// code is not_utf8, its path the line and column, its message the byte in hex (the page says it in its language).
async function fileText({ text, file }) {
  if (typeof text === 'string') return text;
  if (!file || typeof file.arrayBuffer !== 'function') throw new Error('importFile needs a text or a file');
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!strictUtf8) return file.text();
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const i = Math.max(0, firstInvalidUtf8(bytes));
    throw Object.assign(new Error(bytes[i].toString(16).padStart(2, '0')), { code: 'not_utf8', path: bytePlace(bytes, i) });
  }
}

// One file, converted and checked by the engine (see importFile below).
function importOne(s, { name, path, text, provider, today }) {
  const source = path || name;
  const skypilot = isSkypilotCsv(source, text);
  const named = provider || (skypilot ? inferProvider(source, text) : '');
  const providers = fileProviders(skypilot, text, named);
  const index = refreshedEntry(s.entries, providers);
  const converted = () => {
    const r = importText(s.client, source, text, { provider: named, today });
    return r.ok ? { ...r, entry: { ...r.entry, uid: newUid(), name } } : r;
  };
  if (index < 0) {
    const r = converted();
    if (!r.ok) return r;
    s.entries = [...s.entries, r.entry];
    return { ...r, entry: summary(s, r.entry), provider: named, entries: summaries(s), catalog: s.refresh() };
  }
  // Converted and checked without the catalog it refreshes (its offer ids would collide), then the
  // engine is given back the catalog in use.
  applyCatalogs(s.client, s.bundledTexts, s.entries.filter((_, i) => i !== index));
  const r = converted();
  applyCatalogs(s.client, s.bundledTexts, s.entries);
  if (!r.ok) return r;
  const old = s.entries[index];
  const oldDoc = JSON.parse(old.docText);
  const summaryOfChanges = changeSummary(oldDoc, JSON.parse(r.entry.docText));
  s.pending.set(r.entry.uid, r.entry);
  // The provider the two files share, named in the question (a JSON catalog names its providers itself).
  const shared = named || [...providersOf(oldDoc)].filter((p) => providers.has(p)).join(', ');
  return { ...r, entry: summary(s, r.entry), provider: shared, conflict: { index, name: old.name, added: old.added, summary: summaryOfChanges } };
}

// The operations on the user's catalogs (engine/core.js dispatches them), and the state they share.
export function catalogOps(s) {
  s.entries = [];
  s.pending = new Map();  // converted files waiting for the user's answer to a refresh (uid -> entry)
  s.blobs = new Map();    // uid -> the Blob of an entry's text, made once
  return { ...loadOps(s), ...editOps(s) };
}

// Start-up, imports and whole-list replacement.
function loadOps(s) {
  return {
    // The stored user catalogs at start-up (the raw localStorage value): the large documents it names are read
    // from IndexedDB here, then parsed, checked and loaded.
    async initStore({ raw }) {
      const refs = docRefs(raw);
      const docs = refs.length ? (await readDocs(refs)) || {} : {};
      const { entries: parsed, problem } = parseStore(raw, docs);
      // Nothing stored (the usual first visit): the engine already holds the bundled catalog.
      if (!parsed.length && !s.entries.length) return { problem, entries: [], rejected: [], missing: [], catalog: s.catalog || s.refresh() };
      return { problem, ...loadEntries(s, parsed) };
    },

    // Replaces the user catalogs (removal, a restarted engine, or undoing a change that could not be saved).
    async setEntries({ entries: next }) {
      const full = [];
      for (const c of next) full.push(await entryOf(s, c));
      return loadEntries(s, full);
    },

    // One file (its text, or the File itself, read here), converted and checked by the engine. name: the entry's
    // name; path: the file's path in a picked folder (it can tell the provider). A SkyPilot file without a provider
    // name gets the one its path or instance types tell. A file from a provider that an earlier import already
    // holds is not added: the answer carries the converted entry and what it would change, and resolveImport
    // replaces or merges.
    async importFile(args) {
      return importOne(s, { ...args, text: await fileText(args) });
    },

    // The user's answer to a conflict of importFile: 'replace' puts the new file in place of the earlier import,
    // 'merge' keeps the earlier offers the new file does not have, 'keep' drops the new file.
    async resolveImport({ entry: given, index, mode }) {
      const entry = await entryOf(s, given);
      s.pending.delete(given.uid);
      if (mode === 'keep') return { ok: true, entries: summaries(s), catalog: s.catalog };
      if (typeof entry.docText !== 'string') return { ok: false, entries: summaries(s), errors: [{ path: '', message: 'the imported file is no longer held' }], catalog: s.catalog };
      const next = s.entries.slice();
      if (mode === 'merge') {
        const doc = mergeDocs(JSON.parse(next[index].docText), JSON.parse(entry.docText));
        // A new text, so a new uid: the Blob made for the file alone must not stand for the merged document.
        next[index] = { ...entry, uid: newUid(), count: doc.instances.length, docText: JSON.stringify(doc) };
      } else {
        next[index] = entry;
      }
      const r = applyCatalogs(s.client, s.bundledTexts, next);
      s.entries = r.entries;
      return { ok: !r.rejected.length, entries: summaries(s), errors: r.rejected.flatMap((x) => (x.issues.length ? x.issues : [x.error])), catalog: s.refresh() };
    },

  };
}

// Repairs, typed offers, the documents' storage and the record of one offer.
function editOps(s) {
  return {
    // A rejected entry's offers that pass, added as a new entry named with `suffix` (the rejected one is kept).
    repairEntry({ index, suffix, today }) {
      const e = s.entries[index];
      if (!e || !e.rejected || e.unreadable || typeof e.docText !== 'string') return { ok: false, errors: [{ path: '', message: 'this catalog has nothing to repair' }] };
      const r = repairedEntry(s, e, { suffix, today });
      if (!r.ok) return r;
      s.entries = [...s.entries, r.entry];
      return { ok: true, entry: summary(s, r.entry), dropped: r.dropped, entries: summaries(s), catalog: s.refresh() };
    },

    // An offer typed into the form: a new one, or a replacement of the user's own (editingId).
    saveOffer({ values, rate, today, editingId }) {
      const v = { ...values, id: editingId || newOfferId(values, new Set(s.offers.keys())) };
      const doc = offerDoc(v, { rate, today });
      const entry = { uid: newUid(), name: `${v.provider} ${v.instance_type}`, kind: 'manual', added: today, count: 1, docText: JSON.stringify(doc) };
      if (editingId) {
        const next = s.entries.map((c) => (offerIdOf(c) === editingId ? entry : c));
        const r = s.client.loadCatalog(`[${[...s.bundledTexts, ...next.filter((c) => !c.rejected && c.docText).map((c) => c.docText)].join(',')}]`);
        if (!r.ok) return { ok: false, errors: (r.issues || []).filter((i) => !i.warning).map((i) => ({ ...i, path: i.path.replace(/^\/\d+/, '') })) };
        s.entries = next;
      } else {
        const r = s.client.addCatalog(entry.docText);
        if (!r.ok) return { ok: false, errors: (r.issues || []).filter((i) => !i.warning) };
        s.entries = [...s.entries, entry];
      }
      return { ok: true, id: v.id, entry: summary(s, entry), entries: summaries(s), catalog: s.refresh() };
    },

    // The stored value for the entries that are not session-only (session: the uids the page keeps for this
    // session only). A document over INLINE_DOC_CHARS goes to IndexedDB first (written and read back) and the
    // value names it by key; one IndexedDB refuses stays in the value itself, where localStorage's quota decides.
    // Returns {text, added: the keys written now, entries}; the page writes the text, then drops `added` if it could not.
    async storeDocs({ session = [] }) {
      const only = new Set(session);
      for (const e of s.entries) if (only.has(e.uid)) e.session = true;
      const keep = s.entries.filter((e) => !e.session);
      const added = [];
      for (const e of keep) {
        if (e.ref || typeof e.docText !== 'string' || e.docText.length <= INLINE_DOC_CHARS) continue;
        const ref = await putDoc(e.docText);
        if (ref) { e.ref = ref; added.push(ref); }
      }
      return { text: storeText(keep), added, entries: summaries(s) };
    },

    // Removes documents from IndexedDB (the list no longer names them, or its write failed): entries that named
    // them keep their text in memory and lose the key.
    async dropDocs({ refs }) {
      const gone = new Set(refs);
      await deleteDocs(refs);
      s.entries = s.entries.map((e) => (gone.has(e.ref) ? (({ ref, ...rest }) => rest)(e) : e));
      return { entries: summaries(s) };
    },

    // The full catalog record of an offer (for "copy as my offer", or editing a typed one): the instance and its
    // document's fx block.
    offerRecord({ id }) {
      for (const c of s.data.catalogs) {
        const inst = c.doc.instances.find((i) => i.id === id);
        if (inst) return { inst, fx: c.doc.fx || null, bundled: true };
      }
      for (const e of s.entries) {
        if (!e.docText || e.rejected || !e.docText.includes(JSON.stringify(id))) continue;
        const doc = JSON.parse(e.docText);
        const inst = doc.instances.find((i) => i.id === id);
        if (inst) return { inst, fx: doc.fx || null, bundled: false, kind: e.kind };
      }
      return null;
    },
  };
}
