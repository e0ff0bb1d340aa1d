// The bundled catalog (data/catalog/*.json) is current: no real offer's price is more than 180 days older than the
// catalog's own date (its newest as_of), marketplace offers are marked, and the rank filters for stale prices and
// marketplace offers work on it through the real engine.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, loadEngine, cli } from './helpers.mjs';

const STALE_AFTER_DAYS = 180; // kStaleAfterDays in core/src/model/catalog.hpp
const dir = path.join(root, 'data/catalog');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const docs = files.map((f) => ({ f, doc: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
const offers = docs.flatMap(({ f, doc }) => doc.instances.map((o) => ({ ...o, file: f })));
const day = (iso) => Date.parse(`${iso}T00:00:00Z`) / 86400000;
// The catalog's date: its newest as_of (the date a source published or fetched a price). read_on dates (the day a
// price without a date of its own was read) say nothing of a price's age and do not count.
const catalogDate = offers.flatMap((o) => o.prices.map((p) => p.as_of).filter(Boolean)).sort().at(-1);
const lastRead = offers.flatMap((o) => o.prices.map((p) => p.read_on).filter(Boolean)).sort().at(-1);

test('no bundled price of a real offer is more than 180 days older than the catalog date, nor read more than 180 days ago', () => {
  const old = [];
  for (const o of offers) {
    if (o.example) continue; // the seed article's illustrative instances are not offers
    for (const p of o.prices) {
      if (!p.as_of && !p.read_on) old.push(`${o.file} ${o.id} ${p.model}: no date`);
      if (p.as_of && day(catalogDate) - day(p.as_of) > STALE_AFTER_DAYS) old.push(`${o.file} ${o.id} ${p.model} ${p.as_of}`);
      if (p.read_on && day(lastRead) - day(p.read_on) > STALE_AFTER_DAYS) old.push(`${o.file} ${o.id} ${p.model} read ${p.read_on}`);
    }
  }
  assert.deepEqual(old, [], `catalog date ${catalogDate}, last read ${lastRead}`);
});

// A dated source file older than this on the catalog date is due a refresh (well before its prices turn stale at
// 180 days), whether it prices all of a provider's offers or some of them.
const REFRESH_AFTER_DAYS = 120;

// Each provider's sources whose every price carries an as_of, with the source's newest as_of and its age.
export function sourceAges() {
  const bySource = new Map();
  for (const o of offers.filter((x) => !x.example))
    for (const p of o.prices) {
      const key = `${o.provider}\n${p.source}`;
      if (!bySource.has(key)) bySource.set(key, []);
      bySource.get(key).push(p);
    }
  const out = [];
  for (const [key, prices] of bySource) {
    const [provider, source] = key.split('\n');
    const dates = prices.map((p) => p.as_of).filter(Boolean).sort();
    if (dates.length === prices.length) out.push({ provider, source, as_of: dates.at(-1), age_days: day(catalogDate) - day(dates.at(-1)) });
  }
  return out;
}

// Sources due a refresh of which no newer copy exists: each with the day it was last searched for one and what was
// found. An entry holds only while that search is at most 30 days older than the catalog's newest read date (then it
// must be redone), and only while its source is due (no stale entries); the 180-day rule above still hides the
// prices when they age past it.
const NO_NEWER_COPY = {
  'https://github.com/anycloud-sh/catalog/blob/62ff0a987e0c257a89235415d2877812fb1aaf29/azure/vms.csv': {
    provider: 'Microsoft Azure',
    searched_on: '2026-12-06',
    found: 'anycloud-sh/catalog: the newest commit of azure/vms.csv is 62ff0a98 of 2026-05-20 (this one); the A100, H100, H200 and MI300X sizes were repriced from ewyluda/gpu-price-index (2026-10-10), which does not track the T4, A10, M60, MI25, NDv2 and NCC H100 sizes still priced from this file; andy-diericks/azure-pricing-radar (2026-08-22) covers five European regions and names meters, not VM sizes; SkyPilot keeps no Azure file after v6',
  },
};
const SEARCH_VALID_DAYS = 30;

test('no dated source is older than 120 days on the catalog date (a refresh is due)', () => {
  const ages = sourceAges();
  // Azure's two sources are both seen: the 2026-10-10 observation and anycloud's file of 2026-05-20.
  assert.deepEqual(ages.filter((a) => a.provider === 'Microsoft Azure').map((a) => a.as_of).sort(), ['2026-05-20', '2026-10-10']);
  const dueAges = ages.filter((a) => a.age_days > REFRESH_AFTER_DAYS);
  const waived = (a) => NO_NEWER_COPY[a.source] && NO_NEWER_COPY[a.source].provider === a.provider
    && day(lastRead) - day(NO_NEWER_COPY[a.source].searched_on) <= SEARCH_VALID_DAYS;
  const due = dueAges.filter((a) => !waived(a)).map((a) => `${a.provider}: ${a.source} of ${a.as_of} (${a.age_days} days)`);
  assert.deepEqual(due, [], `catalog date ${catalogDate}`);
  assert.deepEqual(Object.keys(NO_NEWER_COPY).filter((src) => !dueAges.some((a) => a.source === src)), [], 'entries of sources no longer due a refresh (remove them)');
});

// A file's exchange rate converts its local prices to USD and is the page's default CNY rate: dated no more than
// REFRESH_AFTER_DAYS before the newest date (as_of or read_on) of the prices it converts.
test('every exchange rate is dated within 120 days of the prices it converts, and every CNY price is converted at it', () => {
  const withFx = docs.filter(({ doc }) => doc.fx);
  assert.ok(withFx.length >= 5, `${withFx.length} files with a rate`);
  const far = [];
  for (const { f, doc } of withFx) {
    assert.ok(doc.fx.as_of && /^https:\/\//.test(doc.fx.source), `${f}: the rate has a date and a source`);
    const local = doc.instances.flatMap((o) => o.prices).filter((p) => p.local_per_hour != null);
    const newest = local.map((p) => p.as_of || p.read_on).sort().at(-1);
    if (day(newest) - day(doc.fx.as_of) > REFRESH_AFTER_DAYS) far.push(`${f}: rate of ${doc.fx.as_of}, prices to ${newest}`);
    for (const p of local) assert.equal(p.usd_per_hour, Math.round((p.local_per_hour / doc.fx.CNY_per_USD) * 1e4) / 1e4, `${f}: ${p.local_per_hour} CNY`);
  }
  assert.deepEqual(far, []);
});

test('a price with only a read date is undated: the engine outputs read_on and never calls it stale', async () => {
  const e = await loadEngine();
  const doc = JSON.stringify({ instances: [{ id: 'undated-offer', provider: 'Undated', instance_type: 'u', gpu: 't4', gpu_count: 1, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: 0.02, read_on: '2025-01-01', source: 'https://example.org/undated' }] }] });
  e.addCatalog(doc);
  const r = e.rank({ preset: 'resnet50-imagenet', pricing: 'on_demand', filters: { include_stale: false } }).results.find((x) => x.id === 'undated-offer');
  assert.ok(r, 'an undated price is not dropped as stale');
  assert.equal(r.stale, false);
  assert.equal(r.as_of, '');
  assert.equal(r.read_on, '2025-01-01');
  // A price with neither date is refused, with the path of the missing member.
  const none = JSON.stringify({ instances: [{ id: 'no-date', provider: 'N', instance_type: 'n', gpu: 't4', gpu_count: 1, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: 0.02, source: 'https://example.org/none' }] }] });
  const refused = e.addCatalog(none);
  assert.equal(refused.ok, false);
  assert.equal(refused.error.path, '/instances/0/prices/0/as_of');
  assert.equal(refused.error.message.code, 'error.date_or_read_on');
});

