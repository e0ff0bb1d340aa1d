// Native side of `npm run bench`: times the engine operations that bench/run.mjs also times in wasm.
// Usage: gpuvalue_bench DATA_DIR CATALOG.json REPEATS [SWEEP]  -> one JSON object on stdout.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gpuvalue/engine.hpp"

static std::string readAll(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <typename F>
static double medianMs(int repeats, F&& f, int warmup = 0) {
  for (int i = 0; i < warmup; ++i) f();
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
    std::cerr << "usage: gpuvalue_bench DATA_DIR CATALOG.json REPEATS [SWEEP]\n";
    return 2;
  }
  const std::string data = argv[1];
  const std::string catalog = readAll(argv[2]);
  const int repeats = std::max(1, std::atoi(argv[3]));
  const bool sweep = argc > 4 && std::string(argv[4]) == "sweep";
  gpuvalue::Engine e;
  e.setToday("2026-12-02");
  e.loadGpus(readAll(data + "/gpus.json"));
  e.loadPresets(readAll(data + "/presets.json"));
  bool ok = true;
  double load = medianMs(repeats, [&] { ok = ok && e.loadCatalog(catalog).find("\"ok\":true") != std::string::npos; });
  // Same requests as bench/run.mjs: a transformer workload ranked on every offer, top 100 returned; first a new
  // token count each run (no kept evaluations answer it), then new weights each run (they do).
  int run = 0;
  double rank = medianMs(std::max(repeats, 15), [&] {
    e.rank(R"({"preset": "llama2-7b-pretrain", "limit": 100, "workload": {"tokens": )" + std::to_string(2e12 + 1e9 * ++run) + "}}");
  }, 5);
  double warm = medianMs(std::max(repeats, 15), [&] {
    e.rank(R"({"preset": "llama2-7b-pretrain", "limit": 100, "weights": {"unit_cost": )" + std::to_string(0.5 + 0.001 * ++run) + "}}");
  }, 5);
  double sweep_ms = 0;
  if (sweep) {
    sweep_ms = medianMs(std::max(1, repeats / 2), [&] {
      for (int i = 0; i < 100; ++i) {
        std::string r = R"({"preset": "llama2-7b-pretrain", "limit": 1, "workload": {"tokens": )" + std::to_string(1e11 * (i + 1)) + "}}";
        e.rank(r);
      }
    });
  }
  std::cout << "{\"ok\": " << (ok ? "true" : "false") << ", \"load_ms\": " << load << ", \"rank_ms\": " << rank << ", \"warm_rank_ms\": " << warm
            << ", \"sweep_ms\": " << sweep_ms << "}\n";
  return ok ? 0 : 1;
}
