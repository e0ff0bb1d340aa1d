// Catalog text read in pieces: a resumable scanner finds each offer of the "instances" array, and a direct
// reader turns common, well-formed offers into Offer records without building a JSON DOM. Anything the direct
// reader does not handle exactly like the DOM reader (readOfferJson) goes to the DOM reader instead, so both
// accept the same offers and every problem is reported by one code path, with its JSON Pointer path.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "model/catalog.hpp"

namespace gpuvalue {

namespace {

bool isWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

enum class Scan { kOk, kMore, kBad };

// Advances i past one JSON value of t[0, n): kMore when the value may continue past n (more text to come),
// kBad on unbalanced brackets, a stray delimiter or nesting deeper than max_depth. Numbers, literals and string
// contents are checked when the value is parsed.
Scan skipValue(const char* t, size_t n, size_t& i, int max_depth, bool final) {
  const Scan more = final ? Scan::kBad : Scan::kMore;
  if (i >= n) return more;
  const char c = t[i];
  if (c == '"') {
    for (size_t j = i + 1; j < n; ++j) {
      if (t[j] == '\\') ++j;
      else if (t[j] == '"') { i = j + 1; return Scan::kOk; }
    }
    return more;
  }
  if (c == '{' || c == '[') {
    int depth = 0;
    bool in_string = false;
    for (size_t j = i; j < n; ++j) {
      const char d = t[j];
      if (in_string) {
        if (d == '\\') ++j;
        else if (d == '"') in_string = false;
      } else if (d == '"') {
        in_string = true;
      } else if (d == '{' || d == '[') {
        if (++depth > max_depth) return Scan::kBad;
      } else if (d == '}' || d == ']') {
        if (--depth == 0) { i = j + 1; return Scan::kOk; }
      }
    }
    return more;
  }
  size_t j = i;
  while (j < n && !isWs(t[j]) && t[j] != ',' && t[j] != '}' && t[j] != ']' && t[j] != ':') ++j;
  if (j == n && !final) return Scan::kMore;
  if (j == i) return Scan::kBad;
  i = j;
  return Scan::kOk;
}

// ---- The direct reader -------------------------------------------------------------------------------------
// Declines (returns false) instead of reporting: the DOM reader then reads the offer and reports what is wrong.

struct Cursor {
  const char* p;
  const char* e;
  void ws() {
    while (p < e && isWs(*p)) ++p;
  }
  bool eat(char c) {
    ws();
    if (p < e && *p == c) { ++p; return true; }
    return false;
  }
};

// Length of the valid UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates, at most U+10FFFF, the rules
// the DOM parser applies), 0 when invalid.
size_t utf8Sequence(const unsigned char* p, const unsigned char* e) {
  const unsigned c = p[0];
  size_t len = 0;
  unsigned cp = 0;
  if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
  else return 0;
  if (static_cast<size_t>(e - p) < len) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return len;
}

// A string whose bytes can be taken as they are: valid UTF-8 without control characters. Simple escapes
// (\" \\ \/ \b \f \n \r \t) are accepted and flagged in `escaped` (the text then is not the value: only
// members that are skipped may have them); \u escapes go to the DOM reader (surrogate rules).
bool plainString(Cursor& c, const char*& s, size_t& len, bool& escaped) {
  c.ws();
  escaped = false;
  if (c.p >= c.e || *c.p != '"') return false;
  const unsigned char* q = reinterpret_cast<const unsigned char*>(++c.p);
  const unsigned char* e = reinterpret_cast<const unsigned char*>(c.e);
  while (q < e) {
    const unsigned char ch = *q;
    if (ch == '"') break;
    if (ch < 0x20) return false;
    if (ch == '\\') {
      if (q + 1 >= e || !std::strchr("\"\\/bfnrt", q[1]) || q[1] == 0) return false;
      escaped = true;
      q += 2;
    } else if (ch >= 0x80) {
      const size_t n = utf8Sequence(q, e);
      if (n == 0) return false;
      q += n;
    } else {
      ++q;
    }
  }
  if (q >= e) return false;
  s = c.p;
  len = static_cast<size_t>(reinterpret_cast<const char*>(q) - c.p);
  c.p = reinterpret_cast<const char*>(q) + 1;
  return true;
}

// Powers of ten that are exact in binary64.
const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                         1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A JSON number (RFC 8259 grammar), converted exactly as strtod does: mantissas below 2^53 with at most 22
// decimal exponents are one exact IEEE operation (correctly rounded); anything else goes through strtod.
bool number(Cursor& c, double& out) {
  c.ws();
  const char* p = c.p;
  const char* start = p;
  const char* e = c.e;
  auto digit = [&](const char* q) { return q < e && *q >= '0' && *q <= '9'; };
  bool neg = false;
  if (p < e && *p == '-') { neg = true; ++p; }
  uint64_t mant = 0;
  int exp10 = 0, sig = 0;
  bool exact = true;
  auto add = [&](int d, bool fraction) {
    if (mant == 0 && d == 0) {
      if (fraction) --exp10;
      return;
    }
    if (sig < 19) {
      mant = mant * 10 + static_cast<uint64_t>(d);
      ++sig;
      if (fraction) --exp10;
    } else {
      exact = false;
    }
  };
  if (!digit(p)) return false;
  if (*p == '0') {
    ++p;
  } else {
    while (digit(p)) add(*p++ - '0', false);
  }
  if (p < e && *p == '.') {
    ++p;
    if (!digit(p)) return false;
    while (digit(p)) add(*p++ - '0', true);
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    bool eneg = false;
    if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
    if (!digit(p)) return false;
    long x = 0;
    while (digit(p)) {
      if (x < 100000) x = x * 10 + (*p - '0');
      ++p;
    }
    exp10 += static_cast<int>(eneg ? -x : x);
  }
  c.p = p;
  if (exact && mant <= (1ull << 53) && exp10 >= -22 && exp10 <= 22) {
    double v = static_cast<double>(mant);
    v = exp10 < 0 ? v / kPow10[-exp10] : v * kPow10[exp10];
    out = neg ? -v : v;
    return true;
  }
  char buf[400];
  const size_t len = static_cast<size_t>(p - start);
  if (len >= sizeof buf) return false;
  std::memcpy(buf, start, len);
  buf[len] = 0;
  out = std::strtod(buf, nullptr);
  return true;
}

bool literal(Cursor& c, const char* word, size_t n) {
  if (static_cast<size_t>(c.e - c.p) < n || std::memcmp(c.p, word, n) != 0) return false;
  c.p += n;
  return true;
}

// One member of a flat object: a scalar, or the raw extent of a nested array/object.
struct Member {
  const char* key;
  size_t key_len;
  enum Kind { kString, kNumber, kBool, kNull, kNested } kind;
  const char* s;  // string contents or nested text
  size_t len;
  bool escaped;   // a string with escapes: its text is not its value
  double num;
  bool b;
};

constexpr int kMaxMembers = 40;

// Reads an object whose members are scalars; nested values are allowed only under `nested_key` (kept raw).
bool flatObject(Cursor& c, Member* m, int& count, const char* nested_key) {
  count = 0;
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  for (;;) {
    if (count == kMaxMembers) return false;
    Member& x = m[count];
    bool key_escaped = false;
    if (!plainString(c, x.key, x.key_len, key_escaped) || key_escaped) return false;
    x.escaped = false;
    for (int k = 0; k < count; ++k)  // duplicate keys: the DOM keeps the last one, leave that to it
      if (m[k].key_len == x.key_len && std::memcmp(m[k].key, x.key, x.key_len) == 0) return false;
    if (!c.eat(':')) return false;
    c.ws();
    if (c.p >= c.e) return false;
    const char ch = *c.p;
    if (ch == '"') {
      x.kind = Member::kString;
      if (!plainString(c, x.s, x.len, x.escaped)) return false;
    } else if (ch == 't') {
      x.kind = Member::kBool, x.b = true;
      if (!literal(c, "true", 4)) return false;
    } else if (ch == 'f') {
      x.kind = Member::kBool, x.b = false;
      if (!literal(c, "false", 5)) return false;
    } else if (ch == 'n') {
      x.kind = Member::kNull;
      if (!literal(c, "null", 4)) return false;
    } else if (ch == '[' || ch == '{') {
      if (!nested_key || std::strlen(nested_key) != x.key_len || std::memcmp(nested_key, x.key, x.key_len) != 0) return false;
      x.kind = Member::kNested;
      size_t i = 0;
      const size_t n = static_cast<size_t>(c.e - c.p);
      if (skipValue(c.p, n, i, 8, true) != Scan::kOk) return false;
      x.s = c.p;
      x.len = i;
      c.p += i;
    } else {
      x.kind = Member::kNumber;
      if (!number(c, x.num)) return false;
    }
    ++count;
    if (c.eat(',')) continue;
    if (c.eat('}')) return true;
    return false;
  }
}

// Typed access with the DOM reader's rules (ObjectReader): null counts as absent; a missing required member, a
// wrong type or a value out of range declines.
class Flat {
 public:
  Flat(const Member* m, int n) : m_(m), n_(n) {}
  const Member* get(const char* key) const {
    const size_t len = std::strlen(key);
    for (int i = 0; i < n_; ++i)
      if (m_[i].key_len == len && std::memcmp(m_[i].key, key, len) == 0) return m_[i].kind == Member::kNull ? nullptr : &m_[i];
    return nullptr;
  }
  // 1 = present and valid, 0 = absent (and not required), -1 = decline.
  int string(const char* key, bool required, std::string& out) const {
    const Member* x = get(key);
    if (!x) return required ? -1 : 0;
    if (x->kind != Member::kString || x->escaped) return -1;
    out.assign(x->s, x->len);
    return 1;
  }
  int string(const char* key, bool required, Atom& out) const {
    std::string s;
    const int r = string(key, required, s);
    if (r > 0) out = s;
    return r;
  }
  int number(const char* key, bool required, double min, bool min_exclusive, double max, double& out) const {
    const Member* x = get(key);
    if (!x) return required ? -1 : 0;
    if (x->kind != Member::kNumber) return -1;
    const double d = x->num;
    if (!std::isfinite(d) || (min_exclusive ? !(d > min) : !(d >= min)) || d > max) return -1;
    out = d;
    return 1;
  }
  int integer(const char* key, bool required, long long min, long long max, long long& out) const {
    const Member* x = get(key);
    if (!x) return required ? -1 : 0;
    if (x->kind != Member::kNumber) return -1;
    const double d = x->num;
    if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(min) || d > static_cast<double>(max)) return -1;
    out = static_cast<long long>(d);
    return 1;
  }
  int boolean(const char* key, bool& out) const {
    const Member* x = get(key);
    if (!x) return 0;
    if (x->kind != Member::kBool) return -1;
    out = x->b;
    return 1;
  }

