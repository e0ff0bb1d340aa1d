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
#include <string>
#include <unordered_map>
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

struct ProviderStats {
  long long offers = 0;
  std::string oldest, newest, read_on;
};

// A provider's entry, kept in the order providers first appear.
template <typename T>
struct ByProvider {
  std::unordered_map<std::string, size_t> index;
  std::vector<std::pair<std::string, T>> items;
  T* find(const std::string& p) {
    auto it = index.find(p);
    return it == index.end() ? nullptr : &items[it->second].second;
  }
  T& at(const std::string& p) {
    if (T* t = find(p)) return *t;
    index.emplace(p, items.size());
    items.emplace_back(p, T());
    return items.back().second;
  }
};

bool hasPrice(const Offer& o, PricingModel m) { return o.price(m) != nullptr; }

// The dates of one provider's real offers: the catalog's date, the provider's oldest price, its range of dates.
void addDates(const Offer& o, std::string& date, ByProvider<std::string>& oldest, ProviderStats& st) {
  for (const auto& p : o.prices) {
    const std::string& as_of = p.as_of;
    if (as_of > date) date = as_of;
    std::string* old = oldest.find(o.provider);
    if (!old) oldest.at(o.provider) = as_of;
    else if (as_of < *old) *old = as_of;
    if (!as_of.empty() && (st.oldest.empty() || as_of < st.oldest)) st.oldest = as_of;
    if (!as_of.empty() && as_of > st.newest) st.newest = as_of;
    if (as_of.empty() && p.read_on.str() > st.read_on) st.read_on = p.read_on;
  }
}

bool staleReservable(const Offer& o, long today_day) {
  for (const auto& p : o.prices)
    if ((p.model == PricingModel::kReserved || p.model == PricingModel::kOnDemand) && isStale(p, today_day)) return true;
  return false;
}

}  // namespace

std::string apiCatalogFacts(EngineState& s, const std::string&, const std::string&) {
  FirstSeen providers, regions, gpus;
  std::string date;
  ByProvider<std::string> oldest;
  ByProvider<ProviderStats> stats;
  for (const auto& o : s.catalog.offers) {
    providers.add(o.provider);
    regions.add(o.region);
    gpus.add(o.gpu_id);
    ProviderStats& st = stats.at(o.provider);
    st.offers += 1;
    if (!o.example) addDates(o, date, oldest, st);
  }
  const long today_day = dayNumber(s.today);
  std::string out;
  out.reserve(256 * 1024);
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("count", s.catalog.offers.size()).field("providers", providers.order)
      .field("regions", regions.order).field("gpus", gpus.order).field("date", date).key("oldest").beginArray();
  for (const auto& [provider, as_of] : oldest.items) j.beginObject().field("provider", provider).field("as_of", as_of).endObject();
  j.endArray().key("provider_stats").beginObject();
  for (const auto& [provider, st] : stats.items)
    j.key(provider).beginObject().field("offers", st.offers).field("oldest", st.oldest).field("newest", st.newest)
        .field("read_on", st.read_on).endObject();
  j.endObject().key("serverless").beginArray();
  for (const auto& o : s.catalog.offers)
    if (hasPrice(o, PricingModel::kServerless))
      j.beginObject().field("id", o.id).field("instance", o.instance_type).field("provider", o.provider).field("gpu", o.gpu_id).endObject();
  j.endArray().key("reservable").beginArray();
  for (const auto& o : s.catalog.offers)
    if (!o.example && hasPrice(o, PricingModel::kReserved) && hasPrice(o, PricingModel::kOnDemand))
      j.beginObject().field("id", o.id).field("instance", o.instance_type).field("provider", o.provider).field("region", o.region)
          .field("gpu", o.gpu_id).field("gpu_count", o.gpu_count).field("stale", staleReservable(o, today_day)).endObject();
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
