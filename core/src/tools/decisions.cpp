// Shared helpers of the decision tools and the advisor (article §4.1 and §4.2).
#include <algorithm>
#include <cmath>

#include "tools/decisions.hpp"

namespace gpuvalue {

Cluster defaultCluster(const GpuSpec& g, int gpu_count) {
  Cluster c;
  c.gpu = &g;
  gpu_count = std::max(1, gpu_count);
  c.gpus_per_node = std::min(gpu_count, 8);
  c.nodes = (gpu_count + c.gpus_per_node - 1) / c.gpus_per_node;
  // Same defaults as the estimate method (api/estimate.cpp): SXM parts sit on NVSwitch/NVLink boards, PCIe parts on PCIe; one
  // 200 Gb/s RDMA NIC per GPU across nodes (NVIDIA DGX A100/H100 user guides).
  const bool sxm = g.nvlink_gbs > 0 && g.form_factor.find("PCIe") == std::string::npos;
  c.interconnect = c.gpus_per_node > 1 ? (sxm ? "nvswitch" : "pcie") : "none";
  c.network_gbps = 200.0 * c.gpus_per_node;
  c.rdma = true;
  return c;
}

Cluster offerCluster(const Offer& o, int nodes) {
  Cluster c;
  c.gpu = o.gpu;
  c.gpus_per_node = std::max(1, o.gpu_count);
  c.nodes = std::max(1, nodes);
  c.interconnect = o.interconnect;
  c.network_gbps = o.network_gbps;
  c.rdma = o.rdma;
  return c;
}

OfferChoice cheapestOffer(const Catalog& catalog, const std::string& gpu_id, int gpu_count, PricingModel model,
                          bool include_examples, long today_day) {
  OfferChoice best_fresh, best_stale;
  gpu_count = std::max(1, gpu_count);
  for (const Offer& o : catalog.offers) {
    if (!o.gpu || o.gpu->id != gpu_id || o.gpu_count <= 0) continue;
    if (o.example && !include_examples) continue;
    const Price* p = o.price(model);
    if (!p || !(p->headlineUsdPerHour() > 0)) continue;
    const int instances = (gpu_count + o.gpu_count - 1) / o.gpu_count;
    if (instances > 1 && !o.rdma) continue;
    const double usd = instances * p->headlineUsdPerHour();
    OfferChoice& best = today_day > 0 && isStale(*p, today_day) ? best_stale : best_fresh;
    if (!best.offer || usd < best.usd_per_hour - 1e-12 ||
        (std::fabs(usd - best.usd_per_hour) <= 1e-12 && instances < best.instances)) {
      best.offer = &o;
      best.price = p;
      best.instances = instances;
      best.usd_per_hour = usd;
    }
  }
  return best_fresh.offer ? best_fresh : best_stale;
}

OfferPlan planOnOffer(const Workload& w, const Offer& o, const ModelConstants& k, int max_nodes) {
  // As the ranking does: one node, else the smallest RDMA node count that fits (doubling, then bisection).
  OfferPlan out;
  Cluster c = offerCluster(o, 1);
  bool fits = chooseSharding(w, c, k).fits;
  if (!fits && o.rdma && max_nodes > 1) {
    int lo = 1, hi = 0;
    for (int n = 2; n <= max_nodes; n = std::min(n * 2, max_nodes)) {
      c.nodes = n;
      if (chooseSharding(w, c, k).fits) {
        hi = n;
        break;
      }
      lo = n;
      if (n == max_nodes) break;
    }
    if (hi > 0) {
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        c.nodes = mid;
        if (chooseSharding(w, c, k).fits) hi = mid;
        else lo = mid;
      }
      out.nodes = hi;
    }
  }
  c.nodes = out.nodes;
  out.plan = planCluster(w, c, k);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Advisor
// ---------------------------------------------------------------------------------------------------------

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

Workload adviceWorkload(const AdviceOptions& opt) {
  Workload w;
  w.name = "advisor transformer";
  w.kind = WorkloadKind::kTransformer;
  w.mode = opt.mode;
  w.precision = Precision::kBf16;  // mixed precision (falls back to fp16 where the GPU lacks bf16)
  w.optimizer = Optimizer::kAdamW;
  w.params = opt.params;
  // 20 tokens per parameter: the compute-optimal ratio of Hoffmann et al. 2022 ("Chinchilla", Table 3).
  w.tokens = opt.tokens > 0 ? opt.tokens : 20.0 * opt.params;
  w.seq_len = opt.seq_len;
  w.micro_batch = 1;
  return w;
}

namespace {

// Fits at this GPU count? Tries without activation checkpointing first (faster), then with it.
bool fitsAt(const Workload& w, const GpuSpec& g, int count, const ModelConstants& k, Workload& used, ClusterPlan& plan) {
  const Cluster c = defaultCluster(g, count);
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
int smallestFittingCount(const Workload& w, const GpuSpec& g, const ModelConstants& k, int max_gpus, Workload& used,
                         ClusterPlan& plan) {
  for (int n : {1, 2, 4, 8}) {
    if (n > max_gpus) return 0;
    if (fitsAt(w, g, n, k, used, plan)) return n;
  }
  int lo = 1, hi = 0;  // in nodes of 8
  const int max_nodes = max_gpus / 8;
  for (int n = 2; n <= max_nodes; n = std::min(n * 2, max_nodes)) {
    Workload u;
    ClusterPlan p;
    if (fitsAt(w, g, 8 * n, k, u, p)) {
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
    if (fitsAt(w, g, 8 * mid, k, u, p)) hi = mid;
    else lo = mid;
  }
  fitsAt(w, g, 8 * hi, k, used, plan);
  return 8 * hi;
}

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

}  // namespace

Advice advise(const AdviceOptions& opt, const GpuDatabase& gpus, const Catalog& catalog) {
  Advice a;
  a.workload = adviceWorkload(opt);
  a.article_rung = articleRungFor(opt.params);
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
    int count = smallestFittingCount(a.workload, *e.gpu, opt.constants, opt.max_gpus, used, plan);
    e.fits = count > 0;
    if (e.fits && opt.deadline_hours > 0) {
      // Add GPUs until the job meets the deadline (or the cap).
      while (plan.throughput.time_hours > opt.deadline_hours && count * 2 <= opt.max_gpus) {
        count *= 2;
        fitsAt(a.workload, *e.gpu, count, opt.constants, used, plan);
      }
    }
    if (!e.fits) {
      // Report the least-memory plan on the largest cluster tried.
      fitsAt(a.workload, *e.gpu, std::max(1, std::min(opt.max_gpus, 8)), opt.constants, used, plan);
    }
    e.gpu_count = e.fits ? count : 0;
    e.nodes = e.fits ? defaultCluster(*e.gpu, count).nodes : 0;
    e.activation_checkpointing = used.activation_checkpointing;
    e.plan = plan;
    if (e.fits && plan.throughput.time_hours > 0) {
      const PricingModel want = stagePricing(opt.stage);
      e.offer = cheapestOffer(catalog, e.gpu->id, count, want, false, opt.today_day);
      e.pricing = want;
      if (!e.offer.offer) {
        e.pricing = PricingModel::kOnDemand;
        e.offer = cheapestOffer(catalog, e.gpu->id, count, PricingModel::kOnDemand, false, opt.today_day);
        e.pricing_note = e.offer.offer ? Message("advise.no_stage_offer").text("pricing", pricingModelName(want))
                                             .num("gpu_count", count).text("gpu", e.gpu->id)
                                       : Message("advise.no_offer_rdma").num("gpu_count", count).text("gpu", e.gpu->id);
      }
      if (e.offer.offer && opt.today_day > 0 && isStale(*e.offer.price, opt.today_day))
        e.stale_note = Message("advise.all_stale").text("date", e.offer.price->as_of.str());
      if (e.offer.offer)
        e.cost = priceJob(*e.offer.offer, *e.offer.price, plan.throughput.time_hours, e.offer.instances, opt.spot);
      e.on_demand = cheapestOffer(catalog, e.gpu->id, count, PricingModel::kOnDemand, false, opt.today_day);
      if (e.on_demand.offer)
        e.on_demand_cost = priceJob(*e.on_demand.offer, *e.on_demand.price, plan.throughput.time_hours,
                                    e.on_demand.instances, opt.spot);
    }
    a.ladder.push_back(e);
  }
  // The memory model's class: the least capable rung that fits on one GPU; else the rung that fits on the fewest
  // GPUs (less sharding and communication), ties going to the less capable rung (A100 80GB before H100).
  for (const auto& e : a.ladder)
    if (e.fits && e.gpu_count == 1) { a.model_rung = e.rung; break; }
  if (a.model_rung < 0)
    for (const auto& e : a.ladder)
      if (e.fits && (a.model_rung < 0 || e.gpu_count < a.ladder[a.model_rung].gpu_count)) a.model_rung = e.rung;
  for (const auto& e : a.ladder) {
    if (!e.fits || !(e.cost.cost_usd > 0)) continue;
    if (a.cheapest_rung < 0 || e.cost.cost_usd < a.ladder[a.cheapest_rung].cost.cost_usd) a.cheapest_rung = e.rung;
  }
  for (const auto& e : a.ladder) {
    if (!e.fits || !(e.plan.throughput.time_hours > 0)) continue;
    if (a.fastest_rung < 0 || e.plan.throughput.time_hours < a.ladder[a.fastest_rung].plan.throughput.time_hours)
      a.fastest_rung = e.rung;
  }
  if (a.article_rung == 2) a.agrees = a.model_rung == 2 || a.model_rung == 3;
  else a.agrees = a.model_rung == a.article_rung;
  return a;
}

int minGpusToFit(const Workload& w, const Cluster& c, const ModelConstants& k) {
  for (int n = 1; n <= 65536; n = n < c.gpus_per_node ? n * 2 : n + c.gpus_per_node) {
    Cluster probe = c;
    probe.gpus_per_node = std::min(n, c.gpus_per_node);
    probe.nodes = (n + probe.gpus_per_node - 1) / probe.gpus_per_node;
    if (fitsWithSomeSharding(w, probe, k)) return probe.totalGpus();
    if (n >= c.gpus_per_node && n > 4096 * 8) break;
  }
  return 0;
}

}  // namespace gpuvalue
