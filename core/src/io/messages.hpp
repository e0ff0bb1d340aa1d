// User-facing sentences as data: a message is a stable dotted code with named parameters; the page, the widget and
// the CLI render it from their message catalogs (web/src/i18n/messages.*.json). The engine assembles no prose.
// Parameter names carry their unit, so one formatter renders them: *_usd money, *_hours durations, *_gb sizes,
// *_fraction shares, *_count counts, gpu a GPU id (rendered as the GPU's name), date an ISO date.
#pragma once
#include <string>
#include <vector>

namespace gpuvalue {

struct MessageParam {
  std::string name;
  bool is_text = false;
  double number = 0;
  std::string text;
};

class Message {
 public:
  Message() = default;
  explicit Message(std::string code) : code_(std::move(code)) {}
  Message& num(const char* name, double value);
  Message& text(const char* name, std::string value);
  const std::string& code() const { return code_; }
  const std::vector<MessageParam>& params() const { return params_; }
  bool empty() const { return code_.empty(); }

 private:
  std::string code_;
  std::vector<MessageParam> params_;
};

using Messages = std::vector<Message>;

// One row of the table of every code the engine can emit, with its parameter names (space-separated, in order).
struct MessageSpec {
  const char* code;
  const char* params;
};

// Every message code with its parameters; the `messages` API method answers this table.
const std::vector<MessageSpec>& messageTable();

// "code{name=value,...}": a compact form for tests and logs, not for users.
std::string debugText(const Message& m);

}  // namespace gpuvalue
