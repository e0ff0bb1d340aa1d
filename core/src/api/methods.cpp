#include "api/methods.hpp"

#include <cstring>

namespace gpuvalue {

// Each handler is defined in core/src/api/<its name>.cpp (the catalog operations share catalog_load.cpp, the
// listings listings.cpp, catalogFacts is catalog_facts.cpp's).
std::string apiLoadGpus(EngineState&, const std::string&, const std::string&);
std::string apiLoadCatalog(EngineState&, const std::string&, const std::string&);
std::string apiAddCatalog(EngineState&, const std::string&, const std::string&);
std::string apiValidate(EngineState&, const std::string&, const std::string&);
std::string apiLoadPresets(EngineState&, const std::string&, const std::string&);
std::string apiEstimate(EngineState&, const std::string&, const std::string&);
std::string apiRank(EngineState&, const std::string&, const std::string&);
std::string apiRankView(EngineState&, const std::string&, const std::string&);
std::string apiCost(EngineState&, const std::string&, const std::string&);
std::string apiImportSkypilot(EngineState&, const std::string&, const std::string&);
std::string apiAdvise(EngineState&, const std::string&, const std::string&);
std::string apiPlan(EngineState&, const std::string&, const std::string&);
std::string apiServerless(EngineState&, const std::string&, const std::string&);
std::string apiMig(EngineState&, const std::string&, const std::string&);
std::string apiLevers(EngineState&, const std::string&, const std::string&);
std::string apiCompare(EngineState&, const std::string&, const std::string&);
std::string apiEnergy(EngineState&, const std::string&, const std::string&);
std::string apiTco(EngineState&, const std::string&, const std::string&);
std::string apiDefaults(EngineState&, const std::string&, const std::string&);
std::string apiPresets(EngineState&, const std::string&, const std::string&);
std::string apiGpus(EngineState&, const std::string&, const std::string&);
std::string apiCatalogSummary(EngineState&, const std::string&, const std::string&);
std::string apiCatalogFacts(EngineState&, const std::string&, const std::string&);
std::string apiOffers(EngineState&, const std::string&, const std::string&);
std::string apiSchemas(EngineState&, const std::string&, const std::string&);
std::string apiMessages(EngineState&, const std::string&, const std::string&);
std::string apiServe(EngineState&, const std::string&, const std::string&);
std::string apiServeOffers(EngineState&, const std::string&, const std::string&);
std::string apiLoadServingPresets(EngineState&, const std::string&, const std::string&);
std::string apiServingPresets(EngineState&, const std::string&, const std::string&);
std::string apiParseMeasurement(EngineState&, const std::string&, const std::string&);

// The widget's engine (GPUVALUE_WIDGET_ENGINE: the target gpuvalue_widget_wasm, wasm/CMakeLists.txt) keeps the
// handlers of the methods the widget calls (web/src/app/widget.js, the loading in web/src/engine/client.js
// createEngine, the serving ranking in web/src/engine/serving.js); the other rows keep their name and lose their
// handler (FULL), so the linker leaves their code out and a call answers error.method_not_in_engine.
#ifdef GPUVALUE_WIDGET_ENGINE
#define FULL(handler) nullptr
#else
#define FULL(handler) handler
#endif

using A = ArgumentKind;
const ApiMethod kApiMethods[] = {
    {"loadGpus", apiLoadGpus, A::kDocument, "replaces the GPU database (data/gpus.json); keeps the old one on failure"},
    {"loadCatalog", apiLoadCatalog, A::kDocument, "replaces the catalog with one document or an array of documents"},
    {"addCatalog", apiAddCatalog, A::kDocument, "adds one catalog document's offers to the catalog (all or nothing)"},
    {"validate", FULL(apiValidate), A::kDocument, "checks catalog, GPU database or presets text without changing anything"},
    {"loadPresets", apiLoadPresets, A::kDocument, "replaces the workload presets (data/presets.json)"},
    {"estimate", FULL(apiEstimate), A::kRequest, "time, throughput and memory of a workload on N GPUs of one type"},
    {"rank", apiRank, A::kRequest, "ranks every catalog offer for a workload by cost, time and service"},
    {"rankView", FULL(apiRankView), A::kRequest, "the page's view of a ranking: rows in a column's order with regions grouped, picks, scatter"},
    {"cost", FULL(apiCost), A::kRequest, "prices hours on one catalog instance under one billing model"},
    {"importSkypilot", FULL(apiImportSkypilot), A::kCsv, "turns a SkyPilot vms.csv into a catalog document"},
    {"advise", FULL(apiAdvise), A::kRequest, "GPU class, count and billing for a model size and training stage"},
    {"plan", FULL(apiPlan), A::kRequest, "cheapest yearly mix of reserved, on-demand and spot capacity for a demand"},
    {"serverless", FULL(apiServerless), A::kRequest, "a day's load curve on serverless, on-demand, reserved and spot capacity"},
    {"mig", FULL(apiMig), A::kRequest, "packs small jobs into MIG slices and compares with whole GPUs"},
    {"levers", FULL(apiLevers), A::kRequest, "time and cost of one workload before and after each cost lever"},
    {"compare", FULL(apiCompare), A::kRequest, "two to four configurations side by side, with why one is faster"},
    {"energy", FULL(apiEnergy), A::kRequest, "energy, electricity cost and CO2 of a job, air- vs liquid-cooled"},
    {"tco", FULL(apiTco), A::kRequest, "owning vs renting GPUs over the amortisation period"},
    {"defaults", apiDefaults, A::kNone, "the engine's default constants, spot options, weights and decision inputs"},
    {"presets", apiPresets, A::kNone, "the loaded workload presets"},
    {"gpus", apiGpus, A::kNone, "the loaded GPU database"},
    {"catalogSummary", apiCatalogSummary, A::kNone, "the loaded offers with their prices"},
    {"catalogFacts", FULL(apiCatalogFacts), A::kNone, "the loaded catalog's counts, names, dates, serverless and reservable offers, without prices"},
    {"offers", FULL(apiOffers), A::kRequest, "the loaded offers named by id, with their prices (catalogSummary's records)"},
    {"schemas", FULL(apiSchemas), A::kDocument, "the data files' JSON Schemas, with the GPU ids of the given GPU database"},
    {"messages", FULL(apiMessages), A::kNone, "every message code the engine can emit, with its parameter names"},
    {"serve", apiServe, A::kRequest, "serving a language model on N GPUs or an offer: capacity under TTFT/TPOT targets, replicas, $ per 1M tokens"},
    {"serveOffers", apiServeOffers, A::kRequest, "serve's question on many offers at once: for each offer and replica size, the figures that rank it"},
    {"loadServingPresets", apiLoadServingPresets, A::kDocument, "replaces the serving presets (data/serving-presets.json)"},
    {"servingPresets", apiServingPresets, A::kNone, "the loaded serving presets"},
    {"parse_measurement", FULL(apiParseMeasurement), A::kRequest, "one measured run (the probe script's JSON line or \"3150 tokens/s on a100-sxm4-80gb x8\") as a measurement object"},
};
const size_t kApiMethodCount = sizeof(kApiMethods) / sizeof(kApiMethods[0]);

const char* argumentKindName(ArgumentKind kind) {
  switch (kind) {
    case ArgumentKind::kRequest: return "request";
    case ArgumentKind::kDocument: return "document";
    case ArgumentKind::kCsv: return "csv";
    case ArgumentKind::kNone: return "none";
  }
  return "none";
}

const ApiMethod* findApiMethod(const std::string& name) {
  for (size_t i = 0; i < kApiMethodCount; ++i)
    if (name == kApiMethods[i].name) return &kApiMethods[i];
  return nullptr;
}

}  // namespace gpuvalue
