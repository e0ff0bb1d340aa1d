#include "model/schemas.hpp"

#include "io/schema_writer.hpp"
#include "model/catalog_fields.hpp"
#include "model/data_fields.hpp"
#include "model/gpu_specs.hpp"

namespace gpuvalue {

// Where the schemas say they live; the data files name them by relative path in "$schema".
static const char* const kSchemaBase = "https://gpuvalue.invalid/schema/";

std::string dataSchemas(const std::string& gpus_json) {
  GpuDatabase db;
  const Issues issues = db.load(gpus_json);
  for (const auto& i : issues)
    if (!i.warning)
      return dumpJson({{"ok", false}, {"error", {{"code", errorCodeName(i.code)}, {"path", i.path}, {"message", i.message}}}});
  std::vector<std::string> ids;
  for (const auto& g : db.all()) ids.push_back(g.id);
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
  };
  nlohmann::ordered_json out = {{"ok", true}, {"schemas", nlohmann::ordered_json::object()}};
  for (const auto& f : files) {
    const std::string id = std::string(kSchemaBase) + f.name;
    out["schemas"][f.name] = writeSchema({f.root, id.c_str(), f.title, ids});
  }
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace gpuvalue
