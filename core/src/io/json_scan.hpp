// A small JSON lexer for the catalog's direct reader (io/catalog_stream.cpp): it skips values to find where
// they end, and reads flat objects whose members are scalars without building a DOM. It accepts only what
// nlohmann's parser accepts with the same value; anything else makes a function return false.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpuvalue {

inline bool isWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

enum class Scan { kOk, kMore, kBad };

// Advances i past one JSON value of t[0, n): kMore when the value may continue past n (more text to come),
// kBad on unbalanced brackets, a stray delimiter or nesting deeper than max_depth. Numbers, literals and string
// contents are checked when the value is parsed.
Scan skipValue(const char* t, size_t n, size_t& i, int max_depth, bool final);

struct Cursor {
  const char* p;
  const char* e;
  void ws() {
    while (p < e && isWs(*p)) ++p;
  }
  bool eat(char c) {
    ws();
    if (p < e && *p == c) { ++p; return true; }
    return false;
  }
};

// Length of the valid UTF-8 sequence at p (RFC 3629), 0 when invalid.
size_t utf8Sequence(const unsigned char* p, const unsigned char* e);
// A string whose bytes can be taken as they are (see json_scan.cpp); `escaped` flags simple escapes.
bool plainString(Cursor& c, const char*& s, size_t& len, bool& escaped);
// A JSON number, converted exactly as strtod does.
bool scanNumber(Cursor& c, double& out);
bool literal(Cursor& c, const char* word, size_t n);

// One member of a flat object: a scalar, or the raw extent of a nested array/object.
struct Member {
  const char* key;
  size_t key_len;
  enum Kind { kString, kNumber, kBool, kNull, kNested } kind;
  const char* s;  // string contents or nested text
  size_t len;
  bool escaped;   // a string with escapes: its text is not its value
  double num;
  bool b;
};

constexpr int kMaxMembers = 40;

// Reads an object whose members are scalars; nested values are allowed only under `nested_key` (kept raw).
bool flatObject(Cursor& c, Member* m, int& count, const char* nested_key);

}  // namespace gpuvalue
