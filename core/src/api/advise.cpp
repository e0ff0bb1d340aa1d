// advise: GPU class, count and billing for a model size and training stage, set against the article's ladder
// (§4.1) and stage billing (§4.2). {"params" | "preset" | "workload", "precision"?, "tokens"?, "stage"?, "mode"?,
// "seq_len"?, "deadline_hours"?, "horizon_hours"?, "max_gpus"?, "include_examples"?, "include_stale"?, "spot"?,
// "constants"?, "measurements"?}. With a preset or workload (read as rank reads them) the advisor sizes that job,
// and its figures for an offer are rank's; params, tokens, seq_len and mode beside it must be the workload's.
#include "api/answer.hpp"
#include "api/measurements.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
#include "io/fields.hpp"
#include "io/request_fields.hpp"
#include "model/data_fields.hpp"
#include "tools/advisor.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// params, tokens and seq_len become the advised transformer's (adviceWorkloadDocument): they are read with the
// workload table's fields, so their bounds are the workload's. params is required unless a preset or workload is
// given (opt.own_workload).
void readAdviceOptions(ObjectReader& r, const json& req, AdviceOptions& opt, Issues& issues) {
  opt.params = readNumber(r, opt.own_workload ? T::kAdviseParams : T::kAdviseParams.req()).value_or(0);
  opt.tokens = readNumber(r, T::kAdviseTokens).value_or(0);
  if (auto s = readString(r, T::kStage)) parseStage(*s, opt.stage);
  if (auto m = readString(r, T::kMode)) opt.mode = *m == "lora" ? Mode::kLora : (*m == "finetune" ? Mode::kFinetune : Mode::kPretrain);
  if (!opt.own_workload && opt.mode != Mode::kPretrain && !r.has(T::kAdviseTokens.name))
    r.error(T::kAdviseTokens.name, ErrorCode::kMissingField, Message("error.tokens_required_finetune"));
  opt.seq_len = readNumber(r, T::kAdviseSeqLen).value_or(opt.seq_len);
  opt.deadline_hours = numberOr(r, T::kDeadlineHours);
  opt.horizon_hours = readNumber(r, T::kHorizonHours).value_or(opt.horizon_hours);
  opt.max_gpus = integerOr(r, T::kMaxGpus, opt.max_gpus);
  opt.include_examples = booleanOr(r, request_fields::kIncludeExamples);
  opt.include_stale = booleanOr(r, request_fields::kIncludeStale);
  readSpotOptions(req, opt.spot, issues);
  readConstantsField(req, opt.constants, issues);
}

// The transformer the advisor sizes, as a workload document rank, levers and estimate read: params and tokens (20
// per parameter when not given: Hoffmann et al. 2022, "Chinchilla", Table 3, compute-optimal) with derived shape,
// bf16 mixed precision (fp16 where the GPU lacks bf16), AdamW, micro-batch 1.
json adviceWorkloadDocument(const AdviceOptions& opt) {
  json w;  // member by member: smaller code than an initializer list in the size-optimised engine
  w["kind"] = "transformer";
  w["name"] = "advisor transformer";
  w["mode"] = modeName(opt.mode);
  w["params"] = opt.params;
  w["tokens"] = opt.tokens > 0 ? opt.tokens : 20.0 * opt.params;
  w["seq_len"] = opt.seq_len;
  w["precision"] = "bf16";
  w["optimizer"] = "adamw";
  w["micro_batch"] = 1;
  return w;
}

// A member given beside the workload must be the workload's own value: two values would be two jobs in one answer.
void checkBesideWorkload(ObjectReader& r, const Field& f, bool same) {
  if (r.has(f.name) && !same)
    r.error(f.name, ErrorCode::kInvalidValue, Message("error.advise_differs_from_workload").text("member", f.name));
}

