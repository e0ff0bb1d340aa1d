// advise: GPU class, count and billing for a model size and training stage, set against the article's ladder
// (§4.1) and stage billing (§4.2). {"params", "tokens"?, "stage"?, "mode"?, "seq_len"?, "deadline_hours"?,
// "max_gpus"?, "spot"?, "constants"?}
#include "api/answer.hpp"
#include "api/request.hpp"
#include "io/request_fields.hpp"

namespace gpuvalue {

namespace {

void readAdviceOptions(ObjectReader& r, const json& req, AdviceOptions& opt, Issues& issues) {
  opt.params = r.number("params", true, 0, true, 1e15).value_or(0);
  opt.tokens = r.number("tokens", false, 0, true, 1e18).value_or(0);
  if (auto s = r.string("stage", false))
    if (!parseStage(*s, opt.stage)) r.error("stage", ErrorCode::kInvalidValue, notOneOf(*s, "exploration, tuning, production"));
  if (auto m = r.string("mode", false)) {
    if (*m == "pretrain") opt.mode = Mode::kPretrain;
    else if (*m == "finetune") opt.mode = Mode::kFinetune;
    else if (*m == "lora") opt.mode = Mode::kLora;
    else r.error("mode", ErrorCode::kInvalidValue, notOneOf(*m, "pretrain, finetune, lora"));
  }
  if (opt.mode != Mode::kPretrain && !r.has("tokens"))
    r.error("tokens", ErrorCode::kMissingField, Message("error.tokens_required_finetune"));
  opt.seq_len = r.number("seq_len", false, 1, false, 1e7).value_or(opt.seq_len);
  opt.deadline_hours = r.number("deadline_hours", false, 0, false, 1e7).value_or(0);
  opt.max_gpus = static_cast<int>(r.integer("max_gpus", false, 8, 65536).value_or(opt.max_gpus));
  readSpotOptions(req, opt.spot, issues);
  readConstantsField(req, opt.constants, issues);
}

// Why the memory model agrees or disagrees with the article's class, with the unsharded memory numbers
// (`one`: one GPU of the article's class, no sharding).
Messages adviceNote(const Advice& a, const AdviceOptions& opt, const MemoryBreakdown& one) {
  const ArticleRung& art = kArticleLadder[a.article_rung];
  const std::string art_class = a.article_rung == 2 ? "A100 80GB / H100" : art.label;
  if (a.model_rung < 0)
    return {Message("advise.nothing_fits").num("param_count", opt.params).num("gpu_count", opt.max_gpus)};
  const RungEvaluation& m = a.ladder[a.model_rung];
  Messages out;
  if (a.agrees) out.push_back(Message("advise.article_agrees").num("param_count", opt.params).text("article_class", art_class));
  else
    out.push_back(Message("advise.article_disagrees").num("param_count", opt.params).text("article_class", art_class)
                      .text("model_class", kArticleLadder[a.model_rung].label));
  out.push_back(Message("advise.unsharded").text("gpu", art.gpu_id).num("required_gb", one.required_gb)
                    .num("state_gb", one.weights_gb + one.gradients_gb + one.optimizer_gb).num("activations_gb", one.activations_gb)
                    .num("overhead_gb", one.overhead_gb).num("available_gb", one.available_gb));
  if (m.gpu_count == 1)
    out.push_back(Message("advise.fits_one").text("gpu", m.gpu->id).num("required_gb", m.plan.memory.required_gb)
                      .num("available_gb", m.plan.memory.available_gb));
  else
    out.push_back(Message(m.activation_checkpointing ? "advise.smallest_fit_checkpointing" : "advise.smallest_fit")
                      .num("gpu_count", m.gpu_count).text("gpu", m.gpu->id).text("sharding", m.plan.memory.sharding.label())
                      .num("required_gb", m.plan.memory.required_gb).num("available_gb", m.plan.memory.available_gb));
  const RungEvaluation& ae = a.ladder[a.article_rung];
  if (!a.agrees && a.model_rung < a.article_rung) out.push_back(Message("advise.article_oversized"));
  if (!a.agrees && a.model_rung > a.article_rung && ae.gpu) {
    if (ae.fits)
      out.push_back(Message("advise.article_also_works").text("article_class", kArticleLadder[a.article_rung].label)
                        .num("gpu_count", ae.gpu_count).text("sharding", ae.plan.memory.sharding.label()));
    else
      out.push_back(Message("advise.article_no_fit").text("article_class", kArticleLadder[a.article_rung].label)
                        .num("gpu_count", opt.max_gpus));
  }
  return out;
}

const char* stageWhy(Stage stage) {
  switch (stage) {
    case Stage::kExploration: return "advise.stage_exploration";
    case Stage::kTuning: return "advise.stage_tuning";
    case Stage::kProduction: return "advise.stage_production";
  }
  return "advise.stage_tuning";
}

Messages recommendationReason(const RungEvaluation& e, const std::string& role, const Messages& note, const Workload& w,
                              Stage stage) {
  const Throughput& t = e.plan.throughput;
  Messages why;
  if (role == "memory model") why = note;
  else if (role == "cheapest") why.push_back(Message("advise.role_cheapest").text("pricing", pricingModelName(e.pricing)));
  else why.push_back(Message("advise.role_fastest"));
  why.push_back(Message("advise.time_on").num("time_hours", t.time_hours).num("gpu_count", e.gpu_count).text("gpu", e.gpu->id)
                    .num("tflops", t.effective_tflops_per_gpu).num("flop_count", w.totalFlops()).num("token_count", w.tokens));
  if (e.offer.offer) {
    why.push_back(Message("advise.billing").text("stage", stageName(stage)).text("pricing", pricingModelName(e.pricing))
                      .num("cost_usd", e.cost.cost_usd).num("instance_count", e.offer.instances)
                      .text("instance", e.offer.offer->instance_type).text("provider", e.offer.offer->provider)
                      .num("usd_per_hour", e.offer.usd_per_hour));
    if (e.on_demand.offer && e.on_demand_cost.cost_usd > 0 && e.pricing != PricingModel::kOnDemand)
      why.push_back(Message("advise.vs_on_demand").num("cost_usd", e.on_demand_cost.cost_usd)
                        .num("saving_fraction", 1.0 - e.cost.cost_usd / e.on_demand_cost.cost_usd));
    if (e.pricing == PricingModel::kSpot)
      why.push_back(Message("advise.spot_detail").num("interruption_count", e.cost.expected_interruptions)
                        .num("interval_hours", e.cost.checkpoint_interval_hours));
    if (e.pricing == PricingModel::kReserved && e.cost.break_even_utilisation > 0)
      why.push_back(Message("advise.reserved_detail").num("share_fraction", e.cost.break_even_utilisation)
                        .num("month_count", e.offer.price->term_months));
  } else {
    why.push_back(Message("advise.no_offer").text("gpu", e.gpu->id).num("gpu_count", e.gpu_count));
  }
  if (!e.pricing_note.empty()) why.push_back(e.pricing_note);
  if (!e.stale_note.empty()) why.push_back(e.stale_note);
  if (stage == Stage::kProduction && e.offer.offer && e.offer.offer->service.sla_pct <= 0) why.push_back(Message("advise.no_sla"));
  return why;
}

void writeRecommendation(JsonWriter& j, const RungEvaluation& e, const std::string& role, const Messages& reason,
                         const std::string& today) {
  const Throughput& t = e.plan.throughput;
  j.beginObject().field("role", role).field("gpu", e.gpu->id).field("gpu_name", e.gpu->name)
      .field("gpu_class", kArticleLadder[e.rung].label).field("gpu_count", e.gpu_count).field("nodes", e.nodes)
      .field("pricing", pricingModelName(e.pricing)).key("offer");
  writeOfferBrief(j, e.offer, today);
  j.field("time_hours", finiteOr(t.time_hours)).field("cost_usd", finiteOr(e.cost.cost_usd))
      .field("on_demand_cost_usd", finiteOr(e.on_demand_cost.cost_usd)).field("sharding", e.plan.memory.sharding.label())
      .field("activation_checkpointing", e.activation_checkpointing).key("memory");
  writeMemory(j, e.plan.memory, MemoryDetail::kBrief);
  j.field("effective_tflops_per_gpu", finiteOr(t.effective_tflops_per_gpu)).field("reason", reason).endObject();
}

void writeLadderRung(JsonWriter& j, const RungEvaluation& e, const std::string& today) {
  j.beginObject().field("gpu_class", kArticleLadder[e.rung].label);
  if (!e.gpu) {
    j.field("gpu", kArticleLadder[e.rung].gpu_id).field("fits", false).field("note", Messages{Message("advise.gpu_missing")}).endObject();
    return;
  }
  j.field("gpu", e.gpu->id).field("fits", e.fits).field("gpu_count", e.gpu_count).field("nodes", e.nodes)
      .field("sharding", e.plan.memory.sharding.label()).field("activation_checkpointing", e.activation_checkpointing)
      .key("memory");
  writeMemory(j, e.plan.memory, MemoryDetail::kBrief);
  j.field("time_hours", finiteOr(e.plan.throughput.time_hours)).field("pricing", pricingModelName(e.pricing)).key("offer");
  writeOfferBrief(j, e.offer, today);
  j.field("cost_usd", finiteOr(e.cost.cost_usd)).field("on_demand_cost_usd", finiteOr(e.on_demand_cost.cost_usd))
      .key("note").beginArray();
  if (!e.pricing_note.empty()) j.value(e.pricing_note);
  if (!e.stale_note.empty()) j.value(e.stale_note);
  j.endArray().endObject();
}

// The memory model's pick, and how the article's own class fits (the 80 GB rung stands for ">10B").
void writeMemoryModel(JsonWriter& j, const Advice& a, const MemoryBreakdown& one, const Messages& note) {
  const bool any = a.model_rung >= 0;
  const RungEvaluation* m = any ? &a.ladder[a.model_rung] : nullptr;
  j.beginObject().field("gpu_class", any ? kArticleLadder[a.model_rung].label : "").field("gpu", any ? m->gpu->id : "")
      .field("gpu_count", any ? m->gpu_count : 0).field("sharding", any ? m->plan.memory.sharding.label() : "")
      .field("agrees_with_article", a.agrees).field("single_gpu_required_gb", finiteOr(one.required_gb)).key("article_class_fit");
  const RungEvaluation& e = a.ladder[a.article_rung];
  if (e.gpu)
    j.beginObject().field("gpu", e.gpu->id).field("fits", e.fits).field("gpu_count", e.gpu_count)
        .field("sharding", e.plan.memory.sharding.label()).field("time_hours", finiteOr(e.plan.throughput.time_hours)).endObject();
  else
    j.null();
  j.field("note", note).endObject();
}

// A deadline no fitting option meets: which option comes closest, so that a missed deadline is never silent.
Message deadlineWarning(const Advice& a, const AdviceOptions& opt) {
  if (!(opt.deadline_hours > 0)) return Message();
  const RungEvaluation* fastest = nullptr;
  for (const auto& e : a.ladder) {
    if (!e.gpu || !e.fits || !(e.plan.throughput.time_hours > 0)) continue;
    if (e.plan.throughput.time_hours <= opt.deadline_hours) return Message();
    if (!fastest || e.plan.throughput.time_hours < fastest->plan.throughput.time_hours) fastest = &e;
  }
  if (!fastest) return Message("advise.deadline_missed").num("deadline_hours", opt.deadline_hours);
  return Message("advise.deadline_missed_fastest")
      .num("deadline_hours", opt.deadline_hours)
      .num("gpu_count", fastest->gpu_count)
      .text("gpu", fastest->gpu->id)
      .num("time_hours", fastest->plan.throughput.time_hours)
      .num("max_gpu_count", opt.max_gpus);
}

}  // namespace

std::string apiAdvise(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json req;
  if (!readRequest(text, req, issues)) return errorResult(issues);
  ObjectReader r(req, "", issues);
  if (!r.ok()) return errorResult(issues);
  AdviceOptions opt;
  readAdviceOptions(r, req, opt, issues);
  if (hasErrors(issues)) return errorResult(issues);
  opt.today_day = dayNumber(s.today);
  if (s.gpus.empty()) {
    issues.push_back({ErrorCode::kNotFound, "", Message("error.gpus_not_loaded")});
    return errorResult(issues);
  }
  const Advice a = gpuvalue::advise(opt, s.gpus, s.catalog);
  const Workload& w = a.workload;
  // Memory on one GPU of the article's class, without sharding: the numbers behind agree/disagree.
  const ArticleRung& art = kArticleLadder[a.article_rung];
  const GpuSpec* art_gpu = s.gpus.find(art.gpu_id);
  MemoryBreakdown one;
  if (art_gpu) one = estimateMemory(w, defaultCluster(*art_gpu, 1), Sharding{}, opt.constants);
  const Messages note = adviceNote(a, opt, one);
  const char* rule = a.article_rung == 0 ? "advise.rule_small" : a.article_rung == 1 ? "advise.rule_medium" : "advise.rule_large";
  const PricingModel stage_pricing = opt.stage == Stage::kExploration ? PricingModel::kSpot : PricingModel::kReserved;
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("params", opt.params).field("tokens", finiteOr(w.tokens))
      .field("tokens_source", Message(opt.tokens > 0 ? "advise.tokens_given" : "advise.tokens_chinchilla"))
      .field("stage", stageName(opt.stage)).field("mode", modeName(w.mode)).field("total_flops", finiteOr(w.totalFlops()));
  j.key("article").beginObject().field("gpu_class", a.article_rung == 2 ? "A100 80GB / H100" : art.label)
      .field("rule", Message(rule)).field("source", Message("source.article_s4_1")).endObject();
  j.key("memory_model");
  writeMemoryModel(j, a, one, note);
  j.key("stage_billing").beginObject().field("stage", stageName(opt.stage)).field("pricing", pricingModelName(stage_pricing))
      .field("why", Message(stageWhy(opt.stage))).endObject();
  j.key("recommendations").beginArray();
  auto recommend = [&](int rung, const char* role) {
    writeRecommendation(j, a.ladder[rung], role, recommendationReason(a.ladder[rung], role, note, w, opt.stage), s.today);
  };
  if (a.model_rung >= 0) {
    recommend(a.model_rung, "memory model");
    if (a.cheapest_rung >= 0 && a.cheapest_rung != a.model_rung) recommend(a.cheapest_rung, "cheapest");
    if (a.fastest_rung >= 0 && a.fastest_rung != a.model_rung && a.fastest_rung != a.cheapest_rung) recommend(a.fastest_rung, "fastest");
  }
  j.endArray().key("ladder").beginArray();
  for (const auto& e : a.ladder) writeLadderRung(j, e, s.today);
  j.endArray();
  j.key("assumptions").beginObject().field("precision", Message("advise.assume_precision"))
      .field("optimizer", Message("advise.assume_optimizer")).field("seq_len", opt.seq_len)
      .field("cluster", Message("advise.assume_cluster")).field("offers", Message("advise.assume_offers"))
      .endObject();
  j.key("warnings").beginArray();
  if (a.model_rung < 0)
    for (const auto& n : note) j.value(n);
  const Message late = deadlineWarning(a, opt);
  if (!late.empty()) j.value(late);
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
