// Decision tools (article §4 and §5): the advisor (model size and training stage -> GPU class, count and
// billing), the yearly capacity portfolio (reserved / on-demand / spot), MIG packing of small jobs, the cost
// levers of one workload (tools/levers.hpp), side-by-side scenarios (tools/compare.hpp), and energy / total cost
// of ownership.
// The math lives in plain functions on structs (tested directly); the Engine turns JSON into these and back
// (core/src/api/<method>.cpp).
#pragma once
#include <string>
#include <vector>

#include "io/messages.hpp"
#include "model/catalog.hpp"
#include "model/performance.hpp"
#include "model/pricing.hpp"

namespace gpuvalue {

constexpr double kHoursPerYear = 8760.0;

// ---------------------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------------------

// defaultCluster (a bare GPU type as a cluster) is in model/performance.hpp.
// An offer's hardware as a cluster of `nodes` instances.
Cluster offerCluster(const Offer& offer, int nodes);

// The smallest GPU count on which some sharding of the workload fits, trying powers of two up to one node of
// `cluster` and whole nodes past it (its GPU, node size and network); 0 when nothing up to 65,536 GPUs fits.
int minGpusToFit(const Workload& w, const Cluster& cluster, const ModelConstants& k);

// Which catalog prices a decision tool may pick, as in the ranking: the seed article's illustrative offers and
// prices older than kStaleAfterDays on `today_day` are left out unless asked for.
struct OfferScope {
  bool include_examples = false;
  bool include_stale = false;
  long today_day = 0;  // dayNumber of the day prices are judged on; 0 = not judged
  bool admits(const Offer& o, const Price& p) const {
    if (o.example) return include_examples;
    return include_stale || today_day <= 0 || !isStale(p, today_day);
  }
};

// The cheapest way to rent `gpu_count` GPUs of one type under one billing model: instances = ceil(gpus /
// offer.gpu_count), more than one instance only over an RDMA network (multi-node training needs it). With a day
// offer outside `scope` is never chosen.
struct OfferChoice {
  const Offer* offer = nullptr;
  const Price* price = nullptr;
  int instances = 0;
  double usd_per_hour = 0;  // all instances together (headline rate)
};
OfferChoice cheapestOffer(const Catalog& catalog, const std::string& gpu_id, int gpu_count, PricingModel model,
                          const OfferScope& scope = OfferScope());

// Smallest node count of an offer on which the workload fits (scale-out only over RDMA, up to max_nodes), as
// the ranking does; returns 1 with the least-memory plan when nothing fits.
struct OfferPlan {
  int nodes = 1;
  ClusterPlan plan;
};
OfferPlan planOnOffer(const Workload& w, const Offer& offer, const ModelConstants& k, int max_nodes = 64);

// 1. The advisor (article §4.1 model size, §4.2 training stage) is in tools/advisor.hpp.

// ---------------------------------------------------------------------------------------------------------
// 2. Portfolio planner: a year of demand on reserved + on-demand + spot capacity
// ---------------------------------------------------------------------------------------------------------

struct PlanInputs {
  std::vector<double> monthly_gpu_hours;  // 12 values: useful GPU-hours of work per month
  std::vector<double> peak_gpus;          // 12 values (or empty): highest concurrent GPUs; <= mean means flat
  double interruptible_fraction = 0;      // share of the work that tolerates interruption and waiting
  double target_completion_rate = 0.99;
  double on_demand_usd_per_gpu_hour = 0;
  double reserved_usd_per_gpu_hour = 0;   // effective hourly rate of the commitment (paid for every hour)
  double spot_usd_per_gpu_hour = 0;
  double reserved_granularity_gpus = 1;   // reserved capacity is bought in steps of this many GPUs
  // Spot tasks: interruptions per task-hour, checkpoint and restart costs (SpotOptions semantics), the length
  // of one task and its deadline as a multiple of that length; a task that misses it counts as not completed.
  double interruptions_per_hour = 1.0 / 24.0;
  double checkpoint_write_hours = 5.0 / 60;
  double restart_hours = 10.0 / 60;
  double task_hours = 8;
  double deadline_factor = 1.5;
};

struct PortfolioResult {
  double reserved_gpus = 0;
  double spot_share_of_flexible = 0;     // x: share of the interruptible work sent to spot
  double reserved_hours = 0, on_demand_hours = 0, spot_hours = 0;  // useful GPU-hours served by each
  double total_hours = 0;
  double reserved_cost_usd = 0, on_demand_cost_usd = 0, spot_cost_usd = 0;
  double annual_cost_usd = 0;
  double on_demand_only_cost_usd = 0;
  double saving = 0;                     // 1 - annual / on-demand only
  double completion_rate = 1;
  double reserved_utilisation = 0;       // useful reserved hours / paid reserved hours
  double spot_overhead = 1;              // spot GPU-hours paid per useful hour (checkpoints, lost work, restarts)
  double spot_task_completion = 1;       // P(a spot task finishes by its deadline)
  std::vector<double> monthly_cost_usd;
};

// E[min(L, cap)] for a load with mean `mean` and peak `peak` (GPUs) within a month: flat when peak <= mean;
// uniform on [2·mean − peak, peak] when that is >= 0; otherwise uniform on [0, peak] for 2·mean/peak of the time
// and idle the rest. (A linear load-duration curve: the simplest shape fixed by a mean and a peak.)
double expectedServed(double mean, double peak, double cap);
// Spot overhead and per-task completion probability from priceJob's checkpoint/restart model.
void spotTaskModel(const PlanInputs& in, double& overhead, double& p_complete);
// Yearly cost and completion of one mix. Per month: spot takes x·f of the work; rigid work (1−f) has the month's
// load shape and runs on reserved capacity up to R GPUs, the rest on-demand; interruptible work not on spot waits
// for idle reserved hours, the rest on-demand. Reserved capacity is paid for every hour (R × 730 × rate).
PortfolioResult evaluatePortfolio(const PlanInputs& in, double reserved_gpus, double spot_share_of_flexible);
// Grid search: reserved capacity in granularity steps up to the highest peak, spot share in 1 % steps; the
// cheapest mix whose completion rate meets the target. `fixed_spot_share` >= 0 fixes the spot share of the
// *total* work (the article's 30 %) and optimises only the reserved capacity.
PortfolioResult optimisePortfolio(const PlanInputs& in, double fixed_spot_share = -1);

// The article's portfolio claim (§4) checked against the model: its mix (`spot_share` of the interruptible work
// on spot, reserved capacity sized at the cheapest level), the reserved rate that mix would need for
// `claimed_saving`, the interruption rate at which it completes only `claimed_completion` of its tasks
// (bisection on λ), and both mixes at one interruption per node-day.
struct ArticleMixCheck {
  PortfolioResult article;                 // the article's mix with the given inputs
  double reserved_rate_needed = 0;         // USD per GPU-hour for the claimed saving
  double interruptions_for_completion = 0; // per node-hour
  PortfolioResult article_daily;           // the article's mix at one interruption per node-day
  PortfolioResult best_daily;              // the cheapest mix at one interruption per node-day
};
ArticleMixCheck checkArticleMix(const PlanInputs& in, double spot_share, double claimed_saving, double claimed_completion);

// ---------------------------------------------------------------------------------------------------------
// 3. MIG packing
// ---------------------------------------------------------------------------------------------------------

struct MigJob {
  double memory_gb = 0;
  double compute_share = 1.0 / 7.0;  // share of the whole GPU's compute the job needs (default: one slice)
  double hours = 1;
};

// "7x8gb", "3x20gb,2x5gb", "2x10gb:0.3@4h" (count x memory, optional :compute share, optional @hours).
bool parseMigJobSpec(const std::string& spec, std::vector<MigJob>& out, Message& error);

struct MigPlacement {
  int job = 0;          // index into the job list
  int profile = -1;     // index into GpuSpec::mig_profiles
  int gpu_index = 0;
  int start_slice = 0;  // first memory slice (NVML placement start, `nvidia-smi mig -lgipp`)
};

struct MigPacking {
  bool fits = false;                 // every job placed
  int gpus = 0;
  std::vector<MigPlacement> placements;
  std::vector<int> unplaced;         // jobs larger than every profile
  std::vector<double> gpu_hours;     // per GPU: its longest job
};

// Memory slices (of 8) a profile occupies: memory_gb / (GPU memory / 8), rounded (MIG user guide: A100/H100/H200
// have 8 memory slices and 7 compute slices).
int migMemorySlices(const GpuSpec& gpu, const MigProfile& p);
// The smallest profile with memory_gb >= job memory and compute_slices/7 >= share; -1 when none.
int smallestMigProfile(const GpuSpec& gpu, const MigJob& job);
// First-fit decreasing onto GPUs, placements restricted to NVML's (start multiple of the slice count, the first
// max_count starts), no overlapping memory or compute slices, compute slices summing to <= 7.
MigPacking packMig(const GpuSpec& gpu, const std::vector<MigJob>& jobs);

// Cost of renting enough on-demand instances to give every GPU its hours: GPUs sorted by hours, grouped
// gpu_count per instance, each instance billed for its longest GPU (billing increments applied).
double rentGpusCost(const Offer& offer, const Price& price, std::vector<double> gpu_hours);

// The cheapest on-demand rental of one GPU type (examples excluded) for a list of per-GPU busy hours.
struct Rental {
  const Offer* offer = nullptr;
  const Price* price = nullptr;
  double cost_usd = 0;
};
Rental cheapestRental(const Catalog& catalog, const std::string& gpu_id, const std::vector<double>& gpu_hours,
                      const OfferScope& scope = OfferScope());

// Single-GPU roofline TFLOPS of a GPU for generic mixed-precision work (custom workload class), used to compare
// small jobs across GPUs.
double genericTflops(const GpuSpec& gpu, const ModelConstants& k);

// The jobs run one per whole GPU of type `gpu` instead of on MIG slices of a GPU with `mig_tflops`
// (genericTflops): jobs larger than its memory are left out; a job needing share s of the MIG GPU's compute runs
// slower where one whole GPU offers less than that.
struct WholeGpuOption {
  const GpuSpec* gpu = nullptr;
  size_t jobs_that_fit = 0;
  double slowdown = 1;   // the largest over the jobs that fit
  double tflops = 0;     // genericTflops of `gpu`
  Rental rental;         // for the jobs that fit, on-demand
};
WholeGpuOption wholeGpuOption(const Catalog& catalog, const GpuSpec& gpu, const std::vector<MigJob>& jobs, double mig_tflops,
                              const ModelConstants& k, const OfferScope& scope = OfferScope());

// ---------------------------------------------------------------------------------------------------------
// 6. Energy and total cost of ownership (article §5)
// ---------------------------------------------------------------------------------------------------------

// Median AWS Spot saving over 540 GPU instance×region pools: 66 % (spotinfo snapshot of the AWS Spot Advisor
// data, committed 2025-06-28; docs/sources.md#claim-l). Used only when an offer has no spot
// price of its own (levers, plan), and flagged as an estimate.
constexpr double kMedianSpotDiscount = 0.66;

// The planner's article example (§4 start-up: 30 % spot + 70 % reserved, "58 % lower yearly GPU cost, 98.7 % task
// completion"). The article gives no demand, GPU or prices; the demand below is an assumption, the shares are the
// article's figures (docs/sources.md#article).
constexpr const char* kArticlePlanInstance = "aws-p4d.24xlarge-us-east-1";  // catalog offer with on-demand and 1-year reserved A100 prices
constexpr double kArticlePlanGpus = 80;         // assumption: ten p4d.24xlarge busy around the clock every month
constexpr double kArticlePlanTaskHours = 8;     // assumption (not sourced): one spot task is an 8-hour job on one node
constexpr double kArticleCompletionRate = 0.987;  // the article's reported task completion rate (§4)
constexpr double kArticleSpotShare = 0.30;        // the article's spot share, taken as the interruptible share of work

// Power usage effectiveness defaults.
// Air-cooled: 1.58, the industry average of the Uptime Institute Global Data Center Survey 2023 (range
// 1.55-1.59 since ~2020; docs/sources.md#claim-n).
constexpr double kPueAirCooled = 1.58;
// Liquid-cooled: 1.10. Between NREL's warm-water liquid-cooled ESIF HPC data centre, 1.04 trailing-twelve-month
// average (Van Geet, Sickinger, Carter, "Lessons learned from the world's most energy efficient data center",
// NREL/PR-2C00-70433, 2018) and Google's fleet average 1.10 (Q2 2021, docs/sources.md#claim-n). The article's
// 1.05 is at the best end of that range.
constexpr double kPueLiquidCooled = 1.10;
// US average retail electricity price to industrial customers in 2023: 8.06 ¢/kWh (EIA, Electric Power Annual
// with data for 2023, released 2024-10-17, https://www.eia.gov/electricity/annual/ ; as charted by Statista
// statistics/190680).
constexpr double kElectricityUsdPerKwh = 0.0806;
// World average carbon intensity of electricity generation in 2023: 481 gCO2/kWh (Ember, Global Electricity
// Review 2024; Statista statistics/943137 citing Ember, 2024-07-03).
constexpr double kGridKgCo2PerKwh = 0.481;
// Share of TDP drawn while training: 1.0, as Meta's Llama 2 model card computes training CO2 from GPU-hours × TDP
// (github.com/meta-llama/llama MODEL_CARD.md, "CO2 emissions during pretraining": A100-80GB, TDP 350-400 W).
constexpr double kTrainingPowerShareOfTdp = 1.0;
// Hardware amortisation: 5 years, the useful life Amazon (servers, from 2022) and Meta (from Q4 2022) give
// servers in their 10-K filings (Microsoft and Google use 6; summary at shaulkoral.com, "useful life of servers
// and network assets at tech companies").
constexpr double kAmortisationYears = 5.0;
// NVIDIA DGX A100 (8x A100 40GB): $199,000 at launch (NVIDIA newsroom, 2020-05-14, "DGX A100 ... starting at
// $199,000"; reported as "from $200,000" by geektopia.es, 2020-05-14). The only purchase price the engine defaults;
// for other GPUs the user must give one. Power defaults to the GPUs' TDP, as in the energy method.
constexpr double kDgxA100PurchaseUsd = 199000.0;
constexpr int kDgxA100Gpus = 8;

struct EnergyInputs {
  double power_w = 0;          // total board (or system) power at 100 % load
  double hours = 0;
  double utilisation = kTrainingPowerShareOfTdp;
  double pue = kPueAirCooled;
  double usd_per_kwh = kElectricityUsdPerKwh;
  double kg_co2_per_kwh = kGridKgCo2PerKwh;
};
struct EnergyResult {
  double it_energy_kwh = 0;        // power × utilisation × hours
  double facility_energy_kwh = 0;  // × PUE
  double cost_usd = 0;
  double co2_kg = 0;
};
// kWh = power_w × utilisation × hours / 1000 (IT) × PUE (facility); cost = facility kWh × price; CO2 = facility
// kWh × grid intensity.
EnergyResult jobEnergy(const EnergyInputs& in);

struct TcoInputs {
  int gpu_count = 1;
  double purchase_usd = 0;          // hardware for gpu_count GPUs
  double amortisation_years = kAmortisationYears;
  double power_w = 0;               // at full load, for gpu_count GPUs (or the whole system)
  double pue = kPueAirCooled;
  double usd_per_kwh = kElectricityUsdPerKwh;
  double other_usd_per_year = 0;    // colocation, support, staff: not included unless given
  double rent_usd_per_gpu_hour = 0;
};
struct TcoPoint {
  double utilisation = 0;
  double own_usd_per_year = 0;
  double rent_usd_per_year = 0;
  double own_usd_per_used_gpu_hour = 0;
};
struct TcoResult {
  double capex_usd_per_year = 0;
  double energy_usd_per_year_at_full_load = 0;
  double break_even_utilisation = 0;  // owning is cheaper above this; > 1 or never_breaks_even: renting wins
  bool never_breaks_even = false;     // energy alone costs more than renting
  std::vector<TcoPoint> points;
};
// Own: purchase / years + other + power × PUE × 8760 h × u × price (idle power not modelled). Rent: rate × GPUs ×
// 8760 h × u. Break-even u* = (purchase / years + other) / (rate × GPUs × 8760 − energy cost at full load).
TcoPoint tcoAt(const TcoInputs& in, double utilisation);
TcoResult ownVsRent(const TcoInputs& in, const std::vector<double>& utilisations);
// The catalog offer (examples and marketplace resales excluded) with the lowest on-demand price per GPU for this
// GPU type, or nullptr.
const Offer* cheapestOnDemandPerGpu(const Catalog& catalog, const std::string& gpu_id, const OfferScope& scope = OfferScope());

}  // namespace gpuvalue
