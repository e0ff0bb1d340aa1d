// The engine facade: one long-lived object holding the GPU database, the catalog and the presets,
// with a JSON-text API used by both the wasm bindings and the native tests/benchmarks.
// Every method returns a JSON object: {"ok": true, ...} or {"ok": false, "error": {code, message, path},
// "issues": [...]}. No exception leaves these methods.
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "model/catalog.hpp"
#include "model/gpu_specs.hpp"
#include "io/json_reader.hpp"
#include "model/performance.hpp"
#include "model/pricing.hpp"

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
  // Catalog text in pieces, so that a large catalog never has to sit in (wasm) memory whole: catalogBegin(mode,
  // total_bytes) with mode "load" (like loadCatalog), "add" (addCatalog) or "validate"; then for each piece
  // catalogBuffer(n) (room for n bytes, valid until the next call) and catalogFeed(bytes written); then
  // catalogEnd(), which answers like loadCatalog. When the text is malformed it answers
  // {"ok": false, "retry_whole_text": true, ...}: the whole text, passed to loadCatalog/addCatalog/validate, then
  // gets the syntax error with its line and column.
  std::string catalogBegin(const std::string& mode, double total_bytes);
  char* catalogBuffer(size_t bytes);
  bool catalogFeed(size_t bytes);
  std::string catalogEnd();
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

  // Decision tools (article §4-§5). The JSON handling is in core/src/api/decisions_engine.cpp, the math in
  // core/src/tools/decisions.hpp.
  // {"params", "tokens"?, "stage"?: exploration|tuning|production, "mode"?, "seq_len"?, "deadline_hours"?,
  //  "max_gpus"?, "spot"?, "constants"?} -> {"recommendations": [...], "ladder": [...], "article": {...}, ...}
  std::string advise(const std::string& request_json);
  // {"example": "article"} or {"demand": {"monthly_gpu_hours": [12], "peak_gpus"?, "interruptible_fraction",
  //  "target_completion_rate", "instance"? | "prices"?, "spot"?, "reserved_granularity_gpus"?}}
  // -> {"mix": {reserved, on_demand, spot}, "annual_cost_usd", "on_demand_only_cost_usd", "saving", ...}
  std::string plan(const std::string& request_json);
  // {"gpu", "jobs": "7x8gb,2x20gb@4h" | [{"count", "memory_gb", "compute_share"?, "hours"?}]}
  std::string mig(const std::string& request_json);
  // {"preset"|"workload", "instance", "pricing"?, "spot"?, "constants"?} -> before/after time and cost per lever
  std::string levers(const std::string& request_json);
  // {"preset"|"workload", "configs": [{"gpu", "count", "usd_per_hour"?} | {"instance", "nodes"?}] (2-4),
  //  "pricing"?, "baseline"?, "constants"?}
  std::string compare(const std::string& request_json);
  // {"gpu"|"instance", "count"?, "hours" | "preset"|"workload", "utilisation"?, "cooling"?|"pue"?,
  //  "usd_per_kwh"?, "kg_co2_per_kwh"?, "power_w"?}
  std::string energy(const std::string& request_json);
  // {"gpu"|"instance", "count"?, "purchase_usd"?, "amortisation_years"?, "utilisation"?, "power_w"?,
  //  "cooling"?|"pue"?, "usd_per_kwh"?, "other_usd_per_year"?, "rent_usd_per_gpu_hour"?}
  std::string tco(const std::string& request_json);

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
  // Applies a read catalog (or reports its errors, changing nothing).
  std::string applyCatalog(Catalog& fresh, Issues& found, bool replace, bool dry_run);
  // Bodies of the decision tools (run inside `guarded` by the public methods).
  std::string adviseImpl(const std::string& text) const;
  std::string planImpl(const std::string& text) const;
  std::string migImpl(const std::string& text) const;
  std::string leversImpl(const std::string& text) const;
  std::string compareImpl(const std::string& text) const;
  std::string energyImpl(const std::string& text) const;
  std::string tcoImpl(const std::string& text) const;
  // The GPU a request's required "gpu" member names (id or alias), or nullptr: the reader reports a missing or
  // mistyped member, this an unknown or empty id.
  const GpuSpec* gpuField(ObjectReader& r) const;
  // Offer by id, or by instance type when unambiguous; `matches` counts instance-type matches.
  const Offer* findOffer(const std::string& id_or_type, int& matches) const;

  GpuDatabase gpus_;
  Catalog catalog_;
  json presets_ = json::array();
  std::string today_;
  // The catalog being streamed (catalogBegin .. catalogEnd).
  struct Stream {
    bool replace = true, dry_run = false;
    std::unordered_set<std::string> ids;
    std::unique_ptr<CatalogStreamReader> reader;
    std::vector<char> buffer;
  };
  std::unique_ptr<Stream> stream_;
};

// Helpers shared by the facade.
json issuesToJson(const Issues& issues);
std::string errorResult(const Issues& issues);
// Reads a request's optional "constants" (model constants) and "spot" (SpotOptions) objects, reporting problems
// under /constants and /spot.
bool readConstantsField(const json& req, ModelConstants& k, Issues& issues);
void readSpotField(const json& req, SpotOptions& s, Issues& issues);

}  // namespace gpuvalue
