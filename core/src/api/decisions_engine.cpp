// The Engine's JSON methods for the decision tools: read and validate the request (every problem with its JSON
// Pointer path), call the math in decisions.hpp / performance.hpp / pricing.hpp, and write the result with the
// numbers behind every recommendation. Run inside Engine's `guarded` (engine.cpp), so nothing throws out.
#include <algorithm>
#include <cmath>

#include "tools/decisions.hpp"
#include "io/text_stream.hpp"
#include "gpuvalue/engine.hpp"

namespace gpuvalue {

namespace {

double finiteOr(double v, double fallback = 0) { return std::isfinite(v) ? v : fallback; }

std::string fixed(double v, int precision) {
  TextStream os;
  os.fixed();
  os.precision(precision);
  os << finiteOr(v);
  return os.str();
}

std::string money(double v) { return "$" + fixed(v, std::fabs(v) < 100 ? 2 : 0); }
std::string pct(double fraction, int precision = 1) { return fixed(fraction * 100.0, precision) + " %"; }

std::string hoursText(double h) {
  if (h >= 48) return fixed(h / 24.0, 1) + " days";
  if (h < 1) return fixed(h * 60.0, 1) + " min";
  return fixed(h, 1) + " h";
}

std::string sci(double v) {
  TextStream os;
  os.precision(3);
  os << v;
  return os.str();
}

// AWS Spot Advisor interruption-frequency bucket ">20 %" per month, where 47 % of GPU pools sit (same source):
// taken at its lower edge, 20 % of instances interrupted per 730-hour month -> λ = −ln(1 − 0.20) / 730 per hour.
const double kSpotAdvisorOver20PctPerHour = -std::log(1.0 - 0.20) / kHoursPerMonth;
// The article's claims (seed-article.md): §4 case, §1 YOLOv7, §5 liquid cooling.
constexpr double kArticlePortfolioSaving = 0.58;
constexpr double kArticleYoloSpeedup = 2.3;
constexpr double kArticleYoloCostChange = -0.41;
constexpr double kArticleLiquidPue = 1.05;
constexpr double kArticleLiquidEnergySaving = 0.40;
// The article's AMP claim (§4.3): +30 % throughput.
constexpr double kArticleAmpGain = 1.30;

json memoryBrief(const MemoryBreakdown& m) {
  return {{"required_gb_per_gpu", finiteOr(m.required_gb)},
          {"available_gb_per_gpu", finiteOr(m.available_gb)},
          {"weights_gb", finiteOr(m.weights_gb)},
          {"gradients_gb", finiteOr(m.gradients_gb)},
          {"optimizer_gb", finiteOr(m.optimizer_gb)},
          {"activations_gb", finiteOr(m.activations_gb)},
          {"fits", m.fits},
          {"sharding", m.sharding.describe()}};
}

json offerBrief(const OfferChoice& c, const std::string& today) {
  if (!c.offer) return nullptr;
  return {{"stale", !staleWarning(*c.price, today).empty()},
          {"id", c.offer->id},
          {"instance", c.offer->instance_type},
          {"provider", c.offer->provider},
          {"region", c.offer->region},
          {"instances", c.instances},
          {"usd_per_hour", finiteOr(c.usd_per_hour)},
          {"as_of", c.price->as_of},
          {"source", c.price->source}};
}

std::string gpuLabel(int count, const GpuSpec& g) { return std::to_string(count) + "× " + g.name; }

// Single-GPU roofline TFLOPS of a GPU for generic mixed-precision work (custom workload class), used to compare
// small jobs across GPUs.
double genericTflops(const GpuSpec& g, const ModelConstants& k) {
  Workload w;
  w.kind = WorkloadKind::kCustom;
  w.precision = Precision::kFp16;
  w.total_flops = 1e15;
  Cluster c = defaultCluster(g, 1);
  return estimateThroughput(w, c, Sharding{}, k).single_gpu_tflops;
}

}  // namespace

const Offer* Engine::findOffer(const std::string& id, int& matches) const {
  const Offer* found = nullptr;
  matches = 0;
  for (const auto& o : catalog_.offers) {
    if (o.id == id) {
      matches = 1;
      return &o;
    }
    if (o.instance_type == id) {
      if (!found) found = &o;
      ++matches;
    }
  }
  return found;
}

// =============================================================================================================
// advise
// =============================================================================================================

std::string Engine::adviseImpl(const std::string& text) const {
  Issues issues;
  json req;
  if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
  ObjectReader r(req, "", issues);
  if (!r.ok()) return errorResult(issues);
  AdviceOptions opt;
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
  readSpotField(req, opt.spot, issues);
  readConstantsField(req, opt.constants, issues);
  if (hasErrors(issues)) return errorResult(issues);
  if (gpus_.empty()) {
    issues.push_back({ErrorCode::kNotFound, "", "load the GPU database first"});
    return errorResult(issues);
  }

  Advice a = gpuvalue::advise(opt, gpus_, catalog_);
  const Workload& w = a.workload;
  json warnings = json::array();

  // Memory on one GPU of the article's class, without sharding: the numbers behind agree/disagree.
  const ArticleRung& art = kArticleLadder[a.article_rung];
  const GpuSpec* art_gpu = gpus_.find(art.gpu_id);
  MemoryBreakdown one;
  if (art_gpu) one = estimateMemory(w, defaultCluster(*art_gpu, 1), Sharding{}, opt.constants);
  const double state_gb = one.weights_gb + one.gradients_gb + one.optimizer_gb;

  std::string rule = a.article_rung == 0   ? "< 100M parameters -> A10"
                     : a.article_rung == 1 ? "0.1-10B parameters -> A100 40GB"
                                           : "> 10B parameters -> A100 80GB or H100 cluster";
  std::string note;
  if (a.model_rung < 0) {
    note = "Nothing on the article's ladder fits " + sci(opt.params) + " parameters within " +
           std::to_string(opt.max_gpus) + " GPUs per the memory model.";
    warnings.push_back(note);
  } else {
    const RungEvaluation& m = a.ladder[a.model_rung];
    const std::string shard = m.plan.memory.sharding.describe();
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
      os << "; the smallest fit is " << m.gpu_count << "× " << m.gpu->name << " with " << shard << " ("
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
    note = os.str();
  }

  // How the article's own class fits (the 80 GB rung stands for ">10B").
  json article_fit = nullptr;
  {
    const RungEvaluation& e = a.ladder[a.article_rung];
    if (e.gpu)
      article_fit = {{"gpu", e.gpu->id}, {"fits", e.fits}, {"gpu_count", e.gpu_count},
                     {"sharding", e.plan.memory.sharding.describe()}, {"time_hours", finiteOr(e.plan.throughput.time_hours)}};
  }
  const PricingModel stage_pricing = opt.stage == Stage::kExploration ? PricingModel::kSpot : PricingModel::kReserved;
  std::string stage_why;
  switch (opt.stage) {
    case Stage::kExploration:
      stage_why = "article §4.2: exploration -> elastic instances + spot billing (short, restartable experiments; "
                  "checkpoint and accept interruptions)";
      break;
    case Stage::kTuning:
      stage_why = "article §4.2: tuning -> reserved instances + autoscaling (steady use for weeks; reserved pays off "
                  "above its break-even utilisation, burst on on-demand)";
      break;
    case Stage::kProduction:
      stage_why = "article §4.2: production -> dedicated cluster + SLA (reserved, dedicated capacity; ask for the SLA)";
      break;
  }

  auto recommendation = [&](int rung, const std::string& role) {
    const RungEvaluation& e = a.ladder[rung];
    const Throughput& t = e.plan.throughput;
    TextStream why;
    if (role == "memory model") why << note << " ";
    else if (role == "cheapest") why << "Cheapest job on the article's ladder under " << pricingModelName(e.pricing) << " billing. ";
    else why << "Fastest on the article's ladder at its smallest fitting size. ";
    why << "Time " << hoursText(t.time_hours) << " on " << gpuLabel(e.gpu_count, *e.gpu) << " at "
        << fixed(t.effective_tflops_per_gpu, 1) << " TFLOPS per GPU (" << sci(w.totalFlops()) << " FLOPs for "
        << sci(w.tokens) << " tokens).";
    if (e.offer.offer) {
      why << " " << stageName(opt.stage) << " -> " << pricingModelName(e.pricing) << ": " << money(e.cost.cost_usd)
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
    if (opt.stage == Stage::kProduction && e.offer.offer && e.offer.offer->service.sla_pct <= 0)
      why << " The catalog records no SLA for this offer; ask the provider for one.";
    return json{{"role", role},
                {"gpu", e.gpu->id},
                {"gpu_name", e.gpu->name},
                {"gpu_class", kArticleLadder[rung].label},
                {"gpu_count", e.gpu_count},
                {"nodes", e.nodes},
                {"pricing", pricingModelName(e.pricing)},
                {"offer", offerBrief(e.offer, today_)},
                {"time_hours", finiteOr(t.time_hours)},
                {"cost_usd", finiteOr(e.cost.cost_usd)},
                {"on_demand_cost_usd", finiteOr(e.on_demand_cost.cost_usd)},
                {"sharding", e.plan.memory.sharding.describe()},
                {"activation_checkpointing", e.activation_checkpointing},
                {"memory", memoryBrief(e.plan.memory)},
                {"effective_tflops_per_gpu", finiteOr(t.effective_tflops_per_gpu)},
                {"reason", why.str()}};
  };

  json recs = json::array();
  if (a.model_rung >= 0) {
    recs.push_back(recommendation(a.model_rung, "memory model"));
    if (a.cheapest_rung >= 0 && a.cheapest_rung != a.model_rung) recs.push_back(recommendation(a.cheapest_rung, "cheapest"));
    if (a.fastest_rung >= 0 && a.fastest_rung != a.model_rung && a.fastest_rung != a.cheapest_rung)
      recs.push_back(recommendation(a.fastest_rung, "fastest"));
  }

  json ladder = json::array();
  for (const auto& e : a.ladder) {
    if (!e.gpu) {
      ladder.push_back({{"gpu_class", kArticleLadder[e.rung].label}, {"gpu", kArticleLadder[e.rung].gpu_id}, {"fits", false},
                        {"note", "GPU not in the database"}});
      continue;
    }
    ladder.push_back({{"gpu_class", kArticleLadder[e.rung].label},
                      {"gpu", e.gpu->id},
                      {"fits", e.fits},
                      {"gpu_count", e.gpu_count},
                      {"nodes", e.nodes},
                      {"sharding", e.plan.memory.sharding.describe()},
                      {"activation_checkpointing", e.activation_checkpointing},
                      {"memory", memoryBrief(e.plan.memory)},
                      {"time_hours", finiteOr(e.plan.throughput.time_hours)},
                      {"pricing", pricingModelName(e.pricing)},
                      {"offer", offerBrief(e.offer, today_)},
                      {"cost_usd", finiteOr(e.cost.cost_usd)},
                      {"on_demand_cost_usd", finiteOr(e.on_demand_cost.cost_usd)},
                      {"note", e.pricing_note}});
  }
  json out = {{"ok", true},
              {"params", opt.params},
              {"tokens", finiteOr(w.tokens)},
              {"tokens_source", opt.tokens > 0 ? "given" : "20 tokens per parameter (Hoffmann et al. 2022, compute-optimal)"},
              {"stage", stageName(opt.stage)},
              {"mode", modeName(w.mode)},
              {"total_flops", finiteOr(w.totalFlops())},
              {"article", {{"gpu_class", a.article_rung == 2 ? "A100 80GB or H100 cluster" : art.label},
                           {"rule", rule},
                           {"source", "seed article §4.1 (model size)"}}},
              {"memory_model", {{"gpu_class", a.model_rung >= 0 ? kArticleLadder[a.model_rung].label : ""},
                                {"gpu", a.model_rung >= 0 ? a.ladder[a.model_rung].gpu->id : ""},
                                {"gpu_count", a.model_rung >= 0 ? a.ladder[a.model_rung].gpu_count : 0},
                                {"sharding", a.model_rung >= 0 ? a.ladder[a.model_rung].plan.memory.sharding.describe() : ""},
                                {"agrees_with_article", a.agrees},
                                {"single_gpu_required_gb", finiteOr(one.required_gb)},
                                {"article_class_fit", article_fit},
                                {"note", note}}},
              {"stage_billing", {{"stage", stageName(opt.stage)}, {"pricing", pricingModelName(stage_pricing)}, {"why", stage_why}}},
              {"recommendations", recs},
              {"ladder", ladder},
              {"assumptions", {{"precision", "bf16 mixed precision (fp16 where the GPU has no bf16)"},
                               {"optimizer", "AdamW, 16 bytes/param before sharding (ZeRO paper §3.1)"},
                               {"seq_len", opt.seq_len},
                               {"cluster", "8 GPUs per node; SXM on NVSwitch; 200 Gb/s RDMA per GPU across nodes (DGX user guides)"},
                               {"offers", "cheapest catalog offer for the GPU and billing model; the article's GN7/GN8/GN10 examples excluded"}}},
              {"warnings", warnings}};
  return dumpJson(out);
}

// =============================================================================================================
// plan
// =============================================================================================================

namespace {

json assumption(const json& value, const std::string& source) { return {{"value", value}, {"source", source}}; }

json portfolioJson(const PortfolioResult& p) {
  const double t = p.total_hours > 0 ? p.total_hours : 1;
  json monthly = json::array();
  for (double c : p.monthly_cost_usd) monthly.push_back(finiteOr(c));
  // Shares of the useful GPU-hours; rounding noise below 1e-9 is shown as 0.
  auto share = [&](double h) { const double v = finiteOr(h / t); return std::fabs(v) < 1e-9 ? 0.0 : v; };
  return {{"mix", {{"reserved", share(p.reserved_hours)}, {"on_demand", share(p.on_demand_hours)}, {"spot", share(p.spot_hours)}}},
          {"reserved_gpus", finiteOr(p.reserved_gpus)},
          {"spot_share_of_interruptible", finiteOr(p.spot_share_of_flexible)},
          {"reserved_utilisation", finiteOr(p.reserved_utilisation)},
          {"annual_cost_usd", finiteOr(p.annual_cost_usd)},
          {"on_demand_only_cost_usd", finiteOr(p.on_demand_only_cost_usd)},
          {"saving", finiteOr(p.saving)},
          {"completion_rate", finiteOr(p.completion_rate)},
          {"cost_breakdown_usd", {{"reserved", finiteOr(p.reserved_cost_usd)}, {"on_demand", finiteOr(p.on_demand_cost_usd)}, {"spot", finiteOr(p.spot_cost_usd)}}},
          {"gpu_hours", {{"reserved", finiteOr(p.reserved_hours)}, {"on_demand", finiteOr(p.on_demand_hours)}, {"spot", finiteOr(p.spot_hours)}, {"total", finiteOr(p.total_hours)}}},
          {"spot_model", {{"paid_hours_per_useful_hour", finiteOr(p.spot_overhead)}, {"task_completion", finiteOr(p.spot_task_completion)}}},
          {"monthly_cost_usd", monthly}};
}

std::string mixText(const PortfolioResult& p) {
  const double t = p.total_hours > 0 ? p.total_hours : 1;
  return pct(p.reserved_hours / t, 0) + " reserved, " + pct(p.on_demand_hours / t, 0) + " on-demand, " +
         pct(p.spot_hours / t, 0) + " spot";
}

}  // namespace

std::string Engine::planImpl(const std::string& text) const {
  Issues issues;
  json req;
  if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
  ObjectReader r(req, "", issues);
  if (!r.ok()) return errorResult(issues);
  PlanInputs in;
  json assumptions = json::object();
  const bool example = r.has("example");
  if (example) {
    const std::string name = r.string("example", true).value_or("");
    if (name != "article") {
      r.error("example", ErrorCode::kInvalidValue, "the only example is \"article\"");
      return errorResult(issues);
    }
    // The article's start-up (§4): 30 % spot + 70 % reserved, "58 % lower yearly GPU cost, 98.7 % task completion".
    // It gives no demand, no GPU and no prices; what follows fills those in, each with its source.
    int matches = 0;
    const Offer* o = findOffer(kArticlePlanInstance, matches);
    const Price* od = o ? o->price(PricingModel::kOnDemand) : nullptr;
    const Price* rv = o ? o->price(PricingModel::kReserved) : nullptr;
    if (!o || !od || !rv) {
      issues.push_back({ErrorCode::kNotFound, "/example", "the example needs aws-p4d.24xlarge-us-east-1 with on-demand and reserved prices in the catalog"});
      return errorResult(issues);
    }
    const double gpus = kArticlePlanGpus;
    in.monthly_gpu_hours.assign(12, gpus * kHoursPerMonth);
    in.peak_gpus.assign(12, gpus);
    in.interruptible_fraction = kArticleSpotShare;
    in.target_completion_rate = kArticleCompletionRate;
    in.on_demand_usd_per_gpu_hour = od->usd_per_hour / o->gpu_count;
    in.reserved_usd_per_gpu_hour = rv->usd_per_hour / o->gpu_count;
    in.spot_usd_per_gpu_hour = in.on_demand_usd_per_gpu_hour * (1.0 - kMedianSpotDiscount);
    in.interruptions_per_hour = kSpotAdvisorOver20PctPerHour;
    in.task_hours = kArticlePlanTaskHours;
    in.deadline_factor = 1.5;
    in.reserved_granularity_gpus = o->gpu_count;
    assumptions["demand"] = assumption("80 A100 GPUs (10 × p4d.24xlarge) busy around the clock every month: 12 × 58,400 GPU-hours, peak 80",
                                       "assumption: the article gives no demand profile; flat demand is the most favourable case for reserved capacity");
    assumptions["gpu"] = assumption("a100-sxm4-40gb (AWS p4d.24xlarge, 8 GPUs)", "assumption: the article names no GPU; p4d is the catalog offer with both on-demand and 1-year reserved prices for A100");
    assumptions["interruptible_fraction"] = assumption(in.interruptible_fraction, "assumption: the article's 30 % spot share taken as the share of work that tolerates interruption");
    assumptions["target_completion_rate"] = assumption(in.target_completion_rate, "the article's reported task completion rate (§4)");
    assumptions["on_demand_usd_per_gpu_hour"] = assumption(in.on_demand_usd_per_gpu_hour,
        o->id + " on-demand $" + fixed(od->usd_per_hour, 6) + "/h ÷ 8 GPUs, as of " + od->as_of + ", " + od->source);
    assumptions["reserved_usd_per_gpu_hour"] = assumption(in.reserved_usd_per_gpu_hour,
        o->id + " " + std::to_string(rv->term_months) + "-month reserved (" + (rv->upfront.empty() ? "none" : rv->upfront) + " upfront) $" +
        fixed(rv->usd_per_hour, 6) + "/h ÷ 8 GPUs, as of " + rv->as_of + ", " + rv->source);
    assumptions["spot_usd_per_gpu_hour"] = assumption(in.spot_usd_per_gpu_hour,
        "on-demand × (1 − 0.66): median AWS Spot saving over 540 GPU pools, spotinfo snapshot 2025-06-28 (seed-claims-check.md row l)");
    assumptions["interruptions_per_hour"] = assumption(in.interruptions_per_hour,
        "AWS Spot Advisor '>20 %' monthly interruption bucket (47 % of GPU pools, seed-claims-check.md row l) at its lower edge: −ln(1 − 0.20) / 730 h");
    assumptions["checkpoint_write_hours"] = assumption(in.checkpoint_write_hours, "engine SpotOptions default (assumption, pricing.hpp)");
    assumptions["restart_hours"] = assumption(in.restart_hours, "engine SpotOptions default (assumption, pricing.hpp)");
    assumptions["task_hours"] = assumption(in.task_hours, "assumption (not sourced): one spot task is an 8-hour job on one node");
    assumptions["deadline_factor"] = assumption(in.deadline_factor, "assumption (not sourced): a spot task that takes over 1.5× its length counts as not completed");
    assumptions["reserved_granularity_gpus"] = assumption(in.reserved_granularity_gpus, "a p4d.24xlarge reservation is a whole 8-GPU instance");
  } else {
    const json* dj = r.get("demand");
    if (!dj) {
      r.error("demand", ErrorCode::kMissingField, "give \"example\": \"article\" or a \"demand\" object");
      return errorResult(issues);
    }
    ObjectReader d(*dj, "/demand", issues);
    if (!d.ok()) return errorResult(issues);
    const json* months = d.get("monthly_gpu_hours");
    if (!months || !months->is_array() || months->size() != 12) {
      d.error("monthly_gpu_hours", months ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, "must be an array of 12 GPU-hour numbers (one per month)");
    } else {
      for (size_t i = 0; i < 12; ++i) {
        const json& v = (*months)[i];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 || v.get<double>() > 1e9)
          issues.push_back({ErrorCode::kInvalidValue, "/demand/monthly_gpu_hours/" + std::to_string(i), "must be a finite number >= 0 and <= 1e9"});
        else in.monthly_gpu_hours.push_back(v.get<double>());
      }
    }
    if (const json* pk = d.get("peak_gpus")) {
      if (pk->is_number()) {
        if (auto v = d.number("peak_gpus", false, 0, false, 1e6)) in.peak_gpus.assign(12, *v);
      } else if (pk->is_array() && pk->size() == 12) {
        for (size_t i = 0; i < 12; ++i) {
          const json& v = (*pk)[i];
          if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 || v.get<double>() > 1e6)
            issues.push_back({ErrorCode::kInvalidValue, "/demand/peak_gpus/" + std::to_string(i), "must be a finite number >= 0 and <= 1e6"});
          else in.peak_gpus.push_back(v.get<double>());
        }
      } else {
        d.error("peak_gpus", ErrorCode::kInvalidValue, "must be a number or an array of 12 numbers");
      }
    }
    in.interruptible_fraction = d.number("interruptible_fraction", true, 0, false, 1).value_or(0);
    in.target_completion_rate = d.number("target_completion_rate", true, 0, false, 1).value_or(0);
    in.reserved_granularity_gpus = d.number("reserved_granularity_gpus", false, 0, true, 1e5).value_or(1);
    // Prices: an instance from the catalog, explicit prices, or both (explicit wins).
    double od = 0, rv = 0, sp = 0;
    std::string od_src, rv_src, sp_src;
    if (auto id = d.string("instance", false)) {
      int matches = 0;
      const Offer* o = findOffer(*id, matches);
      if (!o) d.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + *id + "\"");
      else {
        const double n = std::max(1, o->gpu_count);
        if (const Price* p = o->price(PricingModel::kOnDemand)) od = p->usd_per_hour / n, od_src = o->id + " on-demand ÷ " + std::to_string(o->gpu_count) + " GPUs, as of " + p->as_of + ", " + p->source;
        if (const Price* p = o->price(PricingModel::kReserved)) rv = p->usd_per_hour / n, rv_src = o->id + " reserved ÷ " + std::to_string(o->gpu_count) + " GPUs, as of " + p->as_of + ", " + p->source;
        if (const Price* p = o->price(PricingModel::kSpot)) {
          sp = p->usd_per_hour / n, sp_src = o->id + " spot ÷ " + std::to_string(o->gpu_count) + " GPUs, as of " + p->as_of + ", " + p->source;
          if (p->interruption_per_hour >= 0) in.interruptions_per_hour = p->interruption_per_hour;
        }
      }
    }
    if (const json* pj = d.get("prices")) {
      ObjectReader pr(*pj, "/demand/prices", issues);
      if (pr.ok()) {
        if (auto v = pr.number("on_demand_usd_per_gpu_hour", false, 0, true, 1e4)) od = *v, od_src = "given";
        if (auto v = pr.number("reserved_usd_per_gpu_hour", false, 0, true, 1e4)) rv = *v, rv_src = "given";
        if (auto v = pr.number("spot_usd_per_gpu_hour", false, 0, true, 1e4)) sp = *v, sp_src = "given";
      }
    }
    if (!(od > 0)) d.error("prices", ErrorCode::kMissingField, "need an on-demand price: an \"instance\" with one, or prices.on_demand_usd_per_gpu_hour");
    if (!(rv > 0)) d.error("prices", ErrorCode::kMissingField, "need a reserved price: an \"instance\" with one, or prices.reserved_usd_per_gpu_hour (no sourced default exists)");
    if (!(sp > 0) && od > 0) {
      sp = od * (1.0 - kMedianSpotDiscount);
      sp_src = "estimated: on-demand × (1 − 0.66), the median AWS Spot saving over 540 GPU pools (seed-claims-check.md row l)";
    }
    in.on_demand_usd_per_gpu_hour = od;
    in.reserved_usd_per_gpu_hour = rv;
    in.spot_usd_per_gpu_hour = sp;
    std::string lambda_src = "engine default: one reclaim per node-day (pricing.hpp SpotOptions)";
    if (const json* sj = d.get("spot")) {
      ObjectReader s(*sj, "/demand/spot", issues);
      if (s.ok()) {
        if (auto v = s.number("interruptions_per_hour", false, 0, false, 10)) in.interruptions_per_hour = *v, lambda_src = "given";
        in.checkpoint_write_hours = s.number("checkpoint_write_hours", false, 0, false, 100).value_or(in.checkpoint_write_hours);
        in.restart_hours = s.number("restart_hours", false, 0, false, 100).value_or(in.restart_hours);
        in.task_hours = s.number("task_hours", false, 0, true, 1e5).value_or(in.task_hours);
        in.deadline_factor = s.number("deadline_factor", false, 1, false, 1e3).value_or(in.deadline_factor);
      }
    }
    assumptions["on_demand_usd_per_gpu_hour"] = assumption(od, od_src);
    assumptions["reserved_usd_per_gpu_hour"] = assumption(rv, rv_src);
    assumptions["spot_usd_per_gpu_hour"] = assumption(sp, sp_src);
    assumptions["interruptions_per_hour"] = assumption(in.interruptions_per_hour, lambda_src);
    assumptions["checkpoint_write_hours"] = assumption(in.checkpoint_write_hours, "given or engine default (assumption, pricing.hpp)");
    assumptions["restart_hours"] = assumption(in.restart_hours, "given or engine default (assumption, pricing.hpp)");
    assumptions["task_hours"] = assumption(in.task_hours, "given or default 8 h (assumption, not sourced)");
    assumptions["deadline_factor"] = assumption(in.deadline_factor, "given or default 1.5 (assumption, not sourced)");
    assumptions["interruptible_fraction"] = assumption(in.interruptible_fraction, "given");
    assumptions["target_completion_rate"] = assumption(in.target_completion_rate, "given");
    assumptions["reserved_granularity_gpus"] = assumption(in.reserved_granularity_gpus, "given or default 1");
  }
  if (hasErrors(issues)) return errorResult(issues);
  assumptions["load_shape"] = assumption("linear load-duration curve within each month, fixed by the mean and the peak",
                                         "model assumption (planner.cpp expectedServed)");
  assumptions["not_modelled"] = assumption("spot capacity shortages, on-demand stock-outs, price changes within the year, idle reserved hours that could be resold",
                                           "model scope");

  PortfolioResult best = optimisePortfolio(in);
  json out = portfolioJson(best);
  out["ok"] = true;
  out["assumptions"] = assumptions;
  out["target_completion_rate"] = in.target_completion_rate;
  json findings = json::array();
  findings.push_back("Cheapest mix meeting " + pct(in.target_completion_rate) + " completion: " + mixText(best) + " (" +
                     fixed(best.reserved_gpus, 1) + " reserved GPUs, " + pct(best.reserved_utilisation, 0) +
                     " used); " + money(best.annual_cost_usd) + " a year vs " + money(best.on_demand_only_cost_usd) +
                     " all on-demand: " + pct(best.saving) + " saved, completion " + pct(best.completion_rate, 2) + ".");
  if (example) {
    out["example"] = "article";
    PortfolioResult article = optimisePortfolio(in, kArticleSpotShare);
    // Reserved rate the article's mix would need for a 58 % saving: R·8760·r + OD + spot = (1 − 0.58)·on-demand only.
    const double paid_hours = article.reserved_gpus * kHoursPerYear;
    const double needed_rv = paid_hours > 0 ? ((1.0 - kArticlePortfolioSaving) * article.on_demand_only_cost_usd -
                                               article.on_demand_cost_usd - article.spot_cost_usd) / paid_hours : 0;
    // Interruption rate at which the article's mix would complete only 98.7 % of tasks (bisection on λ).
    double lo = 0, hi = 10;
    for (int i = 0; i < 80; ++i) {
      PlanInputs t = in;
      t.interruptions_per_hour = (lo + hi) / 2;
      PortfolioResult e = evaluatePortfolio(t, article.reserved_gpus, article.spot_share_of_flexible);
      if (e.completion_rate > kArticleCompletionRate) lo = t.interruptions_per_hour;
      else hi = t.interruptions_per_hour;
    }
    PlanInputs daily = in;
    daily.interruptions_per_hour = SpotOptions().interruptions_per_node_hour;
    PortfolioResult article_daily = evaluatePortfolio(daily, article.reserved_gpus, article.spot_share_of_flexible);
    PortfolioResult best_daily = optimisePortfolio(daily);
    json am = portfolioJson(article);
    am["description"] = "the article's mix: 30 % of the work on spot, the rest on reserved capacity sized at the cheapest level";
    out["article_mix"] = am;
    out["article_claim"] = {{"saving", kArticlePortfolioSaving},
                            {"completion_rate", kArticleCompletionRate},
                            {"mix", {{"reserved", 0.70}, {"on_demand", 0.0}, {"spot", kArticleSpotShare}}},
                            {"source", "seed article §4: an AI start-up mixing 30 % spot and 70 % reserved instances cut its yearly GPU cost by 58 % at a 98.7 % task completion rate"}};
    out["reserved_rate_needed_for_claim_usd_per_gpu_hour"] = finiteOr(needed_rv);
    out["reserved_rate_needed_for_claim_share_of_on_demand"] = finiteOr(needed_rv / in.on_demand_usd_per_gpu_hour);
    out["interruptions_per_hour_for_claimed_completion"] = finiteOr(hi);
    out["sensitivity"] = json::array({{{"case", "interruptions at the engine default, one per node-day (1/24 per hour)"},
                                       {"article_mix_completion_rate", finiteOr(article_daily.completion_rate)},
                                       {"article_mix_saving", finiteOr(article_daily.saving)},
                                       {"best", portfolioJson(best_daily)}}});
    findings.push_back("The article's mix (" + mixText(article) + ") saves " + pct(article.saving) + " at completion " +
                       pct(article.completion_rate, 2) + " with these prices; the article claims 58 % and 98.7 %. The model "
                       + (std::fabs(article.saving - kArticlePortfolioSaving) < 0.02 ? "agrees on the saving." : "DISAGREES on the saving."));
    findings.push_back("A 58 % saving with that mix needs reserved capacity at " + money(needed_rv) + " per GPU-hour (" +
                       pct(needed_rv / in.on_demand_usd_per_gpu_hour, 0) + " of on-demand); the 1-year p4d reservation is " +
                       pct(in.reserved_usd_per_gpu_hour / in.on_demand_usd_per_gpu_hour, 0) + " of on-demand.");
    findings.push_back("Completion falls to 98.7 % only at about " + sci(hi) + " interruptions per node-hour (one per " +
                       fixed(1.0 / hi, 1) + " h); at the Spot Advisor '>20 %/month' rate the model gives " +
                       pct(article.completion_rate, 2) + ", at one per node-day " + pct(article_daily.completion_rate, 2) + ".");
  }
  out["findings"] = findings;
  return dumpJson(out);
}

