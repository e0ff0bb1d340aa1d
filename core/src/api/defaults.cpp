// defaults: the engine's default model constants, spot options, ranking weights and decision-tool inputs, for
// the page's forms.
#include "api/answer.hpp"
#include "api/state.hpp"
#include "model/ranking.hpp"
#include "model/serving_fields.hpp"
#include "tools/advisor.hpp"

namespace gpuvalue {

namespace {

// The page's "My own model" starts from one example per workload kind, each small enough to fit on one data-centre
// GPU node by itself; the micro-batch, recomputation and parallel plan are left to the plan search.
json customWorkloadExamples() {
  // Transformer: GPT-3 XL, 1.3B parameters, 24 layers, d_model 2048, context 2048 (Brown et al. 2020,
  // arXiv:2005.14165, Table 2.1), trained on 20 tokens per parameter, 2.6e10 (Hoffmann et al. 2022, "Chinchilla").
  // CNN: ResNet-50 on ImageNet-1k: 4.09 GMACs = 8.18 GFLOPs forward per 224² image and 25.6M parameters
  // (torchvision ResNet50_Weights.IMAGENET1K_V1), 1,281,167 training images, 90 epochs (Goyal et al. 2017,
  // arXiv:1706.02677, §5.1).
  // A FLOP count: the transformer example's training compute, 6 FLOPs per parameter per token (Kaplan et al.
  // 2020, arXiv:2001.08361, §2.1): 6 × 1.3e9 × 2.6e10 = 2.028e20.
  // (Read from text by the engine's JSON reader: an initializer list of this depth costs the size-optimised
  // engine more than the text.)
  json out;
  Issues ignored;
  parseJsonText(R"({
    "transformer": {"mode": "pretrain", "params": 1.3e9, "tokens": 2.6e10, "seq_len": 2048, "layers": 24, "hidden": 2048},
    "cnn": {"mode": "pretrain", "gflops_per_sample": 8.18, "samples": 1281167, "epochs": 90, "params": 25557032},
    "custom": {"mode": "pretrain", "total_flops": 2.028e20, "params": 1.3e9}})", out, ignored, "custom workload examples");
  return out;
}

// Each grid's electricity price and CO2 intensity (tools/decisions.hpp), by id, for the energy and TCO forms.
json gridsJson() {
  json out = json::object();
  for (const GridDefaults& g : kGrids) {
    out[g.id]["electricity_usd_per_kwh"] = g.usd_per_kwh;
    out[g.id]["grid_kg_co2_per_kwh"] = g.kg_co2_per_kwh;
  }
  return out;
}

}  // namespace

std::string apiDefaults(EngineState&, const std::string&, const std::string&) {
    SpotOptions s;
    Weights w;
    RankOptions r;
    // The names each request field takes, so that the page lists them from here. A workload accepts the
    // training precisions only (not fp4 or int8); the energy tool's cooling is air or liquid.
    json names;
    for (const char* list : {"pricing_models", "precisions", "stages", "workload_kinds", "modes", "cooling"}) names[list] = json::array();
    for (int m = 0; m < kPricingModelCount; ++m) names["pricing_models"].push_back(pricingModelName(static_cast<PricingModel>(m)));
    for (Precision p : {Precision::kFp32, Precision::kTf32, Precision::kFp16, Precision::kBf16, Precision::kFp8}) names["precisions"].push_back(precisionName(p));
    for (WorkloadKind k : {WorkloadKind::kTransformer, WorkloadKind::kCnn, WorkloadKind::kCustom}) names["workload_kinds"].push_back(workloadKindName(k));
    for (Mode m : {Mode::kPretrain, Mode::kFinetune, Mode::kLora, Mode::kInference}) names["modes"].push_back(modeName(m));
    for (Stage st : {Stage::kExploration, Stage::kTuning, Stage::kProduction}) names["stages"].push_back(stageName(st));
    for (const char* c : {"air", "liquid"}) names["cooling"].push_back(c);
    // The serve request's weight and KV-cache formats, software stacks and billing models, from its field table.
    const auto choices = [](const Field& f) {
      json list = json::array();
      for (const char* const* c = f.choices; c && *c; ++c) list.push_back(*c);
      return list;
    };
    names["serving_weights"] = choices(serving_fields::kWeights);
    names["serving_kv"] = choices(serving_fields::kKv);
    names["serving_software"] = choices(serving_fields::kSoftware);
    names["serving_pricing"] = choices(serving_fields::kPricing);
    // Filled member by member: a nested initializer list of this size costs the size-optimised engine several KB of
    // code (docs/performance.md, "What is in the engine's wasm"); objects keep their keys sorted either way.
    json doc;
    doc["ok"] = true;
    doc["constants"] = constantsToJson(ModelConstants());
    json& spot = doc["spot"];
    spot["interruptions_per_node_hour"] = s.interruptions_per_node_hour;
    spot["checkpoint_interval_hours"] = s.checkpoint_interval_hours;
    spot["checkpoint_write_hours"] = s.checkpoint_write_hours;
    spot["restart_hours"] = s.restart_hours;
    json& weights = doc["weights"];
    weights["unit_cost"] = w.unit_cost;
    weights["task"] = w.task;
    weights["service"] = w.service;
    doc["max_nodes"] = r.max_nodes;
    doc["horizon_hours"] = r.horizon_hours;
    // A workload that names no precision trains in this one (model/workload.hpp).
    doc["workload_precision"] = precisionName(Workload().precision);
    doc["custom_workloads"] = customWorkloadExamples();
    json& decisions = doc["decisions"];
    decisions["pue_air_cooled"] = kPueAirCooled;
    decisions["pue_liquid_cooled"] = kPueLiquidCooled;
    decisions["electricity_usd_per_kwh"] = kElectricityUsdPerKwh;
    decisions["grid_kg_co2_per_kwh"] = kGridKgCo2PerKwh;
    decisions["grids"] = gridsJson();
    decisions["training_power_share_of_tdp"] = kTrainingPowerShareOfTdp;
    decisions["amortisation_years"] = kAmortisationYears;
    decisions["median_spot_discount"] = kMedianSpotDiscount;
    decisions["sources"] = "core/src/tools/decisions.hpp";
    doc["stale_after_days"] = kStaleAfterDays;
    doc["hours_per_month"] = kHoursPerMonth;
    json& planner = doc["planner_example"];
    planner["instance"] = kArticlePlanInstance;
    planner["gpus"] = kArticlePlanGpus;
    planner["monthly_gpu_hours"] = kArticlePlanGpus * kHoursPerMonth;
    planner["interruptible_fraction"] = kArticleSpotShare;
    planner["target_completion_rate"] = kArticleCompletionRate;
    planner["task_hours"] = kArticlePlanTaskHours;
    doc["names"] = std::move(names);
  std::string out;
  JsonWriter j(out);
  j.document(doc);
  return out;
}

}  // namespace gpuvalue
