#include "io/json_scan.hpp"

#include <cstdlib>
#include <cstring>

namespace gpuvalue {

// Advances i past one JSON value of t[0, n): kMore when the value may continue past n (more text to come),
// kBad on unbalanced brackets, a stray delimiter or nesting deeper than max_depth. Numbers, literals and string
// contents are checked when the value is parsed.
Scan skipValue(const char* t, size_t n, size_t& i, int max_depth, bool final) {
  const Scan more = final ? Scan::kBad : Scan::kMore;
  if (i >= n) return more;
  const char c = t[i];
  if (c == '"') {
    for (size_t j = i + 1; j < n; ++j) {
      if (t[j] == '\\') ++j;
      else if (t[j] == '"') { i = j + 1; return Scan::kOk; }
    }
    return more;
  }
  if (c == '{' || c == '[') {
    int depth = 0;
    bool in_string = false;
    for (size_t j = i; j < n; ++j) {
      const char d = t[j];
      if (in_string) {
        if (d == '\\') ++j;
        else if (d == '"') in_string = false;
      } else if (d == '"') {
        in_string = true;
      } else if (d == '{' || d == '[') {
        if (++depth > max_depth) return Scan::kBad;
      } else if (d == '}' || d == ']') {
        if (--depth == 0) { i = j + 1; return Scan::kOk; }
      }
    }
    return more;
  }
  size_t j = i;
  while (j < n && !isWs(t[j]) && t[j] != ',' && t[j] != '}' && t[j] != ']' && t[j] != ':') ++j;
  if (j == n && !final) return Scan::kMore;
  if (j == i) return Scan::kBad;
  i = j;
  return Scan::kOk;
}



// Length of the valid UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates, at most U+10FFFF, the rules
// the DOM parser applies), 0 when invalid.
size_t utf8Sequence(const unsigned char* p, const unsigned char* e) {
  const unsigned c = p[0];
  size_t len = 0;
  unsigned cp = 0;
  if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
  else return 0;
  if (static_cast<size_t>(e - p) < len) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return len;
}

// A string whose bytes can be taken as they are: valid UTF-8 without control characters. Simple escapes
// (\" \\ \/ \b \f \n \r \t) are accepted and flagged in `escaped` (the text then is not the value: only
// members that are skipped may have them); \u escapes go to the DOM reader (surrogate rules).
bool plainString(Cursor& c, const char*& s, size_t& len, bool& escaped) {
  c.ws();
  escaped = false;
  if (c.p >= c.e || *c.p != '"') return false;
  const unsigned char* q = reinterpret_cast<const unsigned char*>(++c.p);
  const unsigned char* e = reinterpret_cast<const unsigned char*>(c.e);
  while (q < e) {
    const unsigned char ch = *q;
    if (ch == '"') break;
    if (ch < 0x20) return false;
    if (ch == '\\') {
      if (q + 1 >= e || !std::strchr("\"\\/bfnrt", q[1]) || q[1] == 0) return false;
      escaped = true;
      q += 2;
    } else if (ch >= 0x80) {
      const size_t n = utf8Sequence(q, e);
      if (n == 0) return false;
      q += n;
    } else {
      ++q;
    }
  }
  if (q >= e) return false;
  s = c.p;
  len = static_cast<size_t>(reinterpret_cast<const char*>(q) - c.p);
  c.p = reinterpret_cast<const char*>(q) + 1;
  return true;
}

// Powers of ten that are exact in binary64.
static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                         1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A JSON number (RFC 8259 grammar), converted exactly as strtod does: mantissas below 2^53 with at most 22
// decimal exponents are one exact IEEE operation (correctly rounded); anything else goes through strtod.
bool scanNumber(Cursor& c, double& out) {
  c.ws();
  const char* p = c.p;
  const char* start = p;
  const char* e = c.e;
  auto digit = [&](const char* q) { return q < e && *q >= '0' && *q <= '9'; };
  bool neg = false;
  if (p < e && *p == '-') { neg = true; ++p; }
  uint64_t mant = 0;
  int exp10 = 0, sig = 0;
  bool exact = true;
  auto add = [&](int d, bool fraction) {
    if (mant == 0 && d == 0) {
      if (fraction) --exp10;
      return;
    }
    if (sig < 19) {
      mant = mant * 10 + static_cast<uint64_t>(d);
      ++sig;
      if (fraction) --exp10;
    } else {
      exact = false;
    }
  };
  if (!digit(p)) return false;
  if (*p == '0') {
    ++p;
  } else {
    while (digit(p)) add(*p++ - '0', false);
  }
  if (p < e && *p == '.') {
    ++p;
    if (!digit(p)) return false;
    while (digit(p)) add(*p++ - '0', true);
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    bool eneg = false;
    if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
    if (!digit(p)) return false;
    long x = 0;
    while (digit(p)) {
      if (x < 100000) x = x * 10 + (*p - '0');
      ++p;
    }
    exp10 += static_cast<int>(eneg ? -x : x);
  }
  c.p = p;
  if (exact && mant <= (1ull << 53) && exp10 >= -22 && exp10 <= 22) {
    double v = static_cast<double>(mant);
    v = exp10 < 0 ? v / kPow10[-exp10] : v * kPow10[exp10];
    out = neg ? -v : v;
    return true;
  }
  char buf[400];
  const size_t len = static_cast<size_t>(p - start);
  if (len >= sizeof buf) return false;
  std::memcpy(buf, start, len);
  buf[len] = 0;
  out = std::strtod(buf, nullptr);
  return true;
}

bool literal(Cursor& c, const char* word, size_t n) {
  if (static_cast<size_t>(c.e - c.p) < n || std::memcmp(c.p, word, n) != 0) return false;
  c.p += n;
  return true;
}


// Reads an object whose members are scalars; nested values are allowed only under `nested_key` (kept raw).
bool flatObject(Cursor& c, Member* m, int& count, const char* nested_key) {
  count = 0;
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  for (;;) {
    if (count == kMaxMembers) return false;
    Member& x = m[count];
    bool key_escaped = false;
    if (!plainString(c, x.key, x.key_len, key_escaped) || key_escaped) return false;
    x.escaped = false;
    for (int k = 0; k < count; ++k)  // duplicate keys: the DOM keeps the last one, leave that to it
      if (m[k].key_len == x.key_len && std::memcmp(m[k].key, x.key, x.key_len) == 0) return false;
    if (!c.eat(':')) return false;
    c.ws();
    if (c.p >= c.e) return false;
    const char ch = *c.p;
    if (ch == '"') {
      x.kind = Member::kString;
      if (!plainString(c, x.s, x.len, x.escaped)) return false;
    } else if (ch == 't') {
      x.kind = Member::kBool, x.b = true;
      if (!literal(c, "true", 4)) return false;
    } else if (ch == 'f') {
      x.kind = Member::kBool, x.b = false;
      if (!literal(c, "false", 5)) return false;
    } else if (ch == 'n') {
      x.kind = Member::kNull;
      if (!literal(c, "null", 4)) return false;
    } else if (ch == '[' || ch == '{') {
      if (!nested_key || std::strlen(nested_key) != x.key_len || std::memcmp(nested_key, x.key, x.key_len) != 0) return false;
      x.kind = Member::kNested;
      size_t i = 0;
      const size_t n = static_cast<size_t>(c.e - c.p);
      if (skipValue(c.p, n, i, 8, true) != Scan::kOk) return false;
      x.s = c.p;
      x.len = i;
      c.p += i;
    } else {
      x.kind = Member::kNumber;
      if (!scanNumber(c, x.num)) return false;
    }
    ++count;
    if (c.eat(',')) continue;
    if (c.eat('}')) return true;
    return false;
  }
}

}  // namespace gpuvalue
