#include "gpuvalue/skypilot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

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
        issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(line), "stray quote inside an unquoted field"});
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
      // ignore (CRLF)
    } else {
      field += c;
      field_started = true;
    }
  }
  if (in_quotes) {
    issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(quote_line), "quoted field is never closed"});
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

namespace {

bool toNumber(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end && *end == '\0' && std::isfinite(out);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

std::string slug(const std::string& s) {
  std::string o;
  for (char c : toLower(s)) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '-';
  return o;
}

struct Group {
  std::string instance_type, region, gpu_id, accel_name;
  double gpu_count = 0, vcpus = 0, ram_gb = 0, mem_gib_per_gpu = 0;
  std::vector<double> prices, spots;
  size_t first_line = 0;
};

}  // namespace

SkypilotImport importSkypilotCsv(const std::string& text, const GpuDatabase& gpus, const SkypilotOptions& opt) {
  SkypilotImport imp;
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> lines;
  if (!parseCsv(text, rows, lines, imp.issues)) return imp;
  if (rows.empty()) {
    imp.issues.push_back({ErrorCode::kCsvFormat, "line 1", "the file is empty"});
    return imp;
  }
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
  if (col.count("GPUInfo") && !col.count("GpuInfo")) col["GpuInfo"] = col["GPUInfo"];
  for (const char* need : {"InstanceType", "AcceleratorName", "AcceleratorCount", "Region", "Price"}) {
    if (!col.count(need))
      imp.issues.push_back({ErrorCode::kCsvFormat, "line 1", std::string("header has no ") + need + " column"});
  }
  if (hasErrors(imp.issues)) return imp;
  auto cell = [&](const std::vector<std::string>& r, const char* name) -> std::string {
    auto it = col.find(name);
    return (it != col.end() && it->second < r.size()) ? r[it->second] : std::string();
  };
  std::map<std::string, Group> groups;
  std::vector<std::string> order;
  std::map<std::string, size_t> unmapped;
  size_t no_gpu = 0, skipped_logged = 0;
  auto skip = [&](size_t line, const std::string& why) {
    ++imp.skipped;
    if (skipped_logged++ < 50) imp.issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(line), why, true});
  };
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const size_t line = lines[i];
    ++imp.rows;
    if (r.size() != rows[0].size()) {
      skip(line, "row has " + std::to_string(r.size()) + " fields, the header has " + std::to_string(rows[0].size()));
      continue;
    }
    std::string accel = cell(r, "AcceleratorName");
    if (accel.empty()) { ++no_gpu; ++imp.skipped; continue; }
    double count = 0, price = 0, spot = 0;
    if (!toNumber(cell(r, "AcceleratorCount"), count) || count <= 0 || count != std::floor(count)) {
      skip(line, "AcceleratorCount \"" + cell(r, "AcceleratorCount") + "\" is not a positive whole number");
      continue;
    }
    if (!toNumber(cell(r, "Price"), price) || price <= 0) {
      skip(line, "Price \"" + cell(r, "Price") + "\" is not a positive number");
      continue;
    }
    bool has_spot = toNumber(cell(r, "SpotPrice"), spot) && spot > 0;
    // GPU memory per device from GpuInfo's SizeInMiB (TotalGpuMemoryInMiB means different things per cloud).
    double mib = 0;
    std::string info = cell(r, "GpuInfo");
    std::string name_in_info;
    if (!info.empty()) {
      json gi = json::parse(pythonLiteralToJson(info), nullptr, false);
      if (gi.is_object() && gi.contains("Gpus") && gi["Gpus"].is_array() && !gi["Gpus"].empty()) {
        const json& g0 = gi["Gpus"][0];
        if (g0.contains("MemoryInfo") && g0["MemoryInfo"].is_object() && g0["MemoryInfo"].contains("SizeInMiB") &&
            g0["MemoryInfo"]["SizeInMiB"].is_number())
          mib = g0["MemoryInfo"]["SizeInMiB"].get<double>();
        if (g0.contains("Name") && g0["Name"].is_string()) name_in_info = g0["Name"].get<std::string>();
      }
    }
    const GpuSpec* g = gpus.find(accel);
    // Disambiguate by memory: "A100" with 81920 MiB is the 80 GB part.
    if (g && mib > 0 && std::fabs(g->memory_gb - mib / 1024.0) > 4) {
      for (const auto& cand : gpus.all()) {
        if (cand.architecture == g->architecture && std::fabs(cand.memory_gb - mib / 1024.0) <= 4 &&
            toLower(cand.id).find(toLower(accel).substr(0, 4)) != std::string::npos) {
          g = &cand;
          break;
        }
      }
    }
    if (!g) {
      if (unmapped[accel]++ == 0)
        imp.issues.push_back({ErrorCode::kUnknownId, "line " + std::to_string(line), "GPU name \"" + accel + "\" maps to no GPU id; its rows are skipped", true});
      ++imp.skipped;
      continue;
    }
    std::string it = cell(r, "InstanceType");
    std::string region = cell(r, "Region");
    std::string key = it + "|" + region + "|" + accel + "|" + std::to_string(static_cast<int>(count));
    auto found = groups.find(key);
    if (found == groups.end()) {
      Group grp;
      grp.instance_type = it.empty() ? std::to_string(static_cast<int>(count)) + "x " + accel : it;
      grp.region = region;
      grp.gpu_id = g->id;
      grp.accel_name = accel;
      grp.gpu_count = count;
      double v = 0;
      if (toNumber(cell(r, "vCPUs"), v)) grp.vcpus = v;
      if (toNumber(cell(r, "MemoryGiB"), v)) grp.ram_gb = v * 1.073741824;
      grp.mem_gib_per_gpu = mib / 1024.0;
      grp.first_line = line;
      found = groups.emplace(key, grp).first;
      order.push_back(key);
    }
    found->second.prices.push_back(price);
    if (has_spot) found->second.spots.push_back(std::min(spot, price));
  }
  if (no_gpu > 0)
    imp.issues.push_back({ErrorCode::kCsvFormat, "", std::to_string(no_gpu) + " rows without an accelerator were skipped", true});
  if (imp.skipped > skipped_logged && skipped_logged >= 50)
    imp.issues.push_back({ErrorCode::kCsvFormat, "", "more skipped rows not listed individually", true});
  const std::string provider = opt.provider.empty() ? "SkyPilot import" : opt.provider;
  json instances = json::array();
  for (const auto& key : order) {
    const Group& g = groups[key];
    double pmin = *std::min_element(g.prices.begin(), g.prices.end());
    json prices = json::array();
    prices.push_back({{"model", "on_demand"}, {"usd_per_hour", pmin}, {"zone_median_usd_per_hour", median(g.prices)},
                      {"as_of", opt.as_of}, {"source", opt.source}});
    if (!g.spots.empty())
      prices.push_back({{"model", "spot"}, {"usd_per_hour", *std::min_element(g.spots.begin(), g.spots.end())},
                        {"zone_median_usd_per_hour", median(g.spots)}, {"as_of", opt.as_of}, {"source", opt.source}});
    json inst = {{"id", slug("skypilot-" + provider + "-" + g.instance_type + "-" + g.region)},
                 {"provider", provider},
                 {"instance_type", g.instance_type},
                 {"gpu", g.gpu_id},
                 {"gpu_count", static_cast<int>(g.gpu_count)},
                 {"region", g.region.empty() ? "unknown" : g.region},
                 {"currency", "USD"},
                 {"billing_increment_s", 1},
                 {"interconnect", g.gpu_count > 1 ? "pcie" : "none"},
                 {"zones", g.prices.size()},
                 {"source_line", g.first_line},
                 {"prices", prices}};
    if (g.vcpus > 0) inst["vcpus"] = g.vcpus;
    if (g.ram_gb > 0) inst["ram_gb"] = std::round(g.ram_gb * 10) / 10;
    if (g.mem_gib_per_gpu > 0) inst["gpu_memory_gb"] = g.mem_gib_per_gpu;
    inst["accelerator_name"] = g.accel_name;
    instances.push_back(inst);
  }
  imp.catalog = {{"schema_version", 1}, {"instances", instances}};
  imp.ok = true;
  return imp;
}

}  // namespace gpuvalue
