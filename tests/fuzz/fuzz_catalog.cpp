// Fuzzes catalog loading (Engine::loadCatalog, and Engine::validate as its dry run) with arbitrary bytes.
// Checks: every answer is well-formed; validate and loadCatalog agree; a rejected catalog leaves the loaded one in
// place; an accepted one can be ranked and priced without NaN; the engine keeps answering afterwards; the
// direct offer reader reads exactly what the DOM reader reads, and text fed in two pieces reads like text fed whole.
#include "fuzz_support.hpp"

using namespace gpuvalue_fuzz;

namespace {
gpuvalue::Engine* g_engine = nullptr;

// Everything a streamed read produced: offers field by field (numbers by bits) and issues.
std::string readAll(const gpuvalue::GpuDatabase& db, const std::string& text, bool fast, size_t split) {
  std::unordered_set<std::string> taken;
  gpuvalue::CatalogStreamReader reader(db, taken, "2026-12-02", fast);
  gpuvalue::Catalog out;
  gpuvalue::Issues issues;
  split = std::min(split, text.size());
  const bool ok = reader.feed(text.data(), split) && reader.feed(text.data() + split, text.size() - split) && reader.finish(out, issues);
  if (!ok) return "malformed";
  std::string d;
  auto num = [&](double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%a|", v);
    d += b;
  };
  for (const auto& o : out.offers) {
    d += o.id + "|" + o.provider.str() + "|" + o.instance_type.str() + "|" + o.gpu_id.str() + "|" + o.interconnect.str() + "|" +
         o.region.str() + "|" + o.currency.str() + "|" + std::to_string(o.gpu_count) + (o.rdma ? "r" : "-") + (o.example ? "e" : "-") +
         (o.claims ? "c" : "-") + "|";
    for (double v : {o.vcpus, o.ram_gb, o.network_gbps, o.billing_increment_s, o.min_charge_s}) num(v);
    for (const auto& p : o.prices) {
      const gpuvalue::PriceTerms& t = p.terms();
      d += std::string(gpuvalue::pricingModelName(p.model)) + "|" + p.as_of.str() + "|" + p.source.str() + "|" + t.upfront.str() + "|" +
           std::to_string(t.term_months) + "|";
      for (double v : {p.usd_per_hour, t.usd_per_month, t.claimed_discount_pct, t.interruption_per_hour, t.free_hours}) num(v);
    }
    for (const auto& w : o.warnings) d += gpuvalue::debugText(w) + "|";
    d += "\n";
  }
  for (const auto& i : issues) d += i.path + ": " + debugText(i.message) + (i.warning ? " (w)\n" : "\n");
  return d;
}
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
  {
    const size_t split = size ? data[0] * size / 256 : 0;
    const std::string dom = readAll(e.gpuDatabase(), text, false, size);
    if (readAll(e.gpuDatabase(), text, true, size) != dom) fail("the direct reader and the DOM reader disagree", text);
    if (readAll(e.gpuDatabase(), text, true, split) != dom) fail("text in two pieces reads differently", text);
  }
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
