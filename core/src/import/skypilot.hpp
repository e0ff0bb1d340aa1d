// Import of SkyPilot catalog files (skypilot-org/skypilot-catalog `catalogs/v*/<cloud>/vms.csv`).
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "import/csv.hpp"
#include "model/gpu_specs.hpp"
#include "io/issues.hpp"
#include "io/json_reader.hpp"

namespace gpuvalue {

struct SkypilotOptions {
  std::string provider;  // e.g. "AWS"; empty = "SkyPilot import"
  std::string as_of;     // date the file was taken (YYYY-MM-DD)
  std::string source;    // where the file came from
  // Machines another catalog file already maps (instance type or upstream id -> GPU id): Hyperstack's n3-H100x1 is
  // its H100 PCIe, and Prime Intellect's row naming n3-H100x1 as its UpstreamCloudId is the same machine.
  std::map<std::string, std::string> known_gpus;
};

// A row left out because its hints disagree (or fit no GPU of ours): line, instance type, accelerator, message code.
struct SkypilotAmbiguous {
  size_t line = 0;
  std::string instance_type, accelerator, code;
};

struct SkypilotImport {
  bool ok = false;
  json catalog;          // our catalog format: {"schema_version": 1, "instances": [...]}
  Issues issues;         // "line N" paths for skipped rows and unmapped GPU names (warnings)
  size_t rows = 0;
  size_t skipped = 0;
  std::vector<std::pair<std::string, size_t>> unmapped;  // accelerator names that map to no GPU id, with their rows
  std::vector<SkypilotAmbiguous> ambiguous;               // rows whose hints disagree (skypilot_hints.cpp)
};

// Parses vms.csv by header name (column order differs per cloud), reads the Python-literal GpuInfo (per-GPU memory
// from SizeInMiB), merges availability-zone rows into one offer per instance type and region: on-demand and spot
// USD/hour are the cheapest zone, zone_median_usd_per_hour the median zone.
// GCP lists machines and GPUs on separate rows (InstanceType empty on GPU rows). Offers are composed zone by zone as
// host row + accelerator row: for A2/A3/A4/G2 machines with the pairing SkyPilot uses (gcp_catalog.py
// _ACC_INSTANCE_TYPE_DICTS), for attachable GPUs (T4, V100, P100, P4) with SkyPilot's default N1 host, the cheapest
// n1 machine in the zone with the vCPUs SkyPilot asks for and 4 GiB per vCPU ("n1-highmem-4 + 1x T4").
// Real-file quirks handled: RunPod's SizeInMiB holds GB (80 for an A100 80GB) and is read as GB when it matches the
// GPU; "PCIe" in GpuInfo's name or the instance type picks the PCIe part; a board GPU (SXM/OAM) count other than
// 1, 2, 4, 8, 16 is a catalog error (Azure v6 lists 12 H100 in ND96isr_H100_v5) and the row is skipped. The
// interconnect of multi-GPU offers is inferred from the GPU (the file has none): NVLink for V100 boards, NVSwitch
// for later SXM boards, PCIe for cards.
// Every row that feeds no offer is reported with its line number (CPU machines summarised as line ranges).
SkypilotImport importSkypilotCsv(const std::string& csv_text, const GpuDatabase& gpus, const SkypilotOptions& opt);

}  // namespace gpuvalue
