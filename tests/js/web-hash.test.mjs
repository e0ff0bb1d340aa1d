// The page's URL hash: long, unknown and out-of-range values are ignored in time proportional to the hash, never
// turned into errors or filters that match nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseHash, serializeHash } from '../../web/src/state/hash.js';
import { defaultState } from '../../web/src/state/state.js';
import { setNames } from '../../web/src/state/names.js';
import { loadEngine } from './helpers.mjs';

const engine = await loadEngine();
const defaults = engine.defaults();
setNames(defaults.names);
const base = defaultState(defaults, { rate: 7.1 });
const offers = engine.catalogSummary();
const known = {
  providers: [...new Set(offers.map((o) => o.provider))],
  regions: [...new Set(offers.map((o) => o.region))],
  gpus: [...new Set(offers.map((o) => o.gpu))],
};

test('out-of-range numbers in the hash are ignored, in-range ones kept', () => {
  for (const h of ['#budget=1e308', '#budget=5e-324', '#deadline=1e308', '#rate=5e-324', '#rate=1e-300', '#params=1e308&kind=transformer']) {
    const s = parseHash(h, base, { known });
    assert.equal(s.filters.budget, base.filters.budget, h);
    assert.equal(s.filters.deadlineHours, base.filters.deadlineHours, h);
    assert.equal(s.rate, base.rate, h);
    if (s.custom) assert.equal(s.custom.params, undefined, h);
  }
  const s = parseHash('#budget=1500&deadline=48&rate=7.3', base, { known });
  assert.deepEqual([s.filters.budget, s.filters.deadlineHours, s.rate], [1500, 48, 7.3]);
});

test('filter values that match nothing in the catalog are dropped; known ones kept', () => {
  const p = known.providers[0];
  const s = parseHash(`#prov=${encodeURIComponent(p)}&prov=NoSuchCloud&gpu=nope&reg=${encodeURIComponent(known.regions[0])}`, base, { known });
  assert.deepEqual(s.filters.providers, [p]);
  assert.deepEqual(s.filters.gpus, []);
  assert.deepEqual(s.filters.regions, [known.regions[0]]);
});

test('a long hash is read in bounded time and its long values are dropped', () => {
  const long = 'x'.repeat(100_000);
  const t0 = performance.now();
  const s = parseHash(`#prov=${long}&sel=${long}&cmp=${long}&advise.params=${long}&preset=${long}`, base, { known, presetIds: ['resnet50-imagenet'] });
  const ms = performance.now() - t0;
  assert.ok(ms < 200, `${ms} ms`);
  assert.deepEqual(s.filters.providers, []);
  assert.equal(s.sel, base.sel);
  assert.deepEqual(s.cmp, []);
  assert.equal((s.tools.advise || {}).params, undefined);
  // Many repeated values: at most a bounded number is kept.
  const many = parseHash(`#${Array.from({ length: 5000 }, () => `cmp=a|on_demand`).join('&')}`, base, { known });
  assert.ok(many.cmp.length <= 4);
});

test('what the page writes it reads back', () => {
  const s = { ...base, filters: { ...base.filters, providers: [known.providers[0]], budget: 250 }, rate: 7.2 };
  const back = parseHash(serializeHash(s, base), base, { known });
  assert.deepEqual(back.filters.providers, [known.providers[0]]);
  assert.equal(back.filters.budget, 250);
  assert.equal(back.rate, 7.2);
});
