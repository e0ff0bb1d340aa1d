// The advisor: the article's size ladder against the memory model, and catalog options ranked for the job.
#include "tools/advisor.hpp"

#include <algorithm>

namespace gpuvalue {


const char* stageName(Stage s) {
  switch (s) {
    case Stage::kExploration: return "exploration";
    case Stage::kTuning: return "tuning";
    case Stage::kProduction: return "production";
  }
  return "exploration";
}

bool parseStage(const std::string& s, Stage& out) {
  if (s == "exploration") out = Stage::kExploration;
  else if (s == "tuning") out = Stage::kTuning;
  else if (s == "production") out = Stage::kProduction;
  else return false;
  return true;
}

// Article §4.1 (model size). A10 stands for "<1亿参数", the 40 GB SXM A100 for "1-100亿", and the 80 GB A100 and
// H100 SXM for ">100亿: A100 80GB或H100集群".
const ArticleRung kArticleLadder[4] = {
    {"A10", "a10"},
    {"A100 40GB", "a100-sxm4-40gb"},
    {"A100 80GB", "a100-sxm4-80gb"},
    {"H100 80GB", "h100-sxm5-80gb"},
};

int articleRungFor(double params) {
  if (params < 1e8) return 0;    // < 100M parameters
  if (params <= 1e10) return 1;  // 0.1-10B
  return 2;                      // > 10B: A100 80GB (or H100, rung 3)
}

namespace {

// Fits at this GPU count? The request's own workload as it is (its recomputation, or the plan search's choice);
// the advisor's transformer without activation checkpointing first (faster), then with it.
bool fitsAt(const Workload& w, const GpuSpec& g, int count, const AdviceOptions& opt, Workload& used, ClusterPlan& plan) {
  const ModelConstants& k = opt.constants;
  const Cluster c = defaultCluster(g, count);
  if (opt.own_workload) {
    used = w;
    plan = planCluster(w, c, k);
    used.activation_checkpointing = plan.memory.sharding.recompute != Recompute::kNone;
    return plan.memory.fits;
  }
  Workload a = w;
  a.activation_checkpointing = false;
  a.recompute = static_cast<int>(Recompute::kNone);  // the advice names its recomputation: none or full
  ClusterPlan p = planCluster(a, c, k);
  if (!p.memory.fits) {
    a.activation_checkpointing = true;
    ClusterPlan q = planCluster(a, c, k);
    if (q.memory.fits || q.memory.required_gb < p.memory.required_gb) p = q;
    else a.activation_checkpointing = false;
  }
  used = a;
  plan = p;
  return p.memory.fits;
}

// Smallest GPU count (1, 2, 4, 8, then whole 8-GPU nodes) at which the workload fits; 0 when none up to max.
int smallestFittingCount(const Workload& w, const GpuSpec& g, const AdviceOptions& opt, int max_gpus, Workload& used,
                         ClusterPlan& plan) {
  for (int n : {1, 2, 4, 8}) {
    if (n > max_gpus) return 0;
    if (fitsAt(w, g, n, opt, used, plan)) return n;
  }
  int lo = 1, hi = 0;  // in nodes of 8
  const int max_nodes = max_gpus / 8;
  for (int n = 2; n <= max_nodes; n = std::min(n * 2, max_nodes)) {
    Workload u;
    ClusterPlan p;
    if (fitsAt(w, g, 8 * n, opt, u, p)) {
      hi = n;
      break;
    }
    lo = n;
    if (n == max_nodes) break;
  }
  if (hi == 0) return 0;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    Workload u;
    ClusterPlan p;
    if (fitsAt(w, g, 8 * mid, opt, u, p)) hi = mid;
    else lo = mid;
  }
  fitsAt(w, g, 8 * hi, opt, used, plan);
  return 8 * hi;
}
}  // namespace

PricingModel stagePricing(Stage s) {
  // Article §4.2: exploration -> elastic instances + spot; tuning -> reserved + autoscaling; production ->
  // dedicated cluster + SLA (reserved capacity is the dedicated option the catalog prices).
  switch (s) {
    case Stage::kExploration: return PricingModel::kSpot;
    case Stage::kTuning: return PricingModel::kReserved;
    case Stage::kProduction: return PricingModel::kReserved;
  }
  return PricingModel::kOnDemand;
}

bool stageAllows(Stage s, PricingModel m) { return s == Stage::kExploration || m != PricingModel::kSpot; }

