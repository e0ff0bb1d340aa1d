// messages: every message code the engine can emit, with its parameter names, for the message catalogs and their
// tests. {"ok": true, "messages": [{"code", "params": [names]}]}
#include "api/answer.hpp"
#include "api/state.hpp"
#include "io/messages.hpp"

namespace gpuvalue {

std::string apiMessages(EngineState&, const std::string&, const std::string&) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("messages").beginArray();
  for (const MessageSpec& m : messageTable()) {
    j.beginObject().field("code", m.code).key("params").beginArray();
    std::string name;
    for (const char* c = m.params;; ++c) {
      if (*c == ' ' || *c == '\0') {
        if (!name.empty()) j.value(name);
        name.clear();
        if (*c == '\0') break;
      } else {
        name += *c;
      }
    }
    j.endArray().endObject();
  }
  j.endArray().endObject();
  return out;
}

}  // namespace gpuvalue
