#include "model/catalog.hpp"

#include <cmath>
#include <cstdio>
#include <algorithm>

#include "io/json_reader.hpp"
#include "model/catalog_fields.hpp"

namespace gpuvalue {

static const char* kModelNames[kPricingModelCount] = {"on_demand", "reserved", "spot", "tiered", "monthly", "serverless"};

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

bool PriceTerms::operator==(const PriceTerms& o) const {
  auto same_tiers = [](const std::vector<PriceTier>& a, const std::vector<PriceTier>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].up_to_hours != b[i].up_to_hours || a[i].usd_per_hour != b[i].usd_per_hour) return false;
    return true;
  };
  return usd_per_month == o.usd_per_month && term_months == o.term_months && upfront == o.upfront &&
         claimed_discount_pct == o.claimed_discount_pct && interruption_per_hour == o.interruption_per_hour &&
         free_hours == o.free_hours && cold_start_s == o.cold_start_s && min_request_s == o.min_request_s &&
         idle_timeout_s == o.idle_timeout_s && max_concurrency == o.max_concurrency && same_tiers(tiers, o.tiers);
}

const PriceTerms kNoPriceTerms;

PriceTerms& Price::editTerms() {
  if (!terms_ || terms_.use_count() > 1) terms_ = std::make_shared<PriceTerms>(terms());
  return *terms_;
}

double Price::headlineUsdPerHour() const {
  if (model == PricingModel::kTiered) return terms().tiers.empty() ? 0 : terms().tiers.front().usd_per_hour;
  if (model == PricingModel::kMonthly) return terms().usd_per_month / kHoursPerMonth;
  return usd_per_hour;
}

void Offer::setService(const Service& s) {
  service_ = s == kNoService ? nullptr : std::make_shared<const Service>(s);
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
  if (y < kFirstDateYear || y > kLastDateYear || m < 1 || m > 12 || d < 1) return false;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= kDays[m - 1] + (m == 2 && leap ? 1 : 0);
}

bool keepKnownOfferMembers(int depth, json::parse_event_t event, json& parsed) {
  return !(event == json::parse_event_t::key && depth == 1 && parsed.is_string() &&
           !catalog_fields::kOfferRecord.find(parsed.get_ref<const std::string&>()));
}

