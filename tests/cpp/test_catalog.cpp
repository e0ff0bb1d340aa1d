#include <catch2/catch.hpp>

#include <set>

#include "model/catalog.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using gpuvalue_test::parse;

using gpuvalue_test::gpuDatabase;

static Issues load(const std::string& text, Catalog& out) {
  Catalog existing;
  return parseCatalog(text, gpuDatabase(), existing, out, "2026-12-02");
}

static bool hasPath(const Issues& is, const std::string& path, bool warning = false) {
  for (const auto& i : is)
    if (i.path == path && i.warning == warning) return true;
  return false;
}

TEST_CASE("the real catalog loads: at least 60 real offers from at least 8 providers", "[catalog][data]") {
  auto& e = gpuvalue_test::loadedEngine();
  std::set<std::string> providers;
  size_t real = 0;
  for (const auto& o : e.catalog().offers) {
    if (o.example) continue;
    ++real;
    providers.insert(o.provider);
    for (const auto& p : o.prices) {
      INFO(o.id);
      // The date the source gives (as_of), or the day a price without one was read (read_on).
      CHECK((isIsoDate(p.as_of) || (p.as_of.empty() && isIsoDate(p.read_on))));
      CHECK_FALSE(p.source.empty());
    }
  }
  CHECK(real >= 60);
  CHECK(providers.size() >= 8);
}

TEST_CASE("the article's three instances are in the catalog as examples", "[catalog][article]") {
  auto& e = gpuvalue_test::loadedEngine();
  int n = 0;
  for (const auto& o : e.catalog().offers)
    if (o.example && (o.instance_type == "GN7" || o.instance_type == "GN8" || o.instance_type == "GN10")) ++n;
  CHECK(n == 3);
}

TEST_CASE("the claim check flags the article's five datasheet discrepancies", "[catalog][claims][article]") {
  auto& e = gpuvalue_test::loadedEngine();
  std::string all;
  for (const auto& o : e.catalog().offers)
    if (o.example)
      for (const auto& w : o.warnings) all += debugText(w) + "\n";
  INFO(all);
  CHECK(all.find("claim.gpu_memory{stated_gb=40,datasheet_gb=24,gpu=a10") != std::string::npos);  // A10 is 24 GB
  CHECK(all.find("claim.tflops{stated_tflops=312,precision=fp16,gpu_count=2,per_gpu_tflops=125,datasheet_tflops=250}") !=
        std::string::npos);                                                                       // 2 x 125 dense = 250
  CHECK(all.find("claim.memory_bandwidth{stated_gbs=136,") != std::string::npos);                 // A10: 600 GB/s
  CHECK(all.find("stated_tflops=1200,precision=fp8") != std::string::npos);                      // 4 x H100 SXM ~ 7.9 PF dense
  CHECK(all.find("datasheet_tflops=7916") != std::string::npos);
  CHECK(all.find("memory_type=DDR4,stated_memory_type=DDR5") != std::string::npos);              // Xeon Platinum 8380
}

TEST_CASE("catalog errors are all reported with JSON Pointer paths", "[catalog][errors]") {
  Catalog out;
  Issues is = load(R"({"instances": [
    {"id": "a", "provider": "P", "instance_type": "x", "gpu": "a100-sxm4-80gb", "gpu_count": 8, "region": "r",
     "prices": [{"model": "on_demand", "usd_per_hour": 10, "as_of": "2026-01-01", "source": "s"},
                {"model": "on_demand", "usd_per_hour": -3, "as_of": "2026-01-01", "source": "s"}]},
    {"id": "a", "provider": "P", "instance_type": "y", "gpu": "z9000", "gpu_count": 0, "region": "r",
     "prices": [{"model": "spot", "usd_per_hour": "cheap", "as_of": "yesterday", "source": "s"}]},
    {"id": "c", "provider": "P", "instance_type": "z", "gpu": "t4", "gpu_count": 1,
     "prices": [{"model": "bartering", "as_of": "2026-01-01", "source": "s"}]}
  ]})", out);
  CHECK(hasPath(is, "/instances/0/prices/1/usd_per_hour"));
  CHECK(hasPath(is, "/instances/1/id"));
  CHECK(hasPath(is, "/instances/1/gpu"));
  CHECK(hasPath(is, "/instances/1/gpu_count"));
  CHECK(hasPath(is, "/instances/1/prices/0/usd_per_hour"));
  CHECK(hasPath(is, "/instances/1/prices/0/as_of"));
  CHECK(hasPath(is, "/instances/2/region"));
  CHECK(hasPath(is, "/instances/2/prices/0/model"));
  CHECK(out.offers.empty());  // nothing is added when any error exists
  for (const auto& i : is) {
    if (i.path == "/instances/0/prices/1/usd_per_hour") CHECK(debugText(i.message) == "error.number_out_of_range{lower=closed,min=0.001,upper=closed,max=1e+06,value=-3}");
  }
}

