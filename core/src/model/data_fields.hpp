// The field tables of the other data files: the GPU database (data/gpus.json, with MIG profiles), the workload
// presets (data/presets.json, whose "workload" is the request's workload record) and the throughput measurements
// (data/measurements.json, read by scripts/accuracy.mjs). The schemas are written from them, and the tests hold
// the readers (GpuDatabase::load, parseWorkload, Engine::loadPresets) to them.
#pragma once
#include "io/fields.hpp"

namespace gpuvalue {
namespace data_fields {

extern const Record kGpuDocumentRecord, kGpuRecord, kGpuTflopsRecord, kMigProfileRecord;
extern const Record kPresetDocumentRecord, kPresetRecord, kWorkloadRecord;
extern const Record kMeasurementDocumentRecord, kMeasurementRecord;

}  // namespace data_fields
}  // namespace gpuvalue
