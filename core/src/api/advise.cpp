// advise: GPU class, count and billing for a model size and training stage, set against the article's ladder
// (§4.1) and stage billing (§4.2). {"params", "tokens"?, "stage"?, "mode"?, "seq_len"?, "deadline_hours"?,
// "max_gpus"?, "spot"?, "constants"?}
#include "api/answer.hpp"
#include "api/request.hpp"
#include "io/request_fields.hpp"
#include "io/text_stream.hpp"

namespace gpuvalue {

namespace {

void readAdviceOptions(ObjectReader& r, const json& req, AdviceOptions& opt, Issues& issues) {
  opt.params = r.number("params", true, 0, true, 1e15).value_or(0);
  opt.tokens = r.number("tokens", false, 0, true, 1e18).value_or(0);
  if (auto s = r.string("stage", false))
    if (!parseStage(*s, opt.stage)) r.error("stage", ErrorCode::kInvalidValue, "must be exploration, tuning or production");
  if (auto m = r.string("mode", false)) {
    if (*m == "pretrain") opt.mode = Mode::kPretrain;
    else if (*m == "finetune") opt.mode = Mode::kFinetune;
    else if (*m == "lora") opt.mode = Mode::kLora;
    else r.error("mode", ErrorCode::kInvalidValue, "must be pretrain, finetune or lora");
  }
  if (opt.mode != Mode::kPretrain && !r.has("tokens"))
    r.error("tokens", ErrorCode::kMissingField, "is required for fine-tuning (20 tokens per parameter is a pre-training rule)");
  opt.seq_len = r.number("seq_len", false, 1, false, 1e7).value_or(opt.seq_len);
  opt.deadline_hours = r.number("deadline_hours", false, 0, false, 1e7).value_or(0);
  opt.max_gpus = static_cast<int>(r.integer("max_gpus", false, 8, 65536).value_or(opt.max_gpus));
  readSpotOptions(req, opt.spot, issues);
  readConstantsField(req, opt.constants, issues);
}

// Why the memory model agrees or disagrees with the article's class, with the unsharded memory numbers
// (`one`: one GPU of the article's class, no sharding).
std::string adviceNote(const Advice& a, const AdviceOptions& opt, const GpuSpec* art_gpu, const MemoryBreakdown& one) {
  const ArticleRung& art = kArticleLadder[a.article_rung];
  if (a.model_rung < 0)
    return "Nothing on the article's ladder fits " + sci(opt.params) + " parameters within " + std::to_string(opt.max_gpus) +
           " GPUs per the memory model.";
  const double state_gb = one.weights_gb + one.gradients_gb + one.optimizer_gb;
  const RungEvaluation& m = a.ladder[a.model_rung];
  TextStream os;
  os << "The article puts " << sci(opt.params) << " parameters on " << (a.article_rung == 2 ? "A100 80GB or H100" : art.label)
     << "; the memory model ";
  if (a.agrees) os << "agrees on the class";
  else os << "DISAGREES: it picks " << kArticleLadder[a.model_rung].label;
  os << ". Unsharded, one " << (art_gpu ? art_gpu->name : art.label) << " would need " << fixed(one.required_gb, 1)
     << " GB (" << fixed(state_gb, 1) << " GB of weights, gradients and AdamW state + " << fixed(one.activations_gb, 1)
     << " GB activations + " << fixed(one.overhead_gb, 1) << " GB overhead) of " << fixed(one.available_gb, 1)
     << " GB usable";
  if (m.gpu_count == 1) {
    os << "; it fits on one " << m.gpu->name << " (" << fixed(m.plan.memory.required_gb, 1) << " of "
       << fixed(m.plan.memory.available_gb, 1) << " GB).";
  } else {
    os << "; the smallest fit is " << m.gpu_count << "× " << m.gpu->name << " with " << m.plan.memory.sharding.describe() << " ("
       << fixed(m.plan.memory.required_gb, 1) << " of " << fixed(m.plan.memory.available_gb, 1) << " GB per GPU"
       << (m.activation_checkpointing ? ", activation checkpointing" : "") << ").";
  }
  const RungEvaluation& ae = a.ladder[a.article_rung];
  if (!a.agrees && a.model_rung < a.article_rung) os << " The article's class is more GPU memory than this model needs.";
  if (!a.agrees && a.model_rung > a.article_rung && ae.gpu) {
    if (ae.fits)
      os << " The article's " << kArticleLadder[a.article_rung].label << " also works but needs " << ae.gpu_count << " GPUs ("
         << ae.plan.memory.sharding.describe() << ").";
    else
      os << " The article's " << kArticleLadder[a.article_rung].label << " does not fit within " << opt.max_gpus << " GPUs.";
  }
  return os.str();
}

const char* stageWhy(Stage stage) {
  switch (stage) {
    case Stage::kExploration:
      return "article §4.2: exploration -> elastic instances + spot billing (short, restartable experiments; "
             "checkpoint and accept interruptions)";
    case Stage::kTuning:
      return "article §4.2: tuning -> reserved instances + autoscaling (steady use for weeks; reserved pays off "
             "above its break-even utilisation, burst on on-demand)";
    case Stage::kProduction:
      return "article §4.2: production -> dedicated cluster + SLA (reserved, dedicated capacity; ask for the SLA)";
  }
  return "";
}

std::string recommendationReason(const RungEvaluation& e, const std::string& role, const std::string& note,
                                 const Workload& w, Stage stage) {
  const Throughput& t = e.plan.throughput;
  TextStream why;
  if (role == "memory model") why << note << " ";
  else if (role == "cheapest") why << "Cheapest job on the article's ladder under " << pricingModelName(e.pricing) << " billing. ";
  else why << "Fastest on the article's ladder at its smallest fitting size. ";
  why << "Time " << hoursText(t.time_hours) << " on " << gpuLabel(e.gpu_count, *e.gpu) << " at "
      << fixed(t.effective_tflops_per_gpu, 1) << " TFLOPS per GPU (" << sci(w.totalFlops()) << " FLOPs for "
      << sci(w.tokens) << " tokens).";
  if (e.offer.offer) {
    why << " " << stageName(stage) << " -> " << pricingModelName(e.pricing) << ": " << money(e.cost.cost_usd)
        << " on " << e.offer.instances << "× " << e.offer.offer->instance_type << " (" << e.offer.offer->provider
        << ", " << money(e.offer.usd_per_hour) << "/h)";
    if (e.on_demand.offer && e.on_demand_cost.cost_usd > 0 && e.pricing != PricingModel::kOnDemand)
      why << " vs " << money(e.on_demand_cost.cost_usd) << " on demand ("
          << pct(1.0 - e.cost.cost_usd / e.on_demand_cost.cost_usd, 0) << " less)";
    if (e.pricing == PricingModel::kSpot)
      why << "; about " << fixed(e.cost.expected_interruptions, 1) << " interruptions, checkpoint every "
          << fixed(e.cost.checkpoint_interval_hours, 1) << " h";
    if (e.pricing == PricingModel::kReserved && e.cost.break_even_utilisation > 0)
      why << "; reserved pays off above " << pct(e.cost.break_even_utilisation, 0) << " utilisation of the "
          << e.offer.price->term_months << "-month term";
    why << ".";
  } else {
    why << " No catalog offer with " << e.gpu->name << " can host " << e.gpu_count << " GPUs.";
  }
  if (!e.pricing_note.empty()) why << " " << e.pricing_note << ".";
  if (stage == Stage::kProduction && e.offer.offer && e.offer.offer->service.sla_pct <= 0)
    why << " The catalog records no SLA for this offer; ask the provider for one.";
  return why.str();
}

void writeRecommendation(JsonWriter& j, const RungEvaluation& e, const std::string& role, const std::string& reason,
                         const std::string& today) {
  const Throughput& t = e.plan.throughput;
  j.beginObject().field("role", role).field("gpu", e.gpu->id).field("gpu_name", e.gpu->name)
      .field("gpu_class", kArticleLadder[e.rung].label).field("gpu_count", e.gpu_count).field("nodes", e.nodes)
      .field("pricing", pricingModelName(e.pricing)).key("offer");
  writeOfferBrief(j, e.offer, today);
  j.field("time_hours", finiteOr(t.time_hours)).field("cost_usd", finiteOr(e.cost.cost_usd))
      .field("on_demand_cost_usd", finiteOr(e.on_demand_cost.cost_usd)).field("sharding", e.plan.memory.sharding.describe())
      .field("activation_checkpointing", e.activation_checkpointing).key("memory");
  writeMemory(j, e.plan.memory, MemoryDetail::kBrief);
  j.field("effective_tflops_per_gpu", finiteOr(t.effective_tflops_per_gpu)).field("reason", reason).endObject();
}

void writeLadderRung(JsonWriter& j, const RungEvaluation& e, const std::string& today) {
  j.beginObject().field("gpu_class", kArticleLadder[e.rung].label);
  if (!e.gpu) {
    j.field("gpu", kArticleLadder[e.rung].gpu_id).field("fits", false).field("note", "GPU not in the database").endObject();
    return;
  }
  j.field("gpu", e.gpu->id).field("fits", e.fits).field("gpu_count", e.gpu_count).field("nodes", e.nodes)
      .field("sharding", e.plan.memory.sharding.describe()).field("activation_checkpointing", e.activation_checkpointing)
      .key("memory");
  writeMemory(j, e.plan.memory, MemoryDetail::kBrief);
  j.field("time_hours", finiteOr(e.plan.throughput.time_hours)).field("pricing", pricingModelName(e.pricing)).key("offer");
  writeOfferBrief(j, e.offer, today);
  j.field("cost_usd", finiteOr(e.cost.cost_usd)).field("on_demand_cost_usd", finiteOr(e.on_demand_cost.cost_usd))
      .field("note", e.pricing_note).endObject();
}

// The memory model's pick, and how the article's own class fits (the 80 GB rung stands for ">10B").
void writeMemoryModel(JsonWriter& j, const Advice& a, const MemoryBreakdown& one, const std::string& note) {
  const bool any = a.model_rung >= 0;
  const RungEvaluation* m = any ? &a.ladder[a.model_rung] : nullptr;
  j.beginObject().field("gpu_class", any ? kArticleLadder[a.model_rung].label : "").field("gpu", any ? m->gpu->id : "")
      .field("gpu_count", any ? m->gpu_count : 0).field("sharding", any ? m->plan.memory.sharding.describe() : "")
      .field("agrees_with_article", a.agrees).field("single_gpu_required_gb", finiteOr(one.required_gb)).key("article_class_fit");
  const RungEvaluation& e = a.ladder[a.article_rung];
  if (e.gpu)
    j.beginObject().field("gpu", e.gpu->id).field("fits", e.fits).field("gpu_count", e.gpu_count)
        .field("sharding", e.plan.memory.sharding.describe()).field("time_hours", finiteOr(e.plan.throughput.time_hours)).endObject();
  else
    j.null();
  j.field("note", note).endObject();
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
    issues.push_back({ErrorCode::kNotFound, "", "load the GPU database first"});
    return errorResult(issues);
  }
  const Advice a = gpuvalue::advise(opt, s.gpus, s.catalog);
  const Workload& w = a.workload;
  // Memory on one GPU of the article's class, without sharding: the numbers behind agree/disagree.
  const ArticleRung& art = kArticleLadder[a.article_rung];
  const GpuSpec* art_gpu = s.gpus.find(art.gpu_id);
  MemoryBreakdown one;
  if (art_gpu) one = estimateMemory(w, defaultCluster(*art_gpu, 1), Sharding{}, opt.constants);
  const std::string note = adviceNote(a, opt, art_gpu, one);
  const char* rule = a.article_rung == 0   ? "< 100M parameters -> A10"
                     : a.article_rung == 1 ? "0.1-10B parameters -> A100 40GB"
                                           : "> 10B parameters -> A100 80GB or H100 cluster";
  const PricingModel stage_pricing = opt.stage == Stage::kExploration ? PricingModel::kSpot : PricingModel::kReserved;
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("params", opt.params).field("tokens", finiteOr(w.tokens))
      .field("tokens_source", opt.tokens > 0 ? "given" : "20 tokens per parameter (Hoffmann et al. 2022, compute-optimal)")
      .field("stage", stageName(opt.stage)).field("mode", modeName(w.mode)).field("total_flops", finiteOr(w.totalFlops()));
  j.key("article").beginObject().field("gpu_class", a.article_rung == 2 ? "A100 80GB or H100 cluster" : art.label)
      .field("rule", rule).field("source", "seed article §4.1 (model size)").endObject();
  j.key("memory_model");
  writeMemoryModel(j, a, one, note);
  j.key("stage_billing").beginObject().field("stage", stageName(opt.stage)).field("pricing", pricingModelName(stage_pricing))
      .field("why", stageWhy(opt.stage)).endObject();
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
  j.key("assumptions").beginObject().field("precision", "bf16 mixed precision (fp16 where the GPU has no bf16)")
      .field("optimizer", "AdamW, 16 bytes/param before sharding (ZeRO paper §3.1)").field("seq_len", opt.seq_len)
      .field("cluster", "8 GPUs per node; SXM on NVSwitch; 200 Gb/s RDMA per GPU across nodes (DGX user guides)")
      .field("offers", "cheapest catalog offer for the GPU and billing model; the article's GN7/GN8/GN10 examples excluded")
      .endObject();
  j.key("warnings").beginArray();
  if (a.model_rung < 0) j.value(note);
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
