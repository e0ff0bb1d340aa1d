#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "import/skypilot.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

using gpuvalue_test::gpuDatabase;

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
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), opt);
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
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), opt);
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
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  CHECK(imp.catalog["instances"][0]["gpu"] == "a100-sxm4-80gb");
}

TEST_CASE("SkyPilot import reports unmapped GPUs and bad rows with line numbers", "[skypilot][errors]") {
  std::string csv =
      "AcceleratorName,InstanceType,AcceleratorCount,Price,Region\n"
      "Gaudi2,dl1.24xlarge,8.0,13.1,us-east-1\n"
      "T4,g4dn.xlarge,one,0.526,us-east-1\n"
      "T4,g4dn.xlarge,1.0,0.526,us-east-1\n";
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  CHECK(imp.catalog["instances"].size() == 1);
  bool unmapped = false, badcount = false;
  for (const auto& i : imp.issues) {
    if (i.path == "line 2" && debugText(i.message) == "import.not_gpu{accelerator=Gaudi2,family=gaudi}") unmapped = true;
    if (i.path == "line 3" && i.message.code() == "import.bad_count") badcount = true;
  }
  CHECK(unmapped);
  CHECK(badcount);
}

TEST_CASE("SkyPilot import fails cleanly on missing headers and broken quoting", "[skypilot][errors]") {
  SkypilotImport a = importSkypilotCsv("Foo,Bar\n1,2\n", gpuDatabase(), SkypilotOptions{});
  CHECK_FALSE(a.ok);
  REQUIRE_FALSE(a.issues.empty());
  CHECK(a.issues[0].path == "line 1");
  SkypilotImport b = importSkypilotCsv("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,\"T4,1,1,r\n", gpuDatabase(), SkypilotOptions{});
  CHECK_FALSE(b.ok);
  CHECK(b.issues[0].path == "line 2");
}

TEST_CASE("Python literals become JSON", "[skypilot]") {
  CHECK(pythonLiteralToJson("{'a': True, 'b': None, 'c': 'it''s'}") == "{\"a\": true, \"b\": null, \"c\": \"it\"\"s\"}");
  CHECK(json::parse(pythonLiteralToJson("{'Name': 'A100', 'Count': 8.0}"))["Count"] == 8.0);
}

// ---- Real-file behaviour. Rows below are verbatim from skypilot-org/skypilot-catalog (see
// tests/fixtures/skypilot/README.md for commits); line numbers in comments are lines of the CSV built here.

static const json* findOffer(const json& inst, const std::string& type, const std::string& region) {
  for (const auto& i : inst)
    if (i["instance_type"] == type && i["region"] == region) return &i;
  return nullptr;
}

static bool hasIssue(const SkypilotImport& imp, const std::string& path, const std::string& text) {
  for (const auto& i : imp.issues)
    if (i.path == path && debugText(i.message).find(text) != std::string::npos) return true;
  return false;
}

static const char* kGcpHeader =
    "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n";

