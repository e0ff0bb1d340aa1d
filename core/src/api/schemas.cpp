// schemas: the JSON Schemas of the data files (data/schema/*.schema.json), written from the field tables, with the
// GPU ids of the GPU database given as the argument (data/gpus.json), and of the requests of the methods with a
// request table (data/schema/<method>.request.schema.json, api/request_tables.hpp and the serve request's).
// scripts/schemas.mjs stores them.
#include "api/answer.hpp"
#include "api/request_tables.hpp"
#include "api/state.hpp"
#include "io/schema_writer.hpp"
#include "model/schemas.hpp"
#include "model/serving_fields.hpp"

namespace gpuvalue {

namespace {

// Where the schemas say they live (as model/schemas.cpp's).
const char* const kSchemaBase = "https://gpuvalue.invalid/schema/";

void addRequestSchema(nlohmann::ordered_json& out, const std::string& method, const Record& record) {
  const std::string name = method + ".request.schema.json";
  const std::string id = kSchemaBase + name;
  const std::string title = "gpuvalue " + method + " request";
  out[name] = writeSchema({&record, id.c_str(), title.c_str(), {}});
}

}  // namespace

std::string apiSchemas(EngineState&, const std::string& text, const std::string&) {
  GpuDatabase db;
  const Issues issues = db.load(text);
  if (hasErrors(issues)) return errorResult(issues);
  nlohmann::ordered_json schemas = dataSchemas(db);
  for (size_t i = 0; i < request_tables::kMethodRecordCount; ++i)
    addRequestSchema(schemas, request_tables::kMethodRecords[i].method, *request_tables::kMethodRecords[i].record);
  addRequestSchema(schemas, "serve", serving_fields::kRequestRecord);
  addRequestSchema(schemas, "serveOffers", serving_fields::kOffersRequestRecord);
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("schemas").document(schemas).endObject();
  return out;
}

}  // namespace gpuvalue
