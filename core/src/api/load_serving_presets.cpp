// loadServingPresets: replaces the serving presets (data/serving-presets.json), each preset's model checked first;
// servingPresets: the loaded serving presets.
#include "api/answer.hpp"
#include "api/preset_list.hpp"
#include "api/serve_request.hpp"
#include "model/serving_fields.hpp"

namespace gpuvalue {

std::string apiLoadServingPresets(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  std::optional<json> list = readPresetList(text, issues, [&](const json& item, ObjectReader& r) {
    checkMembers(item, r.path(), serving_fields::kPresetRecord, issues);
    for (const char* key : {"id", "weights", "kv"}) readString(r, *serving_fields::kPresetRecord.find(key));
    ServingModel m;
    if (const json* mj = r.get("model")) {
      checkMembers(*mj, r.childPath("model"), serving_fields::kModelRecord, issues);
      readServingModel(*mj, r.childPath("model"), m, issues);
    } else {
      r.error("model", ErrorCode::kMissingField, Message("error.required"));
    }
  });
  if (!list) return errorResult(issues);
  s.serving_presets = std::move(*list);
  return presetCountAnswer(s.serving_presets.size());
}

std::string apiServingPresets(EngineState& s, const std::string&, const std::string&) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("presets").document(s.serving_presets).endObject();
  return out;
}

}  // namespace gpuvalue
