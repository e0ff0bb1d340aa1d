// The engine facade: one long-lived object holding the GPU database, the catalog and the presets,
// with a JSON-text API used by both the wasm bindings and the native tests/benchmarks.
// Every method returns a JSON object: {"ok": true, ...} or {"ok": false, "error": {code, message, path},
// "issues": [...]}. No exception leaves these methods.
#pragma once
#include <string>

#include "gpuvalue/catalog.hpp"
#include "gpuvalue/gpu_specs.hpp"
#include "gpuvalue/json_reader.hpp"
#include "gpuvalue/performance.hpp"

namespace gpuvalue {

class Engine {
 public:
  Engine() = default;

  // Replaces the GPU database (data/gpus.json). Keeps the old one on failure.
  std::string loadGpus(const std::string& json_text);
  // Replaces the catalog with the offers of one or more catalog documents (a JSON array of documents or one
  // document). Keeps the old catalog on failure; lists every problem.
  std::string loadCatalog(const std::string& json_text);
  // Adds the offers of one catalog document to the current catalog (all or nothing).
  std::string addCatalog(const std::string& json_text);
  // Checks catalog or GPU database text without changing anything.
  std::string validate(const std::string& json_text);
  // Replaces the presets (data/presets.json).
  std::string loadPresets(const std::string& json_text);

  // {"preset"|"workload", "gpu", "count", "precision"?, "interconnect"?, "network_gbps"?, "rdma"?, "constants"?}
  std::string estimate(const std::string& request_json);
  // {"preset"|"workload", "pricing"?, "weights"?, "filters"?, "spot"?, "constants"?, "max_nodes"?, "limit"?}
  std::string rank(const std::string& request_json);
  // {"instance", "hours", "pricing"?, "nodes"?}
  std::string cost(const std::string& request_json);
  // SkyPilot vms.csv text -> {"ok", "catalog": {...}, "issues": [...]} (catalog in our format).
  std::string importSkypilot(const std::string& csv_text, const std::string& options_json);

  std::string defaults() const;
  std::string presets() const;
  std::string gpus() const;
  std::string catalogSummary() const;

  // Today's date (YYYY-MM-DD) for staleness checks; the page and CLI pass the real date.
  void setToday(const std::string& today) { today_ = today; }

  const GpuDatabase& gpuDatabase() const { return gpus_; }
  const Catalog& catalog() const { return catalog_; }

 private:
  bool resolveWorkload(const json& req, Workload& w, Issues& issues) const;
  std::string catalogOp(const std::string& text, bool replace, bool dry_run);

  GpuDatabase gpus_;
  Catalog catalog_;
  json presets_ = json::array();
  std::string today_;
};

// Helpers shared by the facade.
json issuesToJson(const Issues& issues);
std::string errorResult(const Issues& issues);

}  // namespace gpuvalue
