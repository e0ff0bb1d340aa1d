#include "model/gpu_specs.hpp"

#include <algorithm>
#include <cctype>

#include "io/json_reader.hpp"

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

Issues GpuDatabase::load(const std::string& text) {
  Issues issues;
  json doc;
  if (!parseJsonText(text, doc, issues, "gpus")) return issues;
  ObjectReader root(doc, "", issues);
  if (!root.ok()) return issues;
  const json* list = root.get("gpus");
  if (!list || !list->is_array()) {
    root.error("gpus", list ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, Message("error.gpus_array"));
    return issues;
  }
  std::vector<GpuSpec> gpus;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string path = "/gpus/" + std::to_string(i);
    ObjectReader r((*list)[i], path, issues);
    if (!r.ok()) continue;
    GpuSpec g;
    g.id = r.string("id", true).value_or("");
    if (!g.id.empty() && index.count(toLower(g.id))) r.error("id", ErrorCode::kDuplicateId, Message("error.duplicate_gpu_id").text("id", excerpt(g.id)));
    g.name = r.string("name", true).value_or(g.id);
    g.vendor = r.string("vendor", false).value_or("");
    g.architecture = r.string("architecture", true).value_or("");
    g.form_factor = r.string("form_factor", false).value_or("");
    g.release_year = static_cast<int>(r.integer("release_year", false, 2000, 2100).value_or(0));
    g.memory_gb = r.number("memory_gb", true, 0, true, 4096).value_or(0);
    g.memory_type = r.string("memory_type", false).value_or("");
    g.memory_bandwidth_gbs = r.number("memory_bandwidth_gbs", true, 0, true, 1e6).value_or(0);
    g.nvlink_gbs = r.number("nvlink_gbs", false, 0, false, 1e6).value_or(0);
    g.pcie_gen = static_cast<int>(r.integer("pcie_gen", false, 1, 7).value_or(0));
    g.tdp_w = r.number("tdp_w", false, 0, true, 1e5).value_or(0);
    if (const json* t = r.get("tflops")) {
      ObjectReader tr(*t, r.childPath("tflops"), issues);
      if (tr.ok()) {
        for (int p = 0; p < kPrecisionCount; ++p) g.tflops[p] = tr.number(kPrecisionNames[p], false, 0, true, 1e6).value_or(0);
        if (g.tflops[static_cast<int>(Precision::kFp16)] <= 0 && g.tflops[static_cast<int>(Precision::kFp32)] <= 0)
          tr.error("fp16", ErrorCode::kMissingField, Message("error.gpu_needs_peak"));
      }
    } else {
      r.error("tflops", ErrorCode::kMissingField, Message("error.required"));
    }
    if (const json* a = r.get("aliases")) {
      if (!a->is_array()) r.error("aliases", ErrorCode::kInvalidValue, Message("error.not_string_array"));
      else
        for (size_t k = 0; k < a->size(); ++k) {
          if (!(*a)[k].is_string()) {
            issues.push_back({ErrorCode::kInvalidValue, r.childPath("aliases") + "/" + std::to_string(k), Message("error.not_string")});
            continue;
          }
          g.aliases.push_back((*a)[k].get<std::string>());
        }
    }
    if (const json* m = r.get("mig_profiles")) {
      if (!m->is_array()) r.error("mig_profiles", ErrorCode::kInvalidValue, Message("error.not_array"));
      else
        for (size_t k = 0; k < m->size(); ++k) {
          ObjectReader mr((*m)[k], r.childPath("mig_profiles") + "/" + std::to_string(k), issues);
          if (!mr.ok()) continue;
          MigProfile p;
          p.name = mr.string("name", true).value_or("");
          p.memory_gb = mr.number("memory_gb", true, 0, true, 4096).value_or(0);
          p.compute_slices = static_cast<int>(mr.integer("compute_slices", true, 1, 8).value_or(0));
          p.max_count = static_cast<int>(mr.integer("max_count", true, 1, 8).value_or(0));
          if (g.memory_gb > 0 && p.memory_gb > g.memory_gb + 1e-9)
            mr.error("memory_gb", ErrorCode::kInvalidValue, Message("error.mig_profile_memory").num("memory_gb", g.memory_gb));
          g.mig_profiles.push_back(p);
        }
    }
    if (const json* s = r.get("sources")) {
      if (s->is_array())
        for (const auto& e : *s)
          if (e.is_string()) g.sources.push_back(e.get<std::string>());
    }
    if (g.sources.empty()) r.warn("sources", Message("warning.gpu_no_source"));
    if (!g.id.empty()) index[toLower(g.id)] = gpus.size();
    for (size_t k = 0; k < g.aliases.size(); ++k) {
      std::string key = toLower(g.aliases[k]);
      auto it = index.find(key);
      if (it != index.end() && it->second != gpus.size())
        issues.push_back({ErrorCode::kDuplicateId, r.childPath("aliases") + "/" + std::to_string(k),
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