TEST_CASE("GCP machine row and accelerator row of the same zone add up to one A2 offer", "[skypilot]") {
  // catalogs/v8/gcp/vms.csv@8427bbff: the a2-highgpu-1g host rows carry no accelerator; the A100 is priced on
  // rows with an empty InstanceType.
  std::string csv = std::string(kGcpHeader) +
      "a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,0.73948,0.36975\n"            // line 2
      "a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-b,0.73948,0.36975\n"            // line 3
      "a2-highgpu-1g,12.0,85.0,,,,us-west3,us-west3-b,0.8882,0.38614\n"                   // line 4
      ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-a,2.93391,1.4341\n"  // 5
      ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-b,2.93391,1.4341\n"  // 6
      ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-west3,us-west3-b,3.43686,1.4903\n";       // 7
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  const json& inst = imp.catalog["instances"];
  REQUIRE(inst.size() == 2);
  const json* c = findOffer(inst, "a2-highgpu-1g", "us-central1");
  REQUIRE(c);
  CHECK((*c)["gpu"] == "a100-sxm4-40gb");
  CHECK((*c)["gpu_count"] == 1);
  CHECK((*c)["gpu_memory_gb"] == 40);  // 40960 MiB / 1024
  CHECK((*c)["zones"] == 2);
  CHECK((*c)["vcpus"] == 12);
  // 0.73948 + 2.93391 = 3.67339 exactly (no 3.6733900000000004): GCP's published a2-highgpu-1g price.
  CHECK((*c)["prices"][0]["usd_per_hour"].get<double>() == 3.67339);
  // spot 0.36975 + 1.4341 = 1.80385
  CHECK_THAT((*c)["prices"][1]["usd_per_hour"].get<double>(), WithinAbs(1.80385, 1e-12));
  CHECK((*c)["notes"].get<std::string>().find("0.73948 (line 2) + 2.93391 (line 5) = 3.67339") != std::string::npos);
  const json* w = findOffer(inst, "a2-highgpu-1g", "us-west3");
  REQUIRE(w);
  CHECK_THAT((*w)["prices"][0]["usd_per_hour"].get<double>(), WithinAbs(4.32506, 1e-12));  // 0.8882 + 3.43686
  CHECK(imp.skipped == 0);
}

TEST_CASE("GCP attachable GPUs get SkyPilot's cheapest N1 host with enough vCPUs and memory", "[skypilot]") {
  std::string csv = std::string(kGcpHeader) +
      "n1-highcpu-8,8.0,7.2001953125,,,,us-central1,us-central1-a,0.2834,0.08744\n"  // line 2: 7.2 GiB, too little
      "n1-highmem-4,4.0,26.0,,,,us-central1,us-central1-a,0.23661,0.07183\n"         // line 3
      "n1-highmem-8,8.0,52.0,,,,us-central1,us-central1-a,0.47321,0.14366\n"         // line 4
      ",,,T4,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-a,0.35,0.175\n"     // 5
      ",,,V100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-a,2.48,1.1458\n"  // 6
      ",,,T4,4,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-a,1.4,0.7\n";       // 7
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  const json& inst = imp.catalog["instances"];
  REQUIRE(inst.size() == 2);
  // 1x T4 asks for 4 vCPUs and 4 x 4 = 16 GiB: n1-highmem-4 (4 vCPUs, 26 GiB) is the cheapest that has both.
  const json* t4 = findOffer(inst, "n1-highmem-4 + 1x T4", "us-central1");
  REQUIRE(t4);
  CHECK((*t4)["gpu"] == "t4");
  CHECK((*t4)["vcpus"] == 4);
  CHECK((*t4)["prices"][0]["usd_per_hour"].get<double>() == 0.58661);  // 0.23661 + 0.35
  // 1x V100 asks for 8 vCPUs and 32 GiB: n1-highcpu-8 has 7.2 GiB, so n1-highmem-8.
  const json* v = findOffer(inst, "n1-highmem-8 + 1x V100", "us-central1");
  REQUIRE(v);
  CHECK((*v)["prices"][0]["usd_per_hour"].get<double>() == 2.95321);  // 0.47321 + 2.48
  // 4x T4 asks for 48 vCPUs: no host here, so the row is reported, not offered.
  CHECK(hasIssue(imp, "line 7", "import.no_host_n1{accelerator=4x T4,"));
  CHECK(hasIssue(imp, "", "import.cpu_rows{row_count=1,lines=2}"));
}

