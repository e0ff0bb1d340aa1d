// Side-by-side configurations of one workload (article §1's 8× A100 vs 4× V100): each configuration's time and
// cost, the baseline, and the factors behind a speed-up. Plain functions on structs; the API layer
// (core/src/api/compare.cpp) reads the request and writes the answer with its sentences.
#pragma once
#include <vector>

#include "tools/decisions.hpp"

namespace gpuvalue {

struct CompareConfig {
  const GpuSpec* gpu = nullptr;
  int gpus = 0, nodes = 1;
  ClusterPlan plan;
  // The configuration's instance, or for a bare GPU type the cheapest offer that hosts it (`instances` of them;
  // none when an hourly price was given or nothing hosts it); `price` is the catalog price used, null when an
  // hourly price was given.
  const Offer* offer = nullptr;
  const Price* price = nullptr;
  int instances = 0;
  bool priced = false;  // a price was given or found
  double usd_per_hour = 0, time_hours = 0, cost_usd = 0;
};

// `nodes` instances of a catalog offer (0: the smallest node count it fits on), priced with `price` (wall time
// and cost with priceJob) or, when given_usd_per_hour >= 0, at that rate for the compute time.
CompareConfig offerConfig(const Workload& w, const Offer& offer, int nodes, const Price* price, double given_usd_per_hour,
                          const SpotOptions& spot, const ModelConstants& k);
// `count` GPUs of one type (defaultCluster), priced at given_usd_per_hour when >= 0, else on the cheapest offer
// under `model` that hosts them (priced false when none does).
CompareConfig gpuConfig(const Workload& w, const Catalog& catalog, const GpuSpec& gpu, int count, PricingModel model,
                        double given_usd_per_hour, const SpotOptions& spot, const ModelConstants& k);

// The slowest configuration (so speed-ups read >= 1).
size_t slowestConfig(const std::vector<CompareConfig>& configs);

// A configuration against the baseline: the speed-up is the GPU-count ratio × the per-GPU throughput ratio × the
// scaling-efficiency ratio; the cost ratio follows from the hourly price ratio. Ratios are 0 where the
// baseline's is 0.
struct CompareRatios {
  double speedup = 0, cost_ratio = 0, count_ratio = 0, single_gpu_ratio = 0, scaling_ratio = 0, price_ratio = 0;
};
CompareRatios compareRatios(const CompareConfig& c, const CompareConfig& base);

}  // namespace gpuvalue
