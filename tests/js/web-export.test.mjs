// The whole ranking as a file, written by the engine host (engine/core.js exportRows) as the page downloads it
// when it shows only the first rows: with 10,000 offers, every reason and warning is a sentence in the reader's
// language, the same the page renders for that row, never "[object Object]".
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, root } from './helpers.mjs';
import { createCore } from '../../web/src/engine/core.js';
import { messageRenderer, MESSAGE_CATALOGS } from '../../web/src/i18n/messages.js';
import { makeFormatter } from '../../web/src/format/format.js';
import { dataBundle } from '../../scripts/build-web.mjs';
import { generateCatalog } from '../../bench/generate.mjs';

// RFC 4180: rows of cells (quoted cells may hold commas, quotes and line breaks).
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; } else if (ch === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; } else cell += ch;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

const client = await loadEngine();
const added = client.addCatalog(JSON.stringify(generateCatalog(10000, 7)));
assert.ok(added.ok, JSON.stringify(added.error));
const core = createCore(client, dataBundle(root));
const request = { preset: 'resnet50-imagenet', filters: { include_stale: true } };
const sort = { key: 'rank', dir: 'asc' };
const names = new Map(client.gpus().map((g) => [g.id, g.name]));
const gpuName = (id) => names.get(id) ?? id;

for (const [lang, currency, rate] of [['en', 'USD', 1], ['zh', 'CNY', 7.1]]) {
  test(`CSV of 10,000 offers (${lang}): readable reasons and warnings, the same sentences the page shows`, () => {
    const csv = core.handle('exportRows', { request, sort, kind: 'csv', lang, messages: MESSAGE_CATALOGS[lang], currency, rate, hash: '' });
    const [head, ...rows] = parseCsv(csv.replace(/^\uFEFF/, ''));
    const col = (name) => head.indexOf(name);
    assert.ok(rows.length >= 10000, `${rows.length} rows`);
    assert.ok(!csv.includes('[object Object]'));
    const say = messageRenderer({ lang, fmt: makeFormatter({ lang, currency, rate }), gpuName });
    // The engine's own ranking in the same order: each row's reasons, rendered, are the CSV's cells.
    const ranked = client.call('rankView', { ...request, view: { sort, rows: 0, points: 1, keys: [] } }).rows;
    assert.equal(ranked.length, rows.length);
    let withReasons = 0;
    rows.forEach((cells, i) => {
      assert.equal(cells[col('id')], ranked[i].id, `row ${i + 1}`);
      assert.equal(cells[col('reasons')], say(ranked[i].reasons), `row ${i + 1} reasons`);
      assert.equal(cells[col('warnings')], say(ranked[i].warnings), `row ${i + 1} warnings`);
      if (ranked[i].reasons.length) withReasons++;
    });
    assert.ok(withReasons > 1000, `${withReasons} rows with reasons`);
    const sample = rows.map((c) => c[col('reasons')]).find((t) => t.length > 10);
    assert.match(sample, lang === 'zh' ? /[\u4e00-\u9fff]/ : /^[\x20-\x7e]+$/, sample);
  });
}

test('a calibrated ranking exports its calibration: JSON at the top and on each row, CSV columns per row', () => {
  const measurement = client.call('parse_measurement', { text: '3000 samples/s on a100-sxm4-80gb x8' }).measurement;
  const req = { ...request, measurements: [measurement] };
  const ranked = client.call('rankView', { ...req, view: { sort, rows: 0, points: 1, keys: [] } });
  const json = JSON.parse(core.handle('exportRows', { request: req, sort, kind: 'json', lang: 'en', currency: 'USD', rate: 1, hash: '#m=x' }));
  assert.deepEqual(json.calibration, ranked.calibration);
  assert.deepEqual(json.request.measurements, [measurement]);
  json.results.forEach((r, i) => assert.deepEqual(r.calibrated, ranked.rows[i].calibrated, `row ${i + 1}`));
  const csv = core.handle('exportRows', { request: req, sort, kind: 'csv', lang: 'en', messages: MESSAGE_CATALOGS.en, currency: 'USD', rate: 1, hash: '' });
  const [head, ...rows] = parseCsv(csv.replace(/^\uFEFF/, ''));
  const col = (name) => head.indexOf(name);
  assert.ok(col('calibrated') > 0 && col('calibrated_band_low') > 0 && col('calibrated_band_high') > 0, head.join());
  rows.forEach((cells, i) => {
    const c = ranked.rows[i].calibrated;
    assert.equal(cells[col('calibrated')], c.distance, `row ${i + 1}`);
    assert.equal(Number(cells[col('calibrated_band_low')]), Number(c.band_low.toFixed(4)), `row ${i + 1}`);
  });
  assert.ok(new Set(rows.map((cells) => cells[col('calibrated')])).size >= 3, 'rows at several distances from the A100 run');
  // Without measurements the CSV has no calibration columns.
  const plain = core.handle('exportRows', { request, sort, kind: 'csv', lang: 'en', messages: MESSAGE_CATALOGS.en, currency: 'USD', rate: 1, hash: '' });
  assert.equal(parseCsv(plain.replace(/^\uFEFF/, ''))[0].indexOf('calibrated'), -1);
});
