// Evaluates a workload on every offer of a catalog and ranks the results (article §2: unit compute cost,
// task completion efficiency, service value).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "model/calibration.hpp"
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
  // The seed article's illustrative offers (made-up prices) and prices older than kStaleAfterDays (on
  // RankOptions::today) are left out unless asked for: a ranking's first rows must be offers one can buy today.
  bool include_examples = false;
  bool include_marketplace = true;  // false = drop offers of marketplace hosts (Offer::marketplace)
  bool include_stale = false;
};

// The default time horizon a job is planned for: 30 days of wall time. A stated planning assumption, not a
// measurement: one calendar month, the period GPU clouds bill and budget capacity by (kHoursPerMonth), and the
// scale of published large pretraining runs (GPT-3 175B on 1,024 A100s: 34 days, Narayanan et al., "Efficient
// Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC'21, arXiv:2104.04473, §5.1).
// Without it every offer ran on the smallest node count that fits, and a job sized for hundreds of GPUs ranked
// as if it ran on one node for years.
constexpr double kDefaultHorizonHours = 30 * 24.0;

struct RankOptions {
  Weights weights;
  RankFilters filters;
  SpotOptions spot;
  ModelConstants constants;
  // The user's measurements fitted on the workload (model/calibration.hpp): each offer's evaluation takes the factor
  // and band of its nearest measurement. Inactive without measurements.
  Calibration calibration;
  // Each offer runs on the smallest node count that fits and finishes within the horizon (the deadline when one is
  // set), scaling out over RDMA up to max_nodes; an offer that cannot meet it ranks below every one that can.
  // 0 = no horizon (the smallest node count that fits).
  double horizon_hours = kDefaultHorizonHours;
  // Largest multi-node cluster considered (only offers with RDMA scale out): 256 nodes of 8 GPUs is 2,048 GPUs,
  // the cluster LLaMA 65B was trained on ("2048 A100 GPU with 80GB of RAM", Touvron et al. 2023, "LLaMA: Open
  // and Efficient Foundation Language Models", arXiv:2302.13971, §2.4).
  int max_nodes = 256;
  double free_trial_hours = -1;  // >= 0 overrides every on-demand price's free-trial hours
  size_t limit = 0;          // keep only the best `limit` results (0 = all); counts still cover every result
  // Every result as a RankEntry (Ranking::entries, best first) and no RankResult: a view of a large ranking
  // orders and groups entries and builds full results (resultAt) for the few hundred it writes.
  bool entries_only = false;
  std::string today;         // YYYY-MM-DD, for staleness
};

// What one hardware configuration (GPU, GPUs per node, interconnect, network) achieves: evaluated once per
// distinct configuration, shared by every offer and price that sells it.
struct Evaluation {
  int nodes = 1;
  int fit_nodes = 1;         // the smallest node count that fits (nodes is larger when the horizon needs more)
  const Offer* offer = nullptr;  // the first offer of this hardware
  MemoryBreakdown memory;
  Throughput throughput;
  CalibrationPick calibrated;  // the measurement this evaluation is calibrated on (inactive without measurements)
  // Expected spot wall time at the last interruption rate asked for (ranking prices many spot offers of the
  // same hardware at the default rate; the wall time depends only on the rate and this evaluation).
  mutable double spot_lambda = -1, spot_wall_hours = 0;
  mutable bool spot_feasible = true;  // false when interruptions at that rate come faster than progress
  // The last ranking that used this evaluation (each ranking lists the evaluations it used once).
  mutable uint64_t ranking_stamp = 0;
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
  bool meets_horizon = true;         // the wall time is within the ranking's horizon (always true without one)
  // Ranked with the first group: within the horizon, or within the widened horizon when nothing meets it.
  bool in_first_group = true;
  bool pareto = false;
  bool stale = false;
  // A commitment (reserved, monthly) ranked below a cheaper on-demand offer of the same GPU and GPU count:
  // the lowest such on-demand job cost, else 0.
  double cheaper_on_demand_usd = 0;
  int nodes() const { return eval->nodes; }
  const MemoryBreakdown& memory() const { return eval->memory; }
  const Throughput& throughput() const { return eval->throughput; }
};

// The evaluations of one workload, with one set of evaluation options (constants, max_nodes, horizon), on the
// distinct hardware of one catalog. A ranking fills one; the engine keeps it for the next ranking of the same
// workload and options on the same catalog (the page re-ranks on every weight, filter or billing change, none of
// which changes an evaluation). Evaluations keep pointers into the catalog: a store dies with its catalog.
class EvaluationStore {
 public:
  EvaluationStore();
  ~EvaluationStore();
  EvaluationStore(const EvaluationStore&) = delete;
  EvaluationStore& operator=(const EvaluationStore&) = delete;
  // The evaluation of o's hardware, made on first use (found by the offer's hardware hash and verified against the
  // first offer that produced it; a different configuration with an equal hash gets its own).
  const Evaluation& of(const Workload& w, const Offer& o, const RankOptions& opt);
  size_t size() const { return evaluations_.size(); }

 private:
  struct Index;
  std::unique_ptr<Index> index_;
  std::deque<Evaluation> evaluations_;  // a deque keeps their addresses stable
};

