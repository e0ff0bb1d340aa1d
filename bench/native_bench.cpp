// Native side of `npm run bench`: times the same engine operations as bench/run.mjs does in wasm.
// Usage: gpuvalue_bench DATA_DIR CATALOG.json REPEATS  -> prints one JSON object.
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>
#include <algorithm>

#include "gpuvalue/engine.hpp"

static std::string readAll(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <typename F>
static double medianMs(int repeats, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    auto a = std::chrono::steady_clock::now();
    f();
    auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: gpuvalue_bench DATA_DIR CATALOG.json REPEATS\n";
    return 2;
  }
  std::string data = argv[1];
  std::string catalog = readAll(argv[2]);
  int repeats = std::max(1, std::atoi(argv[3]));
  gpuvalue::Engine e;
  e.setToday("2026-12-02");
  e.loadGpus(readAll(data + "/gpus.json"));
  e.loadPresets(readAll(data + "/presets.json"));
  double load = medianMs(repeats, [&] { e.loadCatalog(catalog); });
  const std::string req = R"({"preset": "llama2-7b-pretrain", "limit": 100})";
  double rank = medianMs(repeats, [&] { e.rank(req); });
  std::cout << "{\"load_ms\": " << load << ", \"rank_ms\": " << rank << "}\n";
  return 0;
}
