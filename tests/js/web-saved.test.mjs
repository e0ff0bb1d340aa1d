// Saved data is never lost: unreadable stored values are copied aside into slots of their own and only removed once
// the copy reads back; a value too large to copy stays where it is; any exception while reading is unreadable data.
// Storage is a quota-limited Storage with the Web Storage semantics (setItem throws QuotaExceededError when full).
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseStore, storeText, docRefs, STORE_KEY } from '../../web/src/engine/catalogstore.js';
import { toCsv, csvCell } from '../../web/src/engine/export.js';
import { messageRenderer } from '../../web/src/i18n/messages.js';

class QuotaStorage {
  constructor(quotaChars) { this.quota = quotaChars; this.map = new Map(); }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  used() { let n = 0; for (const [k, v] of this.map) n += k.length + v.length; return n; }
  setItem(k, v) {
    const s = String(v);
    const before = this.map.has(k) ? k.length + this.map.get(k).length : 0;
    if (this.used() - before + k.length + s.length > this.quota) throw Object.assign(new Error('QuotaExceededError'), { name: 'QuotaExceededError' });
    this.map.set(k, s);
  }
  removeItem(k) { this.map.delete(k); }
}

globalThis.window = globalThis.window || {};
const { setAside, readStored, writeStored, storedValues } = await import('../../web/src/app/saved.js');

function useStorage(quota) {
  const s = new QuotaStorage(quota);
  globalThis.window.localStorage = s;
  return s;
}

test('a stored value whose members throw when read is corrupt data, not an exception', () => {
  const hostile = [
    '{"version":1,"catalogs":[{"name":"a","kind":"json","added":{"toString":1},"doc":{"instances":[]}}]}',
    '{"version":1,"catalogs":[{"name":"a","kind":"json","added":5,"doc":{"instances":[]}}]}',
    '{"version":1,"catalogs":[{"name":"a","kind":"json","doc":[]}]}',
    '{"version":1,"catalogs":{"length":1}}', 'null', '[]', '"x"', '{"version":{"valueOf":1}}',
  ];
  for (const raw of hostile) {
    const r = parseStore(raw);
    assert.equal(r.problem, 'corrupt', raw);
    assert.deepEqual(r.entries, []);
  }
  assert.equal(parseStore({ notAString: true }).problem, 'corrupt');
  const ok = parseStore('{"version":1,"catalogs":[{"name":"a","kind":"json","added":"2026-11-01","doc":{"instances":[]}}]}');
  assert.equal(ok.problem, null);
  assert.equal(ok.entries[0].added, '2026-11-01');
});

test('unreadable values get a slot each and the original goes only after the copy reads back', () => {
  const s = useStorage(1e6);
  s.setItem(STORE_KEY, 'first broken value');
  const a = setAside(readStored().raw);
  assert.ok(a.ok);
  assert.equal(s.getItem(STORE_KEY), null);
  s.setItem(STORE_KEY, 'second broken value');
  const b = setAside(readStored().raw);
  assert.ok(b.ok);
  assert.notEqual(a.key, b.key);
  const kept = Object.entries(storedValues()).filter(([k]) => k.startsWith(`${STORE_KEY}.unreadable`)).map(([, v]) => v).sort();
  assert.deepEqual(kept, ['first broken value', 'second broken value']);
});

test('a value too large to copy aside stays in place and is never overwritten by a failed write', () => {
  const s = useStorage(1000);
  const big = 'x'.repeat(600);  // over half the quota: a copy does not fit
  s.setItem(STORE_KEY, big);
  const r = setAside(big);
  assert.equal(r.ok, false);
  assert.equal(s.getItem(STORE_KEY), big);
  assert.deepEqual(Object.keys(storedValues()), [STORE_KEY]);
  // A write that does not fit changes nothing.
  assert.equal(writeStored('y'.repeat(2000)), false);
  assert.equal(s.getItem(STORE_KEY), big);
});

