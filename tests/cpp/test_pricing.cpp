#include <catch2/catch.hpp>

#include "model/pricing.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

static Offer offerWith(double inc_s = 1, double min_s = 0) {
  Offer o;
  o.id = "t";
  o.gpu_count = 1;
  o.billing_increment_s = inc_s;
  o.min_charge_s = min_s;
  return o;
}

TEST_CASE("unit compute cost divides daily price by total FP16 TFLOPS", "[pricing]") {
  // GN7: 2 x A10 at $3.2/h, A10 dense FP16 = 125 TFLOPS: 3.2 * 24 / (2 * 125) = 0.3072.
  CHECK_THAT(usdPerTflopsDay(3.2, 2, 125), WithinRel(0.3072, 1e-12));
  CHECK(usdPerTflopsDay(3.2, 0, 125) == 0);
  CHECK(usdPerTflopsDay(3.2, 2, 0) == 0);
}

TEST_CASE("tiered price charges each tier's hours at its own rate", "[pricing]") {
  // GN10: 100 h x $8.5 + 50 h x $6.2 = 850 + 310 = 1160.
  std::vector<PriceTier> tiers = {{100, 8.5}, {0, 6.2}};
  CHECK_THAT(tieredCost(tiers, 150), WithinRel(1160.0, 1e-12));
  CHECK_THAT(tieredCost(tiers, 80), WithinRel(680.0, 1e-12));  // 80 x 8.5
  CHECK(tieredCost(tiers, 0) == 0);
}

TEST_CASE("billing rounds up to the increment and the minimum charge", "[pricing]") {
  // Hourly billing: 1.2 h becomes 2 h. Per-second billing keeps 1.2 h. A 60 s minimum lifts 10 s to 60 s.
  CHECK_THAT(billedHours(offerWith(3600), 1.2), WithinRel(2.0, 1e-12));
  CHECK_THAT(billedHours(offerWith(1), 1.2), WithinRel(1.2, 1e-9));
  CHECK_THAT(billedHours(offerWith(1, 60), 10.0 / 3600), WithinRel(60.0 / 3600, 1e-9));
}

TEST_CASE("on-demand job cost is billed hours times rate times nodes", "[pricing]") {
  Offer o = offerWith(60);
  Price p;
  p.usd_per_hour = 10;
  SpotOptions s;
  // 2.5 h on 3 nodes at $10/h, per-minute billing: 2.5 * 10 * 3 = 75.
  CostResult c = priceJob(o, p, 2.5, 3, s);
  CHECK_THAT(c.cost_usd, WithinRel(75.0, 1e-12));
}

TEST_CASE("spot with zero interruptions costs the spot price times hours", "[pricing][property]") {
  Offer o = offerWith(1);
  Price p;
  p.model = PricingModel::kSpot;
  p.usd_per_hour = 4.8;
  p.editTerms().interruption_per_hour = 0;
  SpotOptions s;
  for (double h : {0.5, 1.0, 10.0, 123.4}) {
    CostResult c = priceJob(o, p, h, 1, s);
    CHECK_THAT(c.cost_usd, WithinRel(4.8 * h, 1e-9));
    CHECK(c.expected_interruptions == 0);
  }
}

TEST_CASE("spot interruptions stretch wall time by lost work and restarts", "[pricing]") {
  Offer o = offerWith(1);
  Price p;
  p.model = PricingModel::kSpot;
  p.usd_per_hour = 2;
  p.editTerms().interruption_per_hour = 0.1;
  SpotOptions s;
  s.checkpoint_interval_hours = 1;
  s.checkpoint_write_hours = 0.05;
  s.restart_hours = 0.2;
  // work = 100 * (1 + 0.05/1) = 105; loss per hour = 0.1 * (0.5 + 0.2) = 0.07; T = 105 / 0.93 = 112.903...
  CostResult c = priceJob(o, p, 100, 1, s);
  CHECK_THAT(c.wall_hours, WithinRel(105.0 / 0.93, 1e-9));
  CHECK_THAT(c.cost_usd, WithinRel(2 * 105.0 / 0.93, 1e-6));
  CHECK_THAT(c.expected_interruptions, WithinRel(0.1 * 105.0 / 0.93, 1e-9));
}

