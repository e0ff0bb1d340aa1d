// Missing is not zero: a unit cost the engine cannot compute (a GPU without a dense FP16 peak) is null with the
// reason, never wins a pick and never sorts first; a job that costs $0 is the cheapest, not a missing value.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using gpuvalue_test::parse;

namespace {

// One K80 (no FP16 figure in data/gpus.json), one T4 at $0.50/h, one T4 whose free trial covers the job.
gpuvalue::Engine& missingEngine() {
  static const auto x = gpuvalue_test::engineWithCatalog(R"({"schema_version": 1, "instances": [
      {"id": "k80", "provider": "A", "instance_type": "k1", "gpu": "k80", "gpu_count": 1, "interconnect": "pcie",
       "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 0.05, "as_of": "2026-12-01", "source": "test"}]},
      {"id": "t4", "provider": "B", "instance_type": "t1", "gpu": "t4", "gpu_count": 1, "interconnect": "pcie",
       "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 0.5, "as_of": "2026-12-01", "source": "test"}]},
      {"id": "t4-free", "provider": "C", "instance_type": "t1f", "gpu": "t4", "gpu_count": 1, "interconnect": "pcie",
       "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 2, "free_trial_hours": 100000, "as_of": "2026-12-01", "source": "test"}]}]})");
  return *x;
}

// 1e18 FLOPs, a small model: fits on every GPU, minutes to hours.
const char* kJob = R"("workload": {"kind": "custom", "total_flops": 1e18, "params": 1e7})";

const gpuvalue::json* byId(const gpuvalue::json& results, const std::string& id) {
  for (const auto& x : results)
    if (x["id"] == id) return &x;
  return nullptr;
}

bool hasCode(const gpuvalue::json& list, const std::string& code) {
  for (const auto& m : list)
    if (m["code"] == code) return true;
  return false;
}

}  // namespace

TEST_CASE("a GPU without an FP16 peak has no unit cost: null with the reason, not $0", "[ranking][missing]") {
  auto& e = missingEngine();
  auto r = parse(e.rank(std::string("{") + kJob + "}"));
  REQUIRE(r["ok"] == true);
  const auto* k80 = byId(r["results"], "k80");
  const auto* t4 = byId(r["results"], "t4");
  REQUIRE(k80);
  REQUIRE(t4);
  CHECK((*k80)["fits"] == true);
  CHECK((*k80)["usd_per_tflops_day"].is_null());
  CHECK(hasCode((*k80)["warnings"], "rank.unit_cost_unknown"));
  CHECK_FALSE(hasCode((*k80)["reasons"], "rank.lowest_unit_cost"));
  // T4: $0.50/h x 24 h / (1 GPU x 65 dense FP16 TFLOPS) = 0.184615... $/TFLOPS-day.
  CHECK_THAT((*t4)["usd_per_tflops_day"].get<double>(), Catch::Matchers::WithinRel(0.5 * 24 / 65, 1e-12));
  CHECK_FALSE(hasCode((*t4)["warnings"], "rank.unit_cost_unknown"));
  // The cost method says the same about the K80.
  auto c = parse(e.cost(R"({"instance": "k1", "hours": 10})"));
  REQUIRE(c["ok"] == true);
  CHECK(c["usd_per_tflops_day"].is_null());
  CHECK(hasCode(c["warnings"], "rank.unit_cost_unknown"));
}

TEST_CASE("the lowest-unit-cost pick skips a missing unit cost, and sorting by unit cost puts it last both ways", "[ranking][missing][view]") {
  auto& e = missingEngine();
  for (const char* dir : {"asc", "desc"}) {
    INFO(dir);
    auto v = parse(e.call("rankView", std::string("{") + kJob + R"(, "view": {"sort": {"key": "usd_per_tflops_day", "dir": ")" + dir +
                                          R"("}, "rows": 10, "points": 100, "keys": []}})"));
    REQUIRE(v["ok"] == true);
    REQUIRE(v["rows"].size() == 3);
    CHECK(v["rows"][2]["id"] == "k80");
    CHECK(v["picks"]["pickUnit"] != "k80|on_demand");
  }
}

TEST_CASE("a job a free trial covers costs $0: cheapest pick, first by cost, never last", "[ranking][missing][view]") {
  auto& e = missingEngine();
  auto v = parse(e.call("rankView", std::string("{") + kJob + R"(, "view": {"sort": {"key": "cost_usd", "dir": "asc"}, "rows": 10, "points": 100, "keys": []}})"));
  REQUIRE(v["ok"] == true);
  REQUIRE(v["rows"].size() == 3);
  CHECK(v["rows"][0]["id"] == "t4-free");
  CHECK(v["rows"][0]["cost_usd"].get<double>() == 0);
  CHECK(v["picks"]["pickCheapest"] == "t4-free|on_demand");
  CHECK(hasCode(v["rows"][0]["reasons"], "rank.cheapest_job"));
  // In the ranking itself the $0 job gets the full task score: cost 1 (nothing is cheaper) and time 1 (as fast as
  // the other T4), (1 + 1) / 2 = 1, not the 0.5 a missing cost would give.
  auto r = parse(e.rank(std::string("{") + kJob + "}"));
  REQUIRE(r["ok"] == true);
  const auto* free = byId(r["results"], "t4-free");
  REQUIRE(free);
  CHECK_THAT((*free)["scores"]["task"].get<double>(), Catch::Matchers::WithinAbs(1.0, 1e-12));
  CHECK(hasCode((*free)["reasons"], "rank.cheapest_job"));
}
