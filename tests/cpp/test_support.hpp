// Shared helpers for the Catch2 suite: read the real data files, build a loaded engine.
#pragma once
#include <string>

#include "gpuvalue/engine.hpp"

namespace gpuvalue_test {

std::string readFile(const std::string& relative_path);  // relative to the source tree
// An engine with data/gpus.json, every data/catalog/*.json and data/presets.json loaded.
gpuvalue::Engine& loadedEngine();
gpuvalue::json parse(const std::string& text);
// The catalog files as one JSON array text.
std::string allCatalogsText();

}  // namespace gpuvalue_test
