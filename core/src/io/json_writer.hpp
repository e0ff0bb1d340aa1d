// A small append-only JSON writer for hot outputs (ranking results): no intermediate DOM.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpuvalue {

class Message;

// Writes into `out` through its own cursor: `out` is grown ahead and trimmed when the outermost object or array
// is closed (or the writer is destroyed), so each token is a memcpy, not a call into libc++'s std::string
// (whose members are not inlined in wasm). Read `out` only after closing the outermost container.
class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out), n_(out.size()) {}
  ~JsonWriter() { trim(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  JsonWriter& beginObject() { return open('{'); }
  JsonWriter& endObject() { return close('}'); }
  JsonWriter& beginArray() { return open('['); }
  JsonWriter& endArray() { return close(']'); }
  JsonWriter& key(const char* k);          // one of the engine's own ASCII literals (not escaped)
  JsonWriter& key(const std::string& k);   // any text (escaped)
  JsonWriter& value(const std::string& s);
  JsonWriter& value(const char* s);
  JsonWriter& value(double d);   // non-finite numbers are written as 0 (outputs never carry NaN/Infinity)
  JsonWriter& value(int i);
  JsonWriter& value(long long i);
  JsonWriter& value(size_t i);
  JsonWriter& value(bool b);
  JsonWriter& value(const std::vector<std::string>& list);
  JsonWriter& value(const Message& m);                // {"code", "params": {...}}
  JsonWriter& value(const std::vector<Message>& list);
  // A document held as a DOM because it was read from input (presets, an imported catalog): written member by
  // member in its own key order. Non-finite numbers are written as 0, like value(double). (Not an overload of
  // value(): nothing converts to a DOM by accident.)
  JsonWriter& document(const nlohmann::json& doc);
  JsonWriter& document(const nlohmann::ordered_json& doc);  // members in their stored order
  JsonWriter& null();
  // A quantity that is missing unless it is a positive finite number (a unit cost without the GPU's FP16 peak):
  // null, never a 0 that would read as free.
  JsonWriter& positiveOrNull(double v) { return (std::isfinite(v) && v > 0) ? value(v) : null(); }
  JsonWriter& raw(const std::string& json_text);  // an already serialised value
  template <typename T>
  JsonWriter& field(const char* k, const T& v) { return key(k).value(v); }

 private:
  template <class Doc>
  JsonWriter& writeDocument(const Doc& doc);  // document() for either member order
  char separatorChar();
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  void separator() {
    if (const char c = separatorChar()) put(c);
  }
  char* room(size_t n) {
    if (n_ + n > out_.size()) out_.resize(std::max<size_t>(2 * out_.size(), n_ + n + 4096));
    return &out_[n_];
  }
  void put(char c) {
    *room(1) = c;
    ++n_;
  }
  void put(const char* p, size_t n);
  void putString(const char* s, size_t n);  // as a JSON string literal
  void trim() {
    if (out_.size() != n_) out_.resize(n_);
  }
  std::string& out_;
  size_t n_;  // bytes written (out_ may be longer: room ahead)
  std::vector<char> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Appends s as a JSON string literal in ASCII: quotes, control characters and every non-ASCII character
// escaped (\uXXXX); invalid UTF-8 bytes become U+FFFD.
void appendJsonString(std::string& out, const std::string& s);
void appendJsonString(std::string& out, const char* text, size_t size);

// How many non-finite numbers (NaN, +-Infinity) the engine has tried to write into an answer since the process
// started. They never reach the text (JsonWriter writes 0, dumpJson writes null), but each one is a bug upstream:
// the property tests and the fuzzers assert that this stays 0.
size_t nonFiniteNumbersWritten();
void noteNonFiniteNumber();

}  // namespace gpuvalue
