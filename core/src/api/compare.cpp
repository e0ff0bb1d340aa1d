// compare: two to four configurations of one workload side by side, why one is faster, and the article's
// YOLOv7 claim when it applies (math in tools/compare.hpp). {"preset"|"workload", "configs": [{"gpu", "count",
// "usd_per_hour"?} | {"instance", "nodes"?, "usd_per_hour"?}] (2-4), "pricing"?, "baseline"?, "spot"?, "constants"?}
#include <cmath>

#include "api/answer.hpp"
#include "api/request.hpp"
#include "io/request_fields.hpp"
#include "io/text_stream.hpp"
#include "tools/compare.hpp"

namespace gpuvalue {

namespace {

// The article's YOLOv7 case (§1): 8× A100 vs 4× V100, "2.3× faster iterations, 41 % lower cost".
constexpr double kArticleYoloSpeedup = 2.3;
constexpr double kArticleYoloCostChange = -0.41;

struct Labelled {
  CompareConfig config;
  std::string label, instance, provider, price_source, note;
};

// One configuration of the request, or false after reporting why it cannot be read or priced.
bool readConfig(const EngineState& s, ObjectReader& c, const Workload& w, PricingModel model, const std::string& pricing,
                const SpotOptions& spot, const ModelConstants& k, Labelled& out) {
  const auto explicit_usd = c.number("usd_per_hour", false, 0, true, 1e6);
  const double given = explicit_usd ? *explicit_usd : -1;
  if (auto inst = c.string("instance", false)) {
    int matches = 0;
    const Offer* o = findOffer(s.catalog, *inst, matches);
    if (!o || !o->gpu) { c.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + *inst + "\""); return false; }
    const Price* p = o->price(model);
    if (!p && !explicit_usd) { c.error("instance", ErrorCode::kNotFound, "instance \"" + o->id + "\" has no " + pricing + " price; give usd_per_hour"); return false; }
    const int nodes = static_cast<int>(c.integer("nodes", false, 1, 4096).value_or(0));
    out.config = offerConfig(w, *o, nodes, p, given, spot, k);
    out.instance = o->instance_type;
    out.provider = o->provider;
    if (explicit_usd) out.price_source = "given";
    else {
      out.price_source = o->id + " " + pricing + ", as of " + p->as_of + ", " + p->source;
      out.note = staleWarning(*p, s.today);
    }
  } else {
    const GpuSpec* g = gpuField(s.gpus, c);
    if (!g && c.get("gpu") && c.get("gpu")->is_string()) return false;  // an unknown id, reported: the count is not read
    const int count = static_cast<int>(c.integer("count", true, 1, 65536).value_or(0));
    if (!g || count <= 0) return false;
    out.config = gpuConfig(w, s.catalog, *g, count, model, given, spot, k);
    const CompareConfig& cf = out.config;
    if (explicit_usd) out.price_source = "given";
    else if (!cf.priced) {
      c.error("gpu", ErrorCode::kNotFound, "no " + pricing + " offer in the catalog can host " + std::to_string(count) + "× " + g->name + "; give usd_per_hour");
      return false;
    } else {
      out.instance = cf.offer->instance_type + (cf.instances > 1 ? " × " + std::to_string(cf.instances) : "");
      out.provider = cf.offer->provider;
      out.price_source = "cheapest " + pricing + " offer: " + cf.offer->id + ", as of " + cf.price->as_of + ", " + cf.price->source;
      if (cf.instances * cf.offer->gpu_count > count)
        out.note = "pays for " + std::to_string(cf.instances * cf.offer->gpu_count) + " GPUs (" + cf.offer->instance_type + ")";
      const std::string stale = staleWarning(*cf.price, s.today);
      if (!stale.empty()) out.note += (out.note.empty() ? "" : "; ") + stale;
    }
  }
  out.label = gpuLabel(out.config.gpus, *out.config.gpu);
  return true;
}

std::string explanation(const Labelled& l, const Labelled& base, bool is_base) {
  const CompareConfig& c = l.config;
  const Throughput& t = c.plan.throughput;
  const Throughput& tb = base.config.plan.throughput;
  TextStream ex;
  if (is_base) {
    ex << "Baseline. " << fixed(t.single_gpu_tflops, 1) << " TFLOPS per GPU (" << t.bound << "-bound), scaling "
       << pct(t.scaling_efficiency, 0) << ", " << money(c.usd_per_hour) << "/h.";
    return ex.str();
  }
  const CompareRatios r = compareRatios(c, base.config);
  ex << "vs " << base.label << ": " << fixed(r.count_ratio, 2) << "× the GPUs × " << fixed(r.single_gpu_ratio, 2)
     << "× per-GPU throughput (" << fixed(t.single_gpu_tflops, 1) << " vs " << fixed(tb.single_gpu_tflops, 1)
     << " TFLOPS, " << t.bound << "-bound) × " << fixed(r.scaling_ratio, 2) << "× scaling efficiency (" << pct(t.scaling_efficiency, 0)
     << " vs " << pct(tb.scaling_efficiency, 0) << ") = " << fixed(r.speedup, 2) << "× faster; " << fixed(r.price_ratio, 2)
     << "× the hourly price -> " << fixed(r.cost_ratio, 2) << "× the cost (" << pct(std::fabs(1.0 - r.cost_ratio), 0)
     << (r.cost_ratio <= 1 ? " lower" : " higher") << ").";
  return ex.str();
}

void writeConfig(JsonWriter& j, const Labelled& l, const Labelled& base, bool is_base, const Workload& w) {
  const CompareConfig& c = l.config;
  const Throughput& t = c.plan.throughput;
  const CompareRatios r = compareRatios(c, base.config);
  j.beginObject().field("label", l.label).field("gpu", c.gpu->id).field("gpu_count", c.gpus).field("nodes", c.nodes)
      .field("instance", l.instance).field("provider", l.provider).field("usd_per_hour", finiteOr(c.usd_per_hour))
      .field("price_source", l.price_source).field("time_hours", finiteOr(c.time_hours)).field("cost_usd", finiteOr(c.cost_usd))
      .field("fits", c.plan.memory.fits).field("sharding", c.plan.memory.sharding.describe())
      .field("precision", precisionName(trainingPrecision(w, *c.gpu))).field("single_gpu_tflops", finiteOr(t.single_gpu_tflops))
      .field("scaling_efficiency", finiteOr(t.scaling_efficiency)).field("bound", t.bound)
      .field("speedup_vs_baseline", finiteOr(r.speedup)).field("cost_ratio_vs_baseline", finiteOr(r.cost_ratio))
      .field("explanation", explanation(l, base, is_base)).field("note", l.note).endObject();
}

void writeYoloClaim(JsonWriter& j, const CompareConfig& A, const CompareConfig& V) {
  const double speed = A.time_hours > 0 ? V.time_hours / A.time_hours : 0;
  const double change = V.cost_usd > 0 ? A.cost_usd / V.cost_usd - 1.0 : 0;
  const CompareRatios r = compareRatios(A, V);
  const std::string finding =
      "The model finds 8× A100 " + fixed(speed, 2) + "× faster at " + pct(std::fabs(change), 0) + (change <= 0 ? " lower" : " higher") +
      " cost (article: 2.3× and 41 % lower). " +
      (std::fabs(speed - kArticleYoloSpeedup) / kArticleYoloSpeedup < 0.15 ? "The speed-up agrees within 15 %." : "The speed-up DISAGREES by more than 15 %.") +
      " The model's " + fixed(speed, 2) + "× is " + fixed(r.count_ratio, 2) + "× from the GPU count × " + fixed(r.single_gpu_ratio, 2) +
      "× per GPU (" + A.plan.throughput.bound + "-bound roofline) × " + fixed(r.scaling_ratio, 2) +
      "× scaling; data loading (mosaic augmentation) is not modelled and may cap the A100s.";
  j.key("article_claim").beginObject()
      .field("claim", "8× A100 trains YOLOv7 2.3× faster than 4× V100 at 41 % lower cost")
      .field("source", "seed article §1 (an autonomous-driving company's test; no setup, prices or batch sizes given)")
      .field("claimed_speedup", kArticleYoloSpeedup).field("claimed_cost_change", kArticleYoloCostChange)
      .field("model_speedup", finiteOr(speed)).field("model_cost_change", finiteOr(change)).field("finding", finding).endObject();
}

}  // namespace

