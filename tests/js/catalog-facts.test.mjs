// The catalog facts the page starts with (the engine's catalogFacts, core/src/api/catalog_facts.cpp, ordered and cut
// by web/src/engine/core.js's catalogOf) against what the page derived from every offer with its prices before
// (catalogSummary, tests/reference/catalog.mjs): member by member, on the real wasm module with the bundled catalog,
// on a later day when more prices are stale, and with a user's import that holds more than the planner's 400 offers
// under names whose order depends on the collation (letter case, "_" against "-", digits). And the details panel's
// offer record comes from the engine's offers method, equal to catalogSummary's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createEngine, todayIso } from '../../web/src/engine/client.js';
import { createCore, catalogOf } from '../../web/src/engine/core.js';
import { dataBundle } from '../../scripts/build-web.mjs';
import { catalogFromOffers } from '../reference/catalog.mjs';
import { enginePath, root } from './helpers.mjs';

const factory = createRequire(import.meta.url)(enginePath);
const data = dataBundle(root);

// s.catalog's members, each compared on its own so that a failure names the member.
function sameFacts(got, want, where) {
  const { version, ...rest } = got;
  assert.equal(typeof version, 'number', where);
  assert.deepEqual(Object.keys(rest).sort(), Object.keys(want).sort(), where);
  for (const k of Object.keys(want)) assert.deepEqual(rest[k], want[k], `${where}: ${k}`);
}

const reference = (client, today) => catalogFromOffers(client.catalogSummary(), { staleAfterDays: client.defaults().stale_after_days, today });

test('the bundled catalog: the facts equal what the page derived from catalogSummary, today and a year later', async () => {
  const stale = [];
  for (const today of [todayIso(), '2027-12-06']) {
    const client = await createEngine(factory, data, { today });
    const want = reference(client, today);
    sameFacts(createCore(client, data).handle('meta').catalog, want, `bundled, ${today}`);
    // The comparison has something to compare: names, both kinds of listed offers, stale and fresh prices.
    assert.ok(want.count > 1000 && want.providers.length > 20 && want.serverless.length > 5 && want.reservable.length > 20, JSON.stringify(want).slice(0, 200));
    stale.push(want.reservable.filter((o) => o.stale).length);
  }
  assert.ok(stale[1] > stale[0], `stale reservable offers today and a year later: ${stale}`);
});

// A user's catalog of `n` offers with reserved and on-demand prices under names that sort differently by code unit
// and by collation; with an example, a serverless offer and a price known only by the day it was read.
function userCatalog(n) {
  const names = ['Zeta_1', 'zeta-2', 'alpha', 'Alpha', 'beta10', 'beta9', 'Beta_9', 'b-9', 'b_9', 'é-node', 'e-node'];
  const gpus = ['h100-sxm5-80gb', 'a100-sxm4-80gb', 'l40s'];
  const instances = Array.from({ length: n }, (_, i) => ({
    id: `mine-${i}`, provider: i % 3 ? 'My cloud' : 'my Cloud', instance_type: `${names[i % names.length]}.${i % 7}`,
    gpu: gpus[i % gpus.length], gpu_count: 8, interconnect: 'nvswitch', region: `Region ${i % 5}`,
    prices: [{ model: 'on_demand', usd_per_hour: 20 + i / 100, as_of: i % 4 ? '2026-11-20' : '2026-03-01', source: 'https://example.com' },
      { model: 'reserved', usd_per_hour: 14, term_months: 12, as_of: '2026-11-20', source: 'https://example.com' }],
  }));
  instances.push({ id: 'mine-example', provider: 'Zed', instance_type: 'x', gpu: 'l40s', gpu_count: 1, interconnect: 'none', region: 'z',
    example: true, prices: [{ model: 'on_demand', usd_per_hour: 1, as_of: '2026-12-01', source: 'x' }, { model: 'reserved', usd_per_hour: 1, term_months: 12, as_of: '2026-12-01', source: 'x' }] });
  instances.push({ id: 'mine-serverless', provider: 'Zed', instance_type: 'sl', gpu: 'l40s', gpu_count: 1, interconnect: 'none', region: 'z',
    prices: [{ model: 'serverless', usd_per_second: 0.0005, read_on: '2026-11-30', source: 'x' }] });
  return { schema_version: 1, instances };
}

