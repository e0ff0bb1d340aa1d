// What a job costs on an offer under each billing model.
#pragma once
#include <string>

#include "model/catalog.hpp"

namespace gpuvalue {

struct SpotOptions {
  // Interruptions per node-hour when the price record gives none. Assumption: one reclaim per day per node,
  // the upper end GCP documented for preemptible VMs (always stopped within 24 h) and within AWS Spot
  // Advisor's ">20 %/month" bucket that 47 % of GPU pools sit in (docs/sources.md#claim-l).
  double interruptions_per_node_hour = 1.0 / 24.0;
  double checkpoint_interval_hours = 0;    // 0 = Young's optimum sqrt(2·write/λ) (Young 1974)
  double checkpoint_write_hours = 5.0 / 60;  // time to write one checkpoint (assumption, large models ~minutes)
  double restart_hours = 10.0 / 60;        // reacquire an instance, reload data and checkpoint (assumption)
  double deadline_hours = 0;               // 0 = no deadline
};

struct CostResult {
  bool available = false;
  double cost_usd = 0;
  double billed_hours = 0;       // node-hours billed per node after increments and minimum charges
  double wall_hours = 0;         // expected wall-clock time (spot adds interruption overhead)
  double effective_usd_per_hour = 0;  // per node
  // Spot.
  double expected_interruptions = 0;
  double checkpoint_interval_hours = 0;
  double p_finish_by_deadline = 1;
  bool feasible = true;          // false when interruptions come faster than progress
  // Reserved and monthly: the commitment the job forces (whole terms or months on whole instances; equal to
  // cost_usd) and the job's share of it at the committed rate (what the job would cost if the rest of the term
  // were used by other work).
  double commitment_usd = 0;
  double amortised_cost_usd = 0;
  double break_even_utilisation = 0;  // reserved rate / on-demand rate
  const char* note = "";        // a message code without parameters, or "" (not a std::string: ranking prices every offer)
};

// Rounds a run up to the billing increment and minimum charge, in hours.
double billedHours(const Offer& o, double hours);
// Spot interruptions per instance-hour of a price: its published rate, else the options' default.
double interruptionsPerHour(const Price& p, const SpotOptions& spot);

// Cost of running `nodes` instances of `offer` for `hours` of work under `price`: what the user pays for this job.
// Reserved and monthly prices are commitments: whole terms (months) on whole instances. free_trial_hours >= 0
// replaces an on-demand price's own free-trial hours (a request's override).
CostResult priceJob(const Offer& offer, const Price& price, double hours, int nodes, const SpotOptions& spot,
                    double free_trial_hours = -1);

// The hourly rate a job of `hours` pays per node: a tiered price's cost over its billed hours (not its first tier,
// which a teaser rate makes look cheap), the headline rate of any other price.
double jobUsdPerHour(const Offer& o, const Price& p, double hours);
// True for billing that commits to a term: reserved and monthly.
bool isCommitment(PricingModel m);
// The hourly rate per node the job pays under `cost`: a commitment's whole cost over the job's wall hours (a
// month bought for a 6-hour job costs that month in those 6 hours), jobUsdPerHour otherwise.
double jobRateUsdPerHour(const Offer& o, const Price& p, const CostResult& cost, int nodes);
// Tiered cost: each tier's hours at its rate (article GN10: 100 h × $8.5 + rest × $6.2).
double tieredCost(const std::vector<PriceTier>& tiers, double hours);

// Unit compute cost in $/TFLOPS·day = hourly price × 24 / (GPU count × per-GPU dense TFLOPS) (article §2.1).
double usdPerTflopsDay(double usd_per_hour, int gpu_count, double tflops_per_gpu);

// P(Poisson(mean) <= k).
double poissonCdf(int k, double mean);

}  // namespace gpuvalue
