#include "io/json_writer.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "io/messages.hpp"

namespace gpuvalue {

namespace {
std::atomic<size_t> g_non_finite_numbers{0};
}  // namespace

size_t nonFiniteNumbersWritten() { return g_non_finite_numbers.load(std::memory_order_relaxed); }
void noteNonFiniteNumber() { g_non_finite_numbers.fetch_add(1, std::memory_order_relaxed); }

void appendJsonString(std::string& out, const char* text, size_t n) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text);
  // Runs of characters that need no escaping are appended at once (one call per run, not per character:
  // libc++'s std::string members are not inlined in wasm, and this writes every ranking answer).
  size_t run = 0;  // start of the current run
  out += '"';
  for (size_t i = 0; i < n;) {
    unsigned char c = p[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (i > run) out.append(text + run, i - run);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default: {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        }
      }
      run = ++i;
      continue;
    }
    // Validate one UTF-8 sequence (RFC 3629: no overlongs, no surrogates, <= U+10FFFF).
    size_t len = 0;
    unsigned cp = 0;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; }
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) ok = false;
      else cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if (ok && ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))))
      ok = false;
    if (ok) {
      // As \uXXXX escapes (a surrogate pair above U+FFFF): answers stay pure ASCII, which JavaScript decodes
      // and parses about twice as fast as text with a single non-Latin-1 character.
      char buf[16];
      if (cp < 0x10000) {
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      } else {
        const unsigned v = cp - 0x10000;
        std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
      }
      out += buf;
      i += len;
    } else {
      out += "\\ufffd";
      ++i;
    }
    run = i;
  }
  if (n > run) out.append(text + run, n - run);
  out += '"';
}

void appendJsonString(std::string& out, const std::string& s) { appendJsonString(out, s.data(), s.size()); }

// The separator as a character to put in front of a token (0 = none).
char JsonWriter::separatorChar() {
  if (after_key_) {
    after_key_ = false;
    return 0;
  }
  if (first_.empty()) return 0;
  const char c = first_.back() ? 0 : ',';
  first_.back() = false;
  return c;
}

void JsonWriter::put(const char* p, size_t n) {
  std::memcpy(room(n), p, n);
  n_ += n;
}

// True when none of the 8 bytes needs escaping: no byte < 0x20, >= 0x80, '"' or '\\' (SWAR, 8 bytes per step).
static bool plainWord(uint64_t x) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  auto zeroByte = [&](uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  return ((x | (x - kOnes * 0x20)) & kHigh) == 0 && !zeroByte(x ^ (kOnes * '"')) && !zeroByte(x ^ (kOnes * '\\'));
}

void JsonWriter::putString(const char* s, size_t n) {
  // Plain ASCII (the usual case) is copied as it is; anything else goes through appendJsonString.
  size_t i = 0;
  for (uint64_t w; i + 8 <= n; i += 8) {
    std::memcpy(&w, s + i, 8);
    if (!plainWord(w)) break;
  }
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') break;
    ++i;
  }
  if (i == n) {
    char* p = room(n + 2);
    p[0] = '"';
    std::memcpy(p + 1, s, n);
    p[n + 1] = '"';
    n_ += n + 2;
    return;
  }
  std::string escaped;
  appendJsonString(escaped, s, n);
  put(escaped.data(), escaped.size());
}

JsonWriter& JsonWriter::open(char bracket) {
  separator();
  put(bracket);
  first_.push_back(1);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  put(bracket);
  first_.pop_back();
  if (first_.empty()) trim();
  return *this;
}

JsonWriter& JsonWriter::key(const char* k) {
  // Keys are the engine's own ASCII literals: copied without the escaping scan.
  separator();
  const size_t n = std::strlen(k);
  char* p = room(n + 3);
  p[0] = '"';
  std::memcpy(p + 1, k, n);
  p[n + 1] = '"';
  p[n + 2] = ':';
  n_ += n + 3;
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& s) {
  separator();
  putString(s.data(), s.size());
  return *this;
}

JsonWriter& JsonWriter::value(const char* s) {
  separator();
  putString(s, std::strlen(s));
  return *this;
}

