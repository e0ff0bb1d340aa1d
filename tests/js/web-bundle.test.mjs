// The catalogs as the pages carry them (web/src/engine/bundle.js): packed, then unpacked where the page starts, they
// are the files of data/catalog exactly (same offers, same order, same members and values), and smaller after gzip.
import test from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { root } from './helpers.mjs';
import { dataBundle } from '../../scripts/build-web.mjs';
import { packBundle, unpackBundle, packDoc, unpackDoc } from '../../web/src/engine/bundle.js';

test('unpacking the shipped bundle gives the data files back, offer by offer and in order', () => {
  const data = dataBundle(root);
  const back = unpackBundle(JSON.parse(JSON.stringify(packBundle(data))));
  assert.deepStrictEqual(back, data);
  const offers = data.catalogs.flatMap((c) => c.doc.instances);
  assert.ok(offers.length > 500, `${offers.length} offers`);
  assert.deepEqual(back.catalogs.flatMap((c) => c.doc.instances.map((o) => o.id)), offers.map((o) => o.id));
  const gz = (x) => zlib.gzipSync(JSON.stringify(x), { level: 9 }).length;
  assert.ok(gz(packBundle(data)) < 0.95 * gz(data), `${gz(packBundle(data))} vs ${gz(data)} bytes gzip`);
});

test('runs are only consecutive offers alike but for id, region and prices; odd prices keep their date and source', () => {
  const p = (usd, asOf = '2026-11-01', source = 's') => ({ model: 'on_demand', usd_per_hour: usd, as_of: asOf, source });
  const doc = { schema_version: 1, instances: [
    { id: 'a-r1', provider: 'P', gpu: 'g', region: 'r1', prices: [p(1)] },
    { id: 'a-r2', provider: 'P', gpu: 'g', region: 'r2', prices: [p(2, '2026-10-01')] },
    { id: 'b-r1', provider: 'P', gpu: 'h', region: 'r1', prices: [p(3)] },
    { id: 'a-r3', provider: 'P', gpu: 'g', region: 'r3', prices: [p(4, '2026-11-01', 'other')] },
    { id: 'odd', provider: 'P', gpu: 'g', region: 'r4', prices: [p(5)] },
  ] };
  const packed = packDoc(doc);
  assert.deepEqual(packed.instances.map((r) => r.regions.length), [2, 1, 2]);
  assert.deepEqual(packed.instances.map((r) => r.id_base), ['a', 'b', undefined]);
  assert.deepEqual(packed.packed.price, { as_of: '2026-11-01', source: 's' });
  assert.deepStrictEqual(unpackDoc(packed), doc);
  assert.equal(unpackDoc(doc), doc, 'an unpacked document is left as it is');
});