TEST_CASE("GCP GPU machines priced 0.0 or paired with no accelerator are reported, not offered", "[skypilot]") {
  std::string csv = std::string(kGcpHeader) +
      "a3-edgegpu-8g,208.0,1872.0,,,,us-central1,us-central1-a,9.46006,2.75246\n"  // line 2: SkyPilot pairs no GPU row
      "a4-highgpu-8g,224.0,3968.0,,,,us-central1,us-central1-b,0.0,0.0\n"          // line 3: price 0.0
      ",,,B200,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 184320}}]},us-central1,us-central1-b,90.216,32.6064\n"     // 4
      ",,,H100,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},asia-northeast3,asia-northeast3-a,100.64584,18.9312\n";  // 5
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  // No row gave an offer: the import fails and says so, with each row's reason.
  CHECK_FALSE(imp.ok);
  CHECK(imp.catalog["instances"].empty());
  CHECK(imp.skipped == 4);
  CHECK(hasIssue(imp, "", "import.no_offer{row_count=4}"));
  CHECK(hasIssue(imp, "line 2", "{machine=a3-edgegpu-8g}"));
  CHECK(hasIssue(imp, "line 3", "import.host_unpriced{machine=a4-highgpu-8g}"));
  CHECK(hasIssue(imp, "line 4", "import.host_zero_price{accelerator=8x B200}"));
  CHECK(hasIssue(imp, "line 5", "import.no_host_builtin{accelerator=8x H100,machines=a3-highgpu-8g}"));
}

TEST_CASE("RunPod SizeInMiB written in GB is read as GB and 'A100 PCIe' picks the PCIe GPU", "[skypilot]") {
  // catalogs/v8/runpod/vms.csv@46062acb, line 2 of the file.
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Region,SpotPrice,Price,AvailabilityZone,GpuInfo\n"
      "1x_A100-80GB_SECURE,A100-80GB,1.0,8.0,117.0,CA,0.82,1.64,CA-MTL-1,\"{'Gpus': [{'Name': 'A100 PCIe', 'Manufacturer': "
      "'Nvidia', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 80}}], 'TotalGpuMemoryInMiB': 80}\"\n";
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  const json& o = imp.catalog["instances"][0];
  CHECK(o["gpu"] == "a100-pcie-80gb");   // not the SXM part the alias "A100-80GB" names
  CHECK(o["gpu_memory_gb"] == 80);       // not 80 / 1024 = 0.078
  CHECK(hasIssue(imp, "line 2", "import.memory_read_as_gb{value=80,accelerator=A100-80GB}"));
}

TEST_CASE("An instance type that says pcie picks the PCIe GPU", "[skypilot]") {
  // Shaped like Lambda's gpu_1x_h100_pcie (that row is not among the fixture rows).
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
      "gpu_1x_h100_pcie,H100,1.0,26.0,200.0,2.49,us-east-1,\"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', "
      "'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}\",\n";
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  CHECK(imp.catalog["instances"][0]["gpu"] == "h100-pcie-80gb");
}

TEST_CASE("Accelerator names with a suffix after an underscore map to the GPU before it, _PCIE to the PCIe part", "[skypilot]") {
  // Shaped like Spheron's rows (catalogs/v8/spheron/vms.csv: H100_SXM5, A100_80G_PCIE, L40S_PCIE_BAREMETAL).
  auto row = [](const char* type, const char* accel, int mib) {
    return std::string(type) + "," + accel + ",1.0,16.0,64.0,2.0,r1,\"{'Gpus': [{'Name': '" + accel +
           "', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': " + std::to_string(mib) + "}}]}\",\n";
  };
  std::string csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
                    row("a", "H100_SXM5", 81920) + row("b", "A100_80G_PCIE", 81920) + row("c", "L40S_PCIE_BAREMETAL", 46068) +
                    row("d", "NOSUCH_PCIE", 16384);
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  std::map<std::string, std::string> gpu;
  for (const auto& o : imp.catalog["instances"]) gpu[o["instance_type"]] = o["gpu"];
  CHECK(gpu["a"] == "h100-sxm5-80gb");
  CHECK(gpu["b"] == "a100-pcie-80gb");
  CHECK(gpu["c"] == "l40s");
  CHECK(gpu.count("d") == 0);  // an unknown name stays unmapped, reported under its whole name
  bool reported = false;
  for (const auto& i : imp.issues) reported = reported || debugText(i.message).find("NOSUCH_PCIE") != std::string::npos;
  CHECK(reported);
}