// =============================================================================================================
// mig
// =============================================================================================================

std::string Engine::migImpl(const std::string& text) const {
  Issues issues;
  json req;
  if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
  ObjectReader r(req, "", issues);
  if (!r.ok()) return errorResult(issues);
  const GpuSpec* g = gpuField(r);
  if (g && g->mig_profiles.empty())
    r.error("gpu", ErrorCode::kInvalidValue, g->name + " has no MIG profiles (MIG GPUs: A100, H100, H200, B200, GB200)");
  std::vector<MigJob> jobs;
  const json* jj = r.get("jobs");
  if (!jj) r.error("jobs", ErrorCode::kMissingField, "is required: a spec like \"7x8gb\" or an array of {count, memory_gb}");
  else if (jj->is_string()) {
    std::string err;
    if (!parseMigJobSpec(jj->get<std::string>(), jobs, err)) r.error("jobs", ErrorCode::kInvalidValue, err);
  } else if (jj->is_array()) {
    for (size_t i = 0; i < jj->size(); ++i) {
      ObjectReader jr((*jj)[i], "/jobs/" + std::to_string(i), issues);
      if (!jr.ok()) continue;
      const long long count = jr.integer("count", false, 1, 10000).value_or(1);
      MigJob job;
      job.memory_gb = jr.number("memory_gb", true, 0, true, 1e4).value_or(0);
      job.compute_share = jr.number("compute_share", false, 0, true, 1).value_or(job.compute_share);
      job.hours = jr.number("hours", false, 0, true, 1e6).value_or(job.hours);
      for (long long k = 0; k < count && jobs.size() <= 10000; ++k) jobs.push_back(job);
    }
    if (jobs.size() > 10000) r.error("jobs", ErrorCode::kInvalidValue, "at most 10000 jobs");
  } else {
    r.error("jobs", ErrorCode::kInvalidValue, "must be a spec string or an array of {count, memory_gb, compute_share?, hours?}");
  }
  if (!hasErrors(issues) && jobs.empty()) r.error("jobs", ErrorCode::kInvalidValue, "has no jobs");
  ModelConstants k;
  readConstantsField(req, k, issues);
  if (hasErrors(issues)) return errorResult(issues);

  MigPacking pack = packMig(*g, jobs);
  json warnings = json::array();
  json assignments = json::array();
  for (const auto& p : pack.placements) {
    const MigProfile& prof = g->mig_profiles[p.profile];
    const MigJob& job = jobs[p.job];
    assignments.push_back({{"job", p.job},
                           {"memory_gb", job.memory_gb},
                           {"compute_share", finiteOr(job.compute_share)},
                           {"hours", job.hours},
                           {"profile", prof.name},
                           {"gpu_index", p.gpu_index},
                           {"start_slice", p.start_slice},
                           {"memory_slices", migMemorySlices(*g, prof)},
                           {"compute_slices", prof.compute_slices}});
  }
  json layout = json::array();
  for (int gi = 0; gi < pack.gpus; ++gi) {
    json profiles = json::array();
    int compute = 0, memory = 0;
    for (const auto& p : pack.placements)
      if (p.gpu_index == gi) {
        const MigProfile& prof = g->mig_profiles[p.profile];
        profiles.push_back(prof.name);
        compute += prof.compute_slices;
        memory += migMemorySlices(*g, prof);
      }
    layout.push_back({{"gpu_index", gi}, {"profiles", profiles}, {"compute_slices_used", compute}, {"memory_slices_used", memory},
                      {"hours", pack.gpu_hours[static_cast<size_t>(gi)]}});
  }
  json unplaced = json::array();
  for (int j : pack.unplaced) {
    unplaced.push_back(j);
  }
  if (!pack.unplaced.empty())
    warnings.push_back(std::to_string(pack.unplaced.size()) + " job(s) need more memory or compute than any MIG profile of the " + g->name);

  // Cheapest on-demand rental for a list of per-GPU busy hours of one GPU type.
  struct Rent {
    const Offer* offer = nullptr;
    const Price* price = nullptr;
    double cost = 0;
  };
  auto cheapestRent = [&](const std::string& id, const std::vector<double>& gpu_hours) {
    Rent best;
    for (const Offer& o : catalog_.offers) {
      if (!o.gpu || o.gpu->id != id || o.example || o.gpu_count <= 0) continue;
      const Price* p = o.price(PricingModel::kOnDemand);
      if (!p || !(p->usd_per_hour > 0)) continue;
      const double c = rentGpusCost(o, *p, gpu_hours);
      if (!best.offer || c < best.cost) best = {&o, p, c};
    }
    return best;
  };
  auto rentJson = [&](const Rent& rent) -> json {
    if (!rent.offer) return nullptr;
    json j = {{"id", rent.offer->id}, {"instance", rent.offer->instance_type}, {"provider", rent.offer->provider},
              {"gpu_count", rent.offer->gpu_count}, {"usd_per_hour", rent.price->usd_per_hour}, {"as_of", rent.price->as_of},
              {"source", rent.price->source}};
    const std::string stale = staleWarning(*rent.price, today_);
    if (!stale.empty()) j["warning"] = stale;
    return j;
  };
  const size_t placed = pack.placements.size();
  Rent mig_rent = cheapestRent(g->id, pack.gpu_hours);
  const double mig_cost = mig_rent.cost;
  const double ref_tflops = genericTflops(*g, k);

  json alternatives = json::array();
  auto wholeGpus = [&](const std::string& id, const std::string& option) {
    const GpuSpec* a = gpus_.find(id);
    if (!a) return;
    const double alt_tflops = genericTflops(*a, k);
    std::vector<double> hours;
    size_t fit = 0;
    double slowest = 1;
    for (const MigJob& job : jobs) {
      if (job.memory_gb > a->memory_gb + 1e-9) continue;
      ++fit;
      // A job needing share s of the MIG GPU's compute runs slower where one whole GPU offers less than that.
      const double slow = alt_tflops > 0 ? std::max(1.0, job.compute_share * ref_tflops / alt_tflops) : 1;
      slowest = std::max(slowest, slow);
      hours.push_back(job.hours * slow);
    }
    Rent rent = cheapestRent(a->id, hours);
    json alt = {{"option", option},
                {"gpu", a->id},
                {"gpu_name", a->name},
                {"fits", fit == jobs.size()},
                {"jobs_that_fit", fit},
                {"gpus_needed", fit},
                {"slowdown", finiteOr(slowest)},
                {"offer", rentJson(rent)},
                {"cost_usd", rent.offer ? json(finiteOr(rent.cost)) : json(nullptr)},
                {"cost_per_job_usd", rent.offer && fit ? json(finiteOr(rent.cost / fit)) : json(nullptr)}};
    std::string note;
    if (fit < jobs.size()) note = std::to_string(jobs.size() - fit) + " job(s) exceed its " + fixed(a->memory_gb, 0) + " GB. ";
    if (!rent.offer) note += "No on-demand offer with this GPU in the catalog.";
    else if (slowest > 1 + 1e-9) note += "Jobs run up to " + fixed(slowest, 2) + "× longer than on their MIG slice (roofline TFLOPS " + fixed(alt_tflops, 1) + " vs " + fixed(ref_tflops, 1) + " × compute share).";
    alt["note"] = note;
    alternatives.push_back(alt);
  };
  wholeGpus("t4", "one whole T4 per job");
  wholeGpus("l4", "one whole L4 per job");
  wholeGpus("a10", "one whole A10 per job");
  wholeGpus(g->id, std::string("one whole ") + g->name + " per job (no MIG)");

  const double per_job = placed > 0 && mig_rent.offer ? mig_cost / static_cast<double>(placed) : 0;
  std::string cheapest = "mig";
  double cheapest_per_job = per_job;
  for (const auto& alt : alternatives)
    if (alt["fits"].get<bool>() && alt["cost_per_job_usd"].is_number() &&
        (cheapest_per_job <= 0 || alt["cost_per_job_usd"].get<double>() < cheapest_per_job)) {
      cheapest_per_job = alt["cost_per_job_usd"].get<double>();
      cheapest = alt["option"].get<std::string>();
    }
  if (!mig_rent.offer) warnings.push_back("no on-demand offer with " + g->name + " in the catalog: MIG cost unknown");
  json out = {{"ok", true},
              {"gpu", g->id},
              {"gpu_name", g->name},
              {"jobs", jobs.size()},
              {"fits", pack.fits},
              {"gpus_needed", pack.gpus},
              {"assignments", assignments},
              {"layout", layout},
              {"unplaced_jobs", unplaced},
              {"offer", rentJson(mig_rent)},
              {"cost_usd", mig_rent.offer ? json(finiteOr(mig_cost)) : json(nullptr)},
              {"cost_per_job_usd", mig_rent.offer && placed ? json(finiteOr(per_job)) : json(nullptr)},
              {"alternatives", alternatives},
              {"cheapest_option", cheapest},
              {"rules", "smallest profile with enough memory and compute slices (share × 7, rounded up); NVML placements "
                        "(start at a multiple of the profile's memory slices, first max_count starts); no overlapping "
                        "slices; compute slices <= 7; first-fit decreasing (NVIDIA MIG user guide; nvidia-smi mig -lgipp)"},
              {"pricing", "cheapest on-demand offer per GPU type; each instance billed for its longest job"},
              {"warnings", warnings}};
  return dumpJson(out);
}

