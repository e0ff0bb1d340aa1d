#include "model/schemas.hpp"

#include "io/schema_writer.hpp"
#include "model/catalog_fields.hpp"
#include "model/data_fields.hpp"
#include "model/gpu_specs.hpp"
#include "model/serving_fields.hpp"

namespace gpuvalue {

// Where the schemas say they live; the data files name them by relative path in "$schema".
static const char* const kSchemaBase = "https://gpuvalue.invalid/schema/";

nlohmann::ordered_json dataSchemas(const GpuDatabase& gpus) {
  std::vector<std::string> ids;
  for (const auto& g : gpus.all()) ids.push_back(g.id);
  struct File {
    const char* name;
    const Record* root;
    const char* title;
  };
  const File files[] = {
      {"catalog.schema.json", &catalog_fields::kDocumentRecord, "gpuvalue instance catalog"},
      {"gpus.schema.json", &data_fields::kGpuDocumentRecord, "gpuvalue GPU specification database"},
      {"presets.schema.json", &data_fields::kPresetDocumentRecord, "gpuvalue workload presets"},
      {"measurements.schema.json", &data_fields::kMeasurementDocumentRecord, "gpuvalue throughput measurements"},
      {"serving-presets.schema.json", &serving_fields::kPresetDocumentRecord, "gpuvalue serving presets"},
      {"serving-measurements.schema.json", &serving_fields::kMeasurementDocumentRecord, "gpuvalue serving measurements"},
  };
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& f : files) {
    const std::string id = std::string(kSchemaBase) + f.name;
    out[f.name] = writeSchema({f.root, id.c_str(), f.title, ids});
  }
  return out;
}

}  // namespace gpuvalue