TEST_CASE("A board GPU count no baseboard has is skipped with its line", "[skypilot][errors]") {
  // catalogs/v6/azure/vms.csv@098741e7 lists Standard_ND96isr_H100_v5 with 12 H100; the machine has 8.
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation\n"
      "Standard_ND96isr_H100_v5,H100,12,96.0,1900,H100,98.32,98.32,eastus,V2\n"
      "Standard_NC24ads_A100_v4,A100-80GB,1,24.0,220,A100-80GB,3.673,0.444433,eastus,V2\n";
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  REQUIRE(imp.catalog["instances"].size() == 1);
  CHECK(imp.catalog["instances"][0]["instance_type"] == "Standard_NC24ads_A100_v4");
  CHECK(hasIssue(imp, "line 2", "import.board_count{value=12,gpu=h100-sxm5-80gb,"));
  CHECK(imp.skipped == 1);
}

TEST_CASE("Multi-GPU interconnect follows the GPU: NVSwitch boards, NVLink V100, PCIe cards", "[skypilot]") {
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Arch\n"
      "p4d.24xlarge,A100,8.0,96.0,1152.0,\"{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': "
      "{'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}\",21.957642,6.289000,us-east-1,use1-az1,x86_64\n"
      "p3dn.24xlarge,V100-32GB,8.0,96.0,768.0,\"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 8, "
      "'MemoryInfo': {'SizeInMiB': 32768}}], 'TotalGpuMemoryInMiB': 262144}\",31.212,8.357600,us-east-1,use1-az1,x86_64\n";
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  CHECK(imp.catalog["instances"][0]["interconnect"] == "nvswitch");
  CHECK(imp.catalog["instances"][1]["interconnect"] == "nvlink");
  CHECK(imp.catalog["instances"][1]["gpu"] == "v100-sxm2-32gb");
}

TEST_CASE("Rows without an accelerator are reported as line ranges", "[skypilot]") {
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
      "cpu_4x_general,,,4.0,16.0,0.2,europe-central-1,,\n"
      "cpu_4x_general,,,4.0,16.0,0.2,asia-south-1,,\n"
      "gpu_1x_a6000,A6000,1.0,14.0,100.0,0.8,us-east-1,,\n"
      "cpu_4x_general,,,4.0,16.0,0.2,me-west-1,,\n";
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  CHECK(hasIssue(imp, "", "import.cpu_rows{row_count=3,lines=2-3, 5}"));
}