std::string apiCompare(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json req;
  Workload w;
  ModelConstants k;
  if (!readWorkloadRequest(s, text, req, w, k, issues)) return errorResult(issues);
  ObjectReader r(req, "", issues);
  SpotOptions spot;
  readSpotOptions(req, spot, issues);
  std::string pricing;
  const PricingModel model = pricingField(r, "on_demand", pricing);
  const json* cj = r.get("configs");
  if (!cj || !cj->is_array() || cj->size() < 2 || cj->size() > 4) {
    r.error("configs", cj ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, "must be an array of 2 to 4 configurations");
    return errorResult(issues);
  }
  std::vector<Labelled> configs;
  for (size_t i = 0; i < cj->size(); ++i) {
    ObjectReader c((*cj)[i], "/configs/" + std::to_string(i), issues);
    Labelled l;
    if (c.ok() && readConfig(s, c, w, model, pricing, spot, k, l)) configs.push_back(std::move(l));
  }
  const long long baseline_in = r.integer("baseline", false, 0, 3).value_or(-1);
  if (baseline_in >= static_cast<long long>(cj->size())) r.error("baseline", ErrorCode::kInvalidValue, "must index one of the configs");
  if (hasErrors(issues)) return errorResult(issues);
  std::vector<CompareConfig> plain;
  for (const auto& l : configs) plain.push_back(l.config);
  // Baseline: as given, else the slowest configuration (so speed-ups read >= 1).
  const size_t b = baseline_in >= 0 ? static_cast<size_t>(baseline_in) : slowestConfig(plain);
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("workload", w.name).field("pricing", pricingModelName(model)).field("baseline", b)
      .key("configs").beginArray();
  for (size_t i = 0; i < configs.size(); ++i) writeConfig(j, configs[i], configs[b], i == b, w);
  j.endArray();
  int a100 = -1, v100 = -1;
  for (size_t i = 0; i < plain.size(); ++i) {
    if (plain[i].gpu->id.rfind("a100", 0) == 0 && plain[i].gpus == 8) a100 = static_cast<int>(i);
    if (plain[i].gpu->id.rfind("v100", 0) == 0 && plain[i].gpus == 4) v100 = static_cast<int>(i);
  }
  if (w.name == "yolov7-coco" && a100 >= 0 && v100 >= 0) writeYoloClaim(j, plain[a100], plain[v100]);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
