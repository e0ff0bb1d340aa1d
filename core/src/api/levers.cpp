// levers: time and cost of one workload on one catalog offer before and after each cost lever (math in
// tools/levers.hpp). {"preset"|"workload", "instance", "pricing"?, "precision"?, "spot"?, "constants"?}
#include "api/answer.hpp"
#include "api/request.hpp"
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
  j.beginObject().field("instance", o.instance).field("gpu_count", o.gpus).field("nodes", o.nodes)
      .field("precision", precisionName(o.precision)).field("sharding", o.sharding).field("fits", o.fits)
      .field("pricing", pricingModelName(o.pricing)).field("usd_per_hour", finiteOr(o.usd_per_hour))
      .field("time_hours", finiteOr(o.time_hours)).field("cost_usd", finiteOr(o.cost_usd))
      .field("effective_tflops_per_gpu", finiteOr(o.tflops_per_gpu)).endObject();
}

// One lever's members (the caller opens the object, may add members, and closes it).
void writeLever(JsonWriter& j, const std::string& name, bool applicable, const LeverOutcome& before, const LeverOutcome& after,
                const std::string& note, const std::string& source) {
  j.field("lever", name).field("applicable", applicable).field("note", note).field("source", source).key("before");
  writeOutcome(j, before);
  j.key("after");
  if (applicable) writeOutcome(j, after);
  else j.null();
  if (applicable && before.ok && after.ok && after.time_hours > 0 && before.cost_usd > 0)
    j.field("speedup", finiteOr(before.time_hours / after.time_hours)).field("cost_ratio", finiteOr(after.cost_usd / before.cost_usd))
        .field("saving_usd", finiteOr(before.cost_usd - after.cost_usd));
}

void writeNotApplicable(JsonWriter& j, const std::string& name, const LeverBase& b, const std::string& note, const std::string& source) {
  j.beginObject();
  writeLever(j, name, false, b.outcome, b.outcome, note, source);
  j.endObject();
}

void writePrecision(JsonWriter& j, const LeverBase& b) {
  const PrecisionLever l = mixedPrecisionLever(b);
  const Workload& w = *b.workload;
  const GpuSpec& g = *b.offer->gpu;
  std::string note;
  if (l.currently_mixed)
    note = std::string("Already on ") + precisionName(trainingPrecision(w, g)) + "; without AMP (" +
           precisionName(trainingPrecision(l.full, g)) + ") it would take " + hoursText(l.before.time_hours) + ".";
  else
    note = std::string("Switch ") + precisionName(trainingPrecision(w, g)) + " -> " + precisionName(trainingPrecision(l.mixed, g)) + ".";
  note += " Throughput model: " + fixed(l.single_gpu_tflops_before, 1) + " -> " + fixed(l.single_gpu_tflops_after, 1) +
          " TFLOPS per GPU, " + fixed(l.gain, 2) + "× end to end; the article's fixed +30 % would be 1.30×.";
  j.beginObject();
  writeLever(j, "mixed_precision", l.before.ok && l.after.ok, l.before, l.after, note,
             "roofline throughput model (performance.hpp); article §4.3 claims +30 %; NVIDIA DLE measured AMP vs TF32 on A100 1.8-2.6× (seed-claims-check.md row j)");
  j.field("currently_mixed_precision", l.currently_mixed).field("article_gain", kArticleAmpGain).endObject();
}

void writeSpot(JsonWriter& j, const LeverBase& b) {
  const SpotLever l = spotLever(b);
  std::string source = "catalog spot price; interruptions, checkpoints and restarts per pricing.hpp (Young 1974)";
  if (l.already) return writeNotApplicable(j, "spot", b, "already priced as spot", source);
  if (l.estimated)
    source = "ESTIMATE: on-demand × (1 − 0.66), the median AWS Spot saving over 540 GPU pools (seed-claims-check.md row l); " + source;
  if (!l.has_price) return writeNotApplicable(j, "spot", b, "no spot or on-demand price for this offer", source);
  const std::string note = std::string(l.estimated ? "Estimated spot rate " : "Spot rate ") + money(l.price.usd_per_hour) +
                           "/h per instance; interruptions stretch the run from " + hoursText(b.outcome.time_hours) + " to " +
                           hoursText(l.after.time_hours) + " (checkpoints, lost work, restarts). The article claims 70-90 % lower cost.";
  j.beginObject();
  writeLever(j, "spot", true, b.outcome, l.after, note, source);
  j.field("estimated", l.estimated).endObject();
}

