// The user's measurements: one measurement object (the "measurements" request member of estimate, rank and compare,
// and the answer of parse_measurement), its fit on the request's workload (model/calibration.hpp), and the answers'
// "calibration" (what each measurement says about the model) and "calibrated" (what one row or configuration used).
#pragma once
#include <string>

#include "api/state.hpp"
#include "io/json_reader.hpp"
#include "io/json_writer.hpp"
#include "model/calibration.hpp"

namespace gpuvalue {

// At most this many measurements in one request: one per GPU type a trial is likely to cover, with room to spare.
constexpr size_t kMaxMeasurements = 8;

// A GPU of the database by the name a driver reports ("NVIDIA A100-SXM4-80GB", "NVIDIA H100 PCIe") or an id or
// alias; with the memory the driver reports (decimal GB, 0 = unknown), the variant of that memory when the name
// alone names another ("A100" is the 40 GB part). nullptr when unknown.
const GpuSpec* gpuByReportedName(const GpuDatabase& gpus, const std::string& name, double memory_gb);

// One measurement object {gpu, count?, tokens_per_s | samples_per_s, precision?, peak_memory_gb?, layers_run?,
// layers?, source?} read at the reader's path; false after reporting what is wrong.
bool readMeasurement(const GpuDatabase& gpus, ObjectReader& r, Measurement& m);
// Writes a measurement object (the same members).
void writeMeasurement(JsonWriter& j, const Measurement& m);

// The request's optional "measurements", each fitted on the workload (the request's own constants): a rate the
// GPU's peak or the model's floor cannot reach, or in a unit the workload does not have, is an error at
// /measurements/<i>/<rate>. Inactive when absent.
Calibration readMeasurementsField(const EngineState& s, const json& req, const Workload& w, const ModelConstants& k,
                                  Issues& issues);

// "calibration": {factor, spread, measurements: [{index, gpu, count, unit, measured, predicted, factor, source,
// summary, flags}]}; nothing when inactive.
void writeCalibration(JsonWriter& j, const Calibration& c);
// "calibrated": {distance, measurement (null for the geometric mean of several), factor, band_low, band_high};
// nothing when inactive.
void writeCalibrated(JsonWriter& j, const CalibrationPick& p);

}  // namespace gpuvalue
