#include "model/ranking_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_set>

namespace gpuvalue {

namespace {

// Values as the answers write them: a non-finite number is written as 0.
double written(double v) { return std::isfinite(v) ? v : 0; }
double cost(const RankEntry& e) { return written(e.cost_usd); }
double hours(const RankEntry& e) { return written(e.wall_hours); }
// The hourly rate a node pays for this job (the rate the results report as usd_per_hour); for a commitment the
// list rate (list_usd_per_hour), which is what the table shows in that column, not the term spread over the job.
double hourly(const RankEntry& e) {
  if (isCommitment(e.model())) return written(e.price->headlineUsdPerHour());
  CostResult job;
  job.cost_usd = e.cost_usd;
  job.wall_hours = e.wall_hours;
  return written(jobRateUsdPerHour(*e.offer, *e.price, job, e.nodes()));
}

enum class Column { kRank, kTotalGpus, kTime, kCost, kHourly, kUnit, kMemory, kScore };

// The sortable columns by name (the one list: the request reader checks names against it).
const std::pair<const char*, Column> kColumns[] = {
    {"rank", Column::kRank}, {"total_gpus", Column::kTotalGpus}, {"time_hours", Column::kTime}, {"cost_usd", Column::kCost},
    {"usd_per_hour", Column::kHourly}, {"usd_per_tflops_day", Column::kUnit}, {"memory", Column::kMemory},
    {"score", Column::kScore}};

Column columnOf(const std::string& key) {
  for (const auto& [name, c] : kColumns)
    if (key == name) return c;
  return Column::kRank;
}

double columnValue(Column c, const Ranking& ranking, const RankEntry& e, size_t rank) {
  switch (c) {
    case Column::kRank: return static_cast<double>(rank);
    case Column::kTotalGpus: return e.nodes() * e.offer->gpu_count;
    case Column::kTime: return hours(e);
    case Column::kCost: return cost(e);
    case Column::kHourly: return hourly(e) * e.nodes();
    case Column::kUnit: return written(e.usdPerTflopsDay());
    case Column::kMemory: return written(e.eval->memory.required_gb);
    case Column::kScore: return written(entryScore(ranking, e));
  }
  return 0;
}

// Entry indices in table order: fitting results first whatever the column (as in the ranking); missing values
// (0: no cost, no time) last; ties in the ranking's order.
std::vector<size_t> tableOrder(const Ranking& ranking, const ViewOptions& opt) {
  const auto& entries = ranking.entries;
  const Column c = columnOf(opt.sort_key);
  // The ranking's own order (the page's default): the entries as they are.
  if (c == Column::kRank && !opt.descending) {
    std::vector<size_t> order(entries.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    return order;
  }
  const bool zero_counts = c == Column::kScore;
  struct Item {
    double value;
    uint32_t index;
    bool fits, has;
  };
  std::vector<Item> items(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const double v = columnValue(c, ranking, entries[i], i + 1);
    // A job that costs $0 (a free trial covering it) is the cheapest there is, not a missing value.
    const RankEntry& e = entries[i];
    const bool free_job = c == Column::kCost && isFreeJob(e.model(), e.fits, e.cost_usd, e.wall_hours);
    items[i] = {v, static_cast<uint32_t>(i), entries[i].fits, v > 0 || zero_counts || free_job};
  }
  const double sign = opt.descending ? -1 : 1;
  std::sort(items.begin(), items.end(), [&](const Item& a, const Item& b) {
    if (a.fits != b.fits) return a.fits;
    if (!a.has || !b.has) return a.has != b.has ? a.has : a.index < b.index;
    return a.value != b.value ? sign * (a.value - b.value) < 0 : a.index < b.index;
  });
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < items.size(); ++i) order[i] = items[i].index;
  return order;
}

// The same offer in several regions (same provider, instance type, GPU, GPU count, nodes and billing model) is one
// group, placed where its first row is; a group whose rows are all in one region stays plain rows. Catalog strings
// are interned (model/atom.hpp): equal values have one address, so a group is found by addresses.
struct GroupKey {
  const std::string *provider, *instance, *gpu;
  int gpus, nodes;
  PricingModel model;
  static GroupKey of(const RankEntry& e) {
    const Offer& o = *e.offer;
    return {&o.provider.str(), &o.instance_type.str(), &o.gpu_id.str(), e.nodes() * o.gpu_count, e.nodes(), e.model()};
  }
  bool operator==(const GroupKey& o) const {
    return provider == o.provider && instance == o.instance && gpu == o.gpu && gpus == o.gpus && nodes == o.nodes && model == o.model;
  }
  size_t hash() const {
    size_t h = std::hash<const void*>()(provider);
    for (size_t v : {std::hash<const void*>()(instance), std::hash<const void*>()(gpu), static_cast<size_t>(gpus),
                     static_cast<size_t>(nodes), static_cast<size_t>(model)})
      h = h * 1000003u ^ v;
    return h;
  }
};

// The group of each position of `order`, numbered by first appearance (an open-addressing table of group
// numbers: no allocation per entry).
std::vector<uint32_t> groupIds(const std::vector<RankEntry>& entries, const std::vector<size_t>& order, size_t& count) {
  constexpr uint32_t kEmpty = UINT32_MAX;
  size_t capacity = 16;
  while (capacity < order.size() * 2) capacity <<= 1;
  std::vector<uint32_t> slots(capacity, kEmpty);
  std::vector<GroupKey> keys;
  std::vector<uint32_t> ids(order.size());
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const GroupKey key = GroupKey::of(entries[order[pos]]);
    size_t h = (key.hash() * 0x9e3779b97f4a7c15ull >> 17) & (capacity - 1);
    while (slots[h] != kEmpty && !(keys[slots[h]] == key)) h = (h + 1) & (capacity - 1);
    if (slots[h] == kEmpty) {
      slots[h] = static_cast<uint32_t>(keys.size());
      keys.push_back(key);
    }
    ids[pos] = slots[h];
  }
  count = keys.size();
  return ids;
}

// The first `limit` rows (0 = all) of the table order with each group's rows together where its first row is; a
// region group at the limit is kept whole, plain rows are cut at it.
std::vector<ViewRow> groupRegions(const std::vector<RankEntry>& entries, const std::vector<size_t>& order, size_t limit) {
  size_t count = 0;
  const std::vector<uint32_t> ids = groupIds(entries, order, count);
  if (limit == 0) limit = order.size();
  std::vector<size_t> sizes(count, 0);
  for (uint32_t id : ids) ++sizes[id];
  size_t included = 0;
  for (size_t start = 0; included < count && start < limit; ++included) start += sizes[included];
  std::vector<std::vector<size_t>> groups(included);
  for (size_t pos = 0; pos < order.size(); ++pos)
    if (ids[pos] < included) groups[ids[pos]].push_back(order[pos]);
  std::vector<ViewRow> rows;
  std::vector<const std::string*> regions;
  for (const auto& g : groups) {
    regions.clear();
    for (size_t i : g) {
      const std::string* region = &entries[i].offer->region.str();
      if (std::find(regions.begin(), regions.end(), region) == regions.end()) regions.push_back(region);
    }
    const bool grouped = g.size() >= 2 && regions.size() >= 2;
    size_t cheapest = kNone;
    if (grouped) {
      const bool any_priced = std::any_of(g.begin(), g.end(), [&](size_t i) { return cost(entries[i]) > 0; });
      for (size_t i : g) {
        const RankEntry& e = entries[i];
        if (any_priced && !(cost(e) > 0)) continue;
        if (cheapest == kNone || cost(e) < cost(entries[cheapest]) ||
            (cost(e) == cost(entries[cheapest]) && hourly(e) < hourly(entries[cheapest])))
          cheapest = i;
      }
    }
    for (size_t k = 0; k < g.size(); ++k) {
      if (!grouped && rows.size() >= limit) break;
      ViewRow row;
      row.index = g[k];
      if (grouped && k == 0) {
        row.leads_group = true;
        row.group_size = g.size();
        row.group_regions = regions.size();
        row.group_cheapest = cheapest;
      } else if (grouped) {
        row.member_of = g[0];
      }
      rows.push_back(row);
    }
  }
  return rows;
}

void findPicks(const std::vector<RankEntry>& entries, RankingView& v) {
  if (!entries.empty() && entries[0].fits) v.best = 0;
  bool any_in_time = false;
  // Among the fitting offers with a cost (a free trial's $0 job included) within the horizon; a missing value (a
  // unit cost without an FP16 peak) never wins.
  auto priced = [](const RankEntry& e) { return e.fits && (cost(e) > 0 || isFreeJob(e.model(), e.fits, e.cost_usd, e.wall_hours)); };
  for (const auto& e : entries) any_in_time = any_in_time || (priced(e) && e.meets);
  auto lowest = [&](double (*get)(const RankEntry&)) {
    size_t best = kNone;
    double best_value = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      const RankEntry& e = entries[i];
      if (!priced(e) || (any_in_time && !e.meets)) continue;
      const double value = get(e);
      if (value < 0) continue;
      if (best == kNone || value < best_value) best = i, best_value = value;
    }
    return best;
  };
  v.cheapest = lowest([](const RankEntry& e) { return cost(e); });
  v.fastest = lowest([](const RankEntry& e) { return hours(e); });
  // Near-ties in time go to the cheaper job: a month's commitment that finishes with an on-demand offer is not
  // "the fastest" at 500 times the cost.
  if (v.fastest != kNone) {
    const double limit = hours(entries[v.fastest]) * (1 + kTimeTieFraction);
    for (size_t i = 0; i < entries.size(); ++i) {
      const RankEntry& e = entries[i];
      if (!priced(e) || (any_in_time && !e.meets) || hours(e) > limit) continue;
      const RankEntry& f = entries[v.fastest];
      if (cost(e) < cost(f) || (cost(e) == cost(f) && hours(e) < hours(f))) v.fastest = i;
    }
  }
  v.lowest_unit = lowest([](const RankEntry& e) {
    const double unit = e.usdPerTflopsDay();
    return unit > 0 ? written(unit) : -1.0;
  });
}

