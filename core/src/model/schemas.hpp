// The JSON Schemas of the data files, written from the field tables (model/catalog_fields.hpp,
// model/data_fields.hpp): what scripts/schemas.mjs stores in data/schema/.
#pragma once
#include <string>

namespace gpuvalue {

// {"ok": true, "schemas": {"catalog.schema.json": {...}, "gpus.schema.json": ..., "presets.schema.json": ...,
// "measurements.schema.json": ...}}; the GPU ids of `gpus_json` (data/gpus.json) are the enum of every "gpu"
// member. A GPU database with errors gives {"ok": false, "error": ...} with the first problem's path.
std::string dataSchemas(const std::string& gpus_json);

}  // namespace gpuvalue