test('every price names a source a person can open, GitHub file links pinned to a commit', () => {
  for (const o of offers)
    for (const p of o.prices) {
      if (o.example) continue;
      assert.match(p.source, /^https:\/\//, o.id);
      if (/^https:\/\/github\.com\/.*\/blob\//.test(p.source)) assert.match(p.source, /\/blob\/[0-9a-f]{40}\//, o.id);
    }
});

test('marketplace offers are marked, and only those of marketplace providers', () => {
  const market = offers.filter((o) => o.marketplace);
  assert.ok(market.length > 0);
  assert.ok(offers.filter((o) => o.provider === 'Vast.ai').every((o) => o.marketplace));
  assert.ok(!offers.some((o) => o.marketplace && ['AWS', 'Google Cloud', 'Lambda'].includes(o.provider)));
});

test('rank: include_marketplace false drops exactly the marketplace offers; include_stale false drops stale prices', async () => {
  const e = await loadEngine();
  // Stale prices and the article's examples are left out by default: ask for them to see every offer.
  const every = { include_stale: true, include_examples: true };
  const all = e.rank({ preset: 'resnet50-imagenet', pricing: 'all', filters: every });
  const noMarket = e.rank({ preset: 'resnet50-imagenet', pricing: 'all', filters: { ...every, include_marketplace: false } });
  const marketIds = new Set(offers.filter((o) => o.marketplace).map((o) => o.id));
  const ranked = (r) => r.results.map((x) => x.id);
  assert.ok(ranked(all).some((id) => marketIds.has(id)));
  // The same offers less the marketplace ones (their order may differ: scores are relative to the best offer kept).
  assert.deepEqual(ranked(noMarket).sort(), ranked(all).filter((id) => !marketIds.has(id)).sort());
  assert.ok(all.results.filter((x) => marketIds.has(x.id)).every((x) => x.marketplace === true));
  // The seed article's examples (2024-01-01) are stale on the test day; include_stale false drops stale prices of
  // real offers and leaves the examples to include_examples.
  const fresh = e.rank({ preset: 'resnet50-imagenet', pricing: 'all', filters: { include_stale: false, include_examples: true } });
  assert.ok(all.results.some((x) => x.stale && x.example));
  assert.ok(fresh.results.length > 0 && fresh.results.every((x) => !x.stale || x.example));
  assert.equal(fresh.results.length, all.results.filter((x) => !x.stale || x.example).length);
  // A real offer priced a year before the test day is dropped.
  const old = JSON.stringify({ instances: [{ id: 'old-offer', provider: 'Old', instance_type: 'o', gpu: 't4', gpu_count: 1, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: 0.01, as_of: '2025-12-01', source: 'https://example.org/old' }] }] });
  e.addCatalog(old);
  const withOld = e.rank({ preset: 'resnet50-imagenet', pricing: 'all', filters: every });
  assert.ok(withOld.results.some((x) => x.id === 'old-offer' && x.stale));
  assert.ok(!e.rank({ preset: 'resnet50-imagenet', pricing: 'all', filters: { include_stale: false } }).results.some((x) => x.id === 'old-offer'));
});

