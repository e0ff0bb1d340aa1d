// Interned strings for the values catalogs repeat (provider, region, GPU, instance type, dates, sources):
// one copy per distinct value for the whole process, 4 bytes per field in wasm. A 100,000-offer catalog
// holds a few hundred distinct values; as std::string fields they took ~200 bytes per offer.
#pragma once
#include <functional>
#include <string>

namespace gpuvalue {

class Atom {
 public:
  Atom() : s_(&emptyString()) {}
  Atom(const std::string& s) : s_(&intern(s)) {}  // NOLINT: converts like a string
  Atom(const char* s) : s_(&intern(std::string(s))) {}  // NOLINT
  Atom& operator=(const std::string& s) { s_ = &intern(s); return *this; }
  Atom& operator=(const char* s) { s_ = &intern(std::string(s)); return *this; }

  operator const std::string&() const { return *s_; }  // NOLINT
  const std::string& str() const { return *s_; }
  const char* c_str() const { return s_->c_str(); }
  const char* data() const { return s_->data(); }
  size_t size() const { return s_->size(); }
  bool empty() const { return s_->empty(); }

  friend bool operator==(const Atom& a, const Atom& b) { return a.s_ == b.s_; }
  friend bool operator!=(const Atom& a, const Atom& b) { return a.s_ != b.s_; }
  friend bool operator==(const Atom& a, const std::string& b) { return *a.s_ == b; }
  friend bool operator!=(const Atom& a, const std::string& b) { return *a.s_ != b; }
  friend bool operator==(const std::string& a, const Atom& b) { return a == *b.s_; }
  friend bool operator!=(const std::string& a, const Atom& b) { return a != *b.s_; }
  friend bool operator==(const Atom& a, const char* b) { return *a.s_ == b; }
  friend bool operator!=(const Atom& a, const char* b) { return *a.s_ != b; }
  friend bool operator<(const Atom& a, const Atom& b) { return *a.s_ < *b.s_; }
  friend std::string operator+(const std::string& a, const Atom& b) { return a + *b.s_; }
  friend std::string operator+(const Atom& a, const std::string& b) { return *a.s_ + b; }
  friend std::string operator+(const char* a, const Atom& b) { return a + *b.s_; }
  friend std::string operator+(const Atom& a, const char* b) { return *a.s_ + b; }

 private:
  static const std::string& emptyString();
  static const std::string& intern(const std::string& s);
  const std::string* s_;
};

}  // namespace gpuvalue

template <>
struct std::hash<gpuvalue::Atom> {
  size_t operator()(const gpuvalue::Atom& a) const { return std::hash<std::string>()(a.str()); }
};
