// The streamed catalog reader: the direct (DOM-free) offer reader must read exactly what the DOM reader reads,
// field for field and issue for issue; the text may arrive split anywhere; malformed text is handed back.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "model/catalog.hpp"
#include "model/catalog_fields.hpp"
#include "io/json_writer.hpp"
#include "test_support.hpp"

using namespace gpuvalue;

namespace {

using gpuvalue_test::gpuDatabase;

struct Read {
  bool ok = false;
  Catalog catalog;
  Issues issues;
  size_t direct = 0, total = 0;
};

// Reads `text` in pieces of `piece` bytes (0 = whole), with or without the direct reader.
Read readText(const std::string& text, bool fast, size_t piece = 0) {
  Read r;
  std::unordered_set<std::string> taken;
  CatalogStreamReader reader(gpuDatabase(), taken, "2026-12-02", fast);
  reader.expectBytes(text.size());
  bool fed = true;
  if (piece == 0) {
    fed = reader.feed(text.data(), text.size());
  } else {
    for (size_t i = 0; i < text.size() && fed; i += piece) fed = reader.feed(text.data() + i, std::min(piece, text.size() - i));
  }
  r.ok = fed && reader.finish(r.catalog, r.issues);
  r.direct = reader.offersReadDirectly();
  r.total = reader.offersRead();
  return r;
}

std::string bitsOf(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%a", v);
  return b;
}

// Every field of an offer, numbers by their bits.
std::string describe(const Offer& o) {
  std::string s = o.id + "|" + o.provider + "|" + o.instance_type + "|" + o.gpu_id + "|" + (o.gpu ? o.gpu->id : "-") + "|" +
                  std::to_string(o.gpu_count) + "|" + bitsOf(o.vcpus) + "|" + bitsOf(o.ram_gb) + "|" + o.interconnect + "|" +
                  bitsOf(o.network_gbps) + "|" + (o.rdma ? "r" : "-") + "|" + o.region + "|" + o.currency + "|" +
                  bitsOf(o.billing_increment_s) + "|" + bitsOf(o.min_charge_s) + "|" + (o.example ? "e" : "-") + "|" +
                  (o.service().preinstalled_frameworks ? "f" : "-") + bitsOf(o.service().sla_pct) + bitsOf(o.service().scaling_minutes) +
                  bitsOf(o.service().queue_minutes) + "|" + (o.claims ? "c" : "-") + "|" + std::to_string(o.hardware_hash);
  for (const auto& p : o.prices) {
    s += "\n  " + std::string(pricingModelName(p.model)) + "|" + bitsOf(p.usd_per_hour) + "|" + bitsOf(p.terms().usd_per_month) + "|" +
         std::to_string(p.terms().term_months) + "|" + p.terms().upfront + "|" + bitsOf(p.terms().claimed_discount_pct) + "|" +
         bitsOf(p.terms().interruption_per_hour) + "|" + bitsOf(p.terms().free_hours) + "|" + p.as_of + "|" + std::to_string(p.as_of_day) + "|" +
         p.source + "|" + std::to_string(p.terms().tiers.size());
  }
  for (const auto& w : o.warnings) s += "\n  ! " + debugText(w);
  return s;
}

std::string describe(const Read& r) {
  std::string s = r.ok ? "ok\n" : "malformed\n";
  for (const auto& o : r.catalog.offers) s += describe(o) + "\n";
  for (const auto& i : r.issues) s += (i.warning ? "warning " : "error ") + i.path + ": " + debugText(i.message) + "\n";
  return s;
}

size_t checkSame(const std::string& text, const std::string& what) {
  INFO(what);
  const Read dom = readText(text, false);
  const Read direct = readText(text, true);
  CHECK(describe(direct) == describe(dom));
  const Read split = readText(text, true, 7);
  CHECK(describe(split) == describe(dom));
  return std::min(direct.direct, dom.catalog.offers.size());
}

// A seeded catalog with the value shapes real ones have, and numbers written every way JSON allows.
std::string syntheticCatalog(unsigned seed, size_t n) {
  std::mt19937 rng(seed);
  auto pick = [&](std::initializer_list<const char*> l) { return *(l.begin() + rng() % l.size()); };
  // Mostly one of the valid values, now and then the invalid one (so that most documents are valid).
  auto mostly = [&](std::initializer_list<const char*> valid, const char* invalid) {
    return rng() % 25 == 0 ? invalid : *(valid.begin() + rng() % valid.size());
  };
  auto numberText = [&]() -> std::string {
    char b[64];
    switch (rng() % 8) {
      case 0: std::snprintf(b, sizeof b, "%u", static_cast<unsigned>(rng() % 100 + 1)); break;
      case 1: std::snprintf(b, sizeof b, "%.4f", (rng() % 1000000) / 1e4 + 0.0001); break;
      case 2: std::snprintf(b, sizeof b, "%.17g", (rng() % 1000000) / 7.0 + 0.01); break;
      case 3: std::snprintf(b, sizeof b, "%.3e", (rng() % 100000) / 100.0 + 0.001); break;
      case 4: std::snprintf(b, sizeof b, "%uE-2", static_cast<unsigned>(rng() % 100000 + 1)); break;
      case 5: std::snprintf(b, sizeof b, "0.%022u1", static_cast<unsigned>(rng() % 10)); break;  // beyond the exact path
      case 6: std::snprintf(b, sizeof b, "%u%u%u.5", static_cast<unsigned>(rng()), static_cast<unsigned>(rng()),
                            static_cast<unsigned>(rng() % 10)); break;  // > 19 digits
      default: std::snprintf(b, sizeof b, "%.6f", (rng() % 300) / 3.0 + 0.5); break;
    }
    return b;
  };
  // An array of small documents, so that most documents are valid and their offers are compared too.
  std::string t = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i % 3 == 0) t += std::string(i ? "]}, " : "") + "{\"schema_version\": 1, \"instances\": [";
    else t += ",\n";
    const char* gpu = mostly({"a100-sxm4-80gb", "h100-sxm5-80gb", "T4", "l4", "a10g", "v100-sxm2-16gb", "A100 80GB"}, "nosuch-gpu");
    t += "{\"id\": \"s-" + std::to_string(rng() % 50 == 0 ? 0 : i) + "\", \"provider\": \"" + pick({"AWS", "Lambda", "Google Cloud"}) +
         "\", \"instance_type\": \"x" + std::to_string(i) + "\", \"gpu\": \"" + gpu + "\", \"gpu_count\": " +
         mostly({"1", "8", "8.0", "2", "4e0"}, "0") + ", \"vcpus\": " + numberText() + ", \"ram_gb\": " + numberText() +
         ", \"interconnect\": \"" + mostly({"nvswitch", "pcie", "none", "nvlink"}, "warp") + "\", \"network_gbps\": " +
         mostly({"100", "3200", "0", "null"}, "-1") + ", \"rdma\": " + mostly({"true", "false", "null"}, "\"yes\"") + ", \"region\": \"" +
         pick({"us-east-1", "cn-beijing", "eu-west-1"}) + "\", \"currency\": \"" + mostly({"USD", "CNY"}, "EUR") +
         "\", \"billing_increment_s\": " + mostly({"1", "60", "3600"}, "0") + ", \"notes\": \"" +
         pick({"plain", "plain", "plain", "with \\\"escape\\\"", "\xe4\xb8\xad\xe6\x96\x87"}) + "\", \"prices\": [";
    const std::string od = numberText();
    t += "{\"model\": \"on_demand\", \"usd_per_hour\": " + od + ", \"as_of\": \"" + mostly({"2026-11-01", "2026-10-01", "2025-01-01"}, pick({"2027-05-01", "2026-13-01"})) +
         "\", \"source\": \"synthetic\"}";
    if (rng() % 2) t += ", {\"model\": \"spot\", \"usd_per_hour\": " + numberText() + ", \"interruption_per_hour\": " +
                        mostly({"0.01", "0.5", "0.02", "0"}, "11") + ", \"as_of\": \"2026-11-01\", \"source\": \"s\"}";
    if (rng() % 3 == 0) t += ", {\"model\": \"reserved\", \"usd_per_hour\": 0.5, \"term_months\": " + std::string(mostly({"12", "36", "1.2e1"}, pick({"0", "12.5"}))) +
                             ", \"upfront\": \"" + mostly({"none", "all", "partial"}, "some") + "\", \"as_of\": \"2026-11-01\", \"source\": \"s\"}";
    if (rng() % 11 == 0) t += ", {\"model\": \"monthly\", \"usd_per_month\": 900, \"as_of\": \"2026-11-01\", \"source\": \"s\"}";
    t += "]}";
  }
  return t + "]}]";
}

}  // namespace

