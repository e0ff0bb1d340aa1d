// The ranking view as the page keeps it (web/src/engine/viewrows.js): the worker hands over the engine's answer
// text, the page parses it once and names rows the way the worker used to.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, root } from './helpers.mjs';
import { createCore } from '../../web/src/engine/core.js';
import { packBundle } from '../../web/src/engine/bundle.js';
import { bundledIdsOf, isOkText, viewOfText, rowKey } from '../../web/src/engine/viewrows.js';
import { dataBundle } from '../../scripts/build-web.mjs';
import { generateCatalog } from '../../bench/generate.mjs';

const client = await loadEngine();
const data = dataBundle(root);

test('the bundled offers\' ids read from the packed catalogs are the ids of data/catalog/, packed or not', () => {
  const fromFiles = new Set(fs.readdirSync(path.join(root, 'data/catalog')).filter((f) => f.endsWith('.json'))
    .flatMap((f) => JSON.parse(fs.readFileSync(path.join(root, 'data/catalog', f), 'utf8')).instances.map((o) => o.id)));
  const packed = packBundle(data);
  assert.ok(packed.catalogs.some((c) => c.doc.instances.some((run) => run.id_base)), 'some runs are packed with id_base');
  assert.deepEqual([...bundledIdsOf(packed)].sort(), [...fromFiles].sort());
  assert.deepEqual([...bundledIdsOf(data)].sort(), [...fromFiles].sort());
});

test('the view operation hands over the engine\'s text; parsed, its rows are the page\'s rows, imported ones marked', () => {
  const core = createCore(client, data);
  const request = { preset: 'resnet50-imagenet' };
  const sort = { key: 'cost_usd', dir: 'asc' };
  const before = core.handle('view', { request, sort, limit: 250 });
  assert.equal(typeof before.text, 'string');
  assert.ok(isOkText(before.text));
  const bundled = bundledIdsOf(packBundle(data));
  const v = viewOfText(before.text, bundled);
  assert.ok(v.rows.length > 0 && v.total >= v.rows.length);
  assert.ok(v.rows.every((r) => r._key === rowKey(r) && r._rank >= 1 && r._user === false && !('rank' in r)));
  assert.ok(v.rows.some((r) => r._group) && v.rows.some((r) => r._member_of), 'region groups are named for the page');
  // The engine's own answer, parsed directly, has the same rows in the same order.
  const direct = JSON.parse(client.text('rankView', { ...request, view: { sort, rows: 250, points: 600, keys: [] } }));
  assert.deepEqual(v.rows.map((r) => [r._key, r._rank]), direct.rows.map((r) => [rowKey(r), r.rank]));
  assert.equal(v.scatter.points.length, direct.scatter.points.length);
  assert.deepEqual(Object.keys(v.scatter.points[0]).sort(), ['key', 'pareto', 'r', 'x', 'y']);
  // An imported catalog's offers are the user's.
  const imported = generateCatalog(300, 3);
  client.addCatalog(JSON.stringify(imported));
  const after = viewOfText(core.handle('view', { request, sort: { key: 'rank', dir: 'asc' }, limit: 0 }).text, bundled);
  const ids = new Set(imported.instances.map((o) => o.id));
  const mine = [...after.rows, ...after.extra].filter((r) => ids.has(r.id));
  assert.ok(mine.length > 0 && mine.every((r) => r._user), 'imported rows are marked as the user\'s');
  assert.ok(after.rows.filter((r) => !ids.has(r.id)).every((r) => !r._user));
});

test('a refused view comes back as an error with its path, not as text', () => {
  const core = createCore(client, data);
  const v = core.handle('view', { request: { preset: 'resnet50-imagenet', weights: { unit_cost: 'x' } }, sort: { key: 'rank', dir: 'asc' } });
  assert.equal(v.text, undefined);
  assert.match(v.error.path, /^\/weights/);
  assert.equal(isOkText('{"ok":false,"error":{}}'), false);
});
