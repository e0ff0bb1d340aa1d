// serverless: a day's load curve bought as on-demand (all day or hour by hour), reserved, spot or serverless
// capacity, the idle share each leaves, and the seed article's "65 % less idle waste" (§5) checked on it.
// {"offer", "instance"?, "load_gpus"?: [24], "starts_per_hour"?: [24], "cold_start_s"?, "idle_timeout_s"?,
// "max_concurrency"?}
#include <cmath>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
#include "tools/serverless.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// Assumption (not sourced): an illustrative business-hours inference day, GPUs busy on average in each hour from
// midnight; quiet at night, two peaks of 3 GPUs (RunPod's default worker cap) around noon and mid-afternoon.
const double kExampleLoadGpus[kHoursPerDay] = {0, 0, 0, 0, 0, 0, 0.5, 1, 1.5, 2, 3, 3, 2, 3, 3, 2, 1.5, 1, 0.5, 0.5, 0, 0, 0, 0};

// An hour-by-hour member (the field's 24 numbers, each within its bounds); false (with an issue, the first bad hour's)
// when present and malformed.
bool readDay(ObjectReader& r, const Field& f, std::vector<double>& out, Issues& issues) {
  const json* v = r.get(f.name);
  if (!v) return true;
  if (!v->is_array() || v->size() != f.length) {
    r.error(f.name, ErrorCode::kInvalidValue, Message("error.day_array"));
    return false;
  }
  return readNumberItems(*v, r.childPath(f.name), f, out, issues, false);
}

// The cheapest on-demand offer per GPU-hour of this GPU, fresh prices first (a stale one only when nothing else).
const Offer* comparisonOffer(const EngineState& s, const Offer& serverless) {
  const long today = dayNumber(s.today);
  const Offer* best = nullptr;
  double best_rate = 0;
  bool best_stale = true;
  for (const Offer& o : s.catalog.offers) {
    if (&o == &serverless || o.example || o.gpu_id != serverless.gpu_id || o.gpu_count <= 0) continue;
    const Price* p = o.price(PricingModel::kOnDemand);
    if (!p || !(p->usd_per_hour > 0)) continue;
    const double rate = p->usd_per_hour / o.gpu_count;
    const bool stale = isStale(*p, today);
    if (!best || (best_stale && !stale) || (stale == best_stale && rate < best_rate)) {
      best = &o;
      best_rate = rate;
      best_stale = stale;
    }
  }
  return best;
}

void writeOption(JsonWriter& j, const DayOptionResult& o) {
  j.beginObject().field("option", dayOptionName(o.option)).field("available", o.available)
      .field("usd_per_gpu_hour", o.usd_per_gpu_hour).field("billed_gpu_hours", o.billed_gpu_hours)
      .field("busy_gpu_hours", o.busy_gpu_hours).field("idle_gpu_hours", o.idle_gpu_hours).field("idle_share", o.idle_share)
      .field("idle_avoided_share", o.idle_avoided_share).field("cost_usd", o.available ? o.cost_usd : 0);
  if (o.option == DayOption::kServerless) j.field("starts", o.starts);
  j.endObject();
}

// Prices of the comparison instance per GPU-hour, and the spot overhead of one hour of work on it.
void instanceRates(const Offer& inst, DayLoadInputs& in, Assumptions& as, Messages& warnings, const std::string& today) {
  in.gpus_per_instance = inst.gpu_count;
  auto rate = [&](PricingModel m) {
    const Price* p = inst.price(m);
    if (!p || p->model == PricingModel::kTiered || p->model == PricingModel::kMonthly) return 0.0;
    Message stale = staleWarning(*p, today);
    if (!stale.empty()) warnings.push_back(std::move(stale));
    as.add(std::string(pricingModelName(m)) + "_usd_per_gpu_hour", p->usd_per_hour / inst.gpu_count,
           Message("serverless.src_rate").text("instance", inst.id).text("pricing", pricingModelName(m))
               .num("usd_per_hour", p->usd_per_hour).num("gpu_count", inst.gpu_count).text("date", p->as_of.str())
               .text("source", p->source.str()));
    return p->usd_per_hour / inst.gpu_count;
  };
  in.on_demand_usd_per_gpu_hour = rate(PricingModel::kOnDemand);
  in.reserved_usd_per_gpu_hour = rate(PricingModel::kReserved);
  in.spot_usd_per_gpu_hour = rate(PricingModel::kSpot);
  if (const Price* sp = inst.price(PricingModel::kSpot)) {
    const CostResult c = priceJob(inst, *sp, 1.0, 1, SpotOptions{});
    in.spot_overhead = c.feasible && c.wall_hours > 0 ? c.wall_hours : 1;
    as.add("spot_overhead", in.spot_overhead, Message("serverless.src_spot_overhead"));
  }
}

}  // namespace

