// The JSON Schemas of the data files, written from the field tables (model/catalog_fields.hpp,
// model/data_fields.hpp): what scripts/schemas.mjs stores in data/schema/.
#pragma once
#include <nlohmann/json.hpp>

#include "model/gpu_specs.hpp"

namespace gpuvalue {

// {"catalog.schema.json": {...}, "gpus.schema.json": ..., "presets.schema.json": ..., "measurements.schema.json": ...,
// "serving-presets.schema.json": ..., "serving-measurements.schema.json": ...},
// members in table order; the ids of `gpus` are the enum of every "gpu" member. The API method "schemas"
// (core/src/api/schemas.cpp) answers with them.
nlohmann::ordered_json dataSchemas(const GpuDatabase& gpus);

}  // namespace gpuvalue
