// GPU names of a SkyPilot file mapped to GPUs of ours: the GpuInfo cell, memory and PCIe hints, board counts and the
// interconnect a multi-GPU offer is taken to have.
#include <cctype>
#include <cmath>

#include "import/csv.hpp"
#include "import/skypilot_import.hpp"

namespace gpuvalue {
namespace skypilot {

GpuInfoCell readGpuInfo(const std::string& cell, std::map<std::string, GpuInfoCell>& cache) {
  auto it = cache.find(cell);
  if (it != cache.end()) return it->second;
  GpuInfoCell info;
  json gi = json::parse(pythonLiteralToJson(cell), nullptr, false);
  if (gi.is_object() && gi.contains("Gpus") && gi["Gpus"].is_array() && !gi["Gpus"].empty() && gi["Gpus"][0].is_object()) {
    const json& g0 = gi["Gpus"][0];
    if (g0.contains("MemoryInfo") && g0["MemoryInfo"].is_object() && g0["MemoryInfo"].contains("SizeInMiB") &&
        g0["MemoryInfo"]["SizeInMiB"].is_number())
      info.size_mib = g0["MemoryInfo"]["SizeInMiB"].get<double>();
    if (g0.contains("Name") && g0["Name"].is_string()) info.name = g0["Name"].get<std::string>();
  } else if (!cell.empty() && cell.find('{') == std::string::npos) {
    info.name = cell;  // a bare GPU name: Alibaba writes "V100 32GB" for gn6e, "V100" for gn6v
  }
  cache[cell] = info;
  return info;
}

namespace {

// Accelerators of the public catalogs that are not GPUs: they run their own software stacks (SynapseAI, Neuron,
// XLA) and no measurement of them calibrates the throughput model, so their rows are skipped with that reason rather
// than as unknown names. Intel publishes no dense peak figures for Gaudi 2 either (see the accelerator table of
// https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/README.md, note 1).
const char* nonGpuFamily(const std::string& accel) {
  std::string a;
  for (char c : accel) a += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (a.rfind("gaudi", 0) == 0 || a.rfind("hl-205", 0) == 0) return "gaudi";
  if (a.rfind("inferentia", 0) == 0) return "inferentia";
  if (a.rfind("trainium", 0) == 0) return "trainium";
  if (a.rfind("tpu", 0) == 0) return "tpu";
  return nullptr;
}

// The GPU named `accel`, or nullptr after reporting the name (once per name; every line is kept for the summary).
const GpuSpec* findGpu(ImportState& s, size_t i, const std::string& accel) {
  const GpuSpec* g = s.gpus.find(accel);
  if (g) return g;
  // Names with a form-factor or memory suffix after an underscore (Spheron: "H100_SXM5", "A100_80G_PCIE",
  // "L40S_PCIE_BAREMETAL"): the GPU of the part before it; memory and "PCIE" pick the variant (mapGpu).
  const size_t cut = accel.find('_');
  if (cut != std::string::npos && cut > 0 && (g = s.gpus.find(accel.substr(0, cut)))) return g;
  auto& seen = s.unmapped[accel];
  seen.push_back(s.lines[i]);
  const char* family = nonGpuFamily(accel);
  if (seen.size() == 1)
    s.imp.issues.push_back({ErrorCode::kUnknownId, "line " + std::to_string(s.lines[i]),
                            family ? Message("import.not_gpu").text("accelerator", excerpt(accel)).text("family", family)
                                   : Message("import.unmapped_gpu").text("accelerator", excerpt(accel)),
                            true});
  s.reported[i] = 1;
  return nullptr;
}

}  // namespace

double memoryGbOf(ImportState& s, size_t i, const std::string& accel, const GpuInfoCell& info, bool as_gb) {
  if (info.size_mib <= 0) return 0;
  // RunPod and Shadeform write GB into SizeInMiB ('SizeInMiB': 80 for an A100 80GB). Read it as GB when that
  // matches a GPU of the named family; otherwise ignore it. Either way say so once per GPU name.
  if (s.memory_warned.insert(accel).second)
    s.imp.issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(s.lines[i]),
                            Message(as_gb ? "import.memory_read_as_gb" : "import.memory_ignored")
                                .num("value", info.size_mib).text("accelerator", excerpt(accel)),
                            true});
  return as_gb ? info.size_mib : 0;
}

const GpuSpec* mapGpu(ImportState& s, size_t i, const std::string& accel, const GpuInfoCell& info,
                      const std::string& instance_type, int count, double& memory_gb) {
  memory_gb = 0;
  const GpuSpec* g = findGpu(s, i, accel);
  return g ? pickGpu(s, i, g, accel, info, instance_type, count, memory_gb) : nullptr;
}

// Azure sizes that rent a share of one GPU, which SkyPilot's Azure file lists with AcceleratorCount 1. NVv4
// (Radeon Instinct MI25): https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/nvv4-series,
// "Accelerators" tab: NV4as_v4 1/8, NV8as_v4 1/4, NV16as_v4 1/2 of a GPU (NV32as_v4 is a whole one).
const char* gpuShareOf(const std::string& instance_type) {
  static const std::pair<const char*, const char*> kShares[] = {
      {"Standard_NV4as_v4", "1/8"}, {"Standard_NV8as_v4", "1/4"}, {"Standard_NV16as_v4", "1/2"}};
  for (const auto& [type, share] : kShares)
    if (instance_type == type) return share;
  return nullptr;
}

// GPUs on a baseboard (SXM, OAM) come 1, 2, 4, 8 or 16 to a machine; anything else is a catalog error
// (Azure v6 lists Standard_ND96isr_H100_v5 with 12 H100, the machine has 8).
bool boardCountOk(const GpuSpec* g, int count) {
  if (contains(g->form_factor, "PCIe")) return true;
  return count == 1 || count == 2 || count == 4 || count == 8 || count == 16;
}

// The file never says how GPUs are linked. Board GPUs with NVLink are linked by NVLink (V100 boards) or NVSwitch
// (A100 and later HGX boards); PCIe cards by PCIe.
std::string interconnectOf(const GpuSpec* g, int count) {
  if (count <= 1) return "none";
  if (g->vendor == "AMD" && !contains(g->form_factor, "PCIe")) return "infinity-fabric";
  if (contains(g->form_factor, "PCIe") || g->nvlink_gbs <= 0) return "pcie";
  return g->architecture == "volta" ? "nvlink" : "nvswitch";
}

}  // namespace skypilot
}  // namespace gpuvalue
