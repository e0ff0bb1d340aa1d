// parse_measurement: one measured run, from the probe script's JSON line (`gpuvalue probe`) or typed in short
// ("3150 tokens/s on a100-sxm4-80gb x8"), as the measurement object that estimate, rank and compare take in
// "measurements". {"text"}. Errors point into the line: a JSON Pointer into the probe line's JSON, or "column C"
// of the short form.
#include <cctype>
#include <cstdlib>

#include "api/measurements.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

std::string trimmed(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// The 1-based column of byte `at` in UTF-8 text (continuation bytes do not start a column).
std::string columnOf(const std::string& s, size_t at) {
  size_t col = 1;
  for (size_t i = 0; i < at && i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++col;
  return "column " + std::to_string(col);
}

// The probe script's line: {"gpuvalue_probe", "gpu_name", "gpu_memory_gb", "gpu_count", "tokens_per_s" |
// "samples_per_s", "precision", "peak_memory_gb", "step_s", "layers_run"?, "layers"?, ...}, or its failure
// {"gpuvalue_probe", "error"}.
bool readProbeLine(const GpuDatabase& gpus, const std::string& line, Measurement& m, Issues& issues) {
  json j;
  if (!parseJsonText(line, j, issues, "measurement", kMaxRequestBytes)) return false;
  ObjectReader r(j, "", issues);
  if (!r.ok()) {
    issues.push_back({ErrorCode::kInvalidValue, "", Message("error.measurement_not_probe")});
    return false;
  }
  // The marker's presence is what counts (the probe writes 1); its value is not read.
  if (!r.has(T::kProbeMarker.name)) {
    r.error(T::kProbeMarker.name, ErrorCode::kMissingField, Message("error.measurement_not_probe"));
    return false;
  }
  if (auto failure = readString(r, T::kProbeError)) {
    r.error(T::kProbeError.name, ErrorCode::kInvalidValue, Message("error.measurement_probe_failed").text("reason", excerpt(*failure, 200)));
    return false;
  }
  const std::string name = readString(r, T::kProbeGpuName).value_or("");
  const double memory_gb = numberOr(r, T::kProbeGpuMemory);
  m.gpu = name.empty() ? nullptr : gpuByReportedName(gpus, name, memory_gb);
  if (!m.gpu && !name.empty()) r.error(T::kProbeGpuName.name, ErrorCode::kUnknownId, Message("error.unknown_gpu").text("id", excerpt(name)));
  m.count = integerOr(r, T::kProbeGpuCount, 1);
  // The rest is a measurement object's members under the same names.
  json as_measurement = json::object();
  for (const char* key : {"tokens_per_s", "samples_per_s", "precision", "peak_memory_gb", "layers_run", "layers"})
    if (j.contains(key)) as_measurement[key] = j[key];
  as_measurement["gpu"] = m.gpu ? m.gpu->id : std::string("?");
  as_measurement["source"] = "probe";
  if (!m.gpu) return false;
  // Problems of those members are reported at their place in the probe line (the same names).
  ObjectReader mr(as_measurement, "", issues);
  const int count = m.count;
  const bool ok = readMeasurement(gpus, mr, m) && !hasErrors(issues);
  m.count = count;
  return ok;
}

struct Unit {
  const char* text;
  bool tokens;
};
const Unit kUnits[] = {{"tokens/s", true},   {"token/s", true},   {"tok/s", true},     {"tokens/sec", true},
                       {"samples/s", false}, {"sample/s", false}, {"samples/sec", false}, {"img/s", false},
                       {"images/s", false},  {"imgs/s", false}};

// "3150 tokens/s on a100-sxm4-80gb x8": a rate (digits with optional thousands commas, decimals, exponent), a unit,
// "on", a GPU id or a name the database knows, then optionally ×N, *N or " xN" (1 GPU when absent).
bool readShortForm(const GpuDatabase& gpus, const std::string& s, Measurement& m, Issues& issues) {
  auto fail = [&](size_t at, Message message, ErrorCode code = ErrorCode::kInvalidValue) {
    issues.push_back({code, columnOf(s, at), std::move(message)});
    return false;
  };
  size_t i = 0;
  std::string digits;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == ',' || s[i] == '.' ||
                          ((s[i] == 'e' || s[i] == 'E') && i > 0) || ((s[i] == '+' || s[i] == '-') && i > 0 && (s[i - 1] == 'e' || s[i - 1] == 'E')))) {
    if (s[i] != ',') digits += s[i];
    ++i;
  }
  char* end = nullptr;
  const double rate = digits.empty() ? 0 : std::strtod(digits.c_str(), &end);
  if (digits.empty() || *end != '\0' || !(rate > 0) || rate > 1e15) return fail(0, Message("error.measurement_rate"));
  while (i < s.size() && s[i] == ' ') ++i;
  const size_t unit_at = i;
  while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  const std::string unit = toLower(s.substr(unit_at, i - unit_at));
  const Unit* u = nullptr;
  for (const Unit& x : kUnits)
    if (unit == x.text) u = &x;
  if (!u) return fail(unit_at, Message("error.measurement_unit_unknown").text("value", excerpt(unit)));
  while (i < s.size() && s[i] == ' ') ++i;
  if (toLower(s.substr(i, 2)) != "on" || (i + 2 < s.size() && s[i + 2] != ' ')) return fail(i, Message("error.measurement_on"));
  i += 2;
  while (i < s.size() && s[i] == ' ') ++i;
  const size_t gpu_at = i;
  // The count: the last ×, x or * followed only by digits (and spaces).
  std::string gpu_text = s.substr(gpu_at);
  int count = 1;
  size_t k = gpu_text.size();
  while (k > 0 && std::isdigit(static_cast<unsigned char>(gpu_text[k - 1]))) --k;
  if (k < gpu_text.size()) {
    size_t mark = k;
    while (mark > 0 && gpu_text[mark - 1] == ' ') --mark;
    size_t mark_len = 0;
    if (mark >= 2 && gpu_text.compare(mark - 2, 2, "\xC3\x97") == 0) mark_len = 2;  // ×
    else if (mark >= 1 && gpu_text[mark - 1] == '*') mark_len = 1;
    // x only as a word of its own ("a100 x8"): "rtx4090" is a name.
    else if (mark >= 2 && (gpu_text[mark - 1] == 'x' || gpu_text[mark - 1] == 'X') && gpu_text[mark - 2] == ' ') mark_len = 1;
    if (mark_len > 0 && mark > mark_len) {
      const std::string n = gpu_text.substr(k);
      if (n.size() > 6 || std::atoi(n.c_str()) < 1) return fail(gpu_at + k, Message("error.measurement_count").text("value", excerpt(n)));
      count = std::atoi(n.c_str());
      gpu_text = trimmed(gpu_text.substr(0, mark - mark_len));
    }
  }
  if (gpu_text.empty()) return fail(gpu_at, Message("error.measurement_gpu_missing"));
  m.gpu = gpuByReportedName(gpus, gpu_text, 0);
  if (!m.gpu) return fail(gpu_at, Message("error.unknown_gpu").text("id", excerpt(gpu_text)), ErrorCode::kUnknownId);
  m.count = count;
  (u->tokens ? m.tokens_per_s : m.samples_per_s) = rate;
  m.source = "typed";
  return true;
}

}  // namespace

std::string apiParseMeasurement(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  const std::string line = trimmed(readString(r, T::kText).value_or(""));
  if (r.failed()) return r.errorAnswer();
  Measurement m;
  const bool ok = !line.empty() && line[0] == '{' ? readProbeLine(s.gpus, line, m, r.issues()) : readShortForm(s.gpus, line, m, r.issues());
  if (!ok || r.failed()) {
    if (!r.failed()) r.issues().push_back({ErrorCode::kInvalidValue, "", Message("error.measurement_rate")});
    return r.errorAnswer();
  }
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).key("measurement");
  writeMeasurement(j, m);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
