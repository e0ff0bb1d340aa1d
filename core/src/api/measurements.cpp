#include "api/measurements.hpp"

#include <cmath>

#include "api/answer.hpp"
#include "api/request_tables.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// The member is a string (which readString may still have refused as none of the field's choices).
bool isText(ObjectReader& r, const Field& f) { return r.get(f.name) && r.get(f.name)->is_string(); }

// A driver reports memory in decimal GB of the whole device (PyTorch's total_memory / 1e9: 85.9 for an 80 GB
// A100); datasheets quote binary gigabytes (80 GB = 80 GiB).
constexpr double kBytesPerGib = 1073741824.0;

double memoryMismatch(const GpuSpec& g, double reported_gb) {
  return std::fabs(g.memory_gb - reported_gb * 1e9 / kBytesPerGib) / std::max(1.0, g.memory_gb);
}

std::string idFamily(const std::string& id) { return id.substr(0, id.find('-')); }

const char* rateKey(const Measurement& m) { return m.samples_per_s > 0 ? "samples_per_s" : "tokens_per_s"; }

}  // namespace

const GpuSpec* gpuByReportedName(const GpuDatabase& gpus, const std::string& name, double memory_gb) {
  const GpuSpec* g = gpus.find(name);
  for (const char* vendor : {"nvidia ", "amd "}) {
    const std::string lower = toLower(name);
    if (!g && lower.rfind(vendor, 0) == 0) g = gpus.find(name.substr(std::string(vendor).size()));
  }
  // Variants of one part differ in memory (A100 40 GB / 80 GB): the reported memory picks the variant. Within 10 %
  // of the datasheet's is the same part (drivers reserve a little).
  if (!g || memory_gb <= 0 || memoryMismatch(*g, memory_gb) <= 0.1) return g;
  const GpuSpec* best = g;
  for (const GpuSpec& other : gpus.all())
    if (idFamily(other.id) == idFamily(g->id) && other.form_factor == g->form_factor &&
        memoryMismatch(other, memory_gb) < memoryMismatch(*best, memory_gb))
      best = &other;
  return best;
}

bool readMeasurement(const GpuDatabase& gpus, ObjectReader& r, Measurement& m) {
  if (!r.ok()) return false;
  bool ok = true;
  const std::string id = readString(r, T::kMeasuredGpu).value_or("");
  m.gpu = id.empty() ? nullptr : gpuByReportedName(gpus, id, 0);
  if (!m.gpu) {
    if (r.get(T::kMeasuredGpu.name) && r.get(T::kMeasuredGpu.name)->is_string())
      r.error(T::kMeasuredGpu.name, ErrorCode::kUnknownId, Message("error.unknown_gpu").text("id", excerpt(id)));
    ok = false;
  }
  m.count = integerOr(r, T::kMeasuredCount, 1);
  const auto tokens = readNumber(r, T::kTokensPerS);
  const auto samples = readNumber(r, T::kSamplesPerS);
  if (tokens && samples) {
    r.error(T::kSamplesPerS.name, ErrorCode::kInvalidValue, Message("error.measurement_two_rates"));
    ok = false;
  } else if (!tokens && !samples) {
    if (!r.has(T::kTokensPerS.name) && !r.has(T::kSamplesPerS.name))
      r.error(T::kTokensPerS.name, ErrorCode::kMissingField, Message("error.measurement_no_rate"));
    ok = false;
  }
  m.tokens_per_s = tokens.value_or(0);
  m.samples_per_s = samples.value_or(0);
  const auto precision = readString(r, T::kMeasuredPrecision);
  Precision parsed;
  if (precision && parsePrecision(*precision, parsed)) m.precision = precisionName(parsed);
  else if (isText(r, T::kMeasuredPrecision)) ok = false;  // not one of the table's choices
  m.peak_memory_gb = numberOr(r, T::kPeakMemory);
  m.layers_run = integerOr(r, T::kLayersRun, 0);
  m.layers = integerOr(r, T::kMeasuredLayers, 0);
  if (m.layers_run > 0 && m.layers > 0 && m.layers_run > m.layers) {
    r.error(T::kLayersRun.name, ErrorCode::kInvalidValue, Message("error.measurement_layers").num("run_layer_count", m.layers_run)
                                                        .num("layer_count", m.layers));
    ok = false;
  }
  const auto source = readString(r, T::kMeasuredSource);
  m.source = source.value_or(T::kMeasuredSource.absent_string);
  if (!source && isText(r, T::kMeasuredSource)) ok = false;  // not one of the table's choices
  return ok;
}

