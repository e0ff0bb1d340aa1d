// The serving table as a buyer uses it (web/src/engine/serving.js on the real wasm engine and the bundled catalog):
// any numeric column sorts every row of the ranking, not only the rows sent; the rows come a page at a time; and the
// offers are priced under the billing model chosen, those without a price under it counted and left out.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { servingOps, servingOpsOf, sortRows, serveBase, PAGE_ROWS } from '../../web/src/engine/serving.js';

const engine = await loadEngine();
const ops = servingOpsOf(engine);
const QUESTION = { preset: 'llama3.1-70b', traffic: { requests_per_s: 10 }, targets: { ttft_ms: 2000, tpot_ms: 100 } };
const ask = (extra = {}, serving = {}) => ops.serveRank({ serving: { ...QUESTION, ...serving }, curves: false, ...extra });
const all = ask({ limit: 0 });
const summary = engine.catalogSummary();
const offers = new Map(summary.map((o) => [o.id, o]));

test('a column sorts every row of the ranking: no row left unsent is cheaper than one sent', () => {
  assert.ok(all.total > 2 * PAGE_ROWS, `${all.total} rows: more than two pages`);
  for (const dir of ['asc', 'desc']) {
    const a = ask({ sort: { key: 'monthly_usd', dir }, limit: 50 });
    assert.equal(a.total, all.total);
    assert.equal(a.rows.length, 50);
    const sign = dir === 'asc' ? 1 : -1;
    for (let i = 1; i < a.rows.length; ++i) assert.ok(sign * (a.rows[i].monthly_usd - a.rows[i - 1].monthly_usd) >= 0, `${dir} row ${i}`);
    const sent = new Set(a.rows.map((r) => r.key));
    const edge = a.rows[a.rows.length - 1].monthly_usd;
    const beyond = all.rows.filter((r) => r.fits && !sent.has(r.key));
    assert.ok(beyond.every((r) => sign * (r.monthly_usd - edge) >= 0), `${dir}: a row not sent would come before the last one sent`);
  }
  // The ranking's own first rows (met first, by $ per million output tokens) are not the cheapest months.
  assert.notDeepEqual(ask({ sort: { key: 'monthly_usd', dir: 'asc' }, limit: 10 }).rows.map((r) => r.key), all.rows.slice(0, 10).map((r) => r.key));
});

test('rows the model does not fit on sort last in either direction, and rank sorts the ranking\'s order or its reverse', () => {
  const unfit = all.rows.filter((r) => !r.fits).length;
  assert.ok(unfit > 0, 'some offers cannot hold 70B');
  for (const dir of ['asc', 'desc']) {
    const rows = ask({ sort: { key: 'ttft_ms', dir }, limit: 0 }).rows;
    assert.ok(rows.slice(rows.length - unfit).every((r) => !r.fits), dir);
    assert.ok(rows.slice(0, rows.length - unfit).every((r) => r.fits), dir);
  }
  assert.deepEqual(ask({ sort: { key: 'rank', dir: 'desc' }, limit: 3 }).rows.map((r) => r.rank), [all.total, all.total - 1, all.total - 2]);
  // Equal values keep the ranking's order.
  const rows = [{ rank: 1, fits: true, x: 2 }, { rank: 2, fits: false, x: 0 }, { rank: 3, fits: true, x: 1 }, { rank: 4, fits: true, x: 1 }];
  assert.deepEqual(sortRows(rows, { key: 'x', dir: 'asc' }).map((r) => r.rank), [3, 4, 1, 2]);
  assert.deepEqual(sortRows(rows, { key: 'x', dir: 'desc' }).map((r) => r.rank), [1, 3, 4, 2]);
});

test('pages: the first PAGE_ROWS rows, more on request, every row once in all', () => {
  const first = ask({ sort: { key: 'usd_per_million_input', dir: 'asc' } });
  const two = ask({ sort: { key: 'usd_per_million_input', dir: 'asc' }, limit: 2 * PAGE_ROWS });
  const every = ask({ sort: { key: 'usd_per_million_input', dir: 'asc' }, limit: 0 });
  assert.equal(first.rows.length, PAGE_ROWS);
  assert.deepEqual(two.rows.slice(0, PAGE_ROWS).map((r) => r.key), first.rows.map((r) => r.key), 'the second page follows the first');
  assert.equal(two.rows.length, 2 * PAGE_ROWS);
  assert.equal(every.rows.length, all.total);
  assert.equal(new Set(every.rows.map((r) => r.key)).size, all.total, 'no row twice');
  assert.deepEqual(new Set(every.rows.map((r) => r.key)), new Set(all.rows.map((r) => r.key)));
});

