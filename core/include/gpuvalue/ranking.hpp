// Evaluates a workload on every offer of a catalog and ranks the results (article §2: unit compute cost,
// task completion efficiency, service value).
#pragma once
#include <string>
#include <vector>

#include "gpuvalue/catalog.hpp"
#include "gpuvalue/performance.hpp"
#include "gpuvalue/pricing.hpp"
#include "gpuvalue/workload.hpp"

namespace gpuvalue {

struct Weights {
  double unit_cost = 1.0;   // $/TFLOPS·day
  double task = 1.0;        // time to train and job cost
  double service = 0.5;     // frameworks, RDMA network, SLA, elastic scaling
};

struct RankFilters {
  std::vector<std::string> providers, regions, gpus;  // empty = all
  std::vector<PricingModel> models;                   // empty = all
  bool fits_only = false;
  double budget_usd = 0;     // 0 = none
  double deadline_hours = 0; // 0 = none
  bool include_examples = true;
};

struct RankOptions {
  Weights weights;
  RankFilters filters;
  SpotOptions spot;
  ModelConstants constants;
  int max_nodes = 64;        // largest multi-node cluster considered (only offers with RDMA scale out)
  std::string today;         // YYYY-MM-DD, for staleness
};

struct RankResult {
  const Offer* offer = nullptr;
  PricingModel model = PricingModel::kOnDemand;
  const Price* price = nullptr;
  int nodes = 1;
  MemoryBreakdown memory;
  Throughput throughput;
  CostResult cost;
  double usd_per_hour = 0;           // per node, headline
  double usd_per_tflops_day = 0;     // at FP16 dense (article formula)
  double usd_per_tflops_day_at_precision = 0;
  double vendor_usd_per_tflops_day = 0;  // using the vendor's claimed TFLOPS, when it differs
  double service_score = 0;
  double unit_score = 0, task_score = 0;
  double score = 0;
  bool fits = false;
  bool pareto = false;
  bool stale = false;
  std::vector<std::string> reasons;
  std::vector<std::string> warnings;
};

struct Ranking {
  std::vector<RankResult> results;   // best first
  size_t evaluated = 0;
};

// Service value in [0, 1]: equal parts preinstalled frameworks, RDMA network, published SLA >= 99.9 %,
// and scaling within minutes (article §2.3's three service criteria plus availability).
double serviceScore(const Offer& o);

Ranking rankOffers(const Workload& w, const Catalog& catalog, const RankOptions& opt);

}  // namespace gpuvalue