void writeReserved(JsonWriter& j, const LeverBase& b) {
  const ReservedLever l = reservedLever(b);
  const std::string source = "catalog reserved price, amortised over the term (pricing.hpp)";
  if (l.already) return writeNotApplicable(j, "reserved", b, "already priced as reserved", source);
  if (!l.price) return writeNotApplicable(j, "reserved", b, "no reserved price for this offer in the catalog", source);
  std::string note = std::to_string(l.price->term_months) + "-month commitment of " + money(l.cost.commitment_usd) + " for " +
                     std::to_string(b.nodes) + " instance(s); the job's share is " + money(l.after.cost_usd);
  if (l.cost.break_even_utilisation > 0) note += "; pays off only above " + pct(l.cost.break_even_utilisation, 0) + " utilisation of the term";
  j.beginObject();
  writeLever(j, "reserved", true, b.outcome, l.after, note + ".", source);
  j.endObject();
}

void writeMig(JsonWriter& j, const LeverBase& b) {
  const GpuSpec& g = *b.offer->gpu;
  const std::string source = "MIG profiles from the GPU database; a slice gets compute_slices/7 of the compute and memory_slices/8 of the bandwidth (NVIDIA MIG user guide)";
  if (g.mig_profiles.empty()) return writeNotApplicable(j, "mig", b, g.name + " has no MIG profiles", source);
  const MigLever l = migLever(b);
  if (l.profile < 0 || !l.has_price)
    return writeNotApplicable(j, "mig", b, l.profile < 0 ? "the job does not fit in any MIG slice smaller than the whole " + g.name : "no price for this offer", source);
  const MigProfile& p = g.mig_profiles[l.profile];
  const std::string note = "Runs in one " + p.name + " slice (" + fixed(l.plan.memory.required_gb, 1) + " of " +
                           fixed(l.plan.memory.available_gb, 1) + " GB) in " + hoursText(l.after.time_hours) +
                           "; the cost assumes " + std::to_string(p.max_count) + " such jobs share one " + g.name +
                           " (its max instance count), each paying 1/" + std::to_string(p.max_count) + " of the GPU-hour.";
  j.beginObject();
  writeLever(j, "mig", true, b.outcome, l.after, note, source);
  j.endObject();
}

void writeScale(JsonWriter& j, const LeverBase& b, const Catalog& catalog, int dir, const std::string& pricing) {
  const std::string name = dir > 0 ? "more_gpus" : "fewer_gpus";
  const std::string source = "throughput and scaling model (performance.hpp), priceJob (pricing.hpp)";
  const ScaleLever l = scaleLever(b, catalog, dir);
  const GpuSpec& g = *b.offer->gpu;
  if (!l.target)
    return writeNotApplicable(j, name, b,
                              std::string("no ") + (dir > 0 ? "larger" : "smaller") + " " + g.name + " configuration with a " + pricing +
                                  " price in the catalog" + (dir > 0 && !b.offer->rdma ? " (this offer has no RDMA network to add nodes)" : ""),
                              source);
  const LeverOutcome& base = b.outcome;
  std::string note = std::to_string(base.gpus) + " -> " + std::to_string(l.after.gpus) + " GPUs (" + l.target->instance_type +
                     (l.nodes > 1 ? " × " + std::to_string(l.nodes) : "") + "): " + hoursText(base.time_hours) + " -> " +
                     hoursText(l.after.time_hours) + ", per-GPU throughput " + fixed(base.tflops_per_gpu, 1) + " -> " +
                     fixed(l.after.tflops_per_gpu, 1) + " TFLOPS (scaling losses).";
  if (!l.after.fits) note += " Does NOT fit in memory.";
  j.beginObject();
  writeLever(j, name, l.after.ok && l.after.fits, base, l.after, note, source);
  j.endObject();
}

}  // namespace

std::string apiLevers(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json req;
  Workload w;
  ModelConstants k;
  if (!readWorkloadRequest(s, text, req, w, k, issues)) return errorResult(issues);
  ObjectReader r(req, "", issues);
  SpotOptions spot;
  readSpotOptions(req, spot, issues);
  const std::string id = r.string("instance", true).value_or("");
  std::string pricing;
  const PricingModel model = pricingField(r, "on_demand", pricing);
  if (hasErrors(issues)) return errorResult(issues);
  int matches = 0;
  const Offer* offer = findOffer(s.catalog, id, matches);
  if (!offer || !offer->gpu) {
    r.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + id + "\"");
    return errorResult(issues);
  }
  const Price* price = offer->price(model);
  if (!price) {
    r.error("pricing", ErrorCode::kNotFound, "instance \"" + offer->id + "\" has no " + pricing + " price");
    return errorResult(issues);
  }
  const LeverBase b = leverBase(w, *offer, model, *price, spot, k);
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
