// catalogFacts: what the page needs of the loaded catalog when it starts, read from the loaded offers without
// writing their prices (catalogSummary writes every offer with its prices, a megabyte and more for the bundled
// catalog). Numbers, ids and dates only:
//   count           the offers
//   providers, regions, gpus   each value once, in the order of its first offer
//   date            the newest price date (as_of) of a real offer: the catalog's date
//   oldest          per provider with a real offer, in the order of its first one: the date of its oldest price
//                   (empty when one of its prices has no as_of)
//   provider_stats  per provider: its offers (examples too) and, of its real offers' prices, the oldest and newest
//                   as_of, and the newest read_on of the prices without an as_of
//   serverless      the offers with a serverless price {id, instance, provider, gpu}
//   reservable      the real offers with both a reserved and an on-demand price {id, instance, provider, region, gpu,
//                   gpu_count, stale}; stale when either of those prices is older than kStaleAfterDays on the engine's
//                   today (setToday), as the engine judges staleness everywhere
// Every list is in catalog order: the page sorts the names in its reader's collation (String.localeCompare), which
// the engine cannot know, and the planner's list is cut after that sort.
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "api/answer.hpp"
#include "api/state.hpp"

namespace gpuvalue {

namespace {

// Distinct values in the order they first appear.
struct FirstSeen {
  std::unordered_set<std::string> seen;
  std::vector<std::string> order;
  void add(const std::string& v) {
    if (seen.insert(v).second) order.push_back(v);
  }
};

// What is known of one provider: its offers (examples too) and, of its real offers' prices, the oldest as_of (empty
// when one has none), the oldest and newest of those that have one, and the newest read_on of those that have not.
struct ProviderFacts {
  std::string name;
  long long offers = 0;
  bool priced = false;  // a real offer of it has a price
  std::string oldest_price, oldest, newest, read_on;
};

// The providers in the order of their first offer; `priced` the order of their first real offer with a price.
struct Providers {
  std::map<std::string, size_t> index;
  std::vector<ProviderFacts> all;
  std::vector<size_t> priced;
  // The position of the provider's facts, made on its first offer.
  size_t of(const std::string& name) {
    const size_t at = index.emplace(name, all.size()).first->second;
    if (at == all.size()) {
      all.emplace_back();
      all.back().name = name;
    }
    return at;
  }
};

// A real offer's prices: the catalog's date and its provider's dates.
void addDates(const Offer& o, size_t at, std::string& date, Providers& ps) {
  ProviderFacts& p = ps.all[at];
  for (const auto& price : o.prices) {
    const std::string& as_of = price.as_of;
    if (as_of > date) date = as_of;
    if (!p.priced) {
      p.priced = true;
      p.oldest_price = as_of;
      ps.priced.push_back(at);
    } else if (as_of < p.oldest_price) {
      p.oldest_price = as_of;
    }
    if (!as_of.empty() && (p.oldest.empty() || as_of < p.oldest)) p.oldest = as_of;
    if (!as_of.empty() && as_of > p.newest) p.newest = as_of;
    if (as_of.empty() && price.read_on.str() > p.read_on) p.read_on = price.read_on;
  }
}

bool staleReservable(const Offer& o, long today_day) {
  for (const auto& p : o.prices)
    if ((p.model == PricingModel::kReserved || p.model == PricingModel::kOnDemand) && isStale(p, today_day)) return true;
  return false;
}

}  // namespace

std::string apiCatalogFacts(EngineState& s, const std::string&, const std::string&) {
  FirstSeen regions, gpus;
  Providers ps;
  std::string date;
  for (const auto& o : s.catalog.offers) {
    regions.add(o.region);
    gpus.add(o.gpu_id);
    const size_t at = ps.of(o.provider);
    ps.all[at].offers += 1;
    if (!o.example) addDates(o, at, date, ps);
  }
  const long today_day = dayNumber(s.today);
  std::string out;
  out.reserve(256 * 1024);
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("count", s.catalog.offers.size()).key("providers").beginArray();
  for (const auto& p : ps.all) j.value(p.name);
  j.endArray().field("regions", regions.order).field("gpus", gpus.order).field("date", date).key("oldest").beginArray();
  for (size_t i : ps.priced) j.beginObject().field("provider", ps.all[i].name).field("as_of", ps.all[i].oldest_price).endObject();
  j.endArray().key("provider_stats").beginObject();
  for (const auto& p : ps.all)
    j.key(p.name).beginObject().field("offers", p.offers).field("oldest", p.oldest).field("newest", p.newest)
        .field("read_on", p.read_on).endObject();
  j.endObject().key("serverless").beginArray();
  for (const auto& o : s.catalog.offers)
    if (o.price(PricingModel::kServerless))
      j.beginObject().field("id", o.id).field("instance", o.instance_type).field("provider", o.provider).field("gpu", o.gpu_id).endObject();
  j.endArray().key("reservable").beginArray();
  for (const auto& o : s.catalog.offers)
    if (!o.example && o.price(PricingModel::kReserved) && o.price(PricingModel::kOnDemand))
      j.beginObject().field("id", o.id).field("instance", o.instance_type).field("provider", o.provider).field("region", o.region)
          .field("gpu", o.gpu_id).field("gpu_count", o.gpu_count).field("stale", staleReservable(o, today_day)).endObject();
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
