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
  s += debugText(issue.message);
  if (issue.warning) s += " (warning)";
  return s;
}

std::string excerpt(const std::string& value, size_t max_bytes) {
  if (value.size() <= max_bytes) return value;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  return value.substr(0, cut) + "\xE2\x80\xA6";
}

Message notOneOf(const std::string& value, const char* choices) {
  return Message("error.not_one_of").text("value", excerpt(value)).text("choices", choices);
}

}  // namespace gpuvalue
