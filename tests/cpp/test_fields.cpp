// The field tables against the readers of the data files (GpuDatabase::load, parseWorkload, Engine::loadPresets):
// every value a table accepts, they accept, and every value it rejects (down to one step past a bound), they reject
// at that member's JSON Pointer path; the probes notice a bound that drifted. And the schemas written from the tables.
#include <catch2/catch.hpp>

#include <functional>

#include "model/data_fields.hpp"
#include "model/gpu_specs.hpp"
#include "model/workload.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
namespace D = data_fields;

namespace {

// Whether reading `doc` with `f` set to `value` at `where` (left out when null) gives an error at that member's path,
// and whether it gives any error.
std::pair<bool, bool> probe(const json& doc, const json::json_pointer& where, const Field& f, const json& value,
                            const std::function<Issues(const json&)>& read) {
  json d = doc;
  if (value.is_null()) d[where].erase(f.name);
  else d[where][f.name] = value;
  const std::string path = where.to_string() + "/" + f.name;
  bool error_there = false, any_error = false;
  for (const auto& issue : read(d)) {
    any_error = any_error || !issue.warning;
    error_there = error_there || (!issue.warning && issue.path == path);
  }
  return {error_there, any_error};
}

// The probes of `f` whose outcome differs from what the field says: an error where it accepts the value, none (or
// one at another path) where it rejects it.
size_t disagreements(const json& doc, const json::json_pointer& where, const Field& f,
                     const std::function<Issues(const json&)>& read) {
  size_t n = 0;
  for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) {
    const auto [error_there, any_error] = probe(doc, where, f, value, read);
    if (error_there == valid || any_error == valid) ++n;
  }
  return n;
}

// Probes every scalar member of `record` at `where` inside `doc`; `read` returns the issues of reading a document.
size_t conform(const json& doc, const json::json_pointer& where, const Record& record, const std::string& variant,
               const std::function<Issues(const json&)>& read) {
  size_t probed = 0;
  for (size_t i = 0; i < record.count; ++i) {
    const Field& f = *record.fields[i];
    if (!f.engine_reads || f.type == FieldType::kObject || f.type == FieldType::kArray || !appliesTo(f, variant)) continue;
    if (record.discriminator && f.name == std::string(record.discriminator)) continue;
    for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) {
      INFO(where.to_string() << "/" << f.name << " = " << value.dump());
      const auto [error_there, any_error] = probe(doc, where, f, value, read);
      CHECK(error_there == !valid);
      CHECK(any_error == !valid);
    }
    ++probed;
  }
  return probed;
}

json firstGpu() {
  json g = json::parse(gpuvalue_test::readFile("data/gpus.json"))["gpus"];
  for (const auto& x : g)
    if (x["id"] == "a100-sxm4-80gb") return x;
  return g[0];
}

Issues loadGpus(const json& doc) {
  GpuDatabase db;
  return db.load(doc.dump());
}

Issues readWorkload(const json& doc) {
  Issues issues;
  Workload w;
  parseWorkload(doc, "", w, issues);
  return issues;
}

const json kTransformer = {{"kind", "transformer"}, {"mode", "inference"}, {"params", 7e9}, {"tokens", 1e9},
                           {"requests", 1000}, {"tokens_per_request", 500}};
const json kCnn = {{"kind", "cnn"}, {"gflops_per_sample", 8}, {"samples", 1e6}};
const json kCustom = {{"kind", "custom"}, {"total_flops", 1e20}};

// The field with its upper bound moved one bound's step below the table's (a millionth of it; one for integers).
Field lowered(const Field& f) {
  Field g = f;
  g.max = f.type == FieldType::kInteger ? f.max - 1 : f.max * (1 - 1e-6);
  return g;
}

}  // namespace

