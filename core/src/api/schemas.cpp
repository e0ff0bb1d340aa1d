// schemas: the JSON Schemas of the data files (data/schema/*.schema.json), written from the field tables, with the
// GPU ids of the GPU database given as the argument (data/gpus.json). scripts/schemas.mjs stores them.
#include "api/answer.hpp"
#include "api/state.hpp"
#include "model/schemas.hpp"

namespace gpuvalue {

std::string apiSchemas(EngineState&, const std::string& text, const std::string&) {
  GpuDatabase db;
  const Issues issues = db.load(text);
  if (hasErrors(issues)) return errorResult(issues);
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("schemas").document(dataSchemas(db)).endObject();
  return out;
}

}  // namespace gpuvalue