// =============================================================================================================
// levers
// =============================================================================================================

namespace {

struct Outcome {
  bool ok = false;
  int gpus = 0, nodes = 0;
  std::string instance, precision, sharding;
  bool fits = false;
  double time_hours = 0, cost_usd = 0, usd_per_hour = 0, tflops_per_gpu = 0;
  std::string pricing;
};

json outcomeJson(const Outcome& o) {
  if (!o.ok) return nullptr;
  return {{"instance", o.instance}, {"gpu_count", o.gpus}, {"nodes", o.nodes}, {"precision", o.precision},
          {"sharding", o.sharding}, {"fits", o.fits}, {"pricing", o.pricing}, {"usd_per_hour", finiteOr(o.usd_per_hour)},
          {"time_hours", finiteOr(o.time_hours)}, {"cost_usd", finiteOr(o.cost_usd)},
          {"effective_tflops_per_gpu", finiteOr(o.tflops_per_gpu)}};
}

Outcome runOn(const Workload& w, const Offer& offer, int nodes, const Price& price, const SpotOptions& spot,
              const ModelConstants& k) {
  Outcome o;
  const Cluster c = offerCluster(offer, nodes);
  const ClusterPlan plan = planCluster(w, c, k);
  o.ok = plan.throughput.time_hours > 0;
  o.gpus = c.totalGpus();
  o.nodes = c.nodes;
  o.instance = offer.instance_type;
  o.precision = precisionName(trainingPrecision(w, *offer.gpu));
  o.sharding = plan.memory.sharding.describe();
  o.fits = plan.memory.fits && plan.throughput.supported;
  o.tflops_per_gpu = plan.throughput.effective_tflops_per_gpu;
  o.pricing = pricingModelName(price.model);
  o.usd_per_hour = price.headlineUsdPerHour() * c.nodes;
  if (o.ok) {
    const CostResult cr = priceJob(offer, price, plan.throughput.time_hours, c.nodes, spot);
    o.time_hours = cr.wall_hours;
    o.cost_usd = cr.cost_usd;
  }
  return o;
}

json lever(const std::string& name, bool applicable, const Outcome& before, const Outcome& after, const std::string& note,
           const std::string& source) {
  json j = {{"lever", name}, {"applicable", applicable}, {"note", note}, {"source", source},
            {"before", outcomeJson(before)}, {"after", applicable ? outcomeJson(after) : json(nullptr)}};
  if (applicable && before.ok && after.ok && after.time_hours > 0 && before.cost_usd > 0) {
    j["speedup"] = finiteOr(before.time_hours / after.time_hours);
    j["cost_ratio"] = finiteOr(after.cost_usd / before.cost_usd);
    j["saving_usd"] = finiteOr(before.cost_usd - after.cost_usd);
  }
  return j;
}

}  // namespace

