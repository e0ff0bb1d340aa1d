// What an Engine holds between calls, and the signature every API method has (see methods.hpp).
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "gpuvalue/engine.hpp"
#include "io/json_reader.hpp"
#include "model/catalog.hpp"
#include "model/gpu_specs.hpp"
#include "model/ranking.hpp"

namespace gpuvalue {

struct Engine::State {
  GpuDatabase gpus;
  Catalog catalog;
  json presets = json::array();
  json serving_presets = json::array();  // data/serving-presets.json's "presets" (api/load_serving_presets.cpp)
  std::string today;
  // The catalog being streamed (catalogBegin .. catalogEnd).
  struct Stream {
    bool replace = true, dry_run = false;
    std::unordered_set<std::string> ids;
    std::unique_ptr<CatalogStreamReader> reader;
    std::vector<char> buffer;
  };
  std::unique_ptr<Stream> stream;
  // Hardware evaluations kept between rankings (api/rank.cpp), with the workload and evaluation options they were
  // made for, most recent first. They point into the catalog: every change of catalog, GPUs or presets drops them.
  std::vector<std::pair<std::string, std::shared_ptr<EvaluationStore>>> evaluations;
  void dataChanged() { evaluations.clear(); }
};

using EngineState = Engine::State;

// Applies a read catalog to the state (replacing it, adding to it, or with dry_run only checking it) and answers
// like loadCatalog; reports the issues' errors instead, changing nothing (api/catalog_load.cpp).
std::string applyCatalog(EngineState& s, Catalog& fresh, Issues& found, bool replace, bool dry_run);

}  // namespace gpuvalue
