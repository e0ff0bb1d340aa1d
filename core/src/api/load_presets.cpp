// loadPresets: replaces the workload presets (data/presets.json); every preset's workload is checked first.
#include "api/answer.hpp"
#include "api/state.hpp"
#include "model/workload.hpp"

namespace gpuvalue {

std::string apiLoadPresets(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json doc;
  if (!parseJsonText(text, doc, issues, "presets")) return errorResult(issues);
  ObjectReader root(doc, "", issues);
  const json* list = root.ok() ? root.get("presets") : nullptr;
  if (root.ok() && (!list || !list->is_array())) root.error("presets", ErrorCode::kMissingField, Message("error.presets_array"));
  if (list && list->is_array()) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string path = "/presets/" + std::to_string(i);
      ObjectReader r((*list)[i], path, issues);
      if (!r.ok()) continue;
      r.string("id", true);
      Workload w;
      if (const json* wj = r.get("workload")) parseWorkload(*wj, r.childPath("workload"), w, issues);
      else r.error("workload", ErrorCode::kMissingField, Message("error.required"));
    }
  }
  if (hasErrors(issues)) return errorResult(issues);
  s.dataChanged();
  s.presets = *list;
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("count", s.presets.size()).endObject();
  return out;
}

}  // namespace gpuvalue
