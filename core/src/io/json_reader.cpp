#include "io/json_reader.hpp"

#include <cmath>
#include <vector>

#include "io/json_writer.hpp"
#include "io/limits.hpp"

namespace gpuvalue {

std::string pointerEscape(const std::string& key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// "line L, column C" of a byte offset (columns count bytes, from 1).
static std::string lineColumn(const std::string& text, size_t pos) {
  size_t l = 1, col = 1;
  for (size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') { ++l; col = 1; } else { ++col; }
  }
  return "line " + std::to_string(l) + ", column " + std::to_string(col);
}

// The last piece of a lexer's token text: nlohmann's "last read" holds everything since the previous token
// ("{<U+000A>  /"); the character that went wrong is after the last white space.
static std::string lastPiece(const std::string& token) {
  size_t cut = 0;
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == ' ' || token[i] == '\t') cut = i + 1;
    else if (token.compare(i, 3, "<U+") == 0 && token.find('>', i) != std::string::npos) cut = token.find('>', i) + 1;
  }
  return cut < token.size() ? token.substr(cut) : token;
}

// The explanation of a nlohmann parse error: "syntax error while parsing value - invalid literal; last read: 'x'"
// (a lexer error: a malformed string or literal) or "... - unexpected ']'; expected ..." (a token out of place).
static Message syntaxMessage(const char* what, const std::string& library_text) {
  const size_t a = library_text.find("last read: '");
  if (a != std::string::npos) {
    const size_t from = a + 12;
    size_t to = library_text.find("'; expected", from);
    if (to == std::string::npos) to = library_text.rfind('\'');
    const std::string token = to > from ? library_text.substr(from, to - from) : "";
    if (library_text.find("invalid string") != std::string::npos)  // the string read so far, without its opening quote
      return Message("error.json_string").text("what", what).text("token", excerpt(token.substr(token.empty() || token[0] != '"' ? 0 : 1), 40));
    if (!token.empty() && library_text.find("unexpected end of input") == std::string::npos)
      return Message("error.json_syntax").text("what", what).text("token", excerpt(lastPiece(token), 40));
    return Message("error.json_end").text("what", what);
  }
  const size_t u = library_text.find("unexpected ");
  std::string kind = u == std::string::npos ? "" : library_text.substr(u + 11, library_text.find(';', u) - u - 11);
  if (kind.empty() || kind.find("end of input") != std::string::npos) return Message("error.json_end").text("what", what);
  if (kind.size() >= 2 && kind.front() == '\'' && kind.back() == '\'')
    return Message("error.json_syntax").text("what", what).text("token", kind.substr(1, kind.size() - 2));
  // "string literal", "number literal", "true literal" …: a value where the grammar wants something else.
  return Message("error.json_unexpected_value").text("what", what)
      .text("kind", kind == "string literal" ? "string" : (kind == "number literal" ? "number" : "literal"));
}

// Offset of the first number token equal to `token` outside strings, or npos.
static size_t findNumberToken(const std::string& text, const std::string& token) {
  auto numberChar = [](char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; };
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (text.compare(i, token.size(), token) == 0 && (i == 0 || !numberChar(text[i - 1])) &&
               (i + token.size() >= text.size() || !numberChar(text[i + token.size()]))) {
      return i;
    }
  }
  return std::string::npos;
}

