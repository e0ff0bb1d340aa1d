// The dispatch table: every API method once, with its handler, the kind of argument it takes and a one-line
// description. Engine::call dispatches through it; Engine::methods() lists it for the bindings, the page's
// EngineClient and worker, the CLI, the tests and the fuzzers. Adding a method: its file in core/src/api/ and
// one row in methods.cpp.
#pragma once
#include <string>

#include "api/state.hpp"

namespace gpuvalue {

enum class ArgumentKind {
  kRequest,   // a JSON request object
  kDocument,  // a data document's text (GPU database, catalog, presets)
  kCsv,       // CSV text, with a JSON options object as the second argument
  kNone,      // nothing
};
const char* argumentKindName(ArgumentKind kind);  // "request", "document", "csv", "none"

// argument: the method's text argument; options: its second argument (kCsv only, else empty).
using ApiHandler = std::string (*)(EngineState& state, const std::string& argument, const std::string& options);

struct ApiMethod {
  const char* name;
  ApiHandler handler;
  ArgumentKind argument;
  const char* description;
};

// The table, and its length.
extern const ApiMethod kApiMethods[];
extern const size_t kApiMethodCount;
// The row named `name`, or nullptr.
const ApiMethod* findApiMethod(const std::string& name);

}  // namespace gpuvalue
