// rank: every catalog offer for a workload, ranked by unit cost, time and service, with the numbers behind each
// rank. {"preset"|"workload", "pricing"?, "weights"?, "filters"?, "spot"?, "constants"?, "max_nodes"?,
// "free_trial_hours"?, "limit"?}. This writes the page's hot answer: straight to text, no DOM.
#include <unordered_map>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "model/ranking.hpp"

namespace gpuvalue {

namespace {

// The throughput and memory objects of one hardware evaluation, written once per ranking: the kept results
// share few evaluations (the same hardware sold in many regions).
using EvaluationText = std::unordered_map<const Evaluation*, std::pair<std::string, std::string>>;

// One ranked result, written straight to text (this is the hot output path of the page).
void writeRankResult(JsonWriter& j, const RankResult& r, const Ranking& ranking, const Workload& w, const RankOptions& opt,
                            EvaluationText& evaluation_text) {
  const Offer& o = *r.offer;
  const Throughput& t = r.throughput();
  j.beginObject()
      .field("id", o.id).field("instance", o.instance_type).field("provider", o.provider).field("region", o.region)
      .field("gpu", o.gpu_id).field("gpu_name", o.gpu->name).field("gpu_count", o.gpu_count).field("nodes", r.nodes())
      .field("total_gpus", r.nodes() * o.gpu_count).field("pricing", pricingModelName(r.model)).field("fits", r.fits)
      .field("example", o.example).field("time_hours", r.cost.wall_hours).field("time_hours_low", t.time_hours_low)
      .field("time_hours_high", t.time_hours_high).field("compute_hours", t.time_hours).field("cost_usd", r.cost.cost_usd)
      .field("usd_per_hour", r.usd_per_hour).field("usd_per_tflops_day", r.usd_per_tflops_day)
      .field("usd_per_tflops_day_at_precision", r.usd_per_tflops_day_at_precision)
      .field("vendor_usd_per_tflops_day", r.vendor_usd_per_tflops_day).field("score", r.score);
  j.key("scores").beginObject().field("unit_cost", r.unit_score).field("task", r.task_score).field("service", r.service_score).endObject();
  j.field("pareto", r.pareto);
  auto it = evaluation_text.find(r.eval);
  if (it == evaluation_text.end()) {
    std::string tt, mt;
    {
      JsonWriter tj(tt), mj(mt);
      writeThroughput(tj, t);
      writeMemory(mj, r.memory());
    }
    it = evaluation_text.emplace(r.eval, std::make_pair(std::move(tt), std::move(mt))).first;
  }
  j.key("throughput").raw(it->second.first);
  j.key("memory").raw(it->second.second);
  j.key("spot").beginObject()
      .field("expected_interruptions", r.cost.expected_interruptions)
      .field("checkpoint_interval_hours", r.cost.checkpoint_interval_hours)
      .field("p_finish_by_deadline", r.cost.p_finish_by_deadline).field("feasible", r.cost.feasible)
      .endObject();
  j.key("reserved").beginObject()
      .field("commitment_usd", r.cost.commitment_usd).field("break_even_utilisation", r.cost.break_even_utilisation)
      .endObject();
  j.field("billed_hours", r.cost.billed_hours).field("as_of", r.price->as_of).field("source", r.price->source)
      .field("stale", r.stale).field("reasons", resultReasons(r, ranking)).field("warnings", resultWarnings(r, w, opt));
  j.endObject();
}

std::vector<std::string> stringList(ObjectReader& r, const std::string& key, Issues& issues) {
  std::vector<std::string> out;
  const json* v = r.get(key);
  if (!v || v->is_null()) return out;
  if (v->is_string()) {
    out.push_back(v->get<std::string>());
    return out;
  }
  if (!v->is_array()) {
    r.error(key, ErrorCode::kInvalidValue, "must be a string or an array of strings");
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    if ((*v)[i].is_string()) out.push_back((*v)[i].get<std::string>());
    else issues.push_back({ErrorCode::kInvalidValue, r.childPath(key) + "/" + std::to_string(i), "must be a string"});
  }
  return out;
}

}  // namespace

std::string apiRank(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json req;
  if (!readRequest(text, req, issues)) return errorResult(issues);
  Workload w;
  if (!resolveWorkload(s, req, w, issues)) return errorResult(issues);
  RankOptions opt;
  opt.today = s.today;
  ObjectReader r(req, "", issues);
  readConstantsField(req, opt.constants, issues);
  readSpotField(req, opt.spot, issues);
  std::string pricing = r.string("pricing", false).value_or("all");
  if (pricing != "all") {
    PricingModel m;
    if (parsePricingModel(pricing, m)) opt.filters.models.push_back(m);
    else r.error("pricing", ErrorCode::kInvalidValue, "must be all, on_demand, reserved, spot, tiered or monthly");
  }
  if (const json* wj = r.get("weights")) {
    ObjectReader wr(*wj, "/weights", issues);
    if (wr.ok()) {
      opt.weights.unit_cost = wr.number("unit_cost", false, 0, false, 100).value_or(opt.weights.unit_cost);
      opt.weights.task = wr.number("task", false, 0, false, 100).value_or(opt.weights.task);
      opt.weights.service = wr.number("service", false, 0, false, 100).value_or(opt.weights.service);
    }
  }
  if (const json* fj = r.get("filters")) {
    ObjectReader fr(*fj, "/filters", issues);
    if (fr.ok()) {
      opt.filters.providers = stringList(fr, "providers", issues);
      opt.filters.regions = stringList(fr, "regions", issues);
      opt.filters.gpus = stringList(fr, "gpus", issues);
      for (const auto& m : stringList(fr, "pricing", issues)) {
        PricingModel pm;
        if (parsePricingModel(m, pm)) opt.filters.models.push_back(pm);
        else fr.error("pricing", ErrorCode::kInvalidValue, "unknown pricing model \"" + m + "\"");
      }
      opt.filters.fits_only = fr.boolean("fits_only", false).value_or(false);
      opt.filters.budget_usd = fr.number("budget_usd", false, 0, false, 1e15).value_or(0);
      opt.filters.deadline_hours = fr.number("deadline_hours", false, 0, false, 1e7).value_or(0);
      opt.filters.include_examples = fr.boolean("include_examples", false).value_or(true);
    }
  }
  opt.max_nodes = static_cast<int>(r.integer("max_nodes", false, 1, 4096).value_or(opt.max_nodes));
  opt.free_trial_hours = r.number("free_trial_hours", false, 0, false, 1e5).value_or(-1);
  long long limit = r.integer("limit", false, 0, 10000000).value_or(0);
  if (hasErrors(issues)) return errorResult(issues);
  opt.limit = static_cast<size_t>(limit);
  Ranking ranking = rankOffers(w, s.catalog, opt);
  std::string out;
  out.reserve(1024 + ranking.results.size() * 2048);
  JsonWriter j(out);
  j.beginObject().field("ok", true);
  j.key("workload").beginObject()
      .field("name", w.name).field("kind", workloadKindName(w.kind)).field("mode", modeName(w.mode))
      .field("precision", precisionName(w.precision)).field("total_flops", w.totalFlops()).field("params", w.params)
      .endObject();
  j.field("evaluated_offers", ranking.evaluated).field("result_count", ranking.result_count)
      .field("fitting_count", ranking.fitting_count);
  j.key("results").beginArray();
  EvaluationText evaluation_text;
  for (const auto& rr : ranking.results) writeRankResult(j, rr, ranking, w, opt, evaluation_text);
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