TEST_CASE("the direct reader reads the shipped catalogs exactly as the DOM reader does", "[catalog][stream]") {
  for (const auto& name : gpuvalue_test::jsonFiles("data/catalog")) checkSame(gpuvalue_test::readFile("data/catalog/" + name), name);
  const size_t direct = checkSame(gpuvalue_test::allCatalogsText(), "all catalogs as one array");
  // Real offers carry notes in Chinese and English, escapes, claims: most still take the direct path.
  CHECK(direct >= 100);
}

TEST_CASE("the direct reader agrees with the DOM reader on every catalog of the bad-input corpus", "[catalog][stream]") {
  int n = 0;
  for (const auto& name : gpuvalue_test::jsonFiles("tests/corpus")) {
    if (name.rfind("catalog", 0) != 0) continue;
    checkSame(gpuvalue_test::readFile("tests/corpus/" + name), name);
    ++n;
  }
  CHECK(n >= 20);
}

TEST_CASE("the direct reader agrees with the DOM reader on seeded catalogs with unusual values", "[catalog][stream]") {
  size_t direct = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) direct += checkSame(syntheticCatalog(seed, 60), "seed " + std::to_string(seed));
  CHECK(direct >= 80);  // many offers took the direct path and were accepted, so the comparison covers both
}