std::string Engine::leversImpl(const std::string& text) const {
  Issues issues;
  json req;
  if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
  Workload w;
  if (!resolveWorkload(req, w, issues)) return errorResult(issues);
  ObjectReader r(req, "", issues);
  ModelConstants k;
  readConstantsField(req, k, issues);
  SpotOptions spot;
  readSpotField(req, spot, issues);
  const std::string id = r.string("instance", true).value_or("");
  const std::string pricing = r.string("pricing", false).value_or("on_demand");
  PricingModel model = PricingModel::kOnDemand;
  if (!parsePricingModel(pricing, model)) r.error("pricing", ErrorCode::kInvalidValue, "must be on_demand, reserved, spot, tiered or monthly");
  if (hasErrors(issues)) return errorResult(issues);
  int matches = 0;
  const Offer* offer = findOffer(id, matches);
  if (!offer || !offer->gpu) {
    r.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + id + "\"");
    return errorResult(issues);
  }
  const Price* price = offer->price(model);
  if (!price) {
    r.error("pricing", ErrorCode::kNotFound, "instance \"" + offer->id + "\" has no " + pricing + " price");
    return errorResult(issues);
  }
  const GpuSpec& g = *offer->gpu;
  const OfferPlan base_plan = planOnOffer(w, *offer, k);
  const Outcome base = runOn(w, *offer, base_plan.nodes, *price, spot, k);
  json warnings = offer->warnings;
  if (!base.fits) warnings.push_back("the workload does not fit on " + offer->instance_type + " even with sharding");
  if (matches > 1) warnings.push_back("instance type \"" + id + "\" is sold in several regions; used " + offer->id);
  json levers_out = json::array();

  // --- automatic mixed precision -----------------------------------------------------------------------------
  {
    Workload full = w, mixed = w;
    full.precision = g.peak(Precision::kTf32) > 0 ? Precision::kTf32 : Precision::kFp32;
    mixed.precision = g.peak(Precision::kBf16) > 0 ? Precision::kBf16 : Precision::kFp16;
    const bool currently_mixed = !(w.precision == Precision::kFp32 || w.precision == Precision::kTf32);
    if (currently_mixed) mixed = w;  // keep the user's fp8/bf16/fp16
    else full = w;
    const OfferPlan pf = planOnOffer(full, *offer, k), pm = planOnOffer(mixed, *offer, k);
    const Outcome before = runOn(full, *offer, pf.nodes, *price, spot, k);
    const Outcome after = runOn(mixed, *offer, pm.nodes, *price, spot, k);
    const double gain = before.ok && after.ok && after.time_hours > 0 ? before.time_hours / after.time_hours : 0;
    std::string note;
    if (currently_mixed)
      note = std::string("Already on ") + precisionName(trainingPrecision(w, g)) + "; without AMP (" +
             precisionName(trainingPrecision(full, g)) + ") it would take " + hoursText(before.time_hours) + ".";
    else
      note = std::string("Switch ") + precisionName(trainingPrecision(w, g)) + " -> " + precisionName(trainingPrecision(mixed, g)) + ".";
    note += " Throughput model: " + fixed(pf.plan.throughput.single_gpu_tflops, 1) + " -> " +
            fixed(pm.plan.throughput.single_gpu_tflops, 1) + " TFLOPS per GPU, " + fixed(gain, 2) +
            "× end to end; the article's fixed +30 % would be 1.30×.";
    json j = lever("mixed_precision", before.ok && after.ok, before, after, note,
                   "roofline throughput model (performance.hpp); article §4.3 claims +30 %; NVIDIA DLE measured AMP vs TF32 on A100 1.8-2.6× (seed-claims-check.md row j)");
    j["currently_mixed_precision"] = currently_mixed;
    j["article_gain"] = kArticleAmpGain;
    levers_out.push_back(j);
  }
  // --- spot --------------------------------------------------------------------------------------------------
  {
    const Price* sp = offer->price(PricingModel::kSpot);
    Price est;
    std::string note, source = "catalog spot price; interruptions, checkpoints and restarts per pricing.hpp (Young 1974)";
    bool estimated = false;
    if (model == PricingModel::kSpot) {
      levers_out.push_back(lever("spot", false, base, base, "already priced as spot", source));
    } else {
      if (!sp) {
        const Price* od = offer->price(PricingModel::kOnDemand);
        if (od) {
          est.model = PricingModel::kSpot;
          est.usd_per_hour = od->usd_per_hour * (1.0 - kMedianSpotDiscount);
          est.as_of = od->as_of;
          est.source = "estimate";
          sp = &est;
          estimated = true;
          source = "ESTIMATE: on-demand × (1 − 0.66), the median AWS Spot saving over 540 GPU pools (seed-claims-check.md row l); " + source;
        }
      }
      if (!sp) {
        levers_out.push_back(lever("spot", false, base, base, "no spot or on-demand price for this offer", source));
      } else {
        const Outcome after = runOn(w, *offer, base_plan.nodes, *sp, spot, k);
        note = std::string(estimated ? "Estimated spot rate " : "Spot rate ") + money(sp->usd_per_hour) + "/h per instance; interruptions stretch the run from " +
               hoursText(base.time_hours) + " to " + hoursText(after.time_hours) + " (checkpoints, lost work, restarts). The article claims 70-90 % lower cost.";
        json j = lever("spot", true, base, after, note, source);
        j["estimated"] = estimated;
        levers_out.push_back(j);
      }
    }
  }
  // --- reserved ----------------------------------------------------------------------------------------------
  {
    const Price* rv = offer->price(PricingModel::kReserved);
    const std::string source = "catalog reserved price, amortised over the term (pricing.hpp)";
    if (model == PricingModel::kReserved) levers_out.push_back(lever("reserved", false, base, base, "already priced as reserved", source));
    else if (!rv) levers_out.push_back(lever("reserved", false, base, base, "no reserved price for this offer in the catalog", source));
    else {
      const Outcome after = runOn(w, *offer, base_plan.nodes, *rv, spot, k);
      const CostResult cr = priceJob(*offer, *rv, after.time_hours, base_plan.nodes, spot);
      std::string note = std::to_string(rv->term_months) + "-month commitment of " + money(cr.commitment_usd) +
                         " for " + std::to_string(base_plan.nodes) + " instance(s); the job's share is " + money(after.cost_usd);
      if (cr.break_even_utilisation > 0) note += "; pays off only above " + pct(cr.break_even_utilisation, 0) + " utilisation of the term";
      levers_out.push_back(lever("reserved", true, base, after, note + ".", source));
    }
  }
  // --- MIG ---------------------------------------------------------------------------------------------------
  {
    const std::string source = "MIG profiles from the GPU database; a slice gets compute_slices/7 of the compute and memory_slices/8 of the bandwidth (NVIDIA MIG user guide)";
    const Price* od = offer->price(model);
    if (g.mig_profiles.empty()) {
      levers_out.push_back(lever("mig", false, base, base, g.name + " has no MIG profiles", source));
    } else {
      int chosen = -1;
      ClusterPlan mig_plan;
      std::vector<int> order;
      for (size_t i = 0; i < g.mig_profiles.size(); ++i)
        if (g.mig_profiles[i].compute_slices < 7) order.push_back(static_cast<int>(i));
      std::sort(order.begin(), order.end(), [&](int a, int b) {
        const int ma = migMemorySlices(g, g.mig_profiles[a]), mb = migMemorySlices(g, g.mig_profiles[b]);
        return ma != mb ? ma < mb : g.mig_profiles[a].compute_slices < g.mig_profiles[b].compute_slices;
      });
      for (int i : order) {
        const MigProfile& p = g.mig_profiles[i];
        GpuSpec slice = g;
        slice.memory_gb = p.memory_gb;
        for (double& t : slice.tflops) t *= p.compute_slices / 7.0;
        slice.memory_bandwidth_gbs = g.memory_bandwidth_gbs * migMemorySlices(g, p) / 8.0;
        slice.nvlink_gbs = 0;
        Cluster c;
        c.gpu = &slice;
        ClusterPlan plan = planCluster(w, c, k);
        if (plan.memory.fits && plan.throughput.time_hours > 0) {
          chosen = i;
          mig_plan = plan;
          break;
        }
      }
      if (chosen < 0 || !od) {
        levers_out.push_back(lever("mig", false, base, base,
                                   chosen < 0 ? "the job does not fit in any MIG slice smaller than the whole " + g.name : "no price for this offer",
                                   source));
      } else {
        const MigProfile& p = g.mig_profiles[chosen];
        Outcome after;
        after.ok = true;
        after.gpus = 1;
        after.nodes = 1;
        after.instance = offer->instance_type + " MIG " + p.name;
        after.precision = precisionName(trainingPrecision(w, g));
        after.sharding = mig_plan.memory.sharding.describe();
        after.fits = true;
        after.pricing = pricingModelName(model);
        after.tflops_per_gpu = mig_plan.throughput.effective_tflops_per_gpu;
        // The GPU's hourly price shared by max_count jobs of this profile running side by side.
        after.usd_per_hour = od->headlineUsdPerHour() / std::max(1, offer->gpu_count) / std::max(1, p.max_count);
        after.time_hours = mig_plan.throughput.time_hours;
        after.cost_usd = after.time_hours * after.usd_per_hour;
        const std::string note = "Runs in one " + p.name + " slice (" + fixed(mig_plan.memory.required_gb, 1) + " of " +
                                 fixed(mig_plan.memory.available_gb, 1) + " GB) in " + hoursText(after.time_hours) +
                                 "; the cost assumes " + std::to_string(p.max_count) + " such jobs share one " + g.name +
                                 " (its max instance count), each paying 1/" + std::to_string(p.max_count) + " of the GPU-hour.";
        levers_out.push_back(lever("mig", true, base, after, note, source));
      }
    }
  }
  // --- more / fewer GPUs -------------------------------------------------------------------------------------
  auto sameGpuOffer = [&](int gpu_count) -> const Offer* {
    const Offer* best = nullptr;
    for (const Offer& o : catalog_.offers) {
      if (!o.gpu || o.gpu->id != g.id || o.gpu_count != gpu_count || o.example) continue;
      const Price* p = o.price(model);
      if (!p) continue;
      const bool same_provider = o.provider == offer->provider;
      if (!best) { best = &o; continue; }
      const bool best_same = best->provider == offer->provider;
      if (same_provider != best_same) { if (same_provider) best = &o; continue; }
      if (p->headlineUsdPerHour() < best->price(model)->headlineUsdPerHour()) best = &o;
    }
    return best;
  };
  for (int dir : {+1, -1}) {
    const std::string name = dir > 0 ? "more_gpus" : "fewer_gpus";
    const std::string source = "throughput and scaling model (performance.hpp), priceJob (pricing.hpp)";
    const Offer* target = nullptr;
    int nodes = 0;
    if (dir > 0 && offer->rdma) { target = offer; nodes = base_plan.nodes * 2; }
    else if (dir < 0 && base_plan.nodes > 1) { target = offer; nodes = base_plan.nodes / 2; }
    else if (dir > 0) { target = sameGpuOffer(offer->gpu_count * 2); nodes = 1; }
    else if (offer->gpu_count % 2 == 0) { target = sameGpuOffer(offer->gpu_count / 2); nodes = 1; }
    if (!target) {
      levers_out.push_back(lever(name, false, base, base,
                                 std::string("no ") + (dir > 0 ? "larger" : "smaller") + " " + g.name + " configuration with a " + pricing +
                                     " price in the catalog" + (dir > 0 && !offer->rdma ? " (this offer has no RDMA network to add nodes)" : ""),
                                 source));
      continue;
    }
    const Outcome after = runOn(w, *target, nodes, *target->price(model), spot, k);
    std::string note = std::to_string(base.gpus) + " -> " + std::to_string(after.gpus) + " GPUs (" + target->instance_type +
                       (nodes > 1 ? " × " + std::to_string(nodes) : "") + "): " + hoursText(base.time_hours) + " -> " +
                       hoursText(after.time_hours) + ", per-GPU throughput " + fixed(base.tflops_per_gpu, 1) + " -> " +
                       fixed(after.tflops_per_gpu, 1) + " TFLOPS (scaling losses).";
    if (!after.fits) note += " Does NOT fit in memory.";
    levers_out.push_back(lever(name, after.ok && after.fits, base, after, note, source));
  }
  json out = {{"ok", true},
              {"workload", w.name},
              {"instance", offer->instance_type},
              {"id", offer->id},
              {"gpu", g.id},
              {"pricing", pricingModelName(model)},
              {"baseline", outcomeJson(base)},
              {"levers", levers_out},
              {"warnings", warnings}};
  return dumpJson(out);
}

