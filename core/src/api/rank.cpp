// rank: every catalog offer for a workload, ranked by unit cost, time and service, with the numbers behind each
// rank. {"preset"|"workload", "pricing"?, "weights"?, "filters"?, "spot"?, "constants"?, "max_nodes"?,
// "horizon_hours"?, "free_trial_hours"?, "limit"?, "shared_evaluations"?, "measurements"?}. This writes the page's hot answer:
// straight to text, no DOM. The reading, the kept evaluations and the result writer are shared with rankView.
#include <algorithm>
#include <unordered_map>

#include "api/measurements.hpp"
#include "api/rank_answer.hpp"
#include "api/request.hpp"
#include "io/request_fields.hpp"
#include "model/fit_hints.hpp"

namespace gpuvalue {

namespace {

// One ranked result, written straight to text (this is the hot output path of the page).
void writeRankResult(JsonWriter& j, const RankResult& r, const Ranking& ranking, const Workload& w, const RankOptions& opt,
                     RankResultWriter::EvaluationText& evaluation_text, std::unordered_map<const Evaluation*, size_t>* shared,
                     const std::function<void(JsonWriter&)>& more) {
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
      .key("usd_per_tflops_day").positiveOrNull(r.usd_per_tflops_day)
      .key("usd_per_tflops_day_at_precision").positiveOrNull(r.usd_per_tflops_day_at_precision)
      .field("vendor_usd_per_tflops_day", r.vendor_usd_per_tflops_day).field("score", r.score);
  j.key("scores").beginObject().field("unit_cost", r.unit_score).field("task", r.task_score).field("service", r.service_score).endObject();
  j.field("pareto", r.pareto);
  auto it = evaluation_text.find(r.eval);
  if (it == evaluation_text.end()) {
    RankResultWriter::EvaluationJson e;
    {
      JsonWriter tj(e.throughput), mj(e.memory), pj(e.plan);
      writeThroughput(tj, t);
      writeMemory(mj, r.memory());
      writePlan(pj, r.memory(), t);
    }
    it = evaluation_text.emplace(r.eval, std::move(e)).first;
    if (shared) shared->emplace(r.eval, shared->size());
  }
  if (shared) {
    j.field("evaluation", (*shared)[r.eval]);
  } else {
    j.key("throughput").raw(it->second.throughput);
    j.key("memory").raw(it->second.memory);
    j.key("plan").raw(it->second.plan);
  }
  j.key("spot").beginObject()
      .field("expected_interruptions", r.cost.expected_interruptions)
      .field("checkpoint_interval_hours", r.cost.checkpoint_interval_hours)
      .field("p_finish_by_deadline", r.cost.p_finish_by_deadline).field("feasible", r.cost.feasible)
      .endObject();
  j.key("reserved").beginObject()
      .field("commitment_usd", r.cost.commitment_usd).field("amortised_cost_usd", r.cost.amortised_cost_usd)
      .field("break_even_utilisation", r.cost.break_even_utilisation).field("cheaper_on_demand_usd", r.cheaper_on_demand_usd)
      .endObject();
  writeCalibrated(j, r.eval->calibrated);
  j.field("billed_hours", r.cost.billed_hours).field("as_of", r.price->as_of).field("read_on", r.price->read_on).field("source", r.price->source)
      .field("stale", r.stale).field("reasons", resultReasons(r, ranking)).field("warnings", resultWarnings(r, w, opt));
  if (more) more(j);
  j.endObject();
}

// What the hardware evaluations of a ranking depend on: the workload (preset, overrides, precision), the model
// constants, the node limit and the horizon; weights, filters, billing and limit change none of them.
std::string evaluationKey(const json& req, const RankOptions& opt) {
  json k = json::object();
  for (const char* m : {"preset", "workload", "precision", "constants", "measurements"})
    if (req.contains(m)) k[m] = req[m];
  k["max_nodes"] = opt.max_nodes;
  k["horizon_hours"] = effectiveHorizonHours(opt);
  return dumpJson(k);
}

// The kept evaluations for `key` (moved to the front); else a new store, kept in their place when `keep` (the
// page's views; a sensitivity sweep's one-offer rankings of other sizes must not push them out). A few are kept:
// the page alternates between workloads.
std::shared_ptr<EvaluationStore> evaluationStore(EngineState& s, const std::string& key, bool keep) {
  constexpr size_t kKept = 4;
  auto& kept = s.evaluations;
  for (size_t i = 0; i < kept.size(); ++i)
    if (kept[i].first == key) {
      std::rotate(kept.begin(), kept.begin() + static_cast<long>(i), kept.begin() + static_cast<long>(i) + 1);
      return kept.front().second;
    }
  if (!keep) return std::make_shared<EvaluationStore>();
  if (kept.size() >= kKept) kept.pop_back();
  kept.insert(kept.begin(), {key, std::make_shared<EvaluationStore>()});
  return kept.front().second;
}

}  // namespace

bool readRankRequest(EngineState& s, const std::string& text, RankRequest& r, std::string& error) {
  Request q(text);
  Issues& issues = q.issues();
  if (!q.ok() || !resolveWorkload(s, q.doc(), r.w, issues)) {
    error = q.errorAnswer();
    return false;
  }
  r.req = q.doc();  // kept for the evaluation cache's key and rankView's "view"
  r.opt.today = s.today;
  readConstantsField(r.req, r.opt.constants, issues);
  if (!hasErrors(issues)) r.opt.calibration = readMeasurementsField(s, r.req, r.w, r.opt.constants, issues);
  readSpotOptions(r.req, r.opt.spot, issues);
  long long limit = 0;
  readRankOptions(r.req, r.opt, limit, issues);
  r.shared_evaluations = readSharedEvaluations(r.req, issues);
  r.opt.limit = static_cast<size_t>(limit);
  if (q.failed()) {
    error = q.errorAnswer();
    return false;
  }
  return true;
}

Ranking rankRequest(EngineState& s, const RankRequest& r, bool keep_evaluations) {
  return rankOffers(r.w, s.catalog, r.opt, evaluationStore(s, evaluationKey(r.req, r.opt), keep_evaluations));
}

void writeRankMeta(JsonWriter& j, const Ranking& ranking, const RankRequest& r) {
  const Workload& w = r.w;
  const RankOptions& opt = r.opt;
  j.key("workload").beginObject()
      .field("name", w.name).field("kind", workloadKindName(w.kind)).field("mode", modeName(w.mode))
      .field("precision", precisionName(w.precision)).field("total_flops", w.totalFlops()).field("params", w.params)
      .endObject();
  j.field("evaluated_offers", ranking.evaluated).field("result_count", ranking.result_count)
      .field("fitting_count", ranking.fitting_count)
      .field("meeting_count", ranking.widened_horizon_hours > 0 ? size_t{0} : ranking.meeting_count);
  // The horizon each offer was sized for: the deadline, the request's horizon_hours, or the default.
  j.key("horizon").beginObject().field("hours", ranking.horizon_hours)
      .field("source", opt.filters.deadline_hours > 0 ? "deadline" : ranking.horizon_hours <= 0 ? "none"
                       : opt.horizon_hours == kDefaultHorizonHours ? "default" : "request")
      .field("max_nodes", opt.max_nodes);
  // Nothing can finish within it: the doubled horizon the first results were ranked within, and their number.
  if (ranking.widened_horizon_hours > 0)
    j.field("widened_hours", ranking.widened_horizon_hours).field("widened_count", ranking.meeting_count);
  j.endObject();
  // When nothing fits: what would make it fit.
  j.field("fit_hints", fitHints(w, ranking, opt));
  j.key("filters").beginObject().field("include_examples", opt.filters.include_examples)
      .field("include_stale", opt.filters.include_stale).endObject();
  writeCalibration(j, opt.calibration);
}

RankResultWriter::RankResultWriter(const Ranking& ranking, const RankRequest& r, bool shared)
    : ranking_(ranking), request_(r), shared_(shared) {}

void RankResultWriter::write(JsonWriter& j, const RankResult& r, const std::function<void(JsonWriter&)>& more) {
  writeRankResult(j, r, ranking_, request_.w, request_.opt, text_, shared_ ? &index_ : nullptr, more);
}

void RankResultWriter::writeEvaluations(JsonWriter& j) const {
  // In index order: the throughput, memory and plan each result names by its "evaluation".
  std::vector<const Evaluation*> order(index_.size());
  for (const auto& [e, i] : index_) order[i] = e;
  j.key("evaluations").beginArray();
  for (const Evaluation* e : order) {
    const EvaluationJson& t = text_.at(e);
    j.beginObject();
    j.key("throughput").raw(t.throughput);
    j.key("memory").raw(t.memory);
    j.key("plan").raw(t.plan);
    j.endObject();
  }
  j.endArray();
}

std::string apiRank(EngineState& s, const std::string& text, const std::string&) {
  RankRequest r;
  std::string error;
  if (!readRankRequest(s, text, r, error)) return error;
  const Ranking ranking = rankRequest(s, r, false);
  std::string out;
  out.reserve(1024 + ranking.results.size() * (r.shared_evaluations ? 1024 : 2048));
  JsonWriter j(out);
  j.beginObject().field("ok", true);
  writeRankMeta(j, ranking, r);
  j.key("results").beginArray();
  RankResultWriter results(ranking, r, r.shared_evaluations);
  for (const auto& rr : ranking.results) results.write(j, rr);
  j.endArray();
  if (r.shared_evaluations) results.writeEvaluations(j);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
