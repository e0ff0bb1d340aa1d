// Form factor and per-GPU memory of SkyPilot rows from every hint they carry (import/skypilot_hints.cpp). Every row
// below is verbatim from skypilot-org/skypilot-catalog (catalogs/v8/<cloud>/vms.csv at the commit named in the test)
// or the fork sugarlxn/skypilot-catalog (Alibaba), as kept in tests/fixtures/skypilot.
#include <catch2/catch.hpp>

#include "import/skypilot.hpp"
#include "import/skypilot_import.hpp"
#include "test_support.hpp"

using namespace gpuvalue;

namespace {

SkypilotImport run(const std::string& csv, std::map<std::string, std::string> known = {}) {
  SkypilotOptions opt;
  opt.provider = "Test";
  opt.as_of = "2026-12-04";
  opt.known_gpus = std::move(known);
  return importSkypilotCsv(csv, gpuvalue_test::gpuDatabase(), opt);
}

const json* offer(const SkypilotImport& imp, const std::string& instance_type) {
  for (const auto& o : imp.catalog["instances"])
    if (o["instance_type"] == instance_type) return &o;
  return nullptr;
}

bool listedAmbiguous(const SkypilotImport& imp, const std::string& instance_type, const std::string& code) {
  for (const auto& a : imp.ambiguous)
    if (a.instance_type == instance_type && a.code == code) return true;
  return false;
}

const char* kCudoHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n";
const char* kPrimeHeader =
    "InstanceType,UpstreamCloudId,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n";
const char* kVastHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n";
const char* kSpheronHeader =
    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice,Provider,OperatingSystem,SpheronInstanceType\n";

}  // namespace

TEST_CASE("CUDO's '-pci_' instance types are the A100 PCIe card, like their '-pcie_' siblings", "[skypilot][hints]") {
  // catalogs/v8/cudo/vms.csv @113567a7: "A100" with 81920 MiB per GPU; only the instance type says PCIe.
  const std::string csv = std::string(kCudoHeader) +
      "epyc-genoa-a100-pcie_2x8v16gb,A100,2.0,8,16,3.1176,no-kristiansand-1,\"{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': '2.0', 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 163840}\",\n"
      "intel-ice-lake-a100-pci_2x8v16gb,A100,2.0,8,16,2.7936,us-carlsbad-1,\"{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': '2.0', 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 163840}\",\n"
      "sapphire-rapids-h100_2x8v16gb,H100-SXM,2.0,8,16,5.1416,ca-montreal-3,\"{'Gpus': [{'Name': 'H100-SXM', 'Manufacturer': 'NVIDIA', 'Count': '2.0', 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 163840}\",\n";
  SkypilotImport imp = run(csv);
  REQUIRE(imp.ok);
  for (const char* type : {"epyc-genoa-a100-pcie_2x8v16gb", "intel-ice-lake-a100-pci_2x8v16gb"}) {
    const json* o = offer(imp, type);
    REQUIRE(o);
    CHECK((*o)["gpu"] == "a100-pcie-80gb");
    CHECK((*o)["interconnect"] == "pcie");  // never NVSwitch on PCIe cards
    CHECK((*o)["gpu_memory_gb"] == 80);     // 81920 MiB / 1024 per GPU (81920 / 2 = 40 GB would be the other reading)
  }
  const json* h100 = offer(imp, "sapphire-rapids-h100_2x8v16gb");
  REQUIRE(h100);
  CHECK((*h100)["gpu"] == "h100-sxm5-80gb");
  CHECK((*h100)["interconnect"] == "nvswitch");
  CHECK(imp.ambiguous.empty());
}

