// The decision tools' request tables (api/request_tables.hpp) against their readers: each method is called with a
// valid request in which one member is set to each probe of its field (the bounds, one step past each, a wrong type,
// null, each choice and one that is not), and the table's rule errors (type, range, choice, required) appear at that
// member's path exactly when the field rejects the value. A reader whose bound drifted from its table's fails here.
#include <catch2/catch.hpp>

#include <set>

#include "api/request_tables.hpp"
#include "io/request_fields.hpp"
#include "model/catalog.hpp"
#include "model/pricing.hpp"
#include "test_support.hpp"
#include "tools/advisor.hpp"
#include "tools/decisions.hpp"
#include "tools/serverless.hpp"

using namespace gpuvalue;
namespace T = request_tables;

namespace {

// The message codes of the rules a table states; other errors (an unknown id, a price the offer lacks, a workload
// that does not fit) are the request's business, not the table's.
bool tableRuleError(const json& issue) {
  static const std::set<std::string> codes = {"error.required", "error.not_string", "error.not_boolean", "error.not_one_of",
                                              "error.number_range", "error.number_out_of_range", "error.integer_range",
                                              "error.integer_out_of_range"};
  return !issue["warning"].get<bool>() && codes.count(issue["message"].value("code", "")) > 0;
}

// Whether calling `method` with `base`, `f` set to `value` at `where` (left out when null), gives a rule error at
// that member's path.
bool tableRuleErrorAt(const std::string& method, const json& base, const json::json_pointer& where, const Field& f, const json& value) {
  json req = base;
  if (value.is_null()) req[where].erase(f.name);
  else req[where][f.name] = value;
  const json answer = json::parse(gpuvalue_test::loadedEngine().call(method, req.dump()));
  const std::string path = where.to_string() + "/" + f.name;
  for (const auto& issue : answer.value("issues", json::array()))
    if (issue["path"] == path && tableRuleError(issue)) return true;
  return false;
}

// Probes of `f` where the reader and the table disagree (the reader rejects what the table accepts, or accepts what
// it rejects).
size_t requestDisagreements(const std::string& method, const json& base, const json::json_pointer& where, const Field& f) {
  size_t n = 0;
  for (const auto& [value, valid] : gpuvalue_test::fieldProbes(f)) {
    INFO(method << " " << where.to_string() << "/" << f.name << " = " << value.dump());
    const bool rejected = tableRuleErrorAt(method, base, where, f, value);
    CHECK(rejected == !valid);
    if (rejected == valid) ++n;
  }
  return n;
}

// Every scalar member of `record` at `where`, but those in `skip` (read only under a condition the base does not
// meet, or a rule joining members): the number probed.
size_t conformRequest(const std::string& method, const json& base, const json::json_pointer& where, const Record& record,
               const std::set<std::string>& skip = {}) {
  REQUIRE(json::parse(gpuvalue_test::loadedEngine().call(method, base.dump()))["ok"] == true);
  size_t probed = 0;
  for (size_t i = 0; i < record.count; ++i) {
    const Field& f = *record.fields[i];
    if (f.type == FieldType::kObject || f.type == FieldType::kArray || skip.count(f.name)) continue;
    requestDisagreements(method, base, where, f);
    ++probed;
  }
  return probed;
}

// The field with its upper bound a millionth (one, for integers) below the table's.
Field loweredBound(const Field& f) {
  Field g = f;
  g.max = f.type == FieldType::kInteger ? f.max - 1 : f.max * (1 - 1e-6);
  return g;
}

const json::json_pointer kRequestTop("");
const char* const kA100Offer = "aws-p4d.24xlarge-us-east-1";

// An offer of the loaded catalog with a serverless price.
std::string serverlessOfferId() {
  for (const auto& o : gpuvalue_test::loadedEngine().catalog().offers)
    if (o.price(PricingModel::kServerless)) return o.id;
  return "";
}

json planDemand() {
  return {{"monthly_gpu_hours", json::array({100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100})},
          {"interruptible_fraction", 0.3}, {"target_completion_rate", 0.98}, {"instance", kA100Offer},
          {"prices", json::object()}, {"spot", json::object()}};
}

}  // namespace

TEST_CASE("cost, tco and energy read their members with their tables' rules", "[fields][requests]") {
  CHECK(conformRequest("cost", {{"instance", kA100Offer}, {"hours", 10}}, kRequestTop, T::kCostRecord, {"pricing"}) == 5);
  // instance or gpu (a rule between them); include_* are read only when the rent comes from the catalog.
  CHECK(conformRequest("tco", {{"gpu", "a100-sxm4-40gb"}, {"rent_usd_per_gpu_hour", 2}}, kRequestTop, T::kTcoRecord,
                {"gpu", "instance", "include_examples", "include_stale"}) == 11);
  // The workload (preset, workload, precision) is read only when no hours are given.
  CHECK(conformRequest("energy", {{"gpu", "a100-sxm4-80gb"}, {"hours", 10}}, kRequestTop, T::kEnergyRecord, {"gpu", "instance", "preset", "precision"}) == 9);
}

