#include "io/issues.hpp"

namespace gpuvalue {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kJsonSyntax: return "json_syntax";
    case ErrorCode::kInvalidValue: return "invalid_value";
    case ErrorCode::kMissingField: return "missing_field";
    case ErrorCode::kUnknownId: return "unknown_id";
    case ErrorCode::kDuplicateId: return "duplicate_id";
    case ErrorCode::kCsvFormat: return "csv_format";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kTooLarge: return "too_large";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

bool hasErrors(const Issues& issues) {
  for (const auto& i : issues)
    if (!i.warning) return true;
  return false;
}

std::string formatIssue(const Issue& issue) {
  std::string s = issue.path.empty() ? std::string("/") : issue.path;
  s += ": ";
  s += issue.message;
  if (issue.warning) s += " (warning)";
  return s;
}

}  // namespace gpuvalue