namespace {

// The ranking's options for one rung: the advisor's workload on the offers of one GPU, every billing the stage
// allows, sized for the horizon (the deadline when one is set).
RankOptions rungRankOptions(const AdviceOptions& opt, const std::string& gpu_id) {
  RankOptions r;
  r.spot = opt.spot;
  r.constants = opt.constants;
  r.calibration = opt.calibration;
  r.today = opt.today;
  r.horizon_hours = opt.deadline_hours > 0 ? opt.deadline_hours : opt.horizon_hours;
  // The ranking's own node limit unless max_gpus asks for fewer: the same offer gets the same node count here as
  // in rank.
  r.max_nodes = std::max(1, std::min(opt.max_gpus / 8, RankOptions().max_nodes));
  r.filters.gpus = {gpu_id};
  r.filters.include_examples = opt.include_examples;
  r.filters.include_stale = opt.include_stale;
  r.filters.fits_only = true;
  for (int m = 0; m < kPricingModelCount; ++m)
    if (stageAllows(opt.stage, static_cast<PricingModel>(m))) r.filters.models.push_back(static_cast<PricingModel>(m));
  if (opt.deadline_hours > 0 && r.spot.deadline_hours <= 0) r.spot.deadline_hours = opt.deadline_hours;
  return r;
}

AdviceChoice choiceOf(const RankResult& r, long today_day) {
  AdviceChoice c;
  c.present = true;
  c.nodes = r.nodes();
  c.gpu_count = r.nodes() * r.offer->gpu_count;
  c.offer.offer = r.offer;
  c.offer.price = r.price;
  c.offer.instances = r.nodes();
  c.offer.usd_per_hour = r.price->headlineUsdPerHour() * r.nodes();
  c.plan.memory = r.memory();
  c.plan.throughput = r.throughput();
  c.cost = r.cost;
  c.meets_horizon = r.meets_horizon;
  c.stale = today_day > 0 && isStale(*r.price, today_day);
  return c;
}

// True when `a` is the better recommendation: within the horizon first, then the cheaper job, then the faster.
bool cheaperChoice(const AdviceChoice& a, const AdviceChoice& b) {
  if (!b.present) return a.present;
  if (!a.present) return false;
  if (a.meets_horizon != b.meets_horizon) return a.meets_horizon;
  if (!a.meets_horizon) return a.time_hours() < b.time_hours();
  if (a.cost.cost_usd != b.cost.cost_usd) return a.cost.cost_usd < b.cost.cost_usd;
  return a.time_hours() < b.time_hours();
}

bool fasterChoice(const AdviceChoice& a, const AdviceChoice& b) {
  if (!b.present) return a.present;
  if (!a.present) return false;
  if (a.time_hours() != b.time_hours()) return a.time_hours() < b.time_hours();
  return a.cost.cost_usd < b.cost.cost_usd;
}

// The catalog options of one rung, from a ranking of that GPU's offers (results with a cost within max_gpus).
// Production prefers offers that publish an SLA of at least kProductionSlaPct when any such one is in reach.
void chooseOffers(const AdviceOptions& opt, const Catalog& catalog, const Workload& w, RungEvaluation& e) {
  const RankOptions ro = rungRankOptions(opt, e.gpu->id);
  const Ranking ranking = rankOffers(w, catalog, ro);
  const long today_day = dayNumber(opt.today);
  auto usable = [&](const RankResult& r) { return r.fits && r.cost.cost_usd > 0 && r.nodes() * r.offer->gpu_count <= opt.max_gpus; };
  bool any_sla = false;
  if (opt.stage == Stage::kProduction)
    for (const RankResult& r : ranking.results) any_sla = any_sla || (usable(r) && r.offer->service().sla_pct >= kProductionSlaPct);
  for (const RankResult& r : ranking.results) {
    if (!usable(r)) continue;
    const AdviceChoice c = choiceOf(r, today_day);
    if (!any_sla || r.offer->service().sla_pct >= kProductionSlaPct) {
      if (cheaperChoice(c, e.best)) e.best = c;
      if (fasterChoice(c, e.fastest)) e.fastest = c;
    }
    if (r.model == stagePricing(opt.stage) && cheaperChoice(c, e.stage_choice)) e.stage_choice = c;
  }
  if (!e.best.present) return;
  for (const RankResult& r : ranking.results)
    if (usable(r) && r.model == PricingModel::kOnDemand && r.nodes() * r.offer->gpu_count == e.best.gpu_count) {
      const AdviceChoice c = choiceOf(r, today_day);
      if (cheaperChoice(c, e.on_demand)) e.on_demand = c;
    }
  const PricingModel want = stagePricing(opt.stage);
  if (e.best.offer.price->model == want) return;
  if (!e.stage_choice.present)
    e.pricing_note = Message("advise.no_stage_offer").text("pricing", pricingModelName(want)).num("gpu_count", e.best.gpu_count).text("gpu", e.gpu->id);
  else if (e.stage_choice.cost.cost_usd > e.best.cost.cost_usd)
    // "(whole terms)" only where the stage's billing is a commitment: spot and on-demand bill the hours used.
    e.pricing_note = Message(isCommitment(want) ? "advise.stage_rule_costlier_terms" : "advise.stage_rule_costlier").text("stage", stageName(opt.stage)).text("pricing", pricingModelName(want))
                         .num("cost_usd", e.stage_choice.cost.cost_usd).num("gpu_count", e.stage_choice.gpu_count)
                         .text("used_pricing", pricingModelName(e.best.offer.price->model)).num("used_cost_usd", e.best.cost.cost_usd);
  else  // as cheap or cheaper, but slower: the recommendation is the one that finishes within the horizon, or sooner
    e.pricing_note = Message("advise.stage_rule_slower").text("stage", stageName(opt.stage)).text("pricing", pricingModelName(want))
                         .num("cost_usd", e.stage_choice.cost.cost_usd).num("time_hours", e.stage_choice.time_hours())
                         .num("gpu_count", e.stage_choice.gpu_count).text("used_pricing", pricingModelName(e.best.offer.price->model))
                         .num("used_time_hours", e.best.time_hours()).num("used_cost_usd", e.best.cost.cost_usd)
                         .num("horizon_hours", opt.deadline_hours > 0 ? opt.deadline_hours : opt.horizon_hours);
}

}  // namespace

