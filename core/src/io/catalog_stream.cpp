// Catalog text read in pieces: a resumable scanner finds each offer of the "instances" array, and a direct
// reader turns common, well-formed offers into Offer records without building a JSON DOM. Anything the direct
// reader does not handle exactly like the DOM reader (readOfferJson) goes to the DOM reader instead, so both
// accept the same offers and every problem is reported by one code path, with its JSON Pointer path. Both take
// names, types, bounds, defaults and accepted values from the catalog's field tables (model/catalog_fields.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "io/json_reader.hpp"
#include "io/json_scan.hpp"
#include "io/limits.hpp"
#include "model/catalog.hpp"
#include "model/catalog_fields.hpp"

namespace gpuvalue {

namespace {

// ---- The direct reader -------------------------------------------------------------------------------------
// Declines (returns false) instead of reporting: the DOM reader then reads the offer and reports what is wrong.

namespace F = catalog_fields;

// Typed access with the field table's rules, as the DOM reader applies them: null counts as absent (the output
// then takes the field's absent value); a missing required member, a wrong type, a value out of bounds or not
// one of the field's choices declines.
class Flat {
 public:
  Flat(const Member* m, int n) : m_(m), n_(n) {}
  const Member* get(const char* key) const {
    const size_t len = std::strlen(key);
    for (int i = 0; i < n_; ++i)
      if (m_[i].key_len == len && std::memcmp(m_[i].key, key, len) == 0) return m_[i].kind == Member::kNull ? nullptr : &m_[i];
    return nullptr;
  }
  // Present, even as null (the DOM reader reports a null object member: "must be an object").
  bool has(const char* key) const {
    const size_t len = std::strlen(key);
    for (int i = 0; i < n_; ++i)
      if (m_[i].key_len == len && std::memcmp(m_[i].key, key, len) == 0) return true;
    return false;
  }
  // 1 = present and valid, 0 = absent (and not required), -1 = decline.
  int string(const Field& f, std::string& out) const {
    const Member* x = get(f.name);
    if (!x) {
      out = f.absent_string;
      return f.required ? -1 : 0;
    }
    if (x->kind != Member::kString || x->escaped || !isChoice(f, x->s, x->len)) return -1;
    out.assign(x->s, x->len);
    return f.format_check && !f.format_check(out) ? -1 : 1;
  }
  int string(const Field& f, Atom& out) const {
    std::string s;
    const int r = string(f, s);
    if (r >= 0) out = s;
    return r;
  }
  int number(const Field& f, double& out) const {
    const Member* x = get(f.name);
    if (!x) {
      out = f.absent_number;
      return f.required ? -1 : 0;
    }
    if (x->kind != Member::kNumber || !inBounds(f, x->num)) return -1;
    out = x->num;
    return 1;
  }
  int boolean(const Field& f, bool& out) const {
    const Member* x = get(f.name);
    if (!x) {
      out = f.absent_bool;
      return f.required ? -1 : 0;
    }
    if (x->kind != Member::kBool) return -1;
    out = x->b;
    return 1;
  }

 private:
  const Member* m_;
  int n_;
};

// Prices that publish the same terms share one copy of them (a catalog's reserved prices have a few terms).
class TermsPool {
 public:
  std::shared_ptr<PriceTerms> share(const PriceTerms& t) {
    for (const auto& e : seen_)
      if (*e == t) return e;
    auto made = std::make_shared<PriceTerms>(t);
    if (seen_.size() < 64) seen_.push_back(made);
    return made;
  }

