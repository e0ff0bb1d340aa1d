#include "model/calibration.hpp"

#include <algorithm>
#include <cmath>

namespace gpuvalue {

namespace {

bool inTokens(const Workload& w) { return w.kind == WorkloadKind::kTransformer; }

double rateOf(const Workload& w, const Throughput& t) { return inTokens(w) ? t.tokens_per_s : t.samples_per_s; }

// Model FLOPs (no recomputation) of one token (transformer) or one sample (CNN).
double flopsPerUnit(const Workload& w) {
  if (inTokens(w)) return w.flopsPerSampleWith(Recompute::kNone) / std::max(1.0, w.seq_len);
  return w.flopsPerSample();
}

// Bytes of 16-bit weights (the probe trains in bf16: 2 bytes per parameter) of the model the run held on each GPU:
// data parallel, every GPU holds all of its layers.
double measuredWeightsGb(const Workload& w, const Measurement& m) {
  double params = w.params;
  if (m.layers_run > 0 && m.layers > m.layers_run) params *= static_cast<double>(m.layers_run) / m.layers;
  return params * 2.0 / 1e9;
}

void flagFit(const Workload& w, const Measurement& m, const ModelConstants& k, bool fits, MeasurementFit& fit) {
  // The whole model does not fit on the measured GPUs by the memory model, and the run was not a shortened one: it
  // cannot have been this workload as the engine understands it.
  const bool shortened = m.layers_run > 0 && m.layers > m.layers_run;
  if (!fits && !shortened) fit.flags.push_back(Message("calibration.no_fit_measured").num("gpu_count", m.count).text("gpu", m.gpu->id));
  const Precision used = trainingPrecision(w, *m.gpu);
  if (!m.precision.empty() && m.precision != precisionName(used))
    fit.flags.push_back(Message("calibration.precision_differs").text("precision", m.precision).text("used", precisionName(used)));
  const double weights_gb = measuredWeightsGb(w, m);
  if (m.peak_memory_gb > 0 && m.peak_memory_gb < weights_gb)
    fit.flags.push_back(Message("calibration.memory_below_weights").num("peak_memory_gb", m.peak_memory_gb).num("weights_gb", weights_gb));
  if (fit.factor < k.band_low || fit.factor > k.band_high)
    fit.flags.push_back(Message("calibration.outside_band").num("factor_ratio", fit.factor).num("low_ratio", k.band_low)
                            .num("high_ratio", k.band_high));
}

}  // namespace

double shortenedFlopsShare(const Workload& w, int layers_run, int layers) {
  if (layers_run <= 0 || layers <= layers_run) return 1.0;
  const double share = static_cast<double>(layers_run) / layers;
  Workload s = w;
  s.layers = w.effectiveLayers() * share;
  s.hidden = w.effectiveHidden();
  s.heads = w.effectiveHeads();
  s.kv_heads = w.effectiveKvHeads();
  s.params = w.params * share;
  s.active_params = w.active_params * share;
  s.lora_trainable_params = w.lora_trainable_params * share;
  s.dense_layers = w.dense_layers * share;
  const double whole = w.flopsPerSampleWith(Recompute::kNone);
  return whole > 0 ? s.flopsPerSampleWith(Recompute::kNone) / whole : 1.0;
}

MeasurementFit fitMeasurement(const Workload& w, const Measurement& m, const ModelConstants& k) {
  MeasurementFit fit;
  const double given = inTokens(w) ? m.tokens_per_s : m.samples_per_s;
  if (!m.gpu || w.kind == WorkloadKind::kCustom || given <= 0) {
    fit.problem = FitProblem::kWrongUnit;
    return fit;
  }
  Workload base = w;
  base.compute_factor = 1;
  const Cluster c = defaultCluster(*m.gpu, m.count);
  const ClusterPlan plan = planCluster(base, c, k);
  fit.predicted = rateOf(base, plan.throughput);
  if (!plan.throughput.supported || fit.predicted <= 0) {
    fit.problem = FitProblem::kUnsupported;
    return fit;
  }
  fit.measured = given;
  if (inTokens(w) && m.layers_run > 0 && m.layers > m.layers_run) {
    // A run of layers_run layers does that share of the whole model's FLOPs per token: the whole model runs slower.
    fit.measured = given * shortenedFlopsShare(w, m.layers_run, m.layers);
    fit.flags.push_back(Message("calibration.scaled_from_layers").num("run_layer_count", m.layers_run).num("layer_count", m.layers));
  }
  const double peak_flops = m.gpu->peak(trainingPrecision(w, *m.gpu)) * 1e12 * c.totalGpus();
  if (fit.measured * flopsPerUnit(w) > peak_flops) {
    fit.problem = FitProblem::kFasterThanPeak;
    fit.limit = peak_flops / flopsPerUnit(w);
    return fit;
  }
  // The rate with the compute factor f on the plan the model chose (its layout stays: the run had one layout).
  const Sharding& layout = plan.memory.sharding;
  auto rateAt = [&](double f) {
    Workload x = base;
    x.compute_factor = f;
    return rateOf(x, estimateThroughput(x, c, layout, k));
  };
  // At a huge factor the compute efficiency is capped at the peak (singleGpu): what is left is the memory-bandwidth
  // and communication time, the fastest the model can explain.
  const double fastest = rateAt(1e9);
  if (fit.measured >= fastest) {
    fit.problem = FitProblem::kFasterThanFloor;
    fit.limit = fastest;
    return fit;
  }
  // The rate rises with f (less compute time; the exposed communication never grows faster than the compute it
  // hides behind shrinks): bisection on log f between 1e-6 and the cap.
  double lo = std::log(1e-6), hi = std::log(1e9);
  if (fit.measured == fit.predicted) {
    lo = hi = 0;
  } else {
    for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
      const double mid = 0.5 * (lo + hi);
      if (rateAt(std::exp(mid)) < fit.measured) lo = mid; else hi = mid;
    }
  }
  fit.factor = std::exp(0.5 * (lo + hi));
  flagFit(w, m, k, plan.memory.fits, fit);
  return fit;
}

