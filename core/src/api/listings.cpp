// presets, gpus and catalogSummary: what the engine has loaded, for the page's pickers and the CLI's lists.
#include "api/answer.hpp"
#include "api/state.hpp"

namespace gpuvalue {

std::string apiPresets(EngineState& s, const std::string&, const std::string&) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("presets").document(s.presets).endObject();
  return out;
}

namespace {

void writeGpu(JsonWriter& j, const GpuSpec& g) {
  j.beginObject().field("id", g.id).field("name", g.name).field("architecture", g.architecture)
      .field("memory_gb", g.memory_gb).field("memory_type", g.memory_type)
      .field("memory_bandwidth_gbs", g.memory_bandwidth_gbs).key("tflops").beginObject();
  for (int p = 0; p < kPrecisionCount; ++p) {
    j.key(precisionName(static_cast<Precision>(p)));
    if (g.tflops[p] > 0) j.value(g.tflops[p]);
    else j.null();
  }
  j.endObject().field("nvlink_gbs", g.nvlink_gbs).field("tdp_w", g.tdp_w).key("mig_profiles").beginArray();
  for (const auto& m : g.mig_profiles)
    j.beginObject().field("name", m.name).field("memory_gb", m.memory_gb).field("compute_slices", m.compute_slices)
        .field("max_count", m.max_count).endObject();
  j.endArray().field("aliases", g.aliases).endObject();
}

}  // namespace

std::string apiGpus(EngineState& s, const std::string&, const std::string&) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("gpus").beginArray();
  for (const auto& g : s.gpus.all()) writeGpu(j, g);
  j.endArray().endObject();
  return out;
}

std::string apiCatalogSummary(EngineState& s, const std::string&, const std::string&) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("offers").beginArray();
  for (const auto& o : s.catalog.offers) {
    j.beginObject().field("id", o.id).field("provider", o.provider).field("instance", o.instance_type)
        .field("gpu", o.gpu_id).field("gpu_count", o.gpu_count).field("region", o.region).field("example", o.example)
        .field("marketplace", o.marketplace).field("interconnect", o.interconnect)
        .key("prices").beginArray();
    for (const auto& p : o.prices)
      j.beginObject().field("model", pricingModelName(p.model)).field("usd_per_hour", p.headlineUsdPerHour())
          .field("term_months", p.term_months).field("as_of", p.as_of).field("read_on", p.read_on).field("source", p.source).endObject();
    j.endArray().field("warnings", o.warnings).endObject();
  }
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
