// Fuzzes GPU database loading (Engine::loadGpus) with arbitrary bytes. Checks: well-formed answers; a rejected
// database leaves the loaded one in place; with an accepted one the catalog, estimates, rankings and the decision
// tools still answer without NaN (offers whose GPU vanished are skipped, not dereferenced).
#include "fuzz_support.hpp"

using namespace gpuvalue_fuzz;

namespace {
gpuvalue::Engine* g_engine = nullptr;
std::string g_gpus;
size_t g_gpu_count = 0;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_gpus = readSource("data/gpus.json");
  g_engine = newEngine(catalogsText({"article-examples.json", "lambda.json", "gcp.json"}));
  g_gpu_count = g_engine->gpuDatabase().all().size();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gpuvalue::Engine& e = *g_engine;
  const gpuvalue::json v = checkAnswer("validate", e.validate(text));
  const gpuvalue::json r = checkAnswer("loadGpus", e.loadGpus(text));
  if (v.value("kind", "") == "gpus" && isOk(v) != isOk(r)) fail("validate and loadGpus disagree", text);
  if (!isOk(r)) {
    if (e.gpuDatabase().all().size() != g_gpu_count) fail("a rejected GPU database replaced the loaded one", text);
  } else {
    checkAnswer("gpus", e.gpus());
    checkAnswer("catalogSummary", e.catalogSummary());
    checkAnswer("rank", e.rank(R"({"preset": "llama2-7b-pretrain", "limit": 10})"));
    checkAnswer("rank", e.rank(R"({"preset": "resnet50-imagenet", "pricing": "spot"})"));
    size_t n = 0;
    for (const auto& g : e.gpuDatabase().all()) {
      if (n++ == 4) break;
      for (const char* preset : {"llama2-7b-pretrain", "resnet50-imagenet"}) {
        gpuvalue::json req = {{"preset", preset}, {"gpu", g.id}, {"count", 8}};
        checkAnswer("estimate", e.estimate(req.dump()));
      }
      checkAnswer("mig", e.mig(gpuvalue::json({{"gpu", g.id}, {"jobs", "7x8gb,2x20gb@4h"}}).dump()));
      checkAnswer("tco", e.tco(gpuvalue::json({{"gpu", g.id}, {"count", 8}}).dump()));
      checkAnswer("energy", e.energy(gpuvalue::json({{"gpu", g.id}, {"count", 8}, {"hours", 100}}).dump()));
      checkAnswer("compare", e.compare(gpuvalue::json({{"preset", "resnet50-imagenet"},
                                                       {"configs", {{{"gpu", g.id}, {"count", 8}}, {{"gpu", g.id}, {"count", 1}}}}}).dump()));
    }
    checkAnswer("advise", e.advise(R"({"params": 7e9, "stage": "tuning"})"));
    checkAnswer("levers", e.levers(R"({"preset": "resnet50-imagenet", "instance": "GN10"})"));
    requireOk("loadGpus", e.loadGpus(g_gpus));
  }
  requireOk("estimate", e.estimate(R"({"preset": "resnet50-imagenet", "gpu": "a100-sxm4-80gb", "count": 8})"));
  return 0;
}
