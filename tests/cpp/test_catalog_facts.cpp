// catalogFacts (api/catalog_facts.cpp) and offers (api/listings.cpp) on a small catalog whose answers are worked out
// by hand: names in the order of their first offer, the catalog's and each provider's dates from real offers only,
// serverless and reservable offers in catalog order, staleness judged on the engine's today (2026-12-02 here, so a
// price before 2026-06-05 is older than 180 days).
#include <catch2/catch.hpp>

#include "model/catalog.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using gpuvalue_test::parse;

namespace {

gpuvalue::Engine& factsEngine() {
  static const auto x = gpuvalue_test::engineWithCatalog(R"({"schema_version": 1, "instances": [
      {"id": "b-h100", "provider": "Beta", "instance_type": "h8", "gpu": "h100-sxm5-80gb", "gpu_count": 8, "interconnect": "nvswitch",
       "region": "r2", "prices": [{"model": "on_demand", "usd_per_hour": 30, "as_of": "2026-11-01", "source": "t"},
                                  {"model": "reserved", "usd_per_hour": 20, "term_months": 12, "as_of": "2026-05-01", "source": "t"}]},
      {"id": "a-a100", "provider": "alpha", "instance_type": "a8", "gpu": "a100-sxm4-80gb", "gpu_count": 8, "interconnect": "nvswitch",
       "region": "r1", "prices": [{"model": "reserved", "usd_per_hour": 12, "term_months": 12, "as_of": "2026-10-01", "source": "t"},
                                  {"model": "on_demand", "usd_per_hour": 16, "as_of": "2026-10-01", "source": "t"}]},
      {"id": "b-example", "provider": "Beta", "instance_type": "e1", "gpu": "a100-sxm4-80gb", "gpu_count": 1, "interconnect": "none",
       "region": "r1", "example": true, "prices": [{"model": "on_demand", "usd_per_hour": 2, "as_of": "2026-12-01", "source": "t"},
                                                   {"model": "reserved", "usd_per_hour": 1, "term_months": 12, "as_of": "2026-12-01", "source": "t"}]},
      {"id": "g-serverless", "provider": "gamma", "instance_type": "s1", "gpu": "a100-pcie-80gb", "gpu_count": 1, "interconnect": "none",
       "region": "global", "prices": [{"model": "serverless", "usd_per_second": 0.001, "read_on": "2026-11-15", "source": "t"}]},
      {"id": "a-h100", "provider": "alpha", "instance_type": "h1", "gpu": "h100-sxm5-80gb", "gpu_count": 1, "interconnect": "none",
       "region": "r3", "prices": [{"model": "on_demand", "usd_per_hour": 3, "as_of": "2026-11-20", "source": "t"}]}]})");
  return *x;
}

}  // namespace

TEST_CASE("catalogFacts: counts, names, dates, serverless and reservable offers of a catalog worked out by hand", "[catalog][facts]") {
  const json f = parse(factsEngine().call("catalogFacts", ""));
  REQUIRE(f["ok"] == true);
  CHECK(f["count"] == 5);
  CHECK(f["providers"] == json({"Beta", "alpha", "gamma"}));
  CHECK(f["regions"] == json({"r2", "r1", "global", "r3"}));
  CHECK(f["gpus"] == json({"h100-sxm5-80gb", "a100-sxm4-80gb", "a100-pcie-80gb"}));
  // The example's 2026-12-01 is not the catalog's date; a price known only by its read_on makes gamma's oldest "".
  CHECK(f["date"] == "2026-11-20");
  CHECK(f["oldest"] == json::parse(R"([{"provider": "Beta", "as_of": "2026-05-01"}, {"provider": "alpha", "as_of": "2026-10-01"},
                                       {"provider": "gamma", "as_of": ""}])"));
  CHECK(f["provider_stats"] == json::parse(R"({
      "Beta": {"offers": 2, "oldest": "2026-05-01", "newest": "2026-11-01", "read_on": ""},
      "alpha": {"offers": 2, "oldest": "2026-10-01", "newest": "2026-11-20", "read_on": ""},
      "gamma": {"offers": 1, "oldest": "", "newest": "", "read_on": "2026-11-15"}})"));
  CHECK(f["serverless"] == json::parse(R"([{"id": "g-serverless", "instance": "s1", "provider": "gamma", "gpu": "a100-pcie-80gb"}])"));
  // Real offers with a reserved and an on-demand price; Beta's reserved price is 215 days old on 2026-12-02.
  CHECK(f["reservable"] == json::parse(R"([
      {"id": "b-h100", "instance": "h8", "provider": "Beta", "region": "r2", "gpu": "h100-sxm5-80gb", "gpu_count": 8, "stale": true},
      {"id": "a-a100", "instance": "a8", "provider": "alpha", "region": "r1", "gpu": "a100-sxm4-80gb", "gpu_count": 8, "stale": false}])"));
}

