// Fuzzes the methods of the dispatch table that take a JSON request (rank, estimate, cost and the decision
// tools: advise, plan, mig, levers, compare, energy, tco). Input: "method\n{request JSON}"; when the first line
// names no such method, the first byte picks one. Checks as in fuzz_workload.
#include <cstring>

#include "api/methods.hpp"
#include "fuzz_support.hpp"

using namespace gpuvalue_fuzz;

namespace {
gpuvalue::Engine* g_engine = nullptr;
size_t g_offers = 0;
std::vector<std::string> g_methods;  // the table's request methods
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_engine = newEngine(catalogsText({"article-examples.json", "aws.json", "lambda.json"}));
  g_offers = g_engine->catalog().offers.size();
  for (size_t i = 0; i < gpuvalue::kApiMethodCount; ++i)
    if (gpuvalue::kApiMethods[i].argument == gpuvalue::ArgumentKind::kRequest) g_methods.push_back(gpuvalue::kApiMethods[i].name);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || g_methods.empty()) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string* m = &g_methods[data[0] % g_methods.size()];
  std::string body = input;
  if (nl != std::string::npos) {
    const std::string first = input.substr(0, nl);
    for (const auto& k : g_methods)
      if (first == k) {
        m = &k;
        body = input.substr(nl + 1);
      }
  }
  gpuvalue::Engine& e = *g_engine;
  checkAnswer(m->c_str(), e.call(*m, body));
  if (e.catalog().offers.size() != g_offers) fail("a request changed the catalog", input);
  requireOk("cost", e.cost(R"({"instance": "GN10", "hours": 150, "pricing": "tiered"})"));
  return 0;
}
