// energy: energy, electricity cost and CO2 of a job, and air- vs liquid-cooled against the article's §5 claim.
// {"gpu"|"instance", "count"?, "hours" | "preset"|"workload", "utilisation"?, "cooling"?|"pue"?, "usd_per_kwh"?,
//  "kg_co2_per_kwh"?, "grid"? ("world" | "china": the defaults of the two before it), "power_w"?, "constants"?}
#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// The article's liquid-cooling claim (docs/sources.md#article, §5): nodes at PUE 1.05 use 40 % less energy than air.
constexpr double kArticleLiquidPue = 1.05;
constexpr double kArticleLiquidEnergySaving = 0.40;

void readEnergyInputs(ObjectReader& r, EnergyInputs& in, Assumptions& as) {
  in.utilisation = numberOr(r, T::kEnergyUtilisation);
  as.add(T::kEnergyUtilisation.name, in.utilisation,
         Message(r.has(T::kEnergyUtilisation.name) ? "plan.src_given" : "energy.src_utilisation"));
  in.pue = readPue(r, as);
  const GridDefaults& grid = readGrid(r);
  in.usd_per_kwh = readElectricityPrice(r, grid, as);
  in.kg_co2_per_kwh = readNumber(r, T::kKgCo2PerKwh).value_or(grid.kg_co2_per_kwh);
  as.add(T::kKgCo2PerKwh.name, in.kg_co2_per_kwh, Message(r.has(T::kKgCo2PerKwh.name) ? "plan.src_given" : grid.co2_source));
}

// The job's hours from the throughput model when none are given (`count` becomes the GPUs it runs on);
// false after reporting why not.
bool modelledHours(const EngineState& s, const json& req, ObjectReader& r, const GpuOrInstance& h, const ModelConstants& k,
                   int& count, double& hours, Message& source, Issues& issues) {
  if (!(req.contains(T::kPreset.name) || req.contains(T::kWorkload.name))) {
    r.error(T::kEnergyHours.name, ErrorCode::kMissingField, Message("error.hours_required"));
    return false;
  }
  Workload w;
  if (!resolveWorkload(s, req, w, issues)) return false;
  ClusterPlan plan;
  if (h.offer) {
    const OfferPlan op = planOnOffer(w, *h.offer, k);
    plan = op.plan;
    count = h.offer->gpu_count * op.nodes;
  } else {
    plan = planCluster(w, defaultCluster(*h.gpu, count), k);
    count = defaultCluster(*h.gpu, count).totalGpus();
  }
  hours = plan.throughput.time_hours;
  source = Message("energy.src_hours_model").text("workload", w.name).num("gpu_count", count).text("gpu", h.gpu->id);
  if (!(hours > 0)) {
    r.error("gpu", ErrorCode::kInvalidValue, Message("error.workload_cannot_run").text("gpu", h.gpu->id));
    return false;
  }
  return true;
}

void writeCooling(JsonWriter& j, const EnergyInputs& in) {
  EnergyInputs air = in, liquid = in, art = in;
  air.pue = kPueAirCooled;
  liquid.pue = kPueLiquidCooled;
  art.pue = kArticleLiquidPue;
  const EnergyResult ea = jobEnergy(air), el = jobEnergy(liquid), eart = jobEnergy(art);
  auto side = [&](const char* key, const EnergyResult& x, double pue) {
    j.key(key).beginObject().field("pue", pue).field("facility_energy_kwh", finiteOr(x.facility_energy_kwh))
        .field("cost_usd", finiteOr(x.cost_usd)).field("co2_kg", finiteOr(x.co2_kg)).endObject();
  };
  const double model_saving = 1.0 - kPueLiquidCooled / kPueAirCooled;
  const double art_saving = 1.0 - kArticleLiquidPue / kPueAirCooled;
  j.key("cooling_comparison").beginObject();
  side("air", ea, kPueAirCooled);
  side("liquid", el, kPueLiquidCooled);
  j.field("liquid_energy_saving", finiteOr(model_saving)).key("article_claim").beginObject()
      .field("pue", kArticleLiquidPue).field("energy_saving", kArticleLiquidEnergySaving)
      .field("source", Message("source.article_cooling"))
      .field("model_energy_saving_at_pue_1_05", finiteOr(art_saving))
      .field("article_pue_facility_energy_kwh", finiteOr(eart.facility_energy_kwh))
      .field("finding", Message("energy.article_finding").num("saving_fraction", art_saving))
      .endObject().endObject();
}

}  // namespace

std::string apiEnergy(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  ModelConstants k;
  readConstantsField(r.doc(), k, r.issues());
  Assumptions as;
  const GpuOrInstance h = gpuOrInstance(s, r);
  int count = integerOr(r, T::kCount, h.offer ? h.offer->gpu_count : 1);
  EnergyInputs in;
  readEnergyInputs(r, in, as);
  double hours = readNumber(r, T::kEnergyHours).value_or(0);
  Message time_source("plan.src_given");
  if (r.failed()) return r.errorAnswer();
  if (!(hours > 0) && !modelledHours(s, r.doc(), r, h, k, count, hours, time_source, r.issues())) return r.errorAnswer();
  const GpuSpec* g = h.gpu;
  const double power_given = readNumber(r, T::kPowerW).value_or(0);
  if (!(power_given > 0) && !(g->tdp_w > 0) && !r.has(T::kPowerW.name)) r.error(T::kPowerW.name, ErrorCode::kMissingField, Message("error.power_required").text("gpu", g->id));
  if (r.failed()) return r.errorAnswer();
  in.power_w = power_given > 0 ? power_given : g->tdp_w * count;
  as.add("power_w", in.power_w,
         power_given > 0 ? Message("plan.src_given") : Message("energy.src_tdp").num("power_w", g->tdp_w).num("gpu_count", count));
  in.hours = hours;
  const EnergyResult e = jobEnergy(in);
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("gpu", g->id).field("gpu_count", count).field("hours", finiteOr(hours))
      .field("hours_source", time_source).field("power_w", finiteOr(in.power_w)).field("utilisation", in.utilisation)
      .field("pue", in.pue).field("it_energy_kwh", finiteOr(e.it_energy_kwh)).field("facility_energy_kwh", finiteOr(e.facility_energy_kwh))
      .field("energy_cost_usd", finiteOr(e.cost_usd)).field("co2_kg", finiteOr(e.co2_kg));
  writeCooling(j, in);
  j.key("assumptions");
  as.write(j);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
