#include "model/gpu_specs.hpp"

#include <algorithm>
#include <cctype>

#include "io/fields.hpp"
#include "io/json_reader.hpp"
#include "model/data_fields.hpp"

namespace gpuvalue {

static const char* kPrecisionNames[kPrecisionCount] = {"fp32", "tf32", "fp16", "bf16", "fp8", "fp4", "int8"};

const char* precisionName(Precision p) { return kPrecisionNames[static_cast<int>(p)]; }

bool parsePrecision(const std::string& s, Precision& out) {
  std::string l = toLower(s);
  for (int i = 0; i < kPrecisionCount; ++i) {
    if (l == kPrecisionNames[i]) {
      out = static_cast<Precision>(i);
      return true;
    }
  }
  return false;
}

std::string toLower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

namespace {

namespace D = data_fields;

// The dense peaks (kGpuTflopsRecord's fields are in Precision order); at least FP16 or FP32 is given.
void readPeaks(ObjectReader& r, GpuSpec& g, Issues& issues) {
  const json* t = r.get(D::kTflops.name);
  if (!t) {
    r.error(D::kTflops.name, ErrorCode::kMissingField, Message("error.required"));
    return;
  }
  ObjectReader tr(*t, r.childPath(D::kTflops.name), issues);
  if (!tr.ok()) return;
  for (int p = 0; p < kPrecisionCount; ++p) g.tflops[p] = readNumber(tr, *D::kGpuTflopsRecord.fields[p]).value_or(0);
  if (g.tflops[static_cast<int>(Precision::kFp16)] <= 0 && g.tflops[static_cast<int>(Precision::kFp32)] <= 0)
    tr.error(precisionName(Precision::kFp16), ErrorCode::kMissingField, Message("error.gpu_needs_peak"));
}

// The MIG profiles, each at most the GPU's memory.
void readMigProfiles(ObjectReader& r, GpuSpec& g, Issues& issues) {
  const json* m = r.get(D::kMigProfiles.name);
  if (!m) return;
  if (!m->is_array()) {
    r.error(D::kMigProfiles.name, ErrorCode::kInvalidValue, Message("error.not_array"));
    return;
  }
  for (size_t k = 0; k < m->size(); ++k) {
    ObjectReader mr((*m)[k], r.childPath(D::kMigProfiles.name) + "/" + std::to_string(k), issues);
    if (!mr.ok()) continue;
    MigProfile p;
    p.name = stringOr(mr, D::kMigName);
    p.memory_gb = numberOr(mr, D::kMigMemory);
    p.compute_slices = integerOr(mr, D::kMigSlices, 0);
    p.max_count = integerOr(mr, D::kMigMaxCount, 0);
    if (g.memory_gb > 0 && p.memory_gb > g.memory_gb + 1e-9)
      mr.error(D::kMigMemory.name, ErrorCode::kInvalidValue, Message("error.mig_profile_memory").num("memory_gb", g.memory_gb));
    g.mig_profiles.push_back(p);
  }
}

// One GPU record, every member read through data_fields' GPU table; `index` holds the ids and aliases before it.
GpuSpec readGpu(ObjectReader& r, const std::map<std::string, size_t>& index, Issues& issues) {
  GpuSpec g;
  g.id = stringOr(r, D::kGpuId);
  if (!g.id.empty() && index.count(toLower(g.id)))
    r.error(D::kGpuId.name, ErrorCode::kDuplicateId, Message("error.duplicate_gpu_id").text("id", excerpt(g.id)));
  g.name = readString(r, D::kGpuName).value_or(g.id);
  g.vendor = stringOr(r, D::kVendor);
  g.architecture = stringOr(r, D::kArchitecture);
  g.form_factor = stringOr(r, D::kFormFactor);
  g.release_year = integerOr(r, D::kReleaseYear, 0);
  g.memory_gb = numberOr(r, D::kMemoryGb);
  g.memory_type = stringOr(r, D::kMemoryType);
  g.memory_bandwidth_gbs = numberOr(r, D::kBandwidth);
  g.nvlink_gbs = numberOr(r, D::kNvlink);
  g.pcie_gen = integerOr(r, D::kPcieGen, 0);
  g.tdp_w = numberOr(r, D::kTdp);
  readPeaks(r, g, issues);
  g.aliases = readStrings(r, D::kAliases);
  readMigProfiles(r, g, issues);
  g.sources = readStrings(r, D::kSources);
  if (g.sources.empty()) r.warn(D::kSources.name, Message("warning.gpu_no_source"));
  return g;
}

}  // namespace

Issues GpuDatabase::load(const std::string& text) {
  Issues issues;
  json doc;
  if (!parseJsonText(text, doc, issues, "gpus")) return issues;
  ObjectReader root(doc, "", issues);
  if (!root.ok()) return issues;
  const json* list = root.get(D::kGpus.name);
  if (!list || !list->is_array()) {
    root.error(D::kGpus.name, list ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, Message("error.gpus_array"));
    return issues;
  }
  std::vector<GpuSpec> gpus;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < list->size(); ++i) {
    ObjectReader r((*list)[i], "/" + std::string(D::kGpus.name) + "/" + std::to_string(i), issues);
    if (!r.ok()) continue;
    GpuSpec g = readGpu(r, index, issues);
    if (!g.id.empty()) index[toLower(g.id)] = gpus.size();
    for (size_t k = 0; k < g.aliases.size(); ++k) {
      std::string key = toLower(g.aliases[k]);
      auto it = index.find(key);
      if (it != index.end() && it->second != gpus.size())
        issues.push_back({ErrorCode::kDuplicateId, r.childPath(D::kAliases.name) + "/" + std::to_string(k),
                          Message("error.alias_taken").text("id", excerpt(g.aliases[k]))});
      else
        index[key] = gpus.size();
    }
    gpus.push_back(std::move(g));
  }
  if (hasErrors(issues)) return issues;
  gpus_ = std::move(gpus);
  index_ = std::move(index);
  return issues;
}

const GpuSpec* GpuDatabase::find(const std::string& id_or_alias) const {
  auto it = index_.find(toLower(id_or_alias));
  return it == index_.end() ? nullptr : &gpus_[it->second];
}

}  // namespace gpuvalue