std::string apiServerless(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  const std::string offer_id = readString(r, T::kServerlessOffer).value_or("");
  const std::string instance_id = stringOr(r, T::kInstance);
  DayLoadInputs in;
  readDay(r, T::kLoadGpus, in.gpus_busy, r.issues());
  readDay(r, T::kStartsPerHour, in.starts_per_hour, r.issues());
  const auto cold_start = readNumber(r, T::kColdStart);
  const auto idle_timeout = readNumber(r, T::kIdleTimeout);
  const auto max_concurrency = readNumber(r, T::kMaxConcurrency);
  if (r.failed()) return r.errorAnswer();
  int matches = 0;
  const Offer* sl = findOffer(s.catalog, offer_id, matches);
  const Price* slp = sl ? sl->price(PricingModel::kServerless) : nullptr;
  if (!sl) r.error("offer", ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(offer_id)));
  else if (!slp) r.error("offer", ErrorCode::kNotFound, Message("error.no_price").text("instance", sl->id).text("pricing", "serverless"));
  const Offer* inst = nullptr;
  if (slp && !instance_id.empty()) {
    inst = findOffer(s.catalog, instance_id, matches);
    if (!inst) r.error("instance", ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(instance_id)));
    else if (!inst->price(PricingModel::kOnDemand))
      r.error("instance", ErrorCode::kNotFound, Message("error.no_price").text("instance", inst->id).text("pricing", "on_demand"));
  } else if (slp) {
    inst = comparisonOffer(s, *sl);
  }
  if (r.failed()) return r.errorAnswer();
  Assumptions as;
  Messages warnings;
  if (in.gpus_busy.empty()) {
    in.gpus_busy.assign(kExampleLoadGpus, kExampleLoadGpus + kHoursPerDay);
    as.add("load_gpus", Message("serverless.example_load").text("load", "0,0,0,0,0,0,0.5,1,1.5,2,3,3,2,3,3,2,1.5,1,0.5,0.5,0,0,0,0"),
           Message("serverless.src_example_load"));
  }
  if (in.starts_per_hour.empty())
    as.add("starts_per_hour", Message("serverless.assume_starts"), Message("serverless.src_starts"));
  const double sl_gpus = std::max(1, sl->gpu_count);
  in.serverless_usd_per_gpu_hour = slp->usd_per_hour / sl_gpus;
  as.add("serverless_usd_per_gpu_hour", in.serverless_usd_per_gpu_hour,
         Message("serverless.src_price").text("instance", sl->id).num("usd_per_hour", slp->usd_per_hour)
             .text("date", slp->as_of.str()).text("source", slp->source.str()));
  in.cold_start_s = slp->terms().cold_start_s >= 0 ? slp->terms().cold_start_s : cold_start.value_or(0);
  as.add("cold_start_s", in.cold_start_s,
         Message(slp->terms().cold_start_s >= 0 ? "serverless.src_published" : cold_start ? "plan.src_given" : "serverless.src_cold_start_none"));
  in.idle_timeout_s = idle_timeout.value_or(slp->terms().idle_timeout_s);
  as.add("idle_timeout_s", in.idle_timeout_s, Message(idle_timeout ? "plan.src_given" : "serverless.src_idle_published"));
  in.min_request_s = slp->terms().min_request_s;
  in.max_concurrency = static_cast<int>(max_concurrency.value_or(slp->terms().max_concurrency));
  if (in.max_concurrency > 0)
    as.add("max_concurrency", in.max_concurrency, Message(max_concurrency ? "plan.src_given" : "serverless.src_cap_published"));
  Message stale = staleWarning(*slp, s.today);
  if (!stale.empty()) warnings.push_back(std::move(stale));
  if (inst) instanceRates(*inst, in, as, warnings, s.today);
  else warnings.push_back(Message("serverless.no_instance").text("gpu", sl->gpu_id.str()));
  const DayLoadResult d = compareDayLoad(in);
  const DayOptionResult& all_day = d.options.front();
  const DayOptionResult& sls = d.options.back();
  if (!sls.available && in.max_concurrency > 0)
    warnings.push_back(Message("serverless.over_cap").num("worker_count", in.max_concurrency));
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("peak_gpus", d.peak_gpus).field("busy_gpu_hours", d.busy_gpu_hours);
  j.key("load_gpus").beginArray();
  for (double g : in.gpus_busy) j.value(g);
  j.endArray().key("serverless");
  writeRental(j, sl, slp, s.today);
  j.key("instance");
  writeRental(j, inst, inst ? inst->price(PricingModel::kOnDemand) : nullptr, s.today);
  j.key("options").beginArray();
  for (const auto& o : d.options) writeOption(j, o);
  j.endArray().field("cheapest", d.cheapest >= 0 ? dayOptionName(d.options[static_cast<size_t>(d.cheapest)].option) : "");
  const bool comparable = all_day.available && all_day.idle_gpu_hours > 0 && sls.available;
  j.key("article_claim").beginObject().field("claim", Message("serverless.article_claim"))
      .field("source", Message("source.article_serverless")).field("claimed_idle_reduction", kArticleServerlessIdleReduction)
      .field("compared_with", dayOptionName(DayOption::kOnDemandAllDay)).field("comparable", comparable)
      .field("idle_reduction", comparable ? sls.idle_avoided_share : 0)
      .field("holds", comparable && sls.idle_avoided_share >= kArticleServerlessIdleReduction).endObject();
  j.key("assumptions");
  as.write(j);
  j.field("warnings", warnings).endObject();
  return out;
}

}  // namespace gpuvalue
