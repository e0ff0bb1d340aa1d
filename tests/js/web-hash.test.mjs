// The page's URL hash: long, unknown and out-of-range values are ignored (only a bounded prefix is read), never
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

test('a long hash is read only up to a bound and its long values are dropped', () => {
  const long = 'x'.repeat(100_000);
  const s = parseHash(`#prov=${long}&sel=${long}&cmp=${long}&advise.params=${long}&preset=${long}`, base, { known, presetIds: ['resnet50-imagenet'] });
  assert.deepEqual(s.filters.providers, []);
  assert.equal(s.sel, base.sel);
  assert.deepEqual(s.cmp, []);
  assert.equal((s.tools.advise || {}).params, undefined);
  // Many repeated values: at most a bounded number is kept.
  const many = parseHash(`#${Array.from({ length: 5000 }, () => `cmp=a|on_demand`).join('&')}`, base, { known });
  assert.ok(many.cmp.length <= 4);
  // The work is bounded by the hash's first 16,384 characters (MAX_HASH_CHARS in web/src/state/hash.js): a value
  // inside them is read, the same value after them is not, however long the rest is.
  const presetIds = ['resnet50-imagenet', 'bert-large-squad'];
  const filler = 'junk=1&'.repeat(2000);  // 14,000 characters
  assert.equal(parseHash(`#${filler}preset=bert-large-squad`, base, { presetIds }).preset, 'bert-large-squad');
  const tail = 'junk=1&'.repeat(200_000);  // 1.4 million characters
  assert.equal(parseHash(`#${filler}${'junk=1&'.repeat(400)}preset=bert-large-squad&${tail}`, base, { presetIds }).preset, base.preset);
});

test('what the page writes it reads back', () => {
  const s = { ...base, filters: { ...base.filters, providers: [known.providers[0]], budget: 250 }, rate: 7.2 };
  const back = parseHash(serializeHash(s, base), base, { known });
  assert.deepEqual(back.filters.providers, [known.providers[0]]);
  assert.equal(back.filters.budget, 250);
  assert.equal(back.rate, 7.2);
});

test('the serving mode and its inputs round-trip through the hash; defaults write nothing, bad values are ignored', () => {
  const servingIds = ['llama3.1-8b', 'llama3.1-70b', 'deepseek-v3'];
  assert.equal(serializeHash(base, base).includes('task='), false);
  assert.equal(/(^|&|#)(sp|rps|tin|tout|ttft|tpot|pct|wq|kvq|ssw)=/.test(serializeHash(base, base)), false);
  const s = { ...base, task: 'serve', serving: { ...base.serving, preset: 'deepseek-v3', rps: 42.5, input: 2000, output: 500, ttft: 800, tpot: 40, pct: 95, weights: 'fp8', kv: 'fp8', software: 'typical' } };
  const hash = serializeHash(s, base);
  const back = parseHash(hash, base, { servingIds });
  assert.equal(back.task, 'serve');
  assert.deepEqual(back.serving, s.serving);
  assert.equal(serializeHash(back, base), hash);
  const bad = parseHash('#task=fly&sp=no-such&rps=-1&tin=1e308&ttft=abc&pct=100&wq=fp3&kvq=int4&ssw=fast', base, { servingIds });
  assert.equal(bad.task, base.task);
  assert.deepEqual(bad.serving, base.serving);
});

test('an own LoRA model\'s choices round-trip through the hash; unknown choices and other modes\' fields are not sent', async () => {
  const { rankRequest } = await import('../../web/src/state/state.js');
  const s = parseHash('#kind=transformer&mode=lora&params=7e9&tokens=1e8&heads=32&kvh=8&lr=32&lt=all_linear&lq=separate', base, { known });
  assert.deepEqual([s.custom.heads, s.custom.kv_heads, s.custom.lora_rank, s.custom.lora_targets, s.custom.lora_qkv], [32, 8, 32, 'all_linear', 'separate']);
  const again = parseHash(serializeHash(s, base), base, { known });
  assert.deepEqual(again.custom, s.custom);
  const w = rankRequest(s).workload;
  assert.deepEqual([w.kv_heads, w.lora_rank, w.lora_targets, w.lora_qkv], [8, 32, 'all_linear', 'separate']);
  assert.equal(engine.rank(rankRequest(s)).ok, true);
  const odd = parseHash('#kind=transformer&mode=lora&lt=everything&lq=split', base, { known });
  assert.equal(odd.custom.lora_targets, undefined);
  assert.equal(odd.custom.lora_qkv, undefined);
  const pretrain = rankRequest({ ...s, custom: { ...s.custom, mode: 'pretrain' } }).workload;
  assert.deepEqual([pretrain.lora_rank, pretrain.lora_targets, pretrain.lora_qkv, pretrain.kv_heads], [undefined, undefined, undefined, 8]);
});
