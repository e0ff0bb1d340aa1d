// Calibration on the user's own measurements (the probe script's line, or a typed figure): the user's code changes
// how well the math kernels run, so each measurement gives one factor on the compute efficiency of the roofline
// (the bandwidth term and the exposed communication stay the model's), and every other configuration is predicted
// through the model with the factor of its nearest measurement, in a band that widens with the distance.
#pragma once
#include <string>
#include <vector>

#include "io/messages.hpp"
#include "model/performance.hpp"

namespace gpuvalue {

// A measured run: `count` GPUs of one type training the request's workload at a measured rate.
struct Measurement {
  const GpuSpec* gpu = nullptr;
  int count = 1;
  double tokens_per_s = 0;   // transformers; 0 when the rate is in samples
  double samples_per_s = 0;  // CNNs; 0 when the rate is in tokens
  std::string precision;     // as measured ("bf16"); empty = not stated
  double peak_memory_gb = 0; // per GPU; 0 = not stated
  int layers_run = 0;        // a shortened model (the probe fits a large model on the trial GPU): layers_run of
  int layers = 0;            // layers; 0 = the whole model
  std::string source = "typed";  // "probe" | "typed"
};

// Why a measurement cannot calibrate the model.
enum class FitProblem {
  kNone,
  kWrongUnit,        // tokens/s for a CNN, samples/s for a transformer, any rate for a FLOP-count workload
  kUnsupported,      // the GPU lacks the workload's precision
  kFasterThanPeak,   // more FLOP/s than the GPUs' datasheet peak
  kFasterThanFloor,  // faster than the model's memory-bandwidth and communication time allow at peak compute
};

struct MeasurementFit {
  FitProblem problem = FitProblem::kNone;
  double measured = 0;   // the whole model's rate (tokens or samples per second; a shortened run scaled up)
  double predicted = 0;  // the uncalibrated model's rate on the measured configuration, same unit
  double limit = 0;      // kFasterThanPeak / kFasterThanFloor: the highest rate the peak / the model allows
  double factor = 1;     // Workload::compute_factor that reproduces `measured`
  Messages flags;        // calibration.outside_band, .memory_below_weights, .precision_differs, .scaled_from_layers,
                         // .no_fit_measured
};

// Solves the compute factor k of one measurement on its configuration (defaultCluster of its GPU and count, the
// plan planCluster chooses uncalibrated): measured step time = compute/k + memory + exposed communication, solved on
// the model itself (bisection on log k), so that a measurement equal to the prediction gives k = 1 and the overlap
// of data-parallel communication with the compute it hides behind is the model's. A shortened run is scaled to the
// whole model by the engine's FLOPs per token of layers_run and of all layers (shortenedFlopsShare).
MeasurementFit fitMeasurement(const Workload& w, const Measurement& m, const ModelConstants& k);

// The share of the whole model's FLOPs per token that a model of `layers_run` of its `layers` layers does: the
// engine's FLOPs per token (Workload::flopsPerSampleWith) with the layer count and the parameters cut in proportion.
double shortenedFlopsShare(const Workload& w, int layers_run, int layers);

struct CalibrationPoint {
  Measurement measurement;
  MeasurementFit fit;
};

struct Calibration {
  std::vector<CalibrationPoint> points;  // in request order
  double factor = 1;  // geometric mean of the points' factors
  double spread = 1;  // largest over smallest factor
  bool active() const { return !points.empty(); }
};
Calibration combineCalibration(std::vector<CalibrationPoint> points);

enum class CalibrationDistance { kMeasured, kSameGpu, kSameArchitecture, kOtherArchitecture };
const char* calibrationDistanceName(CalibrationDistance d);

// The calibration one configuration uses: the nearest measurement (same GPU and count > same GPU, nearest count >
// same architecture > the geometric mean of all), its factor and the band of that distance (ModelConstants
// calib_*: how far a correction carries, from data/measurements.json).
struct CalibrationPick {
  bool active = false;
  double factor = 1;
  CalibrationDistance distance = CalibrationDistance::kOtherArchitecture;
  int measurement = -1;  // index into Calibration::points; -1 = the geometric mean of several
  double band_low = 0, band_high = 0;
};
CalibrationPick pickCalibration(const Calibration& c, const GpuSpec& g, int total_gpus, const ModelConstants& k);
// The workload's compute factor and the constants' throughput band of a pick (nothing when inactive).
void applyCalibration(const CalibrationPick& p, Workload& w, ModelConstants& k);

}  // namespace gpuvalue
