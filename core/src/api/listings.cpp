// presets, gpus, catalogSummary and offers: what the engine has loaded, for the page's pickers and the CLI's lists.
#include <map>
#include <vector>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
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

namespace {

// An offer as catalogSummary and offers write it: its identity and hardware, and its prices with their dates.
void writeOfferRecord(JsonWriter& j, const Offer& o) {
  j.beginObject().field("id", o.id).field("provider", o.provider).field("instance", o.instance_type)
      .field("gpu", o.gpu_id).field("gpu_count", o.gpu_count).field("region", o.region).field("example", o.example)
      .field("marketplace", o.marketplace).field("interconnect", o.interconnect)
      .key("prices").beginArray();
  for (const auto& p : o.prices)
    j.beginObject().field("model", pricingModelName(p.model)).field("usd_per_hour", p.headlineUsdPerHour())
        .field("term_months", p.terms().term_months).field("as_of", p.as_of).field("read_on", p.read_on).field("source", p.source).endObject();
  j.endArray().field("warnings", o.warnings).endObject();
}

}  // namespace

std::string apiCatalogSummary(EngineState& s, const std::string&, const std::string&) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("offers").beginArray();
  for (const auto& o : s.catalog.offers) writeOfferRecord(j, o);
  j.endArray().endObject();
  return out;
}

// offers: the records of the offers named by id ({"ids": [...]}), in the order asked, as catalogSummary writes them;
// an id the catalog does not hold is an error at its item.
std::string apiOffers(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  const std::vector<std::string> ids = readStrings(r, request_tables::kOfferIds);
  if (r.failed()) return r.errorAnswer();
  const std::vector<Offer>& offers = s.catalog.offers;
  std::map<std::string, size_t> at;  // id -> its offer's position; offers.size() while not found
  for (const auto& id : ids) at.emplace(id, offers.size());
  for (size_t i = 0; i < offers.size(); ++i) {
    auto it = at.find(offers[i].id);
    if (it != at.end()) it->second = i;
  }
  for (size_t i = 0; i < ids.size(); ++i)
    if (at[ids[i]] == offers.size())
      r.errorAt(r.childPath(request_tables::kOfferIds.name) + "/" + std::to_string(i), ErrorCode::kUnknownId,
                Message("error.unknown_instance").text("id", excerpt(ids[i])));
  if (r.failed()) return r.errorAnswer();
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("offers").beginArray();
  for (const auto& id : ids) writeOfferRecord(j, offers[at[id]]);
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