Calibration combineCalibration(std::vector<CalibrationPoint> points) {
  Calibration c;
  c.points = std::move(points);
  if (c.points.empty()) return c;
  double log_sum = 0, lo = 1e300, hi = 0;
  for (const CalibrationPoint& p : c.points) {
    log_sum += std::log(p.fit.factor);
    lo = std::min(lo, p.fit.factor);
    hi = std::max(hi, p.fit.factor);
  }
  c.factor = std::exp(log_sum / static_cast<double>(c.points.size()));
  c.spread = lo > 0 ? hi / lo : 1;
  return c;
}

const char* calibrationDistanceName(CalibrationDistance d) {
  switch (d) {
    case CalibrationDistance::kMeasured: return "measured";
    case CalibrationDistance::kSameGpu: return "same_gpu";
    case CalibrationDistance::kSameArchitecture: return "same_architecture";
    case CalibrationDistance::kOtherArchitecture: return "other_architecture";
  }
  return "other_architecture";
}

CalibrationPick pickCalibration(const Calibration& c, const GpuSpec& g, int total_gpus, const ModelConstants& k) {
  CalibrationPick p;
  if (!c.active()) return p;
  p.active = true;
  int same_gpu = -1, same_arch = -1;
  double best_count_gap = 1e300;
  for (size_t i = 0; i < c.points.size(); ++i) {
    const Measurement& m = c.points[i].measurement;
    if (!m.gpu) continue;
    if (m.gpu->id == g.id) {
      const double gap = std::fabs(std::log(static_cast<double>(m.count) / std::max(1, total_gpus)));
      if (gap < best_count_gap) {
        best_count_gap = gap;
        same_gpu = static_cast<int>(i);
      }
    } else if (same_arch < 0 && m.gpu->architecture == g.architecture) {
      same_arch = static_cast<int>(i);
    }
  }
  if (same_gpu >= 0) {
    p.measurement = same_gpu;
    p.distance = best_count_gap == 0 ? CalibrationDistance::kMeasured : CalibrationDistance::kSameGpu;
  } else if (same_arch >= 0) {
    p.measurement = same_arch;
    p.distance = CalibrationDistance::kSameArchitecture;
  } else {
    p.measurement = c.points.size() == 1 ? 0 : -1;
    p.distance = CalibrationDistance::kOtherArchitecture;
  }
  p.factor = p.measurement >= 0 ? c.points[static_cast<size_t>(p.measurement)].fit.factor : c.factor;
  switch (p.distance) {
    case CalibrationDistance::kMeasured: p.band_low = k.calib_measured_low; p.band_high = k.calib_measured_high; break;
    case CalibrationDistance::kSameGpu: p.band_low = k.calib_same_gpu_low; p.band_high = k.calib_same_gpu_high; break;
    case CalibrationDistance::kSameArchitecture: p.band_low = k.calib_same_arch_low; p.band_high = k.calib_same_arch_high; break;
    case CalibrationDistance::kOtherArchitecture: p.band_low = k.calib_other_arch_low; p.band_high = k.calib_other_arch_high; break;
  }
  return p;
}

void applyCalibration(const CalibrationPick& p, Workload& w, ModelConstants& k) {
  if (!p.active) return;
  w.compute_factor = p.factor;
  k.band_low = p.band_low;
  k.band_high = p.band_high;
}

}  // namespace gpuvalue