// Powers of ten as doubles (exact up to 1e22) and as 128-bit integers.
static const double kPow10Double[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// C / 10^q in fixed notation without trailing zeros after the point, signed like d; returns the length.
static int writeFixed(uint64_t C, int q, bool negative, char* p) {
  char digits[32];
  int n = 0;
  for (uint64_t c = C; c > 0 || n <= q; c /= 10) digits[n++] = static_cast<char>('0' + c % 10);
  int drop = 0;
  while (drop < q && digits[drop] == '0') ++drop;
  int len = 0;
  if (negative) p[len++] = '-';
  for (int i = n - 1; i >= q; --i) p[len++] = digits[i];
  if (drop < q) {
    p[len++] = '.';
    for (int i = q - 1; i >= drop; --i) p[len++] = digits[i];
  }
  return len;
}

// writeShortestDecimal for a finite, non-whole double of magnitude 1e-4 to 1e15, or 0 when it cannot (the
// smallest significand of a binade, whose lower neighbour is nearer). |d| = m / 2^E exactly. The 17-digit
// decimal of |d| is F17 + f (F17 = floor(m·10^q17 / 2^E), 0 <= f < 1), computed once; the candidate with P
// digits is F17 / 10^(17−P) rounded half to even with f. A candidate C / 10^q with C <= 2^53 and q <= 22 reads
// back as the double C / 10^q (both exact, one correctly rounded division: what strtod gives); a larger one is
// checked exactly: it reads back as |d| when |C·2^(E+1) − 2m·10^q| < 10^q (at equality the even significand
// wins the tie). 17 digits always read back.
static int writeShortestDecimal(double d, char* p) {
  using u128 = unsigned __int128;
  const double a = std::fabs(d);
  int exp2 = 0;
  const double frac = std::frexp(a, &exp2);  // a = frac · 2^exp2, frac in [0.5, 1)
  const uint64_t m = static_cast<uint64_t>(std::ldexp(frac, 53));
  const int E = 53 - exp2;                    // a = m / 2^E; E > 0 for a non-whole a < 1e15
  if (m == (uint64_t{1} << 52) || E <= 0 || E > 100) return 0;
  int k = 0;  // floor(log10 a), from integer comparisons
  if (E < 64 && (m >> E) > 0) {
    for (uint64_t ip = m >> E; ip >= 10; ip /= 10) ++k;
  } else {
    u128 v = m;
    while (v < (u128{1} << E)) { v *= 10; --k; }
  }
  const int q17 = 16 - k;  // 2..20
  u128 pow = 1;
  for (int i = 0; i < q17; ++i) pow *= 10;
  const u128 scaled = m * pow;
  const uint64_t F17 = static_cast<uint64_t>(scaled >> E);
  const u128 rem = scaled - (u128{F17} << E), half = u128{1} << (E - 1);
  for (int P = 15; P <= 17; ++P) {
    const uint64_t D = P == 15 ? 100 : P == 16 ? 10 : 1;
    uint64_t C = F17 / D;
    const uint64_t low = F17 % D;  // with f, what rounding drops
    bool up;
    if (D == 1) up = rem > half || (rem == half && (C & 1));
    else if (2 * low != D) up = 2 * low > D;
    else up = rem > 0 || (C & 1);
    if (up) ++C;
    const int q = q17 - (17 - P);
    if (P < 17) {
      bool reads_back;
      if (C <= (uint64_t{1} << 53)) {
        reads_back = static_cast<double>(C) / kPow10Double[q] == a;
      } else {
        u128 pq = 1;
        for (int i = 0; i < q; ++i) pq *= 10;
        const u128 lhs = u128{C} << (E + 1), rhs = (u128{2} * m) * pq;
        const u128 gap = lhs > rhs ? lhs - rhs : rhs - lhs;
        reads_back = gap < pq || (gap == pq && (m & 1) == 0);
      }
      if (!reads_back) continue;
    }
    return writeFixed(C, q, d < 0, p);
  }
  return 0;
}

// The shortest of 15, 16 and 17 significant digits that reads back as the same double (17 always does), in
// printf's %g form, into p (room for 32 characters); returns the length. Doubles of magnitude 1e-4 to 1e15 are
// rounded with exact integer arithmetic (printf's long double arithmetic is software-emulated in wasm and was the
// largest cost of writing ranking results); the rest go through snprintf and strtod.
static int writeShortestDouble(double d, char* p) {
  const double a = std::fabs(d);
  if (a >= 1e-4 && a < 1e15) {
    const int n = writeShortestDecimal(d, p);
    if (n > 0) return n;
  }
  int n = 0;
  for (int digits = 15; digits <= 17; ++digits) {
    n = std::snprintf(p, 32, "%.*g", digits, d);
    if (digits == 17 || std::strtod(p, nullptr) == d) break;
  }
  return n;
}

JsonWriter& JsonWriter::value(double d) {
  if (!std::isfinite(d)) {
    noteNonFiniteNumber();
    d = 0;
  }
  separator();
  // Whole numbers below 1e15 (counts, zeros, round prices): their digits and ".0", exactly what the general
  // routine below writes for them, without its arithmetic.
  if (d == std::floor(d) && std::fabs(d) < 1e15) {
    char buf[24];
    char* end = buf + sizeof buf;
    char* q = end;
    *--q = '0';
    *--q = '.';
    unsigned long long v = static_cast<unsigned long long>(std::fabs(d));
    do {
      *--q = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    if (std::signbit(d)) *--q = '-';
    put(q, static_cast<size_t>(end - q));
    return *this;
  }
  char* p = room(32);
  n_ += static_cast<size_t>(writeShortestDouble(d, p));
  return *this;
}

JsonWriter& JsonWriter::value(int i) { return value(static_cast<long long>(i)); }

JsonWriter& JsonWriter::value(long long i) {
  separator();
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%lld", i);
  put(buf, static_cast<size_t>(n));
  return *this;
}

JsonWriter& JsonWriter::value(size_t i) { return value(static_cast<long long>(i)); }

JsonWriter& JsonWriter::value(bool b) {
  separator();
  if (b) put("true", 4);
  else put("false", 5);
  return *this;
}

JsonWriter& JsonWriter::value(const std::vector<std::string>& list) {
  beginArray();
  for (const auto& s : list) value(s);
  return endArray();
}

JsonWriter& JsonWriter::value(const Message& m) {
  if (m.empty()) return null();
  beginObject().field("code", m.code()).key("params").beginObject();
  for (const auto& p : m.params()) {
    key(p.name);
    if (p.is_text) value(p.text);
    else value(p.number);
  }
  return endObject().endObject();
}

JsonWriter& JsonWriter::value(const std::vector<Message>& list) {
  beginArray();
  for (const auto& m : list) value(m);
  return endArray();
}

JsonWriter& JsonWriter::key(const std::string& k) {
  separator();
  putString(k.data(), k.size());
  put(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::null() {
  separator();
  put("null", 4);
  return *this;
}

template <class Doc>
JsonWriter& JsonWriter::writeDocument(const Doc& doc) {
  using Type = nlohmann::json::value_t;
  switch (doc.type()) {
    case Type::object:
      beginObject();
      for (auto it = doc.begin(); it != doc.end(); ++it) key(it.key()).writeDocument(it.value());
      return endObject();
    case Type::array:
      beginArray();
      for (const auto& v : doc) writeDocument(v);
      return endArray();
    case Type::string: return value(doc.template get_ref<const std::string&>());
    case Type::boolean: return value(doc.template get<bool>());
    case Type::number_integer: return value(doc.template get<long long>());
    case Type::number_unsigned: {
      const unsigned long long u = doc.template get<unsigned long long>();
      return u <= 9223372036854775807ull ? value(static_cast<long long>(u)) : value(static_cast<double>(u));
    }
    case Type::number_float: return value(doc.template get<double>());
    default: return null();
  }
}

JsonWriter& JsonWriter::document(const nlohmann::json& doc) { return writeDocument(doc); }
JsonWriter& JsonWriter::document(const nlohmann::ordered_json& doc) { return writeDocument(doc); }

JsonWriter& JsonWriter::raw(const std::string& text) {
  separator();
  put(text.data(), text.size());
  return *this;
}

}  // namespace gpuvalue
