// Shared helpers of the decision tools and the advisor (article §4.1 and §4.2).
#include <algorithm>
#include <cmath>

#include "tools/decisions.hpp"

namespace gpuvalue {

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
                          const OfferScope& scope) {
  OfferChoice best;
  gpu_count = std::max(1, gpu_count);
  for (const Offer& o : catalog.offers) {
    if (!o.gpu || o.gpu->id != gpu_id || o.gpu_count <= 0) continue;
    const Price* p = o.price(model);
    if (!p || !(p->headlineUsdPerHour() > 0) || !scope.admits(o, *p)) continue;
    const int instances = (gpu_count + o.gpu_count - 1) / o.gpu_count;
    if (instances > 1 && !o.rdma) continue;
    const double usd = instances * p->headlineUsdPerHour();
    if (!best.offer || usd < best.usd_per_hour - 1e-12 ||
        (std::fabs(usd - best.usd_per_hour) <= 1e-12 && instances < best.instances)) {
      best.offer = &o;
      best.price = p;
      best.instances = instances;
      best.usd_per_hour = usd;
    }
  }
  return best;
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