TEST_CASE("Prime Intellect rows: total memory is divided by the count, upstream ids and sibling files give the form factor",
          "[skypilot][hints]") {
  // catalogs/v8/primeintellect/vms.csv @d9a304ea: SizeInMiB holds the machine's total (655360 = 8 x 80 GiB).
  const std::string csv = std::string(kPrimeHeader) +
      "hyperstack__1xH100_80GB__28__180,n3-H100x1,28.0,180,H100,1.0,\"{\"\"Gpus\"\":[{\"\"Name\"\":\"\"H100\"\",\"\"Count\"\":1,\"\"MemoryInfo\"\":{\"\"SizeInMiB\"\":81920}}],\"\"TotalGpuMemoryInMiB\"\":81920}\",CA,CANADA-1,1.9,\n"
      "hyperstack__8xH100_80GB__192__960,n3-H100-SXM5x8,192.0,960,H100,8.0,\"{\"\"Gpus\"\":[{\"\"Name\"\":\"\"H100\"\",\"\"Count\"\":8,\"\"MemoryInfo\"\":{\"\"SizeInMiB\"\":655360}}],\"\"TotalGpuMemoryInMiB\"\":5242880}\",US,US-1,19.2,\n"
      "oblivus__2xA100_80GB__60__240,A100_PCIE_80GB,60.0,240,A100-80GB,2.0,\"{\"\"Gpus\"\":[{\"\"Name\"\":\"\"A100-80GB\"\",\"\"Count\"\":2,\"\"MemoryInfo\"\":{\"\"SizeInMiB\"\":163840}}],\"\"TotalGpuMemoryInMiB\"\":327680}\",CA,MON1,2.9455,\n"
      "datacrunch__2xV100_16GB__10__45,2V100.10V,10.0,45,V100,2.0,\"{\"\"Gpus\"\":[{\"\"Name\"\":\"\"V100\"\",\"\"Count\"\":2,\"\"MemoryInfo\"\":{\"\"SizeInMiB\"\":32768}}],\"\"TotalGpuMemoryInMiB\"\":65536}\",FI,FIN-01,0.28,\n"
      "datacrunch__4xV100_16GB__20__90,4V100.20V,20.0,90,V100,4.0,\"{\"\"Gpus\"\":[{\"\"Name\"\":\"\"V100\"\",\"\"Count\"\":4,\"\"MemoryInfo\"\":{\"\"SizeInMiB\"\":65536}}],\"\"TotalGpuMemoryInMiB\"\":262144}\",FI,FIN-01,0.55,\n";
  SECTION("without another file's mapping, n3-H100x1 says nothing of its form and stays the named H100") {
    SkypilotImport imp = run(csv);
    REQUIRE(imp.ok);
    CHECK((*offer(imp, "hyperstack__1xH100_80GB__28__180"))["gpu"] == "h100-sxm5-80gb");
  }
  // hyperstack.json maps Hyperstack's own n3-H100x1 (accelerator H100-80G-PCIe) to the PCIe card.
  SkypilotImport imp = run(csv, {{"n3-H100x1", "h100-pcie-80gb"}});
  REQUIRE(imp.ok);
  CHECK((*offer(imp, "hyperstack__1xH100_80GB__28__180"))["gpu"] == "h100-pcie-80gb");
  const json* sxm = offer(imp, "hyperstack__8xH100_80GB__192__960");
  CHECK((*sxm)["gpu"] == "h100-sxm5-80gb");  // upstream id n3-H100-SXM5x8
  CHECK((*sxm)["gpu_memory_gb"] == 80);       // 655360 MiB / 1024 / 8
  const json* oblivus = offer(imp, "oblivus__2xA100_80GB__60__240");
  CHECK((*oblivus)["gpu"] == "a100-pcie-80gb");  // upstream id A100_PCIE_80GB
  CHECK((*oblivus)["interconnect"] == "pcie");
  CHECK((*oblivus)["gpu_memory_gb"] == 80);      // 163840 / 1024 / 2
  // 32768 MiB for 2 V100: 32 GB per GPU and 16 GB per GPU both fit a V100; the 4-GPU row (65536 MiB: 64 GB fits no
  // V100, 16 GB does) shows the file gives totals, so 32768 / 1024 / 2 = 16 GB.
  CHECK((*offer(imp, "datacrunch__2xV100_16GB__10__45"))["gpu"] == "v100-sxm2-16gb");
  CHECK((*offer(imp, "datacrunch__4xV100_16GB__20__90"))["gpu"] == "v100-sxm2-16gb");
}