TEST_CASE("spot above on-demand is a warning, not an error", "[catalog][errors]") {
  Catalog out;
  Issues is = load(R"({"instances": [{"id": "a", "provider": "P", "instance_type": "x", "gpu": "t4", "gpu_count": 1,
    "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 1, "as_of": "2026-11-01", "source": "s"},
                              {"model": "spot", "usd_per_hour": 2, "as_of": "2026-11-01", "source": "s"}]}]})", out);
  CHECK_FALSE(hasErrors(is));
  CHECK(hasPath(is, "/instances/0/prices/1/usd_per_hour", true));
  CHECK(out.offers.size() == 1);
}

TEST_CASE("prices older than 180 days are marked stale", "[catalog]") {
  Catalog out;
  // 2026-05-01 -> 2026-12-02 is 215 days.
  Issues is = load(R"({"instances": [{"id": "a", "provider": "P", "instance_type": "x", "gpu": "t4", "gpu_count": 1,
    "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 1, "as_of": "2026-05-01", "source": "s"}]}]})", out);
  REQUIRE(out.offers.size() == 1);
  CHECK(debugText(staleWarning(out.offers[0].prices[0], "2026-12-02")) == "price.stale{pricing=on_demand,date=2026-05-01,day_count=180}");
  CHECK(staleWarning(out.offers[0].prices[0], "2026-06-01").empty());
  CHECK(daysBetween("2026-05-01", "2026-12-02") == 215);
}

TEST_CASE("a failed catalog load keeps the previous catalog in the engine", "[catalog][errors]") {
  Engine e;
  e.setToday("2026-12-02");
  REQUIRE(parse(e.loadGpus(gpuvalue_test::readFile("data/gpus.json")))["ok"] == true);
  REQUIRE(parse(e.loadCatalog(gpuvalue_test::readFile("data/catalog/article-examples.json")))["ok"] == true);
  size_t before = e.catalog().offers.size();
  auto r = parse(e.loadCatalog(R"({"instances": [{"id": 5}]})"));
  CHECK(r["ok"] == false);
  CHECK(r["issues"].size() >= 5);
  CHECK(e.catalog().offers.size() == before);
  auto bad = parse(e.loadCatalog("{\"instances\": [ {,] }"));
  CHECK(bad["ok"] == false);
  CHECK(bad["error"]["code"] == "json_syntax");
  CHECK(e.catalog().offers.size() == before);
}

TEST_CASE("deeply nested JSON is rejected without recursion", "[catalog][errors]") {
  Catalog out;
  std::string deep(100000, '[');
  Issues is = load(deep, out);
  REQUIRE(is.size() == 1);
  CHECK(is[0].code == ErrorCode::kJsonSyntax);
}

// One offer of the corpus shape with the given id and prices (JSON text).
static std::string offerText(const std::string& id, const std::string& prices) {
  return R"({"id": )" + id + R"(, "provider": "P", "instance_type": "x", "gpu": "t4", "gpu_count": 1, "region": "r", "prices": [)" + prices + "]}";
}
static const char* kOnDemand = R"({"model": "on_demand", "usd_per_hour": 1, "as_of": "2026-11-01", "source": "s"})";
static const char* kOnDemandAgain = R"({"model": "on_demand", "usd_per_hour": 0.5, "as_of": "2026-11-01", "source": "s"})";

// The message code of the issue at `path`, or "" when there is none.
static std::string codeAt(const Issues& is, const std::string& path) {
  for (const auto& i : is)
    if (i.path == path && !i.warning) return i.message.code();
  return "";
}

