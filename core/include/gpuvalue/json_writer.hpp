// A small append-only JSON writer for hot outputs (ranking results): no intermediate DOM.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace gpuvalue {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}
  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(const char* k);
  JsonWriter& value(const std::string& s);
  JsonWriter& value(const char* s);
  JsonWriter& value(double d);   // non-finite numbers are written as 0 (outputs never carry NaN/Infinity)
  JsonWriter& value(int i);
  JsonWriter& value(long long i);
  JsonWriter& value(size_t i);
  JsonWriter& value(bool b);
  JsonWriter& value(const std::vector<std::string>& list);
  JsonWriter& raw(const std::string& json_text);  // an already serialised value
  template <typename T>
  JsonWriter& field(const char* k, const T& v) { return key(k).value(v); }

 private:
  void separator();
  char separatorChar();
  std::string& out_;
  std::vector<char> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Appends s as a JSON string literal (quotes, escapes; invalid UTF-8 bytes become U+FFFD).
void appendJsonString(std::string& out, const std::string& s);
void appendJsonString(std::string& out, const char* text, size_t size);

// How many non-finite numbers (NaN, +-Infinity) the engine has tried to write into an answer since the process
// started. They never reach the text (JsonWriter writes 0, dumpJson writes null), but each one is a bug upstream:
// the property tests and the fuzzers assert that this stays 0.
size_t nonFiniteNumbersWritten();
void noteNonFiniteNumber();

}  // namespace gpuvalue
