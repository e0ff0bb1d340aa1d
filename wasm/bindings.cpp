// Embind glue: the engine's JSON-text API, unchanged. All logic lives in core/.
#include <emscripten/bind.h>

#include <map>

#include "gpuvalue/engine.hpp"
#include "model/schemas.hpp"

namespace gpuvalue_wasm {

using emscripten::val;
using gpuvalue::Engine;

int heapBytes() { return static_cast<int>(__builtin_wasm_memory_size(0) * 65536); }

val bytesView(const std::string& s) {
  return val(emscripten::typed_memory_view(s.size(), reinterpret_cast<const unsigned char*>(s.data())));
}

// An answer as a view of its UTF-8 bytes, valid until the next call: the caller decodes it with TextDecoder
// (returning std::string makes Embind walk the text byte by byte in JavaScript, ~1 ms per 100 KB).
val callBytes(Engine& e, const std::string& method, const std::string& arg) {
  using Method = std::string (Engine::*)(const std::string&);
  static const std::map<std::string, Method> kMethods = {
      {"rank", &Engine::rank},         {"estimate", &Engine::estimate}, {"cost", &Engine::cost},
      {"advise", &Engine::advise},     {"plan", &Engine::plan},         {"mig", &Engine::mig},
      {"levers", &Engine::levers},     {"compare", &Engine::compare},   {"energy", &Engine::energy},
      {"tco", &Engine::tco},           {"validate", &Engine::validate}, {"loadCatalog", &Engine::loadCatalog},
      {"addCatalog", &Engine::addCatalog}, {"loadGpus", &Engine::loadGpus}, {"loadPresets", &Engine::loadPresets}};
  static std::string last;
  auto it = kMethods.find(method);
  last = it == kMethods.end() ? std::string("{\"ok\":false,\"error\":{\"code\":\"not_found\",\"message\":\"unknown method\",\"path\":\"\"}}")
                              : (e.*(it->second))(arg);
  return bytesView(last);
}

// Room for `bytes` bytes of catalog text in the engine (see Engine::catalogBegin); null when out of memory.
val catalogBuffer(Engine& e, size_t bytes) {
  char* p = e.catalogBuffer(bytes);
  if (!p) return val::null();
  return val(emscripten::typed_memory_view(bytes, reinterpret_cast<unsigned char*>(p)));
}

}  // namespace gpuvalue_wasm

EMSCRIPTEN_BINDINGS(gpuvalue) {
  emscripten::function("dataSchemas", &gpuvalue::dataSchemas);
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
      .function("setToday", &Engine::setToday)
      .function("catalogBegin", &Engine::catalogBegin)
      .function("catalogFeed", &Engine::catalogFeed)
      .function("catalogEnd", &Engine::catalogEnd)
      .function("catalogBuffer", &gpuvalue_wasm::catalogBuffer)
      .function("callBytes", &gpuvalue_wasm::callBytes);
  emscripten::function("heapBytes", &gpuvalue_wasm::heapBytes);
}
