// Embind glue: the engine's JSON-text API, unchanged. All logic lives in core/.
#include <emscripten/bind.h>

#include "gpuvalue/engine.hpp"

namespace gpuvalue_wasm {

int heapBytes() { return static_cast<int>(__builtin_wasm_memory_size(0) * 65536); }

}  // namespace gpuvalue_wasm

EMSCRIPTEN_BINDINGS(gpuvalue) {
  using gpuvalue::Engine;
  emscripten::class_<Engine>("Engine")
      .constructor<>()
      .function("loadGpus", &Engine::loadGpus)
      .function("loadCatalog", &Engine::loadCatalog)
      .function("addCatalog", &Engine::addCatalog)
      .function("validate", &Engine::validate)
      .function("loadPresets", &Engine::loadPresets)
      .function("estimate", &Engine::estimate)
      .function("rank", &Engine::rank)
      .function("cost", &Engine::cost)
      .function("advise", &Engine::advise)
      .function("plan", &Engine::plan)
      .function("mig", &Engine::mig)
      .function("levers", &Engine::levers)
      .function("compare", &Engine::compare)
      .function("energy", &Engine::energy)
      .function("tco", &Engine::tco)
      .function("importSkypilot", &Engine::importSkypilot)
      .function("defaults", &Engine::defaults)
      .function("presets", &Engine::presets)
      .function("gpus", &Engine::gpus)
      .function("catalogSummary", &Engine::catalogSummary)
      .function("setToday", &Engine::setToday);
  emscripten::function("heapBytes", &gpuvalue_wasm::heapBytes);
}
