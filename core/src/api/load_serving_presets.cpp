// loadServingPresets: replaces the serving presets (data/serving-presets.json), each preset's model checked first;
// servingPresets: the loaded serving presets.
#include "api/answer.hpp"
#include "api/serve_request.hpp"
#include "model/serving_fields.hpp"

namespace gpuvalue {

std::string apiLoadServingPresets(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json doc;
  if (!parseJsonText(text, doc, issues, "presets")) return errorResult(issues);
  ObjectReader root(doc, "", issues);
  const json* list = root.ok() ? root.get("presets") : nullptr;
  if (root.ok() && (!list || !list->is_array())) root.error("presets", ErrorCode::kMissingField, Message("error.presets_array"));
  if (list && list->is_array()) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string path = "/presets/" + std::to_string(i);
      checkMembers((*list)[i], path, serving_fields::kPresetRecord, issues);
      ObjectReader r((*list)[i], path, issues);
      if (!r.ok()) continue;
      for (const char* key : {"id", "weights", "kv"}) readString(r, *serving_fields::kPresetRecord.find(key));
      ServingModel m;
      if (const json* mj = r.get("model")) {
        checkMembers(*mj, r.childPath("model"), serving_fields::kModelRecord, issues);
        readServingModel(*mj, r.childPath("model"), m, issues);
      } else {
        r.error("model", ErrorCode::kMissingField, Message("error.required"));
      }
    }
  }
  if (hasErrors(issues)) return errorResult(issues);
  s.serving_presets = *list;
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("count", s.serving_presets.size()).endObject();
  return out;
}

std::string apiServingPresets(EngineState& s, const std::string&, const std::string&) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("presets").document(s.serving_presets).endObject();
  return out;
}

}  // namespace gpuvalue