TEST_CASE("Older and workstation GPUs map: K80 and M60 per GPU as Azure counts them, P4 and P100 on an N1 host", "[skypilot]") {
  // Azure rows verbatim from tests/fixtures/skypilot/azure-vms.csv (lines 1, 79, 29, 146, 152), plus a row of an
  // accelerator the database does not have.
  std::string azure =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation\n"
      "Standard_NC6,K80,1,6.0,56,K80,0.9,0.099,westus2,V1\n"                                     // line 2
      "Standard_NC24,K80,4,24.0,224,K80,3.6,0.396,westus2,V1\n"                                  // line 3
      "Standard_NV12s_v3,M60,1,12.0,112,M60,1.14,0.1254,eastus,\"V1,V2\"\n"                      // line 4
      "Standard_NV16as_v4,Radeon MI25,1,16.0,56,Radeon MI25,0.932,0.10252,eastus,\"V1,V2\"\n"    // line 5
      "Standard_NP10s,Xilinx U250,1,10.0,168,Xilinx U250,1.65,,eastus,V1\n";                     // line 6
  SkypilotImport imp = importSkypilotCsv(azure, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  const json& inst = imp.catalog["instances"];
  REQUIRE(inst.size() == 3);
  const json* nc6 = findOffer(inst, "Standard_NC6", "westus2");
  REQUIRE(nc6);
  CHECK((*nc6)["gpu"] == "k80");  // one GK210 of the two on a K80 board: 12 GB
  CHECK((*nc6)["gpu_count"] == 1);
  const json* nc24 = findOffer(inst, "Standard_NC24", "westus2");
  REQUIRE(nc24);
  CHECK((*nc24)["gpu_count"] == 4);
  CHECK((*nc24)["interconnect"] == "pcie");
  const json* nv = findOffer(inst, "Standard_NV12s_v3", "eastus");
  REQUIRE(nv);
  CHECK((*nv)["gpu"] == "m60");
  // NV16as_v4 rents half an MI25 (Azure's size table); the file says 1. Skipped, with the reason.
  CHECK(findOffer(inst, "Standard_NV16as_v4", "eastus") == nullptr);
  CHECK(hasIssue(imp, "line 5", "import.gpu_share{instance=Standard_NV16as_v4,share=1/2,gpu=mi25,value=1}"));
  // The accelerator no GPU matches is named with its rows.
  REQUIRE(imp.unmapped.size() == 1);
  CHECK(imp.unmapped[0].first == "Xilinx U250");
  CHECK(imp.unmapped[0].second == 1);

  // GCP: P4 and P100 are attachable GPUs like T4 (SkyPilot's N1 host rule: 8 vCPUs and 32 GiB for one of either);
  // rows in the format of gcp-vms.csv.
  std::string gcp = std::string(kGcpHeader) +
      "n1-highmem-8,8.0,52.0,,,,us-central1,us-central1-a,0.47321,0.14366\n"                                   // line 2
      ",,,P4,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 8192}}]},us-central1,us-central1-a,0.6,0.216\n"          // line 3
      ",,,P100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-a,1.46,0.584\n";     // line 4
  SkypilotImport g = importSkypilotCsv(gcp, gpuDatabase(), SkypilotOptions{});
  REQUIRE(g.ok);
  CHECK(g.unmapped.empty());
  const json* p4 = findOffer(g.catalog["instances"], "n1-highmem-8 + 1x P4", "us-central1");
  REQUIRE(p4);
  CHECK((*p4)["gpu"] == "p4");
  CHECK_THAT((*p4)["prices"][0]["usd_per_hour"].get<double>(), WithinRel(1.07321, 1e-12));  // 0.47321 + 0.6
  const json* p100 = findOffer(g.catalog["instances"], "n1-highmem-8 + 1x P100", "us-central1");
  REQUIRE(p100);
  CHECK((*p100)["gpu"] == "p100-pcie-16gb");
}

TEST_CASE("SkyPilot import: a region's empty parts are dropped (Vast.ai hosts without a state)", "[skypilot]") {
  // Vast.ai names regions "State, Country, Continent"; some rows leave the state empty (catalogs/v8/vast/vms.csv).
  std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
      "1x-RTX4090-8-32,RTX4090,1,8,32,,0.35,,\", US, NA\",\n"
      "1x-RTX4090-8-32,RTX4090,1,8,32,,0.40,,\"Texas, US, NA\",\n"
      "1x-RTX4090-8-32,RTX4090,1,8,32,,0.45,,\" , \",\n";
  SkypilotImport imp = importSkypilotCsv(csv, gpuDatabase(), SkypilotOptions{});
  REQUIRE(imp.ok);
  const json& inst = imp.catalog["instances"];
  REQUIRE(inst.size() == 3);
  std::vector<std::string> regions;
  for (const auto& o : inst) regions.push_back(o["region"].get<std::string>());
  std::sort(regions.begin(), regions.end());
  CHECK(regions == std::vector<std::string>{"Texas, US, NA", "US, NA", "unknown"});  // nothing left: "unknown"
}
