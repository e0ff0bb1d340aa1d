// The one reader of a presets document ({"presets": [...]}), shared by loadPresets and loadServingPresets.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "io/issues.hpp"
#include "io/json_reader.hpp"

namespace gpuvalue {

// The document's `presets` array when it parses and `checkItem` found no error in any item; otherwise nullopt,
// with every issue at its JSON Pointer path (/presets/i/...). `checkItem` sees each item that is an object
// (the item and a reader at its path).
std::optional<json> readPresetList(const std::string& text, Issues& issues,
                                   const std::function<void(const json& item, ObjectReader& r)>& checkItem);

// {"ok": true, "count": n}: the answer of a presets load.
std::string presetCountAnswer(size_t count);

}  // namespace gpuvalue