// The workload the advisor sizes, its document (written into the answer) and its reading: the request's preset or
// workload and precision, read as rank reads them, or else the transformer of params and tokens. Sets params,
// tokens, seq_len and mode from the request's workload. False (with the problem in the issues) when it is wrong.
bool adviceWorkload(const EngineState& s, Request& r, AdviceOptions& opt, json& doc, Workload& w) {
  if (!opt.own_workload) {
    doc = adviceWorkloadDocument(opt);
    if (auto p = readString(r, T::kPrecision)) doc["precision"] = *p;
    return parseWorkload(doc, "", w, r.issues());
  }
  if (!resolveWorkload(s, r.doc(), w, r.issues(), &doc)) return false;
  // The answer's document keeps the members a workload takes (a preset's also describe it: "class", "vocab"), so
  // that rank, levers and estimate take it as their "workload"; parseWorkload reads no other.
  for (auto it = doc.begin(); it != doc.end();) it = data_fields::kWorkloadRecord.find(it.key()) ? std::next(it) : doc.erase(it);
  if (!doc.contains("name")) doc["name"] = w.name;
  if (w.kind != WorkloadKind::kTransformer || w.mode == Mode::kInference) {
    const char* member = w.kind != WorkloadKind::kTransformer ? "kind" : "mode";
    const Message m = Message("error.advise_training_transformer").text("kind", workloadKindName(w.kind)).text("mode", modeName(w.mode));
    const json* wj = r.get(T::kWorkload.name);
    if (wj && wj->is_object() && wj->contains(member)) ObjectReader(*wj, "/workload", r.issues()).error(member, ErrorCode::kInvalidValue, m);
    else r.error(r.has(T::kPreset.name) ? T::kPreset.name : T::kWorkload.name, ErrorCode::kInvalidValue, m);
    return false;
  }
  checkBesideWorkload(r, T::kAdviseParams, opt.params == w.params);
  checkBesideWorkload(r, T::kAdviseTokens, opt.tokens == w.tokens);
  checkBesideWorkload(r, T::kAdviseSeqLen, opt.seq_len == w.seq_len);
  checkBesideWorkload(r, T::kMode, opt.mode == w.mode);
  opt.params = w.params;
  opt.tokens = w.tokens;
  opt.seq_len = w.seq_len;
  opt.mode = w.mode;
  return !r.failed();
}

// Why the memory model agrees or disagrees with the article's class, with the unsharded memory numbers
// (`one`: one GPU of the article's class, no sharding).
Messages adviceNote(const Advice& a, const AdviceOptions& opt, const MemoryBreakdown& one) {
  const ArticleRung& art = kArticleLadder[a.article_rung];
  const std::string art_class = a.article_rung == 2 ? "A100 80GB / H100" : art.label;
  if (a.model_rung < 0)
    return {Message("advise.nothing_fits").num("param_count", opt.params).num("gpu_count", opt.max_gpus)};
  const RungEvaluation& m = a.ladder[a.model_rung];
  const MemoryBreakdown& mm = m.min_plan.memory;
  Messages out;
  if (a.agrees) out.push_back(Message("advise.article_agrees").num("param_count", opt.params).text("article_class", art_class));
  else
    out.push_back(Message("advise.article_disagrees").num("param_count", opt.params).text("article_class", art_class)
                      .text("model_class", kArticleLadder[a.model_rung].label));
  out.push_back(Message("advise.unsharded").text("gpu", art.gpu_id).num("required_gb", one.required_gb)
                    .num("state_gb", one.weights_gb + one.gradients_gb + one.optimizer_gb).num("activations_gb", one.activations_gb)
                    .num("overhead_gb", one.overhead_gb).num("available_gb", one.available_gb));
  if (m.min_gpu_count == 1)
    out.push_back(Message("advise.fits_one").text("gpu", m.gpu->id).num("required_gb", mm.required_gb).num("available_gb", mm.available_gb));
  else
    out.push_back(Message(m.activation_checkpointing ? "advise.smallest_fit_checkpointing" : "advise.smallest_fit")
                      .num("gpu_count", m.min_gpu_count).text("gpu", m.gpu->id).text("sharding", mm.sharding.label())
                      .num("required_gb", mm.required_gb).num("available_gb", mm.available_gb));
  const RungEvaluation& ae = a.ladder[a.article_rung];
  if (!a.agrees && a.model_rung < a.article_rung) out.push_back(Message("advise.article_oversized"));
  if (!a.agrees && a.model_rung > a.article_rung && ae.gpu) {
    if (ae.fits)
      out.push_back(Message("advise.article_also_works").text("article_class", kArticleLadder[a.article_rung].label)
                        .num("gpu_count", ae.min_gpu_count).text("sharding", ae.min_plan.memory.sharding.label()));
    else
      out.push_back(Message("advise.article_no_fit").text("article_class", kArticleLadder[a.article_rung].label)
                        .num("gpu_count", opt.max_gpus));
  }
  return out;
}

