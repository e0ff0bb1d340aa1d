// plan: the cheapest yearly mix of reserved, on-demand and spot capacity for a demand, or the article's §4
// start-up example checked against the model. {"example": "article"} or {"demand": {"monthly_gpu_hours": [12],
// "peak_gpus"?, "interruptible_fraction", "target_completion_rate", "instance"? | "prices"?, "spot"?,
// "reserved_granularity_gpus"?}}
#include <cmath>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// AWS Spot Advisor interruption-frequency bucket ">20 %" per month, where 47 % of GPU pools sit (same source):
// taken at its lower edge, 20 % of instances interrupted per 730-hour month -> λ = −ln(1 − 0.20) / 730 per hour.
const double kSpotAdvisorOver20PctPerHour = -std::log(1.0 - 0.20) / kHoursPerMonth;
// The article's claims (docs/sources.md#article, §4): an AI start-up mixing 30 % spot and 70 % reserved instances cut its
// yearly GPU cost by 58 % at a 98.7 % task completion rate.
constexpr double kArticlePortfolioSaving = 0.58;

// The article's start-up (§4): 30 % spot + 70 % reserved, "58 % lower yearly GPU cost, 98.7 % task completion".
// It gives no demand, no GPU and no prices; this fills those in, each with its source.
bool readExample(const EngineState& s, PlanInputs& in, Assumptions& as, Issues& issues) {
  int matches = 0;
  const Offer* o = findOffer(s.catalog, kArticlePlanInstance, matches);
  const Price* od = o ? o->price(PricingModel::kOnDemand) : nullptr;
  const Price* rv = o ? o->price(PricingModel::kReserved) : nullptr;
  if (!o || !od || !rv) {
    issues.push_back({ErrorCode::kNotFound, "/example", Message("error.plan_example_offer").text("instance", kArticlePlanInstance)});
    return false;
  }
  const double gpus = kArticlePlanGpus;
  in.monthly_gpu_hours.assign(12, gpus * kHoursPerMonth);
  in.peak_gpus.assign(12, gpus);
  in.interruptible_fraction = kArticleSpotShare;
  in.target_completion_rate = kArticleCompletionRate;
  in.on_demand_usd_per_gpu_hour = od->usd_per_hour / o->gpu_count;
  in.reserved_usd_per_gpu_hour = rv->usd_per_hour / o->gpu_count;
  in.spot_usd_per_gpu_hour = in.on_demand_usd_per_gpu_hour * (1.0 - kMedianSpotDiscount);
  in.interruptions_per_hour = kSpotAdvisorOver20PctPerHour;
  in.task_hours = kArticlePlanTaskHours;
  in.deadline_factor = 1.5;
  in.reserved_granularity_gpus = o->gpu_count;
  as.add("demand", Message("plan.assume_demand_article"), Message("plan.src_demand_article"));
  as.add("gpu", Message("plan.assume_gpu_article"), Message("plan.src_gpu_article"));
  as.add("interruptible_fraction", in.interruptible_fraction, Message("plan.src_interruptible_article"));
  as.add("target_completion_rate", in.target_completion_rate, Message("plan.src_completion_article"));
  as.add("on_demand_usd_per_gpu_hour", in.on_demand_usd_per_gpu_hour,
         Message("plan.src_on_demand_offer").text("instance", o->id).num("usd_per_hour", od->usd_per_hour)
             .num("gpu_count", o->gpu_count).text("date", od->as_of).text("source", od->source));
  as.add("reserved_usd_per_gpu_hour", in.reserved_usd_per_gpu_hour,
         Message("plan.src_reserved_offer").text("instance", o->id).num("month_count", rv->terms().term_months)
             .text("upfront", rv->terms().upfront.empty() ? "none" : rv->terms().upfront).num("usd_per_hour", rv->usd_per_hour)
             .num("gpu_count", o->gpu_count).text("date", rv->as_of).text("source", rv->source));
  as.add("spot_usd_per_gpu_hour", in.spot_usd_per_gpu_hour, Message("source.spot_estimate"));
  as.add("interruptions_per_hour", in.interruptions_per_hour, Message("plan.src_spot_advisor_rate"));
  as.add("checkpoint_write_hours", in.checkpoint_write_hours, Message("plan.src_spot_default"));
  as.add("restart_hours", in.restart_hours, Message("plan.src_spot_default"));
  as.add("task_hours", in.task_hours, Message("plan.src_task_hours_article"));
  as.add("deadline_factor", in.deadline_factor, Message("plan.src_deadline_article"));
  as.add("reserved_granularity_gpus", in.reserved_granularity_gpus, Message("plan.src_granularity_p4d"));
  return true;
}