TEST_CASE("plain offers are read without a DOM and numbers convert to the same bits", "[catalog][stream]") {
  std::mt19937 rng(7);
  std::string t = "{\"instances\": [";
  for (int i = 0; i < 3000; ++i) {
    char price[64];
    switch (i % 4) {
      case 0: std::snprintf(price, sizeof price, "%.4f", (rng() % 10000000) / 1e4 + 1e-4); break;
      case 1: std::snprintf(price, sizeof price, "%.17g", (rng() % 1000000) / 3.0 + 0.1); break;
      case 2: std::snprintf(price, sizeof price, "%.9e", (rng() % 1000000) / 1000.0 + 0.001); break;
      default: std::snprintf(price, sizeof price, "%u", static_cast<unsigned>(rng() % 900000 + 1)); break;
    }
    t += std::string(i ? "," : "") + "{\"id\": \"p" + std::to_string(i) + "\", \"provider\": \"P\", \"instance_type\": \"t\", " +
         "\"gpu\": \"l4\", \"gpu_count\": 1, \"region\": \"r\", \"prices\": [{\"model\": \"on_demand\", \"usd_per_hour\": " + price +
         ", \"as_of\": \"2026-11-01\", \"source\": \"s\"}]}";
  }
  t += "]}";
  const Read direct = readText(t, true);
  REQUIRE(direct.ok);
  CHECK(direct.direct == 3000);
  CHECK(direct.catalog.offers.size() == 3000);
  const Read dom = readText(t, false);
  CHECK(dom.direct == 0);
  CHECK(describe(direct) == describe(dom));
}

TEST_CASE("catalog text split at every byte position reads the same", "[catalog][stream]") {
  const std::string text = syntheticCatalog(3, 12);
  const std::string whole = describe(readText(text, true));
  for (size_t piece : {1, 2, 3, 5, 64, 1000}) {
    INFO("pieces of " << piece);
    CHECK(describe(readText(text, true, piece)) == whole);
  }
}

TEST_CASE("malformed catalog text is handed back for a whole-text read", "[catalog][stream]") {
  for (const char* bad : {"{\"instances\": [", "{\"instances\": [{\"id\": 1}", "{\"instances\": []} x", "[{\"instances\": []},]",
                          "{\"instances\": [], \"instances\": []}", "{\"a\": 1}", "{\"instances\": [1 2]}", "\"text\"",
                          "{\"instances\": [{\"id\": tru}]}", "{\"instances\": [], \"x\": [1,]}"}) {
    INFO(bad);
    CHECK_FALSE(readText(bad, true).ok);
    CHECK_FALSE(readText(bad, true, 1).ok);
  }
}