// =============================================================================================================
// compare
// =============================================================================================================

std::string Engine::compareImpl(const std::string& text) const {
  Issues issues;
  json req;
  if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
  Workload w;
  if (!resolveWorkload(req, w, issues)) return errorResult(issues);
  ObjectReader r(req, "", issues);
  ModelConstants k;
  readConstantsField(req, k, issues);
  SpotOptions spot;
  readSpotField(req, spot, issues);
  const std::string pricing = r.string("pricing", false).value_or("on_demand");
  PricingModel model = PricingModel::kOnDemand;
  if (!parsePricingModel(pricing, model)) r.error("pricing", ErrorCode::kInvalidValue, "must be on_demand, reserved, spot, tiered or monthly");
  const json* cj = r.get("configs");
  if (!cj || !cj->is_array() || cj->size() < 2 || cj->size() > 4) {
    r.error("configs", cj ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, "must be an array of 2 to 4 configurations");
    return errorResult(issues);
  }
  struct Config {
    std::string label, instance, provider, price_source, note;
    const GpuSpec* gpu = nullptr;
    int gpus = 0, nodes = 1;
    double usd_per_hour = 0, time_hours = 0, cost_usd = 0;
    ClusterPlan plan;
  };
  std::vector<Config> configs;
  for (size_t i = 0; i < cj->size(); ++i) {
    const std::string path = "/configs/" + std::to_string(i);
    ObjectReader c(( *cj)[i], path, issues);
    if (!c.ok()) continue;
    Config cfg;
    const auto explicit_usd = c.number("usd_per_hour", false, 0, true, 1e6);
    if (auto inst = c.string("instance", false)) {
      int matches = 0;
      const Offer* o = findOffer(*inst, matches);
      if (!o || !o->gpu) { c.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + *inst + "\""); continue; }
      const Price* p = o->price(model);
      if (!p && !explicit_usd) { c.error("instance", ErrorCode::kNotFound, "instance \"" + o->id + "\" has no " + pricing + " price; give usd_per_hour"); continue; }
      int nodes = static_cast<int>(c.integer("nodes", false, 1, 4096).value_or(0));
      if (nodes == 0) nodes = planOnOffer(w, *o, k).nodes;
      const Cluster cl = offerCluster(*o, nodes);
      cfg.gpu = o->gpu;
      cfg.gpus = cl.totalGpus();
      cfg.nodes = nodes;
      cfg.instance = o->instance_type;
      cfg.provider = o->provider;
      cfg.plan = planCluster(w, cl, k);
      cfg.time_hours = cfg.plan.throughput.time_hours;
      if (explicit_usd) {
        cfg.usd_per_hour = *explicit_usd;
        cfg.cost_usd = cfg.time_hours * cfg.usd_per_hour;
        cfg.price_source = "given";
      } else {
        const CostResult cr = priceJob(*o, *p, cfg.time_hours, nodes, spot);
        cfg.usd_per_hour = p->headlineUsdPerHour() * nodes;
        cfg.time_hours = cr.wall_hours;
        cfg.cost_usd = cr.cost_usd;
        cfg.price_source = o->id + " " + pricing + ", as of " + p->as_of + ", " + p->source;
        const std::string stale = staleWarning(*p, today_);
        if (!stale.empty()) cfg.note = stale;
      }
    } else {
      const GpuSpec* g = gpuField(c);
      if (!g && c.get("gpu") && c.get("gpu")->is_string()) continue;  // an unknown id, reported: the count is not read
      const int count = static_cast<int>(c.integer("count", true, 1, 65536).value_or(0));
      if (!g || count <= 0) continue;
      const Cluster cl = defaultCluster(*g, count);
      cfg.gpu = g;
      cfg.gpus = cl.totalGpus();
      cfg.nodes = cl.nodes;
      cfg.plan = planCluster(w, cl, k);
      cfg.time_hours = cfg.plan.throughput.time_hours;
      if (explicit_usd) {
        cfg.usd_per_hour = *explicit_usd;
        cfg.cost_usd = cfg.time_hours * cfg.usd_per_hour;
        cfg.price_source = "given";
      } else {
        const OfferChoice oc = cheapestOffer(catalog_, g->id, count, model);
        if (!oc.offer) {
          c.error("gpu", ErrorCode::kNotFound, "no " + pricing + " offer in the catalog can host " + std::to_string(count) + "× " + g->name + "; give usd_per_hour");
          continue;
        }
        const CostResult cr = priceJob(*oc.offer, *oc.price, cfg.time_hours, oc.instances, spot);
        cfg.usd_per_hour = oc.usd_per_hour;
        cfg.time_hours = cr.wall_hours;
        cfg.cost_usd = cr.cost_usd;
        cfg.instance = oc.offer->instance_type + (oc.instances > 1 ? " × " + std::to_string(oc.instances) : "");
        cfg.provider = oc.offer->provider;
        cfg.price_source = "cheapest " + pricing + " offer: " + oc.offer->id + ", as of " + oc.price->as_of + ", " + oc.price->source;
        if (oc.instances * oc.offer->gpu_count > count)
          cfg.note = "pays for " + std::to_string(oc.instances * oc.offer->gpu_count) + " GPUs (" + oc.offer->instance_type + ")";
        const std::string stale = staleWarning(*oc.price, today_);
        if (!stale.empty()) cfg.note += (cfg.note.empty() ? "" : "; ") + stale;
      }
    }
    cfg.label = gpuLabel(cfg.gpus, *cfg.gpu);
    configs.push_back(cfg);
  }
  const long long baseline_in = r.integer("baseline", false, 0, 3).value_or(-1);
  if (baseline_in >= static_cast<long long>(cj->size())) r.error("baseline", ErrorCode::kInvalidValue, "must index one of the configs");
  if (hasErrors(issues)) return errorResult(issues);
  // Baseline: as given, else the slowest configuration (so speed-ups read >= 1).
  size_t b = 0;
  if (baseline_in >= 0) b = static_cast<size_t>(baseline_in);
  else
    for (size_t i = 1; i < configs.size(); ++i)
      if (configs[i].time_hours > configs[b].time_hours) b = i;
  const Config& base = configs[b];
  json results = json::array();
  for (size_t i = 0; i < configs.size(); ++i) {
    const Config& c = configs[i];
    const Throughput& t = c.plan.throughput;
    const Throughput& tb = base.plan.throughput;
    const double speedup = c.time_hours > 0 ? base.time_hours / c.time_hours : 0;
    const double cost_ratio = base.cost_usd > 0 ? c.cost_usd / base.cost_usd : 0;
    const double count_ratio = static_cast<double>(c.gpus) / base.gpus;
    const double single_ratio = tb.single_gpu_tflops > 0 ? t.single_gpu_tflops / tb.single_gpu_tflops : 0;
    const double scaling_ratio = tb.scaling_efficiency > 0 ? t.scaling_efficiency / tb.scaling_efficiency : 0;
    TextStream ex;
    if (i == b) {
      ex << "Baseline. " << fixed(t.single_gpu_tflops, 1) << " TFLOPS per GPU (" << t.bound << "-bound), scaling "
         << pct(t.scaling_efficiency, 0) << ", " << money(c.usd_per_hour) << "/h.";
    } else {
      ex << "vs " << base.label << ": " << fixed(count_ratio, 2) << "× the GPUs × " << fixed(single_ratio, 2)
         << "× per-GPU throughput (" << fixed(t.single_gpu_tflops, 1) << " vs " << fixed(tb.single_gpu_tflops, 1)
         << " TFLOPS, " << t.bound << "-bound) × " << fixed(scaling_ratio, 2) << "× scaling efficiency (" << pct(t.scaling_efficiency, 0)
         << " vs " << pct(tb.scaling_efficiency, 0) << ") = " << fixed(speedup, 2) << "× faster; "
         << fixed(base.usd_per_hour > 0 ? c.usd_per_hour / base.usd_per_hour : 0, 2) << "× the hourly price -> "
         << fixed(cost_ratio, 2) << "× the cost (" << pct(std::fabs(1.0 - cost_ratio), 0) << (cost_ratio <= 1 ? " lower" : " higher") << ").";
    }
    results.push_back({{"label", c.label},
                       {"gpu", c.gpu->id},
                       {"gpu_count", c.gpus},
                       {"nodes", c.nodes},
                       {"instance", c.instance},
                       {"provider", c.provider},
                       {"usd_per_hour", finiteOr(c.usd_per_hour)},
                       {"price_source", c.price_source},
                       {"time_hours", finiteOr(c.time_hours)},
                       {"cost_usd", finiteOr(c.cost_usd)},
                       {"fits", c.plan.memory.fits},
                       {"sharding", c.plan.memory.sharding.describe()},
                       {"precision", precisionName(trainingPrecision(w, *c.gpu))},
                       {"single_gpu_tflops", finiteOr(t.single_gpu_tflops)},
                       {"scaling_efficiency", finiteOr(t.scaling_efficiency)},
                       {"bound", t.bound},
                       {"speedup_vs_baseline", finiteOr(speedup)},
                       {"cost_ratio_vs_baseline", finiteOr(cost_ratio)},
                       {"explanation", ex.str()},
                       {"note", c.note}});
  }
  json out = {{"ok", true}, {"workload", w.name}, {"pricing", pricingModelName(model)}, {"baseline", b}, {"configs", results}};
  // The article's YOLOv7 case (§1): 8× A100 vs 4× V100, "2.3× faster iterations, 41 % lower cost".
  int a100 = -1, v100 = -1;
  for (size_t i = 0; i < configs.size(); ++i) {
    if (configs[i].gpu->id.rfind("a100", 0) == 0 && configs[i].gpus == 8) a100 = static_cast<int>(i);
    if (configs[i].gpu->id.rfind("v100", 0) == 0 && configs[i].gpus == 4) v100 = static_cast<int>(i);
  }
  if (w.name == "yolov7-coco" && a100 >= 0 && v100 >= 0) {
    const Config& A = configs[a100];
    const Config& V = configs[v100];
    const double speed = A.time_hours > 0 ? V.time_hours / A.time_hours : 0;
    const double change = V.cost_usd > 0 ? A.cost_usd / V.cost_usd - 1.0 : 0;
    out["article_claim"] = {
        {"claim", "8× A100 trains YOLOv7 2.3× faster than 4× V100 at 41 % lower cost"},
        {"source", "seed article §1 (an autonomous-driving company's test; no setup, prices or batch sizes given)"},
        {"claimed_speedup", kArticleYoloSpeedup},
        {"claimed_cost_change", kArticleYoloCostChange},
        {"model_speedup", finiteOr(speed)},
        {"model_cost_change", finiteOr(change)},
        {"finding", "The model finds 8× A100 " + fixed(speed, 2) + "× faster at " + pct(std::fabs(change), 0) +
                        (change <= 0 ? " lower" : " higher") + " cost (article: 2.3× and 41 % lower). " +
                        (std::fabs(speed - kArticleYoloSpeedup) / kArticleYoloSpeedup < 0.15 ? "The speed-up agrees within 15 %."
                                                                                              : "The speed-up DISAGREES by more than 15 %.") +
                        " The model's " + fixed(speed, 2) + "× is " + fixed(static_cast<double>(A.gpus) / V.gpus, 2) + "× from the GPU count × " +
                        fixed(V.plan.throughput.single_gpu_tflops > 0 ? A.plan.throughput.single_gpu_tflops / V.plan.throughput.single_gpu_tflops : 0, 2) +
                        "× per GPU (" + A.plan.throughput.bound + "-bound roofline) × " +
                        fixed(V.plan.throughput.scaling_efficiency > 0 ? A.plan.throughput.scaling_efficiency / V.plan.throughput.scaling_efficiency : 0, 2) +
                        "× scaling; data loading (mosaic augmentation) is not modelled and may cap the A100s."}};
  }
  return dumpJson(out);
}

