// levers: time and cost of one workload on one catalog offer before and after each cost lever (math in
// tools/levers.hpp). A lever whose after is not faster (mixed precision, more GPUs) or cheaper (spot, reserved,
// MIG, fewer GPUs), as its name promises, is marked not applicable with the numbers.
// {"preset"|"workload", "instance", "pricing"?, "nodes"?, "precision"?, "include_examples"?, "include_stale"?,
// "spot"?, "constants"?}
#include <cmath>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
#include "io/request_fields.hpp"
#include "tools/levers.hpp"

namespace gpuvalue {

namespace {

// The article's AMP claim (§4.3): +30 % throughput.
constexpr double kArticleAmpGain = 1.30;

void writeOutcome(JsonWriter& j, const LeverOutcome& o) {
  if (!o.ok) {
    j.null();
    return;
  }
  j.beginObject().field("id", o.id).field("provider", o.provider).field("instance", o.instance).field("gpu_count", o.gpus).field("nodes", o.nodes)
      .field("precision", precisionName(o.precision)).field("sharding", o.sharding).field("fits", o.fits)
      .field("pricing", pricingModelName(o.pricing)).field("usd_per_hour", finiteOr(o.usd_per_hour))
      .field("time_hours", finiteOr(o.time_hours)).field("cost_usd", finiteOr(o.cost_usd))
      .field("effective_tflops_per_gpu", finiteOr(o.tflops_per_gpu)).endObject();
}

const char* directionName(LeverDirection d) { return d == LeverDirection::kFaster ? "faster" : "cheaper"; }

// One lever's members (the caller opens the object, may add members, and closes it).
void writeLever(JsonWriter& j, const std::string& name, LeverDirection d, bool applicable, const LeverOutcome& before, const LeverOutcome& after,
                const Messages& note, const Messages& source) {
  j.field("lever", name).field("direction", directionName(d)).field("applicable", applicable).field("note", note).field("source", source).key("before");
  writeOutcome(j, before);
  j.key("after");
  if (applicable) writeOutcome(j, after);
  else j.null();
  if (applicable && before.ok && after.ok && after.time_hours > 0 && before.cost_usd > 0)
    j.field("speedup", finiteOr(before.time_hours / after.time_hours)).field("cost_ratio", finiteOr(after.cost_usd / before.cost_usd))
        .field("saving_usd", finiteOr(before.cost_usd - after.cost_usd));
}

void writeNotApplicable(JsonWriter& j, const std::string& name, LeverDirection d, const LeverBase& b, const Messages& note,
                        const Messages& source) {
  j.beginObject();
  writeLever(j, name, d, false, b.outcome, b.outcome, note, source);
  j.endObject();
}

// A computed lever: offered when its after is better in its direction, else not applicable with both numbers.
// Returns whether it was offered (the caller then closes the object).
bool writeComputed(JsonWriter& j, const std::string& name, LeverDirection d, const LeverOutcome& before, const LeverOutcome& after,
                   Messages note, const Messages& source, const LeverBase& b) {
  if (!leverHelps(d, before, after)) {
    if (before.ok && after.ok)
      note.push_back(Message("levers.does_not_help").text("direction", directionName(d)).num("time_hours", before.time_hours)
                         .num("after_hours", after.time_hours).num("cost_usd", before.cost_usd).num("after_cost_usd", after.cost_usd));
    writeNotApplicable(j, name, d, b, note, source);
    return false;
  }
  j.beginObject();
  writeLever(j, name, d, true, before, after, note, source);
  return true;
}

void writePrecision(JsonWriter& j, const LeverBase& b) {
  const PrecisionLever l = mixedPrecisionLever(b);
  const Workload& w = *b.workload;
  const GpuSpec& g = *b.offer->gpu;
  Messages note;
  if (l.currently_mixed)
    note.push_back(Message("levers.already_mixed").text("precision", precisionName(trainingPrecision(w, g)))
                       .text("used", precisionName(trainingPrecision(l.full, g))).num("time_hours", l.before.time_hours));
  else
    note.push_back(Message("levers.switch_precision").text("precision", precisionName(trainingPrecision(w, g)))
                       .text("used", precisionName(trainingPrecision(l.mixed, g))));
  note.push_back(Message("levers.precision_model").num("tflops", l.single_gpu_tflops_before)
                     .num("after_tflops", l.single_gpu_tflops_after).num("gain_ratio", l.gain));
  if (!writeComputed(j, "mixed_precision", LeverDirection::kFaster, l.before, l.after, note, {Message("source.amp")}, b)) return;
  j.field("currently_mixed_precision", l.currently_mixed).field("article_gain", kArticleAmpGain).endObject();
}

void writeSpot(JsonWriter& j, const LeverBase& b) {
  const SpotLever l = spotLever(b);
  Messages source;
  if (l.estimated) source.push_back(Message("source.spot_estimate"));
  source.push_back(Message("source.spot_catalog"));
  const LeverDirection d = LeverDirection::kCheaper;
  if (l.already) return writeNotApplicable(j, "spot", d, b, {Message("levers.already_spot")}, source);
  if (!l.has_price) return writeNotApplicable(j, "spot", d, b, {Message("levers.no_spot_price")}, source);
  const Message note = Message(l.estimated ? "levers.spot_estimated" : "levers.spot").num("usd_per_hour", l.price.usd_per_hour)
                           .num("time_hours", b.outcome.time_hours).num("after_hours", l.after.time_hours);
  if (!writeComputed(j, "spot", d, b.outcome, l.after, {note}, source, b)) return;
  j.field("estimated", l.estimated).endObject();
}

void writeReserved(JsonWriter& j, const LeverBase& b) {
  const ReservedLever l = reservedLever(b);
  const Messages source = {Message("source.reserved_catalog")};
  const LeverDirection d = LeverDirection::kCheaper;
  if (l.already) return writeNotApplicable(j, "reserved", d, b, {Message("levers.already_reserved")}, source);
  if (!l.price) return writeNotApplicable(j, "reserved", d, b, {Message("levers.no_reserved_price")}, source);
  Messages note = {Message("levers.reserved").num("month_count", l.price->terms().term_months).num("commitment_usd", l.cost.commitment_usd)
                       .num("instance_count", b.nodes).num("cost_usd", l.cost.amortised_cost_usd)};
  if (l.cost.break_even_utilisation > 0)
    note.push_back(Message("levers.reserved_break_even").num("share_fraction", l.cost.break_even_utilisation));
  if (writeComputed(j, "reserved", d, b.outcome, l.after, note, source, b)) j.endObject();
}

void writeMig(JsonWriter& j, const LeverBase& b) {
  const GpuSpec& g = *b.offer->gpu;
  const Messages source = {Message("source.mig_profiles")};
  const LeverDirection d = LeverDirection::kCheaper;
  if (g.mig_profiles.empty()) return writeNotApplicable(j, "mig", d, b, {Message("levers.no_mig").text("gpu", g.id)}, source);
  const MigLever l = migLever(b);
  if (l.profile < 0) return writeNotApplicable(j, "mig", d, b, {Message("levers.mig_no_fit").text("gpu", g.id)}, source);
  if (!l.has_price) return writeNotApplicable(j, "mig", d, b, {Message("levers.no_price")}, source);
  const MigProfile& p = g.mig_profiles[l.profile];
  const Message note = Message("levers.mig").text("profile", p.name).num("required_gb", l.plan.memory.required_gb)
                           .num("available_gb", l.plan.memory.available_gb).num("time_hours", l.after.time_hours)
                           .num("job_count", p.max_count).text("gpu", g.id);
  if (writeComputed(j, "mig", d, b.outcome, l.after, {note}, source, b)) j.endObject();
}

void writeScale(JsonWriter& j, const LeverBase& b, const Catalog& catalog, int dir, const std::string& pricing) {
  const std::string name = dir > 0 ? "more_gpus" : "fewer_gpus";
  const LeverDirection d = dir > 0 ? LeverDirection::kFaster : LeverDirection::kCheaper;
  const Messages source = {Message("source.scaling_model")};
  const ScaleLever l = scaleLever(b, catalog, dir);
  const GpuSpec& g = *b.offer->gpu;
  if (!l.target) {
    const char* code = dir < 0 ? "levers.no_smaller" : b.offer->rdma ? "levers.no_larger" : "levers.no_larger_no_rdma";
    return writeNotApplicable(j, name, d, b, {Message(code).text("gpu", g.id).text("pricing", pricing)}, source);
  }
  const LeverOutcome& base = b.outcome;
  // Per-GPU throughput changes only when the communication share does: the note names scaling losses only then.
  // Another offer (another provider's instance) changes the rate too: the note never says "about the same" then,
  // and names the offer moved to next to the baseline.
  const bool other_offer = l.target != b.offer;
  const bool per_gpu_changes = std::fabs(l.after.tflops_per_gpu - base.tflops_per_gpu) > 1e-6 * std::max(1.0, base.tflops_per_gpu);
  Messages note = {Message(per_gpu_changes || other_offer ? "levers.scale" : "levers.scale_same_per_gpu").num("gpu_count", base.gpus)
                       .num("after_gpu_count", l.after.gpus).text("instance", l.target->instance_type).num("instance_count", l.nodes)
                       .num("time_hours", base.time_hours).num("after_hours", l.after.time_hours).num("tflops", base.tflops_per_gpu)
                       .num("after_tflops", l.after.tflops_per_gpu)};
  if (other_offer)
    note.push_back(Message("levers.other_offer").text("provider", l.target->provider).text("instance", l.target->instance_type)
                       .num("usd_per_hour", l.after.usd_per_hour).text("base_provider", b.offer->provider)
                       .text("base_instance", b.offer->instance_type).num("base_usd_per_hour", base.usd_per_hour));
  if (!l.after.fits) {
    note.push_back(Message("levers.scale_no_fit"));
    return writeNotApplicable(j, name, d, b, note, source);
  }
  if (writeComputed(j, name, d, base, l.after, note, source, b)) j.endObject();
}

}  // namespace

std::string apiLevers(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  Workload w;
  ModelConstants k;
  if (!readWorkloadRequest(s, r, w, k)) return r.errorAnswer();
  SpotOptions spot;
  readSpotOptions(r.doc(), spot, r.issues());
  const std::string id = readString(r, request_tables::kLeversInstance).value_or("");
  std::string pricing;
  const PricingModel model = pricingField(r, pricing);
  if (r.failed()) return r.errorAnswer();
  int matches = 0;
  const Offer* offer = findOffer(s.catalog, id, matches);
  if (!offer || !offer->gpu) {
    r.error("instance", ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(id)));
    return r.errorAnswer();
  }
  const Price* price = offer->price(model);
  if (!price) {
    r.error("pricing", ErrorCode::kNotFound, Message("error.no_price").text("instance", offer->id).text("pricing", pricing));
    return r.errorAnswer();
  }
  const int nodes = integerOr(r, request_tables::kNodes, 0);
  const OfferScope scope = offerScopeField(r, s.today);
  if (r.failed()) return r.errorAnswer();
  const LeverBase b = leverBase(w, *offer, model, *price, spot, k, nodes, scope);
  Messages warnings = offer->warnings;
  if (!b.outcome.fits) warnings.push_back(Message("levers.no_fit").text("instance", offer->instance_type));
  if (matches > 1) warnings.push_back(Message("offer.several_regions").text("instance", id).text("used", offer->id));
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("workload", w.name).field("instance", offer->instance_type).field("id", offer->id)
      .field("gpu", offer->gpu->id).field("pricing", pricingModelName(model)).key("baseline");
  writeOutcome(j, b.outcome);
  j.key("levers").beginArray();
  writePrecision(j, b);
  writeSpot(j, b);
  writeReserved(j, b);
  writeMig(j, b);
  writeScale(j, b, s.catalog, +1, pricing);
  writeScale(j, b, s.catalog, -1, pricing);
  j.endArray().field("warnings", warnings).endObject();
  return out;
}

}  // namespace gpuvalue