// The optimizer of the request's own workload, as the assumptions state it (codes in the order of Optimizer).
const char* optimizerAssumption(Optimizer o) {
  static const char* const kCodes[] = {"advise.assume_optimizer_adamw", "advise.assume_optimizer_adam8bit", "advise.assume_optimizer_sgd"};
  static_assert(sizeof(kCodes) / sizeof(kCodes[0]) == static_cast<size_t>(Optimizer::kSgd) + 1, "one code per optimizer");
  return kCodes[static_cast<size_t>(o)];
}

const char* stageWhy(Stage stage) {
  switch (stage) {
    case Stage::kExploration: return "advise.stage_exploration";
    case Stage::kTuning: return "advise.stage_tuning";
    case Stage::kProduction: return "advise.stage_production";
  }
  return "advise.stage_tuning";
}

// The stage's constraint on billing, as the answer states it.
const char* stageConstraint(Stage stage) {
  switch (stage) {
    case Stage::kExploration: return "advise.constraint_exploration";
    case Stage::kTuning: return "advise.constraint_tuning";
    case Stage::kProduction: return "advise.constraint_production";
  }
  return "advise.constraint_tuning";
}

Messages recommendationReason(const RungEvaluation& e, const AdviceChoice& c, const std::string& role, const Messages& note,
                              const Workload& w, const Advice& a, Stage stage) {
  const Throughput& t = c.plan.throughput;
  const PricingModel pricing = c.offer.price->model;
  Messages why;
  if (role == "memory model") why = note;
  // When no option finishes within the horizon the advisor recommends the fastest (advisor.cpp): said so, not "finishes".
  else if (role == "recommended")
    why.push_back(Message(c.meets_horizon ? "advise.role_recommended" : "advise.role_recommended_late").text("stage", stageName(stage))
                      .num("horizon_hours", a.horizon_hours));
  else why.push_back(Message("advise.role_fastest"));
  why.push_back(Message("advise.time_on").num("time_hours", c.time_hours()).num("gpu_count", c.gpu_count).text("gpu", e.gpu->id)
                    .num("tflops", t.effective_tflops_per_gpu).num("flop_count", w.totalFlops()).num("token_count", w.tokens));
  if (!c.meets_horizon) why.push_back(Message("advise.misses_horizon").num("time_hours", c.time_hours()).num("horizon_hours", a.horizon_hours));
  why.push_back(Message("advise.billing").text("stage", stageName(stage)).text("pricing", pricingModelName(pricing))
                    .num("cost_usd", c.cost.cost_usd).num("instance_count", c.offer.instances)
                    .text("instance", c.offer.offer->instance_type).text("provider", c.offer.offer->provider)
                    .num("usd_per_hour", c.offer.usd_per_hour));
  if (&c == &e.best && !e.pricing_note.empty()) why.push_back(e.pricing_note);
  if (e.on_demand.present && pricing != PricingModel::kOnDemand && e.on_demand.gpu_count == c.gpu_count)
    why.push_back(Message("advise.vs_on_demand").num("cost_usd", e.on_demand.cost.cost_usd)
                      .num("saving_fraction", 1.0 - c.cost.cost_usd / e.on_demand.cost.cost_usd));
  if (pricing == PricingModel::kSpot)
    why.push_back(Message("advise.spot_detail").num("interruption_count", c.cost.expected_interruptions)
                      .num("interval_hours", c.cost.checkpoint_interval_hours));
  if (pricing == PricingModel::kReserved && c.cost.break_even_utilisation > 0)
    why.push_back(Message("advise.reserved_detail").num("share_fraction", c.cost.break_even_utilisation)
                      .num("month_count", c.offer.price->terms().term_months));
  if (c.stale) why.push_back(Message("advise.all_stale").text("date", c.offer.price->as_of.str()));
  if (stage == Stage::kProduction && c.offer.offer->service().sla_pct < kProductionSlaPct) why.push_back(Message("advise.no_sla"));
  return why;
}