void readDemandShape(ObjectReader& d, PlanInputs& in, Issues& issues) {
  const Field& mf = T::kMonthlyGpuHours;
  const json* months = d.get(mf.name);
  if (!months || !months->is_array() || months->size() != mf.length)
    d.error(mf.name, months ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, Message("error.months_array"));
  else
    readNumberItems(*months, d.childPath(mf.name), mf, in.monthly_gpu_hours, issues);
  const Field& pf = T::kPeakGpus;
  if (const json* pk = d.get(pf.name)) {
    if (pk->is_number()) {
      // One number for every month, within the items' bounds.
      Field one = pf;
      one.type = pf.single_type;
      if (auto v = readNumber(d, one)) in.peak_gpus.assign(pf.length, *v);
    } else if (pk->is_array() && pk->size() == pf.length) {
      readNumberItems(*pk, d.childPath(pf.name), pf, in.peak_gpus, issues);
    } else {
      d.error(pf.name, ErrorCode::kInvalidValue, Message("error.peak_gpus_type"));
    }
  }
  in.interruptible_fraction = numberOr(d, T::kInterruptibleFraction);
  in.target_completion_rate = numberOr(d, T::kTargetCompletionRate);
  in.reserved_granularity_gpus = numberOr(d, T::kReservedGranularity);
}

// Prices: an instance from the catalog, explicit prices, or both (explicit wins).
void readDemandPrices(const EngineState& s, ObjectReader& d, PlanInputs& in, Assumptions& as, Issues& issues) {
  double od = 0, rv = 0, sp = 0;
  Message od_src, rv_src, sp_src;
  if (auto id = readString(d, T::kInstance)) {
    int matches = 0;
    const Offer* o = findOffer(s.catalog, *id, matches);
    if (!o) d.error("instance", ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(*id)));
    else {
      const double n = std::max(1, o->gpu_count);
      auto source = [&](const Price* p) {
        return Message("plan.src_offer").text("instance", o->id).text("pricing", pricingModelName(p->model))
            .num("gpu_count", o->gpu_count).text("date", p->as_of).text("source", p->source);
      };
      if (const Price* p = o->price(PricingModel::kOnDemand)) od = p->usd_per_hour / n, od_src = source(p);
      if (const Price* p = o->price(PricingModel::kReserved)) rv = p->usd_per_hour / n, rv_src = source(p);
      if (const Price* p = o->price(PricingModel::kSpot)) {
        sp = p->usd_per_hour / n, sp_src = source(p);
        if (p->terms().interruption_per_hour >= 0) in.interruptions_per_hour = p->terms().interruption_per_hour;
      }
    }
  }
  if (const json* pj = d.get(T::kPlanPrices.name)) {
    ObjectReader pr(*pj, d.childPath(T::kPlanPrices.name), issues);
    if (pr.ok()) {
      if (auto v = readNumber(pr, T::kOnDemandRate)) od = *v, od_src = Message("plan.src_given");
      if (auto v = readNumber(pr, T::kReservedRate)) rv = *v, rv_src = Message("plan.src_given");
      if (auto v = readNumber(pr, T::kSpotRate)) sp = *v, sp_src = Message("plan.src_given");
    }
  }
  if (!(od > 0)) d.error("prices", ErrorCode::kMissingField, Message("error.plan_on_demand_price"));
  if (!(rv > 0)) d.error("prices", ErrorCode::kMissingField, Message("error.plan_reserved_price"));
  if (!(sp > 0) && od > 0) {
    sp = od * (1.0 - kMedianSpotDiscount);
    sp_src = Message("source.spot_estimate");
  }
  in.on_demand_usd_per_gpu_hour = od;
  in.reserved_usd_per_gpu_hour = rv;
  in.spot_usd_per_gpu_hour = sp;
  as.add("on_demand_usd_per_gpu_hour", od, od_src);
  as.add("reserved_usd_per_gpu_hour", rv, rv_src);
  as.add("spot_usd_per_gpu_hour", sp, sp_src);
}

