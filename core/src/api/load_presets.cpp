// loadPresets: replaces the workload presets (data/presets.json); every preset's workload is checked first.
#include "api/answer.hpp"
#include "api/preset_list.hpp"
#include "api/state.hpp"
#include "io/fields.hpp"
#include "model/data_fields.hpp"
#include "model/workload.hpp"

namespace gpuvalue {

std::string apiLoadPresets(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  std::optional<json> list = readPresetList(text, issues, [&](const json&, ObjectReader& r) {
    readString(r, *data_fields::kPresetRecord.find("id"));
    Workload w;
    if (const json* wj = r.get("workload")) parseWorkload(*wj, r.childPath("workload"), w, issues);
    else r.error("workload", ErrorCode::kMissingField, Message("error.required"));
  });
  if (!list) return errorResult(issues);
  s.dataChanged();
  s.presets = std::move(*list);
  return presetCountAnswer(s.presets.size());
}

}  // namespace gpuvalue
