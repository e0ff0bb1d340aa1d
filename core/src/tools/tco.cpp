// Energy per job and owning versus renting (article §5: liquid cooling, PUE).
#include <algorithm>
#include <cmath>

#include "tools/decisions.hpp"

namespace gpuvalue {

EnergyResult jobEnergy(const EnergyInputs& in) {
  EnergyResult r;
  r.it_energy_kwh = in.power_w * in.utilisation * in.hours / 1000.0;
  r.facility_energy_kwh = r.it_energy_kwh * in.pue;
  r.cost_usd = r.facility_energy_kwh * in.usd_per_kwh;
  r.co2_kg = r.facility_energy_kwh * in.kg_co2_per_kwh;
  return r;
}

TcoPoint tcoAt(const TcoInputs& in, double u) {
  // Owning: straight-line amortisation + other fixed costs + energy drawn in proportion to utilisation (idle power
  // is not modelled). Renting: the hourly rate for the used GPU-hours only.
  TcoPoint p;
  p.utilisation = u;
  const double capex = in.amortisation_years > 0 ? in.purchase_usd / in.amortisation_years : 0;
  const double energy = in.power_w / 1000.0 * in.pue * kHoursPerYear * u * in.usd_per_kwh;
  p.own_usd_per_year = capex + in.other_usd_per_year + energy;
  const double used_gpu_hours = in.gpu_count * kHoursPerYear * u;
  p.rent_usd_per_year = in.rent_usd_per_gpu_hour * used_gpu_hours;
  p.own_usd_per_used_gpu_hour = used_gpu_hours > 0 ? p.own_usd_per_year / used_gpu_hours : 0;
  return p;
}

TcoResult ownVsRent(const TcoInputs& in, const std::vector<double>& utilisations) {
  TcoResult r;
  r.capex_usd_per_year = in.amortisation_years > 0 ? in.purchase_usd / in.amortisation_years : 0;
  r.energy_usd_per_year_at_full_load = in.power_w / 1000.0 * in.pue * kHoursPerYear * in.usd_per_kwh;
  // own(u) = rent(u)  <=>  fixed + E·u = rent_rate·count·8760·u  <=>  u* = fixed / (rent_rate·count·8760 − E).
  const double fixed = r.capex_usd_per_year + in.other_usd_per_year;
  const double margin = in.rent_usd_per_gpu_hour * in.gpu_count * kHoursPerYear - r.energy_usd_per_year_at_full_load;
  if (margin <= 0) {
    r.never_breaks_even = true;
    r.break_even_utilisation = 0;
  } else {
    r.break_even_utilisation = fixed / margin;
  }
  for (double u : utilisations) r.points.push_back(tcoAt(in, u));
  return r;
}

const Offer* cheapestOnDemandPerGpu(const Catalog& catalog, const std::string& gpu_id, const OfferScope& scope) {
  const Offer* best = nullptr;
  for (const Offer& o : catalog.offers) {
    if (!o.gpu || o.gpu->id != gpu_id || o.gpu_count <= 0 || o.marketplace) continue;
    const Price* p = o.price(PricingModel::kOnDemand);
    if (!p || !(p->usd_per_hour > 0) || !scope.admits(o, *p)) continue;
    if (!best || p->usd_per_hour / o.gpu_count < best->price(PricingModel::kOnDemand)->usd_per_hour / best->gpu_count) best = &o;
  }
  return best;
}

}  // namespace gpuvalue
