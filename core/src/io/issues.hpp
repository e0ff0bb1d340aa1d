// Problems found in user input, reported as data (never thrown across the API).
#pragma once
#include <string>
#include <vector>

namespace gpuvalue {

// One table of error codes for the whole engine; JS receives `code` as this string.
enum class ErrorCode {
  kOk,
  kJsonSyntax,       // text is not JSON (message carries line and column)
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
  std::string message;   // plain English sentence fragment, e.g. "must be a finite number > 0"
  bool warning = false;  // warnings do not block a load
};

using Issues = std::vector<Issue>;

// True when any issue is an error (not a warning).
bool hasErrors(const Issues& issues);

// "path: message" for display.
std::string formatIssue(const Issue& issue);

}  // namespace gpuvalue
