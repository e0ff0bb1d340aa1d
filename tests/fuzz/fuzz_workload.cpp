// Fuzzes workload parsing through the two request methods that take one (Engine::estimate and Engine::rank) with
// arbitrary bytes as the request. Checks: well-formed answers, no NaN/Infinity, no escaped exception, the catalog
// unchanged, and the engine still answers a known-good request.
#include "fuzz_support.hpp"

using namespace gpuvalue_fuzz;

namespace {
gpuvalue::Engine* g_engine = nullptr;
size_t g_offers = 0;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_engine = newEngine(catalogsText({"article-examples.json", "aws.json", "lambda.json"}));
  g_offers = g_engine->catalog().offers.size();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string req(reinterpret_cast<const char*>(data), size);
  gpuvalue::Engine& e = *g_engine;
  checkAnswer("estimate", e.estimate(req));
  checkAnswer("rank", e.rank(req));
  if (e.catalog().offers.size() != g_offers) fail("a request changed the catalog", req);
  requireOk("estimate", e.estimate(R"({"preset": "llama2-7b-pretrain", "gpu": "h100-sxm5-80gb", "count": 8})"));
  return 0;
}
