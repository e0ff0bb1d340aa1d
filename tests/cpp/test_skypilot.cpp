#include <catch2/catch.hpp>

#include "gpuvalue/skypilot.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;

static const GpuDatabase& db() {
  static GpuDatabase d = [] {
    GpuDatabase g;
    g.load(gpuvalue_test::readFile("data/gpus.json"));
    return g;
  }();
  return d;
}

TEST_CASE("SkyPilot AWS rows merge zones and read per-GPU memory from GpuInfo", "[skypilot]") {
  // Rows verbatim from skypilot-catalog catalogs/v7/aws/vms.csv (peers.md §4).
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
      "p3.2xlarge,V100,1.0,8.0,61.0,\"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}\",3.06,0.519700,us-east-1,use1-az1\n"
      "p3.8xlarge,V100,4.0,32.0,244.0,\"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 4, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 65536}\",12.24,1.802900,us-east-1,use1-az1\n"
      "p3.2xlarge,V100,1.0,8.0,61.0,\"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}\",3.06,,us-east-1,use1-az3\n"
      "m5.large,,,2.0,8.0,,0.096,0.04,us-east-1,use1-az1\n";
  SkypilotOptions opt;
  opt.provider = "AWS";
  opt.as_of = "2026-11-01";
  SkypilotImport imp = importSkypilotCsv(csv, db(), opt);
  REQUIRE(imp.ok);
  const json& inst = imp.catalog["instances"];
  REQUIRE(inst.size() == 2);
  CHECK(inst[0]["instance_type"] == "p3.2xlarge");
  CHECK(inst[0]["gpu"] == "v100-sxm2-16gb");
  CHECK(inst[0]["gpu_count"] == 1);
  CHECK(inst[0]["zones"] == 2);
  CHECK(inst[0]["gpu_memory_gb"] == 16);
  CHECK_THAT(inst[0]["prices"][0]["usd_per_hour"].get<double>(), WithinRel(3.06, 1e-12));
  CHECK_THAT(inst[0]["prices"][1]["usd_per_hour"].get<double>(), WithinRel(0.5197, 1e-12));
  CHECK(inst[1]["gpu_count"] == 4);
  CHECK(inst[1]["gpu_memory_gb"] == 16);  // per GPU, not TotalGpuMemoryInMiB / 1024 = 64
  CHECK(imp.skipped == 1);                // the CPU-only row
}

TEST_CASE("SkyPilot Lambda rows parse with a different column order and no spot", "[skypilot]") {
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
      "gpu_1x_a6000,A6000,1.0,14.0,100.0,0.8,us-east-1,\"{'Gpus': [{'Name': 'A6000', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 49152}}], 'TotalGpuMemoryInMiB': 49152}\",\n"
      "gpu_8x_a100,A100,8.0,124.0,1800.0,10.32,us-east-1,\"{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 40960}\",\n";
  SkypilotOptions opt;
  opt.provider = "Lambda";
  opt.as_of = "2026-11-01";
  SkypilotImport imp = importSkypilotCsv(csv, db(), opt);
  REQUIRE(imp.ok);
  const json& inst = imp.catalog["instances"];
  REQUIRE(inst.size() == 2);
  CHECK(inst[0]["gpu"] == "rtx-a6000");
  CHECK(inst[1]["gpu"] == "a100-sxm4-40gb");
  CHECK(inst[1]["gpu_count"] == 8);
  CHECK(inst[1]["gpu_memory_gb"] == 40);
  CHECK(inst[1]["prices"].size() == 1);  // empty SpotPrice means no spot offer
}

TEST_CASE("SkyPilot import: 80 GB A100 is told apart by memory", "[skypilot]") {
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
      "p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,\"{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}\",40.96,,us-east-1,use1-az2\n";
  SkypilotImport imp = importSkypilotCsv(csv, db(), SkypilotOptions{});
  REQUIRE(imp.ok);
  CHECK(imp.catalog["instances"][0]["gpu"] == "a100-sxm4-80gb");
}

TEST_CASE("SkyPilot import reports unmapped GPUs and bad rows with line numbers", "[skypilot][errors]") {
  std::string csv =
      "AcceleratorName,InstanceType,AcceleratorCount,Price,Region\n"
      "Gaudi2,dl1.24xlarge,8.0,13.1,us-east-1\n"
      "T4,g4dn.xlarge,one,0.526,us-east-1\n"
      "T4,g4dn.xlarge,1.0,0.526,us-east-1\n";
  SkypilotImport imp = importSkypilotCsv(csv, db(), SkypilotOptions{});
  REQUIRE(imp.ok);
  CHECK(imp.catalog["instances"].size() == 1);
  bool unmapped = false, badcount = false;
  for (const auto& i : imp.issues) {
    if (i.path == "line 2" && i.message.find("Gaudi2") != std::string::npos) unmapped = true;
    if (i.path == "line 3" && i.message.find("AcceleratorCount") != std::string::npos) badcount = true;
  }
  CHECK(unmapped);
  CHECK(badcount);
}

TEST_CASE("SkyPilot import fails cleanly on missing headers and broken quoting", "[skypilot][errors]") {
  SkypilotImport a = importSkypilotCsv("Foo,Bar\n1,2\n", db(), SkypilotOptions{});
  CHECK_FALSE(a.ok);
  REQUIRE_FALSE(a.issues.empty());
  CHECK(a.issues[0].path == "line 1");
  SkypilotImport b = importSkypilotCsv("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,\"T4,1,1,r\n", db(), SkypilotOptions{});
  CHECK_FALSE(b.ok);
  CHECK(b.issues[0].path == "line 2");
}

TEST_CASE("Python literals become JSON", "[skypilot]") {
  CHECK(pythonLiteralToJson("{'a': True, 'b': None, 'c': 'it''s'}") == "{\"a\": true, \"b\": null, \"c\": \"it\"\"s\"}");
  CHECK(json::parse(pythonLiteralToJson("{'Name': 'A100', 'Count': 8.0}"))["Count"] == 8.0);
}
