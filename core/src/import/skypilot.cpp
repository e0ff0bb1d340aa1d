#include "import/skypilot.hpp"
#include "io/text_stream.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

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

// Sums of two catalog prices (0.73948 + 2.93391) carry binary noise (3.6733900000000004); the catalog has at most
// 6 decimals, so rounding to 1e-9 gives back the decimal sum.
double tidy(double v) { return std::round(v * 1e9) / 1e9; }

std::string num(double v) {
  TextStream os;
  os.fixed();
  os.precision(6);
  os << v;
  std::string s = os.str();
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string slug(const std::string& s) {
  std::string o;
  for (char c : toLower(s)) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '-';
  return o;
}

bool startsWith(const std::string& s, const char* p) { return s.compare(0, std::strlen(p), p) == 0; }
bool contains(const std::string& s, const char* p) { return s.find(p) != std::string::npos; }

// "2-19, 25, 40-44" (at most max_ranges ranges, then ", ...").
std::string lineRanges(std::vector<size_t> lines, size_t max_ranges = 20) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  std::string out;
  size_t ranges = 0;
  for (size_t i = 0; i < lines.size();) {
    size_t j = i;
    while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
    if (ranges++ == max_ranges) return out + ", ...";
    if (!out.empty()) out += ", ";
    out += std::to_string(lines[i]);
    if (j > i) out += "-" + std::to_string(lines[j]);
    i = j + 1;
  }
  return out;
}

std::string linesLabel(const std::vector<size_t>& lines) {
  return (lines.size() == 1 ? "line " : "lines ") + lineRanges(lines);
}

// The GpuInfo cell: a Python-literal dict (AWS, GCP, Lambda, RunPod) or a bare GPU name (Azure, GCP TPUs).
struct GpuInfoCell {
  double size_mib = 0;  // Gpus[0].MemoryInfo.SizeInMiB as written (RunPod writes GB there)
  std::string name;     // Gpus[0].Name, e.g. "A100 PCIe" on RunPod
};

GpuInfoCell readGpuInfo(const std::string& cell, std::map<std::string, GpuInfoCell>& cache) {
  auto it = cache.find(cell);
  if (it != cache.end()) return it->second;
  GpuInfoCell info;
  json gi = json::parse(pythonLiteralToJson(cell), nullptr, false);
  if (gi.is_object() && gi.contains("Gpus") && gi["Gpus"].is_array() && !gi["Gpus"].empty() && gi["Gpus"][0].is_object()) {
    const json& g0 = gi["Gpus"][0];
    if (g0.contains("MemoryInfo") && g0["MemoryInfo"].is_object() && g0["MemoryInfo"].contains("SizeInMiB") &&
        g0["MemoryInfo"]["SizeInMiB"].is_number())
      info.size_mib = g0["MemoryInfo"]["SizeInMiB"].get<double>();
    if (g0.contains("Name") && g0["Name"].is_string()) info.name = g0["Name"].get<std::string>();
  }
  cache[cell] = info;
  return info;
}

// GCP machine types whose GPUs are part of the machine, paired with the accelerator row that prices them, exactly
// as SkyPilot pairs them (skypilot-org/skypilot sky/catalog/gcp_catalog.py, _ACC_INSTANCE_TYPE_DICTS).
struct BuiltInGpus {
  const char* accelerator;
  int count;
  const char* machine;
};
const BuiltInGpus kGcpBuiltIn[] = {
    {"A100", 1, "a2-highgpu-1g"},       {"A100", 2, "a2-highgpu-2g"},       {"A100", 4, "a2-highgpu-4g"},
    {"A100", 8, "a2-highgpu-8g"},       {"A100", 16, "a2-megagpu-16g"},     {"A100-80GB", 1, "a2-ultragpu-1g"},
    {"A100-80GB", 2, "a2-ultragpu-2g"}, {"A100-80GB", 4, "a2-ultragpu-4g"}, {"A100-80GB", 8, "a2-ultragpu-8g"},
    {"L4", 1, "g2-standard-4"},         {"L4", 1, "g2-standard-8"},         {"L4", 1, "g2-standard-12"},
    {"L4", 1, "g2-standard-16"},        {"L4", 1, "g2-standard-32"},        {"L4", 2, "g2-standard-24"},
    {"L4", 4, "g2-standard-48"},        {"L4", 8, "g2-standard-96"},        {"H100", 1, "a3-highgpu-1g"},
    {"H100", 2, "a3-highgpu-2g"},       {"H100", 4, "a3-highgpu-4g"},       {"H100", 8, "a3-highgpu-8g"},
    {"H100-MEGA", 8, "a3-megagpu-8g"},  {"H200", 8, "a3-ultragpu-8g"},      {"B200", 8, "a4-highgpu-8g"},
};