void writeRecommendation(JsonWriter& j, const RungEvaluation& e, const AdviceChoice& c, const std::string& role, const Messages& reason,
                         const std::string& today) {
  const Throughput& t = c.plan.throughput;
  const bool same_gpus = e.on_demand.present && e.on_demand.gpu_count == c.gpu_count;
  j.beginObject().field("role", role).field("gpu", e.gpu->id).field("gpu_name", e.gpu->name)
      .field("gpu_class", kArticleLadder[e.rung].label).field("gpu_count", c.gpu_count).field("nodes", c.nodes)
      .field("pricing", pricingModelName(c.offer.price->model)).key("offer");
  writeOfferBrief(j, c.offer, today);
  j.field("time_hours", finiteOr(c.time_hours())).field("meets_horizon", c.meets_horizon).field("cost_usd", finiteOr(c.cost.cost_usd))
      .field("on_demand_cost_usd", same_gpus ? finiteOr(e.on_demand.cost.cost_usd) : 0.0)
      .field("sharding", c.plan.memory.sharding.label())
      .field("activation_checkpointing", c.plan.memory.sharding.recompute != Recompute::kNone).key("memory");
  writeMemory(j, c.plan.memory, MemoryDetail::kBrief);
  j.field("effective_tflops_per_gpu", finiteOr(t.effective_tflops_per_gpu)).field("reason", reason).endObject();
}

// One rung: the memory model's fit on the article's cluster, and the catalog option the advisor would pick.
void writeLadderRung(JsonWriter& j, const RungEvaluation& e, const std::string& today) {
  j.beginObject().field("gpu_class", kArticleLadder[e.rung].label);
  if (!e.gpu) {
    j.field("gpu", kArticleLadder[e.rung].gpu_id).field("fits", false).field("note", Messages{Message("advise.gpu_missing")}).endObject();
    return;
  }
  const AdviceChoice& c = e.best;
  const ClusterPlan& plan = c.present ? c.plan : e.min_plan;
  j.field("gpu", e.gpu->id).field("fits", e.fits).field("min_gpu_count", e.min_gpu_count)
      .field("gpu_count", c.present ? c.gpu_count : e.min_gpu_count).field("nodes", c.present ? c.nodes : defaultCluster(*e.gpu, std::max(1, e.min_gpu_count)).nodes)
      .field("sharding", plan.memory.sharding.label())
      .field("activation_checkpointing", c.present ? plan.memory.sharding.recompute != Recompute::kNone : e.activation_checkpointing)
      .key("memory");
  writeMemory(j, plan.memory, MemoryDetail::kBrief);
  j.field("time_hours", finiteOr(c.present ? c.time_hours() : plan.throughput.time_hours)).field("meets_horizon", c.present && c.meets_horizon)
      .field("pricing", c.present ? pricingModelName(c.offer.price->model) : "").key("offer");
  writeOfferBrief(j, c.offer, today);
  j.field("cost_usd", c.present ? finiteOr(c.cost.cost_usd) : 0.0)
      .field("on_demand_cost_usd", e.on_demand.present ? finiteOr(e.on_demand.cost.cost_usd) : 0.0).key("note").beginArray();
  if (e.fits && !c.present) j.value(Message("advise.no_offer").text("gpu", e.gpu->id).num("gpu_count", e.min_gpu_count));
  if (!e.pricing_note.empty()) j.value(e.pricing_note);
  if (c.present && c.stale) j.value(Message("advise.all_stale").text("date", c.offer.price->as_of.str()));
  j.endArray().endObject();
}