test('with a user\'s import of 600 reservable offers: the same facts, the planner\'s 400 cut after the collation\'s order', async () => {
  const today = '2026-12-06';
  const client = await createEngine(factory, data, { today });
  const core = createCore(client, data);
  const r = await core.handle('importFile', { name: 'mine.json', text: JSON.stringify(userCatalog(600)), provider: '', today });
  assert.equal(r.ok, true, JSON.stringify(r.errors || r.rejected));
  const want = reference(client, today);
  sameFacts(r.catalog, want, 'with the import');
  assert.equal(want.reservable.length, 400);
  assert.ok(want.reservable.some((o) => o.stale) && want.reservable.some((o) => !o.stale));
  assert.ok(want.serverless.some((o) => o.id === 'mine-serverless'));
  assert.ok(want.providerStats.Zed && want.providerStats.Zed.read_on === '2026-11-30');
  // The order is the collation's, not the code units': a plain sort of the same ids would differ.
  const byCodeUnit = [...want.reservable].sort((a, b) => (a.gpu < b.gpu ? -1 : a.gpu > b.gpu ? 1 : 0)
    || (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0) || (a.instance < b.instance ? -1 : a.instance > b.instance ? 1 : 0));
  assert.notDeepEqual(byCodeUnit.map((o) => o.id), want.reservable.map((o) => o.id));
});

test('catalogOf orders what the engine lists in catalog order; the facts themselves carry no prices', async () => {
  const client = await createEngine(factory, data, { today: '2026-12-06' });
  const facts = client.catalogFacts();
  assert.ok(JSON.stringify(facts).length < 0.2 * client.text('catalogSummary').length, 'the facts are a fraction of the summary');
  assert.ok(!JSON.stringify(facts).includes('usd_per_hour'));
  const c = catalogOf(client.catalogFacts());
  assert.deepEqual(c.providers, [...facts.providers].sort((a, b) => a.localeCompare(b)));
  assert.equal(c.reservable.length, Math.min(400, facts.reservable.length));
});

test('the details panel\'s offer record is the engine\'s offers answer, equal to catalogSummary\'s; start-up reads no summary', async () => {
  const client = await createEngine(factory, data, { today: '2026-12-06' });
  const called = [];
  const text = client.text.bind(client);
  client.text = (method, ...a) => { called.push(method); return text(method, ...a); };
  const core = createCore(client, data);
  core.handle('meta');
  const summary = new Map(JSON.parse(text('catalogSummary')).offers.map((o) => [o.id, o]));
  const id = 'aws-p4d.24xlarge-us-east-1';
  assert.ok(summary.has(id));
  const d = core.handle('details', { id, hours: 10, nodes: 1, pricing: 'on_demand', deadline: 0 });
  assert.deepEqual(d.offer, summary.get(id));
  assert.deepEqual(d.breakdown.map((b) => b.model), summary.get(id).prices.map((p) => p.model).filter((m, i, all) => all.indexOf(m) === i)
    .sort((a, b) => client.defaults().names.pricing_models.indexOf(a) - client.defaults().names.pricing_models.indexOf(b)));
  assert.equal(core.handle('details', { id: 'no-such-offer', hours: 10, nodes: 1, pricing: 'spot', deadline: 0 }).offer, null);
  assert.ok(called.includes('catalogFacts') && called.includes('offers'), called.join(' '));
  assert.ok(!called.includes('catalogSummary'), called.join(' '));
  // An operation that needs every offer (a typed offer's new id) reads the summary then; a change of catalog drops it.
  const values = { provider: 'Mine', instance_type: 'm1', region: 'r', gpu: 'h100-sxm5-80gb', gpu_count: 8, interconnect: 'nvswitch',
    on_demand: 20, source: 'https://example.com' };
  const first = core.handle('saveOffer', { values, rate: 7.2, today: '2026-12-06' });
  const second = core.handle('saveOffer', { values, rate: 7.2, today: '2026-12-06' });
  assert.ok(first.ok && second.ok);
  assert.equal(second.id, `${first.id}-2`);
  assert.equal(called.filter((m) => m === 'catalogSummary').length, 2, called.join(' '));
});
