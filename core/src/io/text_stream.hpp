// A minimal stand-in for std::ostringstream when building sentences: libc++'s streams bring ~55 KB of locale
// code into the wasm engine (a seventh of its code), and the offline page has a size budget.
#pragma once
#include <cstdio>
#include <string>

namespace gpuvalue {

class TextStream {
 public:
  TextStream& operator<<(const std::string& s) { out_ += s; return *this; }
  TextStream& operator<<(const char* s) { out_ += s; return *this; }
  TextStream& operator<<(char c) { out_ += c; return *this; }
  TextStream& operator<<(int v) { return integer("%d", v); }
  TextStream& operator<<(long v) { return integer("%ld", v); }
  TextStream& operator<<(long long v) { return integer("%lld", v); }
  TextStream& operator<<(unsigned v) { return integer("%u", v); }
  TextStream& operator<<(unsigned long v) { return integer("%lu", v); }
  TextStream& operator<<(unsigned long long v) { return integer("%llu", v); }
  // As an ostream prints a double: %g with the precision (6 unless set), or %f after fixed().
  TextStream& operator<<(double v) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fixed_ ? "%.*f" : "%.*g", precision_, v);
    out_ += buf;
    return *this;
  }
  void fixed() { fixed_ = true; }
  void precision(int p) { precision_ = p; }
  const std::string& str() const { return out_; }

 private:
  template <typename T>
  TextStream& integer(const char* format, T v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    out_ += buf;
    return *this;
  }
  std::string out_;
  bool fixed_ = false;
  int precision_ = 6;
};

}  // namespace gpuvalue
