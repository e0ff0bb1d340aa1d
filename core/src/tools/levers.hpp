// The cost levers of one workload on one catalog offer (article §4.3): time and cost before and after mixed
// precision, spot or reserved billing, a MIG slice, and twice or half the GPUs. Plain functions on structs; the
// API layer (core/src/api/levers.cpp) reads the request and writes the answer with its sentences.
#pragma once
#include <string>

#include "tools/decisions.hpp"

namespace gpuvalue {

// Time and cost of the workload on one hardware setup under one price.
struct LeverOutcome {
  bool ok = false;  // the throughput model gives a time
  int gpus = 0, nodes = 0;
  std::string id, provider, instance, sharding;  // the offer it runs on (id, provider, instance type)
  Precision precision = Precision::kFp32;  // the precision the GPU runs
  PricingModel pricing = PricingModel::kOnDemand;
  bool fits = false;
  double time_hours = 0, cost_usd = 0, usd_per_hour = 0, tflops_per_gpu = 0;
};

// What every lever starts from: the workload on `nodes` instances of `offer` under `price` (0 nodes: the node
// count the ranking gives it, sized for the default horizon).
struct LeverBase {
  const Workload* workload = nullptr;
  const Offer* offer = nullptr;
  PricingModel model = PricingModel::kOnDemand;
  const Price* price = nullptr;
  SpotOptions spot;
  ModelConstants constants;
  OfferScope scope;       // which other offers the scale levers may move to
  int nodes = 1;
  LeverOutcome outcome;   // the baseline
};
LeverBase leverBase(const Workload& w, const Offer& offer, PricingModel model, const Price& price, const SpotOptions& spot,
                    const ModelConstants& k, int nodes = 0, const OfferScope& scope = OfferScope());

// What a lever's name promises: a faster job (mixed precision, more GPUs) or a cheaper one (spot, reserved, a MIG
// slice, fewer GPUs). A lever whose after is not better in that direction is not offered as a lever.
enum class LeverDirection { kFaster, kCheaper };
bool leverHelps(LeverDirection d, const LeverOutcome& before, const LeverOutcome& after);
// The workload on `nodes` instances of `offer` under `price`, wall time and cost with priceJob.
LeverOutcome runOn(const Workload& w, const Offer& offer, int nodes, const Price& price, const SpotOptions& spot,
                   const ModelConstants& k);

// Mixed precision: full precision (tf32 or fp32) vs mixed (bf16 or fp16; the workload's own when it is already
// mixed).
struct PrecisionLever {
  bool currently_mixed = false;
  Workload full, mixed;
  LeverOutcome before, after;
  double single_gpu_tflops_before = 0, single_gpu_tflops_after = 0;
  double gain = 0;  // before / after time, 0 when either has none
};
PrecisionLever mixedPrecisionLever(const LeverBase& b);

// Spot billing: the catalog's spot price, else on-demand × (1 − kMedianSpotDiscount) marked estimated.
struct SpotLever {
  bool already = false;    // the baseline is spot
  bool has_price = false;  // a spot or on-demand price exists
  bool estimated = false;
  Price price;
  LeverOutcome after;
};
SpotLever spotLever(const LeverBase& b);

// Reserved billing, amortised over the term.
struct ReservedLever {
  bool already = false;
  const Price* price = nullptr;  // none: the offer has no reserved price
  LeverOutcome after;
  CostResult cost;               // commitment and break-even utilisation
};
ReservedLever reservedLever(const LeverBase& b);

// The smallest MIG slice (fewer than 7 compute slices; least memory first) the job fits in, with the GPU's
// hourly price shared by max_count such jobs side by side.
struct MigLever {
  int profile = -1;  // index into the GPU's mig_profiles; -1: none fits
  bool has_price = false;
  ClusterPlan plan;
  LeverOutcome after;
};
MigLever migLever(const LeverBase& b);

// Twice (direction +1) or half (-1) the GPUs: more nodes of the offer over RDMA, else the same GPU in an
// instance with twice or half as many (same provider first, then the cheapest).
struct ScaleLever {
  const Offer* target = nullptr;  // none: no such configuration with a price
  int nodes = 0;
  LeverOutcome after;
};
ScaleLever scaleLever(const LeverBase& b, const Catalog& catalog, int direction);

}  // namespace gpuvalue