TEST_CASE("an empty or blank offer id is an error at its path, also when two offers share it", "[catalog][errors]") {
  Catalog out;
  const Issues is = load(R"({"instances": [)" + offerText(R"("")", kOnDemand) + "," + offerText(R"("  ")", kOnDemand) + "," +
                         offerText(R"("")", kOnDemand) + "," + offerText(R"("ok")", kOnDemand) + "]}", out);
  CHECK(codeAt(is, "/instances/0/id") == "error.empty_id");
  CHECK(codeAt(is, "/instances/1/id") == "error.empty_id");
  CHECK(codeAt(is, "/instances/2/id") == "error.empty_id");  // not reported as a duplicate of offer 0
  CHECK(codeAt(is, "/instances/3/id") == "");
  CHECK(out.offers.empty());
}

TEST_CASE("a second on-demand price is an error at its model, naming the first", "[catalog][errors]") {
  Catalog out;
  const Issues is = load(R"({"instances": [)" + offerText(R"("a")", std::string(kOnDemand) + "," + kOnDemandAgain) + "]}", out);
  REQUIRE(codeAt(is, "/instances/0/prices/1/model") == "error.second_on_demand");
  for (const auto& i : is)
    if (i.path == "/instances/0/prices/1/model") CHECK(debugText(i.message) == "error.second_on_demand{first_value=0}");
  CHECK(out.offers.empty());
  // Reserved prices for several terms stay allowed.
  Catalog fine;
  const std::string reserved = R"({"model": "reserved", "usd_per_hour": 0.8, "term_months": 12, "as_of": "2026-11-01", "source": "s"},)"
                               R"({"model": "reserved", "usd_per_hour": 0.6, "term_months": 36, "as_of": "2026-11-01", "source": "s"})";
  CHECK_FALSE(hasErrors(load(R"({"instances": [)" + offerText(R"("b")", std::string(kOnDemand) + "," + reserved) + "]}", fine)));
  CHECK(fine.offers.size() == 1);
}

TEST_CASE("the engine's streamed reader rejects empty ids and a second on-demand price like the DOM reader, and keeps its catalog", "[catalog][errors][stream]") {
  gpuvalue::Engine& e = gpuvalue_test::loadedEngine();
  const size_t before = e.catalog().offers.size();
  const json empty = parse(e.addCatalog(R"({"instances": [)" + offerText(R"("")", kOnDemand) + "]}"));
  CHECK(empty["ok"] == false);
  CHECK(empty["error"]["path"] == "/instances/0/id");
  CHECK(empty["error"]["message"]["code"] == "error.empty_id");
  const json twice = parse(e.addCatalog(R"({"instances": [)" + offerText(R"("stream-two-od")", std::string(kOnDemand) + "," + kOnDemandAgain) + "]}"));
  CHECK(twice["ok"] == false);
  CHECK(twice["error"]["path"] == "/instances/0/prices/1/model");
  CHECK(twice["error"]["message"] == json({{"code", "error.second_on_demand"}, {"params", {{"first_value", 0}}}}));
  CHECK(e.catalog().offers.size() == before);
}

TEST_CASE("members an offer does not define are skipped while its text is parsed", "[catalog][stream]") {
  const std::string text = R"({"id": "a", "zz_unknown": [[1, 2], {"deep": [3]}], "gpu": "t4", "prices": []})";
  const json kept = json::parse(text, keepKnownOfferMembers, false);
  REQUIRE(kept.is_object());
  CHECK_FALSE(kept.contains("zz_unknown"));
  CHECK(kept["id"] == "a");
  CHECK(kept["gpu"] == "t4");
  CHECK(kept.contains("prices"));
  // The engine reads such an offer (the direct reader declines the nested unknown member; the DOM reader skips it).
  gpuvalue::Engine& e = gpuvalue_test::loadedEngine();
  const std::string offer = R"({"id": "skip-unknown", "provider": "P", "instance_type": "x", "gpu": "t4", "gpu_count": 1, "region": "r",
      "zz_unknown": {"big": [1, 2, 3, [4, [5]]]}, "prices": [)" + std::string(kOnDemand) + "]}";
  const json r = parse(e.validate(R"({"instances": [)" + offer + "]}"));
  CHECK(r["ok"] == true);
}
