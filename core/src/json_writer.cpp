#include "gpuvalue/json_writer.hpp"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

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
      out.append(text + i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
    run = i;
  }
  if (n > run) out.append(text + run, n - run);
  out += '"';
}

void appendJsonString(std::string& out, const std::string& s) { appendJsonString(out, s.data(), s.size()); }

void JsonWriter::separator() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

// The separator as a character to put in front of a token (0 = none); the token is then appended in one call.
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

JsonWriter& JsonWriter::beginObject() {
  separator();
  out_ += '{';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  out_ += '}';
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::beginArray() {
  separator();
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  out_ += ']';
  first_.pop_back();
  return *this;
}

// Plain ASCII text that needs no escaping (keys and most values): copied as it is.
static bool plainAscii(const char* s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  return true;
}

// Appends [sep]"text"[suffix] in one call when the text is short and plain (libc++'s std::string members are
// not inlined in wasm: one call per token instead of four or five).
static bool appendPlain(std::string& out, char sep, const char* s, size_t n, char suffix) {
  char buf[160];
  if (n + 4 > sizeof buf || !plainAscii(s, n)) return false;
  size_t k = 0;
  if (sep) buf[k++] = sep;
  buf[k++] = '"';
  std::memcpy(buf + k, s, n);
  k += n;
  buf[k++] = '"';
  if (suffix) buf[k++] = suffix;
  out.append(buf, k);
  return true;
}

JsonWriter& JsonWriter::key(const char* k) {
  const size_t n = std::strlen(k);
  const char sep = separatorChar();
  if (!appendPlain(out_, sep, k, n, ':')) {
    if (sep) out_ += sep;
    appendJsonString(out_, k, n);
    out_ += ':';
  }
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& s) {
  const char sep = separatorChar();
  if (!appendPlain(out_, sep, s.data(), s.size(), 0)) {
    if (sep) out_ += sep;
    appendJsonString(out_, s);
  }
  return *this;
}

JsonWriter& JsonWriter::value(const char* s) {
  const size_t n = std::strlen(s);
  const char sep = separatorChar();
  if (!appendPlain(out_, sep, s, n, 0)) {
    if (sep) out_ += sep;
    appendJsonString(out_, s, n);
  }
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  if (!std::isfinite(d)) {
    noteNonFiniteNumber();
    d = 0;
  }
  // Shortest round-trip form (Grisu2, the same routine nlohmann::json's dump uses); snprintf("%.17g") was
  // the largest cost of writing ranking results. Separator and number go in one append.
  char buf[64];
  char* p = buf;
  if (const char sep = separatorChar()) *p++ = sep;
  char* end = nlohmann::detail::to_chars(p, buf + sizeof buf, d);
  out_.append(buf, static_cast<size_t>(end - buf));
  return *this;
}

JsonWriter& JsonWriter::value(int i) { return value(static_cast<long long>(i)); }

JsonWriter& JsonWriter::value(long long i) {
  char buf[32];
  char* p = buf;
  if (const char sep = separatorChar()) *p++ = sep;
  const int n = std::snprintf(p, sizeof buf - 1, "%lld", i);
  out_.append(buf, static_cast<size_t>(p - buf + n));
  return *this;
}

JsonWriter& JsonWriter::value(size_t i) { return value(static_cast<long long>(i)); }

JsonWriter& JsonWriter::value(bool b) {
  char buf[8];
  char* p = buf;
  if (const char sep = separatorChar()) *p++ = sep;
  std::memcpy(p, b ? "true" : "false", b ? 4 : 5);
  out_.append(buf, static_cast<size_t>(p - buf) + (b ? 4 : 5));
  return *this;
}

JsonWriter& JsonWriter::value(const std::vector<std::string>& list) {
  beginArray();
  for (const auto& s : list) value(s);
  return endArray();
}

JsonWriter& JsonWriter::raw(const std::string& text) {
  separator();
  out_ += text;
  return *this;
}

}  // namespace gpuvalue
