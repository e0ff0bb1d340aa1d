// loadGpus: replaces the GPU database (data/gpus.json) and re-links the catalog's offers to it.
#include "api/answer.hpp"
#include "api/state.hpp"

namespace gpuvalue {

std::string apiLoadGpus(EngineState& s, const std::string& text, const std::string&) {
  GpuDatabase db;
  Issues issues = db.load(text);
  if (hasErrors(issues)) return errorResult(issues);
  s.dataChanged();
  s.gpus = std::move(db);
  for (auto& o : s.catalog.offers) o.gpu = s.gpus.find(o.gpu_id);
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("count", s.gpus.all().size()).key("issues");
  writeIssues(j, issues);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