bool isBlankId(const std::string& id) {
  for (char c : id)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  return true;
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

Message staleWarning(const Price& p, const std::string& today) {
  if (!isStale(p, dayNumber(today))) return Message();
  return Message("price.stale").text("pricing", pricingModelName(p.model)).text("date", p.as_of).num("day_count", kStaleAfterDays);
}

long dayNumber(const std::string& s) {
  int y, m, d;
  return parseIsoDate(s, y, m, d) ? daysFromCivil(y, m, d) : 0;
}

int daysBetween(const std::string& a, const std::string& b) {
  if (!isIsoDate(a) || !isIsoDate(b)) return 0;
  return static_cast<int>(dayNumber(b) - dayNumber(a));
}

namespace F = catalog_fields;

// The tiers of a tiered price: each up_to_hours above the previous one, required on every tier but the last.
static void parseTiers(ObjectReader& r, PriceTerms& p, Issues& issues) {
  const json* t = r.get(F::kTiers.name);
  if (!t || !t->is_array() || t->empty()) {
    r.error(F::kTiers.name, t ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, Message("error.tiers_array"));
    return;
  }
  double last = 0;
  for (size_t k = 0; k < t->size(); ++k) {
    ObjectReader tr((*t)[k], r.childPath(F::kTiers.name) + "/" + std::to_string(k), issues);
    if (!tr.ok()) continue;
    PriceTier tier;
    tier.usd_per_hour = numberOr(tr, F::kTierUsdPerHour);
    bool is_last = k + 1 == t->size();
    if (tr.has(F::kTierUpToHours.name)) {
      Field above_last = F::kTierUpToHours;  // the table's bounds, starting above the previous tier
      above_last.min = std::max(above_last.min, last);
      above_last.required = true;
      tier.up_to_hours = numberOr(tr, above_last);
      last = tier.up_to_hours;
    } else if (!is_last) {
      tr.error(F::kTierUpToHours.name, ErrorCode::kMissingField, Message("error.tier_bound_required"));
    }
    if (is_last && tier.up_to_hours > 0) tier.up_to_hours = 0;  // last tier is open-ended
    p.tiers.push_back(tier);
  }
}

static bool parsePrice(const json& j, const std::string& path, Price& p, Issues& issues) {
  size_t before = issues.size();
  ObjectReader r(j, path, issues);
  if (!r.ok()) return false;
  if (auto model = readString(r, F::kModel)) parsePricingModel(*model, p.model);
  p.as_of = stringOr(r, F::kAsOf);
  p.as_of_day = dayNumber(p.as_of);
  p.read_on = stringOr(r, F::kReadOn);
  // A price needs a date: the source's (as_of), or at least the day it was read (read_on).
  if (!r.has(F::kAsOf.name) && !r.has(F::kReadOn.name)) r.error(F::kAsOf.name, ErrorCode::kMissingField, Message("error.date_or_read_on"));
  p.source = stringOr(r, F::kSource);
  auto t = std::make_shared<PriceTerms>();
  if (p.model == PricingModel::kTiered) parseTiers(r, *t, issues);
  else if (p.model == PricingModel::kMonthly) t->usd_per_month = numberOr(r, F::kUsdPerMonth);
  else if (p.model == PricingModel::kServerless) p.usd_per_hour = numberOr(r, F::kUsdPerSecond) * 3600.0;
  else p.usd_per_hour = numberOr(r, F::kUsdPerHour);
  if (p.model == PricingModel::kServerless) {
    t->cold_start_s = numberOr(r, F::kColdStartS);
    t->min_request_s = numberOr(r, F::kMinRequestS);
    t->idle_timeout_s = numberOr(r, F::kIdleTimeoutS);
    t->max_concurrency = static_cast<int>(numberOr(r, F::kMaxConcurrency));
  }
  if (p.model == PricingModel::kReserved) {
    t->term_months = static_cast<int>(numberOr(r, F::kTermMonths));
    t->upfront = stringOr(r, F::kUpfront);
  }
  t->claimed_discount_pct = numberOr(r, F::kClaimedDiscountPct);
  t->interruption_per_hour = numberOr(r, F::kInterruptionPerHour);
  t->free_hours = numberOr(r, F::kFreeTrialHours);
  p.shareTerms(t);
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

static void readService(const json& j, const std::string& path, Offer& o, Issues& issues) {
  ObjectReader sr(j, path, issues);
  if (!sr.ok()) return;
  Service out;
  out.preinstalled_frameworks = booleanOr(sr, F::kPreinstalledFrameworks);
  out.sla_pct = numberOr(sr, F::kSlaPct);
  out.scaling_minutes = numberOr(sr, F::kScalingMinutes);
  out.queue_minutes = numberOr(sr, F::kQueueMinutes);
  o.setService(out);
}

static void readClaims(const json& j, const std::string& path, Offer& o, Issues& issues) {
  ObjectReader cr(j, path, issues);
  if (!cr.ok()) return;
  auto claims = std::make_shared<Claims>();
  Claims& oc = *claims;
  o.claims = claims;
  oc.gpu_memory_gb = numberOr(cr, F::kClaimGpuMemoryGb);
  if (const json* t = cr.get(F::kClaimTflops.name)) {
    ObjectReader tr(*t, cr.childPath(F::kClaimTflops.name), issues);
    if (tr.ok()) {
      oc.tflops_precision = stringOr(tr, F::kClaimPrecision);
      oc.tflops = numberOr(tr, F::kClaimValue);
    }
  }
  oc.memory_bandwidth_gbs = numberOr(cr, F::kClaimMemoryBandwidthGbs);
  oc.nvlink_gbs = numberOr(cr, F::kClaimNvlinkGbs);
  oc.cpu = stringOr(cr, F::kClaimCpu);
  oc.cpu_memory_type = stringOr(cr, F::kClaimCpuMemoryType);
  oc.cpu_memory_gb = numberOr(cr, F::kClaimCpuMemoryGb);
  oc.resnet50_images_per_s = numberOr(cr, F::kClaimResnet50);
  if (const json* tx = cr.get(F::kClaimText.name))
    if (tx->is_array())
      for (const auto& e : *tx)
        if (e.is_string()) oc.text.push_back(e.get<std::string>());
}

// The prices of an offer at `path`; the valid ones go to o.prices. An offer has one on-demand rate: a second
// on-demand price is an error at its "model" (the first one is kept and named in the message).
static void readPrices(const json& prices, const std::string& path, Offer& o, Issues& issues) {
  long first_on_demand = -1;
  for (size_t k = 0; k < prices.size(); ++k) {
    Price p;
    const std::string pp = path + "/" + std::to_string(k);
    if (!parsePrice(prices[k], pp, p, issues)) continue;
    if (p.model == PricingModel::kOnDemand) {
      if (first_on_demand >= 0) {
        issues.push_back({ErrorCode::kInvalidValue, pp + "/" + F::kModel.name,
                          Message("error.second_on_demand").num("first_value", static_cast<double>(first_on_demand))});
        continue;
      }
      first_on_demand = static_cast<long>(k);
    }
    o.prices.push_back(p);
  }
}

// Reads the offer at /instances/<i>; returns false when it is not an object. Problems go to `issues`.
bool readOfferJson(const json& inst, size_t i, const GpuDatabase& gpus, const std::unordered_set<std::string>& taken_ids,
                      std::unordered_set<std::string>& ids, long today_day, Offer& o, Issues& issues) {
  const std::string path = "/instances/" + std::to_string(i);
  ObjectReader r(inst, path, issues);
  if (!r.ok()) return false;
  const std::optional<std::string> id = readString(r, F::kId);
  o.id = id.value_or("");
  if (id && isBlankId(o.id))
    r.error(F::kId.name, ErrorCode::kInvalidValue, Message("error.empty_id"));
  else if (!o.id.empty() && (taken_ids.count(o.id) || !ids.insert(o.id).second))
    r.error(F::kId.name, ErrorCode::kDuplicateId, Message("error.duplicate_offer_id").text("id", excerpt(o.id)));
  o.provider = stringOr(r, F::kProvider);
  o.instance_type = stringOr(r, F::kInstanceType);
  o.gpu_id = stringOr(r, F::kGpu);
  if (!o.gpu_id.empty()) {
    o.gpu = gpus.find(o.gpu_id);
    if (!o.gpu) r.error(F::kGpu.name, ErrorCode::kUnknownId, Message("error.unknown_gpu").text("id", excerpt(o.gpu_id)));
    else o.gpu_id = o.gpu->id;
  }
  o.gpu_count = static_cast<int>(numberOr(r, F::kGpuCount));
  o.vcpus = numberOr(r, F::kVcpus);
  o.ram_gb = numberOr(r, F::kRamGb);
  o.interconnect = readString(r, F::kInterconnect).value_or(o.gpu_count > 1 ? "pcie" : "none");
  o.network_gbps = numberOr(r, F::kNetworkGbps);
  o.rdma = booleanOr(r, F::kRdma);
  o.region = stringOr(r, F::kRegion);
  o.currency = stringOr(r, F::kCurrency);
  o.billing_increment_s = numberOr(r, F::kBillingIncrementS);
  o.min_charge_s = numberOr(r, F::kMinChargeS);
  o.example = booleanOr(r, F::kExample);
  o.marketplace = booleanOr(r, F::kMarketplace);
  if (const json* s = r.get(F::kService.name)) readService(*s, r.childPath(F::kService.name), o, issues);
  if (const json* c = r.get(F::kClaims.name)) readClaims(*c, r.childPath(F::kClaims.name), o, issues);
  const json* prices = r.get(F::kPrices.name);
  if (!prices || !prices->is_array() || prices->empty()) {
    r.error(F::kPrices.name, prices ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, Message("error.prices_array"));
  } else {
    readPrices(*prices, r.childPath(F::kPrices.name), o, issues);
  }
  // Cross-field rules.
  const Price* od = o.price(PricingModel::kOnDemand);
  for (size_t k = 0; k < o.prices.size(); ++k) {
    const Price& p = o.prices[k];
    const std::string pp = r.childPath("prices") + "/" + std::to_string(k);
    if (p.model == PricingModel::kSpot && od && p.usd_per_hour > od->usd_per_hour * (1 + 1e-9))
      issues.push_back({ErrorCode::kInvalidValue, pp + "/usd_per_hour", Message("warning.spot_above_on_demand"), true});
    if (p.model == PricingModel::kReserved && od && p.usd_per_hour > od->usd_per_hour * (1 + 1e-9))
      issues.push_back({ErrorCode::kInvalidValue, pp + "/usd_per_hour", Message("warning.reserved_above_on_demand"), true});
    if (today_day > 0 && p.as_of_day > 0 && p.as_of_day - today_day > 1)
      issues.push_back({ErrorCode::kInvalidValue, pp + "/as_of", Message("warning.date_in_future").text("date", p.as_of), true});
  }
  if (o.gpu && o.gpu_count > 0) {
    for (const auto& w : claimCheck(o)) {
      o.warnings.push_back(w);
    }
  }
  o.hardware_hash = hardwareHash(o);
  return true;
}

void readCatalogHeader(ObjectReader& root) {
  const json* v = root.get(F::kSchemaVersion.name);
  if (!v || v->is_null() || (v->is_number() && inBounds(F::kSchemaVersion, v->get<double>()))) return;
  root.error(F::kSchemaVersion.name, ErrorCode::kInvalidValue, Message("error.schema_version").text("value", excerpt(dumpJson(*v), 40)));
}

Issues parseCatalog(const json& doc, const GpuDatabase& gpus, std::unordered_set<std::string>& taken_ids, Catalog& out,
                    const std::string& today) {
  Issues issues;
  ObjectReader root(doc, "", issues);
  if (!root.ok()) return issues;
  readCatalogHeader(root);
  const json* list = root.get("instances");
  if (!list || !list->is_array()) {
    root.error("instances", list ? ErrorCode::kInvalidValue : ErrorCode::kMissingField, Message("error.offers_array"));
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

Messages claimCheck(const Offer& o) {
  Messages out;
  if (!o.claims || !o.gpu) return out;
  const GpuSpec& g = *o.gpu;
  const Claims& c = *o.claims;
  const double n = o.gpu_count;
  auto differs = [](double a, double b) { return std::fabs(a - b) > 0.10 * std::max(a, b); };
  if (c.gpu_memory_gb > 0 && std::fabs(c.gpu_memory_gb - g.memory_gb) > 0.5)
    out.push_back(Message("claim.gpu_memory").num("stated_gb", c.gpu_memory_gb).num("datasheet_gb", g.memory_gb).text("gpu", g.id));
  if (c.tflops > 0) {
    Precision p;
    if (parsePrecision(c.tflops_precision, p)) {
      const double dense = g.peak(p) * n;
      if (dense <= 0) {
        out.push_back(Message("claim.tflops_unsupported").num("stated_tflops", c.tflops).text("precision", c.tflops_precision)
                          .text("gpu", g.id));
      } else if (differs(c.tflops, dense)) {
        out.push_back(Message(differs(c.tflops, 2 * dense) ? "claim.tflops" : "claim.tflops_sparse")
                          .num("stated_tflops", c.tflops).text("precision", c.tflops_precision).num("gpu_count", n)
                          .num("per_gpu_tflops", g.peak(p)).num("datasheet_tflops", dense));
      }
    }
  }
  if (c.memory_bandwidth_gbs > 0 && differs(c.memory_bandwidth_gbs, g.memory_bandwidth_gbs) &&
      differs(c.memory_bandwidth_gbs, g.memory_bandwidth_gbs * n))
    out.push_back(Message("claim.memory_bandwidth").num("stated_gbs", c.memory_bandwidth_gbs)
                      .num("datasheet_gbs", g.memory_bandwidth_gbs).text("gpu", g.id));
  if (c.nvlink_gbs > 0) {
    if (g.nvlink_gbs <= 0)
      out.push_back(Message("claim.no_nvlink").num("stated_gbs", c.nvlink_gbs).text("gpu", g.id));
    else if (differs(c.nvlink_gbs, g.nvlink_gbs))
      out.push_back(Message("claim.nvlink").num("stated_gbs", c.nvlink_gbs).num("datasheet_gbs", g.nvlink_gbs));
  }
  if (!c.cpu.empty() && !c.cpu_memory_type.empty()) {
    const std::string takes = cpuMemoryType(c.cpu);
    if (!takes.empty() && toLower(takes) != toLower(c.cpu_memory_type))
      out.push_back(Message("claim.cpu_memory_type").text("cpu", c.cpu).text("memory_type", takes)
                        .text("stated_memory_type", c.cpu_memory_type));
  }
  return out;
}

}  // namespace gpuvalue