// GCP machine families that only exist with GPUs built in: a host row of one of these that no accelerator row
// prices is a GPU offer we cannot price, not a CPU machine.
bool isGcpGpuMachine(const std::string& it) {
  return startsWith(it, "a2-") || startsWith(it, "a3-") || startsWith(it, "a4-") || startsWith(it, "a4x-") ||
         startsWith(it, "g2-") || startsWith(it, "g4-");
}

// vCPUs SkyPilot asks of the N1 host for N attachable GPUs (gcp_catalog.py _NUM_ACC_TO_NUM_CPU, "based on" AWS
// p2/p3/g4dn); it also asks >= 4 GiB of memory per vCPU (_DEFAULT_GPU_MEMORY_CPU_RATIO) and takes the cheapest
// n1-standard/highmem/highcpu machine in the zone that has both.
int n1HostCpus(const std::string& accelerator, int count) {
  struct Row { const char* accelerator; int count; int cpus; };
  static const Row kRows[] = {
      {"K80", 1, 4},   {"K80", 2, 8},   {"K80", 4, 16},  {"K80", 8, 32},  {"K80", 16, 64}, {"V100", 1, 8},
      {"V100", 2, 16}, {"V100", 4, 32}, {"V100", 8, 64}, {"T4", 1, 4},    {"T4", 2, 8},    {"T4", 4, 48},
      {"P100", 1, 8},  {"P100", 2, 16}, {"P100", 4, 32}, {"P100", 8, 64}, {"", 1, 8},      {"", 2, 16},
      {"", 4, 32},     {"", 8, 64},     {"", 16, 128},
  };
  bool known = false;
  for (const auto& r : kRows) known = known || accelerator == r.accelerator;
  for (const auto& r : kRows)
    if ((known ? accelerator == r.accelerator : r.accelerator[0] == '\0') && r.count == count) return r.cpus;
  return 0;
}

// A row without an accelerator that has an instance type: a CPU machine, or on GCP the host part of a GPU machine.
struct HostRow {
  std::string instance_type, region, zone;
  double vcpus = 0, memory_gib = 0, price = 0, spot = 0;
  bool has_price = false, has_spot = false;
  size_t row = 0, line = 0;
};

// A row with an accelerator and no instance type: GCP's price of N attached GPUs in one zone.
struct AcceleratorRow {
  std::string name, region, zone;
  int count = 0;
  double price = 0, spot = 0;
  bool has_spot = false;
  GpuInfoCell info;
  size_t row = 0, line = 0;
};

// One offer being assembled: one instance type (or host + GPUs) in one region, one price per zone.
struct Group {
  std::string instance_type, region, gpu_id, accel_name, interconnect, notes;
  int gpu_count = 0;
  double vcpus = 0, ram_gb = 0, memory_gb_per_gpu = 0;
  std::vector<double> prices, spots;
  size_t first_line = 0;
  bool composed = false;
  std::string cheapest_sum;  // "us-central1-a: 0.73948 + 2.93391 = 3.67339"
  double cheapest = 0;
};

}  // namespace

