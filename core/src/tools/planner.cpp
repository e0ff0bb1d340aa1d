// Portfolio planner: which mix of reserved, on-demand and spot capacity serves a year of GPU demand at the
// lowest expected cost while meeting a task-completion target.
#include <algorithm>
#include <cmath>

#include "tools/decisions.hpp"

namespace gpuvalue {

double expectedServed(double mean, double peak, double cap) {
  if (!(cap > 0) || !(mean > 0)) return 0;
  if (peak <= mean) return std::min(mean, cap);  // flat load
  if (cap >= peak) return mean;
  const double a = 2.0 * mean - peak;
  if (a >= 0) {
    // L ~ U[a, peak]: E[min(L, cap)] = (∫_a^cap l dl + cap·(peak − cap)) / (peak − a).
    if (cap <= a) return cap;
    return ((cap * cap - a * a) / 2.0 + cap * (peak - cap)) / (peak - a);
  }
  // Busy (L ~ U[0, peak]) for q = 2·mean/peak of the time, idle otherwise: q · (cap − cap²/(2·peak)).
  const double q = 2.0 * mean / peak;
  return q * (cap - cap * cap / (2.0 * peak));
}

void spotTaskModel(const PlanInputs& in, double& overhead, double& p_complete) {
  // One spot task through priceJob: per-second billing, Young's checkpoint interval, the Poisson deadline model.
  Offer o;
  o.billing_increment_s = 1;
  o.min_charge_s = 0;
  Price p;
  p.model = PricingModel::kSpot;
  p.usd_per_hour = 1;
  p.editTerms().interruption_per_hour = in.interruptions_per_hour;
  SpotOptions s;
  s.checkpoint_write_hours = in.checkpoint_write_hours;
  s.restart_hours = in.restart_hours;
  s.deadline_hours = in.task_hours * in.deadline_factor;
  // Young's interval (sqrt(2·write/λ)) can exceed a short task when interruptions are rare; a task never loses
  // more than its own length, so checkpoint at least once per task.
  if (in.interruptions_per_hour > 0)
    s.checkpoint_interval_hours = std::min(std::sqrt(2.0 * in.checkpoint_write_hours / in.interruptions_per_hour), in.task_hours);
  const CostResult c = priceJob(o, p, in.task_hours, 1, s);
  if (!c.feasible || !(in.task_hours > 0)) {
    overhead = 20;
    p_complete = 0;
    return;
  }
  overhead = c.wall_hours / in.task_hours;
  p_complete = c.p_finish_by_deadline;
}

PortfolioResult evaluatePortfolio(const PlanInputs& in, double R, double x) {
  PortfolioResult r;
  r.reserved_gpus = R;
  r.spot_share_of_flexible = x;
  spotTaskModel(in, r.spot_overhead, r.spot_task_completion);
  const double f = std::min(1.0, std::max(0.0, in.interruptible_fraction));
  for (size_t m = 0; m < in.monthly_gpu_hours.size(); ++m) {
    const double D = in.monthly_gpu_hours[m];
    const double mean = D / kHoursPerMonth;
    const double peak = m < in.peak_gpus.size() ? std::max(in.peak_gpus[m], mean) : mean;
    const double spot = x * f * D;
    // Rigid work has the month's load shape scaled by (1 − f): E[min((1−f)L, R)] = (1−f)·E[min(L, R/(1−f))].
    const double rigid = (1.0 - f) * D;
    const double rigid_reserved = f < 1 ? (1.0 - f) * kHoursPerMonth * expectedServed(mean, peak, R / (1.0 - f)) : 0;
    // Interruptible work not sent to spot can wait, so it fills the reserved capacity the rigid work leaves idle.
    const double idle = std::max(0.0, R * kHoursPerMonth - rigid_reserved);
    const double flexible = (1.0 - x) * f * D;
    const double flexible_reserved = std::min(flexible, idle);
    const double od = (rigid - rigid_reserved) + (flexible - flexible_reserved);
    const double cost = R * kHoursPerMonth * in.reserved_usd_per_gpu_hour + od * in.on_demand_usd_per_gpu_hour +
                        spot * r.spot_overhead * in.spot_usd_per_gpu_hour;
    r.reserved_hours += rigid_reserved + flexible_reserved;
    r.on_demand_hours += od;
    r.spot_hours += spot;
    r.total_hours += D;
    r.reserved_cost_usd += R * kHoursPerMonth * in.reserved_usd_per_gpu_hour;
    r.on_demand_cost_usd += od * in.on_demand_usd_per_gpu_hour;
    r.spot_cost_usd += spot * r.spot_overhead * in.spot_usd_per_gpu_hour;
    r.monthly_cost_usd.push_back(cost);
  }
  r.annual_cost_usd = r.reserved_cost_usd + r.on_demand_cost_usd + r.spot_cost_usd;
  r.on_demand_only_cost_usd = r.total_hours * in.on_demand_usd_per_gpu_hour;
  r.saving = r.on_demand_only_cost_usd > 0 ? 1.0 - r.annual_cost_usd / r.on_demand_only_cost_usd : 0;
  // A spot task that misses its deadline is not completed (not rerun elsewhere); everything else completes.
  r.completion_rate = r.total_hours > 0 ? 1.0 - r.spot_hours / r.total_hours * (1.0 - r.spot_task_completion) : 1;
  const double paid = R * kHoursPerMonth * static_cast<double>(in.monthly_gpu_hours.size());
  r.reserved_utilisation = paid > 0 ? r.reserved_hours / paid : 0;
  return r;
}

PortfolioResult optimisePortfolio(const PlanInputs& in, double fixed_spot_share) {
  double top = 0;
  for (size_t m = 0; m < in.monthly_gpu_hours.size(); ++m) {
    top = std::max(top, in.monthly_gpu_hours[m] / kHoursPerMonth);
    if (m < in.peak_gpus.size()) top = std::max(top, in.peak_gpus[m]);
  }
  double step = in.reserved_granularity_gpus > 0 ? in.reserved_granularity_gpus : 1;
  int steps = static_cast<int>(std::ceil(top / step - 1e-9));
  if (steps > 2000) {  // keep the search bounded: at most 2001 reserved levels
    step = step * std::ceil(steps / 2000.0);
    steps = static_cast<int>(std::ceil(top / step - 1e-9));
  }
  const double f = std::min(1.0, std::max(0.0, in.interruptible_fraction));
  std::vector<double> xs;
  if (fixed_spot_share >= 0) xs.push_back(f > 0 ? std::min(1.0, fixed_spot_share / f) : 0);
  else if (f <= 0) xs.push_back(0);
  else
    for (int i = 0; i <= 100; ++i) xs.push_back(i / 100.0);
  PortfolioResult best;
  bool have = false;
  PortfolioResult most_complete;
  bool have_any = false;
  for (int s = 0; s <= steps; ++s) {
    const double R = s * step;
    for (double x : xs) {
      PortfolioResult r = evaluatePortfolio(in, R, x);
      if (!have_any || r.completion_rate > most_complete.completion_rate + 1e-12 ||
          (std::fabs(r.completion_rate - most_complete.completion_rate) <= 1e-12 &&
           r.annual_cost_usd < most_complete.annual_cost_usd)) {
        most_complete = r;
        have_any = true;
      }
      if (r.completion_rate + 1e-12 < in.target_completion_rate) continue;
      if (!have || r.annual_cost_usd < best.annual_cost_usd - 1e-9) {
        best = r;
        have = true;
      }
    }
  }
  // When no mix meets the target (only possible with a fixed spot share), return the most complete one.
  return have ? best : most_complete;
}

ArticleMixCheck checkArticleMix(const PlanInputs& in, double spot_share, double claimed_saving, double claimed_completion) {
  ArticleMixCheck c;
  c.article = optimisePortfolio(in, spot_share);
  // Reserved rate the mix would need for the claimed saving: R·8760·r + OD + spot = (1 − saving)·on-demand only.
  const double paid_hours = c.article.reserved_gpus * kHoursPerYear;
  c.reserved_rate_needed = paid_hours > 0 ? ((1.0 - claimed_saving) * c.article.on_demand_only_cost_usd -
                                             c.article.on_demand_cost_usd - c.article.spot_cost_usd) / paid_hours : 0;
  double lo = 0, hi = 10;
  for (int i = 0; i < 80; ++i) {
    PlanInputs t = in;
    t.interruptions_per_hour = (lo + hi) / 2;
    const PortfolioResult e = evaluatePortfolio(t, c.article.reserved_gpus, c.article.spot_share_of_flexible);
    if (e.completion_rate > claimed_completion) lo = t.interruptions_per_hour;
    else hi = t.interruptions_per_hour;
  }
  c.interruptions_for_completion = hi;
  PlanInputs daily = in;
  daily.interruptions_per_hour = SpotOptions().interruptions_per_node_hour;
  c.article_daily = evaluatePortfolio(daily, c.article.reserved_gpus, c.article.spot_share_of_flexible);
  c.best_daily = optimisePortfolio(daily);
  return c;
}

}  // namespace gpuvalue
