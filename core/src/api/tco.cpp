// tco: owning vs renting GPUs over the amortisation period, and the utilisation where owning breaks even.
// {"gpu"|"instance", "count"?, "purchase_usd"?, "amortisation_years"?, "utilisation"?, "power_w"?,
//  "cooling"?|"pue"?, "usd_per_kwh"?, "grid"?, "other_usd_per_year"?, "rent_usd_per_gpu_hour"?}
#include <algorithm>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// Purchase price: given, or the DGX A100's pro rata for a100-sxm4-40gb. Power: given, or the GPUs' TDP, as the
// energy method assumes (one power figure for the same GPUs in both answers).
void readHardware(ObjectReader& r, const GpuSpec& g, TcoInputs& in, Assumptions& as) {
  const bool dgx_default = g.id == "a100-sxm4-40gb";
  if (auto p = readNumber(r, T::kPurchase)) {
    in.purchase_usd = *p;
    as.add(T::kPurchase.name, *p, Message("plan.src_given"));
  } else if (dgx_default) {
    in.purchase_usd = kDgxA100PurchaseUsd * in.gpu_count / kDgxA100Gpus;
    as.add(T::kPurchase.name, in.purchase_usd, Message("tco.src_dgx_price"));
  } else if (!r.has(T::kPurchase.name)) {
    r.error(T::kPurchase.name, ErrorCode::kMissingField, Message("error.purchase_required").text("gpu", g.id));
  }
  in.amortisation_years = numberOr(r, T::kAmortisation);
  as.add(T::kAmortisation.name, in.amortisation_years,
         Message(r.has(T::kAmortisation.name) ? "plan.src_given" : "tco.src_amortisation"));
  if (auto p = readNumber(r, T::kPowerW)) {
    in.power_w = *p;
    as.add(T::kPowerW.name, *p, Message("plan.src_given"));
  } else if (!(g.tdp_w > 0) && !r.has(T::kPowerW.name)) {
    r.error(T::kPowerW.name, ErrorCode::kMissingField, Message("error.power_required").text("gpu", g.id));
  } else {
    in.power_w = g.tdp_w * in.gpu_count;
    as.add(T::kPowerW.name, in.power_w, Message("energy.src_tdp").num("power_w", g.tdp_w).num("gpu_count", in.gpu_count));
  }
}

// The rental rate: given, the instance's on-demand price per GPU, or the cheapest on-demand per GPU in the catalog
// outside marketplaces (a resold host is not the capacity owning replaces). `rented`: the offer it comes from.
void readRent(const EngineState& s, ObjectReader& r, const GpuOrInstance& h, TcoInputs& in, Message& source, const Offer*& rented) {
  if (auto p = readNumber(r, T::kRentUsdPerGpuHour)) {
    in.rent_usd_per_gpu_hour = *p;
    source = Message("plan.src_given");
  } else if (h.offer && h.offer->price(PricingModel::kOnDemand)) {
    const Price* p = h.offer->price(PricingModel::kOnDemand);
    in.rent_usd_per_gpu_hour = p->usd_per_hour / h.offer->gpu_count;
    rented = h.offer;
    source = Message("plan.src_offer").text("instance", h.offer->id).text("pricing", "on_demand").num("gpu_count", h.offer->gpu_count)
                 .text("date", p->as_of).text("source", p->source);
  } else if (const Offer* best = cheapestOnDemandPerGpu(s.catalog, h.gpu->id, offerScopeField(r, s.today))) {
    const Price* p = best->price(PricingModel::kOnDemand);
    in.rent_usd_per_gpu_hour = p->usd_per_hour / best->gpu_count;
    rented = best;
    source = Message("tco.src_cheapest_rent").text("instance", best->id).text("date", p->as_of).text("source", p->source);
  } else {
    r.error(T::kRentUsdPerGpuHour.name, ErrorCode::kMissingField, Message("error.rent_required").text("gpu", h.gpu->id));
  }
}

Message verdictText(const TcoResult& t, const TcoInputs& in) {
  if (t.never_breaks_even) return Message("tco.rent_always");
  if (t.break_even_utilisation > 1) return Message("tco.rent_even_at_full").num("share_fraction", t.break_even_utilisation);
  return Message("tco.own_above").num("share_fraction", t.break_even_utilisation).num("year_count", in.amortisation_years)
      .num("usd_per_gpu_hour", in.rent_usd_per_gpu_hour);
}

}  // namespace

std::string apiTco(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  Assumptions as;
  const GpuOrInstance h = gpuOrInstance(s, r);
  if (r.failed()) return r.errorAnswer();
  const GpuSpec& g = *h.gpu;
  TcoInputs in;
  in.gpu_count = integerOr(r, T::kCount, h.offer ? h.offer->gpu_count : 8);
  readHardware(r, g, in, as);
  in.pue = readPue(r, as);
  in.usd_per_kwh = readElectricityPrice(r, readGrid(r), as);
  in.other_usd_per_year = numberOr(r, T::kOtherUsdPerYear);
  as.add(T::kOtherUsdPerYear.name, in.other_usd_per_year,
         Message(r.has(T::kOtherUsdPerYear.name) ? "plan.src_given" : "tco.src_other_costs"));
  Message rent_source;
  const Offer* rented = nullptr;
  readRent(s, r, h, in, rent_source, rented);
  std::vector<double> us = {0.25, 0.5, 0.75, 1.0};
  if (auto u = readNumber(r, T::kTcoUtilisation)) {
    us.push_back(*u);
    std::sort(us.begin(), us.end());
    us.erase(std::unique(us.begin(), us.end()), us.end());
  }
  if (r.failed()) return r.errorAnswer();
  as.add("rent_usd_per_gpu_hour", in.rent_usd_per_gpu_hour, rent_source);
  as.add("energy", Message("tco.assume_energy"), Message("tco.src_energy"));
  const TcoResult t = ownVsRent(in, us);
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("gpu", g.id).field("gpu_count", in.gpu_count).field("purchase_usd", finiteOr(in.purchase_usd))
      .field("amortisation_years", in.amortisation_years).field("power_w", finiteOr(in.power_w)).field("pue", in.pue)
      .field("usd_per_kwh", in.usd_per_kwh).field("rent_usd_per_gpu_hour", finiteOr(in.rent_usd_per_gpu_hour)).key("rent_offer");
  writeRental(j, rented, rented ? rented->price(PricingModel::kOnDemand) : nullptr, s.today);
  j.field("capex_usd_per_year", finiteOr(t.capex_usd_per_year))
      .field("energy_usd_per_year_at_full_load", finiteOr(t.energy_usd_per_year_at_full_load))
      .field("break_even_utilisation", finiteOr(t.break_even_utilisation)).field("never_breaks_even", t.never_breaks_even)
      .field("verdict", verdictText(t, in)).key("points").beginArray();
  for (const auto& p : t.points)
    j.beginObject().field("utilisation", p.utilisation).field("own_usd_per_year", finiteOr(p.own_usd_per_year))
        .field("rent_usd_per_year", finiteOr(p.rent_usd_per_year)).field("own_usd_per_used_gpu_hour", finiteOr(p.own_usd_per_used_gpu_hour))
        .field("cheaper", p.own_usd_per_year < p.rent_usd_per_year ? "own" : "rent").endObject();
  j.endArray().key("assumptions");
  as.write(j);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
