// cost: hours on one catalog instance under one billing model. {"instance", "hours", "pricing"?, "nodes"?,
// "spot"?, "free_trial_hours"?, "cold_start_s"?}
#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
#include "io/request_fields.hpp"

namespace gpuvalue {

namespace T = request_tables;

std::string apiCost(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  const std::string id = readString(r, T::kCostInstance).value_or("");
  const double hours = readNumber(r, T::kHours).value_or(0);
  const int nodes = integerOr(r, T::kNodes, 1);
  std::string pricing;
  const PricingModel m = pricingField(r, pricing);
  SpotOptions spot;
  readSpotOptions(r.doc(), spot, r.issues());
  if (r.failed()) return r.errorAnswer();
  // Accept our offer id, or the provider's instance type when it is unambiguous.
  int matches = 0;
  const Offer* found = findOffer(s.catalog, id, matches);
  if (!found) {
    r.error(T::kCostInstance.name, ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(id)));
    return r.errorAnswer();
  }
  const Price* p = found->price(m);
  if (!p) {
    r.error(T::kPricing.name, ErrorCode::kNotFound, Message("error.no_price").text("instance", found->id).text("pricing", pricing));
    return r.errorAnswer();
  }
  Price priced = *p;
  const auto free_trial_hours = readNumber(r, T::kFreeTrialHours);
  // Serverless: a cold start the price does not publish is the caller's assumption (none when not given).
  const auto cold_start = readNumber(r, T::kColdStart);
  if (r.failed()) return r.errorAnswer();
  if (m == PricingModel::kServerless && priced.terms().cold_start_s < 0) priced.editTerms().cold_start_s = cold_start.value_or(0);
  const CostResult c = priceJob(*found, priced, hours, nodes, spot, free_trial_hours.value_or(-1));
  Message note = *c.note ? Message(c.note) : Message();
  if (m == PricingModel::kReserved) note = Message("cost.reserved_term").num("month_count", p->terms().term_months);
  if (m == PricingModel::kMonthly)
    note = Message("cost.months_billed").num("month_count", static_cast<int>(c.billed_hours / kHoursPerMonth + 0.5));
  if (m == PricingModel::kServerless && c.available)
    note = Message(p->terms().cold_start_s >= 0 ? "cost.serverless_cold_start_published"
                                        : (cold_start ? "cost.serverless_cold_start_given" : "cost.serverless_cold_start_none"));
  Messages warnings = found->warnings;
  Message stale = staleWarning(*p, s.today);
  if (!stale.empty()) warnings.push_back(std::move(stale));
  if (matches > 1) warnings.push_back(Message("offer.several_regions").text("instance", id).text("used", found->id));
  const double peak_fp16 = found->gpu ? found->gpu->peak(Precision::kFp16) : 0;
  if (found->gpu && !(peak_fp16 > 0)) warnings.push_back(Message("rank.unit_cost_unknown").text("gpu", found->gpu_id));
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("instance", found->instance_type).field("id", found->id)
      .field("provider", found->provider).field("pricing", pricingModelName(m)).field("hours", hours).field("nodes", nodes)
      .field("billed_hours", finiteOr(c.billed_hours)).field("wall_hours", finiteOr(c.wall_hours))
      .field("cost_usd", finiteOr(c.cost_usd)).field("usd_per_hour", finiteOr(p->headlineUsdPerHour()))
      .key("usd_per_tflops_day").positiveOrNull(usdPerTflopsDay(p->headlineUsdPerHour(), found->gpu_count, peak_fp16))
      .field("as_of", p->as_of).field("read_on", p->read_on).field("source", p->source).field("note", note).field("warnings", warnings);
  if (m == PricingModel::kServerless) {
    j.field("available", c.available);
    j.key("serverless").beginObject().field("usd_per_second", p->usd_per_hour / 3600.0)
        .field("cold_start_s", priced.terms().cold_start_s).field("cold_start_published", p->terms().cold_start_s >= 0)
        .field("min_request_s", p->terms().min_request_s).field("idle_timeout_s", p->terms().idle_timeout_s)
        .field("max_concurrency", p->terms().max_concurrency).endObject();
  }
  j.endObject();
  return out;
}

}  // namespace gpuvalue
