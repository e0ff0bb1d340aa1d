#include <catch2/catch.hpp>

#include "model/gpu_specs.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;

TEST_CASE("the real GPU database loads with every stable id", "[gpus][data]") {
  GpuDatabase db;
  Issues issues = db.load(gpuvalue_test::readFile("data/gpus.json"));
  REQUIRE_FALSE(hasErrors(issues));
  for (const char* id : {"v100-sxm2-16gb", "v100-sxm2-32gb", "t4", "a10", "a10g", "l4", "l40s", "a100-sxm4-40gb",
                         "a100-sxm4-80gb", "a100-pcie-40gb", "a100-pcie-80gb", "h100-sxm5-80gb", "h100-pcie-80gb",
                         "h100-nvl-94gb", "h200-sxm-141gb", "b200", "gb200", "mi250x", "mi300x", "rtx4090", "rtx-a6000",
                         "rtx6000-ada"}) {
    INFO(id);
    CHECK(db.find(id) != nullptr);
  }
}

TEST_CASE("datasheet figures the article's claims are checked against", "[gpus][data]") {
  GpuDatabase db;
  REQUIRE_FALSE(hasErrors(db.load(gpuvalue_test::readFile("data/gpus.json"))));
  const GpuSpec* a10 = db.find("a10");
  REQUIRE(a10);
  CHECK(a10->memory_gb == 24);                       // NVIDIA A10 datasheet: 24 GB GDDR6
  CHECK(a10->memory_bandwidth_gbs == 600);           // 600 GB/s
  CHECK(a10->peak(Precision::kFp16) == 125);         // 125 TFLOPS dense FP16 tensor
  const GpuSpec* h100 = db.find("h100-sxm5-80gb");
  REQUIRE(h100);
  CHECK_THAT(h100->peak(Precision::kFp8), WithinRel(1979.0, 0.01));  // H100 SXM: 1,979 dense FP8
  CHECK(db.find("v100-sxm2-16gb")->peak(Precision::kBf16) == 0);      // Volta has no BF16
}

TEST_CASE("aliases used by clouds resolve case-insensitively", "[gpus][data]") {
  GpuDatabase db;
  REQUIRE_FALSE(hasErrors(db.load(gpuvalue_test::readFile("data/gpus.json"))));
  REQUIRE(db.find("A100-80GB"));
  CHECK(db.find("A100-80GB")->memory_gb == 80);
  REQUIRE(db.find("a10g"));
  CHECK(db.find("A10G")->id == "a10g");
  REQUIRE(db.find("H100"));
  CHECK(db.find("H100")->architecture == "hopper");
  CHECK(db.find("no-such-gpu") == nullptr);
}

TEST_CASE("MIG profiles: A100 80GB splits into seven 1g.10gb instances", "[gpus][mig]") {
  GpuDatabase db;
  REQUIRE_FALSE(hasErrors(db.load(gpuvalue_test::readFile("data/gpus.json"))));
  const GpuSpec* g = db.find("a100-sxm4-80gb");
  REQUIRE(g);
  bool found = false;
  for (const auto& p : g->mig_profiles)
    if (p.name == "1g.10gb") {
      found = true;
      CHECK(p.max_count == 7);
      CHECK(p.memory_gb == 10);
    }
  CHECK(found);
}

TEST_CASE("GPU database errors carry JSON Pointer paths and keep the old database", "[gpus][errors]") {
  GpuDatabase db;
  REQUIRE_FALSE(hasErrors(db.load(gpuvalue_test::readFile("data/gpus.json"))));
  size_t before = db.all().size();
  Issues issues = db.load(R"({"gpus": [{"id": "x", "name": "X", "architecture": "ampere", "memory_gb": -1,
                              "memory_bandwidth_gbs": 100, "tflops": {"fp16": 10}},
                              {"id": "x", "name": "Y", "architecture": "ampere", "memory_gb": 8,
                              "memory_bandwidth_gbs": 100, "tflops": {"fp16": 10}}]})");
  REQUIRE(hasErrors(issues));
  bool neg = false, dup = false;
  for (const auto& i : issues) {
    if (i.path == "/gpus/0/memory_gb") neg = true;
    if (i.path == "/gpus/1/id" && i.code == ErrorCode::kDuplicateId) dup = true;
  }
  CHECK(neg);
  CHECK(dup);
  CHECK(db.all().size() == before);
  CHECK(db.find("a10") != nullptr);
}

TEST_CASE("malformed JSON reports line and column", "[gpus][errors]") {
  GpuDatabase db;
  Issues issues = db.load("{\n  \"gpus\": [\n    {\"id\": }\n]}");
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == ErrorCode::kJsonSyntax);
  CHECK(issues[0].path.rfind("line 3", 0) == 0);
}