 private:
  const Member* m_;
  int n_;
};

// parsePrice for on-demand, reserved, spot and monthly prices (tiered ones go to the DOM reader).
bool directPrice(Cursor& c, Price& p) {
  Member m[kMaxMembers];
  int n = 0;
  if (!flatObject(c, m, n, nullptr)) return false;
  Flat r(m, n);
  std::string model;
  if (r.string("model", true, model) < 0 || !parsePricingModel(model, p.model)) return false;
  if (p.model == PricingModel::kTiered) return false;
  if (r.string("as_of", true, p.as_of) < 0 || !isIsoDate(p.as_of)) return false;
  p.as_of_day = dayNumber(p.as_of);
  if (r.string("source", true, p.source) < 0) return false;
  if (p.model == PricingModel::kMonthly) {
    if (r.number("usd_per_month", true, 0, true, 1e8, p.usd_per_month) < 0) return false;
  } else if (r.number("usd_per_hour", true, 0, true, 1e6, p.usd_per_hour) < 0) {
    return false;
  }
  if (p.model == PricingModel::kReserved) {
    long long term = 0;
    if (r.integer("term_months", true, 1, 120, term) < 0) return false;
    p.term_months = static_cast<int>(term);
    p.upfront = "none";
    if (r.string("upfront", false, p.upfront) < 0) return false;
    if (p.upfront != "none" && p.upfront != "partial" && p.upfront != "all") return false;
  }
  if (r.number("claimed_discount_pct", false, 0, false, 100, p.claimed_discount_pct) < 0) return false;
  if (r.number("interruption_per_hour", false, 0, false, 10, p.interruption_per_hour) < 0) return false;
  if (r.number("free_trial_hours", false, 0, false, 1e5, p.free_hours) < 0) return false;
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
bool directOffer(const char* text, size_t size, GpuCache& gpus, const std::unordered_set<std::string>& taken_ids,
                 const std::unordered_set<std::string>& ids, long today_day, Offer& o) {
  Cursor c{text, text + size};
  Member m[kMaxMembers];
  int n = 0;
  if (!flatObject(c, m, n, "prices")) return false;
  c.ws();
  if (c.p != c.e) return false;
  Flat r(m, n);
  if (r.get("service") || r.get("claims")) return false;
  if (r.string("id", true, o.id) < 0 || o.id.empty() || taken_ids.count(o.id) || ids.count(o.id)) return false;
  if (r.string("provider", true, o.provider) < 0) return false;
  if (r.string("instance_type", true, o.instance_type) < 0) return false;
  if (r.string("gpu", true, o.gpu_id) < 0 || o.gpu_id.empty()) return false;
  o.gpu = gpus.find(o.gpu_id);
  if (!o.gpu) return false;
  o.gpu_id = o.gpu->id;
  long long count = 0;
  if (r.integer("gpu_count", true, 1, 1024, count) < 0) return false;
  o.gpu_count = static_cast<int>(count);
  if (r.number("vcpus", false, 0, true, 1e5, o.vcpus) < 0) return false;
  if (r.number("ram_gb", false, 0, true, 1e6, o.ram_gb) < 0) return false;
  o.interconnect = o.gpu_count > 1 ? "pcie" : "none";
  if (r.string("interconnect", false, o.interconnect) < 0) return false;
  if (o.interconnect != "nvswitch" && o.interconnect != "nvlink" && o.interconnect != "pcie" &&
      o.interconnect != "infinity-fabric" && o.interconnect != "none")
    return false;
  if (r.number("network_gbps", false, 0, false, 1e5, o.network_gbps) < 0) return false;
  if (r.boolean("rdma", o.rdma) < 0) return false;
  if (r.string("region", true, o.region) < 0) return false;
  if (r.string("currency", false, o.currency) < 0 || (o.currency != "USD" && o.currency != "CNY")) return false;
  if (r.number("billing_increment_s", false, 0, true, 31 * 86400.0, o.billing_increment_s) < 0) return false;
  if (r.number("min_charge_s", false, 0, false, 366 * 86400.0, o.min_charge_s) < 0) return false;
  if (r.boolean("example", o.example) < 0) return false;
  const Member* prices = r.get("prices");
  if (!prices || prices->kind != Member::kNested) return false;
  Cursor pc{prices->s, prices->s + prices->len};
  if (!pc.eat('[') || pc.eat(']')) return false;
  Price read[8];  // prices of one offer, copied once into a vector of exactly that size
  size_t count_read = 0;
  for (;;) {
    if (count_read == 8 || !directPrice(pc, read[count_read])) return false;
    ++count_read;
    if (pc.eat(',')) continue;
    if (pc.eat(']')) break;
    return false;
  }
  o.prices.assign(read, read + count_read);
  pc.ws();
  if (pc.p != pc.e) return false;
  // The DOM reader's cross-field warnings: leave offers that raise one to it.
  const Price* od = o.price(PricingModel::kOnDemand);
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
  std::unordered_set<std::string>& taken;
  long today_day;
  bool fast;

  // Where the scanner is: in a top-level array of documents (or not), and inside the current document.
  enum Phase { kStart, kDocOrEnd, kAfterDoc, kDocOpen, kKeyOrClose, kKey, kColon, kValue, kAfterMember, kArrayOpen,
               kItemOrClose, kItem, kAfterItem, kEnd };
  Phase phase = kStart;
  bool array_mode = false, bad = false, key_is_instances = false, found_instances = false;
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
    if (fast && directOffer(t, n, cache, taken, doc_ids, today_day, o)) {
      ++direct;
      doc_ids.insert(o.id);
      doc_offers.push_back(std::move(o));
    } else {
      json inst = json::parse(t, t + n, nullptr, false);
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
    if (!found_instances || !json::accept(skeleton)) {
      bad = true;
      return;
    }
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
  if (!reader.feed(t.data(), t.size()) || !reader.finish(read, found)) return false;
  taken_ids.swap(taken);
  for (auto& f : found) issues.push_back(std::move(f));
  appendOffers(out.offers, read.offers);
  return true;
}

}  // namespace gpuvalue