TEST_CASE("spot deadline probability follows a Poisson count of interruptions", "[pricing]") {
  CHECK_THAT(poissonCdf(0, 1.0), WithinRel(0.36787944117144233, 1e-12));        // e^-1
  CHECK_THAT(poissonCdf(1, 1.0), WithinRel(0.7357588823428847, 1e-12));         // 2e^-1
  CHECK(poissonCdf(-1, 1.0) == 0);
  Offer o = offerWith(1);
  Price p;
  p.model = PricingModel::kSpot;
  p.usd_per_hour = 1;
  p.editTerms().interruption_per_hour = 0.1;
  SpotOptions s;
  s.checkpoint_interval_hours = 1;
  s.checkpoint_write_hours = 0;
  s.restart_hours = 0.5;
  s.deadline_hours = 11;
  // work = 10 h, slack = 1 h, each interruption costs 0.5 + 0.5 = 1 h -> at most 1 interruption in 11 h:
  // P = P(Poisson(1.1) <= 1) = e^-1.1 (1 + 1.1) = 0.69903...
  CostResult c = priceJob(o, p, 10, 1, s);
  CHECK_THAT(c.p_finish_by_deadline, WithinRel(std::exp(-1.1) * 2.1, 1e-9));
}

TEST_CASE("a reserved job pays the whole term it forces; its amortised share and break-even are reported", "[pricing]") {
  Offer o = offerWith(1);
  Price od;
  od.model = PricingModel::kOnDemand;
  od.usd_per_hour = 3.2;
  Price rv;
  rv.model = PricingModel::kReserved;
  rv.usd_per_hour = 0.8;
  rv.editTerms().term_months = 12;
  o.prices = {od, rv};
  SpotOptions s;
  // GN7: $0.8 / $3.2 = 25 % break-even; 12 months x 730 h x $0.8 = $7008 for one term: what a 100 h job pays;
  // its share at the reserved rate is 100 h x $0.8 = $80.
  CostResult c = priceJob(o, o.prices[1], 100, 1, s);
  CHECK_THAT(c.break_even_utilisation, WithinRel(0.25, 1e-12));
  CHECK_THAT(c.commitment_usd, WithinRel(7008.0, 1e-12));
  CHECK_THAT(c.cost_usd, WithinRel(7008.0, 1e-12));
  CHECK_THAT(c.amortised_cost_usd, WithinRel(80.0, 1e-12));
  CHECK_THAT(c.billed_hours, WithinRel(8760.0, 1e-12));
  // On 3 instances a job of 1.5 terms pays two whole terms on each: 2 x 8760 h x $0.8 x 3 = $42,048.
  CostResult two = priceJob(o, o.prices[1], 1.5 * 8760, 3, s);
  CHECK_THAT(two.cost_usd, WithinRel(42048.0, 1e-12));
  CHECK_THAT(two.amortised_cost_usd, WithinRel(1.5 * 8760 * 0.8 * 3, 1e-12));
  // The same 100 h on demand costs 100 x $3.2 = $320: less than the term it would force.
  CHECK(priceJob(o, o.prices[0], 100, 1, s).cost_usd < c.cost_usd);
  // The job's hourly rate under the commitment is the term over its hours: $7008 / 100 h.
  CHECK_THAT(jobRateUsdPerHour(o, o.prices[1], c, 1), WithinRel(70.08, 1e-12));
}

TEST_CASE("monthly pricing bills whole months", "[pricing]") {
  Offer o = offerWith(1);
  Price p;
  p.model = PricingModel::kMonthly;
  p.editTerms().usd_per_month = 1000;
  SpotOptions s;
  CHECK_THAT(priceJob(o, p, 100, 1, s).cost_usd, WithinRel(1000.0, 1e-12));   // 1 month
  CHECK_THAT(priceJob(o, p, 800, 2, s).cost_usd, WithinRel(4000.0, 1e-12));   // 2 months x 2 nodes
}