test('a large document is named by its IndexedDB key in the stored list and read back from it', () => {
  const doc = { schema_version: 1, instances: [{ id: 'a' }, { id: 'b' }] };
  const small = { name: 'small.json', kind: 'json', added: '2026-11-01', count: 1, docText: '{"instances":[{"id":"s"}]}' };
  const big = { name: 'big.json', kind: 'skypilot', added: '2026-11-02', count: 2, docText: JSON.stringify(doc), ref: 'gpuvalue-doc-abc-123' };
  const text = storeText([small, big]);
  const list = JSON.parse(text);
  assert.equal(list.version, 2);
  assert.deepEqual(list.catalogs[1], { name: 'big.json', kind: 'skypilot', added: '2026-11-02', ref: 'gpuvalue-doc-abc-123', count: 2 });
  assert.equal(text.includes('"id":"a"'), false, 'the document itself is not in the list');
  assert.deepEqual(docRefs(text), ['gpuvalue-doc-abc-123']);
  // Read back with its document: the same entries.
  const back = parseStore(text, { 'gpuvalue-doc-abc-123': big.docText });
  assert.equal(back.problem, null);
  assert.deepEqual(back.entries.map((e) => [e.name, e.count, e.docText, e.ref || null]),
    [['small.json', 1, small.docText, null], ['big.json', 2, big.docText, 'gpuvalue-doc-abc-123']]);
  // Its document missing: the entry is kept, marked, with its key, never dropped.
  const gone = parseStore(text, {});
  assert.equal(gone.problem, null);
  assert.deepEqual([gone.entries[1].missing, gone.entries[1].docText, gone.entries[1].ref], [true, null, 'gpuvalue-doc-abc-123']);
  assert.equal(storeText(gone.entries), text, 'written back unchanged');
  // Its document damaged (not JSON, or not a catalog document): kept with its text (for export) and marked.
  for (const damaged of ['{"broken', '[1]']) {
    const r = parseStore(text, { 'gpuvalue-doc-abc-123': damaged });
    assert.equal(r.problem, null);
    assert.deepEqual([r.entries[1].unreadable, r.entries[1].missing, r.entries[1].docText, r.entries[1].ref], [true, undefined, damaged, 'gpuvalue-doc-abc-123']);
    assert.equal(storeText(r.entries), text, 'written back unchanged');
  }
  // Lists without IndexedDB documents stay version 1 (readable by pages that know no IndexedDB).
  assert.equal(JSON.parse(storeText([small])).version, 1);
  // A ref that is not one of ours, a ref in a version 1 list, a later version: not read.
  assert.equal(parseStore(text.replace('gpuvalue-doc-abc-123', 'other-key')).problem, 'corrupt');
  assert.equal(parseStore(text.replace('"version":2', '"version":1')).problem, 'corrupt');
  assert.equal(parseStore(text.replace('"version":2', '"version":3')).problem, 'newer');
});

test('CSV cells with bidi controls are isolated with FSI … PDI', () => {
  const rlo = 'evil\u202Egnp.exe';
  assert.equal(csvCell(rlo), `\u2068${rlo}\u2069`);
  assert.equal(csvCell('plain'), 'plain');
  const csv = toCsv([{ _rank: 1, instance: rlo, id: 'x', provider: 'P\u202B', region: 'r', gpu: 'g', gpu_name: 'G', gpu_count: 1, nodes: 1, total_gpus: 1,
    pricing: 'on_demand', fits: true, pareto: false, time_hours: 1, time_hours_low: 1, time_hours_high: 1, cost_usd: 1, usd_per_hour: 1,
    usd_per_tflops_day: 1, usd_per_tflops_day_at_precision: 1, score: 1, scores: { unit_cost: 1, task: 1, service: 1 },
    memory: { required_gb_per_gpu: 1, available_gb_per_gpu: 1, sharding: 'none' }, as_of: '2026-11-01', stale: false, source: 's', reasons: [], warnings: [] }],
  { currency: 'USD', rate: 7, say: messageRenderer({ lang: 'en' }) });
  const row = csv.split('\r\n')[1];
  // Every override opened in a cell is closed before the next comma.
  for (const cell of row.split(',')) {
    const opens = (cell.match(/[\u2066-\u2068]/g) || []).length;
    const closes = (cell.match(/\u2069/g) || []).length;
    assert.equal(opens, closes, cell);
    if (/[\u202a-\u202e]/.test(cell)) assert.ok(cell.startsWith('\u2068') && cell.endsWith('\u2069'), cell);
  }
});