TEST_CASE("the GPU reader follows the GPU, peak and MIG profile tables", "[fields][gpus]") {
  json gpu = firstGpu();
  gpu["memory_gb"] = 4096;  // every MIG profile fits whatever the probe sets
  REQUIRE(!gpu["mig_profiles"].empty());
  const json doc = {{"gpus", {gpu}}};
  REQUIRE(!hasErrors(loadGpus(doc)));
  json base = doc;
  base["gpus"][0]["memory_gb"] = 80;
  CHECK(conform(base, json::json_pointer("/gpus/0"), D::kGpuRecord, "", loadGpus) >= 10);
  CHECK(conform(doc, json::json_pointer("/gpus/0/tflops"), D::kGpuTflopsRecord, "", loadGpus) == 7);
  CHECK(conform(doc, json::json_pointer("/gpus/0/mig_profiles/0"), D::kMigProfileRecord, "", loadGpus) == 4);
}

TEST_CASE("a GPU's sources and aliases must be arrays of strings, reported at the member or the item", "[fields][gpus]") {
  // The table declares both as Field::strings; a string where the array belongs, or a number among the items, is an
  // error at that path (sources were once skipped in silence, leaving only the no-source warning).
  auto errorPaths = [](const json& gpu) {
    std::vector<std::string> paths;
    for (const auto& issue : loadGpus({{"gpus", {gpu}}}))
      if (!issue.warning) paths.push_back(issue.path);
    return paths;
  };
  json gpu = firstGpu();
  REQUIRE(errorPaths(gpu).empty());
  for (const char* member : {"sources", "aliases"}) {
    json one = gpu;
    one[member] = "NVIDIA datasheet";
    CHECK(errorPaths(one) == std::vector<std::string>{std::string("/gpus/0/") + member});
    json item = gpu;
    item[member] = json::array({"first", 3});
    CHECK(errorPaths(item) == std::vector<std::string>{std::string("/gpus/0/") + member + "/1"});
  }
}

TEST_CASE("a reader's bound a millionth or one count away from its table's fails the probes", "[fields]") {
  // The probes are only a guard if they notice a drifted bound: each member here is read by its reader with the
  // table's bound (no disagreement), and the same field with its maximum lowered disagrees with the reader at the
  // value one step past the lowered maximum, which the reader accepts.
  json gpu = firstGpu();
  gpu["memory_gb"] = 4096;
  const json doc = {{"gpus", {gpu}}};
  const json::json_pointer at_gpu("/gpus/0"), at_peaks("/gpus/0/tflops"), at_mig("/gpus/0/mig_profiles/0"), top("");
  const struct {
    const json* doc;
    const json::json_pointer* where;
    const Field* field;
    std::function<Issues(const json&)> read;
  } cases[] = {
      {&doc, &at_gpu, &D::kBandwidth, loadGpus},
      {&doc, &at_gpu, &D::kReleaseYear, loadGpus},
      {&doc, &at_gpu, &D::kTdp, loadGpus},
      {&doc, &at_peaks, D::kGpuTflopsRecord.fields[static_cast<int>(Precision::kFp16)], loadGpus},
      {&doc, &at_mig, &D::kMigSlices, loadGpus},
      {&doc, &at_mig, &D::kMigMaxCount, loadGpus},
      {&kTransformer, &top, &D::kTransformerParams, readWorkload},
      {&kTransformer, &top, &D::kSeqLen, readWorkload},
      {&kTransformer, &top, &D::kCapacityFactor, readWorkload},
      {&kTransformer, &top, &D::kTokensPerRequest, readWorkload},
      {&kCnn, &top, &D::kGflops, readWorkload},
      {&kCnn, &top, &D::kEpochs, readWorkload},
      {&kCustom, &top, &D::kTotalFlops, readWorkload},
      {&kCustom, &top, &D::kTensorParallel, readWorkload},
  };
  for (const auto& c : cases) {
    INFO(c.where->to_string() << "/" << c.field->name);
    CHECK(disagreements(*c.doc, *c.where, *c.field, c.read) == 0);
    CHECK(disagreements(*c.doc, *c.where, lowered(*c.field), c.read) >= 1);
  }
}

TEST_CASE("the GPU peak table lists the peaks in Precision order", "[fields][gpus]") {
  // GpuDatabase::load reads peak p from kGpuTflopsRecord.fields[p].
  REQUIRE(D::kGpuTflopsRecord.count == static_cast<size_t>(kPrecisionCount));
  for (int p = 0; p < kPrecisionCount; ++p)
    CHECK(std::string(D::kGpuTflopsRecord.fields[p]->name) == precisionName(static_cast<Precision>(p)));
}

