// importSkypilotCsv in steps over one ImportState: header mapping, row reading (with GPU-name mapping in
// skypilot_gpus.cpp), grouping zone prices by instance type and region, GCP composition (skypilot_gcp.cpp), the
// report of what fed no offer, id assignment and writing the catalog.
#include "import/skypilot.hpp"
#include "io/limits.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "import/skypilot_import.hpp"
#include "io/text_stream.hpp"

namespace gpuvalue {
namespace skypilot {

// A decimal number ("3.06", "1e-2"); strtod alone would also take hex ("0x1p3"), "inf" and "nan".
bool toNumber(const std::string& s, double& out) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end && *end == '\0' && std::isfinite(out);
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

bool startsWith(const std::string& s, const char* p) { return s.compare(0, std::strlen(p), p) == 0; }
bool contains(const std::string& s, const char* p) { return s.find(p) != std::string::npos; }

namespace {

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

}  // namespace

std::string linesLabel(const std::vector<size_t>& lines) {
  return (lines.size() == 1 ? "line " : "lines ") + lineRanges(lines);
}

std::string ImportState::cell(const Row& r, const char* name) const {
  auto it = col.find(name);
  return (it != col.end() && it->second < r.size()) ? r[it->second] : std::string();
}

void ImportState::skip(size_t i, Message why) {
  reported[i] = 1;
  if (skipped_logged++ < kMaxSkipsListed)
    imp.issues.push_back({ErrorCode::kCsvFormat, "line " + std::to_string(lines[i]), std::move(why), true});
}

void ImportState::warnLines(const std::vector<size_t>& rows_idx, Message why) {
  std::vector<size_t> ls;
  for (size_t i : rows_idx) {
    reported[i] = 1;
    ls.push_back(lines[i]);
  }
  imp.issues.push_back({ErrorCode::kCsvFormat, linesLabel(ls), std::move(why), true});
}

void readHostFields(const ImportState& s, const Row& r, HostRow& h) {
  double v = 0;
  // Only values inside the catalog's limits (vcpus <= 1e5, ram_gb <= 1e6) are kept; others are left out.
  if (toNumber(s.cell(r, "vCPUs"), v) && v > 0 && v <= 1e5) h.vcpus = v;
  if (toNumber(s.cell(r, "MemoryGiB"), v) && v > 0 && v * kGbPerGib <= 1e6) h.memory_gib = v;
}

namespace {

// A region as the file names it, without empty parts: Vast.ai's rows name "State, Country, Continent" and leave the
// state empty for some hosts (", US, NA" in skypilot-catalog catalogs/v8/vast/vms.csv), shown as "US, NA".
std::string tidyRegion(const std::string& cell) {
  std::string out;
  size_t start = 0;
  while (start <= cell.size()) {
    size_t end = cell.find(',', start);
    if (end == std::string::npos) end = cell.size();
    size_t a = start, b = end;
    while (a < b && (cell[a] == ' ' || cell[a] == '\t')) ++a;
    while (b > a && (cell[b - 1] == ' ' || cell[b - 1] == '\t')) --b;
    if (b > a) out += (out.empty() ? "" : ", ") + cell.substr(a, b - a);
    start = end + 1;
  }
  return out;
}

// Reads the file into rows and maps the header's names to columns; false (with issues) when nothing can be read.
bool readHeader(ImportState& s, const std::string& text) {
  // A UTF-8 byte order mark (as spreadsheet programs write) would stick to the first header name.
  const bool bom = text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0;
  if (!parseCsv(bom ? text.substr(3) : text, s.rows, s.lines, s.imp.issues)) return false;
  if (s.rows.empty()) {
    s.imp.issues.push_back({ErrorCode::kCsvFormat, "line 1", Message("import.empty_file")});
    return false;
  }
  for (size_t i = 0; i < s.rows[0].size(); ++i) {
    if (!s.col.emplace(s.rows[0][i], i).second)
      s.imp.issues.push_back({ErrorCode::kCsvFormat, "line 1",
                              Message("import.column_twice").text("column", excerpt(s.rows[0][i]))
                                  .num("first_value", static_cast<double>(s.col[s.rows[0][i]] + 1)).num("second_value", static_cast<double>(i + 1))});
  }
  if (s.col.count("GPUInfo") && !s.col.count("GpuInfo")) s.col["GpuInfo"] = s.col["GPUInfo"];
  for (const char* need : {"InstanceType", "AcceleratorName", "AcceleratorCount", "Region", "Price"}) {
    if (!s.col.count(need))
      s.imp.issues.push_back({ErrorCode::kCsvFormat, "line 1", Message("import.column_missing").text("column", need)});
  }
  if (hasErrors(s.imp.issues)) return false;
  s.used.assign(s.rows.size(), 0);
  s.reported.assign(s.rows.size(), 0);
  return true;
}

// The prices of one row: on-demand and spot USD/hour, each kept only when it is one.
struct RowPrices {
  double price = 0, spot = 0;
  bool has_price = false, has_spot = false;
};

// A row without an accelerator: a CPU machine or a GCP host, kept for composition and the report.
void readHostRow(ImportState& s, size_t i, const std::string& instance_type, const RowPrices& p) {
  const Row& r = s.rows[i];
  HostRow h;
  h.instance_type = instance_type;
  h.region = s.cell(r, "Region");
  h.zone = s.cell(r, "AvailabilityZone");
  readHostFields(s, r, h);
  h.price = p.has_price ? p.price : 0;
  h.has_price = p.has_price;
  h.spot = p.spot;
  h.has_spot = p.has_spot;
  h.row = i;
  h.line = s.lines[i];
  s.hosts.push_back(h);
}

// GCP: the price of `count` GPUs alone, to add to a host row of the same zone.
void readAcceleratorRow(ImportState& s, size_t i, const std::string& accel, int count, const RowPrices& p,
                        const GpuInfoCell& info) {
  const Row& r = s.rows[i];
  AcceleratorRow a;
  a.name = accel;
  a.count = count;
  a.region = s.cell(r, "Region");
  a.zone = s.cell(r, "AvailabilityZone");
  a.price = p.price;
  a.spot = p.spot;
  a.has_spot = p.has_spot;
  a.info = info;
  a.row = i;
  a.line = s.lines[i];
  s.accels.push_back(a);
}

// A machine with its GPUs on one row: one zone's price of the offer of its instance type and region.
void readOfferRow(ImportState& s, size_t i, const std::string& instance_type, const std::string& accel, double count,
                  const RowPrices& p, const GpuInfoCell& info) {
  const Row& r = s.rows[i];
  double memory_gb = 0;
  const GpuSpec* g = mapGpu(s, i, accel, info, instance_type, static_cast<int>(count), memory_gb);
  if (!g) return;
  if (const char* share = gpuShareOf(instance_type)) {
    s.skip(i, Message("import.gpu_share").text("instance", instance_type).text("share", share).text("gpu", g->id).num("value", count));
    return;
  }
  if (!boardCountOk(g, static_cast<int>(count))) {
    s.skip(i, Message("import.board_count").num("value", count).text("gpu", g->id).text("form_factor", g->form_factor));
    return;
  }
  const std::string region = tidyRegion(s.cell(r, "Region"));
  Group& grp = s.group(instance_type + "|" + region + "|" + accel + "|" + num(count), [&] {
    Group made;
    made.instance_type = instance_type;
    made.region = region;
    made.gpu_id = g->id;
    made.accel_name = accel;
    made.gpu_count = static_cast<int>(count);
    HostRow fields;
    readHostFields(s, r, fields);
    made.vcpus = fields.vcpus;
    made.ram_gb = fields.memory_gib * kGbPerGib;
    made.memory_gb_per_gpu = memory_gb;
    made.interconnect = interconnectOf(g, made.gpu_count);
    made.first_line = s.lines[i];
    return made;
  });
  grp.prices.push_back(p.price);
  if (p.has_spot) grp.spots.push_back(std::min(p.spot, p.price));
  s.used[i] = 1;
}

void readRow(ImportState& s, size_t i) {
  const Row& r = s.rows[i];
  if (r.size() != s.rows[0].size()) {
    s.skip(i, Message("import.field_count").num("field_count", static_cast<double>(r.size()))
                  .num("header_count", static_cast<double>(s.rows[0].size())));
    return;
  }
  const std::string accel = s.cell(r, "AcceleratorName");
  const std::string it = s.cell(r, "InstanceType");
  RowPrices p;
  // Prices above the catalog's limit of 1e6 USD/h are not prices.
  p.has_price = toNumber(s.cell(r, "Price"), p.price) && p.price > 0 && p.price <= 1e6;
  p.has_spot = toNumber(s.cell(r, "SpotPrice"), p.spot) && p.spot > 0 && p.spot <= 1e6;
  if (p.has_price && p.has_spot && p.spot > p.price)
    s.imp.issues.push_back({ErrorCode::kInvalidValue, "line " + std::to_string(s.lines[i]),
                            Message("import.spot_above_price").text("spot", excerpt(s.cell(r, "SpotPrice"), 40))
                                .text("price", excerpt(s.cell(r, "Price"), 40)),
                            true});
  if (accel.empty()) {
    if (it.empty()) s.skip(i, Message("import.empty_row"));
    else readHostRow(s, i, it, p);
    return;
  }
  double count = 0;
  if (!toNumber(s.cell(r, "AcceleratorCount"), count) || count <= 0 || count != std::floor(count) || count > 1024) {
    s.skip(i, Message("import.bad_count").text("value", excerpt(s.cell(r, "AcceleratorCount"), 40)));
    return;
  }
  if (!p.has_price) {
    s.skip(i, Message("import.bad_price").text("value", excerpt(s.cell(r, "Price"), 40)));
    return;
  }
  const GpuInfoCell info = readGpuInfo(s.cell(r, "GpuInfo"), s.info_cache);
  if (it.empty()) readAcceleratorRow(s, i, accel, static_cast<int>(count), p, info);
  else readOfferRow(s, i, it, accel, count, p, info);
}

// Reports what fed no offer and was not reported yet: CPU machines, unmapped GPU names seen more than once and
// the skipped rows past the ones listed; counts the skipped rows.
void reportLeftovers(ImportState& s) {
  std::vector<size_t> cpu_lines;
  for (const auto& h : s.hosts)
    if (!s.used[h.row] && !s.reported[h.row]) cpu_lines.push_back(s.lines[h.row]);
  if (!cpu_lines.empty())
    s.imp.issues.push_back({ErrorCode::kCsvFormat, "",
                            Message("import.cpu_rows").num("row_count", static_cast<double>(cpu_lines.size()))
                                .text("lines", lineRanges(cpu_lines)),
                            true});
  for (const auto& [name, ls] : s.unmapped) s.imp.unmapped.emplace_back(name, ls.size());
  for (const auto& [name, ls] : s.unmapped)
    if (ls.size() > 1)
      s.imp.issues.push_back({ErrorCode::kUnknownId, "",
                              Message("import.unmapped_rows").num("row_count", static_cast<double>(ls.size()))
                                  .text("accelerator", excerpt(name)).text("lines", lineRanges(ls)),
                              true});
  if (s.skipped_logged > ImportState::kMaxSkipsListed)
    s.imp.issues.push_back({ErrorCode::kCsvFormat, "",
                            Message("import.more_skipped").num("row_count", static_cast<double>(s.skipped_logged - ImportState::kMaxSkipsListed)),
                            true});
  for (size_t i = 1; i < s.rows.size(); ++i)
    if (!s.used[i]) ++s.imp.skipped;
}

json offerPrices(const Group& g, const SkypilotOptions& opt) {
  json prices = json::array();
  // Member by member: an initializer list costs the size-optimised engine more code (docs/performance.md).
  const auto add = [&](const char* model, const std::vector<double>& zones) {
    json& p = prices.emplace_back();
    p["model"] = model;
    p["usd_per_hour"] = *std::min_element(zones.begin(), zones.end());
    p["zone_median_usd_per_hour"] = tidy(median(zones));
    p["as_of"] = opt.as_of;
    p["source"] = opt.source;
  };
  add("on_demand", g.prices);
  if (!g.spots.empty()) add("spot", g.spots);
  return prices;
}

std::string offerNotes(const Group& g) {
  std::string notes = g.notes;
  if (g.composed) notes += " Cheapest zone " + g.cheapest_sum + " USD/h.";
  notes += (notes.empty() ? "" : " ") + std::string("On-demand and spot are the cheapest of ") +
           std::to_string(g.prices.size()) + (g.prices.size() == 1 ? " zone" : " zones") +
           " (zone_median_usd_per_hour: the median).";
  if (g.gpu_count > 1) notes += " Interconnect " + g.interconnect + " is inferred from the GPU; the file does not say.";
  return notes;
}

// The ids given so far, and for each id that collided the next number to try after it.
struct IdSet {
  std::unordered_set<std::string> used;
  std::unordered_map<std::string, int> next;
};

// Ids are instance type + region; an offer of the same type and region with another GPU count gets the count
// appended, and an id still taken (instance types that differ only in punctuation slug alike) gets "-2", "-3", …
// Each base remembers its next number, so n colliding rows cost O(n) tries in all, not O(n^2).
std::string offerId(const Group& g, const std::string& provider, IdSet& ids) {
  std::string id = slug("skypilot-" + provider + "-" + g.instance_type + "-" + g.region);
  if (ids.used.insert(id).second) return id;
  const std::string base = slug("skypilot-" + provider + "-" + g.instance_type + "-" + g.region + "-" +
                                std::to_string(g.gpu_count) + "x" + g.gpu_id);
  if (ids.used.insert(base).second) return base;
  int& n = ids.next.emplace(base, 2).first->second;
  for (;; ++n) {
    id = base + "-" + std::to_string(n);
    if (ids.used.insert(id).second) return id;
  }
}

json offerJson(const Group& g, const std::string& id, const std::string& provider, const SkypilotOptions& opt) {
  // Member by member: an initializer list costs the size-optimised engine more code (docs/performance.md).
  json inst;
  inst["id"] = id;
  inst["provider"] = provider;
  inst["instance_type"] = g.instance_type;
  inst["gpu"] = g.gpu_id;
  inst["gpu_count"] = g.gpu_count;
  inst["region"] = g.region.empty() ? "unknown" : g.region;
  inst["currency"] = "USD";
  inst["billing_increment_s"] = 1;
  inst["interconnect"] = g.interconnect;
  inst["zones"] = g.prices.size();
  inst["source_line"] = g.first_line;
  inst["prices"] = offerPrices(g, opt);
  if (g.vcpus > 0) inst["vcpus"] = g.vcpus;
  if (g.ram_gb > 0) inst["ram_gb"] = std::round(g.ram_gb * 10) / 10;
  if (g.memory_gb_per_gpu > 0) inst["gpu_memory_gb"] = g.memory_gb_per_gpu;
  inst["accelerator_name"] = g.accel_name;
  inst["notes"] = offerNotes(g);
  return inst;
}

// Our catalog format, offers in the order their first row appeared.
json writeCatalog(const ImportState& s, const SkypilotOptions& opt) {
  const std::string provider = opt.provider.empty() ? "SkyPilot import" : opt.provider;
  json instances = json::array();
  IdSet used_ids;
  for (const auto& key : s.order) {
    const Group& g = s.groups.at(key);
    instances.push_back(offerJson(g, offerId(g, provider, used_ids), provider, opt));
  }
  json catalog = json::object();
  catalog["schema_version"] = 1;
  catalog["instances"] = std::move(instances);
  return catalog;
}

}  // namespace
}  // namespace skypilot

SkypilotImport importSkypilotCsv(const std::string& text, const GpuDatabase& gpus, const SkypilotOptions& opt) {
  SkypilotImport imp;
  skypilot::ImportState s(gpus, imp);
  if (!skypilot::readHeader(s, text)) return imp;
  if (s.rows.size() - 1 > kMaxImportRows) {
    imp.rows = s.rows.size() - 1;
    imp.issues.push_back({ErrorCode::kTooLarge, "line " + std::to_string(s.lines[kMaxImportRows + 1]),
                          Message("import.too_many_rows").num("row_value", static_cast<double>(imp.rows))
                              .num("max_row_value", static_cast<double>(kMaxImportRows))});
    return imp;
  }
  s.known_gpus = &opt.known_gpus;
  skypilot::scanRows(s);
  for (size_t i = 1; i < s.rows.size(); ++i) {
    ++imp.rows;
    skypilot::readRow(s, i);
  }
  skypilot::composeGcpOffers(s);
  skypilot::reportLeftovers(s);
  imp.catalog = skypilot::writeCatalog(s, opt);
  imp.ok = !imp.catalog["instances"].empty();
  if (!imp.ok)
    imp.issues.push_back({ErrorCode::kCsvFormat, imp.rows ? "" : "line 1",
                          imp.rows ? Message("import.no_offer").num("row_count", static_cast<double>(imp.rows))
                                   : Message("import.no_rows")});
  return imp;
}

}  // namespace gpuvalue