 private:
  std::vector<std::shared_ptr<PriceTerms>> seen_;
};

// parsePrice for on-demand, reserved, spot and monthly prices (tiered ones go to the DOM reader).
bool directPrice(Cursor& c, TermsPool& pool, Price& p) {
  Member m[kMaxMembers];
  int n = 0;
  if (!flatObject(c, m, n, nullptr)) return false;
  Flat r(m, n);
  std::string model;
  if (r.string(F::kModel, model) < 0 || !parsePricingModel(model, p.model)) return false;
  if (p.model == PricingModel::kTiered || p.model == PricingModel::kServerless) return false;
  if (r.string(F::kAsOf, p.as_of) < 0) return false;
  p.as_of_day = dayNumber(p.as_of);
  if (r.string(F::kReadOn, p.read_on) < 0) return false;
  if (p.as_of.empty() && p.read_on.empty()) return false;  // no date at all: the DOM reader reports it
  if (r.string(F::kSource, p.source) < 0) return false;
  PriceTerms t;
  if (p.model == PricingModel::kMonthly) {
    if (r.number(F::kUsdPerMonth, t.usd_per_month) < 0) return false;
  } else if (r.number(F::kUsdPerHour, p.usd_per_hour) < 0) {
    return false;
  }
  if (p.model == PricingModel::kReserved) {
    double term = 0;
    if (r.number(F::kTermMonths, term) < 0) return false;
    t.term_months = static_cast<int>(term);
    if (r.string(F::kUpfront, t.upfront) < 0) return false;
  }
  if (r.number(F::kClaimedDiscountPct, t.claimed_discount_pct) < 0) return false;
  if (r.number(F::kInterruptionPerHour, t.interruption_per_hour) < 0) return false;
  if (r.number(F::kFreeTrialHours, t.free_hours) < 0) return false;
  if (t != PriceTerms()) p.shareTerms(pool.share(t));
  return true;
}

// Looks a GPU up once per distinct spelling (the database lower-cases and searches a map).
class GpuCache {
 public:
  explicit GpuCache(const GpuDatabase& db) : db_(db) {}
  const GpuSpec* find(const std::string& id) {
    for (const auto& e : seen_)
      if (e.first == id) return e.second;
    const GpuSpec* g = db_.find(id);
    if (seen_.size() < 64) seen_.emplace_back(id, g);
    return g;
  }

