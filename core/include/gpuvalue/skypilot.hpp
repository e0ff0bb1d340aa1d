// Import of SkyPilot catalog files (skypilot-org/skypilot-catalog `catalogs/v*/<cloud>/vms.csv`).
#pragma once
#include <string>

#include "gpuvalue/gpu_specs.hpp"
#include "gpuvalue/issues.hpp"
#include "gpuvalue/json_reader.hpp"

namespace gpuvalue {

struct SkypilotOptions {
  std::string provider;  // e.g. "AWS"; empty = "SkyPilot import"
  std::string as_of;     // date the file was taken (YYYY-MM-DD)
  std::string source;    // where the file came from
};

struct SkypilotImport {
  bool ok = false;
  json catalog;          // our catalog format: {"schema_version": 1, "instances": [...]}
  Issues issues;         // "line N" paths for skipped rows and unmapped GPU names (warnings)
  size_t rows = 0;
  size_t skipped = 0;
};

// Parses vms.csv by header name (column order differs per cloud), reads the Python-literal GpuInfo,
// merges availability-zone rows into one offer per instance type and region (min and median price).
SkypilotImport importSkypilotCsv(const std::string& csv_text, const GpuDatabase& gpus, const SkypilotOptions& opt);

// Splits CSV text into records (RFC 4180 quoting). Reports unterminated quotes with their line.
bool parseCsv(const std::string& text, std::vector<std::vector<std::string>>& rows, std::vector<size_t>& lines,
              Issues& issues);

// Converts a Python literal (single-quoted strings, True/False/None) to JSON text.
std::string pythonLiteralToJson(const std::string& s);

}  // namespace gpuvalue