Advice advise(const AdviceOptions& opt, const Workload& w, const GpuDatabase& gpus, const Catalog& catalog) {
  Advice a;
  a.workload = w;
  a.article_rung = articleRungFor(opt.params);
  a.horizon_hours = opt.deadline_hours > 0 ? opt.deadline_hours : opt.horizon_hours;
  for (int r = 0; r < 4; ++r) {
    RungEvaluation e;
    e.rung = r;
    e.gpu = gpus.find(kArticleLadder[r].gpu_id);
    if (!e.gpu) {
      a.ladder.push_back(e);
      continue;
    }
    Workload used = a.workload;
    ClusterPlan plan;
    const int count = smallestFittingCount(a.workload, *e.gpu, opt, opt.max_gpus, used, plan);
    e.fits = count > 0;
    // Nothing fits: the least-memory plan on the largest cluster tried.
    if (!e.fits) fitsAt(a.workload, *e.gpu, std::max(1, std::min(opt.max_gpus, 8)), opt, used, plan);
    e.min_gpu_count = count;
    e.activation_checkpointing = used.activation_checkpointing;
    e.min_plan = plan;
    if (e.fits) chooseOffers(opt, catalog, a.workload, e);
    a.ladder.push_back(e);
  }
  // The memory model's class: the least capable rung that fits on one GPU; else the rung that fits on the fewest
  // GPUs (less sharding and communication), ties going to the less capable rung (A100 80GB before H100).
  for (const auto& e : a.ladder)
    if (e.fits && e.min_gpu_count == 1) { a.model_rung = e.rung; break; }
  if (a.model_rung < 0)
    for (const auto& e : a.ladder)
      if (e.fits && (a.model_rung < 0 || e.min_gpu_count < a.ladder[a.model_rung].min_gpu_count)) a.model_rung = e.rung;
  for (const auto& e : a.ladder) {
    if (e.best.present && (a.recommended_rung < 0 || cheaperChoice(e.best, a.ladder[a.recommended_rung].best))) a.recommended_rung = e.rung;
    if (e.fastest.present && (a.fastest_rung < 0 || fasterChoice(e.fastest, a.ladder[a.fastest_rung].fastest))) a.fastest_rung = e.rung;
  }
  if (a.article_rung == 2) a.agrees = a.model_rung == 2 || a.model_rung == 3;
  else a.agrees = a.model_rung == a.article_rung;
  return a;
}

}  // namespace gpuvalue