// The catalog's reach, as the CLI ranks it: at least 1,000 offers from at least 40 providers (a cloud resold
// through Shadeform counts once, under its own name), 7 of them clouds in or serving mainland China. Tencent Cloud
// is not among them: its only published GPU price table (tencentyun/intlcloud-documents, GPU 价格总览) was last
// changed on 2023-06-30, and its current page (cloud.tencent.com/document/product/560/8025) shows prices only after
// log-in (data/catalog/README.md).
const CHINA = ['Alibaba Cloud', 'Baidu AI Cloud', 'Huawei Cloud', 'JD Cloud', 'China Telecom Cloud (ctyun)',
  'UCloud Compshare (优云智算)', 'AWS China (Sinnet / NWCD)'];

test('rank --pricing all evaluates at least 1,000 offers of at least 40 providers, 7 of them Chinese clouds', () => {
  const r = cli(['rank', '--preset', 'resnet50-imagenet', '--pricing', 'all', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.evaluated_offers >= 1000, `${out.evaluated_offers} offers`);
  const providers = new Set(out.results.map((x) => x.provider.replace(/ \(via Shadeform\)$/, '')));
  assert.ok(providers.size >= 40, `${providers.size} providers: ${[...providers].join(', ')}`);
  const fresh = new Set(out.results.filter((x) => !x.stale).map((x) => x.provider));
  assert.deepEqual(CHINA.filter((p) => !fresh.has(p)), [], 'each Chinese cloud has a current offer');
});
