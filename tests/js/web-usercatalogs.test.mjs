// The user's catalogs on the engine host's side (web/src/engine/usercatalogs.js), with the real wasm engine: the
// host keeps each document's text and gives the page summaries with a Blob of it; summaries handed back (a removal,
// an undo, a fresh engine after a restart) are found by uid or read from their Blob; where IndexedDB is missing
// (here, Node) a large document stays in the stored list itself.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, root } from './helpers.mjs';
import { createCore } from '../../web/src/engine/core.js';
import { parseStore, INLINE_DOC_CHARS } from '../../web/src/engine/catalogstore.js';
import { dataBundle } from '../../scripts/build-web.mjs';

const client = await loadEngine();
const data = dataBundle(root);
const today = '2026-12-05';

const offer = (id, usd, extra = {}) => ({ id, provider: 'Mine Cloud', instance_type: `m-${id}`, gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'eu-1',
  currency: 'USD', interconnect: 'nvswitch', prices: [{ model: 'on_demand', usd_per_hour: usd, as_of: '2026-11-20', source: 'https://example.com/prices' }], ...extra });
const doc = (instances) => ({ schema_version: 1, instances });

// A host over the shared engine, which it first sets back to the bundled catalog (on the page each host has its own).
async function freshCore() {
  const core = createCore(client, data);
  await core.handle('setEntries', { entries: [] });
  return core;
}

test('an import is held by the host; the page gets a summary with a Blob of the document, never its text', async () => {
  const core = await freshCore();
  const before = core.handle('meta').catalog.count;
  const text = JSON.stringify(doc([offer('mine-1', 17.5), offer('mine-2', 9)]), null, 2);
  const r = await core.handle('importFile', { name: 'mine.json', path: 'folder/mine.json', text, provider: '', today });
  assert.equal(r.ok, true);
  assert.equal(r.catalog.count, before + 2);
  assert.equal(r.entries.length, 1);
  const [e] = r.entries;
  assert.deepEqual([e.name, e.kind, e.added, e.count, 'docText' in e], ['mine.json', 'json', today, 2, false]);
  assert.match(e.uid, /^c[0-9a-z]+$/);
  // The Blob holds the document as stored: compact JSON of the same offers.
  assert.equal(await e.blob.text(), JSON.stringify(JSON.parse(text)));
  // A File (any object with text()) is read by the host itself.
  const file = new Blob([JSON.stringify(doc([offer('other-1', 5, { provider: 'Other Cloud' })]))]);
  const r2 = await core.handle('importFile', { name: 'other.json', file, provider: '', today });
  assert.equal(r2.ok, true);
  assert.deepEqual(r2.entries.map((x) => x.name), ['mine.json', 'other.json']);
  assert.equal(r2.catalog.count, before + 3);
});

test('a fresh host (after a restart) loads summaries from their Blobs; a known uid needs no Blob', async () => {
  const first = await freshCore();
  const r = await first.handle('importFile', { name: 'mine.json', text: JSON.stringify(doc([offer('mine-1', 17.5)])), provider: '', today });
  const summaries = r.entries;
  const fresh = await freshCore();
  const back = await fresh.handle('setEntries', { entries: summaries });
  assert.deepEqual(back.rejected, []);
  assert.deepEqual(back.entries.map((x) => [x.uid, x.name, x.count]), summaries.map((x) => [x.uid, x.name, x.count]));
  assert.ok(fresh.handle('offerRecord', { id: 'mine-1' }), 'the offer is in the fresh host');
  // The same host again, the summaries without their Blobs: it still holds the texts under their uids.
  const again = await fresh.handle('setEntries', { entries: summaries.map(({ blob, ...rest }) => rest) });
  assert.equal(again.entries[0].count, 1);
  assert.equal(await again.entries[0].blob.text(), await summaries[0].blob.text());
  // An unknown uid with neither Blob nor text counts as a missing document, not a crash.
  const lost = await (await freshCore()).handle('setEntries', { entries: [{ uid: 'cgone', name: 'gone.json', kind: 'json', added: today, count: 3, ref: 'gpuvalue-doc-x', missing: true }] });
  assert.deepEqual(lost.missing, ['gone.json']);
});

test('without IndexedDB a large document stays in the stored list, and the list reads back the same', async () => {
  const core = await freshCore();
  const pad = 'x'.repeat(2000);
  const big = doc(Array.from({ length: 80 }, (_, i) => offer(`big-${i}`, 10 + i, { notes: pad })));
  const r = await core.handle('importFile', { name: 'big.json', text: JSON.stringify(big), provider: '', today });
  assert.ok(JSON.stringify(big).length > INLINE_DOC_CHARS);
  const stored = await core.handle('storeDocs', { session: [] });
  assert.deepEqual(stored.added, [], 'no IndexedDB here: nothing written there');
  assert.equal(stored.entries[0].ref, undefined);
  const parsed = parseStore(stored.text);
  assert.equal(parsed.problem, null);
  assert.equal(parsed.entries[0].docText, JSON.stringify(big));
  // A session-only entry (storage refused it before) is left out of the list.
  const none = await core.handle('storeDocs', { session: [r.entries[0].uid] });
  assert.deepEqual(parseStore(none.text).entries, []);
  assert.equal(none.entries[0].session, true);
});

