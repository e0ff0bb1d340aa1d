// Embind glue: the engine's JSON-text API. All logic lives in core/; the API methods are the rows of the engine's
// dispatch table (core/src/api/methods.cpp), reached by name through call/callBytes and listed by methods().
#include <emscripten/bind.h>

#include "gpuvalue/engine.hpp"

namespace gpuvalue_wasm {

using emscripten::val;
using gpuvalue::Engine;

int heapBytes() { return static_cast<int>(__builtin_wasm_memory_size(0) * 65536); }

val bytesView(const std::string& s) {
  return val(emscripten::typed_memory_view(s.size(), reinterpret_cast<const unsigned char*>(s.data())));
}

// Any method of the dispatch table by name (`options`: the second argument of importSkypilot, else "").
std::string call(Engine& e, const std::string& method, const std::string& arg, const std::string& options) {
  return e.call(method, arg, options);
}

// Like call, as a view of the answer's UTF-8 bytes, valid until the next call: the caller decodes it with
// TextDecoder (returning std::string makes Embind walk the text byte by byte in JavaScript, ~1 ms per 100 KB).
val callBytes(Engine& e, const std::string& method, const std::string& arg, const std::string& options) {
  static std::string last;
  last = e.call(method, arg, options);
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
  using gpuvalue::Engine;
  emscripten::class_<Engine>("Engine")
      .constructor<>()
      .function("call", &gpuvalue_wasm::call)
      .function("callBytes", &gpuvalue_wasm::callBytes)
      .function("methods", &Engine::methods)
      .function("setToday", &Engine::setToday)
      .function("catalogBegin", &Engine::catalogBegin)
      .function("catalogFeed", &Engine::catalogFeed)
      .function("catalogEnd", &Engine::catalogEnd)
      .function("catalogBuffer", &gpuvalue_wasm::catalogBuffer);
  emscripten::function("heapBytes", &gpuvalue_wasm::heapBytes);
}