 private:
  const GpuDatabase& db_;
  std::vector<std::pair<std::string, const GpuSpec*>> seen_;
};

// readOfferJson for an offer without service or claims blocks whose every value is valid and raises no warning.
bool directOffer(const char* text, size_t size, GpuCache& gpus, TermsPool& terms, const std::unordered_set<std::string>& taken_ids,
                 const std::unordered_set<std::string>& ids, long today_day, Offer& o) {
  Cursor c{text, text + size};
  Member m[kMaxMembers];
  int n = 0;
  if (!flatObject(c, m, n, F::kPrices.name)) return false;
  c.ws();
  if (c.p != c.e) return false;
  Flat r(m, n);
  if (r.has(F::kService.name) || r.has(F::kClaims.name)) return false;
  if (r.string(F::kId, o.id) < 0 || isBlankId(o.id) || taken_ids.count(o.id) || ids.count(o.id)) return false;
  if (r.string(F::kProvider, o.provider) < 0) return false;
  if (r.string(F::kInstanceType, o.instance_type) < 0) return false;
  if (r.string(F::kGpu, o.gpu_id) < 0 || o.gpu_id.empty()) return false;
  o.gpu = gpus.find(o.gpu_id);
  if (!o.gpu) return false;
  o.gpu_id = o.gpu->id;
  double count = 0;
  if (r.number(F::kGpuCount, count) < 0) return false;
  o.gpu_count = static_cast<int>(count);
  if (r.number(F::kVcpus, o.vcpus) < 0) return false;
  if (r.number(F::kRamGb, o.ram_gb) < 0) return false;
  const int interconnect = r.string(F::kInterconnect, o.interconnect);
  if (interconnect < 0) return false;
  if (interconnect == 0) o.interconnect = o.gpu_count > 1 ? "pcie" : "none";
  if (r.number(F::kNetworkGbps, o.network_gbps) < 0) return false;
  if (r.boolean(F::kRdma, o.rdma) < 0) return false;
  if (r.string(F::kRegion, o.region) < 0) return false;
  if (r.string(F::kCurrency, o.currency) < 0) return false;
  if (r.number(F::kBillingIncrementS, o.billing_increment_s) < 0) return false;
  if (r.number(F::kMinChargeS, o.min_charge_s) < 0) return false;
  if (r.boolean(F::kExample, o.example) < 0) return false;
  if (r.boolean(F::kMarketplace, o.marketplace) < 0) return false;
  const Member* prices = r.get(F::kPrices.name);
  if (!prices || prices->kind != Member::kNested) return false;
  Cursor pc{prices->s, prices->s + prices->len};
  if (!pc.eat('[') || pc.eat(']')) return false;
  Price read[8];  // prices of one offer, copied once into a vector of exactly that size
  size_t count_read = 0;
  for (;;) {
    if (count_read == 8 || !directPrice(pc, terms, read[count_read])) return false;
    ++count_read;
    if (pc.eat(',')) continue;
    if (pc.eat(']')) break;
    return false;
  }
  o.prices.assign(read, read + count_read);
  pc.ws();
  if (pc.p != pc.e) return false;
  // The DOM reader's cross-field errors and warnings: leave offers that raise one to it.
  const Price* od = o.price(PricingModel::kOnDemand);
  if (od && std::count_if(o.prices.begin(), o.prices.end(), [](const Price& p) { return p.model == PricingModel::kOnDemand; }) > 1)
    return false;
  for (const Price& p : o.prices) {
    if ((p.model == PricingModel::kSpot || p.model == PricingModel::kReserved) && od && p.usd_per_hour > od->usd_per_hour * (1 + 1e-9))
      return false;
    if (today_day > 0 && p.as_of_day > 0 && p.as_of_day - today_day > 1) return false;
  }
  o.hardware_hash = hardwareHash(o);
  return true;
}

}  // namespace

// ---- The resumable scanner ---------------------------------------------------------------------------------

struct CatalogStreamReader::State {
  State(const GpuDatabase& g, std::unordered_set<std::string>& t, const std::string& d, bool f)
      : gpus(g), cache(g), taken(t), today_day(dayNumber(d)), fast(f) {}
  const GpuDatabase& gpus;
  GpuCache cache;
  TermsPool terms;
  std::unordered_set<std::string>& taken;
  long today_day;
  bool fast;

  // Where the scanner is: in a top-level array of documents (or not), and inside the current document.
  enum Phase { kStart, kDocOrEnd, kAfterDoc, kDocOpen, kKeyOrClose, kKey, kColon, kValue, kAfterMember, kArrayOpen,
               kItemOrClose, kItem, kAfterItem, kEnd };
  Phase phase = kStart;
  bool array_mode = false, bad = false, key_is_instances = false, found_instances = false;
  bool too_large = false;  // stopped at a value beyond io/limits.hpp: reported, and never read whole
  size_t doc_index = 0, item_index = 0;
  std::string buf;  // text not consumed yet
  size_t pos = 0;
  std::string skeleton;  // the current document without its offers, checked as JSON at its end

  std::vector<Offer> doc_offers;
  std::unordered_set<std::string> doc_ids;
  Issues doc_issues, issues;
  std::vector<Offer> offers;
  size_t read = 0, direct = 0, expected_bytes = 0, bytes_seen = 0;

