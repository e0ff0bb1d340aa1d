#include "io/messages.hpp"

#include <cmath>
#include <cstdio>

namespace gpuvalue {

Message& Message::num(const char* name, double value) {
  MessageParam p;
  p.name = name;
  p.number = std::isfinite(value) ? value : 0;
  params_.push_back(std::move(p));
  return *this;
}

Message& Message::text(const char* name, std::string value) {
  MessageParam p;
  p.name = name;
  p.is_text = true;
  p.text = std::move(value);
  params_.push_back(std::move(p));
  return *this;
}

std::string debugText(const Message& m) {
  std::string s = m.code() + "{";
  for (size_t i = 0; i < m.params().size(); ++i) {
    const MessageParam& p = m.params()[i];
    if (i) s += ",";
    s += p.name + "=";
    if (p.is_text) {
      s += p.text;
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", p.number);
      s += buf;
    }
  }
  return s + "}";
}

// The table of every code. A code is `area.what` in lower_snake; the parameters are listed in the order the
// engine writes them. tests/js/messages.test.mjs checks both catalogs against this table, and
// tests/js/message-use.test.mjs checks every message in the answers of the corpus against it.
const std::vector<MessageSpec>& messageTable() {
  static const std::vector<MessageSpec> table = {
#include "io/message_table.inc"
  };
  return table;
}

}  // namespace gpuvalue
