// The engine's view of a ranking (rankView) against an independent JavaScript reference (tests/reference/view.mjs)
// applied to the engine's full ranking: the same rows in the same order for every column and direction, the same
// region groups, picks and scatter points, on the bundled catalog and on a generated 10,000-offer one.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { generateCatalog } from '../../bench/generate.mjs';
import { sortRows, collapseRegions, firstRows, picks, scatterPoints, rowKey } from '../reference/view.mjs';

const engine = await loadEngine();
const SORTS = ['rank', 'total_gpus', 'time_hours', 'cost_usd', 'usd_per_hour', 'usd_per_tflops_day', 'memory', 'score'];

// The reference view of the engine's full ranking of `request`.
function reference(request, sort, rows, keys, points, on = engine) {
  const all = on.call('rank', { ...request, limit: 0 }).results.map((r, i) => ({ ...r, _rank: i + 1, _key: rowKey(r) }));
  const sorted = sortRows(all, sort);
  const shown = firstRows(collapseRegions(sorted), rows || Infinity);
  const inShown = new Set(shown.map((r) => r._key));
  const p = picks(all);
  const extra = [];
  for (const r of [...all.filter((x) => keys.includes(x._key)), all[0], p.pickBest, p.pickCheapest, p.pickFastest, p.pickUnit]) {
    if (r && !inShown.has(r._key) && !extra.includes(r._key)) extra.push(r._key);
  }
  const scatter = all.length > shown.length ? scatterPoints(sorted, { max: points }) : null;
  return { all, shown, extra, picks: p, scatter };
}

function view(request, sort, rows, keys = [], points = 600, on = engine) {
  return on.call('rankView', { ...request, view: { sort, rows, keys, points } });
}

function compare(request, sort, rows, { keys = [], points = 600, on = engine } = {}) {
  const where = `${JSON.stringify(request)} sorted by ${sort.key} ${sort.dir}`;
  const want = reference(request, sort, rows, keys, points, on);
  const got = view(request, sort, rows, keys, points, on);
  assert.equal(got.total, want.all.length, where);
  assert.deepEqual(got.rows.map(rowKey), want.shown.map((r) => r._key), `${where}: rows`);
  assert.deepEqual(got.rows.map((r) => r.rank), want.shown.map((r) => r._rank), `${where}: ranks`);
  assert.deepEqual(got.rows.map((r) => r.group || null), want.shown.map((r) => r._group || null), `${where}: groups`);
  assert.deepEqual(got.rows.map((r) => r.member_of || null), want.shown.map((r) => r._member_of || null), `${where}: members`);
  assert.deepEqual(got.extra.map(rowKey), want.extra, `${where}: extra rows`);
  const key = (r) => (r ? r._key : null);
  assert.deepEqual(got.picks, { pickBest: key(want.picks.pickBest), pickCheapest: key(want.picks.pickCheapest), pickFastest: key(want.picks.pickFastest), pickUnit: key(want.picks.pickUnit) }, `${where}: picks`);
  assert.equal(got.top, want.all.length ? want.all[0]._key : null);
  if (!want.scatter) assert.equal(got.scatter, null, where);
  else {
    assert.equal(got.scatter.total, want.scatter.total, `${where}: scatter total`);
    assert.equal(got.scatter.thinned, want.scatter.thinned, `${where}: thinned`);
    assert.deepEqual(got.scatter.points.map((p) => p[2]), want.scatter.points.map((p) => p.key), `${where}: scatter points`);
  }
  // Every row is a full result: the rank answer's members, with its reasons and evaluation.
  for (const r of [...got.rows, ...got.extra]) {
    const full = want.all[r.rank - 1];
    assert.equal(rowKey(r), full._key);
    const { rank, group, member_of: memberOf, ...rest } = r;
    const { _rank, _key, ...fullRest } = full;
    assert.deepEqual(rest, fullRest, `${where}: row ${full._key}`);
  }
  return got;
}

