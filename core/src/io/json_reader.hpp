// Field-by-field reading of JSON objects that records every problem with its JSON Pointer
// path instead of stopping at the first one.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "io/issues.hpp"

namespace gpuvalue {

using nlohmann::json;

// Escapes a key for use in a JSON Pointer (RFC 6901: "~" -> "~0", "/" -> "~1").
std::string pointerEscape(const std::string& key);

// Parses text as JSON; on a syntax error adds one issue (path "line L, column C") and returns false. Text longer
// than max_bytes, or with more than kMaxJsonValues values (io/limits.hpp), is refused with a too_large issue before
// anything is built. `what` names the document in messages: request, catalog, gpus, presets, options or document.
bool parseJsonText(const std::string& text, json& out, Issues& issues, const char* what,
                   size_t max_bytes = static_cast<size_t>(-1));

// Serialises without throwing, replacing invalid UTF-8.
std::string dumpJson(const json& j, int indent = -1);

class ObjectReader {
 public:
  ObjectReader(const json& obj, std::string path, Issues& issues);

  bool ok() const { return is_object_; }
  const std::string& path() const { return path_; }
  std::string childPath(const std::string& key) const { return path_ + "/" + pointerEscape(key); }
  bool has(const std::string& key) const;
  const json* get(const std::string& key) const;

  // A number that must be finite and > min (exclusive) or >= min (inclusive) and <= max (< max when
  // max_exclusive).
  std::optional<double> number(const std::string& key, bool required, double min, bool min_exclusive,
                               double max = 1e300, bool max_exclusive = false);
  std::optional<std::string> string(const std::string& key, bool required);
  std::optional<bool> boolean(const std::string& key, bool required);
  // An integer count (>= min).
  std::optional<long long> integer(const std::string& key, bool required, long long min, long long max);

  void error(const std::string& key, ErrorCode code, Message message);
  // An error at a path below this object (e.g. an array item: childPath(key) + "/3").
  void errorAt(const std::string& path, ErrorCode code, Message message);
  void warn(const std::string& key, Message message);

 private:
  const json& obj_;
  std::string path_;
  Issues& issues_;
  bool is_object_;
};

}  // namespace gpuvalue
