// Fuzzes the inputs whose size once made the engine hang or exhaust memory: SkyPilot rows whose instance types
// slug to one id (the id de-duplication), and requests and catalog offers around the size limits (io/limits.hpp).
// The input's first byte picks the case, the rest shapes it. Checks: well-formed answers, unique and short ids,
// too_large exactly beyond the limits, and the loaded catalog unchanged by a refused input. libFuzzer's -timeout
// (10 s per input in scripts/fuzz.mjs) catches any superlinear path.
#include <algorithm>
#include <cstring>
#include <set>

#include "fuzz_support.hpp"
#include "io/limits.hpp"

using namespace gpuvalue_fuzz;

namespace {

gpuvalue::Engine* g_engine = nullptr;

const char* kHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";

// Up to 3,000 rows whose instance types are "p3" plus punctuation taken from the input: most slug alike.
void collidingIds(const std::string& in) {
  std::string csv = kHeader;
  const size_t rows = in.empty() ? 1 : 1 + (static_cast<unsigned char>(in[0]) * 12) % 3000;
  for (size_t i = 0; i < rows; ++i) {
    std::string type = "p3";
    for (size_t k = i, j = 1; k > 0 && j < in.size() + 1; k /= 7, ++j) {
      const char c = in.empty() ? '!' : in[(i + j) % in.size()];
      type += (c == ',' || c == '"' || c == '\n' || c == '\r') ? '!' : c;
    }
    csv += type + ",V100,1.0,8.0,61.0,,3.06,,us-east-1,a\n";
  }
  const gpuvalue::json r = checkAnswer("importSkypilot", g_engine->importSkypilot(csv, R"({"provider": "AWS", "as_of": "2026-11-01"})"));
  if (!isOk(r)) return;
  std::set<std::string> ids;
  for (const auto& o : r["catalog"]["instances"]) {
    const std::string id = o["id"].get<std::string>();
    if (!ids.insert(id).second) fail("two imported offers share an id", id);
    if (id.size() > 200 + o["instance_type"].get<std::string>().size()) fail("an imported id grew with the number of collisions", id);
  }
}

// A request of about the limit: too_large exactly when the text is longer.
void requestSize(const std::string& in) {
  const long delta = in.size() > 1 ? static_cast<signed char>(in[1]) : 0;
  const std::string head = "{\"preset\": \"resnet50-imagenet\", \"junk\": \"";
  const std::string tail = "\"}";
  const long body = static_cast<long>(gpuvalue::kMaxRequestBytes) - static_cast<long>(head.size() + tail.size()) + delta;
  const std::string text = head + std::string(static_cast<size_t>(std::max(0L, body)), 'x') + tail;
  const gpuvalue::json r = checkAnswer("estimate", g_engine->estimate(text));
  const bool too_large = !isOk(r) && r["error"]["code"] == "too_large";
  if (too_large != (text.size() > gpuvalue::kMaxRequestBytes)) fail("too_large does not match the request size limit", std::to_string(text.size()));
}

// One offer carrying an unknown array of input-chosen length, whole and streamed: refused beyond the limit,
// and the loaded catalog stays as it was.
void offerSize(const std::string& in) {
  const size_t n = in.size() > 2 ? (static_cast<unsigned char>(in[1]) << 8 | static_cast<unsigned char>(in[2])) * 16 : 0;
  std::string junk = "[";
  for (size_t i = 0; i < n; ++i) junk += "0,";
  junk += "0]";
  const std::string doc = "{\"instances\": [{\"id\": \"fz\", \"provider\": \"P\", \"instance_type\": \"x\", \"gpu\": \"h100-sxm5-80gb\", "
                          "\"gpu_count\": 1, \"region\": \"r\", \"junk\": " + junk + ", \"prices\": [{\"model\": \"on_demand\", "
                          "\"usd_per_hour\": 2, \"as_of\": \"2026-11-01\", \"source\": \"s\"}]}]}";
  const size_t before = g_engine->catalog().offers.size();
  const gpuvalue::json r = checkAnswer("validate", g_engine->validate(doc));
  const bool too_large = !isOk(r) && r["error"]["code"] == "too_large";
  if (too_large && doc.size() < gpuvalue::kMaxOfferBytes) fail("a small offer was called too large", std::to_string(doc.size()));
  g_engine->catalogBegin("add", static_cast<double>(doc.size()));
  for (size_t i = 0; i < doc.size(); i += 1 << 16) {
    const size_t k = std::min<size_t>(1 << 16, doc.size() - i);
    std::memcpy(g_engine->catalogBuffer(k), doc.data() + i, k);
    if (!g_engine->catalogFeed(k)) break;
  }
  const gpuvalue::json s = checkAnswer("catalogEnd", g_engine->catalogEnd());
  if (doc.size() > gpuvalue::kMaxOfferBytes + 200 && (isOk(s) || s["error"]["code"] != "too_large"))
    fail("a streamed offer beyond the limit was not too_large", std::to_string(doc.size()));
  if (!isOk(s) && g_engine->catalog().offers.size() != before) fail("a refused catalog changed the loaded one", std::to_string(doc.size()));
  if (isOk(s)) g_engine->loadCatalog(catalogsText({"article-examples.json"}));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_engine = newEngine(catalogsText({"article-examples.json"}));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string in(reinterpret_cast<const char*>(data), size);
  switch (size ? data[0] % 3 : 0) {
    case 0: collidingIds(in.substr(std::min<size_t>(1, size))); break;
    case 1: requestSize(in); break;
    default: offerSize(in); break;
  }
  return 0;
}