// The memory model's pick, and how the article's own class fits (the 80 GB rung stands for ">10B").
void writeMemoryModel(JsonWriter& j, const Advice& a, const MemoryBreakdown& one, const Messages& note) {
  const bool any = a.model_rung >= 0;
  const RungEvaluation* m = any ? &a.ladder[a.model_rung] : nullptr;
  j.beginObject().field("gpu_class", any ? kArticleLadder[a.model_rung].label : "").field("gpu", any ? m->gpu->id : "")
      .field("gpu_count", any ? m->min_gpu_count : 0).field("sharding", any ? m->min_plan.memory.sharding.label() : "")
      .field("agrees_with_article", a.agrees).field("single_gpu_required_gb", finiteOr(one.required_gb)).key("article_class_fit");
  const RungEvaluation& e = a.ladder[a.article_rung];
  if (e.gpu)
    j.beginObject().field("gpu", e.gpu->id).field("fits", e.fits).field("gpu_count", e.min_gpu_count)
        .field("sharding", e.min_plan.memory.sharding.label()).field("time_hours", finiteOr(e.min_plan.throughput.time_hours)).endObject();
  else
    j.null();
  j.field("note", note).endObject();
}

// No option within the horizon (or no catalog option at all): which comes closest, so that it is never silent.
Message horizonWarning(const Advice& a, const AdviceOptions& opt) {
  if (a.recommended_rung < 0) {
    for (const auto& e : a.ladder)
      if (e.fits) return Message("advise.no_catalog_option");
    return Message();
  }
  const AdviceChoice& best = a.ladder[a.recommended_rung].best;
  if (best.meets_horizon) return Message();
  const RungEvaluation& f = a.ladder[a.fastest_rung >= 0 ? a.fastest_rung : a.recommended_rung];
  const AdviceChoice& fastest = f.fastest.present ? f.fastest : best;
  return Message(opt.deadline_hours > 0 ? "advise.deadline_missed_fastest" : "advise.horizon_missed_fastest")
      .num("deadline_hours", a.horizon_hours)
      .num("gpu_count", fastest.gpu_count)
      .text("gpu", f.gpu->id)
      .num("time_hours", fastest.time_hours())
      .num("max_gpu_count", opt.max_gpus);
}

void writeRecommendations(JsonWriter& j, const Advice& a, const Messages& note, const AdviceOptions& opt, const std::string& today) {
  const Workload& w = a.workload;
  std::vector<const AdviceChoice*> shown;
  auto recommend = [&](int rung, const AdviceChoice& c, const char* role) {
    if (rung < 0 || !c.present) return;
    for (const AdviceChoice* s : shown)
      if (s->offer.offer == c.offer.offer && s->offer.price == c.offer.price && s->nodes == c.nodes) return;
    shown.push_back(&c);
    const RungEvaluation& e = a.ladder[rung];
    writeRecommendation(j, e, c, role, recommendationReason(e, c, role, note, w, a, opt.stage), today);
  };
  j.key("recommendations").beginArray();
  if (a.recommended_rung >= 0) recommend(a.recommended_rung, a.ladder[a.recommended_rung].best, "recommended");
  if (a.fastest_rung >= 0) recommend(a.fastest_rung, a.ladder[a.fastest_rung].fastest, "fastest");
  if (a.model_rung >= 0) recommend(a.model_rung, a.ladder[a.model_rung].best, "memory model");
  j.endArray();
}

}  // namespace