TEST_CASE("the engine's piecewise catalog API answers like loadCatalog", "[catalog][stream][engine]") {
  Engine a, b;
  for (Engine* e : {&a, &b}) {
    e->setToday("2026-12-02");
    e->loadGpus(gpuvalue_test::readFile("data/gpus.json"));
  }
  const std::string text = gpuvalue_test::allCatalogsText();
  const std::string whole = a.loadCatalog(text);
  REQUIRE(gpuvalue_test::parse(b.catalogBegin("load", static_cast<double>(text.size())))["ok"] == true);
  for (size_t i = 0; i < text.size(); i += 4096) {
    const size_t n = std::min<size_t>(4096, text.size() - i);
    char* buf = b.catalogBuffer(n);
    REQUIRE(buf != nullptr);
    std::memcpy(buf, text.data() + i, n);
    REQUIRE(b.catalogFeed(n));
  }
  CHECK(b.catalogEnd() == whole);
  CHECK(a.catalogSummary() == b.catalogSummary());

  // Malformed: the answer asks for the whole text and the catalog is unchanged.
  const std::string before = b.catalogSummary();
  b.catalogBegin("load", 0);
  const std::string bad = "{\"instances\": [{\"id\": \"x\"},";
  std::memcpy(b.catalogBuffer(bad.size()), bad.data(), bad.size());
  b.catalogFeed(bad.size());
  auto r = gpuvalue_test::parse(b.catalogEnd());
  CHECK(r["ok"] == false);
  CHECK(r["retry_whole_text"] == true);
  CHECK(b.catalogSummary() == before);
  // Without catalogBegin there is nothing to end.
  CHECK(gpuvalue_test::parse(b.catalogEnd())["ok"] == false);
  CHECK_FALSE(b.catalogFeed(1));
}

TEST_CASE("the JSON writer writes whole numbers exactly as the shortest round-trip routine does", "[json]") {
  std::mt19937_64 rng(11);
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 8.0, 312.0, 1000.0, 55188.0, 999999999999999.0, 1e15, 1e16, -123456789.0,
                                0.5, 2.1, 1e-7, 123.456};
  for (int i = 0; i < 2000; ++i) values.push_back(static_cast<double>(static_cast<long long>(rng() % 2000000000000000ull) - 1000000000000000ll));
  for (int i = 0; i < 500; ++i) values.push_back(static_cast<double>(rng() % 100000) / 8.0);
  for (double v : values) {
    std::string a;
    {
      gpuvalue::JsonWriter j(a);
      j.beginArray().value(v).endArray();
    }
    char buf[64];
    char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
    INFO(v);
    CHECK(a == "[" + std::string(buf, end) + "]");
  }
}

// ---- Both readers follow the field tables ---------------------------------------------------------------------

namespace F = catalog_fields;

namespace {

// An offer that both readers read, with every member the direct reader reads and one price of each hourly model.
json tableOffer() {
  // Both dates, so that either one alone is a valid price (a price needs one of them).
  json price = {{"as_of", "2026-11-01"}, {"read_on", "2026-11-02"}, {"source", "s"}, {"claimed_discount_pct", 10}, {"free_trial_hours", 1}};
  json od = price, reserved = price, spot = price, monthly = price;
  od["model"] = "on_demand", od["usd_per_hour"] = 10;
  reserved["model"] = "reserved", reserved["usd_per_hour"] = 5, reserved["term_months"] = 12, reserved["upfront"] = "partial";
  spot["model"] = "spot", spot["usd_per_hour"] = 3, spot["interruption_per_hour"] = 0.1;
  monthly["model"] = "monthly", monthly["usd_per_month"] = 3000;
  return {{"id", "f"}, {"provider", "P"}, {"instance_type", "t"}, {"gpu", "a100-sxm4-80gb"}, {"gpu_count", 2}, {"vcpus", 8},
          {"ram_gb", 64}, {"interconnect", "nvlink"}, {"network_gbps", 100}, {"rdma", true}, {"region", "r"},
          {"currency", "USD"}, {"billing_increment_s", 60}, {"min_charge_s", 60}, {"example", false},
          {"prices", {od, reserved, spot, monthly}}};
}

// Sets (or, for null, removes) one member at `where` in the offer, reads it both ways and checks the verdict.
void probe(json offer, const std::string& where, const Field& f, const json& value, bool valid, bool direct) {
  json& parent = offer[json::json_pointer(where)];
  if (value.is_null()) parent.erase(f.name);
  else parent[f.name] = value;
  const std::string path = "/instances/0" + where + "/" + f.name;
  const std::string text = dumpJson({{"instances", {offer}}});
  INFO(path << " = " << value.dump() << "\n" << text);
  const Read dom = readText(text, false), fast = readText(text, true);
  CHECK(describe(fast) == describe(dom));
  bool error_there = false, any_error = false;
  for (const auto& i : dom.issues) {
    any_error = any_error || !i.warning;
    error_there = error_there || (!i.warning && i.path == path);
  }
  CHECK(error_there == !valid);
  CHECK(any_error == !valid);
  if (direct) CHECK(fast.direct == (valid && dom.issues.empty() ? 1u : 0u));
}

}  // namespace