TEST_CASE("a higher price never lowers the cost", "[pricing][property]") {
  Offer o = offerWith(3600);
  SpotOptions s;
  for (int m = 0; m < 3; ++m) {
    Price lo, hi;
    lo.model = hi.model = static_cast<PricingModel>(m);
    lo.usd_per_hour = 1.0;
    hi.usd_per_hour = 1.5;
    lo.editTerms().term_months = hi.editTerms().term_months = 12;
    for (double h : {0.1, 1.0, 7.5, 1000.0}) CHECK(priceJob(o, hi, h, 2, s).cost_usd >= priceJob(o, lo, h, 2, s).cost_usd);
  }
}

TEST_CASE("cost through the engine: GN10 tiered for 150 h is $1160", "[pricing][article]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto r = gpuvalue_test::parse(e.cost(R"({"instance": "GN10", "hours": 150, "pricing": "tiered"})"));
  REQUIRE(r["ok"] == true);
  CHECK_THAT(r["cost_usd"].get<double>(), WithinRel(1160.0, 1e-9));
}

TEST_CASE("cost through the engine: GN7 on-demand unit cost is 0.3072", "[pricing][article]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto r = gpuvalue_test::parse(e.cost(R"({"instance": "GN7", "hours": 1, "pricing": "on_demand"})"));
  REQUIRE(r["ok"] == true);
  CHECK_THAT(r["usd_per_tflops_day"].get<double>(), WithinRel(0.3072, 1e-9));
  CHECK_THAT(r["cost_usd"].get<double>(), WithinRel(3.2, 1e-9));
}

TEST_CASE("an instance type sold in several regions is priced in its cheapest on-demand region, and says so", "[pricing]") {
  Engine e;
  e.setToday("2026-12-02");
  REQUIRE(gpuvalue_test::parse(e.loadGpus(gpuvalue_test::readFile("data/gpus.json")))["ok"] == true);
  auto offer = [](const char* region, double usd) {
    return std::string(R"({"id": "x-)") + region + R"(", "provider": "X", "instance_type": "x.8", "gpu": "t4", "gpu_count": 1, "region": ")" +
           region + R"(", "prices": [{"model": "on_demand", "usd_per_hour": )" + std::to_string(usd) + R"(, "as_of": "2026-12-01", "source": "https://example.org/x"}]})";
  };
  const std::string catalog = R"({"instances": [)" + offer("b-tokyo", 1.6) + "," + offer("c-ohio", 1.2) + "," + offer("a-dublin", 1.3) + "]}";
  REQUIRE(gpuvalue_test::parse(e.loadCatalog(catalog))["ok"] == true);
  auto r = gpuvalue_test::parse(e.cost(R"({"instance": "x.8", "hours": 10, "pricing": "on_demand"})"));
  REQUIRE(r["ok"] == true);
  CHECK_THAT(r["cost_usd"].get<double>(), WithinRel(12.0, 1e-9));
  REQUIRE(r["warnings"].size() == 1);
  CHECK(r["warnings"][0]["code"] == "offer.several_regions");
  CHECK(r["warnings"][0]["params"]["used"] == "x-c-ohio");
  // An id names one region exactly.
  auto exact = gpuvalue_test::parse(e.cost(R"({"instance": "x-b-tokyo", "hours": 10, "pricing": "on_demand"})"));
  CHECK_THAT(exact["cost_usd"].get<double>(), WithinRel(16.0, 1e-9));
}

TEST_CASE("cost rejects unknown instances and missing prices with a path", "[pricing][errors]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto r = gpuvalue_test::parse(e.cost(R"({"instance": "nope", "hours": 1})"));
  CHECK(r["ok"] == false);
  CHECK(r["error"]["path"] == "/instance");
  CHECK(r["error"]["code"] == "unknown_id");
  auto r2 = gpuvalue_test::parse(e.cost(R"({"instance": "GN8", "hours": 1, "pricing": "on_demand"})"));
  CHECK(r2["ok"] == false);
  CHECK(r2["error"]["path"] == "/pricing");
  auto r3 = gpuvalue_test::parse(e.cost(R"({"instance": "GN7", "hours": -1})"));
  CHECK(r3["ok"] == false);
  CHECK(r3["error"]["path"] == "/hours");
}
