// Fuzzes the SkyPilot vms.csv import (Engine::importSkypilot) with arbitrary bytes. Checks: well-formed answers
// (invalid UTF-8 in cells must not leak into the JSON), every issue has a code, path and message, and an import that
// succeeds yields a catalog the engine itself accepts.
#include <cmath>
#include <cstdlib>

#include "fuzz_support.hpp"
#include "import/skypilot.hpp"

using namespace gpuvalue_fuzz;

namespace {

gpuvalue::Engine* g_engine = nullptr;
bool g_strict = false;

// Known importer bugs in core/src/import/skypilot.cpp (reproducers: tests/corpus/skypilot-bad-numbers.csv,
// skypilot-huge-vcpus.csv and skypilot-duplicate-offer-ids.csv; docs/reliability.md). The importer keeps cells beyond
// the catalog's limits (AcceleratorCount 1e300 is even cast to int, undefined behaviour; a 1e308 price turns into
// Infinity) and gives two offers one id when only the GPU count differs. Until they are fixed, inputs that hit them
// are passed over so that a run explores past them; GPUVALUE_FUZZ_STRICT=1 reports them as crashes.
bool beyondCatalogLimits(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> lines;
  gpuvalue::Issues issues;
  if (!gpuvalue::parseCsv(csv, rows, lines, issues) || rows.empty()) return false;
  struct Limit {
    const char* column;
    double max;
  };
  const Limit limits[] = {{"AcceleratorCount", 1024}, {"Price", 1e6}, {"SpotPrice", 1e6}, {"vCPUs", 1e5}, {"MemoryGiB", 9e5}};
  for (const auto& l : limits) {
    for (size_t c = 0; c < rows[0].size(); ++c) {
      if (rows[0][c] != l.column) continue;
      for (size_t i = 1; i < rows.size(); ++i) {
        if (c >= rows[i].size() || rows[i][c].empty()) continue;
        char* end = nullptr;
        const double v = std::strtod(rows[i][c].c_str(), &end);
        if (end && *end == '\0' && std::isfinite(v) && v > l.max) return true;
      }
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* strict = std::getenv("GPUVALUE_FUZZ_STRICT");
  g_strict = strict && std::string(strict) == "1";
  g_engine = newEngine(catalogsText({"article-examples.json"}));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string csv(reinterpret_cast<const char*>(data), size);
  if (!g_strict && beyondCatalogLimits(csv)) return 0;
  gpuvalue::Engine& e = *g_engine;
  const size_t offers = e.catalog().offers.size();
  const gpuvalue::json r = checkAnswer("importSkypilot", e.importSkypilot(csv, R"({"provider": "AWS", "as_of": "2026-11-01"})"));
  if (!r.contains("issues") || !r["issues"].is_array()) fail("the import answer has no issues array", csv);
  for (const auto& i : r["issues"])
    if (!i.is_object() || !i.contains("path") || !i.contains("message") || !i.contains("code")) fail("an issue lacks path/message/code", csv);
  if (isOk(r)) {
    if (!r.contains("catalog") || !r["catalog"].is_object()) fail("a successful import has no catalog", csv);
    const gpuvalue::json v = checkAnswer("validate", e.validate(r["catalog"].dump()));
    const bool known = !g_strict && !isOk(v) && v["error"].value("code", "") == "duplicate_id";
    if (!r["catalog"]["instances"].empty() && !isOk(v) && !known)
      fail("the engine rejects the catalog its own importer wrote", v.value("error", gpuvalue::json()).dump() + "\n" + csv);
  } else if (!r.contains("error")) {
    fail("a failed import has no error", csv);
  }
  if (e.catalog().offers.size() != offers) fail("the import changed the loaded catalog", csv);
  return 0;
}
