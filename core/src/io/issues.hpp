// Problems found in user input, reported as data (never thrown across the API): an error class, the JSON Pointer
// path of the value, and an explanation that is a message (a code with parameters, io/messages.hpp) so that the
// page and the CLI say it in the reader's language.
#pragma once
#include <string>
#include <vector>

#include "io/messages.hpp"

namespace gpuvalue {

// One table of error codes for the whole engine; JS receives `code` as this string.
enum class ErrorCode {
  kOk,
  kJsonSyntax,       // text is not JSON (the path carries line and column)
  kInvalidValue,     // a field has the wrong type or an impossible value
  kMissingField,     // a required field is absent
  kUnknownId,        // a reference (GPU id, preset id, instance id) is unknown
  kDuplicateId,      // an id appears twice
  kCsvFormat,        // CSV structure problem (missing header, bad quoting)
  kNotFound,         // requested object does not exist
  kTooLarge,         // input beyond the engine's size limits (io/limits.hpp)
  kInternal,         // an unexpected failure inside the engine (a bug)
};

// Stable identifier for an error code (used by JS and the CLI).
const char* errorCodeName(ErrorCode code);

struct Issue {
  ErrorCode code = ErrorCode::kInvalidValue;
  std::string path;      // JSON Pointer ("/instances/3/prices/0/usd_per_hour") or "line N"
  Message message;       // what is wrong, e.g. error.number_range {lower, min, upper, max}
  bool warning = false;  // warnings do not block a load
};

using Issues = std::vector<Issue>;

// True when any issue is an error (not a warning).
bool hasErrors(const Issues& issues);

// "path: code{params}" for logs and test failures (not for users: they read the rendered message).
std::string formatIssue(const Issue& issue);

// A value of the input quoted in a message: at most max_bytes bytes (cut at a UTF-8 character boundary, "…" added).
std::string excerpt(const std::string& value, size_t max_bytes = 80);

// error.not_one_of: the value given (an excerpt) and the accepted ones ("none, selective, full").
Message notOneOf(const std::string& value, const char* choices);

}  // namespace gpuvalue
