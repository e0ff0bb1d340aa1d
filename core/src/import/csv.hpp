// CSV records and Python literals: the text formats of SkyPilot catalog files.
#pragma once
#include <string>
#include <vector>

#include "io/issues.hpp"

namespace gpuvalue {

// Splits CSV text into records (RFC 4180 quoting). Reports unterminated quotes with their line.
bool parseCsv(const std::string& text, std::vector<std::vector<std::string>>& rows, std::vector<size_t>& lines,
              Issues& issues);

// Converts a Python literal (single-quoted strings, True/False/None) to JSON text.
std::string pythonLiteralToJson(const std::string& s);

}  // namespace gpuvalue