TEST_CASE("every field of the offer, price, tier, service and claims tables is read by both readers by its table", "[catalog][stream][fields]") {
  size_t fields = 0, read_by_table = 0;
  for (size_t i = 0; i < F::kOfferRecord.count; ++i) {
    const Field& f = *F::kOfferRecord.fields[i];
    ++fields;
    if (!f.engine_reads || f.type == FieldType::kObject || f.type == FieldType::kArray || f.format) continue;
    for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) {
      probe(tableOffer(), "", f, value, valid, true);
    }
    ++read_by_table;
  }
  for (size_t i = 0; i < F::kPriceRecord.count; ++i) {
    const Field& f = *F::kPriceRecord.fields[i];
    ++fields;
    if (!f.engine_reads || f.type == FieldType::kArray) continue;
    const json base = tableOffer();
    for (size_t k = 0; k < base["prices"].size(); ++k) {
      if (!appliesTo(f, base["prices"][k]["model"].get<std::string>()) || f.name == std::string("model")) continue;
      for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) {
        probe(base, "/prices/" + std::to_string(k), f, value, valid, true);
      }
    }
    ++read_by_table;
  }
  // Nested records: the direct reader leaves offers with them to the DOM reader.
  const std::pair<const Record*, std::string> nested[] = {{&F::kServiceRecord, "service"}, {&F::kClaimsRecord, "claims"}};
  for (const auto& [record, key] : nested)
    for (size_t i = 0; i < record->count; ++i) {
      const Field& f = *record->fields[i];
      ++fields;
      if (f.type == FieldType::kObject || f.type == FieldType::kArray) continue;
      for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) {
        json offer = tableOffer();
        offer[key] = json::object();
        probe(offer, "/" + key, f, value, valid, false);
      }
      ++read_by_table;
    }
  // Tiers (tiered prices go to the DOM reader): probed on the last tier, where up_to_hours is optional.
  for (size_t i = 0; i < F::kTierRecord.count; ++i) {
    const Field& f = *F::kTierRecord.fields[i];
    ++fields;
    json offer = tableOffer();
    offer["prices"].push_back({{"model", "tiered"}, {"as_of", "2026-11-01"}, {"source", "s"},
                               {"tiers", {{{"up_to_hours", 0.5}, {"usd_per_hour", 2}}, {{"usd_per_hour", 1}}}}});
    for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) probe(offer, "/prices/4/tiers/1", f, value, valid, false);
    ++read_by_table;
  }
  for (const char* key : {"service", "claims"}) {  // a null nested record is not an absent one
    json offer = tableOffer();
    offer[key] = nullptr;
    const std::string text = dumpJson({{"instances", {offer}}});
    const Read dom = readText(text, false), fast = readText(text, true);
    CHECK(describe(fast) == describe(dom));
    REQUIRE(dom.issues.size() == 1);
    CHECK(dom.issues[0].path == std::string("/instances/0/") + key);
  }
  CHECK(read_by_table >= 35);
  CHECK(fields == F::kOfferRecord.count + F::kPriceRecord.count + F::kTierRecord.count + F::kServiceRecord.count +
                   F::kClaimsRecord.count);
}

TEST_CASE("a price needs as_of or read_on: both readers refuse one with neither at its as_of path", "[catalog][stream]") {
  json offer = tableOffer();
  for (auto& p : offer["prices"]) p.erase("read_on");
  offer["prices"][0].erase("as_of");
  const std::string text = dumpJson({{"instances", {offer}}});
  const Read dom = readText(text, false), fast = readText(text, true);
  CHECK(describe(fast) == describe(dom));
  bool refused = false;
  for (const auto& i : dom.issues) refused = refused || (!i.warning && i.path == "/instances/0/prices/0/as_of");
  CHECK(refused);
  // With read_on alone the price loads, undated: as_of empty, as_of_day 0.
  offer["prices"][0]["read_on"] = "2026-11-02";
  const Read ok = readText(dumpJson({{"instances", {offer}}}), true);
  REQUIRE(ok.issues.empty());
  REQUIRE(ok.catalog.offers.size() == 1);
  const Price& p = ok.catalog.offers[0].prices[0];
  CHECK(p.as_of.empty());
  CHECK(p.as_of_day == 0);
  CHECK(p.read_on.str() == "2026-11-02");
}