void writeMeasurement(JsonWriter& j, const Measurement& m) {
  j.beginObject().field("gpu", m.gpu ? m.gpu->id : std::string()).field("count", m.count);
  j.field(rateKey(m), m.samples_per_s > 0 ? m.samples_per_s : m.tokens_per_s);
  if (!m.precision.empty()) j.field("precision", m.precision);
  if (m.peak_memory_gb > 0) j.field("peak_memory_gb", m.peak_memory_gb);
  if (m.layers_run > 0) j.field("layers_run", m.layers_run);
  if (m.layers > 0) j.field("layers", m.layers);
  j.field("source", m.source).endObject();
}

Calibration readMeasurementsField(const EngineState& s, const json& req, const Workload& w, const ModelConstants& k,
                                  Issues& issues) {
  if (!req.is_object() || !req.contains("measurements")) return Calibration{};
  ObjectReader top(req, "", issues);
  const json& list = req["measurements"];
  if (!list.is_array()) {
    top.error("measurements", ErrorCode::kInvalidValue, Message("error.not_array"));
    return Calibration{};
  }
  if (list.size() > kMaxMeasurements) {
    top.error("measurements", ErrorCode::kTooLarge, Message("error.too_many_measurements").num("max_count", kMaxMeasurements));
    return Calibration{};
  }
  std::vector<CalibrationPoint> points;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "/measurements/" + std::to_string(i);
    ObjectReader r(list[i], path, issues);
    CalibrationPoint p;
    if (!readMeasurement(s.gpus, r, p.measurement)) continue;
    const Measurement& m = p.measurement;
    p.fit = fitMeasurement(w, m, k);
    const double rate = m.samples_per_s > 0 ? m.samples_per_s : m.tokens_per_s;
    switch (p.fit.problem) {
      case FitProblem::kNone: points.push_back(std::move(p)); break;
      case FitProblem::kWrongUnit:
        r.error(rateKey(m), ErrorCode::kInvalidValue, Message("error.measurement_unit").text("unit", rateKey(m))
                                                          .text("kind", workloadKindName(w.kind)));
        break;
      case FitProblem::kUnsupported:
        r.error("gpu", ErrorCode::kInvalidValue, Message("error.measurement_precision").text("gpu", m.gpu->id)
                                                     .text("precision", precisionName(w.precision)));
        break;
      case FitProblem::kFasterThanPeak:
        r.error(rateKey(m), ErrorCode::kInvalidValue, Message("error.measurement_above_peak").num("rate_count", rate)
                                                          .num("limit_count", p.fit.limit).num("gpu_count", m.count).text("gpu", m.gpu->id));
        break;
      case FitProblem::kFasterThanFloor:
        r.error(rateKey(m), ErrorCode::kInvalidValue, Message("error.measurement_above_floor").num("rate_count", rate)
                                                          .num("limit_count", p.fit.limit).num("gpu_count", m.count).text("gpu", m.gpu->id));
        break;
    }
  }
  return combineCalibration(std::move(points));
}

void writeCalibration(JsonWriter& j, const Calibration& c) {
  if (!c.active()) return;
  j.key("calibration").beginObject().field("factor", c.factor).field("spread", c.spread).key("measurements").beginArray();
  for (size_t i = 0; i < c.points.size(); ++i) {
    const Measurement& m = c.points[i].measurement;
    const MeasurementFit& f = c.points[i].fit;
    const bool samples = m.samples_per_s > 0;
    j.beginObject().field("index", i).field("gpu", m.gpu->id).field("count", m.count).field("unit", rateKey(m))
        .field("measured", f.measured).field("predicted", f.predicted).field("factor", f.factor).field("source", m.source)
        .field("summary", Message("calibration.summary").num("rate_count", samples ? m.samples_per_s : m.tokens_per_s)
                              .text("unit", samples ? "samples" : "tokens").num("gpu_count", m.count).text("gpu", m.gpu->id)
                              .num("factor_ratio", f.factor))
        .field("flags", f.flags).endObject();
  }
  j.endArray().endObject();
}

void writeCalibrated(JsonWriter& j, const CalibrationPick& p) {
  if (!p.active) return;
  j.key("calibrated").beginObject().field("distance", calibrationDistanceName(p.distance)).key("measurement");
  if (p.measurement >= 0) j.value(p.measurement); else j.null();
  j.field("factor", p.factor).field("band_low", p.band_low).field("band_high", p.band_high).endObject();
}

}  // namespace gpuvalue