test('another order or page of the same question sorts kept rows: the engine is not asked again', () => {
  let calls = 0;  // the offers the engine is asked about (one per serve call, each item of a serveOffers call)
  const client = { ...engine, tryCall: (m, r) => { calls += m === 'serveOffers' ? r.offers.length : 1; return engine.tryCall(m, r); } };
  const own = servingOps({ client, offers: new Map(summary.map((o) => [o.id, o])), defaults: engine.defaults(), gpus: engine.gpus(), version: 1 });
  const question = { serving: { ...QUESTION, preset: 'llama3.1-8b' }, curves: false };
  const a = own.serveRank(question);
  const asked = calls;
  assert.ok(asked > summary.length / 2, `${asked} offers asked for the first answer`);
  const b = own.serveRank({ ...question, sort: { key: 'tpot_ms', dir: 'desc' }, limit: 3 * PAGE_ROWS });
  assert.equal(calls, asked, 'sorted and paged without asking the engine');
  assert.equal(b.total, a.total);
  own.serveRank({ ...question, serving: { ...question.serving, pricing: 'spot' } });
  assert.ok(calls > asked, 'another billing model is another question');
});

// The offers of the bundled catalog the default filters keep (real, with a current price of that model).
const considered = summary.filter((o) => !o.example);

test('reserved: every row is priced at its offer\'s reserved rate, says so with its term and date; offers without one are counted', () => {
  const r = ask({ limit: 0 }, { pricing: 'reserved' });
  assert.equal(r.ok, true);
  assert.equal(r.pricing, 'reserved');
  const lacking = considered.filter((o) => !o.prices.some((p) => p.model === 'reserved')).length;
  assert.equal(r.unpriced, lacking, 'offers without a reserved price are counted');
  assert.ok(r.unpriced > 1000 && r.total > 50, `${r.total} rows, ${r.unpriced} left out`);
  const base = serveBase({ ...QUESTION, pricing: 'reserved' });
  for (const row of r.rows) {
    const price = offers.get(row.id).prices.find((p) => p.model === 'reserved');
    assert.equal(row.pricing, 'reserved', row.id);
    assert.equal(row.as_of, price.as_of, row.id);
    assert.ok([12, 36].includes(row.term_months), `${row.id}: ${row.term_months}-month term`);
    if (row.fits) assert.equal(row.usd_per_hour, price.usd_per_hour, row.id);
  }
  for (const row of r.rows.filter((x) => x.fits).slice(0, 8)) {
    const direct = engine.serve({ ...base, offer: row.id, count: row.replica_gpus });
    assert.equal(direct.cost.offer.pricing, 'reserved');
    assert.equal(row.usd_per_million_output, direct.cost.usd_per_million_output, row.id);
    assert.equal(row.monthly_usd, direct.cost.monthly_usd, row.id);
  }
  // Reserved is cheaper than on-demand for the same offer and split: every figure scales by the ratio of the rates.
  const od = new Map(all.rows.map((x) => [x.key, x]));
  const both = r.rows.filter((x) => x.fits && od.has(x.key) && od.get(x.key).replica_gpus === x.replica_gpus);
  assert.ok(both.length > 20);
  for (const x of both) {
    const ratio = x.usd_per_hour / od.get(x.key).usd_per_hour;
    assert.ok(ratio < 1, `${x.id}: reserved below on-demand`);
    assert.ok(Math.abs(x.usd_per_million_output / od.get(x.key).usd_per_million_output - ratio) < 1e-9, x.id);
  }
});

test('spot and monthly: offers lacking the price are left out and counted, none priced on demand instead', () => {
  for (const pricing of ['spot', 'monthly']) {
    const r = ask({ limit: 0 }, { pricing });
    assert.equal(r.ok, true, pricing);
    assert.equal(r.unpriced, considered.filter((o) => !o.prices.some((p) => p.model === pricing)).length, pricing);
    assert.ok(r.rows.every((x) => x.pricing === pricing && offers.get(x.id).prices.some((p) => p.model === pricing)), pricing);
    const regions = r.rows.reduce((n, x) => n + x.regions.length, 0);
    assert.equal(regions + r.unpriced + r.stale, considered.length, `${pricing}: every offer is a row, left out for its price or stale`);
  }
  // On demand, the same sum holds over the whole catalog.
  assert.equal(all.rows.reduce((n, x) => n + x.regions.length, 0) + all.unpriced + all.stale, considered.length);
});

test('a billing model a service cannot run under is an engine error at /pricing', () => {
  const r = ask({}, { pricing: 'tiered' });
  assert.equal(r.ok, false);
  assert.equal(r.error.path, '/pricing');
});
