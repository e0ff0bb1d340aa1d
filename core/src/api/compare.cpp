// compare: two to four configurations of one workload side by side, why one is faster, and the article's
// YOLOv7 claim when it applies (math in tools/compare.hpp). {"preset"|"workload", "configs": [{"gpu", "count",
// "usd_per_hour"?} | {"instance", "nodes"?, "usd_per_hour"?}] (2-4), "pricing"?, "baseline"?, "spot"?, "constants"?,
// "measurements"?}
#include <cmath>

#include "api/answer.hpp"
#include "api/measurements.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
#include "io/request_fields.hpp"
#include "tools/compare.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// The article's YOLOv7 case (§1): 8× A100 vs 4× V100, "2.3× faster iterations, 41 % lower cost".
constexpr double kArticleYoloSpeedup = 2.3;
constexpr double kArticleYoloCostChange = -0.41;

struct Labelled {
  CompareConfig config;
  std::string label, instance, provider;
  Message price_source;
  Messages notes;
  CalibrationPick calibrated;
};

// The workload and constants of one configuration: calibrated on the measurement nearest its GPU and count.
struct Calibrated {
  Workload w;
  ModelConstants k;
  Calibrated(const Calibration& c, const GpuSpec& g, int gpus, const Workload& w0, const ModelConstants& k0, CalibrationPick& pick)
      : w(w0), k(k0) {
    pick = pickCalibration(c, g, gpus, k0);
    applyCalibration(pick, w, k);
  }
};

// One configuration of the request, or false after reporting why it cannot be read or priced.
bool readConfig(const EngineState& s, ObjectReader& c, const Workload& w, PricingModel model, const std::string& pricing,
                const SpotOptions& spot, const ModelConstants& k, const Calibration& calibration, Labelled& out) {
  const auto explicit_usd = readNumber(c, T::kConfigUsdPerHour);
  const double given = explicit_usd ? *explicit_usd : -1;
  if (auto inst = readString(c, T::kInstance)) {
    int matches = 0;
    const Offer* o = findOffer(s.catalog, *inst, matches);
    if (!o || !o->gpu) { c.error("instance", ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(*inst))); return false; }
    const Price* p = o->price(model);
    if (!p && !explicit_usd) { c.error("instance", ErrorCode::kNotFound, Message("error.no_price_give_rate").text("instance", o->id).text("pricing", pricing)); return false; }
    const int nodes = integerOr(c, T::kNodes, 0);
    const Calibrated cw(calibration, *o->gpu, o->gpu_count * std::max(1, nodes), w, k, out.calibrated);
    out.config = offerConfig(cw.w, *o, nodes, p, given, spot, cw.k);
    out.instance = o->instance_type;
    out.provider = o->provider;
    if (explicit_usd) out.price_source = Message("compare.price_given");
    else {
      out.price_source = Message("compare.price_offer").text("instance", o->id).text("pricing", pricing).text("date", p->as_of)
                             .text("source", p->source);
      Message stale = staleWarning(*p, s.today);
      if (!stale.empty()) out.notes.push_back(std::move(stale));
    }
  } else {
    const GpuSpec* g = gpuField(s.gpus, c);
    if (!g && c.get("gpu") && c.get("gpu")->is_string()) return false;  // an unknown id, reported: the count is not read
    const int count = integerOr(c, T::kConfigCount.req(), 0);  // required with a gpu
    if (!g || count <= 0) return false;
    const Calibrated cw(calibration, *g, count, w, k, out.calibrated);
    out.config = gpuConfig(cw.w, s.catalog, *g, count, model, given, spot, cw.k);
    const CompareConfig& cf = out.config;
    if (explicit_usd) out.price_source = Message("compare.price_given");
    else if (!cf.priced) {
      c.error("gpu", ErrorCode::kNotFound, Message("error.no_offer_hosts").text("pricing", pricing).num("gpu_count", count).text("gpu", g->id));
      return false;
    } else {
      out.instance = cf.offer->instance_type + (cf.instances > 1 ? " × " + std::to_string(cf.instances) : "");
      out.provider = cf.offer->provider;
      out.price_source = Message("compare.price_cheapest").text("instance", cf.offer->id).text("pricing", pricing)
                             .text("date", cf.price->as_of).text("source", cf.price->source);
      if (cf.instances * cf.offer->gpu_count > count)
        out.notes.push_back(Message("compare.pays_for").num("gpu_count", cf.instances * cf.offer->gpu_count)
                                .text("instance", cf.offer->instance_type));
      Message stale = staleWarning(*cf.price, s.today);
      if (!stale.empty()) out.notes.push_back(std::move(stale));
    }
  }
  out.label = gpuLabel(out.config.gpus, *out.config.gpu);
  return true;
}

