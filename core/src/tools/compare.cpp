#include "tools/compare.hpp"

namespace gpuvalue {

CompareConfig offerConfig(const Workload& w, const Offer& o, int nodes, const Price* p, double given_usd, const SpotOptions& spot,
                          const ModelConstants& k) {
  if (nodes == 0) nodes = planOnOffer(w, o, k).nodes;
  const Cluster cl = offerCluster(o, nodes);
  CompareConfig c;
  c.gpu = o.gpu;
  c.gpus = cl.totalGpus();
  c.nodes = nodes;
  c.plan = planCluster(w, cl, k);
  c.time_hours = c.plan.throughput.time_hours;
  c.offer = &o;
  c.instances = nodes;
  if (given_usd >= 0) {
    c.usd_per_hour = given_usd;
    c.cost_usd = c.time_hours * c.usd_per_hour;
    c.priced = true;
  } else if (p) {
    const CostResult cr = priceJob(o, *p, c.time_hours, nodes, spot);
    c.price = p;
    c.usd_per_hour = p->headlineUsdPerHour() * nodes;
    c.time_hours = cr.wall_hours;
    c.cost_usd = cr.cost_usd;
    c.priced = true;
  }
  return c;
}

CompareConfig gpuConfig(const Workload& w, const Catalog& catalog, const GpuSpec& g, int count, PricingModel model,
                        double given_usd, const SpotOptions& spot, const ModelConstants& k) {
  const Cluster cl = defaultCluster(g, count);
  CompareConfig c;
  c.gpu = &g;
  c.gpus = cl.totalGpus();
  c.nodes = cl.nodes;
  c.plan = planCluster(w, cl, k);
  c.time_hours = c.plan.throughput.time_hours;
  if (given_usd >= 0) {
    c.usd_per_hour = given_usd;
    c.cost_usd = c.time_hours * c.usd_per_hour;
    c.priced = true;
    return c;
  }
  const OfferChoice oc = cheapestOffer(catalog, g.id, count, model);
  if (!oc.offer) return c;
  const CostResult cr = priceJob(*oc.offer, *oc.price, c.time_hours, oc.instances, spot);
  c.offer = oc.offer;
  c.price = oc.price;
  c.instances = oc.instances;
  c.usd_per_hour = oc.usd_per_hour;
  c.time_hours = cr.wall_hours;
  c.cost_usd = cr.cost_usd;
  c.priced = true;
  return c;
}

size_t slowestConfig(const std::vector<CompareConfig>& configs) {
  size_t b = 0;
  for (size_t i = 1; i < configs.size(); ++i)
    if (configs[i].time_hours > configs[b].time_hours) b = i;
  return b;
}

CompareRatios compareRatios(const CompareConfig& c, const CompareConfig& base) {
  const Throughput& t = c.plan.throughput;
  const Throughput& tb = base.plan.throughput;
  CompareRatios r;
  r.speedup = c.time_hours > 0 ? base.time_hours / c.time_hours : 0;
  r.cost_ratio = base.cost_usd > 0 ? c.cost_usd / base.cost_usd : 0;
  r.count_ratio = static_cast<double>(c.gpus) / base.gpus;
  r.single_gpu_ratio = tb.single_gpu_tflops > 0 ? t.single_gpu_tflops / tb.single_gpu_tflops : 0;
  r.scaling_ratio = tb.scaling_efficiency > 0 ? t.scaling_efficiency / tb.scaling_efficiency : 0;
  r.price_ratio = base.usd_per_hour > 0 ? c.usd_per_hour / base.usd_per_hour : 0;
  return r;
}

}  // namespace gpuvalue