// =============================================================================================================
// energy and tco
// =============================================================================================================

namespace {

struct PowerSetup {
  const GpuSpec* gpu = nullptr;
  const Offer* offer = nullptr;
  int count = 1;
};

double readPue(ObjectReader& r, json& assumptions) {
  double pue = kPueAirCooled;
  std::string src = "air-cooled default: Uptime Institute Global Data Center Survey 2023 industry average 1.58 (seed-claims-check.md row n)";
  if (auto c = r.string("cooling", false)) {
    if (*c == "liquid") {
      pue = kPueLiquidCooled;
      src = "liquid-cooled default 1.10: between NREL ESIF's warm-water liquid-cooled 1.04 (NREL/PR-2C00-70433, 2018) and Google's fleet 1.10 (2021)";
    } else if (*c != "air") {
      r.error("cooling", ErrorCode::kInvalidValue, "must be air or liquid");
    }
  }
  if (auto p = r.number("pue", false, 1, false, 5)) pue = *p, src = "given";
  assumptions["pue"] = {{"value", pue}, {"source", src}};
  return pue;
}

}  // namespace

std::string Engine::energyImpl(const std::string& text) const {
  Issues issues;
  json req;
  if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
  ObjectReader r(req, "", issues);
  if (!r.ok()) return errorResult(issues);
  ModelConstants k;
  readConstantsField(req, k, issues);
  json assumptions = json::object();
  const GpuSpec* g = nullptr;
  const Offer* offer = nullptr;
  if (auto inst = r.string("instance", false)) {
    int matches = 0;
    offer = findOffer(*inst, matches);
    if (!offer || !offer->gpu) r.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + *inst + "\"");
    else g = offer->gpu;
  } else {
    g = gpuField(r);
  }
  int count = static_cast<int>(r.integer("count", false, 1, 1 << 20).value_or(offer ? offer->gpu_count : 1));
  EnergyInputs in;
  in.utilisation = r.number("utilisation", false, 0, false, 1).value_or(kTrainingPowerShareOfTdp);
  assumptions["utilisation"] = {{"value", in.utilisation},
                                {"source", r.has("utilisation") ? "given" : "share of TDP while training: 1.0, as Meta's Llama 2 model card computes CO2 from GPU-hours × TDP"}};
  in.pue = readPue(r, assumptions);
  in.usd_per_kwh = r.number("usd_per_kwh", false, 0, false, 10).value_or(kElectricityUsdPerKwh);
  assumptions["usd_per_kwh"] = {{"value", in.usd_per_kwh},
                                {"source", r.has("usd_per_kwh") ? "given" : "US industrial average 2023, 8.06 ¢/kWh (EIA Electric Power Annual 2023)"}};
  in.kg_co2_per_kwh = r.number("kg_co2_per_kwh", false, 0, false, 5).value_or(kGridKgCo2PerKwh);
  assumptions["kg_co2_per_kwh"] = {{"value", in.kg_co2_per_kwh},
                                   {"source", r.has("kg_co2_per_kwh") ? "given" : "world average 2023, 481 gCO2/kWh (Ember, Global Electricity Review 2024)"}};
  double hours = r.number("hours", false, 0, true, 1e7).value_or(0);
  std::string time_source = "given";
  if (hasErrors(issues)) return errorResult(issues);
  if (!(hours > 0)) {
    if (!(req.contains("preset") || req.contains("workload"))) {
      r.error("hours", ErrorCode::kMissingField, "give hours, or a preset/workload to estimate them");
      return errorResult(issues);
    }
    Workload w;
    if (!resolveWorkload(req, w, issues)) return errorResult(issues);
    ClusterPlan plan;
    if (offer) {
      const OfferPlan op = planOnOffer(w, *offer, k);
      plan = op.plan;
      count = offer->gpu_count * op.nodes;
    } else {
      plan = planCluster(w, defaultCluster(*g, count), k);
      count = defaultCluster(*g, count).totalGpus();
    }
    hours = plan.throughput.time_hours;
    time_source = "throughput model for " + w.name + " on " + std::to_string(count) + "× " + g->name;
    if (!(hours > 0)) {
      r.error("gpu", ErrorCode::kInvalidValue, "the workload cannot run on this GPU");
      return errorResult(issues);
    }
  }
  const double power_given = r.number("power_w", false, 0, true, 1e9).value_or(0);
  if (!(power_given > 0) && !(g->tdp_w > 0)) r.error("power_w", ErrorCode::kMissingField, "is required: " + g->name + " has no TDP in the GPU database");
  if (hasErrors(issues)) return errorResult(issues);
  in.power_w = power_given > 0 ? power_given : g->tdp_w * count;
  assumptions["power_w"] = {{"value", in.power_w},
                            {"source", power_given > 0 ? "given" : "GPU TDP " + fixed(g->tdp_w, 0) + " W × " + std::to_string(count) + " (datasheet, data/gpus.json); host CPUs, NICs and fans excluded"}};
  in.hours = hours;
  const EnergyResult e = jobEnergy(in);
  EnergyInputs air = in, liquid = in, art = in;
  air.pue = kPueAirCooled;
  liquid.pue = kPueLiquidCooled;
  art.pue = kArticleLiquidPue;
  const EnergyResult ea = jobEnergy(air), el = jobEnergy(liquid), eart = jobEnergy(art);
  auto ej = [](const EnergyResult& x, double pue) {
    return json{{"pue", pue}, {"facility_energy_kwh", finiteOr(x.facility_energy_kwh)}, {"cost_usd", finiteOr(x.cost_usd)}, {"co2_kg", finiteOr(x.co2_kg)}};
  };
  const double model_saving = 1.0 - kPueLiquidCooled / kPueAirCooled;
  const double art_saving = 1.0 - kArticleLiquidPue / kPueAirCooled;
  json out = {{"ok", true},
              {"gpu", g->id},
              {"gpu_count", count},
              {"hours", finiteOr(hours)},
              {"hours_source", time_source},
              {"power_w", finiteOr(in.power_w)},
              {"utilisation", in.utilisation},
              {"pue", in.pue},
              {"it_energy_kwh", finiteOr(e.it_energy_kwh)},
              {"facility_energy_kwh", finiteOr(e.facility_energy_kwh)},
              {"energy_cost_usd", finiteOr(e.cost_usd)},
              {"co2_kg", finiteOr(e.co2_kg)},
              {"cooling_comparison", {{"air", ej(ea, kPueAirCooled)},
                                      {"liquid", ej(el, kPueLiquidCooled)},
                                      {"liquid_energy_saving", finiteOr(model_saving)},
                                      {"article_claim", {{"pue", kArticleLiquidPue},
                                                         {"energy_saving", kArticleLiquidEnergySaving},
                                                         {"source", "seed article §5: liquid-cooled nodes at PUE 1.05 use 40 % less energy than air"},
                                                         {"model_energy_saving_at_pue_1_05", finiteOr(art_saving)},
                                                         {"article_pue_facility_energy_kwh", finiteOr(eart.facility_energy_kwh)},
                                                         {"finding", "PUE 1.05 vs the 1.58 air-cooled average saves " + pct(art_saving) +
                                                                         " of facility energy, not 40 %; the rest would have to come from IT power (fans), which PUE does not count."}}}}},
              {"assumptions", assumptions}};
  return dumpJson(out);
}

