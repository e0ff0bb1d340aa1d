// The field tables against the readers that keep their own code (GpuDatabase::load, parseWorkload,
// Engine::loadPresets): every value a table accepts, they accept, and every value it rejects, they reject at that
// member's JSON Pointer path. And the schemas written from the tables.
#include <catch2/catch.hpp>

#include <functional>

#include "model/data_fields.hpp"
#include "model/gpu_specs.hpp"
#include "model/workload.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
namespace D = data_fields;

namespace {

// Probes every scalar member of `record` at `where` inside `doc`; `read` returns the issues of reading a document.
size_t conform(const json& doc, const json::json_pointer& where, const Record& record, const std::string& variant,
               const std::function<Issues(const json&)>& read) {
  size_t probed = 0;
  for (size_t i = 0; i < record.count; ++i) {
    const Field& f = *record.fields[i];
    if (!f.engine_reads || f.type == FieldType::kObject || f.type == FieldType::kArray || !appliesTo(f, variant)) continue;
    if (record.discriminator && f.name == std::string(record.discriminator)) continue;
    for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) {
      json d = doc;
      if (value.is_null()) d[where].erase(f.name);
      else d[where][f.name] = value;
      const std::string path = where.to_string() + "/" + f.name;
      INFO(path << " = " << value.dump());
      bool error_there = false, any_error = false;
      for (const auto& issue : read(d)) {
        any_error = any_error || !issue.warning;
        error_there = error_there || (!issue.warning && issue.path == path);
      }
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

TEST_CASE("the workload reader follows the workload table for every kind", "[fields][workload]") {
  auto read = [](const json& doc) {
    Issues issues;
    Workload w;
    parseWorkload(doc, "", w, issues);
    return issues;
  };
  const json transformer = {{"kind", "transformer"}, {"mode", "inference"}, {"params", 7e9}, {"tokens", 1e9},
                            {"requests", 1000}, {"tokens_per_request", 500}};
  const json cnn = {{"kind", "cnn"}, {"gflops_per_sample", 8}, {"samples", 1e6}};
  const json custom = {{"kind", "custom"}, {"total_flops", 1e20}};
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
