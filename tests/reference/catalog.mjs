// The page's catalog facts as the page derived them from every offer with its prices (the engine's catalogSummary)
// until the engine gave them itself (catalogFacts): an independent reference for web/src/engine/core.js's
// catalogOf, written out as the page had it. Not used by the page.
import { daysBetween } from '../../web/src/format/format.js';

const isStaleDate = (asOf, days, today) => daysBetween(asOf, today) > days;

// The catalog's date (its newest price of a real offer) and, per provider, the date of its oldest price; and per
// provider its offer count with the range of its price dates (as_of) and, for prices with no date, the newest read_on.
function freshness(offers) {
  let date = '';
  const oldest = new Map();
  const stats = new Map();
  for (const o of offers) {
    if (!stats.has(o.provider)) stats.set(o.provider, { offers: 0, oldest: '', newest: '', read_on: '' });
    const st = stats.get(o.provider);
    st.offers += 1;
    if (o.example) continue;
    for (const p of o.prices) {
      if (p.as_of > date) date = p.as_of;
      if (!oldest.has(o.provider) || p.as_of < oldest.get(o.provider)) oldest.set(o.provider, p.as_of);
      if (p.as_of && (!st.oldest || p.as_of < st.oldest)) st.oldest = p.as_of;
      if (p.as_of && p.as_of > st.newest) st.newest = p.as_of;
      if (!p.as_of && p.read_on > st.read_on) st.read_on = p.read_on;
    }
  }
  return {
    date,
    oldest: [...oldest].map(([provider, asOf]) => ({ provider, as_of: asOf })).sort((a, b) => a.as_of.localeCompare(b.as_of) || a.provider.localeCompare(b.provider)),
    providerStats: Object.fromEntries(stats),
  };
}

// s.catalog (without its version) from catalogSummary's offers, judged stale on `today` after `staleAfterDays`.
export function catalogFromOffers(summary, { staleAfterDays, today }) {
  const uniq = (xs) => [...new Set(xs)].sort((a, b) => a.localeCompare(b));
  const all = [...new Map(summary.map((o) => [o.id, o])).values()];
  return {
    count: all.length, providers: uniq(all.map((o) => o.provider)), regions: uniq(all.map((o) => o.region)),
    gpus: uniq(all.map((o) => o.gpu)),
    ...freshness(all),
    serverless: all.filter((o) => o.prices.some((p) => p.model === 'serverless'))
      .map((o) => ({ id: o.id, instance: o.instance, provider: o.provider, gpu: o.gpu })),
    reservable: all.filter((o) => !o.example && o.prices.some((p) => p.model === 'reserved') && o.prices.some((p) => p.model === 'on_demand'))
      .sort((a, b) => a.gpu.localeCompare(b.gpu) || a.provider.localeCompare(b.provider) || a.instance.localeCompare(b.instance))
      .slice(0, 400)
      .map((o) => ({ id: o.id, instance: o.instance, provider: o.provider, region: o.region, gpu: o.gpu, gpu_count: o.gpu_count,
        stale: o.prices.some((p) => (p.model === 'reserved' || p.model === 'on_demand') && isStaleDate(p.as_of, staleAfterDays, today)) })),
  };
}
