// Evaluates a workload on every offer of a catalog and ranks the results (article §2: unit compute cost,
// task completion efficiency, service value).
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "model/catalog.hpp"
#include "model/performance.hpp"
#include "model/pricing.hpp"
#include "model/workload.hpp"

namespace gpuvalue {

struct Weights {
  double unit_cost = 1.0;   // $/TFLOPS·day
  double task = 1.0;        // time to train and job cost
  double service = 0.5;     // frameworks, RDMA network, SLA, elastic scaling
};

struct RankFilters {
  std::vector<std::string> providers, regions, gpus;  // empty = all (compared case-insensitively)
  std::vector<PricingModel> models;                   // empty = all
  bool fits_only = false;
  double budget_usd = 0;     // 0 = none
  double deadline_hours = 0; // 0 = none
  bool include_examples = true;
  bool include_marketplace = true;  // false = drop offers of marketplace hosts (Offer::marketplace)
  bool include_stale = true;        // false = drop real offers' prices older than kStaleAfterDays (on RankOptions::today)
};

struct RankOptions {
  Weights weights;
  RankFilters filters;
  SpotOptions spot;
  ModelConstants constants;
  int max_nodes = 64;        // largest multi-node cluster considered (only offers with RDMA scale out)
  double free_trial_hours = -1;  // >= 0 overrides every on-demand price's free-trial hours
  size_t limit = 0;          // keep only the best `limit` results (0 = all); counts still cover every result
  std::string today;         // YYYY-MM-DD, for staleness
};

// What one hardware configuration (GPU, GPUs per node, interconnect, network) achieves: evaluated once per
// distinct configuration, shared by every offer and price that sells it.
struct Evaluation {
  int nodes = 1;
  MemoryBreakdown memory;
  Throughput throughput;
  // Expected spot wall time at the last interruption rate asked for (ranking prices many spot offers of the
  // same hardware at the default rate; the wall time depends only on the rate and this evaluation).
  mutable double spot_lambda = -1, spot_wall_hours = 0;
};

struct RankResult {
  const Offer* offer = nullptr;
  const Price* price = nullptr;
  const Evaluation* eval = nullptr;
  PricingModel model = PricingModel::kOnDemand;
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
  int nodes() const { return eval->nodes; }
  const MemoryBreakdown& memory() const { return eval->memory; }
  const Throughput& throughput() const { return eval->throughput; }
};

struct Ranking {
  std::vector<RankResult> results;   // best first (at most RankOptions::limit)
  size_t evaluated = 0;
  size_t result_count = 0;           // results before the limit
  size_t fitting_count = 0;
  double best_unit = 0, best_cost = 0, best_time = 0;  // over fitting results
  // Kept results whose full price differs from the one they were ranked by (the scan prices spot offers by a
  // shortcut): always 0; the tests check it.
  size_t cost_mismatches = 0;
  // Owns the evaluations the results point into (a deque keeps their addresses stable).
  std::deque<Evaluation> evaluations;
};

// Service value in [0, 1]: equal parts preinstalled frameworks, RDMA network, published SLA >= 99.9 %,
// and scaling within minutes (article §2.3's three service criteria plus availability).
double serviceScore(const Offer& o);

Ranking rankOffers(const Workload& w, const Catalog& catalog, const RankOptions& opt);

// Why a result ranks where it does, as messages with numbers (rank.cheapest_job {cost_usd}, rank.fits_on {...}).
Messages resultReasons(const RankResult& r, const Ranking& ranking);
// Claim-check and data warnings of the offer, plus stale price, memory and spot warnings for this result.
Messages resultWarnings(const RankResult& r, const Workload& w, const RankOptions& opt);

}  // namespace gpuvalue
