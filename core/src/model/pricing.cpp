#include "model/pricing.hpp"

#include <algorithm>
#include <cmath>

namespace gpuvalue {


double interruptionsPerHour(const Price& p, const SpotOptions& spot) {
  return p.terms().interruption_per_hour >= 0 ? p.terms().interruption_per_hour : spot.interruptions_per_node_hour;
}

double billedHours(const Offer& o, double hours) {
  double seconds = std::max(0.0, hours) * 3600.0;
  double inc = o.billing_increment_s > 0 ? o.billing_increment_s : 3600;
  double billed = std::ceil(seconds / inc - 1e-9) * inc;
  billed = std::max(billed, o.min_charge_s);
  return billed / 3600.0;
}

double tieredCost(const std::vector<PriceTier>& tiers, double hours) {
  double cost = 0, start = 0;
  for (size_t i = 0; i < tiers.size() && hours > start; ++i) {
    double end = (i + 1 == tiers.size() || tiers[i].up_to_hours <= 0) ? hours : std::min(hours, tiers[i].up_to_hours);
    cost += (end - start) * tiers[i].usd_per_hour;
    start = end;
  }
  return cost;
}

double jobUsdPerHour(const Offer& o, const Price& p, double hours) {
  if (p.model != PricingModel::kTiered) return p.headlineUsdPerHour();
  const double billed = billedHours(o, hours);
  return billed > 0 ? tieredCost(p.terms().tiers, billed) / billed : p.headlineUsdPerHour();
}

bool isCommitment(PricingModel m) { return m == PricingModel::kReserved || m == PricingModel::kMonthly; }

double jobRateUsdPerHour(const Offer& o, const Price& p, const CostResult& cost, int nodes) {
  if (isCommitment(p.model) && cost.wall_hours > 0 && cost.cost_usd > 0) return cost.cost_usd / std::max(1, nodes) / cost.wall_hours;
  return jobUsdPerHour(o, p, cost.wall_hours);
}

double usdPerTflopsDay(double usd_per_hour, int gpu_count, double tflops_per_gpu) {
  if (gpu_count <= 0 || tflops_per_gpu <= 0) return 0;
  return usd_per_hour * 24.0 / (gpu_count * tflops_per_gpu);
}

double poissonCdf(int k, double mean) {
  if (k < 0) return 0;
  if (!(mean > 0)) return 1;
  // Beyond 40 standard deviations (+40) from the mean the Poisson tail is below 1e-26 (Chernoff bound), so the CDF is
  // 0 or 1 to double precision. This also bounds the sums below: with a 1e7-hour deadline and 1-minute checkpoints
  // k reaches 1e9, and summing that many terms took minutes per spot offer.
  const double sd = std::sqrt(mean);
  if (k >= mean + 40 * sd + 40) return 1;
  if (k < mean - 40 * sd - 40) return 0;
  // exp(-mean) underflows past ~700: a normal approximation with continuity correction for large means (error
  // ~1e-4 at 1e4), a sum of log-space terms from 40 standard deviations below the mean in between.
  if (mean > 1e4) return 0.5 * std::erfc((mean - (k + 0.5)) / (sd * std::sqrt(2.0)));
  if (mean > 700) {
    double sum = 0;
    const int from = static_cast<int>(std::max(0.0, mean - 40 * sd - 40));
    for (int i = from; i <= k; ++i) sum += std::exp(-mean + i * std::log(mean) - std::lgamma(i + 1.0));
    return std::min(1.0, sum);
  }
  double term = std::exp(-mean), sum = term;
  for (int i = 1; i <= k; ++i) {
    term *= mean / i;
    sum += term;
    if (term < 1e-16 * sum && i > mean) break;
  }
  return std::min(1.0, sum);
}

CostResult priceJob(const Offer& o, const Price& p, double hours, int nodes, const SpotOptions& spot, double free_trial_hours) {
  CostResult r;
  r.available = true;
  nodes = std::max(1, nodes);
  r.wall_hours = hours;
  switch (p.model) {
    case PricingModel::kOnDemand: {
      const double free_hours = free_trial_hours >= 0 ? free_trial_hours : p.terms().free_hours;
      r.billed_hours = std::max(0.0, billedHours(o, hours) - free_hours);
      r.effective_usd_per_hour = p.usd_per_hour;
      r.cost_usd = r.billed_hours * p.usd_per_hour * nodes;
      break;
    }
    case PricingModel::kReserved: {
      // A reservation is bought for whole terms on whole instances: a job that needs it pays every term it
      // spans, whether the capacity is busy or not ("reservations are billed for every clock-hour during the
      // term you select, regardless of whether an instance is running or not", AWS whitepaper "Amazon EC2
      // Reserved Instances and Other AWS Reservation Models", Usage billing,
      // https://docs.aws.amazon.com/whitepapers/latest/cost-optimization-reservation-models/usage-billing.html).
      // The job's share at the reserved rate (the rest of the term used by other work) is amortised_cost_usd.
      const double term_hours = p.terms().term_months > 0 ? p.terms().term_months * kHoursPerMonth : 0;
      const double terms = term_hours > 0 ? std::ceil(std::max(hours, 1e-9) / term_hours - 1e-9) : 0;
      r.amortised_cost_usd = hours * p.usd_per_hour * nodes;
      r.billed_hours = terms > 0 ? terms * term_hours : hours;
      r.cost_usd = r.billed_hours * p.usd_per_hour * nodes;
      r.commitment_usd = r.cost_usd;
      r.effective_usd_per_hour = hours > 0 ? r.cost_usd / nodes / hours : p.usd_per_hour;
      if (const Price* od = o.price(PricingModel::kOnDemand))
        r.break_even_utilisation = od->usd_per_hour > 0 ? p.usd_per_hour / od->usd_per_hour : 0;
      break;
    }
    case PricingModel::kSpot: {
      // Expected wall time with periodic checkpoints: each interruption loses half an interval of work on
      // average plus the restart; each interval pays one checkpoint write. T = W(1 + c/τ) / (1 − λ(τ/2 + r)).
      const double lambda = interruptionsPerHour(p, spot) * nodes;
      const double c = spot.checkpoint_write_hours, rs = spot.restart_hours;
      double tau = spot.checkpoint_interval_hours;
      if (tau <= 0) tau = lambda > 0 ? std::sqrt(2.0 * c / lambda) : hours;
      tau = std::max(tau, 1.0 / 60);
      r.checkpoint_interval_hours = tau;
      const double work = hours * (lambda > 0 ? 1.0 + c / tau : 1.0);
      const double loss = lambda * (tau / 2.0 + rs);
      if (loss >= 0.95) {
        r.feasible = false;
        r.wall_hours = hours * 20;
        r.note = "cost.spot_infeasible";
      } else {
        r.wall_hours = work / (1.0 - loss);
      }
      r.expected_interruptions = lambda * r.wall_hours;
      r.billed_hours = billedHours(o, r.wall_hours);
      r.effective_usd_per_hour = p.usd_per_hour;
      r.cost_usd = r.billed_hours * p.usd_per_hour * nodes;
      if (spot.deadline_hours > 0) {
        const double slack = spot.deadline_hours - work;
        const double per = tau / 2.0 + rs;
        r.p_finish_by_deadline = slack < 0 ? 0 : poissonCdf(static_cast<int>(std::min(std::floor(slack / per), 2e9)), lambda * spot.deadline_hours);
      }
      break;
    }
    case PricingModel::kTiered: {
      double bh = billedHours(o, hours);
      r.billed_hours = bh;
      r.cost_usd = tieredCost(p.terms().tiers, bh) * nodes;
      r.effective_usd_per_hour = bh > 0 ? r.cost_usd / nodes / bh : p.headlineUsdPerHour();
      break;
    }
    case PricingModel::kServerless: {
      // One run of `hours` on `nodes` workers: each worker starts from zero (cold start billed when published),
      // is billed by the second for the work and its idle timeout, and at least min_request_s.
      if (p.terms().max_concurrency > 0 && nodes > p.terms().max_concurrency) {
        r.available = false;
        r.note = "cost.serverless_over_cap";
        break;
      }
      const double seconds = std::max(0.0, hours) * 3600.0 + std::max(0.0, p.terms().cold_start_s) + p.terms().idle_timeout_s;
      const double billed_s = std::max(std::ceil(seconds - 1e-9), p.terms().min_request_s);
      r.billed_hours = billed_s / 3600.0;
      r.effective_usd_per_hour = p.usd_per_hour;
      r.cost_usd = r.billed_hours * p.usd_per_hour * nodes;
      break;
    }
    case PricingModel::kMonthly: {
      // Whole months on whole instances; the job's share at the monthly rate is amortised_cost_usd.
      double months = std::ceil(std::max(hours, 1e-9) / kHoursPerMonth - 1e-9);
      r.billed_hours = months * kHoursPerMonth;
      r.cost_usd = months * p.terms().usd_per_month * nodes;
      r.commitment_usd = r.cost_usd;
      r.amortised_cost_usd = hours / kHoursPerMonth * p.terms().usd_per_month * nodes;
      r.effective_usd_per_hour = hours > 0 ? r.cost_usd / nodes / hours : p.terms().usd_per_month / kHoursPerMonth;
      break;
    }
  }
  if (!std::isfinite(r.cost_usd)) r.cost_usd = 0, r.available = false;
  return r;
}

}  // namespace gpuvalue