bool readDemand(const EngineState& s, ObjectReader& r, PlanInputs& in, Assumptions& as, Issues& issues) {
  const json* dj = r.get(T::kDemand.name);
  if (!dj) {
    r.error(T::kDemand.name, ErrorCode::kMissingField, Message("error.demand_required"));
    return false;
  }
  ObjectReader d(*dj, "/demand", issues);
  if (!d.ok()) return false;
  readDemandShape(d, in, issues);
  readDemandPrices(s, d, in, as, issues);
  Message lambda_src("plan.src_interruptions_default");
  if (const json* sj = d.get(T::kPlanSpot.name)) {
    ObjectReader sr(*sj, d.childPath(T::kPlanSpot.name), issues);
    if (sr.ok()) {
      if (auto v = readNumber(sr, T::kInterruptionsPerHour)) in.interruptions_per_hour = *v, lambda_src = Message("plan.src_given");
      in.checkpoint_write_hours = readNumber(sr, T::kCheckpointWriteHours).value_or(in.checkpoint_write_hours);
      in.restart_hours = readNumber(sr, T::kRestartHours).value_or(in.restart_hours);
      in.task_hours = readNumber(sr, T::kTaskHours).value_or(in.task_hours);
      in.deadline_factor = readNumber(sr, T::kDeadlineFactor).value_or(in.deadline_factor);
    }
  }
  as.add("interruptions_per_hour", in.interruptions_per_hour, lambda_src);
  as.add("checkpoint_write_hours", in.checkpoint_write_hours, Message("plan.src_given_or_spot_default"));
  as.add("restart_hours", in.restart_hours, Message("plan.src_given_or_spot_default"));
  as.add("task_hours", in.task_hours, Message("plan.src_given_or_task_default"));
  as.add("deadline_factor", in.deadline_factor, Message("plan.src_given_or_deadline_default"));
  as.add("interruptible_fraction", in.interruptible_fraction, Message("plan.src_given"));
  as.add("target_completion_rate", in.target_completion_rate, Message("plan.src_given"));
  as.add("reserved_granularity_gpus", in.reserved_granularity_gpus, Message("plan.src_given_or_granularity_default"));
  return true;
}

// A portfolio's members (the caller opens and closes the object).
void writePortfolioMembers(JsonWriter& j, const PortfolioResult& p) {
  const double t = p.total_hours > 0 ? p.total_hours : 1;
  // Shares of the useful GPU-hours; rounding noise below 1e-9 is shown as 0.
  auto share = [&](double h) { const double v = finiteOr(h / t); return std::fabs(v) < 1e-9 ? 0.0 : v; };
  j.key("mix").beginObject().field("reserved", share(p.reserved_hours)).field("on_demand", share(p.on_demand_hours))
      .field("spot", share(p.spot_hours)).endObject();
  j.field("reserved_gpus", finiteOr(p.reserved_gpus)).field("spot_share_of_interruptible", finiteOr(p.spot_share_of_flexible))
      .field("reserved_utilisation", finiteOr(p.reserved_utilisation)).field("annual_cost_usd", finiteOr(p.annual_cost_usd))
      .field("on_demand_only_cost_usd", finiteOr(p.on_demand_only_cost_usd)).field("saving", finiteOr(p.saving))
      .field("completion_rate", finiteOr(p.completion_rate));
  j.key("cost_breakdown_usd").beginObject().field("reserved", finiteOr(p.reserved_cost_usd))
      .field("on_demand", finiteOr(p.on_demand_cost_usd)).field("spot", finiteOr(p.spot_cost_usd)).endObject();
  j.key("gpu_hours").beginObject().field("reserved", finiteOr(p.reserved_hours)).field("on_demand", finiteOr(p.on_demand_hours))
      .field("spot", finiteOr(p.spot_hours)).field("total", finiteOr(p.total_hours)).endObject();
  j.key("spot_model").beginObject().field("paid_hours_per_useful_hour", finiteOr(p.spot_overhead))
      .field("task_completion", finiteOr(p.spot_task_completion)).endObject();
  j.key("monthly_cost_usd").beginArray();
  for (double c : p.monthly_cost_usd) j.value(finiteOr(c));
  j.endArray();
}

// The shares of the mix as message parameters.
Message& withMix(Message& m, const PortfolioResult& p) {
  const double t = p.total_hours > 0 ? p.total_hours : 1;
  return m.num("reserved_fraction", p.reserved_hours / t).num("on_demand_fraction", p.on_demand_hours / t)
      .num("spot_fraction", p.spot_hours / t);
}