test('a refresh of an earlier import waits for the answer: replace uses the held file, keep lets it go', async () => {
  const core = await freshCore();
  await core.handle('importFile', { name: 'v1.json', text: JSON.stringify(doc([offer('mine-1', 17.5), offer('mine-2', 9)])), provider: '', today });
  const r = await core.handle('importFile', { name: 'v2.json', text: JSON.stringify(doc([offer('mine-1', 15)])), provider: '', today });
  assert.equal(r.ok, true);
  assert.equal(r.conflict.index, 0);
  assert.equal(r.provider, 'Mine Cloud', 'the question names the provider both files share');
  assert.deepEqual([r.conflict.summary.removed, r.conflict.summary.moved], [1, 1]);
  const kept = await core.handle('resolveImport', { entry: { uid: r.entry.uid }, index: 0, mode: 'keep' });
  assert.deepEqual(kept.entries.map((x) => [x.name, x.count]), [['v1.json', 2]]);
  // After 'keep' the host no longer holds the file: only its Blob can bring it back.
  const gone = await core.handle('resolveImport', { entry: { uid: r.entry.uid }, index: 0, mode: 'replace' });
  assert.equal(gone.ok, false);
  const replaced = await core.handle('resolveImport', { entry: r.entry, index: 0, mode: 'replace' });
  assert.equal(replaced.ok, true);
  assert.deepEqual(replaced.entries.map((x) => [x.name, x.count]), [['v2.json', 1]]);
  assert.equal(core.handle('offerRecord', { id: 'mine-1' }).inst.prices[0].usd_per_hour, 15);
});

test('a merge is exported and restored as the merged document, not the file alone', async () => {
  const core = await freshCore();
  await core.handle('importFile', { name: 'v1.json', text: JSON.stringify(doc([offer('mine-1', 17.5), offer('mine-2', 9)])), provider: '', today });
  const r = await core.handle('importFile', { name: 'v2.json', text: JSON.stringify(doc([offer('mine-1', 15), offer('mine-3', 4)])), provider: '', today });
  const merged = await core.handle('resolveImport', { entry: r.entry, index: 0, mode: 'merge' });
  assert.equal(merged.ok, true);
  assert.equal(merged.entries[0].count, 3);
  assert.deepEqual(JSON.parse(await merged.entries[0].blob.text()).instances.map((i) => i.id).sort(), ['mine-1', 'mine-2', 'mine-3']);
  const fresh = await freshCore();
  const back = await fresh.handle('setEntries', { entries: merged.entries });
  assert.equal(back.entries[0].count, 3);
  assert.ok(fresh.handle('offerRecord', { id: 'mine-2' }), 'the earlier offer survives a restart');
});

test('a typed offer carries its id for the edit button, and editing replaces it', async () => {
  const core = await freshCore();
  const values = { provider: 'Test Cloud', instance_type: 'tc.8xh100', region: 'test-1', gpu: 'h100-sxm5-80gb', gpu_count: 8, interconnect: 'nvswitch',
    currency: 'USD', on_demand: 20, source: 'quote' };
  const r = core.handle('saveOffer', { values, rate: 7.2, today });
  assert.equal(r.ok, true);
  assert.equal(r.entry.offerId, r.id);
  const edited = core.handle('saveOffer', { values: { ...values, on_demand: 22 }, rate: 7.2, today, editingId: r.id });
  assert.deepEqual(edited.entries.map((x) => x.offerId), [r.id]);
  assert.equal(core.handle('offerRecord', { id: r.id }).inst.prices[0].usd_per_hour, 22);
});

test('the import\'s UTF-8 check agrees with a strict decoder on random and hand-made byte strings', async () => {
  const { firstInvalidUtf8 } = await import('../../web/src/format/utf8.js');
  const strict = new TextDecoder('utf-8', { fatal: true });
  const valid = (b) => { try { strict.decode(b); return true; } catch { return false; } };
  // Overlong "/", a surrogate, above U+10FFFF, a truncated sequence, a lone continuation byte; then good text.
  const cases = [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x61, 0xe4, 0xb8], [0x80], [...Buffer.from('价格 €1 😀')]];
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed; };
  // Whole characters (A, é, €, 😀), now and then a broken piece (0xff, half a surrogate, a lead byte alone).
  const good = [[0x41], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80]];
  const broken = [[0xff], [0xed, 0xa0], [0xc3], [0x98], [0xe2, 0x82]];
  for (let n = 0; n < 3000; n++) {
    cases.push(Array.from({ length: 1 + (rand() % 8) }, () => (rand() % 10 ? good[rand() % 4] : broken[rand() % 5])).flat());
  }
  let bad = 0;
  for (const c of cases) {
    const b = Uint8Array.from(c);
    const at = firstInvalidUtf8(b);
    assert.equal(at === -1, valid(b), `${Buffer.from(b).toString('hex')}: ${at}`);
    if (at >= 0) {
      bad += 1;
      assert.ok(valid(b.subarray(0, at)), `${Buffer.from(b).toString('hex')}: the bytes before ${at} are UTF-8`);
    }
  }
  assert.ok(bad > 500 && bad < cases.length - 500, `${bad} of ${cases.length} invalid: both kinds are tried`);
});
