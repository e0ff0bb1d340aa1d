// serveOffers: serve's question asked of many catalog offers at once, for the serving ranking (web/src/engine/
// serving.js). {"preset"|"model", "pricing"?, "weights"?, "kv"?, "software"?, "traffic"?, "targets"?, "constants"?,
//  "offers": [{"offer": id, "count"?}, ...]}
// Each item of the answer holds the members of serve's answer for that offer and replica size that rank it (the same
// numbers: the same plan and price), in the request's order; the replica's plan is computed once for each GPU, replica
// size and link, since it does not depend on the offer's price. A request error (an unknown offer, a count above the
// offer's GPUs, an offer without a price under the billing model) refuses the whole request, with its path.
#include <map>
#include <tuple>
#include <unordered_map>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/serve_request.hpp"
#include "model/serving_fields.hpp"

namespace gpuvalue {

namespace F = serving_fields;

namespace {

struct Item {
  const Offer* offer = nullptr;
  int count = 0;
};

// The items of "offers", each an offer of the loaded catalog (by id) with a count within its GPUs and a price under
// the billing model; every problem reported at its item's path.
std::vector<Item> readItems(const EngineState& s, Request& q, PricingModel pricing) {
  std::vector<Item> items;
  const json* list = q.get(F::kOffers.name);
  const std::string at = q.childPath(F::kOffers.name);
  if (!list || list->is_null()) {
    q.error(F::kOffers.name, ErrorCode::kMissingField, Message("error.required"));
    return items;
  }
  if (!list->is_array()) {
    q.error(F::kOffers.name, ErrorCode::kInvalidValue, Message("error.not_array"));
    return items;
  }
  std::unordered_map<std::string, const Offer*> by_id;
  for (const auto& o : s.catalog.offers) by_id.emplace(o.id, &o);
  items.reserve(list->size());
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string path = at + "/" + std::to_string(i);
    const json& j = (*list)[i];
    checkMembers(j, path, F::kOfferItemRecord, q.issues());
    ObjectReader r(j, path, q.issues());  // reports an item that is not an object
    if (!r.ok()) continue;
    const auto id = readString(r, F::kItemOffer);
    if (!id) continue;
    const auto found = by_id.find(*id);
    if (found == by_id.end() || !found->second->gpu) {
      r.error(F::kItemOffer.name, ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(*id)));
      continue;
    }
    Item item{found->second, integerOr(r, F::kItemCount, found->second->gpu_count)};
    if (item.count > item.offer->gpu_count)
      r.error(F::kItemCount.name, ErrorCode::kInvalidValue, Message("error.count_exceeds_instance").num("gpu_count", item.offer->gpu_count));
    if (!item.offer->price(pricing))
      r.error(F::kItemOffer.name, ErrorCode::kNotFound,
              Message("error.no_price").text("instance", item.offer->id).text("pricing", pricingModelName(pricing)));
    items.push_back(item);
  }
  return items;
}

// The members of serve's answer (api/serve.cpp) that rank one offer: replica, targets, fit, batch, operating point,
// cost, hints.
void writeItem(JsonWriter& j, const ServeRequest& r, const ServingPlan& p) {
  j.beginObject().field("offer", r.offer->id).field("count", r.hardware.tensor_parallel)
      .field("interconnect", r.hardware.nvlink ? "nvlink" : "pcie").field("fabric", r.fabric);
  j.key("targets").beginObject().field("ttft_met", p.ttft_met).field("tpot_met", p.tpot_met)
      .field("met", p.memory.fits && p.ttft_met && p.tpot_met).endObject();
  j.key("memory").beginObject().field("fits", p.memory.fits).endObject();
  if (p.memory.fits) {
    j.key("capacity").beginObject().field("batch", p.batch).endObject();
    j.key("operating").beginObject().field("replicas", p.replicas).field("ttft_ms", p.ttft_s * 1000.0)
        .field("tpot_ms", p.tpot_s * 1000.0).endObject();
    SpotReplacement spot;
    const ServingCost c = priceOnOffer(p, r, spot);
    j.key("cost").beginObject().field("instances", c.instances).field("spare_instances", c.spare_instances)
        .field("interruptions_per_instance_hour", spot.interruptions_per_hour).field("replace_hours", spot.replace_hours)
        .field("monthly_usd", c.monthly_usd).field("usd_per_million_output", c.usd_per_million_output)
        .field("usd_per_million_input", c.usd_per_million_input)
        .field("usd_per_million_blended", c.usd_per_million_blended).endObject();
  } else {
    j.key("capacity").null().key("operating").null().key("cost").null();
  }
  j.field("hints", p.hints);
  j.endObject();
}

}  // namespace

std::string apiServeOffers(EngineState& s, const std::string& text, const std::string&) {
  Request q(text);
  if (!q.ok()) return q.errorAnswer();
  checkMembers(q.doc(), "", F::kOffersRequestRecord, q.issues());
  ServeRequest base;
  readServeQuestion(s, q, base, q.issues());
  const std::vector<Item> items = readItems(s, q, base.pricing);
  if (q.failed()) return q.errorAnswer();
  // The plan of each GPU, replica size and link (the question's config and constants are the same for all).
  std::map<std::tuple<const GpuSpec*, int, bool>, ServingPlan> plans;
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("offers").beginArray();
  for (const Item& item : items) {
    ServeRequest r = base;
    serveOnOffer(*item.offer, item.count, r);
    const auto key = std::make_tuple(r.hardware.gpu, r.hardware.tensor_parallel, r.hardware.nvlink);
    auto it = plans.find(key);
    if (it == plans.end()) it = plans.emplace(key, planServing(r.config, r.hardware, r.constants)).first;
    writeItem(j, r, it->second);
  }
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
