// Why a ranked offer stands where it does, and what to watch for: the reasons and warnings of one result, as
// message codes with their numbers (the message catalogs word them).
#include "model/ranking.hpp"

namespace gpuvalue {

Messages resultReasons(const RankResult& r, const Ranking& ranking) {
  Messages reasons;
  if (!r.fits) {
    reasons.push_back(Message("rank.no_fit"));
    return reasons;
  }
  // The bests are over the offers within the horizon: an offer beyond it is not called the cheapest or fastest.
  const bool compared = r.in_first_group || ranking.meeting_count == 0;
  if (compared && (isFreeJob(r.model, r.fits, r.cost.cost_usd, r.cost.wall_hours) ||
                   (r.cost.cost_usd > 0 && r.cost.cost_usd <= ranking.best_cost * (1 + 1e-9))))
    reasons.push_back(Message("rank.cheapest_job").num("cost_usd", r.cost.cost_usd));
  if (compared && r.cost.wall_hours > 0 && r.cost.wall_hours <= ranking.best_time * (1 + 1e-9))
    reasons.push_back(Message("rank.fastest").num("time_hours", r.cost.wall_hours));
  if (compared && r.usd_per_tflops_day > 0 && r.usd_per_tflops_day <= ranking.best_unit * (1 + 1e-9))
    reasons.push_back(Message("rank.lowest_unit_cost"));
  if (r.pareto) reasons.push_back(Message("rank.pareto"));
  reasons.push_back(Message("rank.fits_on").num("gpu_count", r.nodes() * r.offer->gpu_count).num("node_count", r.nodes())
                        .text("sharding", r.memory().sharding.label()));
  if (r.nodes() > r.eval->fit_nodes && r.meets_horizon && ranking.horizon_hours > 0)
    reasons.push_back(Message("rank.scaled_for_horizon").num("node_count", r.nodes()).num("fit_node_count", r.eval->fit_nodes)
                          .num("horizon_hours", ranking.horizon_hours));
  if (isCommitment(r.model) && r.cost.amortised_cost_usd > 0)
    reasons.push_back(Message("rank.commitment_cost").text("pricing", pricingModelName(r.model)).num("cost_usd", r.cost.cost_usd)
                          .num("billed_hours", r.cost.billed_hours).num("amortised_cost_usd", r.cost.amortised_cost_usd));
  if (r.cheaper_on_demand_usd > 0)
    reasons.push_back(Message("rank.below_on_demand").num("cost_usd", r.cheaper_on_demand_usd));
  if (r.model == PricingModel::kReserved && r.cost.break_even_utilisation > 0)
    reasons.push_back(Message("rank.reserved_break_even").num("share_fraction", r.cost.break_even_utilisation));
  return reasons;
}

Messages resultWarnings(const RankResult& r, const Workload& w, const RankOptions& opt) {
  Messages warnings = r.offer->warnings;
  Message stale = staleWarning(*r.price, opt.today);
  if (!stale.empty()) warnings.push_back(std::move(stale));
  // The article's unit cost divides by the dense FP16 peak: a GPU without one (K80, M60, P4) has none, not $0.
  if (!(r.offer->gpu->peak(Precision::kFp16) > 0)) warnings.push_back(Message("rank.unit_cost_unknown").text("gpu", r.offer->gpu_id));
  if (!r.throughput().supported) warnings.push_back(Message("rank.precision_unsupported").text("precision", precisionName(w.precision)));
  const MemoryBreakdown& m = r.memory();
  if (!m.fits)
    warnings.push_back(Message(r.offer->rdma ? "rank.memory_short" : "rank.memory_short_no_rdma")
                           .num("required_gb", m.required_gb).num("available_gb", m.available_gb));
  // A spot price that cannot run the job (rank.spot_infeasible below) has no time to compare with the horizon.
  if (r.fits && !r.meets_horizon && r.cost.feasible)
    warnings.push_back(Message("rank.misses_horizon").num("time_hours", r.cost.wall_hours).num("horizon_hours", effectiveHorizonHours(opt))
                           .num("node_count", r.nodes()));
  if (r.model == PricingModel::kSpot && r.cost.available)
    warnings.push_back(Message(r.cost.feasible ? "rank.spot_interruptions" : "rank.spot_infeasible")
                           .num("interruption_count", r.cost.expected_interruptions)
                           .num("interval_hours", r.cost.checkpoint_interval_hours));
  return warnings;
}

}  // namespace gpuvalue