std::string apiAdvise(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  AdviceOptions opt;
  opt.own_workload = r.has(T::kPreset.name) || r.has(T::kWorkload.name);
  readAdviceOptions(r, r.doc(), opt, r.issues());
  if (r.failed()) return r.errorAnswer();
  opt.today = s.today;
  if (s.gpus.empty()) {
    r.issues().push_back({ErrorCode::kNotFound, "", Message("error.gpus_not_loaded")});
    return r.errorAnswer();
  }
  json workload;
  Workload parsed;
  if (!adviceWorkload(s, r, opt, workload, parsed)) return r.errorAnswer();
  // The user's measurements calibrate each offer as they calibrate rank's.
  opt.calibration = readMeasurementsField(s, r.doc(), parsed, opt.constants, r.issues());
  if (r.failed()) return r.errorAnswer();
  const Advice a = gpuvalue::advise(opt, parsed, s.gpus, s.catalog);
  const Workload& w = a.workload;
  // Memory on one GPU of the article's class, without sharding: the numbers behind agree/disagree.
  const ArticleRung& art = kArticleLadder[a.article_rung];
  const GpuSpec* art_gpu = s.gpus.find(art.gpu_id);
  // (estimateMemory applies the workload's own recomputation, when it fixes one, to the plan it is given.)
  MemoryBreakdown one;
  if (art_gpu) one = estimateMemory(w, defaultCluster(*art_gpu, 1), Sharding{}, opt.constants);
  const Messages note = adviceNote(a, opt, one);
  const char* rule = a.article_rung == 0 ? "advise.rule_small" : a.article_rung == 1 ? "advise.rule_medium" : "advise.rule_large";
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("params", opt.params).field("tokens", finiteOr(w.tokens))
      .field("tokens_source", Message(opt.own_workload ? "advise.tokens_workload" : opt.tokens > 0 ? "advise.tokens_given" : "advise.tokens_chinchilla"))
      .field("stage", stageName(opt.stage)).field("mode", modeName(w.mode)).field("total_flops", finiteOr(w.totalFlops()));
  j.key("workload").document(workload);
  j.key("horizon").beginObject().field("hours", a.horizon_hours)
      .field("source", opt.deadline_hours > 0 ? "deadline" : a.horizon_hours <= 0 ? "none" : opt.horizon_hours == kDefaultHorizonHours ? "default" : "request")
      .endObject();
  j.key("article").beginObject().field("gpu_class", a.article_rung == 2 ? "A100 80GB / H100" : art.label)
      .field("rule", Message(rule)).field("source", Message("source.article_s4_1")).endObject();
  j.key("memory_model");
  writeMemoryModel(j, a, one, note);
  j.key("stage_billing").beginObject().field("stage", stageName(opt.stage)).field("pricing", pricingModelName(stagePricing(opt.stage)))
      .field("why", Message(stageWhy(opt.stage))).field("constraint", Message(stageConstraint(opt.stage))).endObject();
  writeRecommendations(j, a, note, opt, s.today);
  j.key("ladder").beginArray();
  for (const auto& e : a.ladder) writeLadderRung(j, e, s.today);
  j.endArray();
  const bool own_precision = opt.own_workload || r.has(T::kPrecision.name);
  j.key("assumptions").beginObject()
      .field("precision", own_precision ? Message("advise.assume_precision_of").text("precision", precisionName(w.precision)) : Message("advise.assume_precision"))
      .field("optimizer", Message(opt.own_workload ? optimizerAssumption(w.optimizer) : "advise.assume_optimizer"))
      .field("seq_len", opt.seq_len)
      .field("cluster", Message("advise.assume_cluster")).field("offers", Message("advise.assume_offers"))
      .endObject();
  j.key("warnings").beginArray();
  if (a.model_rung < 0)
    for (const auto& n : note) j.value(n);
  const Message late = horizonWarning(a, opt);
  if (!late.empty()) j.value(late);
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
