// defaults: the engine's default model constants, spot options, ranking weights and decision-tool inputs, for
// the page's forms.
#include "api/answer.hpp"
#include "api/state.hpp"
#include "model/ranking.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {

std::string apiDefaults(EngineState&, const std::string&, const std::string&) {
    SpotOptions s;
    Weights w;
    RankOptions r;
    const json doc = {{"ok", true},
                     {"constants", constantsToJson(ModelConstants())},
                     {"spot", {{"interruptions_per_node_hour", s.interruptions_per_node_hour},
                               {"checkpoint_interval_hours", s.checkpoint_interval_hours},
                               {"checkpoint_write_hours", s.checkpoint_write_hours},
                               {"restart_hours", s.restart_hours}}},
                     {"weights", {{"unit_cost", w.unit_cost}, {"task", w.task}, {"service", w.service}}},
                     {"max_nodes", r.max_nodes},
                     {"decisions", {{"pue_air_cooled", kPueAirCooled},
                                    {"pue_liquid_cooled", kPueLiquidCooled},
                                    {"electricity_usd_per_kwh", kElectricityUsdPerKwh},
                                    {"grid_kg_co2_per_kwh", kGridKgCo2PerKwh},
                                    {"training_power_share_of_tdp", kTrainingPowerShareOfTdp},
                                    {"amortisation_years", kAmortisationYears},
                                    {"median_spot_discount", kMedianSpotDiscount},
                                    {"sources", "core/src/tools/decisions.hpp"}}},
                     {"stale_after_days", kStaleAfterDays}};
  std::string out;
  JsonWriter j(out);
  j.document(doc);
  return out;
}

}  // namespace gpuvalue