  void item(const char* t, size_t n) {
    Offer o;
    if (fast && directOffer(t, n, cache, terms, taken, doc_ids, today_day, o)) {
      ++direct;
      doc_ids.insert(o.id);
      doc_offers.push_back(std::move(o));
    } else {
      json inst = json::parse(t, t + n, keepKnownOfferMembers, false);
      if (inst.is_discarded()) {
        bad = true;  // the whole-text parse reports the syntax error with its line and column
        return;
      }
      Offer d;
      if (readOfferJson(inst, item_index, gpus, taken, doc_ids, today_day, d, doc_issues)) doc_offers.push_back(std::move(d));
    }
    ++read;
    ++item_index;
    // Reserve once the size of an offer's text is known (the final count is about expected_bytes / that size).
    if (read == 64 && expected_bytes > 0 && doc_offers.capacity() < 1024) {
      const double per = static_cast<double>(bytes_seen) / 64.0;
      if (per > 0) doc_offers.reserve(static_cast<size_t>(static_cast<double>(expected_bytes) / per * 1.05) + 64);
    }
  }

  void endDocument() {
    json head = found_instances ? json::parse(skeleton, nullptr, false) : json();
    if (!found_instances || head.is_discarded()) {
      bad = true;
      return;
    }
    ObjectReader root(head, "", doc_issues);
    readCatalogHeader(root);
    if (array_mode)
      for (auto& f : doc_issues) f.path = "/" + std::to_string(doc_index) + f.path;
    const bool ok = !hasErrors(doc_issues);
    for (auto& f : doc_issues) issues.push_back(std::move(f));
    if (ok) {
      if (taken.empty()) taken.swap(doc_ids);
      else taken.insert(doc_ids.begin(), doc_ids.end());
      appendOffers(offers, doc_offers);
    }
    doc_offers.clear();
    doc_ids.clear();
    doc_issues.clear();
    skeleton.clear();
    found_instances = false;
    item_index = 0;
    ++doc_index;
  }

  // A value still incomplete at more than `limit` bytes is refused before more text is kept or scanned again.
  bool oversized(size_t bytes, size_t limit, const std::string& what) {
    if (bytes <= limit) return false;
    const std::string doc = array_mode ? "/" + std::to_string(doc_index) : "";
    issues.push_back({ErrorCode::kTooLarge, doc + what, Message("error.value_too_large").num("max_byte_value", static_cast<double>(limit))});
    too_large = bad = true;
    return true;
  }

  // At the '}' that closes the current document.
  void closeDocument() {
    ++pos;
    skeleton += '}';
    endDocument();
    phase = array_mode ? kAfterDoc : kEnd;
  }

  // Consumes as much of buf as forms complete tokens; returns false on malformed text.
  bool scan(bool final) {
    const char* t = buf.data();
    const size_t n = buf.size();
    while (!bad) {
      while (pos < n && isWs(t[pos])) ++pos;
      if (pos >= n) return !final || phase == kEnd;
      const char c = t[pos];
      switch (phase) {
        case kStart:
          if (c == '[') {
            array_mode = true;
            ++pos;
            phase = kDocOrEnd;
          } else {
            phase = kDocOpen;
          }
          break;
        case kDocOrEnd:
          if (c == ']') { ++pos; phase = kEnd; }
          else phase = kDocOpen;
          break;
        case kAfterDoc:
          if (c == ',') { ++pos; phase = kDocOpen; }
          else if (c == ']') { ++pos; phase = kEnd; }
          else return false;
          break;
        case kDocOpen:
          if (c != '{') return false;
          ++pos;
          skeleton = "{";
          phase = kKeyOrClose;
          break;
        case kKeyOrClose:
          if (c == '}') closeDocument();
          else phase = kKey;
          break;
        case kKey: {
          if (c != '"') return false;
          size_t i = pos;
          const Scan s = skipValue(t, n, i, 1, final);
          if (s == Scan::kMore) return true;
          if (s == Scan::kBad) return false;
          key_is_instances = (i - pos == 11 && std::memcmp(t + pos, "\"instances\"", 11) == 0);
          skeleton.append(t + pos, i - pos);
          pos = i;
          phase = kColon;
          break;
        }
        case kColon:
          if (c != ':') return false;
          ++pos;
          skeleton += ':';
          phase = key_is_instances ? kArrayOpen : kValue;
          break;
        case kValue: {
          size_t i = pos;
          const Scan s = skipValue(t, n, i, 255, final);
          if (oversized((s == Scan::kMore ? n : i) - pos, kMaxCatalogMemberBytes, "")) return false;
          if (s == Scan::kMore) return true;
          if (s == Scan::kBad) return false;
          skeleton.append(t + pos, i - pos);
          pos = i;
          phase = kAfterMember;
          break;
        }
        case kAfterMember:
          if (c == ',') { ++pos; skeleton += ','; phase = kKey; }
          else if (c == '}') closeDocument();
          else return false;
          break;
        case kArrayOpen:
          if (found_instances || c != '[') return false;
          found_instances = true;
          ++pos;
          skeleton += "[]";
          phase = kItemOrClose;
          break;
        case kItemOrClose:
          if (c == ']') { ++pos; phase = kAfterMember; }
          else phase = kItem;
          break;
        case kItem: {
          size_t i = pos;
          const Scan s = skipValue(t, n, i, 255, final);
          if (oversized((s == Scan::kMore ? n : i) - pos, kMaxOfferBytes, "/instances/" + std::to_string(item_index))) return false;
          if (s == Scan::kMore) return true;
          if (s == Scan::kBad) return false;
          bytes_seen += i - pos;
          item(t + pos, i - pos);
          pos = i;
          phase = kAfterItem;
          break;
        }
        case kAfterItem:
          if (c == ',') { ++pos; phase = kItem; }
          else if (c == ']') { ++pos; phase = kAfterMember; }
          else return false;
          break;
        case kEnd:
          return false;  // text after the document
      }
    }
    return false;
  }

