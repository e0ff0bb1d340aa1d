#include "test_support.hpp"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace gpuvalue_test {

std::string readFile(const std::string& rel) {
  std::ifstream in(std::string(GPUVALUE_SOURCE_DIR) + "/" + rel, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + rel);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

gpuvalue::json parse(const std::string& text) { return gpuvalue::json::parse(text); }

std::unique_ptr<gpuvalue::Engine> engineWithCatalog(const std::string& catalog) {
  auto e = std::make_unique<gpuvalue::Engine>();
  e->setToday("2026-12-02");
  e->loadGpus(readFile("data/gpus.json"));
  e->loadPresets(readFile("data/presets.json"));
  e->loadCatalog(catalog);
  return e;
}

const gpuvalue::GpuDatabase& gpuDatabase() {
  static const gpuvalue::GpuDatabase d = [] {
    gpuvalue::GpuDatabase g;
    g.load(readFile("data/gpus.json"));
    return g;
  }();
  return d;
}

gpuvalue::Cluster oneGpuCluster(const char* id) {
  gpuvalue::Cluster c;
  c.gpu = gpuDatabase().find(id);
  if (!c.gpu) throw std::runtime_error(std::string("no GPU ") + id + " in data/gpus.json");
  return c;
}

std::vector<std::string> jsonFiles(const std::string& rel) {
  std::vector<std::string> names;
  if (DIR* d = opendir((std::string(GPUVALUE_SOURCE_DIR) + "/" + rel).c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 5 && n.substr(n.size() - 5) == ".json") names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string allCatalogsText() {
  const std::vector<std::string> names = jsonFiles("data/catalog");
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? "," : "") + readFile("data/catalog/" + names[i]);
  return out + "]";
}

gpuvalue::Engine& loadedEngine() {
  static gpuvalue::Engine* engine = [] {
    auto* e = new gpuvalue::Engine();
    e->setToday("2026-12-02");
    auto check = [](const std::string& r) {
      if (parse(r).value("ok", false) != true) throw std::runtime_error("load failed: " + r.substr(0, 2000));
    };
    check(e->loadGpus(readFile("data/gpus.json")));
    check(e->loadCatalog(allCatalogsText()));
    check(e->loadPresets(readFile("data/presets.json")));
    return e;
  }();
  return *engine;
}

std::vector<std::pair<gpuvalue::json, bool>> fieldProbes(const gpuvalue::Field& f) {
  using gpuvalue::FieldType;
  using gpuvalue::json;
  std::vector<std::pair<json, bool>> v = {{json(), !f.required}, {json::array({1}), false}};
  if (f.type == FieldType::kNumber || f.type == FieldType::kInteger) {
    // Each bound, and the value one step beyond it (one for integers, a billionth of the bound for numbers), so a
    // reader whose bound differs from the table's by more than a step fails.
    const auto step = [&](double bound) { return f.type == FieldType::kInteger ? 1 : 1e-9 * std::max(1.0, std::fabs(bound)); };
    if (f.min > -1e300) v.push_back({f.min, !f.min_open}), v.push_back({f.min - step(f.min), false});
    if (f.max < 1e300)
      v.push_back({f.max, !f.max_open}), v.push_back({f.max + step(f.max), false}), v.push_back({f.max * 1.5 + 1, false});
    if (f.type == FieldType::kInteger) v.push_back({f.min + 1.5, false});
    v.push_back({"1", false});
  } else if (f.type == FieldType::kString) {
    for (const char* const* c = f.choices; c && *c; ++c) v.push_back({*c, true});
    if (f.choices) v.push_back({"not-a-choice", false});
    if (f.format_check) v.push_back({"2026-13-01", false});
    v.push_back({7, false});
  } else if (f.type == FieldType::kBoolean) {
    v.push_back({true, true}), v.push_back({"true", false});
  }
  return v;
}

}  // namespace gpuvalue_test
