// rank: every catalog offer for a workload, ranked by unit cost, time and service, with the numbers behind each
// rank. {"preset"|"workload", "pricing"?, "weights"?, "filters"?, "spot"?, "constants"?, "max_nodes"?,
// "free_trial_hours"?, "limit"?}. This writes the page's hot answer: straight to text, no DOM.
#include <unordered_map>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "io/request_fields.hpp"
#include "model/fit_hints.hpp"
#include "model/ranking.hpp"

namespace gpuvalue {

namespace {

// The throughput and memory objects of one hardware evaluation, written once per ranking: the kept results
// share few evaluations (the same hardware sold in many regions).
// The throughput, memory and plan JSON of each evaluation, written once (many offers share an evaluation).
struct EvaluationJson {
  std::string throughput, memory, plan;
};
using EvaluationText = std::unordered_map<const Evaluation*, EvaluationJson>;

// One ranked result, written straight to text (this is the hot output path of the page).
void writeRankResult(JsonWriter& j, const RankResult& r, const Ranking& ranking, const Workload& w, const RankOptions& opt,
                            EvaluationText& evaluation_text) {
  const Offer& o = *r.offer;
  const Throughput& t = r.throughput();
  j.beginObject()
      .field("id", o.id).field("instance", o.instance_type).field("provider", o.provider).field("region", o.region)
      .field("gpu", o.gpu_id).field("gpu_name", o.gpu->name).field("gpu_count", o.gpu_count).field("nodes", r.nodes())
      .field("total_gpus", r.nodes() * o.gpu_count).field("fit_nodes", r.eval->fit_nodes).field("pricing", pricingModelName(r.model))
      .field("fits", r.fits).field("meets_horizon", r.meets_horizon)
      .field("example", o.example).field("marketplace", o.marketplace).field("time_hours", r.cost.wall_hours).field("time_hours_low", t.time_hours_low)
      .field("time_hours_high", t.time_hours_high).field("compute_hours", t.time_hours).field("cost_usd", r.cost.cost_usd)
      .field("usd_per_hour", r.usd_per_hour).field("list_usd_per_hour", r.price->headlineUsdPerHour())
      .field("usd_per_tflops_day", r.usd_per_tflops_day)
      .field("usd_per_tflops_day_at_precision", r.usd_per_tflops_day_at_precision)
      .field("vendor_usd_per_tflops_day", r.vendor_usd_per_tflops_day).field("score", r.score);
  j.key("scores").beginObject().field("unit_cost", r.unit_score).field("task", r.task_score).field("service", r.service_score).endObject();
  j.field("pareto", r.pareto);
  auto it = evaluation_text.find(r.eval);
  if (it == evaluation_text.end()) {
    EvaluationJson e;
    {
      JsonWriter tj(e.throughput), mj(e.memory), pj(e.plan);
      writeThroughput(tj, t);
      writeMemory(mj, r.memory());
      writePlan(pj, r.memory(), t);
    }
    it = evaluation_text.emplace(r.eval, std::move(e)).first;
  }
  j.key("throughput").raw(it->second.throughput);
  j.key("memory").raw(it->second.memory);
  j.key("plan").raw(it->second.plan);
  j.key("spot").beginObject()
      .field("expected_interruptions", r.cost.expected_interruptions)
      .field("checkpoint_interval_hours", r.cost.checkpoint_interval_hours)
      .field("p_finish_by_deadline", r.cost.p_finish_by_deadline).field("feasible", r.cost.feasible)
      .endObject();
  j.key("reserved").beginObject()
      .field("commitment_usd", r.cost.commitment_usd).field("amortised_cost_usd", r.cost.amortised_cost_usd)
      .field("break_even_utilisation", r.cost.break_even_utilisation).field("cheaper_on_demand_usd", r.cheaper_on_demand_usd)
      .endObject();
  j.field("billed_hours", r.cost.billed_hours).field("as_of", r.price->as_of).field("source", r.price->source)
      .field("stale", r.stale).field("reasons", resultReasons(r, ranking)).field("warnings", resultWarnings(r, w, opt));
  j.endObject();
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
  readConstantsField(req, opt.constants, issues);
  readSpotOptions(req, opt.spot, issues);
  long long limit = 0;
  readRankOptions(req, opt, limit, issues);
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
      .field("fitting_count", ranking.fitting_count).field("meeting_count", ranking.meeting_count);
  // The horizon each offer was sized for: the deadline, the request's horizon_hours, or the default.
  j.key("horizon").beginObject().field("hours", ranking.horizon_hours)
      .field("source", opt.filters.deadline_hours > 0 ? "deadline" : ranking.horizon_hours <= 0 ? "none"
                       : opt.horizon_hours == kDefaultHorizonHours ? "default" : "request")
      .field("max_nodes", opt.max_nodes).endObject();
  // When nothing fits: what would make it fit.
  j.field("fit_hints", fitHints(w, ranking, opt));
  j.key("filters").beginObject().field("include_examples", opt.filters.include_examples)
      .field("include_stale", opt.filters.include_stale).endObject();
  j.key("results").beginArray();
  EvaluationText evaluation_text;
  for (const auto& rr : ranking.results) writeRankResult(j, rr, ranking, w, opt, evaluation_text);
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
