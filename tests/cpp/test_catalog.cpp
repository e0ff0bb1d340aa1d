#include <catch2/catch.hpp>

#include <set>

#include "model/catalog.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using gpuvalue_test::parse;

static const GpuDatabase& db() {
  static GpuDatabase d = [] {
    GpuDatabase g;
    g.load(gpuvalue_test::readFile("data/gpus.json"));
    return g;
  }();
  return d;
}

static Issues load(const std::string& text, Catalog& out) {
  Catalog existing;
  return parseCatalog(text, db(), existing, out, "2026-12-02");
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
      CHECK(isIsoDate(p.as_of));
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