TEST_CASE("Vast's totals: a 2x A100 40GB box is not an A100 80GB, and a 48 GB RTX 4090 is refused", "[skypilot][hints]") {
  // catalogs/v8/vast/vms.csv @01b8cdda, lines 2, 48, 23 and 25 of tests/fixtures/skypilot/vast-vms.csv.
  const std::string csv = std::string(kVastHeader) +
      "2x-H200-32-65536,H200,2,32,64.0,\"{'Gpus': [{'Name': 'H200', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 287542}}], 'TotalGpuMemoryInMiB': 287542}\",5.18,0.00,\"Michigan, US, NA\"\n"
      "2x-A100_SXM4-32-65536,A100,2,32,64.0,\"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}\",1.49,0.00,\"Slovenia, SI, EU\"\n"
      "1x-RTX_4090-32-65536,RTX4090,1,32,64.0,\"{'Gpus': [{'Name': 'RTX4090', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 49140}}], 'TotalGpuMemoryInMiB': 49140}\",0.40,0.00,\"Hong Kong, HK, AS\"\n"
      "2x-H100_NVL-32-65536,H100,2,32,64.0,\"{'Gpus': [{'Name': 'H100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 191660}}], 'TotalGpuMemoryInMiB': 191660}\",4.53,0.00,\"Australia, AU, OC\"\n";
  SkypilotImport imp = run(csv);
  REQUIRE(imp.ok);
  // 287542 MiB: 280.8 GiB fits no H200, 140.4 GiB per GPU does: this file gives totals. So 81920 MiB for 2 A100
  // (80 GiB or 40 GiB both fit an A100) is 2 x 40 GB.
  const json* a100 = offer(imp, "2x-A100_SXM4-32-65536");
  REQUIRE(a100);
  CHECK((*a100)["gpu"] == "a100-sxm4-40gb");
  CHECK((*a100)["gpu_memory_gb"] == 40);
  // 191660 / 1024 / 2 = 93.6 GB per GPU and "NVL" in the name: the H100 NVL (94 GB), PCIe cards bridged in pairs.
  const json* nvl = offer(imp, "2x-H100_NVL-32-65536");
  REQUIRE(nvl);
  CHECK((*nvl)["gpu"] == "h100-nvl-94gb");
  CHECK((*nvl)["interconnect"] == "pcie");
  // 49140 MiB = 48 GB on one RTX 4090 (a 24 GB card): no GPU of ours, so the row is left out, not mapped to 24 GB.
  CHECK_FALSE(offer(imp, "1x-RTX_4090-32-65536"));
  CHECK(listedAmbiguous(imp, "1x-RTX_4090-32-65536", "import.ambiguous_memory"));
}

TEST_CASE("A multi-GPU row whose memory reads both ways in a file that never says which is ambiguous", "[skypilot][hints]") {
  // The Vast A100 row alone: 81920 MiB for 2 GPUs is 2 x 40 GB or 2 x 80 GB, and no other row tells.
  const std::string csv = std::string(kVastHeader) +
      "2x-A100_SXM4-32-65536,A100,2,32,64.0,\"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}\",1.49,0.00,\"Slovenia, SI, EU\"\n";
  SkypilotImport imp = run(csv);
  CHECK_FALSE(imp.ok);
  CHECK(listedAmbiguous(imp, "2x-A100_SXM4-32-65536", "import.ambiguous_total"));
}

TEST_CASE("Spheron: H100_NVL with 80 GB is the bridged H100 PCIe; an SXM4 instance of A100_80G_PCIE is refused",
          "[skypilot][hints]") {
  // catalogs/v8/spheron/vms.csv @38989832.
  const std::string csv = std::string(kSpheronHeader) +
      "n3-H100x8-NVLink__CANADA-1,H100_NVL,8.0,252.0,1440.0,16.4807,CANADA-1,\"{\"\"Gpus\"\": [{\"\"Name\"\": \"\"H100_NVL\"\", \"\"Manufacturer\"\": \"\"NVIDIA\"\", \"\"Count\"\": 8.0, \"\"MemoryInfo\"\": {\"\"SizeInMiB\"\": 81920}, \"\"TotalGpuMemoryInMiB\"\": 655360}]}\",,spheron-ai,Ubuntu Server 22.04 LTS R570 CUDA 12.8 with Docker,DEDICATED\n"
      "gpu_1x_a100_SXM4_us-central-3,A100_80G_PCIE,1.0,14.0,100.0,1.068,us-central-3,\"{\"\"Gpus\"\": [{\"\"Name\"\": \"\"A100_80G_PCIE\"\", \"\"Manufacturer\"\": \"\"NVIDIA\"\", \"\"Count\"\": 1.0, \"\"MemoryInfo\"\": {\"\"SizeInMiB\"\": 81920}, \"\"TotalGpuMemoryInMiB\"\": 81920}]}\",,massed-compute,Ubuntu Server 22.04,DEDICATED\n";
  SkypilotImport imp = run(csv);
  REQUIRE(imp.ok);
  const json* h100 = offer(imp, "n3-H100x8-NVLink__CANADA-1");
  REQUIRE(h100);
  CHECK((*h100)["gpu"] == "h100-pcie-80gb");  // 81920 MiB per GPU: not the 94 GB H100 NVL, not SXM
  CHECK((*h100)["interconnect"] == "pcie");
  CHECK_FALSE(offer(imp, "gpu_1x_a100_SXM4_us-central-3"));
  CHECK(listedAmbiguous(imp, "gpu_1x_a100_SXM4_us-central-3", "import.ambiguous_form"));
}