SkypilotImport importSkypilotCsv(const std::string& text, const GpuDatabase& gpus, const SkypilotOptions& opt) {
  SkypilotImport imp;
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> lines;
  // A UTF-8 byte order mark (as spreadsheet programs write) would stick to the first header name.
  const bool bom = text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0;
  if (!parseCsv(bom ? text.substr(3) : text, rows, lines, imp.issues)) return imp;
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

  std::vector<char> used(rows.size(), 0);     // row fed an offer
  std::vector<char> reported(rows.size(), 0);  // row already named in an issue
  size_t skipped_logged = 0;
  auto skip = [&](size_t i, const std::string& why) {
    reported[i] = 1;
    if (skipped_logged++ < 50)
      imp.issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(lines[i]),
                            why + (contains(why, "skipped") ? "" : "; row skipped"), true});
  };
  auto warnLines = [&](const std::vector<size_t>& rows_idx, const std::string& why) {
    std::vector<size_t> ls;
    for (size_t i : rows_idx) {
      reported[i] = 1;
      ls.push_back(lines[i]);
    }
    imp.issues.push_back({ErrorCode::kCsvFormat, linesLabel(ls), why, true});
  };
  std::map<std::string, std::vector<size_t>> unmapped;  // accelerator name -> lines
  std::map<std::string, GpuInfoCell> info_cache;
  std::set<std::string> memory_warned;

  // Maps an accelerator name (plus what GpuInfo and the instance type say) to a GPU of ours, or reports it.
  auto mapGpu = [&](size_t i, const std::string& accel, const GpuInfoCell& info, const std::string& instance_type,
                    double& memory_gb) -> const GpuSpec* {
    const GpuSpec* g = gpus.find(accel);
    if (!g) {
      auto& seen = unmapped[accel];
      seen.push_back(lines[i]);
      if (seen.size() == 1)
        imp.issues.push_back({ErrorCode::kUnknownId, "line " + std::to_string(lines[i]),
                              "GPU name \"" + accel + "\" maps to no GPU id; its rows are skipped", true});
      reported[i] = 1;
      return nullptr;
    }
    memory_gb = 0;
    if (info.size_mib >= 1024) {
      memory_gb = info.size_mib / 1024.0;
    } else if (info.size_mib > 0) {
      // RunPod writes GB into SizeInMiB ('SizeInMiB': 80 for an A100 80GB). Read it as GB when that matches the
      // named GPU; otherwise ignore it. Either way say so once per GPU name.
      bool as_gb = std::fabs(info.size_mib - g->memory_gb) <= 4;
      if (as_gb) memory_gb = info.size_mib;
      if (memory_warned.insert(accel).second)
        imp.issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(lines[i]),
                              "GpuInfo SizeInMiB " + num(info.size_mib) + " for \"" + accel + "\" is not MiB; " +
                                  (as_gb ? "read as GB (it matches the GPU)" : "ignored"),
                              true});
    }
    // "A100" with 81920 MiB is the 80 GB part.
    if (memory_gb > 0 && std::fabs(g->memory_gb - memory_gb) > 4) {
      for (const auto& cand : gpus.all()) {
        if (cand.architecture == g->architecture && std::fabs(cand.memory_gb - memory_gb) <= 4 &&
            toLower(cand.id).find(toLower(accel).substr(0, 4)) != std::string::npos) {
          g = &cand;
          break;
        }
      }
    }
    // PCIe cards named like the SXM part: GpuInfo "A100 PCIe" (RunPod) or "pcie" in the instance type
    // (Lambda gpu_1x_h100_pcie). Take the PCIe GPU of the same architecture and memory.
    const bool pcie_hint = contains(toLower(info.name), "pcie") || contains(toLower(instance_type), "pcie");
    if (pcie_hint && !contains(g->form_factor, "PCIe")) {
      const double want = memory_gb > 0 ? memory_gb : g->memory_gb;
      for (const auto& cand : gpus.all()) {
        if (cand.architecture == g->architecture && contains(cand.form_factor, "PCIe") &&
            std::fabs(cand.memory_gb - want) <= 4) {
          g = &cand;
          break;
        }
      }
    }
    return g;
  };
  // GPUs on a baseboard (SXM, OAM) come 1, 2, 4, 8 or 16 to a machine; anything else is a catalog error
  // (Azure v6 lists Standard_ND96isr_H100_v5 with 12 H100, the machine has 8).
  auto boardCountOk = [](const GpuSpec* g, int count) {
    if (contains(g->form_factor, "PCIe")) return true;
    return count == 1 || count == 2 || count == 4 || count == 8 || count == 16;
  };
  // The file never says how GPUs are linked. Board GPUs with NVLink are linked by NVLink (V100 boards) or NVSwitch
  // (A100 and later HGX boards); PCIe cards by PCIe.
  auto interconnectOf = [](const GpuSpec* g, int count) -> std::string {
    if (count <= 1) return "none";
    if (g->vendor == "AMD" && !contains(g->form_factor, "PCIe")) return "infinity-fabric";
    if (contains(g->form_factor, "PCIe") || g->nvlink_gbs <= 0) return "pcie";
    return g->architecture == "volta" ? "nvlink" : "nvswitch";
  };

  std::map<std::string, Group> groups;
  std::vector<std::string> order;
  std::vector<HostRow> hosts;
  std::vector<AcceleratorRow> accels;
  auto readHostFields = [&](const std::vector<std::string>& r, HostRow& h) {
    double v = 0;
    // Only values inside the catalog's limits (vcpus <= 1e5, ram_gb <= 1e6) are kept; others are left out.
    if (toNumber(cell(r, "vCPUs"), v) && v > 0 && v <= 1e5) h.vcpus = v;
    if (toNumber(cell(r, "MemoryGiB"), v) && v > 0 && v * 1.073741824 <= 1e6) h.memory_gib = v;
  };

  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ++imp.rows;
    if (r.size() != rows[0].size()) {
      skip(i, "row has " + std::to_string(r.size()) + " fields, the header has " + std::to_string(rows[0].size()));
      continue;
    }
    const std::string accel = cell(r, "AcceleratorName");
    const std::string it = cell(r, "InstanceType");
    double price = 0, spot = 0;
    // Prices above the catalog's limit of 1e6 USD/h are not prices.
    const bool has_price = toNumber(cell(r, "Price"), price) && price > 0 && price <= 1e6;
    const bool has_spot = toNumber(cell(r, "SpotPrice"), spot) && spot > 0 && spot <= 1e6;
    if (accel.empty()) {
      if (it.empty()) {
        skip(i, "row has neither an instance type nor an accelerator");
        continue;
      }
      HostRow h;
      h.instance_type = it;
      h.region = cell(r, "Region");
      h.zone = cell(r, "AvailabilityZone");
      readHostFields(r, h);
      h.price = has_price ? price : 0;
      h.has_price = has_price;
      h.spot = spot;
      h.has_spot = has_spot;
      h.row = i;
      h.line = lines[i];
      hosts.push_back(h);
      continue;
    }
    double count = 0;
    if (!toNumber(cell(r, "AcceleratorCount"), count) || count <= 0 || count != std::floor(count) || count > 1024) {
      skip(i, "AcceleratorCount \"" + cell(r, "AcceleratorCount") + "\" is not a positive whole number up to 1024");
      continue;
    }
    if (!has_price) {
      skip(i, "Price \"" + cell(r, "Price") + "\" is not a positive number");
      continue;
    }
    const GpuInfoCell info = readGpuInfo(cell(r, "GpuInfo"), info_cache);
    if (it.empty()) {  // GCP: the price of `count` GPUs alone, to add to a host row of the same zone
      AcceleratorRow a;
      a.name = accel;
      a.count = static_cast<int>(count);
      a.region = cell(r, "Region");
      a.zone = cell(r, "AvailabilityZone");
      a.price = price;
      a.spot = spot;
      a.has_spot = has_spot;
      a.info = info;
      a.row = i;
      a.line = lines[i];
      accels.push_back(a);
      continue;
    }
    double memory_gb = 0;
    const GpuSpec* g = mapGpu(i, accel, info, it, memory_gb);
    if (!g) continue;
    if (!boardCountOk(g, static_cast<int>(count))) {
      skip(i, "AcceleratorCount " + num(count) + " of " + g->id + " is not a count a " + g->form_factor +
                  " board comes in (1, 2, 4, 8, 16); the row looks wrong and is skipped");
      continue;
    }
    const std::string region = cell(r, "Region");
    const std::string key = it + "|" + region + "|" + accel + "|" + num(count);
    auto found = groups.find(key);
    if (found == groups.end()) {
      Group grp;
      grp.instance_type = it;
      grp.region = region;
      grp.gpu_id = g->id;
      grp.accel_name = accel;
      grp.gpu_count = static_cast<int>(count);
      HostRow fields;
      readHostFields(r, fields);
      grp.vcpus = fields.vcpus;
      grp.ram_gb = fields.memory_gib * 1.073741824;
      grp.memory_gb_per_gpu = memory_gb;
      grp.interconnect = interconnectOf(g, grp.gpu_count);
      grp.first_line = lines[i];
      found = groups.emplace(key, grp).first;
      order.push_back(key);
    }
    found->second.prices.push_back(price);
    if (has_spot) found->second.spots.push_back(std::min(spot, price));
    used[i] = 1;
  }

  // GCP: compose host + GPU offers zone by zone.
  if (!accels.empty()) {
    std::map<std::string, const HostRow*> host_at;              // machine|region|zone -> row
    std::map<std::string, std::vector<const HostRow*>> n1_at;  // region|zone -> n1 rows
    for (const auto& h : hosts) {
      host_at.emplace(h.instance_type + "|" + h.region + "|" + h.zone, &h);
      if (startsWith(h.instance_type, "n1-standard-") || startsWith(h.instance_type, "n1-highmem-") ||
          startsWith(h.instance_type, "n1-highcpu-"))
        n1_at[h.region + "|" + h.zone].push_back(&h);
    }
    std::map<std::string, std::vector<size_t>> no_host, zero_host;  // "1x T4" -> accelerator rows
    std::map<std::string, std::string> host_wanted;                 // "1x T4" -> what host it needs
    std::map<std::string, std::vector<size_t>> zero_host_rows;      // machine -> host rows priced 0
    std::set<std::string> paired_machines;
    for (const auto& a : accels) {
      double memory_gb = 0;
      const GpuSpec* g = mapGpu(a.row, a.name, a.info, "", memory_gb);
      if (!g) continue;
      const std::string what = std::to_string(a.count) + "x " + a.name;
      std::vector<std::pair<const HostRow*, std::string>> picks;  // host row, offer label
      bool built_in = false, zero_priced_host = false;
      for (const auto& b : kGcpBuiltIn) {
        if (a.name != b.accelerator) continue;
        built_in = true;
        paired_machines.insert(b.machine);
        if (b.count != a.count) continue;
        auto h = host_at.find(std::string(b.machine) + "|" + a.region + "|" + a.zone);
        if (h == host_at.end()) continue;
        if (!h->second->has_price) {
          zero_host_rows[b.machine].push_back(h->second->row);
          zero_priced_host = true;
          continue;
        }
        picks.push_back({h->second, b.machine});
      }
      if (!built_in) {
        const int cpus = n1HostCpus(a.name, a.count);
        const HostRow* best = nullptr;
        if (cpus > 0) {
          for (const HostRow* h : n1_at[a.region + "|" + a.zone])
            if (h->has_price && h->vcpus >= cpus && h->memory_gib >= 4.0 * cpus && (!best || h->price < best->price))
              best = h;
        }
        if (best) picks.push_back({best, best->instance_type + " + " + what});
      }
      if (picks.empty() && zero_priced_host) {
        zero_host[what].push_back(a.row);
        continue;
      }
      if (picks.empty()) {
        if (built_in) {
          std::string ms;
          for (const auto& b : kGcpBuiltIn)
            if (a.name == b.accelerator && a.count == b.count) ms += (ms.empty() ? "" : " or ") + std::string(b.machine);
          host_wanted[what] = ms.empty() ? "SkyPilot pairs " + what + " with no machine" : ms;
        } else {
          const int cpus = n1HostCpus(a.name, a.count);
          host_wanted[what] = cpus > 0 ? "an n1 machine with at least " + std::to_string(cpus) + " vCPUs and " +
                                             std::to_string(4 * cpus) + " GiB"
                                       : "SkyPilot knows no N1 host for " + what;
        }
        no_host[what].push_back(a.row);
        continue;
      }
      for (const auto& [h, label] : picks) {
        const std::string key = "compose|" + label + "|" + a.region;
        auto found = groups.find(key);
        if (found == groups.end()) {
          Group grp;
          grp.instance_type = label;
          grp.region = a.region;
          grp.gpu_id = g->id;
          grp.accel_name = a.name;
          grp.gpu_count = a.count;
          grp.vcpus = h->vcpus;
          grp.ram_gb = h->memory_gib * 1.073741824;
          grp.memory_gb_per_gpu = memory_gb;
          grp.interconnect = interconnectOf(g, a.count);
          grp.first_line = std::min(h->line, a.line);
          grp.composed = true;
          if (built_in)
            grp.notes = "GCP lists the " + h->instance_type + " machine and its " + what +
                        " on separate rows; each zone's price is the machine row plus the accelerator row of the "
                        "same zone, as SkyPilot adds them.";
          else
            grp.notes = "GCP prices an N1 machine and attached GPUs separately; the host is the cheapest "
                        "n1-standard/highmem/highcpu machine in the zone with at least " +
                        std::to_string(n1HostCpus(a.name, a.count)) + " vCPUs and " +
                        std::to_string(4 * n1HostCpus(a.name, a.count)) +
                        " GiB (SkyPilot's default host for " + what + "); each zone's price is that host row plus the " +
                        "accelerator row of the same zone.";
          found = groups.emplace(key, grp).first;
          order.push_back(key);
        }
        Group& grp = found->second;
        const double total = tidy(h->price + a.price);
        grp.prices.push_back(total);
        if (h->has_spot && a.has_spot) grp.spots.push_back(std::min(tidy(h->spot + a.spot), total));
        if (grp.cheapest_sum.empty() || total < grp.cheapest) {
          grp.cheapest = total;
          grp.cheapest_sum = a.zone + ": " + num(h->price) + " (line " + std::to_string(h->line) + ") + " +
                             num(a.price) + " (line " + std::to_string(a.line) + ") = " + num(total);
        }
        used[h->row] = 1;
        used[a.row] = 1;
      }
    }
    for (const auto& [machine, rs] : zero_host_rows)
      warnLines(rs, machine + " rows have no price (0.0 or empty), so its GPU offers cannot be priced; skipped");
    for (const auto& [what, rs] : zero_host)
      warnLines(rs, what + " accelerator rows pair with a machine whose price is 0.0; skipped");
    for (const auto& [what, rs] : no_host)
      warnLines(rs, what + " accelerator rows have no host row in the same zone to add them to (" + host_wanted[what] +
                        "); skipped");
    // GPU machines (a2-, a3-, g2- ...) that no accelerator row prices, e.g. a3-edgegpu-8g.
    std::map<std::string, std::vector<size_t>> unpriced;
    for (const auto& h : hosts)
      if (!used[h.row] && !reported[h.row] && isGcpGpuMachine(h.instance_type)) unpriced[h.instance_type].push_back(h.row);
    for (const auto& [machine, rs] : unpriced)
      warnLines(rs, machine + " has GPUs built in, but " +
                        (paired_machines.count(machine) ? std::string("no accelerator row of the same zone prices them")
                                                        : std::string("SkyPilot pairs it with no accelerator row, so "
                                                                      "its GPUs have no price here")) +
                        "; skipped");
  }

  // Remaining rows without an accelerator: CPU machines.
  std::vector<size_t> cpu_rows;
  for (const auto& h : hosts)
    if (!used[h.row] && !reported[h.row]) cpu_rows.push_back(h.row);
  if (!cpu_rows.empty()) {
    std::vector<size_t> ls;
    for (size_t i : cpu_rows) ls.push_back(lines[i]);
    imp.issues.push_back({ErrorCode::kCsvFormat, "",
                          std::to_string(cpu_rows.size()) + " rows without an accelerator were skipped (" +
                              linesLabel(ls) + ")",
                          true});
  }
  for (const auto& [name, ls] : unmapped)
    if (ls.size() > 1)
      imp.issues.push_back({ErrorCode::kUnknownId, "",
                            std::to_string(ls.size()) + " rows name \"" + name + "\" (" + linesLabel(ls) + "); all skipped",
                            true});
  if (skipped_logged > 50)
    imp.issues.push_back({ErrorCode::kCsvFormat, "", std::to_string(skipped_logged - 50) +
                                                         " more skipped rows not listed individually", true});
  for (size_t i = 1; i < rows.size(); ++i)
    if (!used[i]) ++imp.skipped;

  const std::string provider = opt.provider.empty() ? "SkyPilot import" : opt.provider;
  json instances = json::array();
  std::set<std::string> used_ids;
  for (const auto& key : order) {
    const Group& g = groups[key];
    double pmin = *std::min_element(g.prices.begin(), g.prices.end());
    json prices = json::array();
    prices.push_back({{"model", "on_demand"}, {"usd_per_hour", pmin}, {"zone_median_usd_per_hour", tidy(median(g.prices))},
                      {"as_of", opt.as_of}, {"source", opt.source}});
    if (!g.spots.empty())
      prices.push_back({{"model", "spot"}, {"usd_per_hour", *std::min_element(g.spots.begin(), g.spots.end())},
                        {"zone_median_usd_per_hour", tidy(median(g.spots))}, {"as_of", opt.as_of}, {"source", opt.source}});
    std::string notes = g.notes;
    if (g.composed) notes += " Cheapest zone " + g.cheapest_sum + " USD/h.";
    notes += (notes.empty() ? "" : " ") + std::string("On-demand and spot are the cheapest of ") +
             std::to_string(g.prices.size()) + (g.prices.size() == 1 ? " zone" : " zones") +
             " (zone_median_usd_per_hour: the median).";
    if (g.gpu_count > 1) notes += " Interconnect " + g.interconnect + " is inferred from the GPU; the file does not say.";
    // Ids are instance type + region; an offer of the same type and region with another GPU count gets the
    // count appended so that every id stays unique.
    std::string id = slug("skypilot-" + provider + "-" + g.instance_type + "-" + g.region);
    if (!used_ids.insert(id).second) {
      id = slug("skypilot-" + provider + "-" + g.instance_type + "-" + g.region + "-" + std::to_string(g.gpu_count) + "x" + g.gpu_id);
      for (int n = 2; !used_ids.insert(id).second; ++n) id += "-" + std::to_string(n);
    }
    json inst = {{"id", id},
                 {"provider", provider},
                 {"instance_type", g.instance_type},
                 {"gpu", g.gpu_id},
                 {"gpu_count", g.gpu_count},
                 {"region", g.region.empty() ? "unknown" : g.region},
                 {"currency", "USD"},
                 {"billing_increment_s", 1},
                 {"interconnect", g.interconnect},
                 {"zones", g.prices.size()},
                 {"source_line", g.first_line}};
    inst["prices"] = std::move(prices);
    if (g.vcpus > 0) inst["vcpus"] = g.vcpus;
    if (g.ram_gb > 0) inst["ram_gb"] = std::round(g.ram_gb * 10) / 10;
    if (g.memory_gb_per_gpu > 0) inst["gpu_memory_gb"] = g.memory_gb_per_gpu;
    inst["accelerator_name"] = g.accel_name;
    inst["notes"] = std::move(notes);
    instances.push_back(std::move(inst));
  }
  imp.catalog = json::object();
  imp.catalog["schema_version"] = 1;
  imp.catalog["instances"] = std::move(instances);
  imp.ok = true;
  return imp;
}

}  // namespace gpuvalue