// What ranking keeps per (offer, billing model): pointers and the numbers that order, filter, group and plot
// results (40 bytes in wasm instead of a ~600-byte RankResult; 200,000 of them for a 100,000-offer catalog). What
// follows from these and the ranking (unit cost, score, the cheaper on-demand job) is computed where it is read.
struct RankEntry {
  const Offer* offer;
  const Price* price;
  const Evaluation* eval;
  bool fits, meets;
  bool pareto;                   // on the cost–time frontier (set once the frontier is known)
  // The job can finish under this price: false for a spot price whose interruptions come faster than the job
  // progresses (pricing.cpp, cost.spot_infeasible). Such a result is listed with its warning but neither ranked
  // nor counted within the horizon, nor used as the best of any dimension: its time is no estimate.
  bool runs;
  double cost_usd, wall_hours;
  double order;                  // the score the order uses (a commitment's is capped below cheaper on-demand offers)
  PricingModel model() const { return price->model; }
  int nodes() const { return eval->nodes; }
  // Fits in memory and can finish under its price: what the scores, the bests and the frontier consider.
  bool ranked() const { return fits && runs; }
  // $/TFLOPS·day at FP16 dense (article formula) at the rate the job pays.
  double usdPerTflopsDay() const;
};

// A fitting on-demand job that costs $0 because the price's free trial covers it: the cheapest there is, not a
// missing cost (on-demand rates are at least $0.001/h, so nothing else prices a finished job at $0).
inline bool isFreeJob(PricingModel m, bool fits, double cost_usd, double wall_hours) {
  return m == PricingModel::kOnDemand && fits && cost_usd == 0 && wall_hours > 0 && wall_hours < 1e300;
}

struct Ranking {
  std::vector<RankResult> results;   // best first (at most RankOptions::limit); empty with entries_only
  std::vector<RankEntry> entries;    // with entries_only: every result, best first
  size_t evaluated = 0;
  size_t result_count = 0;           // results before the limit
  size_t fitting_count = 0;
  size_t meeting_count = 0;          // fitting results within the horizon (the widened one when it was widened)
  double horizon_hours = 0;          // the horizon used (the deadline when one is set; 0 = none)
  // When no result can finish within the horizon: the horizon doubled until one can (else 0). The results within
  // it rank first, as those within the horizon would: a job of years is not weighed against one of weeks by cost
  // alone. Entries' `meets` then means within this one; RankResult::meets_horizon keeps the user's horizon.
  double widened_horizon_hours = 0;
  // Over the fitting results within the horizon (over every fitting result when none meets it).
  double best_unit = 0, best_cost = 0, best_time = 0;
  // Kept results whose full price differs from the one they were ranked by (the scan prices spot offers by a
  // shortcut): always 0; the tests check it.
  size_t cost_mismatches = 0;
  // Owns the evaluations the results point into; may be shared with other rankings of the same workload.
  std::shared_ptr<EvaluationStore> store;
  // The distinct hardware evaluations this ranking used, in first-use order.
  std::vector<const Evaluation*> evaluations;
  Weights weights;                   // the weights of the scores
  // The cheapest on-demand job (fitting, with a cost) of each group a commitment is compared within: GPU type,
  // total GPUs, within the horizon or not; sorted by group.
  struct GroupCost {
    const GpuSpec* gpu;
    int gpus;
    bool meets;
    double cost_usd;
  };
  std::vector<GroupCost> cheapest_on_demand;
};

// An entry's weighted score over the ranking's bests (unit cost, task, service) in [0, 1]; 0 when it does not fit.
double entryScore(const Ranking& ranking, const RankEntry& e);
// For a commitment (reserved, monthly): the cheapest on-demand job of its group when that costs less, else 0.
double cheaperOnDemandUsd(const Ranking& ranking, const RankEntry& e);

// Service value in [0, 1]: equal parts preinstalled frameworks, RDMA network, published SLA >= 99.9 %,
// and scaling within minutes (article §2.3's three service criteria plus availability).
double serviceScore(const Offer& o);

// The horizon a ranking works toward: the deadline when one is set, else horizon_hours (0 = none).
double effectiveHorizonHours(const RankOptions& opt);
// The node count the ranking runs an offer on: the smallest that fits, scaled out (RDMA) to meet the horizon.
int rankingNodes(const Workload& w, const Offer& o, const RankOptions& opt);

// Order of the results: fitting first, then those within the horizon, then the weighted score (unit cost, task,
// service), then job cost. A commitment never ranks above an on-demand offer of the same GPU type and total GPU
// count, in the same group, whose job cost is lower.
// `store`: evaluations of earlier rankings of this workload with these evaluation options on this catalog (a new
// store when null).
Ranking rankOffers(const Workload& w, const Catalog& catalog, const RankOptions& opt,
                   std::shared_ptr<EvaluationStore> store = nullptr);

// The full result of entries[index] (a ranking made with entries_only): its full price (spot interruptions,
// commitments, deadline odds, checked against the entry's: a difference counts in cost_mismatches), rates, unit
// costs, scores, frontier and staleness.
RankResult resultAt(Ranking& ranking, size_t index, const Workload& w, const RankOptions& opt);

// Why a result ranks where it does, as messages with numbers (rank.cheapest_job {cost_usd}, rank.fits_on {...}).
Messages resultReasons(const RankResult& r, const Ranking& ranking);
// Claim-check and data warnings of the offer, plus stale price, memory and spot warnings for this result.
Messages resultWarnings(const RankResult& r, const Workload& w, const RankOptions& opt);

}  // namespace gpuvalue