test('bundled catalog: every column, both directions, 250 rows and all rows', () => {
  for (const preset of ['resnet50-imagenet', 'llama2-7b-pretrain']) {
    for (const key of SORTS) {
      for (const dir of ['asc', 'desc']) compare({ preset }, { key, dir }, 250);
    }
    const all = compare({ preset, filters: { include_stale: true } }, { key: 'cost_usd', dir: 'asc' }, 0);
    assert.equal(all.rows.length, all.total, 'rows 0 = every row');
  }
});

test('rows asked for by key come back wherever they rank; a thin scatter keeps the frontier', () => {
  const full = engine.call('rank', { preset: 'resnet50-imagenet', limit: 0 }).results;
  const far = full.slice(-3).map(rowKey);
  const got = compare({ preset: 'resnet50-imagenet' }, { key: 'rank', dir: 'asc' }, 20, { keys: far, points: 40 });
  for (const k of far) assert.ok(got.extra.some((r) => rowKey(r) === k), k);
  assert.equal(got.scatter.thinned, true);
  const frontier = full.filter((r) => r.pareto && r.fits && r.cost_usd > 0 && r.time_hours > 0).map(rowKey);
  assert.ok(frontier.length > 0);
  for (const k of frontier) assert.ok(got.scatter.points.some((p) => p[2] === k), `frontier point ${k} kept`);
});

test('10,000 generated offers: groups across regions, thinned scatter, every column', async () => {
  const big = await loadEngine();
  big.loadCatalog(JSON.stringify(generateCatalog(10000, 7)));
  for (const key of ['rank', 'cost_usd', 'memory', 'score']) {
    const got = compare({ preset: 'llama2-7b-pretrain' }, { key, dir: key === 'score' ? 'desc' : 'asc' }, 250, { on: big });
    assert.ok(got.rows.some((r) => r.group), `${key}: some offer is sold in several regions`);
    assert.equal(got.scatter.thinned, true, key);
  }
});

test('a bad view is refused at its path and ranks nothing', () => {
  const bad = [
    [{ sort: { key: 'price' } }, '/view/sort/key'],
    [{ sort: { key: 'rank', dir: 'up' } }, '/view/sort/dir'],
    [{ rows: -1 }, '/view/rows'],
    [{ rows: 2.5 }, '/view/rows'],
    [{ points: 0 }, '/view/points'],
    [{ keys: 'a|spot' }, '/view/keys'],
    [{ keys: ['a', 3] }, '/view/keys/1'],
    ['all', '/view'],
  ];
  for (const [v, path] of bad) {
    const r = engine.tryCall('rankView', { preset: 'resnet50-imagenet', view: v });
    assert.equal(r.ok, false, JSON.stringify(v));
    assert.ok([r.error.path, ...(r.issues || []).map((i) => i.path)].includes(path), `${JSON.stringify(v)}: ${JSON.stringify(r.error)}`);
  }
});

test('the fastest pick is never a far dearer job that finishes within 5 % of a cheaper one (a commitment beside an hourly rate)', () => {
  for (const preset of ['qwen2.5-7b-lora', 'llama2-70b-lora', 'bert-large-squad', 'resnet50-imagenet']) {
    const request = { preset, pricing: 'all' };
    const got = view(request, { key: 'rank', dir: 'asc' }, 5);
    const all = engine.call('rank', { ...request, limit: 0 }).results;
    const fastest = all.find((x) => rowKey(x) === got.picks.pickFastest);
    assert.ok(fastest, preset);
    const inTime = all.some((x) => x.fits && x.cost_usd > 0 && x.meets_horizon);
    const eligible = all.filter((x) => x.fits && x.cost_usd > 0 && (!inTime || x.meets_horizon));
    const quickest = Math.min(...eligible.map((x) => x.time_hours));
    const rivals = eligible.filter((x) => x.time_hours <= quickest * 1.05);
    assert.ok(fastest.time_hours <= quickest * 1.05, `${preset}: the pick is within 5 % of the quickest time`);
    const cheapest = Math.min(...rivals.map((x) => x.cost_usd));
    assert.equal(fastest.cost_usd, cheapest, `${preset}: ${fastest.id} ${fastest.pricing} at ${fastest.cost_usd} while a job within 5 % of its time costs ${cheapest}`);
  }
});