TEST_CASE("catalogFacts judges staleness on the engine's today, and agrees with catalogSummary on the real catalog", "[catalog][facts]") {
  auto& e = factsEngine();
  e.setToday("2027-03-31");  // a-a100's prices (2026-10-01) are 181 days old
  const json later = parse(e.call("catalogFacts", ""));
  e.setToday("2027-03-30");  // 180 days: not yet stale
  const json day_before = parse(e.call("catalogFacts", ""));
  e.setToday("2026-12-02");
  CHECK(later["reservable"][1]["stale"] == true);
  CHECK(day_before["reservable"][1]["stale"] == false);

  // The real catalog: the same offers, names and serverless offers as its full summary.
  auto& real = gpuvalue_test::loadedEngine();
  const json facts = parse(real.call("catalogFacts", ""));
  const json summary = parse(real.catalogSummary())["offers"];
  REQUIRE(facts["count"] == summary.size());
  size_t serverless = 0, reservable = 0;
  for (const auto& o : summary) {
    bool sl = false, od = false, rs = false;
    for (const auto& p : o["prices"]) {
      sl = sl || p["model"] == "serverless";
      od = od || p["model"] == "on_demand";
      rs = rs || p["model"] == "reserved";
    }
    if (sl) CHECK(facts["serverless"][serverless++]["id"] == o["id"]);
    if (od && rs && o["example"] == false) CHECK(facts["reservable"][reservable++]["id"] == o["id"]);
  }
  CHECK(facts["serverless"].size() == serverless);
  CHECK(facts["reservable"].size() == reservable);
  CHECK(serverless > 5);
  CHECK(reservable > 5);
}

TEST_CASE("offers: catalogSummary's records of the offers asked for, in that order; an unknown id is an error at its item", "[catalog][facts]") {
  auto& e = factsEngine();
  const json summary = parse(e.catalogSummary())["offers"];
  const json r = parse(e.call("offers", R"({"ids": ["a-h100", "b-h100", "a-h100"]})"));
  REQUIRE(r["ok"] == true);
  REQUIRE(r["offers"].size() == 3);
  CHECK(r["offers"][0] == summary[4]);
  CHECK(r["offers"][1] == summary[0]);
  CHECK(r["offers"][2] == summary[4]);
  CHECK(parse(e.call("offers", R"({"ids": []})"))["offers"] == json::array());

  const json unknown = parse(e.call("offers", R"({"ids": ["b-h100", "nope"]})"));
  CHECK(unknown["ok"] == false);
  CHECK(unknown["error"]["code"] == "unknown_id");
  CHECK(unknown["error"]["path"] == "/ids/1");
  CHECK(unknown["error"]["message"] == json::parse(R"({"code": "error.unknown_instance", "params": {"id": "nope"}})"));
  const json missing = parse(e.call("offers", "{}"));
  CHECK(missing["error"]["path"] == "/ids");
  CHECK(missing["error"]["message"]["code"] == "error.required");
  const json not_string = parse(e.call("offers", R"({"ids": ["b-h100", 7]})"));
  CHECK(not_string["error"]["path"] == "/ids/1");
  CHECK(not_string["error"]["message"]["code"] == "error.not_string");
}