  bool feed(const char* data, size_t size, bool final) {
    if (bad) return false;
    if (pos > 0) {
      buf.erase(0, pos);
      pos = 0;
    }
    buf.append(data, size);
    if (!scan(final)) bad = true;
    return !bad;
  }
};

CatalogStreamReader::CatalogStreamReader(const GpuDatabase& gpus, std::unordered_set<std::string>& taken_ids,
                                         const std::string& today, bool fast_path)
    : s_(new State(gpus, taken_ids, today, fast_path)) {}
CatalogStreamReader::~CatalogStreamReader() { delete s_; }
void CatalogStreamReader::expectBytes(size_t total_bytes) { s_->expected_bytes = total_bytes; }
bool CatalogStreamReader::feed(const char* data, size_t size) { return s_->feed(data, size, false); }
size_t CatalogStreamReader::offersRead() const { return s_->read; }
size_t CatalogStreamReader::offersReadDirectly() const { return s_->direct; }
bool CatalogStreamReader::tooLarge() const { return s_->too_large; }

bool CatalogStreamReader::sizeIssues(Issues& issues) const {
  if (!s_->too_large) return false;
  for (const auto& f : s_->issues)
    if (f.code == ErrorCode::kTooLarge) issues.push_back(f);
  return true;
}

bool CatalogStreamReader::finish(Catalog& out, Issues& issues) {
  if (!s_->feed("", 0, true) || s_->phase != State::kEnd) return false;
  for (auto& f : s_->issues) issues.push_back(std::move(f));
  appendOffers(out.offers, s_->offers);
  return true;
}

bool parseCatalogStream(const std::string& t, const GpuDatabase& gpus, std::unordered_set<std::string>& taken_ids,
                        Catalog& out, const std::string& today, Issues& issues) {
  // taken_ids changes only on success: a failed read leaves the caller's set as it was.
  std::unordered_set<std::string> taken = taken_ids;
  CatalogStreamReader reader(gpus, taken, today);
  Catalog read;
  Issues found;
  if (!reader.feed(t.data(), t.size()) || !reader.finish(read, found)) {
    reader.sizeIssues(issues);
    return false;
  }
  taken_ids.swap(taken);
  for (auto& f : found) issues.push_back(std::move(f));
  appendOffers(out.offers, read.offers);
  return true;
}

}  // namespace gpuvalue
