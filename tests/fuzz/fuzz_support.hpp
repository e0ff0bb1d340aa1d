// Shared by the libFuzzer targets: engines loaded with the real data files, and the checks every engine answer
// must pass whatever the input (valid JSON, {"ok": bool}, an error code that is not "internal", no NaN/Infinity,
// the engine's state unchanged after a rejected input). A violated check aborts, which libFuzzer reports as a crash
// and saves the input.
#pragma once
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpuvalue/engine.hpp"
#include "io/json_reader.hpp"
#include "io/json_writer.hpp"
#include "model/catalog.hpp"

namespace gpuvalue_fuzz {

inline std::string readSource(const std::string& rel) {
  std::ifstream in(std::string(GPUVALUE_SOURCE_DIR) + "/" + rel, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz: cannot open %s\n", rel.c_str());
    std::abort();
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The named data/catalog/*.json files (all when `names` is empty) as one JSON array text.
inline std::string catalogsText(std::vector<std::string> names = {}) {
  if (names.empty()) {
    std::string dir = std::string(GPUVALUE_SOURCE_DIR) + "/data/catalog";
    if (DIR* d = opendir(dir.c_str())) {
      while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 5 && n.substr(n.size() - 5) == ".json") names.push_back(n);
      }
      closedir(d);
    }
    std::sort(names.begin(), names.end());
  }
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? "," : "") + readSource("data/catalog/" + names[i]);
  return out + "]";
}

[[noreturn]] inline void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz check failed: %s\n%s\n", what, detail.substr(0, 4000).c_str());
  std::abort();
}

// Checks one engine answer; returns it parsed.
inline gpuvalue::json checkAnswer(const char* method, const std::string& out) {
  if (gpuvalue::nonFiniteNumbersWritten() != 0) fail("the engine wrote a NaN or Infinity", std::string(method) + ": " + out);
  gpuvalue::json j = gpuvalue::json::parse(out, nullptr, false);
  if (j.is_discarded()) fail("the answer is not valid JSON (or not valid UTF-8)", std::string(method) + ": " + out);
  if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean()) fail("the answer has no boolean \"ok\"", out);
  if (!j["ok"].get<bool>() && method != std::string("importSkypilot")) {
    const auto& e = j.value("error", gpuvalue::json());
    if (!e.is_object() || !e.contains("code") || !e["code"].is_string() || !e.contains("path") || !e.contains("message"))
      fail("an error answer has no {code, path, message}", out);
    if (e["code"] == "internal") fail("an exception escaped into an internal error", std::string(method) + ": " + out);
  }
  return j;
}

inline bool isOk(const gpuvalue::json& j) { return j.value("ok", false); }

inline void requireOk(const char* method, const std::string& out) {
  if (!isOk(checkAnswer(method, out))) fail("a known-good call failed", std::string(method) + ": " + out);
}

// Engine with data/gpus.json, the given catalog text and data/presets.json.
inline gpuvalue::Engine* newEngine(const std::string& catalog_text) {
  auto* e = new gpuvalue::Engine();
  e->setToday("2026-12-02");
  requireOk("loadGpus", e->loadGpus(readSource("data/gpus.json")));
  if (!catalog_text.empty()) requireOk("loadCatalog", e->loadCatalog(catalog_text));
  requireOk("loadPresets", e->loadPresets(readSource("data/presets.json")));
  return e;
}

}  // namespace gpuvalue_fuzz