// The scatter's points in table order; above `max`, the finest grid in log–log space (160 × 100 cells, coarser by
// 0.7 until it fits, down to a tenth) keeps one point per cell and every frontier point.
void scatter(const std::vector<RankEntry>& entries, const std::vector<size_t>& order, size_t max, RankingView& v) {
  std::vector<size_t> all;
  for (size_t i : order)
    if (entries[i].fits && cost(entries[i]) > 0 && hours(entries[i]) > 0) all.push_back(i);
  v.has_scatter = true;
  v.point_total = all.size();
  if (all.size() <= max) {
    v.points = std::move(all);
    return;
  }
  v.thinned = true;
  std::vector<double> lx(all.size()), ly(all.size());
  for (size_t i = 0; i < all.size(); ++i) lx[i] = std::log10(hours(entries[all[i]])), ly[i] = std::log10(cost(entries[all[i]]));
  const auto [x_lo, x_hi] = std::minmax_element(lx.begin(), lx.end());
  const auto [y_lo, y_hi] = std::minmax_element(ly.begin(), ly.end());
  const double x0 = *x_lo, y0 = *y_lo;
  const double xs = (*x_hi - x0) != 0 ? *x_hi - x0 : 1, ys = (*y_hi - y0) != 0 ? *y_hi - y0 : 1;
  // Each point's place in [0, 1]², then its cell at each grid size.
  for (size_t i = 0; i < all.size(); ++i) lx[i] = (lx[i] - x0) / xs, ly[i] = (ly[i] - y0) / ys;
  std::vector<bool> pareto(all.size());
  for (size_t i = 0; i < all.size(); ++i) pareto[i] = entries[all[i]].pareto;
  for (double scale = 1; scale >= 0.1; scale *= 0.7) {
    // A grid that gives more than `max` points is given up as soon as it does, unless it is the coarsest.
    const bool coarsest = scale * 0.7 < 0.1;
    const double cols = std::max(4.0, std::floor(160 * scale + 0.5)), lines = std::max(3.0, std::floor(100 * scale + 0.5));
    std::vector<bool> seen(static_cast<size_t>(cols * lines), false);
    v.points.clear();
    for (size_t i = 0; i < all.size(); ++i) {
      if (pareto[i]) {
        v.points.push_back(all[i]);
        continue;
      }
      const size_t cx = static_cast<size_t>(std::floor(lx[i] * (cols - 1)));
      const size_t cy = static_cast<size_t>(std::floor(ly[i] * (lines - 1)));
      const size_t cell = cx * static_cast<size_t>(lines) + cy;
      if (!seen[cell]) {
        seen[cell] = true;
        v.points.push_back(all[i]);
        if (v.points.size() > max && !coarsest) break;
      }
    }
    if (v.points.size() <= max) break;
  }
}