TEST_CASE("Alibaba's bare GpuInfo name 'V100 32GB' makes gn6e the 32 GB V100", "[skypilot][hints]") {
  // sugarlxn/skypilot-catalog catalogs/v8/alicloud/vms.csv @003c56a7, line 31 of the fixture.
  const std::string csv =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Generation,Arch\n"
      "ecs.gn6e-c12g1.3xlarge,V100,1,12,92,V100 32GB,2.735574,0.85602642,cn-hangzhou,cn-hangzhou-h,ecs.gn6e,X86\n";
  SkypilotImport imp = run(csv);
  REQUIRE(imp.ok);
  CHECK((*offer(imp, "ecs.gn6e-c12g1.3xlarge"))["gpu"] == "v100-sxm2-32gb");
}

TEST_CASE("A row silent on its form factor, beside rows of the same GPU name that say SXM, is ambiguous", "[skypilot][hints]") {
  // catalogs/v8/shadeform/vms.csv @002363da, Massed Compute's rows (lines 90 and 104 of the fixture).
  const std::string csv = std::string(kCudoHeader) +
      "massedcompute_A100-sxm4-80GB,A100-80GB,1.0,14.0,100,1.38,desmoines-usa-1,\"{'Gpus': [{'Name': 'A100-80GB', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 80}, 'TotalGpuMemoryInMiB': 80}]}\",\n"
      "massedcompute_A100-80GB,A100-80GB,1.0,12.0,64,1.35,desmoines-usa-1,\"{'Gpus': [{'Name': 'A100-80GB', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 80}, 'TotalGpuMemoryInMiB': 80}]}\",\n";
  SkypilotImport imp = run(csv);
  REQUIRE(imp.ok);
  CHECK((*offer(imp, "massedcompute_A100-sxm4-80GB"))["gpu"] == "a100-sxm4-80gb");
  CHECK_FALSE(offer(imp, "massedcompute_A100-80GB"));
  CHECK(listedAmbiguous(imp, "massedcompute_A100-80GB", "import.ambiguous_siblings"));
  // With a mapping from the provider's own list the row is no longer silent.
  SkypilotImport known = run(csv, {{"massedcompute_A100-80GB", "a100-pcie-80gb"}});
  CHECK((*offer(known, "massedcompute_A100-80GB"))["gpu"] == "a100-pcie-80gb");
}

TEST_CASE("Form factor words are read from whole tokens", "[skypilot][hints]") {
  const auto importFormBits = [](const std::string& t) { return skypilot::formBitsOf(t); };
  CHECK(importFormBits("intel-ice-lake-a100-pci_1x2v4gb") == 1);   // "pci" token: PCIe
  CHECK(importFormBits("A100_PCIE_80GB") == 1);
  CHECK(importFormBits("A100-80G-PCIe-NVLink") == 1);             // NVLink alone says neither
  CHECK(importFormBits("n3-A100x8-NVLink") == 0);
  CHECK(importFormBits("gpu_1x_DGX_A100") == 2);
  CHECK(importFormBits("H100_SXM5") == 2);
  CHECK(importFormBits("H100_NVL") == 4);
  CHECK(importFormBits("GB200 NVL72") == 0);                      // the rack, not the H100 NVL card
  CHECK(importFormBits("epyc-genoa-l40s-graphics_1x2v4gb") == 0);  // "pci" inside no token
}
