#include "model/ranking_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace gpuvalue {

namespace {

// Values as the answers write them: a non-finite number is written as 0.
double written(double v) { return std::isfinite(v) ? v : 0; }
double cost(const RankResult& r) { return written(r.cost.cost_usd); }
double hours(const RankResult& r) { return written(r.cost.wall_hours); }

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

double columnValue(Column c, const RankResult& r, size_t rank) {
  switch (c) {
    case Column::kRank: return static_cast<double>(rank);
    case Column::kTotalGpus: return r.nodes() * r.offer->gpu_count;
    case Column::kTime: return hours(r);
    case Column::kCost: return cost(r);
    case Column::kHourly: return written(r.usd_per_hour) * r.nodes();
    case Column::kUnit: return written(r.usd_per_tflops_day);
    case Column::kMemory: return written(r.memory().required_gb);
    case Column::kScore: return written(r.score);
  }
  return 0;
}

// Result indices in table order: fitting results first whatever the column (as in the ranking); missing values
// (0: no cost, no time) last; ties in the ranking's order.
std::vector<size_t> tableOrder(const std::vector<RankResult>& results, const ViewOptions& opt) {
  const Column c = columnOf(opt.sort_key);
  const bool zero_counts = c == Column::kScore;
  std::vector<std::optional<double>> value(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    const double v = columnValue(c, results[i], i + 1);
    if (v > 0 || zero_counts) value[i] = v;
  }
  std::vector<size_t> order(results.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const double sign = opt.descending ? -1 : 1;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (results[a].fits != results[b].fits) return results[a].fits;
    const auto &va = value[a], &vb = value[b];
    if (!va || !vb) return va.has_value() != vb.has_value() ? va.has_value() : a < b;
    return *va != *vb ? sign * (*va - *vb) < 0 : a < b;
  });
  return order;
}

// The same offer in several regions (same provider, instance type, GPU, GPU count, nodes and billing model) is one
// group, placed where its first row is; a group whose rows are all in one region stays plain rows. Catalog strings
// are interned (model/atom.hpp): equal values have one address, so a group is found by addresses.
struct GroupKey {
  const std::string *provider, *instance, *gpu;
  int gpus, nodes;
  PricingModel model;
  bool operator==(const GroupKey& o) const {
    return provider == o.provider && instance == o.instance && gpu == o.gpu && gpus == o.gpus && nodes == o.nodes && model == o.model;
  }
};
struct GroupKeyHash {
  size_t operator()(const GroupKey& k) const {
    size_t h = std::hash<const void*>()(k.provider);
    for (size_t v : {std::hash<const void*>()(k.instance), std::hash<const void*>()(k.gpu), static_cast<size_t>(k.gpus),
                     static_cast<size_t>(k.nodes), static_cast<size_t>(k.model)})
      h = h * 1000003u ^ v;
    return h;
  }
};