TEST_CASE("estimate, advise, levers and compare read their members with their tables' rules", "[fields][requests]") {
  CHECK(conformRequest("estimate", {{"preset", "resnet50-imagenet"}, {"gpu", "a100-sxm4-80gb"}, {"count", 8}}, kRequestTop, T::kEstimateRecord,
                {"preset"}) == 7);
  // params is required without a preset or workload (a rule kept as code): its bounds are the table's.
  const json advise = {{"params", 7e9}, {"tokens", 1e11}, {"stage", "tuning"}};
  CHECK(conformRequest("advise", advise, kRequestTop, T::kAdviseRecord, {"params"}) == 11);
  CHECK(requestDisagreements("advise", advise, kRequestTop, T::kAdviseParams.req()) == 0);
  CHECK(conformRequest("levers", {{"preset", "resnet50-imagenet"}, {"instance", kA100Offer}}, kRequestTop, T::kLeversRecord, {"preset", "pricing"}) == 5);
  const json configs = json::array({{{"gpu", "a100-sxm4-80gb"}, {"count", 8}}, {{"instance", kA100Offer}}});
  const json compare = {{"preset", "resnet50-imagenet"}, {"configs", configs}};
  CHECK(conformRequest("compare", compare, kRequestTop, T::kCompareRecord, {"preset", "pricing"}) == 2);
  // A configuration: instance with its nodes and rate, or gpu with its count.
  CHECK(conformRequest("compare", compare, json::json_pointer("/configs/1"), T::kCompareConfigRecord, {"instance", "gpu", "count"}) == 2);
  CHECK(conformRequest("compare", compare, json::json_pointer("/configs/0"), T::kCompareConfigRecord, {"instance", "gpu", "nodes", "count"}) == 1);
  // count is required beside a gpu (a rule kept as code): its bounds are the table's.
  CHECK(requestDisagreements("compare", compare, json::json_pointer("/configs/0"), T::kConfigCount.req()) == 0);
}

TEST_CASE("mig, serverless, plan and measurements read their members with their tables' rules", "[fields][requests]") {
  const json mig = {{"gpu", "a100-sxm4-80gb"}, {"jobs", json::array({{{"count", 2}, {"memory_gb", 5}}})}};
  CHECK(conformRequest("mig", mig, kRequestTop, T::kMigRecord) == 3);
  CHECK(conformRequest("mig", mig, json::json_pointer("/jobs/0"), T::kMigJobRecord) == 4);
  const std::string offer = serverlessOfferId();
  REQUIRE(!offer.empty());
  CHECK(conformRequest("serverless", {{"offer", offer}}, kRequestTop, T::kServerlessRecord, {"offer", "instance"}) == 3);
  const json plan = {{"demand", planDemand()}};
  CHECK(conformRequest("plan", plan, json::json_pointer("/demand"), T::kDemandRecord, {"instance"}) == 3);
  CHECK(conformRequest("plan", plan, json::json_pointer("/demand/prices"), T::kPlanPricesRecord) == 3);
  CHECK(conformRequest("plan", plan, json::json_pointer("/demand/spot"), T::kPlanSpotRecord) == 5);
  const json measured = {{"preset", "resnet50-imagenet"}, {"gpu", "a100-sxm4-80gb"}, {"count", 8},
                         {"measurements", json::array({{{"gpu", "a100-sxm4-80gb"}, {"count", 8}, {"samples_per_s", 20000}}})}};
  // One of the two rates, whichever the workload measures (samples for a CNN).
  CHECK(conformRequest("estimate", measured, json::json_pointer("/measurements/0"), T::kMeasurementRecord,
                {"gpu", "tokens_per_s", "samples_per_s"}) == 6);
}

TEST_CASE("rank reads its options, weights and filters with their tables' rules", "[fields][requests]") {
  const json rank = {{"preset", "resnet50-imagenet"}, {"limit", 5}, {"weights", json::object()}, {"filters", json::object()}};
  CHECK(conformRequest("rank", rank, kRequestTop, request_fields::kRankOptionsRecord) == 6);
  CHECK(conformRequest("rank", rank, json::json_pointer("/weights"), request_fields::kWeightsRecord) == 3);
  CHECK(conformRequest("rank", rank, json::json_pointer("/filters"), request_fields::kFiltersRecord) == 6);
}

TEST_CASE("rankView's view and the measurement parser follow their tables", "[fields][requests]") {
  const json view = {{"preset", "resnet50-imagenet"}, {"limit", 5}, {"view", {{"rows", 10}, {"sort", {{"dir", "asc"}}}}}};
  CHECK(conformRequest("rankView", view, json::json_pointer("/view"), T::kViewRecord) == 2);
  CHECK(conformRequest("rankView", view, json::json_pointer("/view/sort"), T::kSortRecord, {"key"}) == 1);
  CHECK(conformRequest("parse_measurement", {{"text", "3150 tokens/s on a100-sxm4-80gb x8"}}, kRequestTop, T::kParseMeasurementRecord) == 1);
}