TEST_CASE("the workload reader follows the workload table for every kind", "[fields][workload]") {
  const auto read = readWorkload;
  const json &transformer = kTransformer, &cnn = kCnn, &custom = kCustom;
  for (const json* w : {&transformer, &cnn, &custom}) REQUIRE(!hasErrors(read(*w)));
  CHECK(conform(transformer, json::json_pointer(""), D::kWorkloadRecord, "transformer", read) >= 16);
  CHECK(conform(cnn, json::json_pointer(""), D::kWorkloadRecord, "cnn", read) >= 10);
  CHECK(conform(custom, json::json_pointer(""), D::kWorkloadRecord, "custom", read) >= 6);
}

TEST_CASE("the preset reader follows the preset table", "[fields][presets]") {
  auto read = [](const json& doc) {
    Engine e;
    const json answer = json::parse(e.loadPresets(doc.dump()));
    Issues issues;
    if (!answer["ok"].get<bool>()) issues.push_back({ErrorCode::kInvalidValue, answer["error"]["path"].get<std::string>(), Message(answer["error"]["message"].value("code", ""))});
    return issues;
  };
  const json doc = {{"presets", {{{"id", "p"}, {"workload", {{"kind", "custom"}, {"total_flops", 1e20}}}}}}};
  REQUIRE(read(doc).empty());
  CHECK(conform(doc, json::json_pointer("/presets/0"), D::kPresetRecord, "", read) == 1);
  json no_workload = doc;
  no_workload["presets"][0].erase("workload");
  CHECK(read(no_workload).size() == 1);
}

TEST_CASE("the data schemas name every table field and take the GPU ids from the database", "[fields][schema]") {
  const std::string gpus = gpuvalue_test::readFile("data/gpus.json");
  gpuvalue::Engine engine;
  const json answer = json::parse(engine.call("schemas", gpus));
  REQUIRE(answer["ok"].get<bool>());
  const json& catalog = answer["schemas"]["catalog.schema.json"];
  CHECK(catalog["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  const json& instance = catalog["$defs"]["instance"];
  CHECK(instance["properties"]["currency"]["default"] == "USD");
  CHECK(instance["properties"]["network_gbps"]["minimum"] == 0);
  CHECK(instance["properties"]["min_charge_s"]["type"] == json::array({"number", "null"}));
  CHECK(instance["required"] == json::array({"id", "provider", "instance_type", "gpu", "gpu_count", "region", "prices"}));
  CHECK(instance["properties"]["gpu"]["enum"].size() == json::parse(gpus)["gpus"].size());
  for (const char* name : {"gpus.schema.json", "presets.schema.json", "measurements.schema.json"})
    CHECK(answer["schemas"][name]["$id"] == std::string("https://gpuvalue.invalid/schema/") + name);
  const json bad = json::parse(engine.call("schemas", "{\"gpus\": 3}"));
  CHECK(bad["ok"] == false);
  CHECK(bad["error"]["path"] == "/gpus");
}

TEST_CASE("advise reads params, tokens and seq_len with the workload table's fields", "[fields][advise]") {
  // They become the advised transformer's members, so a value the workload table rejects is rejected at the
  // request's member (and a value it accepts is not), with the table's bounds: one step past each bound, a
  // fractional seq_len, a wrong type.
  Engine& e = gpuvalue_test::loadedEngine();
  for (const Field* f : {&D::kTransformerParams, &D::kTokens, &D::kSeqLen}) {
    for (const auto& [value, valid] : gpuvalue_test::fieldProbes(*f)) {
      if (value.is_null()) continue;
      json req = {{"params", 7e9}, {"stage", "production"}};
      req[f->name] = value;
      INFO(req.dump());
      const json answer = json::parse(e.call("advise", req.dump()));
      bool error_there = false;
      for (const auto& issue : answer.value("issues", json::array()))
        error_there = error_there || (!issue["warning"].get<bool>() && issue["path"] == std::string("/") + f->name);
      CHECK(error_there == !valid);
    }
  }
}