// The entries asked for by key, in ranking order.
std::vector<size_t> entriesByKey(const std::vector<RankEntry>& entries, const std::vector<std::string>& keys) {
  std::vector<size_t> found;
  if (keys.empty()) return found;
  std::unordered_set<std::string> wanted(keys.begin(), keys.end()), ids;
  for (const std::string& k : keys) ids.insert(k.substr(0, k.rfind('|')));
  for (size_t i = 0; i < entries.size(); ++i)
    if (ids.count(entries[i].offer->id) && wanted.count(entryKey(entries[i]))) found.push_back(i);
  return found;
}

}  // namespace

std::string resultKey(const RankResult& r) { return r.offer->id + "|" + pricingModelName(r.model); }
std::string entryKey(const RankEntry& e) { return e.offer->id + "|" + pricingModelName(e.model()); }

bool isViewSortKey(const std::string& key) {
  for (const auto& column : kColumns)
    if (key == column.first) return true;
  return false;
}

std::string viewSortKeyList() {
  std::string out;
  for (const auto& column : kColumns) out += (out.empty() ? "" : ", ") + std::string(column.first);
  return out;
}

RankingView viewOf(const Ranking& ranking, const ViewOptions& opt) {
  const auto& entries = ranking.entries;
  RankingView v;
  v.total = entries.size();
  const std::vector<size_t> order = tableOrder(ranking, opt);
  v.rows = groupRegions(entries, order, opt.rows);
  std::unordered_set<size_t> shown;
  for (const ViewRow& row : v.rows) shown.insert(row.index);
  if (!entries.empty()) v.top = 0;
  findPicks(entries, v);
  auto addExtra = [&](size_t i) {
    if (i != kNone && shown.insert(i).second) v.extra.push_back(i);
  };
  for (size_t i : entriesByKey(entries, opt.keys)) addExtra(i);
  for (size_t i : {v.top, v.best, v.cheapest, v.fastest, v.lowest_unit}) addExtra(i);
  if (v.total > v.rows.size()) scatter(entries, order, opt.points, v);
  return v;
}

}  // namespace gpuvalue
