// Shared helpers for the Catch2 suite: read the real data files, build a loaded engine.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "gpuvalue/engine.hpp"
#include "io/fields.hpp"
#include "io/json_reader.hpp"
#include "model/catalog.hpp"
#include "model/gpu_specs.hpp"
#include "model/performance.hpp"

namespace gpuvalue_test {

std::string readFile(const std::string& relative_path);  // relative to the source tree
// data/gpus.json loaded once.
const gpuvalue::GpuDatabase& gpuDatabase();
// One GPU of data/gpus.json by id as a cluster of one (throws when the id is unknown).
gpuvalue::Cluster oneGpuCluster(const char* id);
// An engine with data/gpus.json, every data/catalog/*.json and data/presets.json loaded.
gpuvalue::Engine& loadedEngine();
gpuvalue::json parse(const std::string& text);
// An engine with data/gpus.json, data/presets.json and `catalog` (a catalog document), judged on 2026-12-02.
std::unique_ptr<gpuvalue::Engine> engineWithCatalog(const std::string& catalog);
// The names of the .json files in a directory of the source tree, sorted.
std::vector<std::string> jsonFiles(const std::string& relative_dir);
// The catalog files as one JSON array text.
std::string allCatalogsText();
// Values for a table field and whether the table accepts them: the bounds and one step past them, each choice
// and a stranger, a malformed date, a wrong type, and absence (a null value: the member is left out).
std::vector<std::pair<gpuvalue::json, bool>> fieldProbes(const gpuvalue::Field& f);

}  // namespace gpuvalue_test
