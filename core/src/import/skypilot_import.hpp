// The parts of one SkyPilot import (import/skypilot.hpp): the rows read from vms.csv, the offers being assembled
// and the helpers the import steps share. Internal to core/src/import/.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "import/skypilot.hpp"

namespace gpuvalue {
namespace skypilot {

using Row = std::vector<std::string>;

// The GpuInfo cell: a Python-literal dict (AWS, GCP, Lambda, RunPod) or a bare GPU name (Azure, GCP TPUs).
struct GpuInfoCell {
  double size_mib = 0;  // Gpus[0].MemoryInfo.SizeInMiB as written (RunPod writes GB there)
  std::string name;     // Gpus[0].Name, e.g. "A100 PCIe" on RunPod
};

// A row without an accelerator that has an instance type: a CPU machine, or on GCP the host part of a GPU machine.
struct HostRow {
  std::string instance_type, region, zone;
  double vcpus = 0, memory_gib = 0, price = 0, spot = 0;
  bool has_price = false, has_spot = false;
  size_t row = 0, line = 0;
};

// A row with an accelerator and no instance type: GCP's price of N attached GPUs in one zone.
struct AcceleratorRow {
  std::string name, region, zone;
  int count = 0;
  double price = 0, spot = 0;
  bool has_spot = false;
  GpuInfoCell info;
  size_t row = 0, line = 0;
};

// One offer being assembled: one instance type (or host + GPUs) in one region, one price per zone.
struct Group {
  std::string instance_type, region, gpu_id, accel_name, interconnect, notes;
  int gpu_count = 0;
  double vcpus = 0, ram_gb = 0, memory_gb_per_gpu = 0;
  std::vector<double> prices, spots;
  size_t first_line = 0;
  bool composed = false;
  std::string cheapest_sum;  // "us-central1-a: 0.73948 + 2.93391 = 3.67339"
  double cheapest = 0;
};

// GiB to GB (2^30 / 10^9).
constexpr double kGbPerGib = 1.073741824;

// Everything one import reads, decides and reports, shared by its steps.
struct ImportState {
  ImportState(const GpuDatabase& gpu_db, SkypilotImport& result) : gpus(gpu_db), imp(result) {}

  const GpuDatabase& gpus;
  SkypilotImport& imp;                 // issues and row counts go here as they are found
  std::vector<Row> rows;               // rows[0] is the header
  std::vector<size_t> lines;           // line of each row in the file
  std::map<std::string, size_t> col;   // header name -> column
  std::vector<char> used;              // row fed an offer
  std::vector<char> reported;          // row already named in an issue
  size_t skipped_logged = 0;           // rows reported by skip(), listed one by one up to kMaxSkipsListed
  std::map<std::string, std::vector<size_t>> unmapped;  // accelerator name -> lines
  std::map<std::string, GpuInfoCell> info_cache;        // GpuInfo cell text -> what it says
  std::set<std::string> memory_warned;                  // accelerator names whose SizeInMiB was reported
  std::map<std::string, Group> groups;                  // offer key -> offer
  std::vector<std::string> order;                       // offer keys in the order they were first seen
  std::vector<HostRow> hosts;
  std::vector<AcceleratorRow> accels;
  const std::map<std::string, std::string>* known_gpus = nullptr;  // SkypilotOptions::known_gpus
  std::map<std::string, int> accel_forms;  // accelerator|count|cloud -> form factor bits its rows' names say (scanRows)
  int memory_reading = 0;                  // how this file's SizeInMiB reads for multi-GPU rows (scanRows)

  // Rows named one by one in skip() issues; the rest are counted in one issue.
  static constexpr size_t kMaxSkipsListed = 50;

  std::string cell(const Row& r, const char* name) const;
  // Reports row i as skipped (at most kMaxSkipsListed rows one by one).
  void skip(size_t i, Message why);
  // Reports rows as one warning with their line ranges.
  void warnLines(const std::vector<size_t>& rows_idx, Message why);
  // The offer under `key`, made by `make` when it is new (and then remembered in first-seen order).
  template <typename Make>
  Group& group(const std::string& key, Make make) {
    auto found = groups.find(key);
    if (found == groups.end()) {
      found = groups.emplace(key, make()).first;
      order.push_back(key);
    }
    return found->second;
  }
};

// Shared helpers (skypilot.cpp).
bool toNumber(const std::string& s, double& out);
double tidy(double v);
std::string num(double v);
bool startsWith(const std::string& s, const char* p);
bool contains(const std::string& s, const char* p);
std::string linesLabel(const std::vector<size_t>& lines);
// vCPUs and memory of a machine row, where the catalog's limits allow them.
void readHostFields(const ImportState& s, const Row& r, HostRow& h);

// GPU names (skypilot_gpus.cpp).
GpuInfoCell readGpuInfo(const std::string& cell, std::map<std::string, GpuInfoCell>& cache);
// Maps an accelerator name (plus every hint of the row: skypilot_hints.cpp) to a GPU of ours, or reports it
// (unknown name, or ambiguous hints) and returns nullptr. memory_gb: the per-GPU memory the file gives, 0 when it
// gives none that can be used.
const GpuSpec* mapGpu(ImportState& s, size_t i, const std::string& accel, const GpuInfoCell& info,
                      const std::string& instance_type, int count, double& memory_gb);
// Per-GPU memory in GB where GpuInfo's SizeInMiB (below 1024) holds GB (RunPod, Shadeform): SizeInMiB when as_gb
// (it matches a GPU of the named family), else 0; said once per accelerator name.
double memoryGbOf(ImportState& s, size_t i, const std::string& accel, const GpuInfoCell& info, bool as_gb);

// Hints (skypilot_hints.cpp). Form factor words a name carries: "PCIe"/"pci", "SXM"/"HGX"/"DGX", "NVL".
enum FormBits { kFormPcie = 1, kFormSxm = 2, kFormNvl = 4 };
int formBitsOf(const std::string& text);
// Before the rows are read: what each accelerator name's rows say of their form factor, and whether the file's
// multi-GPU rows give SizeInMiB per GPU or per machine.
void scanRows(ImportState& s);
// The GPU of g's family that every hint of row i fits, or nullptr after listing the row as ambiguous.
const GpuSpec* pickGpu(ImportState& s, size_t i, const GpuSpec* g, const std::string& accel, const GpuInfoCell& info,
                       const std::string& instance_type, int count, double& memory_gb);
bool boardCountOk(const GpuSpec* g, int count);
// The share of one GPU ("1/2") an instance type rents where the file counts it as one GPU, or nullptr.
const char* gpuShareOf(const std::string& instance_type);
std::string interconnectOf(const GpuSpec* g, int count);

// GCP host + accelerator offers (skypilot_gcp.cpp).
void composeGcpOffers(ImportState& s);

}  // namespace skypilot
}  // namespace gpuvalue