std::string Engine::tcoImpl(const std::string& text) const {
  Issues issues;
  json req;
  if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
  ObjectReader r(req, "", issues);
  if (!r.ok()) return errorResult(issues);
  json assumptions = json::object();
  const GpuSpec* g = nullptr;
  const Offer* offer = nullptr;
  if (auto inst = r.string("instance", false)) {
    int matches = 0;
    offer = findOffer(*inst, matches);
    if (!offer || !offer->gpu) r.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + *inst + "\"");
    else g = offer->gpu;
  } else {
    g = gpuField(r);
  }
  if (hasErrors(issues)) return errorResult(issues);
  TcoInputs in;
  in.gpu_count = static_cast<int>(r.integer("count", false, 1, 1 << 20).value_or(offer ? offer->gpu_count : 8));
  const bool dgx_default = g->id == "a100-sxm4-40gb";
  if (auto p = r.number("purchase_usd", false, 0, true, 1e12)) {
    in.purchase_usd = *p;
    assumptions["purchase_usd"] = {{"value", *p}, {"source", "given"}};
  } else if (dgx_default) {
    in.purchase_usd = kDgxA100PurchaseUsd * in.gpu_count / kDgxA100Gpus;
    assumptions["purchase_usd"] = {{"value", in.purchase_usd},
                                   {"source", "NVIDIA DGX A100 (8× A100 40GB) launch price $199,000 (NVIDIA newsroom 2020-05-14), pro rata per GPU"}};
  } else {
    r.error("purchase_usd", ErrorCode::kMissingField, "is required for " + g->name + ": the engine has a sourced purchase price only for the DGX A100 (a100-sxm4-40gb)");
  }
  in.amortisation_years = r.number("amortisation_years", false, 0, true, 50).value_or(kAmortisationYears);
  assumptions["amortisation_years"] = {{"value", in.amortisation_years},
                                       {"source", r.has("amortisation_years") ? "given" : "5 years: server useful life in Amazon's and Meta's 2022 10-K filings"}};
  if (auto p = r.number("power_w", false, 0, true, 1e9)) {
    in.power_w = *p;
    assumptions["power_w"] = {{"value", *p}, {"source", "given"}};
  } else if (dgx_default && !r.has("purchase_usd")) {
    in.power_w = kDgxA100SystemPowerW * in.gpu_count / kDgxA100Gpus;
    assumptions["power_w"] = {{"value", in.power_w}, {"source", "DGX A100 system power 6.5 kW max (NVIDIA DGX A100 datasheet), pro rata per GPU"}};
  } else if (!(g->tdp_w > 0)) {
    r.error("power_w", ErrorCode::kMissingField, "is required: " + g->name + " has no TDP in the GPU database");
  } else {
    in.power_w = g->tdp_w * in.gpu_count;
    assumptions["power_w"] = {{"value", in.power_w},
                              {"source", "GPU TDP " + fixed(g->tdp_w, 0) + " W × " + std::to_string(in.gpu_count) + " (datasheet); host CPUs, NICs and fans excluded"}};
  }
  in.pue = readPue(r, assumptions);
  in.usd_per_kwh = r.number("usd_per_kwh", false, 0, false, 10).value_or(kElectricityUsdPerKwh);
  assumptions["usd_per_kwh"] = {{"value", in.usd_per_kwh},
                                {"source", r.has("usd_per_kwh") ? "given" : "US industrial average 2023, 8.06 ¢/kWh (EIA Electric Power Annual 2023)"}};
  in.other_usd_per_year = r.number("other_usd_per_year", false, 0, false, 1e12).value_or(0);
  assumptions["other_usd_per_year"] = {{"value", in.other_usd_per_year},
                                       {"source", r.has("other_usd_per_year") ? "given" : "not included (colocation, support, staff): give other_usd_per_year"}};
  std::string rent_source;
  if (auto p = r.number("rent_usd_per_gpu_hour", false, 0, true, 1e4)) {
    in.rent_usd_per_gpu_hour = *p;
    rent_source = "given";
  } else if (offer && offer->price(PricingModel::kOnDemand)) {
    const Price* p = offer->price(PricingModel::kOnDemand);
    in.rent_usd_per_gpu_hour = p->usd_per_hour / offer->gpu_count;
    rent_source = offer->id + " on-demand ÷ " + std::to_string(offer->gpu_count) + " GPUs, as of " + p->as_of + ", " + p->source;
  } else {
    // Cheapest per-GPU on-demand rate among the catalog's offers with this GPU.
    const Offer* best = nullptr;
    for (const Offer& o : catalog_.offers) {
      if (!o.gpu || o.gpu->id != g->id || o.example || o.gpu_count <= 0) continue;
      const Price* p = o.price(PricingModel::kOnDemand);
      if (!p || !(p->usd_per_hour > 0)) continue;
      if (!best || p->usd_per_hour / o.gpu_count < best->price(PricingModel::kOnDemand)->usd_per_hour / best->gpu_count) best = &o;
    }
    if (best) {
      const Price* p = best->price(PricingModel::kOnDemand);
      in.rent_usd_per_gpu_hour = p->usd_per_hour / best->gpu_count;
      rent_source = "cheapest on-demand per GPU: " + best->id + ", as of " + p->as_of + ", " + p->source;
    } else {
      r.error("rent_usd_per_gpu_hour", ErrorCode::kMissingField, "no on-demand offer with " + g->name + " in the catalog: give the rental rate");
    }
  }
  std::vector<double> us = {0.25, 0.5, 0.75, 1.0};
  if (auto u = r.number("utilisation", false, 0, true, 1)) {
    us.push_back(*u);
    std::sort(us.begin(), us.end());
    us.erase(std::unique(us.begin(), us.end()), us.end());
  }
  if (hasErrors(issues)) return errorResult(issues);
  assumptions["rent_usd_per_gpu_hour"] = {{"value", in.rent_usd_per_gpu_hour}, {"source", rent_source}};
  assumptions["energy"] = {{"value", "power × PUE × hours × utilisation"}, {"source", "idle power not modelled"}};
  const TcoResult t = ownVsRent(in, us);
  json points = json::array();
  for (const auto& p : t.points)
    points.push_back({{"utilisation", p.utilisation}, {"own_usd_per_year", finiteOr(p.own_usd_per_year)},
                      {"rent_usd_per_year", finiteOr(p.rent_usd_per_year)}, {"own_usd_per_used_gpu_hour", finiteOr(p.own_usd_per_used_gpu_hour)},
                      {"cheaper", p.own_usd_per_year < p.rent_usd_per_year ? "own" : "rent"}});
  std::string verdict;
  if (t.never_breaks_even) verdict = "Renting is always cheaper: electricity alone costs more than the rental rate.";
  else if (t.break_even_utilisation > 1) verdict = "Renting is cheaper even at 100 % utilisation (break-even would be " + pct(t.break_even_utilisation, 0) + ").";
  else verdict = "Owning is cheaper above " + pct(t.break_even_utilisation, 0) + " utilisation over " + fixed(in.amortisation_years, 0) +
                 " years; below it, renting at " + money(in.rent_usd_per_gpu_hour) + "/GPU-h is cheaper.";
  json out = {{"ok", true},
              {"gpu", g->id},
              {"gpu_count", in.gpu_count},
              {"purchase_usd", finiteOr(in.purchase_usd)},
              {"amortisation_years", in.amortisation_years},
              {"power_w", finiteOr(in.power_w)},
              {"pue", in.pue},
              {"usd_per_kwh", in.usd_per_kwh},
              {"rent_usd_per_gpu_hour", finiteOr(in.rent_usd_per_gpu_hour)},
              {"capex_usd_per_year", finiteOr(t.capex_usd_per_year)},
              {"energy_usd_per_year_at_full_load", finiteOr(t.energy_usd_per_year_at_full_load)},
              {"break_even_utilisation", finiteOr(t.break_even_utilisation)},
              {"never_breaks_even", t.never_breaks_even},
              {"verdict", verdict},
              {"points", points},
              {"assumptions", assumptions}};
  return dumpJson(out);
}

}  // namespace gpuvalue
