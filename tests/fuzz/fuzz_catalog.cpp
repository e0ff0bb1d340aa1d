// Fuzzes catalog loading (Engine::loadCatalog, and Engine::validate as its dry run) with arbitrary bytes.
// Checks: every answer is well-formed; validate and loadCatalog agree; a rejected catalog leaves the loaded one in
// place; an accepted one can be ranked and priced without NaN; the engine keeps answering afterwards.
#include "fuzz_support.hpp"

using namespace gpuvalue_fuzz;

namespace {
gpuvalue::Engine* g_engine = nullptr;
std::string g_baseline;
size_t g_baseline_offers = 0;
const char* kRank = R"({"preset": "resnet50-imagenet", "limit": 5})";
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_baseline = catalogsText({"article-examples.json", "lambda.json"});
  g_engine = newEngine(g_baseline);
  g_baseline_offers = g_engine->catalog().offers.size();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gpuvalue::Engine& e = *g_engine;
  const gpuvalue::json v = checkAnswer("validate", e.validate(text));
  if (e.catalog().offers.size() != g_baseline_offers) fail("validate changed the loaded catalog", text);
  const gpuvalue::json r = checkAnswer("loadCatalog", e.loadCatalog(text));
  // validate answers for the GPU database or presets when the document has those keys; otherwise it is the
  // catalog load without the load.
  if (!v.contains("kind") && isOk(v) != isOk(r)) fail("validate and loadCatalog disagree", v.dump().substr(0, 1000) + "\n" + r.dump().substr(0, 1000) + "\n" + text);
  if (!isOk(r)) {
    if (e.catalog().offers.size() != g_baseline_offers) fail("a rejected catalog replaced the loaded one", text);
  } else {
    checkAnswer("rank", e.rank(R"({"preset": "llama2-7b-pretrain", "pricing": "all", "limit": 20})"));
    checkAnswer("rank", e.rank(R"({"preset": "resnet50-imagenet", "spot": {"deadline_hours": 500}})"));
    size_t n = 0;
    for (const auto& o : e.catalog().offers) {
      if (n++ == 8) break;
      for (const auto& p : o.prices) {
        gpuvalue::json req = {{"instance", o.id}, {"hours", 100}, {"pricing", gpuvalue::pricingModelName(p.model)}};
        checkAnswer("cost", e.cost(req.dump()));
      }
    }
    checkAnswer("catalogSummary", e.catalogSummary());
    requireOk("loadCatalog", e.loadCatalog(g_baseline));
  }
  requireOk("rank", e.rank(kRank));
  return 0;
}