std::vector<ViewRow> groupRegions(const std::vector<RankResult>& results, const std::vector<size_t>& order) {
  std::unordered_map<GroupKey, size_t, GroupKeyHash> group_of;
  group_of.reserve(order.size());
  std::vector<std::vector<size_t>> groups;
  for (size_t i : order) {
    const RankResult& r = results[i];
    const Offer& o = *r.offer;
    const GroupKey key{&o.provider.str(), &o.instance_type.str(), &o.gpu_id.str(), r.nodes() * o.gpu_count, r.nodes(), r.model};
    auto [it, fresh] = group_of.emplace(key, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<ViewRow> rows;
  rows.reserve(order.size());
  std::vector<const std::string*> regions;
  for (const auto& g : groups) {
    regions.clear();
    for (size_t i : g) {
      const std::string* region = &results[i].offer->region.str();
      if (std::find(regions.begin(), regions.end(), region) == regions.end()) regions.push_back(region);
    }
    const bool grouped = g.size() >= 2 && regions.size() >= 2;
    const RankResult* cheapest = nullptr;
    if (grouped) {
      const bool any_priced = std::any_of(g.begin(), g.end(), [&](size_t i) { return cost(results[i]) > 0; });
      for (size_t i : g) {
        const RankResult& r = results[i];
        if (any_priced && !(cost(r) > 0)) continue;
        if (!cheapest || cost(r) < cost(*cheapest) || (cost(r) == cost(*cheapest) && written(r.usd_per_hour) < written(cheapest->usd_per_hour)))
          cheapest = &r;
      }
    }
    for (size_t k = 0; k < g.size(); ++k) {
      ViewRow row;
      row.result = &results[g[k]];
      row.rank = g[k] + 1;
      if (grouped && k == 0) {
        row.leads_group = true;
        row.group_size = g.size();
        row.group_regions = regions.size();
        row.group_cheapest = cheapest;
      } else if (grouped) {
        row.member_of = &results[g[0]];
      }
      rows.push_back(row);
    }
  }
  return rows;
}

void findPicks(const std::vector<RankResult>& results, RankingView& v) {
  if (!results.empty() && results[0].fits) v.best = &results[0];
  bool any_in_time = false;
  for (const auto& r : results) any_in_time = any_in_time || (r.fits && cost(r) > 0 && r.meets_horizon);
  auto lowest = [&](double (*get)(const RankResult&)) {
    const RankResult* best = nullptr;
    for (const auto& r : results) {
      if (!r.fits || !(cost(r) > 0) || (any_in_time && !r.meets_horizon)) continue;
      if (!best || get(r) < get(*best)) best = &r;
    }
    return best;
  };
  v.cheapest = lowest([](const RankResult& r) { return cost(r); });
  v.fastest = lowest([](const RankResult& r) { return hours(r); });
  v.lowest_unit = lowest([](const RankResult& r) { return written(r.usd_per_tflops_day); });
}

// The scatter's points in table order; above `max`, the finest grid in log–log space (160 × 100 cells, coarser by
// 0.7 until it fits, down to a tenth) keeps one point per cell and every frontier point.
void scatter(const std::vector<RankResult>& results, const std::vector<size_t>& order, size_t max, RankingView& v) {
  std::vector<const RankResult*> all;
  for (size_t i : order)
    if (results[i].fits && cost(results[i]) > 0 && hours(results[i]) > 0) all.push_back(&results[i]);
  v.has_scatter = true;
  v.point_total = all.size();
  if (all.size() <= max) {
    v.points = std::move(all);
    return;
  }
  v.thinned = true;
  std::vector<double> lx(all.size()), ly(all.size());
  for (size_t i = 0; i < all.size(); ++i) lx[i] = std::log10(hours(*all[i])), ly[i] = std::log10(cost(*all[i]));
  const auto [x0, x1] = std::minmax_element(lx.begin(), lx.end());
  const auto [y0, y1] = std::minmax_element(ly.begin(), ly.end());
  const double xs = (*x1 - *x0) != 0 ? *x1 - *x0 : 1, ys = (*y1 - *y0) != 0 ? *y1 - *y0 : 1;
  for (double scale = 1; scale >= 0.1; scale *= 0.7) {
    const double cols = std::max(4.0, std::floor(160 * scale + 0.5)), lines = std::max(3.0, std::floor(100 * scale + 0.5));
    std::unordered_set<long long> seen;
    v.points.clear();
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i]->pareto) {
        v.points.push_back(all[i]);
        continue;
      }
      const long long cx = static_cast<long long>(std::floor((lx[i] - *x0) / xs * (cols - 1)));
      const long long cy = static_cast<long long>(std::floor((ly[i] - *y0) / ys * (lines - 1)));
      if (seen.insert(cx * 1000003 + cy).second) v.points.push_back(all[i]);
    }
    if (v.points.size() <= max) break;
  }
}

}  // namespace

std::string resultKey(const RankResult& r) { return r.offer->id + "|" + pricingModelName(r.model); }

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
  const auto& results = ranking.results;
  RankingView v;
  v.total = results.size();
  const std::vector<size_t> order = tableOrder(results, opt);
  std::vector<ViewRow> grouped = groupRegions(results, order);
  size_t end = opt.rows == 0 ? grouped.size() : std::min(opt.rows, grouped.size());
  while (end < grouped.size() && grouped[end].member_of) ++end;
  grouped.resize(end);
  v.rows = std::move(grouped);
  std::unordered_set<const RankResult*> shown;
  for (const ViewRow& row : v.rows) shown.insert(row.result);
  if (!results.empty()) v.top = &results[0];
  findPicks(results, v);
  std::unordered_set<std::string> wanted(opt.keys.begin(), opt.keys.end());
  auto addExtra = [&](const RankResult* r) {
    if (r && !shown.count(r)) {
      shown.insert(r);
      v.extra.push_back(r);
    }
  };
  if (!wanted.empty())
    for (const auto& r : results)
      if (wanted.count(resultKey(r))) addExtra(&r);
  for (const RankResult* r : {v.top, v.best, v.cheapest, v.fastest, v.lowest_unit}) addExtra(r);
  if (v.total > v.rows.size()) scatter(results, order, opt.points, v);
  return v;
}

}  // namespace gpuvalue