Message explanation(const Labelled& l, const Labelled& base, bool is_base) {
  const CompareConfig& c = l.config;
  const Throughput& t = c.plan.throughput;
  const Throughput& tb = base.config.plan.throughput;
  if (is_base)
    return Message("compare.baseline").num("tflops", t.single_gpu_tflops).text("bound", t.bound)
        .num("scaling_fraction", t.scaling_efficiency).num("usd_per_hour", c.usd_per_hour);
  const CompareRatios r = compareRatios(c, base.config);
  return Message(r.cost_ratio <= 1 ? "compare.versus_lower" : "compare.versus_higher")
      .text("label", base.label).num("count_ratio", r.count_ratio).num("per_gpu_ratio", r.single_gpu_ratio)
      .num("tflops", t.single_gpu_tflops).num("base_tflops", tb.single_gpu_tflops).text("bound", t.bound)
      .num("scaling_ratio", r.scaling_ratio).num("scaling_fraction", t.scaling_efficiency)
      .num("base_scaling_fraction", tb.scaling_efficiency).num("speedup_ratio", r.speedup).num("price_ratio", r.price_ratio)
      .num("cost_ratio", r.cost_ratio).num("change_fraction", std::fabs(1.0 - r.cost_ratio));
}

void writeConfig(JsonWriter& j, const Labelled& l, const Labelled& base, bool is_base, const Workload& w) {
  const CompareConfig& c = l.config;
  const Throughput& t = c.plan.throughput;
  const CompareRatios r = compareRatios(c, base.config);
  j.beginObject().field("label", l.label).field("gpu", c.gpu->id).field("gpu_count", c.gpus).field("nodes", c.nodes)
      .field("instance", l.instance).field("provider", l.provider).field("usd_per_hour", finiteOr(c.usd_per_hour))
      .field("price_source", l.price_source).field("time_hours", finiteOr(c.time_hours)).field("cost_usd", finiteOr(c.cost_usd))
      .field("fits", c.plan.memory.fits).field("sharding", c.plan.memory.sharding.label())
      .field("precision", precisionName(trainingPrecision(w, *c.gpu))).field("single_gpu_tflops", finiteOr(t.single_gpu_tflops))
      .field("scaling_efficiency", finiteOr(t.scaling_efficiency)).field("bound", t.bound)
      .field("speedup_vs_baseline", finiteOr(r.speedup)).field("cost_ratio_vs_baseline", finiteOr(r.cost_ratio))
      .field("explanation", explanation(l, base, is_base)).field("notes", l.notes);
  writeCalibrated(j, l.calibrated);
  j.endObject();
}

void writeYoloClaim(JsonWriter& j, const CompareConfig& A, const CompareConfig& V) {
  const double speed = A.time_hours > 0 ? V.time_hours / A.time_hours : 0;
  const double change = V.cost_usd > 0 ? A.cost_usd / V.cost_usd - 1.0 : 0;
  const CompareRatios r = compareRatios(A, V);
  const bool agrees = std::fabs(speed - kArticleYoloSpeedup) / kArticleYoloSpeedup < 0.15;
  const Message finding = Message(agrees ? "compare.yolo_agrees" : "compare.yolo_disagrees")
      .num("speedup_ratio", speed).num("change_fraction", change).num("count_ratio", r.count_ratio)
      .num("per_gpu_ratio", r.single_gpu_ratio).text("bound", A.plan.throughput.bound).num("scaling_ratio", r.scaling_ratio);
  j.key("article_claim").beginObject()
      .field("claim", Message("compare.yolo_claim")).field("source", Message("source.article_yolo"))
      .field("claimed_speedup", kArticleYoloSpeedup).field("claimed_cost_change", kArticleYoloCostChange)
      .field("model_speedup", finiteOr(speed)).field("model_cost_change", finiteOr(change)).field("finding", finding).endObject();
}

}  // namespace

std::string apiCompare(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  Workload w;
  ModelConstants k;
  if (!readWorkloadRequest(s, r, w, k)) return r.errorAnswer();
  SpotOptions spot;
  readSpotOptions(r.doc(), spot, r.issues());
  std::string pricing;
  const PricingModel model = pricingField(r, pricing);
  const json* cj = r.get(T::kConfigs.name);
  if (!cj || !cj->is_array() || cj->size() < 2 || cj->size() > 4) {
    r.error("configs", cj ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, Message("error.configs_array"));
    return r.errorAnswer();
  }
  const Calibration calibration = readMeasurementsField(s, r.doc(), w, k, r.issues());
  if (r.failed()) return r.errorAnswer();
  std::vector<Labelled> configs;
  for (size_t i = 0; i < cj->size(); ++i) {
    ObjectReader c((*cj)[i], r.childPath(T::kConfigs.name) + "/" + std::to_string(i), r.issues());
    Labelled l;
    if (c.ok() && readConfig(s, c, w, model, pricing, spot, k, calibration, l)) configs.push_back(std::move(l));
  }
  const long long baseline_in = integerOr(r, T::kBaseline, -1);
  if (baseline_in >= static_cast<long long>(cj->size())) r.error("baseline", ErrorCode::kInvalidValue, Message("error.baseline_index").num("max_value", static_cast<double>(cj->size() - 1)));
  if (r.failed()) return r.errorAnswer();
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
  writeCalibration(j, calibration);
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