TEST_CASE("an hour-by-hour or monthly item one step past its field's bound is rejected at the item", "[fields][requests]") {
  // The arrays' bounds apply to each item: the bound itself is accepted, one step past it is not, at /member/i.
  const std::string offer = serverlessOfferId();
  auto itemError = [](const std::string& method, json req, const json::json_pointer& at, const Field& f, double v) {
    json items = json::array();
    for (size_t i = 0; i < f.length; ++i) items.push_back(i == 3 ? v : f.min);
    req[at][f.name] = items;
    const json answer = json::parse(gpuvalue_test::loadedEngine().call(method, req.dump()));
    for (const auto& issue : answer.value("issues", json::array()))
      if (issue["path"] == at.to_string() + "/" + f.name + "/3" && tableRuleError(issue)) return true;
    return false;
  };
  const json::json_pointer at_demand("/demand");
  const json serverless = {{"offer", offer}}, plan = {{"demand", planDemand()}};
  for (const Field* f : {&T::kLoadGpus, &T::kStartsPerHour}) {
    CHECK_FALSE(itemError("serverless", serverless, kRequestTop, *f, f->max));
    CHECK(itemError("serverless", serverless, kRequestTop, *f, f->max * (1 + 1e-9)));
    CHECK(itemError("serverless", serverless, kRequestTop, *f, -1e-9));
  }
  for (const Field* f : {&T::kMonthlyGpuHours, &T::kPeakGpus}) {
    CHECK_FALSE(itemError("plan", plan, at_demand, *f, f->max));
    CHECK(itemError("plan", plan, at_demand, *f, f->max * (1 + 1e-9)));
  }
  CHECK(T::kLoadGpus.length == static_cast<size_t>(kHoursPerDay));
}

TEST_CASE("the request probes notice a bound a millionth or one count away from the table's", "[fields][requests]") {
  // Each member here is read with its table's bound (no disagreement); the same field with its maximum lowered
  // disagrees at one step past the lowered maximum, which the reader accepts.
  const json plan = {{"demand", planDemand()}};
  const struct {
    const char* method;
    json base;
    const char* where;
    const Field* field;
  } cases[] = {
      {"cost", {{"instance", kA100Offer}, {"hours", 10}}, "", &T::kHours},
      {"cost", {{"instance", kA100Offer}, {"hours", 10}}, "", &T::kNodes},
      {"tco", {{"gpu", "a100-sxm4-40gb"}, {"rent_usd_per_gpu_hour", 2}}, "", &T::kAmortisation},
      {"tco", {{"gpu", "a100-sxm4-40gb"}, {"rent_usd_per_gpu_hour", 2}}, "", &T::kPue},
      {"energy", {{"gpu", "a100-sxm4-80gb"}, {"hours", 10}}, "", &T::kKgCo2PerKwh},
      {"estimate", {{"preset", "resnet50-imagenet"}, {"gpu", "a100-sxm4-80gb"}}, "", &T::kGpusPerNode},
      {"advise", {{"params", 7e9}}, "", &T::kMaxGpus},
      {"mig", {{"gpu", "a100-sxm4-80gb"}, {"jobs", json::array({{{"memory_gb", 5}}})}}, "/jobs/0", &T::kJobMemory},
      {"plan", plan, "/demand/spot", &T::kDeadlineFactor},
      {"rankView", {{"preset", "resnet50-imagenet"}, {"limit", 5}, {"view", json::object()}}, "/view", &T::kPoints},
  };
  for (const auto& c : cases) {
    INFO(c.method << " " << c.where << "/" << c.field->name);
    const json::json_pointer where(c.where);
    CHECK(requestDisagreements(c.method, c.base, where, *c.field) == 0);
    size_t lowered_disagree = 0;
    for (const auto& [value, valid] : gpuvalue_test::fieldProbes(loweredBound(*c.field)))
      if (tableRuleErrorAt(c.method, c.base, where, *c.field, value) == valid) ++lowered_disagree;
    CHECK(lowered_disagree >= 1);
  }
}

TEST_CASE("the request tables' choices and defaults are the engine's", "[fields][requests]") {
  // grid: the ids of kGrids; the advisor's and MIG's defaults: the option structs' initial values.
  size_t grids = 0;
  for (const char* const* c = T::kGrid.choices; *c; ++c, ++grids) CHECK(std::string(*c) == kGrids[grids].id);
  CHECK(grids == sizeof(kGrids) / sizeof(kGrids[0]));
  const AdviceOptions advice;
  CHECK(T::kMaxGpus.absent_number == advice.max_gpus);
  CHECK(T::kAdviseSeqLen.absent_number == advice.seq_len);
  CHECK(T::kHorizonHours.absent_number == advice.horizon_hours);
  const MigJob job;
  CHECK(T::kJobComputeShare.absent_number == job.compute_share);
  CHECK(T::kJobHours.absent_number == job.hours);
  // Every billing model is a choice of pricing, in the engine's order.
  for (int m = 0; m < kPricingModelCount; ++m) CHECK(std::string(T::kPricing.choices[m]) == pricingModelName(static_cast<PricingModel>(m)));
}
