// Fuzzes the SkyPilot vms.csv import (Engine::importSkypilot) with arbitrary bytes. Checks: well-formed answers
// (invalid UTF-8 in cells must not leak into the JSON), every issue has a path, and an import that succeeds yields a
// catalog the engine itself accepts.
#include "fuzz_support.hpp"

using namespace gpuvalue_fuzz;

namespace {
gpuvalue::Engine* g_engine = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_engine = newEngine(catalogsText({"article-examples.json"}));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string csv(reinterpret_cast<const char*>(data), size);
  gpuvalue::Engine& e = *g_engine;
  const size_t offers = e.catalog().offers.size();
  const gpuvalue::json r = checkAnswer("importSkypilot", e.importSkypilot(csv, R"({"provider": "AWS", "as_of": "2026-11-01"})"));
  if (!r.contains("issues") || !r["issues"].is_array()) fail("the import answer has no issues array", csv);
  for (const auto& i : r["issues"])
    if (!i.is_object() || !i.contains("path") || !i.contains("message") || !i.contains("code")) fail("an issue lacks path/message/code", csv);
  if (isOk(r)) {
    if (!r.contains("catalog") || !r["catalog"].is_object()) fail("a successful import has no catalog", csv);
    const gpuvalue::json v = checkAnswer("validate", e.validate(r["catalog"].dump()));
    if (!r["catalog"]["instances"].empty() && !isOk(v))
      fail("the engine rejects the catalog its own importer wrote", csv + "\n" + v.dump().substr(0, 2000));
  } else if (!r.contains("error")) {
    fail("a failed import has no error", csv);
  }
  if (e.catalog().offers.size() != offers) fail("the import changed the loaded catalog", csv);
  return 0;
}
