// Fuzzes the other request methods (cost and the decision tools: advise, plan, mig, levers, compare, energy, tco).
// Input: "method\n{request JSON}"; when the first line names no method, the first byte picks one. Checks as in
// fuzz_workload.
#include <cstring>

#include "fuzz_support.hpp"

using namespace gpuvalue_fuzz;

namespace {
gpuvalue::Engine* g_engine = nullptr;
size_t g_offers = 0;
using Method = std::string (gpuvalue::Engine::*)(const std::string&);
struct Named {
  const char* name;
  Method method;
};
const Named kMethods[] = {
    {"cost", &gpuvalue::Engine::cost},       {"advise", &gpuvalue::Engine::advise},   {"plan", &gpuvalue::Engine::plan},
    {"mig", &gpuvalue::Engine::mig},         {"levers", &gpuvalue::Engine::levers},   {"compare", &gpuvalue::Engine::compare},
    {"energy", &gpuvalue::Engine::energy},   {"tco", &gpuvalue::Engine::tco},
};
constexpr size_t kMethodCount = sizeof(kMethods) / sizeof(kMethods[0]);
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_engine = newEngine(catalogsText({"article-examples.json", "aws.json", "lambda.json"}));
  g_offers = g_engine->catalog().offers.size();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const Named* m = &kMethods[data[0] % kMethodCount];
  std::string body = input;
  if (nl != std::string::npos) {
    const std::string first = input.substr(0, nl);
    for (const auto& k : kMethods)
      if (first == k.name) {
        m = &k;
        body = input.substr(nl + 1);
      }
  }
  gpuvalue::Engine& e = *g_engine;
  checkAnswer(m->name, (e.*(m->method))(body));
  if (e.catalog().offers.size() != g_offers) fail("a request changed the catalog", input);
  requireOk("cost", e.cost(R"({"instance": "GN10", "hours": 150, "pricing": "tiered"})"));
  return 0;
}