// The article example's members: its mix, its claim, what the claim would need, and the sensitivity.
void writeArticleCheck(JsonWriter& j, const ArticleMixCheck& c, const PlanInputs& in, Messages& findings) {
  const PortfolioResult& article = c.article;
  const double needed_rv = c.reserved_rate_needed, hi = c.interruptions_for_completion;
  j.field("example", "article").key("article_mix").beginObject();
  writePortfolioMembers(j, article);
  j.field("description", Message("plan.article_mix")).endObject();
  j.key("article_claim").beginObject().field("saving", kArticlePortfolioSaving).field("completion_rate", kArticleCompletionRate)
      .key("mix").beginObject().field("reserved", 0.70).field("on_demand", 0.0).field("spot", kArticleSpotShare).endObject()
      .field("source", Message("source.article_portfolio"))
      .endObject();
  j.field("reserved_rate_needed_for_claim_usd_per_gpu_hour", finiteOr(needed_rv))
      .field("reserved_rate_needed_for_claim_share_of_on_demand", finiteOr(needed_rv / in.on_demand_usd_per_gpu_hour))
      .field("interruptions_per_hour_for_claimed_completion", finiteOr(hi));
  j.key("sensitivity").beginArray().beginObject()
      .field("case", Message("plan.case_daily"))
      .field("article_mix_completion_rate", finiteOr(c.article_daily.completion_rate))
      .field("article_mix_saving", finiteOr(c.article_daily.saving)).key("best").beginObject();
  writePortfolioMembers(j, c.best_daily);
  j.endObject().endObject().endArray();
  Message mix(std::fabs(article.saving - kArticlePortfolioSaving) < 0.02 ? "plan.article_agrees" : "plan.article_disagrees");
  findings.push_back(withMix(mix, article).num("saving_fraction", article.saving).num("completion_fraction", article.completion_rate));
  findings.push_back(Message("plan.reserved_needed").num("usd_per_gpu_hour", needed_rv)
                         .num("needed_fraction", needed_rv / in.on_demand_usd_per_gpu_hour)
                         .num("reserved_fraction", in.reserved_usd_per_gpu_hour / in.on_demand_usd_per_gpu_hour));
  findings.push_back(Message("plan.completion_needs").num("rate_per_hour", hi).num("interval_hours", 1.0 / hi)
                         .num("completion_fraction", article.completion_rate)
                         .num("daily_completion_fraction", c.article_daily.completion_rate));
}

// The offer whose on-demand rate the plan uses (the article's instance, or the demand's when its prices do not
// replace that rate), named in the answer as tco names its; null when the rate is given.
const Offer* onDemandOffer(const EngineState& s, const json& req, bool example) {
  int matches = 0;
  if (example) return findOffer(s.catalog, kArticlePlanInstance, matches);
  const auto d = req.find("demand");
  if (d == req.end() || !d->is_object()) return nullptr;
  const auto id = d->find("instance");
  const auto prices = d->find("prices");
  if (id == d->end() || !id->is_string()) return nullptr;
  if (prices != d->end() && prices->is_object() && prices->contains("on_demand_usd_per_gpu_hour")) return nullptr;
  return findOffer(s.catalog, id->get<std::string>(), matches);
}

}  // namespace

std::string apiPlan(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  PlanInputs in;
  Assumptions as;
  const bool example = r.has(T::kExample.name);
  if (example && !readString(r, T::kExample)) return r.errorAnswer();
  if (!(example ? readExample(s, in, as, r.issues()) : readDemand(s, r, in, as, r.issues())) || r.failed()) return r.errorAnswer();
  as.add("load_shape", Message("plan.assume_load_shape"), Message("plan.src_load_shape"));
  as.add("not_modelled", Message("plan.assume_not_modelled"), Message("plan.src_scope"));
  const PortfolioResult best = optimisePortfolio(in);
  Messages findings;
  Message cheapest("plan.cheapest_mix");
  cheapest.num("target_fraction", in.target_completion_rate);
  findings.push_back(withMix(cheapest, best).num("reserved_gpu_count", best.reserved_gpus)
                         .num("used_fraction", best.reserved_utilisation).num("cost_usd", best.annual_cost_usd)
                         .num("on_demand_cost_usd", best.on_demand_only_cost_usd).num("saving_fraction", best.saving)
                         .num("completion_fraction", best.completion_rate));
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("rent_offer");
  const Offer* rented = onDemandOffer(s, r.doc(), example);
  writeRental(j, rented, rented ? rented->price(PricingModel::kOnDemand) : nullptr, s.today);
  writePortfolioMembers(j, best);
  j.key("assumptions");
  as.write(j);
  j.field("target_completion_rate", in.target_completion_rate);
  if (example)
    writeArticleCheck(j, checkArticleMix(in, kArticleSpotShare, kArticlePortfolioSaving, kArticleCompletionRate), in, findings);
  j.field("findings", findings).endObject();
  return out;
}

}  // namespace gpuvalue