TEST_CASE("a catalog of another format version is refused at /schema_version by both readers, in pieces too", "[catalog][stream]") {
  const json offer = tableOffer();
  // 1 and no version load; anything else is an error at the member's path (in an array of documents, under its index).
  for (const json& v : {json(1), json()}) {
    json doc = {{"instances", {offer}}};
    if (!v.is_null()) doc["schema_version"] = v;
    for (bool fast : {false, true}) {
      const Read r = readText(dumpJson(doc), fast, 7);
      INFO(dumpJson(doc) << " fast " << fast);
      CHECK(r.ok);
      CHECK_FALSE(hasErrors(r.issues));
      CHECK(r.catalog.offers.size() == 1);
    }
  }
  for (const json& v : {json(2), json(999), json(0), json(1.5), json("1"), json::array({1})}) {
    const json doc = {{"schema_version", v}, {"instances", {offer}}};
    for (const std::string& text : {dumpJson(doc), dumpJson(json::array({{{"instances", json::array()}}, doc}))}) {
      const bool in_array = text[0] == '[';
      for (bool fast : {false, true}) {
        const Read r = readText(text, fast, in_array ? 0 : 5);
        INFO(text << " fast " << fast);
        CHECK(r.catalog.offers.empty());
        bool at_path = false;
        for (const auto& i : r.issues) at_path = at_path || (!i.warning && i.path == (in_array ? "/1/schema_version" : "/schema_version"));
        CHECK(at_path);
      }
    }
  }
  // The whole-document reader says the same.
  std::unordered_set<std::string> taken;
  Catalog out;
  const Issues is = parseCatalog(json{{"schema_version", 2}, {"instances", {offer}}}, gpuvalue_test::gpuDatabase(), taken, out, "2026-12-02");
  REQUIRE(is.size() == 1);
  CHECK(is[0].path == "/schema_version");
  CHECK(out.offers.empty());
}

// A 100,000-offer catalog and one ranking fit the wasm engine's 48 MB heap budget (bench/run.mjs) because these
// records are small on its 32-bit target: ~200,000 prices, 100,000 offers, 200,000 ranking entries.
TEST_CASE("prices and offers stay compact and prices with the same terms share one copy", "[catalog][stream][heap]") {
  const bool wasm32 = sizeof(void*) == 4;
  CHECK(sizeof(Price) <= (wasm32 ? 40u : 64u));
  CHECK(sizeof(Offer) <= (wasm32 ? 136u : 232u));
  const std::string price = R"({"model": "reserved", "usd_per_hour": 1, "term_months": 12, "as_of": "2026-11-01", "source": "s"})";
  const std::string on_demand = R"({"model": "on_demand", "usd_per_hour": 2, "as_of": "2026-11-01", "source": "s"})";
  std::string text = R"({"schema_version": 1, "instances": [)";
  for (int i = 0; i < 2; ++i)
    text += std::string(i ? "," : "") + R"({"id": "o)" + std::to_string(i) + R"(", "provider": "P", "instance_type": "t", "gpu": "h100-sxm5-80gb", "gpu_count": 8, "vcpus": 8, "ram_gb": 64, "region": "r", "prices": [)" +
            on_demand + "," + price + "]}";
  text += "]}";
  const Read r = readText(text, true);
  REQUIRE(r.ok);
  REQUIRE(r.direct == 2);
  const Price& a = *r.catalog.offers[0].price(PricingModel::kReserved);
  const Price& b = *r.catalog.offers[1].price(PricingModel::kReserved);
  CHECK(a.terms().term_months == 12);
  CHECK(a.terms().upfront == "none");
  CHECK(&a.terms() == &b.terms());  // one copy of the same terms
  // Prices without terms of their own read the defaults.
  const Price& od = *r.catalog.offers[0].price(PricingModel::kOnDemand);
  CHECK(od.terms() == PriceTerms());
  CHECK(od.terms().interruption_per_hour == -1);
  // A change makes the price's own copy: the price it was shared with keeps its terms.
  Price changed = a;
  changed.editTerms().term_months = 36;
  CHECK(changed.terms().term_months == 36);
  CHECK(a.terms().term_months == 12);
  CHECK(b.terms().term_months == 12);
}
