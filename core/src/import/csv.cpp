#include "import/csv.hpp"

namespace gpuvalue {

bool parseCsv(const std::string& text, std::vector<std::vector<std::string>>& rows, std::vector<size_t>& lines,
              Issues& issues) {
  std::vector<std::string> row;
  std::string field;
  bool in_quotes = false, field_started = false;
  size_t line = 1, row_line = 1, quote_line = 0;
  auto endField = [&] {
    row.push_back(field);
    field.clear();
    field_started = false;
  };
  auto endRow = [&] {
    endField();
    if (!(row.size() == 1 && row[0].empty())) {
      rows.push_back(row);
      lines.push_back(row_line);
    }
    row.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') { field += '"'; ++i; }
        else in_quotes = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"') {
      if (field_started && !field.empty()) {
        issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(line), Message("import.stray_quote")});
        return false;
      }
      in_quotes = true;
      field_started = true;
      quote_line = line;
    } else if (c == ',') {
      endField();
    } else if (c == '\n') {
      endRow();
      ++line;
      row_line = line;
    } else if (c == '\r') {
      // CRLF ends a row at its '\n'; a CR alone (old Mac files) ends one here.
      if (i + 1 >= text.size() || text[i + 1] != '\n') {
        endRow();
        ++line;
        row_line = line;
      }
    } else {
      field += c;
      field_started = true;
    }
  }
  if (in_quotes) {
    issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(quote_line), Message("import.unclosed_quote")});
    return false;
  }
  if (!field.empty() || !row.empty()) endRow();
  return true;
}

std::string pythonLiteralToJson(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\'' || c == '"') {
      char q = c;
      out += '"';
      for (++i; i < s.size() && s[i] != q; ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          char n = s[++i];
          if (n == '\'') out += '\'';
          else { out += '\\'; out += n; }
        } else if (s[i] == '"') {
          out += "\\\"";
        } else {
          out += s[i];
        }
      }
      out += '"';
    } else if (s.compare(i, 4, "True") == 0) { out += "true"; i += 3; }
    else if (s.compare(i, 5, "False") == 0) { out += "false"; i += 4; }
    else if (s.compare(i, 4, "None") == 0) { out += "null"; i += 3; }
    else out += c;
  }
  return out;
}

}  // namespace gpuvalue
