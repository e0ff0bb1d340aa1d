#include "tools/levers.hpp"

#include <algorithm>

#include "model/ranking.hpp"

namespace gpuvalue {

LeverOutcome runOn(const Workload& w, const Offer& offer, int nodes, const Price& price, const SpotOptions& spot,
                   const ModelConstants& k) {
  LeverOutcome o;
  const Cluster c = offerCluster(offer, nodes);
  const ClusterPlan plan = planCluster(w, c, k);
  o.ok = plan.throughput.time_hours > 0;
  o.gpus = c.totalGpus();
  o.nodes = c.nodes;
  o.id = offer.id;
  o.provider = offer.provider;
  o.instance = offer.instance_type;
  o.precision = trainingPrecision(w, *offer.gpu);
  o.sharding = plan.memory.sharding.label();
  o.fits = plan.memory.fits && plan.throughput.supported;
  o.tflops_per_gpu = plan.throughput.effective_tflops_per_gpu;
  o.pricing = price.model;
  o.usd_per_hour = price.headlineUsdPerHour() * c.nodes;
  if (o.ok) {
    const CostResult cr = priceJob(offer, price, plan.throughput.time_hours, c.nodes, spot);
    o.time_hours = cr.wall_hours;
    o.cost_usd = cr.cost_usd;
  }
  return o;
}

LeverBase leverBase(const Workload& w, const Offer& offer, PricingModel model, const Price& price, const SpotOptions& spot,
                    const ModelConstants& k, int nodes, const OfferScope& scope) {
  LeverBase b;
  b.workload = &w;
  b.offer = &offer;
  b.model = model;
  b.price = &price;
  b.spot = spot;
  b.constants = k;
  b.scope = scope;
  if (nodes <= 0) {
    RankOptions ro;
    ro.constants = k;
    nodes = rankingNodes(w, offer, ro);
  }
  b.nodes = nodes;
  b.outcome = runOn(w, offer, b.nodes, price, spot, k);
  return b;
}

PrecisionLever mixedPrecisionLever(const LeverBase& b) {
  const Workload& w = *b.workload;
  const GpuSpec& g = *b.offer->gpu;
  PrecisionLever l;
  l.full = w;
  l.mixed = w;
  l.full.precision = g.peak(Precision::kTf32) > 0 ? Precision::kTf32 : Precision::kFp32;
  l.mixed.precision = g.peak(Precision::kBf16) > 0 ? Precision::kBf16 : Precision::kFp16;
  l.currently_mixed = !(w.precision == Precision::kFp32 || w.precision == Precision::kTf32);
  if (l.currently_mixed) l.mixed = w;  // keep the user's fp8/bf16/fp16
  else l.full = w;
  const OfferPlan pf = planOnOffer(l.full, *b.offer, b.constants), pm = planOnOffer(l.mixed, *b.offer, b.constants);
  l.before = runOn(l.full, *b.offer, pf.nodes, *b.price, b.spot, b.constants);
  l.after = runOn(l.mixed, *b.offer, pm.nodes, *b.price, b.spot, b.constants);
  l.single_gpu_tflops_before = pf.plan.throughput.single_gpu_tflops;
  l.single_gpu_tflops_after = pm.plan.throughput.single_gpu_tflops;
  l.gain = l.before.ok && l.after.ok && l.after.time_hours > 0 ? l.before.time_hours / l.after.time_hours : 0;
  return l;
}

bool leverHelps(LeverDirection d, const LeverOutcome& before, const LeverOutcome& after) {
  if (!before.ok || !after.ok || !(after.time_hours > 0)) return false;
  if (d == LeverDirection::kFaster) return after.time_hours < before.time_hours * (1 - 1e-9);
  return after.cost_usd > 0 && after.cost_usd < before.cost_usd * (1 - 1e-9);
}

SpotLever spotLever(const LeverBase& b) {
  SpotLever l;
  l.already = b.model == PricingModel::kSpot;
  if (l.already) return l;
  if (const Price* sp = b.offer->price(PricingModel::kSpot)) {
    l.price = *sp;
    l.has_price = true;
  } else if (const Price* od = b.offer->price(PricingModel::kOnDemand)) {
    l.price.model = PricingModel::kSpot;
    l.price.usd_per_hour = od->usd_per_hour * (1.0 - kMedianSpotDiscount);
    l.price.as_of = od->as_of;
    l.price.source = "estimate";
    l.has_price = true;
    l.estimated = true;
  }
  if (l.has_price) l.after = runOn(*b.workload, *b.offer, b.nodes, l.price, b.spot, b.constants);
  return l;
}

ReservedLever reservedLever(const LeverBase& b) {
  ReservedLever l;
  l.already = b.model == PricingModel::kReserved;
  l.price = b.offer->price(PricingModel::kReserved);
  if (l.already || !l.price) return l;
  l.after = runOn(*b.workload, *b.offer, b.nodes, *l.price, b.spot, b.constants);
  l.cost = priceJob(*b.offer, *l.price, l.after.time_hours, b.nodes, b.spot);
  return l;
}

namespace {

// One MIG slice of `g` as a GPU of its own: its memory, compute_slices/7 of the compute and memory_slices/8 of
// the bandwidth, no NVLink (NVIDIA MIG user guide).
GpuSpec migSlice(const GpuSpec& g, const MigProfile& p) {
  GpuSpec slice = g;
  slice.memory_gb = p.memory_gb;
  for (double& t : slice.tflops) t *= p.compute_slices / 7.0;
  slice.memory_bandwidth_gbs = g.memory_bandwidth_gbs * migMemorySlices(g, p) / 8.0;
  slice.nvlink_gbs = 0;
  return slice;
}

}  // namespace

MigLever migLever(const LeverBase& b) {
  const GpuSpec& g = *b.offer->gpu;
  const Workload& w = *b.workload;
  MigLever l;
  std::vector<int> order;
  for (size_t i = 0; i < g.mig_profiles.size(); ++i)
    if (g.mig_profiles[i].compute_slices < 7) order.push_back(static_cast<int>(i));
  std::sort(order.begin(), order.end(), [&](int a, int c) {
    const int ma = migMemorySlices(g, g.mig_profiles[a]), mc = migMemorySlices(g, g.mig_profiles[c]);
    return ma != mc ? ma < mc : g.mig_profiles[a].compute_slices < g.mig_profiles[c].compute_slices;
  });
  for (int i : order) {
    const GpuSpec slice = migSlice(g, g.mig_profiles[i]);
    Cluster c;
    c.gpu = &slice;
    const ClusterPlan plan = planCluster(w, c, b.constants);
    if (plan.memory.fits && plan.throughput.time_hours > 0) {
      l.profile = i;
      l.plan = plan;
      break;
    }
  }
  const Price* price = b.offer->price(b.model);
  l.has_price = price != nullptr;
  if (l.profile < 0 || !price) return l;
  const MigProfile& p = g.mig_profiles[l.profile];
  LeverOutcome& a = l.after;
  a.ok = true;
  a.gpus = 1;
  a.nodes = 1;
  a.id = b.offer->id;
  a.provider = b.offer->provider;
  a.instance = b.offer->instance_type + " MIG " + p.name;
  a.precision = trainingPrecision(w, g);
  a.sharding = l.plan.memory.sharding.label();
  a.fits = true;
  a.pricing = b.model;
  a.tflops_per_gpu = l.plan.throughput.effective_tflops_per_gpu;
  // The GPU's hourly price shared by max_count jobs of this profile running side by side.
  a.usd_per_hour = price->headlineUsdPerHour() / std::max(1, b.offer->gpu_count) / std::max(1, p.max_count);
  a.time_hours = l.plan.throughput.time_hours;
  a.cost_usd = a.time_hours * a.usd_per_hour;
  return l;
}

namespace {

// The offer with the same GPU in an instance of `gpu_count` GPUs and a price under `model` within `scope`: the
// same provider first, then the cheapest headline rate.
const Offer* sameGpuOffer(const Catalog& catalog, const Offer& offer, PricingModel model, int gpu_count, const OfferScope& scope) {
  const Offer* best = nullptr;
  for (const Offer& o : catalog.offers) {
    if (!o.gpu || o.gpu->id != offer.gpu->id || o.gpu_count != gpu_count) continue;
    const Price* p = o.price(model);
    if (!p || !scope.admits(o, *p)) continue;
    const bool same_provider = o.provider == offer.provider;
    if (!best) { best = &o; continue; }
    const bool best_same = best->provider == offer.provider;
    if (same_provider != best_same) { if (same_provider) best = &o; continue; }
    if (p->headlineUsdPerHour() < best->price(model)->headlineUsdPerHour()) best = &o;
  }
  return best;
}

}  // namespace

ScaleLever scaleLever(const LeverBase& b, const Catalog& catalog, int dir) {
  const Offer& offer = *b.offer;
  ScaleLever l;
  if (dir > 0 && offer.rdma) { l.target = &offer; l.nodes = b.nodes * 2; }
  else if (dir < 0 && b.nodes > 1) { l.target = &offer; l.nodes = b.nodes / 2; }
  else if (dir > 0) { l.target = sameGpuOffer(catalog, offer, b.model, offer.gpu_count * 2, b.scope); l.nodes = 1; }
  else if (offer.gpu_count % 2 == 0) { l.target = sameGpuOffer(catalog, offer, b.model, offer.gpu_count / 2, b.scope); l.nodes = 1; }
  if (l.target) l.after = runOn(*b.workload, *l.target, l.nodes, *l.target->price(b.model), b.spot, b.constants);
  return l;
}

}  // namespace gpuvalue
