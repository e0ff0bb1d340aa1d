// defaults: the engine's default model constants, spot options, ranking weights and decision-tool inputs, for
// the page's forms.
#include "api/answer.hpp"
#include "api/state.hpp"
#include "model/ranking.hpp"
#include "tools/advisor.hpp"

namespace gpuvalue {

std::string apiDefaults(EngineState&, const std::string&, const std::string&) {
    SpotOptions s;
    Weights w;
    RankOptions r;
    // The names each request field takes, so that the page lists them from here. A workload accepts the
    // training precisions only (not fp4 or int8); the energy tool's cooling is air or liquid.
    json names = {{"pricing_models", json::array()}, {"precisions", json::array()}, {"stages", json::array()}};
    for (int m = 0; m < kPricingModelCount; ++m) names["pricing_models"].push_back(pricingModelName(static_cast<PricingModel>(m)));
    for (Precision p : {Precision::kFp32, Precision::kTf32, Precision::kFp16, Precision::kBf16, Precision::kFp8}) names["precisions"].push_back(precisionName(p));
    names["workload_kinds"] = {workloadKindName(WorkloadKind::kTransformer), workloadKindName(WorkloadKind::kCnn), workloadKindName(WorkloadKind::kCustom)};
    names["modes"] = {modeName(Mode::kPretrain), modeName(Mode::kFinetune), modeName(Mode::kLora), modeName(Mode::kInference)};
    for (Stage st : {Stage::kExploration, Stage::kTuning, Stage::kProduction}) names["stages"].push_back(stageName(st));
    names["cooling"] = {"air", "liquid"};
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
                     {"stale_after_days", kStaleAfterDays},
                     {"hours_per_month", kHoursPerMonth},
                     {"planner_example", {{"instance", kArticlePlanInstance}, {"gpus", kArticlePlanGpus},
                                          {"monthly_gpu_hours", kArticlePlanGpus * kHoursPerMonth},
                                          {"interruptible_fraction", kArticleSpotShare},
                                          {"target_completion_rate", kArticleCompletionRate},
                                          {"task_hours", kArticlePlanTaskHours}}},
                     {"names", names}};
  std::string out;
  JsonWriter j(out);
  j.document(doc);
  return out;
}

}  // namespace gpuvalue
