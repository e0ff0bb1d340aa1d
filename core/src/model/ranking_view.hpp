// The page's view of a ranking, made where the ranking is: its results in the order of a table column, the same
// offer in several regions grouped, the first rows of that order, the overview's picks and the cost–time scatter
// thinned to a number of points. Only what the page shows leaves the engine, so a slider moved over a catalog of
// 100,000 offers costs a ranking and a few hundred rows, not every result.
#pragma once
#include <string>
#include <vector>

#include "model/ranking.hpp"

namespace gpuvalue {

struct ViewOptions {
  std::string sort_key = "rank";
  bool descending = false;
  size_t rows = 250;       // rows of the table order to return (0 = all); a region group is never cut
  size_t points = 600;     // scatter points before the cloud is thinned
  std::vector<std::string> keys;  // results asked for by key (selection, comparison) wherever they rank
};

// An entry of the ranking (Ranking::entries, made with RankOptions::entries_only) is named by its index there:
// its rank is the index + 1. kNone: no entry.
constexpr size_t kNone = static_cast<size_t>(-1);

// The fastest pick treats wall times within 5 % of the fastest as a tie and takes the cheapest of them: 5 % is well
// inside the time model's held-out median error (16.4 %, docs/accuracy.md), so the model cannot tell such offers
// apart by speed, while their costs may differ by orders of magnitude (a monthly commitment beside an hourly rate).
constexpr double kTimeTieFraction = 0.05;

// A result in the view. A group's leading row carries the group; its members name the leading row.
struct ViewRow {
  size_t index = kNone;
  bool leads_group = false;
  size_t group_size = 0, group_regions = 0;
  size_t group_cheapest = kNone;  // the group's cheapest job (lowest hourly price on a tie)
  size_t member_of = kNone;       // a member's leading row
};

struct RankingView {
  std::vector<ViewRow> rows;   // the first rows in table order, region groups whole
  std::vector<size_t> extra;   // asked-for results, the top result and the picks, when not in rows
  size_t total = 0;            // every result
  size_t top = kNone;          // the ranking's first result
  // Over the results that fit with a cost, within the horizon (all that fit when none is); best: the top result
  // when it fits.
  size_t best = kNone, cheapest = kNone, fastest = kNone, lowest_unit = kNone;
  // The scatter, when there are more results than rows: the results that fit with a cost and a time, in table
  // order, thinned to one per cell of a log–log grid (frontier points always kept) when above `points`.
  bool has_scatter = false, thinned = false;
  size_t point_total = 0;
  std::vector<size_t> points;
};

// "id|pricing": a result's key, as the page names rows.
std::string resultKey(const RankResult& r);
std::string entryKey(const RankEntry& e);
// The table's sortable columns: "rank" (the ranking's order), "total_gpus", "time_hours", "cost_usd",
// "usd_per_hour" (per cluster), "usd_per_tflops_day", "memory" (required GB per GPU), "score".
bool isViewSortKey(const std::string& key);
// Their names, comma-separated (for error messages).
std::string viewSortKeyList();
// The view of a ranking made with RankOptions::entries_only.
RankingView viewOf(const Ranking& ranking, const ViewOptions& opt);

}  // namespace gpuvalue