bool parseJsonText(const std::string& text, json& out, Issues& issues, const char* what, size_t max_bytes) {
  if (text.size() > max_bytes) {
    issues.push_back({ErrorCode::kTooLarge, "",
                      Message("error.too_large").text("what", what).num("byte_value", static_cast<double>(text.size()))
                          .num("max_byte_value", static_cast<double>(max_bytes))});
    return false;
  }
  // Reject absurd nesting before nlohmann's recursive parser sees it (stack safety in wasm), and documents with
  // more values than memory allows (each ',' '[' '{' outside strings starts at most one value or member).
  size_t values = 1;
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  size_t line = 1;
  for (char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == ',') ++values;
    else if (c == '[' || c == '{') {
      ++values;
      if (++depth > max_depth) max_depth = depth;
      if (depth > 256) {
        issues.push_back({ErrorCode::kJsonSyntax, "line " + std::to_string(line),
                          Message("error.too_deep").text("what", what).num("level_count", 256)});
        return false;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  if (values > kMaxJsonValues) {
    issues.push_back({ErrorCode::kTooLarge, "",
                      Message("error.too_many_values").text("what", what).num("value_count", static_cast<double>(kMaxJsonValues))});
    return false;
  }
  try {
    out = json::parse(text);
    return true;
  } catch (const json::parse_error& e) {
    // The byte offset becomes the line and column of the path.
    const std::string where = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
    issues.push_back({ErrorCode::kJsonSyntax, where, syntaxMessage(what, e.what())});
    return false;
  } catch (const json::out_of_range& e) {
    // A number beyond the range of a double (1e400): nlohmann names the token but not its position.
    const std::string msg = e.what();
    const size_t a = msg.find('\''), b = msg.rfind('\'');
    const std::string token = a != std::string::npos && b > a + 1 ? msg.substr(a + 1, b - a - 1) : "";
    const size_t pos = token.empty() ? std::string::npos : findNumberToken(text, token);
    issues.push_back({ErrorCode::kJsonSyntax, pos == std::string::npos ? "line 1" : lineColumn(text, pos),
                      Message("error.json_number_range").text("what", what).text("token", excerpt(token, 40))});
    return false;
  } catch (const std::exception& e) {
    issues.push_back({ErrorCode::kJsonSyntax, "line 1", Message("error.json_invalid").text("what", what)});
    return false;
  }
}

std::string dumpJson(const json& j, int indent) {
  // nlohmann writes NaN and Infinity as null; count them so that tests can insist there are none (iterative walk:
  // answers may echo user documents).
  std::vector<const json*> stack{&j};
  while (!stack.empty()) {
    const json* v = stack.back();
    stack.pop_back();
    if (v->is_number_float()) {
      if (!std::isfinite(v->get<double>())) noteNonFiniteNumber();
    } else if (v->is_structured()) {
      for (const auto& child : *v) stack.push_back(&child);
    }
  }
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

ObjectReader::ObjectReader(const json& obj, std::string path, Issues& issues)
    : obj_(obj), path_(std::move(path)), issues_(issues), is_object_(obj.is_object()) {
  if (!is_object_) issues_.push_back({ErrorCode::kInvalidValue, path_, Message("error.not_object")});
}

bool ObjectReader::has(const std::string& key) const { return is_object_ && obj_.contains(key) && !obj_.at(key).is_null(); }

const json* ObjectReader::get(const std::string& key) const {
  if (!is_object_) return nullptr;
  auto it = obj_.find(key);
  if (it == obj_.end()) return nullptr;
  return &*it;
}

void ObjectReader::error(const std::string& key, ErrorCode code, Message message) {
  issues_.push_back({code, key.empty() ? path_ : childPath(key), std::move(message)});
}

void ObjectReader::errorAt(const std::string& path, ErrorCode code, Message message) {
  issues_.push_back({code, path, std::move(message)});
}

void ObjectReader::warn(const std::string& key, Message message) {
  issues_.push_back({ErrorCode::kInvalidValue, key.empty() ? path_ : childPath(key), std::move(message), true});
}

std::optional<double> ObjectReader::number(const std::string& key, bool required, double min, bool min_exclusive,
                                           double max, bool max_exclusive) {
  const json* v = get(key);
  if (!v || v->is_null()) {
    if (required && is_object_) error(key, ErrorCode::kMissingField, Message("error.required"));
    return std::nullopt;
  }
  // The message is built only on failure: this runs for every field of every offer. lower/upper "none": no bound.
  auto rule = [&](const char* code) {
    return Message(code).text("lower", min <= -1e300 ? "none" : (min_exclusive ? "open" : "closed")).num("min", min > -1e300 ? min : 0)
        .text("upper", max >= 1e300 ? "none" : (max_exclusive ? "open" : "closed")).num("max", max < 1e300 ? max : 0);
  };
  if (!v->is_number()) {
    error(key, ErrorCode::kInvalidValue, rule("error.number_range"));
    return std::nullopt;
  }
  double d = v->get<double>();
  if (!std::isfinite(d) || (min_exclusive ? !(d > min) : !(d >= min)) || (max_exclusive ? !(d < max) : d > max)) {
    error(key, ErrorCode::kInvalidValue, rule("error.number_out_of_range").num("value", d));
    return std::nullopt;
  }
  return d;
}

std::optional<long long> ObjectReader::integer(const std::string& key, bool required, long long min, long long max) {
  const json* v = get(key);
  if (!v || v->is_null()) {
    if (required && is_object_) error(key, ErrorCode::kMissingField, Message("error.required"));
    return std::nullopt;
  }
  auto rule = [&](const char* code) {
    return Message(code).num("min", static_cast<double>(min)).num("max", static_cast<double>(max));
  };
  if (!v->is_number()) {
    error(key, ErrorCode::kInvalidValue, rule("error.integer_range"));
    return std::nullopt;
  }
  double d = v->get<double>();
  if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(min) || d > static_cast<double>(max)) {
    error(key, ErrorCode::kInvalidValue, rule("error.integer_out_of_range").num("value", d));
    return std::nullopt;
  }
  return static_cast<long long>(d);
}

std::optional<std::string> ObjectReader::string(const std::string& key, bool required) {
  const json* v = get(key);
  if (!v || v->is_null()) {
    if (required && is_object_) error(key, ErrorCode::kMissingField, Message("error.required"));
    return std::nullopt;
  }
  if (!v->is_string()) {
    error(key, ErrorCode::kInvalidValue, Message("error.not_string"));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<bool> ObjectReader::boolean(const std::string& key, bool required) {
  const json* v = get(key);
  if (!v || v->is_null()) {
    if (required && is_object_) error(key, ErrorCode::kMissingField, Message("error.required"));
    return std::nullopt;
  }
  if (!v->is_boolean()) {
    error(key, ErrorCode::kInvalidValue, Message("error.not_boolean"));
    return std::nullopt;
  }
  return v->get<bool>();
}

}  // namespace gpuvalue
