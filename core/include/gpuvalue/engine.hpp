// The engine facade: one long-lived object holding the GPU database, the catalog and the presets, with a
// JSON-text API used by the wasm bindings, the CLI (through them) and the native tests and benchmark.
// Every method answers a JSON object: {"ok": true, ...} or {"ok": false, "error": {code, message, path},
// "issues": [...]}. No exception leaves these methods.
//
// The API methods are rows of one table (core/src/api/methods.cpp): call(name, text) runs any of them, methods()
// lists them. The named members below are shorthands for call(name, text) kept for C++ callers.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

namespace gpuvalue {

class GpuDatabase;
struct Catalog;

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Runs the API method `method` of the dispatch table on its argument (a JSON request, a document's text, CSV
  // text, or nothing); `options` is the second argument of the methods that take one (importSkypilot's options
  // JSON). An unknown method answers {"ok": false, "error": {"code": "not_found", ...}}.
  std::string call(const std::string& method, const std::string& argument, const std::string& options = "");
  // The dispatch table as JSON: {"ok": true, "methods": [{"name", "argument", "description"}, ...]}.
  std::string methods() const;

  // Catalog text in pieces, so that a large catalog never has to sit in (wasm) memory whole: catalogBegin(mode,
  // total_bytes) with mode "load" (like loadCatalog), "add" (addCatalog) or "validate"; then for each piece
  // catalogBuffer(n) (room for n bytes, valid until the next call) and catalogFeed(bytes written); then
  // catalogEnd(), which answers like loadCatalog. When the text is malformed it answers
  // {"ok": false, "retry_whole_text": true, ...}: the whole text, passed to loadCatalog/addCatalog/validate, then
  // gets the syntax error with its line and column.
  std::string catalogBegin(const std::string& mode, double total_bytes);
  char* catalogBuffer(size_t bytes);
  bool catalogFeed(size_t bytes);
  std::string catalogEnd();

  // Today's date (YYYY-MM-DD) for staleness checks; the page and CLI pass the real date.
  void setToday(const std::string& today);

  // Shorthands for call(name, text); the methods and their requests are described in core/src/api/methods.cpp.
  std::string loadGpus(const std::string& text) { return call("loadGpus", text); }
  std::string loadCatalog(const std::string& text) { return call("loadCatalog", text); }
  std::string addCatalog(const std::string& text) { return call("addCatalog", text); }
  std::string validate(const std::string& text) { return call("validate", text); }
  std::string loadPresets(const std::string& text) { return call("loadPresets", text); }
  std::string estimate(const std::string& request) { return call("estimate", request); }
  std::string rank(const std::string& request) { return call("rank", request); }
  std::string cost(const std::string& request) { return call("cost", request); }
  std::string importSkypilot(const std::string& csv, const std::string& options) { return call("importSkypilot", csv, options); }
  std::string advise(const std::string& request) { return call("advise", request); }
  std::string plan(const std::string& request) { return call("plan", request); }
  std::string mig(const std::string& request) { return call("mig", request); }
  std::string levers(const std::string& request) { return call("levers", request); }
  std::string compare(const std::string& request) { return call("compare", request); }
  std::string energy(const std::string& request) { return call("energy", request); }
  std::string tco(const std::string& request) { return call("tco", request); }
  std::string defaults() const;
  std::string presets() const;
  std::string gpus() const;
  std::string catalogSummary() const;

  // The loaded data, for native tests and the benchmark (include "model/catalog.hpp" to use them).
  const GpuDatabase& gpuDatabase() const;
  const Catalog& catalog() const;

  struct State;  // the engine's data (core/src/api/state.hpp)

 private:
  std::unique_ptr<State> state_;
};

}  // namespace gpuvalue
