// rankView: what the page shows of a ranking. The rank request's members plus "view": {"sort": {"key", "dir"},
// "rows", "points", "keys"}; the answer has rank's summary members, "total" (every result), "rows" (the first rows
// in the column's order, the same offer in several regions grouped: a group's leading row carries "group", its
// members "member_of"), "extra" (the results asked for by key, the top result and the picks, when not in rows),
// "top" and "picks" (result keys), and "scatter" (thinned cost–time points) when there are more results than rows.
// Every row is a full rank result with its "rank".
#include "api/rank_answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
#include "model/ranking_view.hpp"

#include <unordered_map>

namespace gpuvalue {

namespace {

namespace T = request_tables;

constexpr size_t kMaxViewKeys = 1000;

void readSort(const json& sort, ViewOptions& v, Issues& issues) {
  ObjectReader r(sort, "/view/sort", issues);
  if (!r.ok()) return;
  // The columns a view sorts by are the ranking view's (model/ranking_view.hpp), so the choices are checked here.
  if (auto key = readString(r, T::kSortKey)) {
    if (isViewSortKey(*key)) v.sort_key = *key;
    else r.error(T::kSortKey.name, ErrorCode::kInvalidValue, notOneOf(*key, viewSortKeyList().c_str()));
  }
  if (auto dir = readString(r, T::kSortDir)) v.descending = *dir == "desc";
}

void readView(const json& req, ViewOptions& v, Issues& issues) {
  if (!req.contains(T::kView.name)) return;
  ObjectReader r(req[T::kView.name], "/view", issues);
  if (!r.ok()) return;
  if (const json* sort = r.get(T::kSort.name)) readSort(*sort, v, issues);
  v.rows = static_cast<size_t>(readNumber(r, T::kRows).value_or(static_cast<double>(v.rows)));
  v.points = static_cast<size_t>(readNumber(r, T::kPoints).value_or(static_cast<double>(v.points)));
  if (const json* keys = r.get(T::kKeys.name)) {
    if (!keys->is_array() || keys->size() > kMaxViewKeys) {
      r.error(T::kKeys.name, ErrorCode::kInvalidValue, Message("error.not_string_list"));
      return;
    }
    for (size_t i = 0; i < keys->size(); ++i) {
      if ((*keys)[i].is_string()) v.keys.push_back((*keys)[i].get<std::string>());
      else r.errorAt(r.childPath(T::kKeys.name) + "/" + std::to_string(i), ErrorCode::kInvalidValue, Message("error.not_string"));
    }
  }
}

}  // namespace

std::string apiRankView(EngineState& s, const std::string& text, const std::string&) {
  RankRequest r;
  std::string error;
  if (!readRankRequest(s, text, r, error)) return error;
  Issues issues;
  ViewOptions vo;
  readView(r.req, vo, issues);
  if (hasErrors(issues)) return errorResult(issues);
  r.opt.limit = 0;              // the view orders and groups every result
  r.opt.entries_only = true;    // as entries, and builds full results only for the ones it writes
  Ranking ranking = rankRequest(s, r, true);
  const RankingView v = viewOf(ranking, vo);
  std::unordered_map<size_t, RankResult> full;
  for (const ViewRow& row : v.rows) full.emplace(row.index, resultAt(ranking, row.index, r.w, r.opt));
  for (size_t i : v.extra) full.emplace(i, resultAt(ranking, i, r.w, r.opt));
  const auto& entries = ranking.entries;
  std::string out;
  out.reserve(4096 + (v.rows.size() + v.extra.size()) * 2048 + v.points.size() * 128);
  JsonWriter j(out);
  j.beginObject().field("ok", true);
  writeRankMeta(j, ranking, r);
  j.field("total", v.total);
  RankResultWriter results(ranking, r, false);
  j.key("rows").beginArray();
  for (const ViewRow& row : v.rows)
    results.write(j, full.at(row.index), [&](JsonWriter& w) {
      w.field("rank", row.index + 1);
      if (row.leads_group) {
        const RankEntry& cheapest = entries[row.group_cheapest];
        w.key("group").beginObject().field("n", row.group_size).field("regions", row.group_regions)
            .field("cheapest_region", cheapest.offer->region).field("cheapest_cost_usd", cheapest.cost_usd).endObject();
      }
      if (row.member_of != kNone) w.field("member_of", entryKey(entries[row.member_of]));
    });
  j.endArray();
  j.key("extra").beginArray();
  for (size_t i : v.extra) results.write(j, full.at(i), [&](JsonWriter& w) { w.field("rank", i + 1); });
  j.endArray();
  auto keyOrNull = [&](const char* name, size_t i) {
    if (i != kNone) j.field(name, entryKey(entries[i]));
    else j.key(name).null();
  };
  keyOrNull("top", v.top);
  j.key("picks").beginObject();
  keyOrNull("pickBest", v.best);
  keyOrNull("pickCheapest", v.cheapest);
  keyOrNull("pickFastest", v.fastest);
  keyOrNull("pickUnit", v.lowest_unit);
  j.endObject();
  if (v.has_scatter) {
    // Each point: [time_hours, cost_usd, key, pareto, instance, provider, region, pricing].
    j.key("scatter").beginObject().field("total", v.point_total).field("thinned", v.thinned).key("points").beginArray();
    for (size_t i : v.points) {
      const RankEntry& p = entries[i];
      j.beginArray().value(p.wall_hours).value(p.cost_usd).value(entryKey(p)).value(p.pareto)
          .value(p.offer->instance_type).value(p.offer->provider).value(p.offer->region).value(pricingModelName(p.model())).endArray();
    }
    j.endArray().endObject();
  } else {
    j.key("scatter").null();
  }
  j.endObject();
  return out;
}

}  // namespace gpuvalue
