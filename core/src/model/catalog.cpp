#include "model/catalog.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "io/json_reader.hpp"

namespace gpuvalue {

static const char* kModelNames[kPricingModelCount] = {"on_demand", "reserved", "spot", "tiered", "monthly"};

const std::string& Atom::emptyString() {
  static const std::string* e = new std::string();
  return *e;
}

const std::string& Atom::intern(const std::string& s) {
  if (s.empty()) return emptyString();
  // Never freed: a few hundred distinct values in practice; node-based, so references stay valid.
  static std::unordered_set<std::string>* pool = new std::unordered_set<std::string>();
  return *pool->insert(s).first;
}

void appendOffers(std::vector<Offer>& to, std::vector<Offer>& from) {
  if (to.empty()) {
    to.swap(from);
  } else {
    to.reserve(to.size() + from.size());
    for (auto& o : from) to.push_back(std::move(o));
  }
  from.clear();
}

const char* pricingModelName(PricingModel m) { return kModelNames[static_cast<int>(m)]; }

bool parsePricingModel(const std::string& s, PricingModel& out) {
  for (int i = 0; i < kPricingModelCount; ++i)
    if (s == kModelNames[i]) {
      out = static_cast<PricingModel>(i);
      return true;
    }
  return false;
}

double Price::headlineUsdPerHour() const {
  if (model == PricingModel::kTiered) return tiers.empty() ? 0 : tiers.front().usd_per_hour;
  if (model == PricingModel::kMonthly) return usd_per_month / kHoursPerMonth;
  return usd_per_hour;
}

const Price* Offer::price(PricingModel m) const {
  for (const auto& p : prices)
    if (p.model == m) return &p;
  return nullptr;
}

// Parses YYYY-MM-DD by hand (sscanf dominated catalog loading).
static bool parseIsoDate(const std::string& s, int& y, int& m, int& d) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  auto digits = [&](size_t from, size_t n, int& out) {
    out = 0;
    for (size_t i = from; i < from + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  if (!digits(0, 4, y) || !digits(5, 2, m) || !digits(8, 2, d)) return false;
  return y >= 1990 && y <= 2200 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

bool isIsoDate(const std::string& s) {
  int y, m, d;
  return parseIsoDate(s, y, m, d);
}

static long daysFromCivil(int y, int m, int d) {  // Howard Hinnant's days_from_civil
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

bool isStale(const Price& p, long today_day) { return today_day > 0 && p.as_of_day > 0 && today_day - p.as_of_day > kStaleAfterDays; }

std::string staleWarning(const Price& p, const std::string& today) {
  if (!isStale(p, dayNumber(today))) return "";
  return std::string(pricingModelName(p.model)) + " price is stale: as of " + p.as_of + ", more than " +
         std::to_string(kStaleAfterDays) + " days old";
}

long dayNumber(const std::string& s) {
  int y, m, d;
  return parseIsoDate(s, y, m, d) ? daysFromCivil(y, m, d) : 0;
}

int daysBetween(const std::string& a, const std::string& b) {
  if (!isIsoDate(a) || !isIsoDate(b)) return 0;
  return static_cast<int>(dayNumber(b) - dayNumber(a));
}

static bool parsePrice(const json& j, const std::string& path, Price& p, Issues& issues) {
  size_t before = issues.size();
  ObjectReader r(j, path, issues);
  if (!r.ok()) return false;
  std::string model = r.string("model", true).value_or("");
  if (!model.empty() && !parsePricingModel(model, p.model))
    r.error("model", ErrorCode::kInvalidValue, "must be one of on_demand, reserved, spot, tiered, monthly (got \"" + model + "\")");
  p.as_of = r.string("as_of", true).value_or("");
  if (r.has("as_of") && !p.as_of.empty() && !isIsoDate(p.as_of))
    r.error("as_of", ErrorCode::kInvalidValue, "must be a date YYYY-MM-DD");
  p.as_of_day = dayNumber(p.as_of);
  p.source = r.string("source", true).value_or("");
  if (p.model == PricingModel::kTiered) {
    const json* t = r.get("tiers");
    if (!t || !t->is_array() || t->empty()) {
      r.error("tiers", t ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, "must be a non-empty array of tiers");
    } else {
      double last = 0;
      for (size_t k = 0; k < t->size(); ++k) {
        ObjectReader tr((*t)[k], r.childPath("tiers") + "/" + std::to_string(k), issues);
        if (!tr.ok()) continue;
        PriceTier tier;
        tier.usd_per_hour = tr.number("usd_per_hour", true, 0, true, 1e6).value_or(0);
        bool is_last = k + 1 == t->size();
        if (tr.has("up_to_hours")) {
          tier.up_to_hours = tr.number("up_to_hours", true, last, true, 1e9).value_or(0);
          last = tier.up_to_hours;
        } else if (!is_last) {
          tr.error("up_to_hours", ErrorCode::kMissingField, "is required on every tier but the last");
        }
        if (is_last && tier.up_to_hours > 0) tier.up_to_hours = 0;  // last tier is open-ended
        p.tiers.push_back(tier);
      }
    }
  } else if (p.model == PricingModel::kMonthly) {
    p.usd_per_month = r.number("usd_per_month", true, 0, true, 1e8).value_or(0);
  } else {
    p.usd_per_hour = r.number("usd_per_hour", true, 0, true, 1e6).value_or(0);
  }
  if (p.model == PricingModel::kReserved) {
    p.term_months = static_cast<int>(r.integer("term_months", true, 1, 120).value_or(0));
    p.upfront = r.string("upfront", false).value_or("none");
    if (p.upfront != "none" && p.upfront != "partial" && p.upfront != "all")
      r.error("upfront", ErrorCode::kInvalidValue, "must be none, partial or all");
  }
  p.claimed_discount_pct = r.number("claimed_discount_pct", false, 0, false, 100).value_or(0);
  p.interruption_per_hour = r.number("interruption_per_hour", false, 0, false, 10).value_or(-1);
  p.free_hours = r.number("free_trial_hours", false, 0, false, 1e5).value_or(0);
  for (size_t i = before; i < issues.size(); ++i)
    if (!issues[i].warning) return false;
  return true;
}

// FNV-1a over the fields the performance model reads.
uint64_t hardwareHash(const Offer& o) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  mix(o.gpu_id.data(), o.gpu_id.size());
  mix("|", 1);
  mix(o.interconnect.data(), o.interconnect.size());
  mix(&o.gpu_count, sizeof o.gpu_count);
  mix(&o.network_gbps, sizeof o.network_gbps);
  const char rdma = o.rdma ? 1 : 0;
  mix(&rdma, 1);
  return h;
}

Issues parseCatalog(const std::string& text, const GpuDatabase& gpus, const Catalog& existing, Catalog& out,
                    const std::string& today) {
  Issues issues;
  json doc;
  if (!parseJsonText(text, doc, issues, "catalog")) return issues;
  std::unordered_set<std::string> ids;
  for (const auto& o : existing.offers) ids.insert(o.id);
  return parseCatalog(doc, gpus, ids, out, today);
}

// Reads the offer at /instances/<i>; returns false when it is not an object. Problems go to `issues`.
bool readOfferJson(const json& inst, size_t i, const GpuDatabase& gpus, const std::unordered_set<std::string>& taken_ids,
                      std::unordered_set<std::string>& ids, long today_day, Offer& o, Issues& issues) {
  const std::string path = "/instances/" + std::to_string(i);
  ObjectReader r(inst, path, issues);
  if (!r.ok()) return false;
  o.id = r.string("id", true).value_or("");
  if (!o.id.empty() && (taken_ids.count(o.id) || !ids.insert(o.id).second))
    r.error("id", ErrorCode::kDuplicateId, "duplicate instance id \"" + o.id + "\"");
  o.provider = r.string("provider", true).value_or("");
  o.instance_type = r.string("instance_type", true).value_or("");
  o.gpu_id = r.string("gpu", true).value_or("");
  if (!o.gpu_id.empty()) {
    o.gpu = gpus.find(o.gpu_id);
    if (!o.gpu) r.error("gpu", ErrorCode::kUnknownId, "unknown GPU id \"" + o.gpu_id + "\"");
    else o.gpu_id = o.gpu->id;
  }
  o.gpu_count = static_cast<int>(r.integer("gpu_count", true, 1, 1024).value_or(0));
  o.vcpus = r.number("vcpus", false, 0, true, 1e5).value_or(0);
  o.ram_gb = r.number("ram_gb", false, 0, true, 1e6).value_or(0);
  o.interconnect = r.string("interconnect", false).value_or(o.gpu_count > 1 ? "pcie" : "none");
  static const std::set<std::string> kInterconnects = {"nvswitch", "nvlink", "pcie", "infinity-fabric", "none"};
  if (!kInterconnects.count(o.interconnect))
    r.error("interconnect", ErrorCode::kInvalidValue, "must be one of nvswitch, nvlink, pcie, infinity-fabric, none");
  o.network_gbps = r.number("network_gbps", false, 0, false, 1e5).value_or(0);
  o.rdma = r.boolean("rdma", false).value_or(false);
  o.region = r.string("region", true).value_or("");
  o.currency = r.string("currency", false).value_or("USD");
  if (o.currency != "USD" && o.currency != "CNY") r.error("currency", ErrorCode::kInvalidValue, "must be USD or CNY");
  o.billing_increment_s = r.number("billing_increment_s", false, 0, true, 31 * 86400.0).value_or(3600);
  o.min_charge_s = r.number("min_charge_s", false, 0, false, 366 * 86400.0).value_or(0);
  o.example = r.boolean("example", false).value_or(false);
  if (const json* s = r.get("service")) {
    ObjectReader sr(*s, r.childPath("service"), issues);
    if (sr.ok()) {
      o.service.preinstalled_frameworks = sr.boolean("preinstalled_frameworks", false).value_or(false);
      o.service.sla_pct = sr.number("sla_pct", false, 0, false, 100).value_or(0);
      o.service.scaling_minutes = sr.number("scaling_minutes", false, 0, false, 1e5).value_or(-1);
      o.service.queue_minutes = sr.number("queue_minutes", false, 0, false, 1e6).value_or(-1);
    }
  }
  if (const json* c = r.get("claims")) {
    ObjectReader cr(*c, r.childPath("claims"), issues);
    if (cr.ok()) {
      auto claims = std::make_shared<Claims>();
      Claims& oc = *claims;
      o.claims = claims;
      oc.gpu_memory_gb = cr.number("gpu_memory_gb", false, 0, true, 1e5).value_or(0);
      if (const json* t = cr.get("tflops")) {
        ObjectReader tr(*t, cr.childPath("tflops"), issues);
        if (tr.ok()) {
          oc.tflops_precision = tr.string("precision", true).value_or("");
          Precision dummy;
          if (!oc.tflops_precision.empty() && !parsePrecision(oc.tflops_precision, dummy))
            tr.error("precision", ErrorCode::kInvalidValue, "must be one of fp32 tf32 fp16 bf16 fp8 fp4 int8");
          oc.tflops = tr.number("value", true, 0, true, 1e9).value_or(0);
        }
      }
      oc.memory_bandwidth_gbs = cr.number("memory_bandwidth_gbs", false, 0, true, 1e7).value_or(0);
      oc.nvlink_gbs = cr.number("nvlink_gbs", false, 0, true, 1e7).value_or(0);
      oc.cpu = cr.string("cpu", false).value_or("");
      oc.cpu_memory_type = cr.string("cpu_memory_type", false).value_or("");
      oc.cpu_memory_gb = cr.number("cpu_memory_gb", false, 0, true, 1e7).value_or(0);
      oc.resnet50_images_per_s = cr.number("resnet50_images_per_s", false, 0, true, 1e7).value_or(0);
      if (const json* tx = cr.get("text"))
        if (tx->is_array())
          for (const auto& e : *tx)
            if (e.is_string()) oc.text.push_back(e.get<std::string>());
    }
  }
  const json* prices = r.get("prices");
  if (!prices || !prices->is_array() || prices->empty()) {
    r.error("prices", prices ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, "must be a non-empty array of prices");
  } else {
    for (size_t k = 0; k < prices->size(); ++k) {
      Price p;
      if (parsePrice((*prices)[k], r.childPath("prices") + "/" + std::to_string(k), p, issues)) o.prices.push_back(p);
    }
  }
  // Cross-field rules.
  const Price* od = o.price(PricingModel::kOnDemand);
  for (size_t k = 0; k < o.prices.size(); ++k) {
    const Price& p = o.prices[k];
    const std::string pp = r.childPath("prices") + "/" + std::to_string(k);
    if (p.model == PricingModel::kSpot && od && p.usd_per_hour > od->usd_per_hour * (1 + 1e-9))
      issues.push_back({ErrorCode::kInvalidValue, pp + "/usd_per_hour", "spot price is above the on-demand price", true});
    if (p.model == PricingModel::kReserved && od && p.usd_per_hour > od->usd_per_hour * (1 + 1e-9))
      issues.push_back({ErrorCode::kInvalidValue, pp + "/usd_per_hour", "reserved price is above the on-demand price", true});
    if (today_day > 0 && p.as_of_day > 0 && p.as_of_day - today_day > 1)
      issues.push_back({ErrorCode::kInvalidValue, pp + "/as_of", "date lies in the future", true});
  }
  if (o.gpu && o.gpu_count > 0) {
    for (const auto& w : claimCheck(o)) {
      o.warnings.push_back(w);
    }
  }
  o.hardware_hash = hardwareHash(o);
  return true;
}

Issues parseCatalog(const json& doc, const GpuDatabase& gpus, std::unordered_set<std::string>& taken_ids, Catalog& out,
                    const std::string& today) {
  Issues issues;
  ObjectReader root(doc, "", issues);
  if (!root.ok()) return issues;
  const json* list = root.get("instances");
  if (!list || !list->is_array()) {
    root.error("instances", list ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, "must be an array of offers");
    return issues;
  }
  std::unordered_set<std::string> ids;  // this document's ids
  const long today_day = dayNumber(today);
  std::vector<Offer> offers;
  offers.reserve(list->size());
  for (size_t i = 0; i < list->size(); ++i) {
    Offer o;
    if (readOfferJson((*list)[i], i, gpus, taken_ids, ids, today_day, o, issues)) offers.push_back(std::move(o));
  }
  if (hasErrors(issues)) return issues;
  taken_ids.insert(ids.begin(), ids.end());
  appendOffers(out.offers, offers);
  return issues;
}

static std::string fmt(double v, int digits = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Memory types each CPU generation takes (Intel ARK and AMD product pages):
// Xeon Scalable 1st-3rd gen (Skylake/Cascade Lake/Ice Lake: 8180, 8280, 8380, 8358...) take DDR4;
// 4th/5th gen (Sapphire/Emerald Rapids: 8480+, 8468, 8580) take DDR5.
// AMD EPYC 7xx1/7xx2/7xx3 (Naples/Rome/Milan, e.g. 7V12, 7742, 7763) take DDR4; EPYC 9xx4 (Genoa) takes DDR5.
static std::string cpuMemoryType(const std::string& cpu) {
  std::string c = toLower(cpu);
  auto has = [&](const char* s) { return c.find(s) != std::string::npos; };
  if (has("epyc")) {
    auto pos = c.find("epyc");
    for (size_t i = pos + 4; i < c.size(); ++i)
      if (std::isdigit(static_cast<unsigned char>(c[i]))) return c[i] == '7' ? "DDR4" : (c[i] == '9' ? "DDR5" : "");
    return "";
  }
  if (has("xeon")) {
    for (size_t i = 0; i + 3 < c.size(); ++i) {
      if (std::isdigit(static_cast<unsigned char>(c[i])) && std::isdigit(static_cast<unsigned char>(c[i + 1])) &&
          std::isdigit(static_cast<unsigned char>(c[i + 2])) && std::isdigit(static_cast<unsigned char>(c[i + 3]))) {
        char gen = c[i + 1];  // 8380 -> '3' (3rd gen), 8480 -> '4'
        if (gen >= '1' && gen <= '3') return "DDR4";
        if (gen >= '4' && gen <= '6') return "DDR5";
        return "";
      }
    }
  }
  return "";
}

std::vector<std::string> claimCheck(const Offer& o) {
  std::vector<std::string> out;
  if (!o.claims || !o.gpu) return out;
  const GpuSpec& g = *o.gpu;
  const Claims& c = *o.claims;
  const double n = o.gpu_count;
  auto differs = [](double a, double b) { return std::fabs(a - b) > 0.10 * std::max(a, b); };
  if (c.gpu_memory_gb > 0 && std::fabs(c.gpu_memory_gb - g.memory_gb) > 0.5)
    out.push_back("claim check: vendor states " + fmt(c.gpu_memory_gb) + " GB per GPU, the " + g.name + " datasheet gives " +
                  fmt(g.memory_gb) + " GB");
  if (c.tflops > 0) {
    Precision p;
    if (parsePrecision(c.tflops_precision, p)) {
      double dense = g.peak(p) * n;
      if (dense <= 0) {
        out.push_back("claim check: vendor states " + fmt(c.tflops) + " TFLOPS " + c.tflops_precision + ", but the " + g.name +
                      " has no " + c.tflops_precision + " support");
      } else if (differs(c.tflops, dense)) {
        std::string s = "claim check: vendor states " + fmt(c.tflops) + " TFLOPS " + c.tflops_precision + " for " + fmt(n) +
                        " GPUs; the datasheet gives " + fmt(n) + " x " + fmt(g.peak(p), 1) + " = " + fmt(dense) + " TFLOPS dense";
        if (!differs(c.tflops, 2 * dense)) s += " (the stated figure matches the sparse peak)";
        out.push_back(s);
      }
    }
  }
  if (c.memory_bandwidth_gbs > 0 && differs(c.memory_bandwidth_gbs, g.memory_bandwidth_gbs) &&
      differs(c.memory_bandwidth_gbs, g.memory_bandwidth_gbs * n))
    out.push_back("claim check: vendor states memory bandwidth " + fmt(c.memory_bandwidth_gbs) + " GB/s; the " + g.name +
                  " datasheet gives " + fmt(g.memory_bandwidth_gbs) + " GB/s per GPU");
  if (c.nvlink_gbs > 0) {
    if (g.nvlink_gbs <= 0)
      out.push_back("claim check: vendor states NVLink " + fmt(c.nvlink_gbs) + " GB/s, but the " + g.name + " has no NVLink");
    else if (differs(c.nvlink_gbs, g.nvlink_gbs))
      out.push_back("claim check: vendor states NVLink " + fmt(c.nvlink_gbs) + " GB/s; the datasheet gives " + fmt(g.nvlink_gbs) +
                    " GB/s per GPU");
  }
  if (!c.cpu.empty() && !c.cpu_memory_type.empty()) {
    std::string takes = cpuMemoryType(c.cpu);
    if (!takes.empty() && toLower(takes) != toLower(c.cpu_memory_type))
      out.push_back("claim check: " + c.cpu + " takes " + takes + " memory, not " + c.cpu_memory_type);
  }
  return out;
}

}  // namespace gpuvalue
