// The GPU datasheet database (data/gpus.json): what each GPU can do.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "io/issues.hpp"

namespace gpuvalue {

// Numeric precisions the engine knows. Training at kFp16/kBf16 means mixed precision (AMP).
enum class Precision { kFp32, kTf32, kFp16, kBf16, kFp8, kFp4, kInt8 };
constexpr int kPrecisionCount = 7;
const char* precisionName(Precision p);
bool parsePrecision(const std::string& s, Precision& out);

struct MigProfile {
  std::string name;       // e.g. "1g.10gb"
  double memory_gb = 0;
  int compute_slices = 0; // out of 7 on A100/H100/H200
  int max_count = 0;
};

struct GpuSpec {
  std::string id;              // stable id, e.g. "a100-sxm4-80gb"
  std::string name;
  std::string vendor;
  std::string architecture;    // kepler maxwell pascal volta turing ampere ada hopper blackwell gcn5 cdna2 cdna3
  std::string form_factor;
  int release_year = 0;
  std::vector<std::string> aliases;
  double memory_gb = 0;
  std::string memory_type;
  double memory_bandwidth_gbs = 0;
  // Dense peak per precision in TFLOPS (TOPS for int8); 0 where the GPU lacks the precision.
  double tflops[kPrecisionCount] = {0, 0, 0, 0, 0, 0, 0};
  double nvlink_gbs = 0;       // per-GPU total (bidirectional) NVLink / Infinity Fabric bandwidth
  int pcie_gen = 0;
  double tdp_w = 0;
  std::vector<MigProfile> mig_profiles;
  std::vector<std::string> sources;

  double peak(Precision p) const { return tflops[static_cast<int>(p)]; }
};

class GpuDatabase {
 public:
  // Parses and validates data/gpus.json text. On any error the database is left unchanged.
  Issues load(const std::string& json_text);
  // Looks up by id or alias (case-insensitive). Returns nullptr when unknown.
  const GpuSpec* find(const std::string& id_or_alias) const;
  const std::vector<GpuSpec>& all() const { return gpus_; }
  bool empty() const { return gpus_.empty(); }

 private:
  std::vector<GpuSpec> gpus_;
  std::map<std::string, size_t> index_;  // lower-cased id and aliases -> position
};

std::string toLower(std::string s);

}  // namespace gpuvalue
