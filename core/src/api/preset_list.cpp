#include "api/preset_list.hpp"

#include "io/json_writer.hpp"
#include "io/messages.hpp"

namespace gpuvalue {

std::optional<json> readPresetList(const std::string& text, Issues& issues,
                                   const std::function<void(const json& item, ObjectReader& r)>& checkItem) {
  json doc;
  if (!parseJsonText(text, doc, issues, "presets")) return std::nullopt;
  ObjectReader root(doc, "", issues);
  const json* list = root.ok() ? root.get("presets") : nullptr;
  if (root.ok() && (!list || !list->is_array())) root.error("presets", ErrorCode::kMissingField, Message("error.presets_array"));
  if (list && list->is_array()) {
    for (size_t i = 0; i < list->size(); ++i) {
      ObjectReader r((*list)[i], "/presets/" + std::to_string(i), issues);
      if (r.ok()) checkItem((*list)[i], r);
    }
  }
  if (hasErrors(issues) || !list) return std::nullopt;
  return *list;
}

std::string presetCountAnswer(size_t count) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("count", count).endObject();
  return out;
}

}  // namespace gpuvalue
