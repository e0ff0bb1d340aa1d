// The cost-lever and scenario-compare math (tools/levers.hpp, tools/compare.hpp) on the real data: each lever's
// before/after against the model functions it is built on, and the compare configurations' prices and ratios.
#include <catch2/catch.hpp>

#include "model/workload.hpp"
#include "test_support.hpp"
#include "tools/compare.hpp"
#include "tools/levers.hpp"

using namespace gpuvalue;
using gpuvalue_test::loadedEngine;
using gpuvalue_test::parse;

namespace {

Workload preset(const std::string& id) {
  const json doc = parse(gpuvalue_test::readFile("data/presets.json"));
  for (const auto& p : doc["presets"])
    if (p.value("id", "") == id) {
      Workload w;
      Issues issues;
      REQUIRE(parseWorkload(p["workload"], "/workload", w, issues));
      w.name = id;
      return w;
    }
  FAIL("no preset " << id);
  return {};
}

const Offer& offerById(const std::string& id) {
  for (const auto& o : loadedEngine().catalog().offers)
    if (o.id == id) return o;
  throw std::runtime_error("no offer " + id);
}

LeverBase base(const Workload& w, const Offer& o, PricingModel m = PricingModel::kOnDemand) {
  const Price* p = o.price(m);
  REQUIRE(p);
  return leverBase(w, o, m, *p, SpotOptions{}, ModelConstants{});
}

}  // namespace

TEST_CASE("the lever baseline is the workload on the offer's smallest fitting node count, priced with priceJob", "[levers]") {
  const Workload w = preset("resnet50-imagenet");
  const Offer& o = offerById("aws-p3.2xlarge-us-east-1");
  const LeverBase b = base(w, o);
  CHECK(b.nodes == planOnOffer(w, o, ModelConstants{}).nodes);
  const ClusterPlan plan = planCluster(w, offerCluster(o, b.nodes), ModelConstants{});
  const CostResult c = priceJob(o, *o.price(PricingModel::kOnDemand), plan.throughput.time_hours, b.nodes, SpotOptions{});
  REQUIRE(b.outcome.ok);
  CHECK(b.outcome.time_hours == Approx(c.wall_hours));
  CHECK(b.outcome.cost_usd == Approx(c.cost_usd));
  CHECK(b.outcome.gpus == o.gpu_count * b.nodes);
  CHECK(b.outcome.pricing == PricingModel::kOnDemand);
}

TEST_CASE("mixed precision on a V100 goes fp32 -> fp16 and is faster; an fp16 workload is already mixed", "[levers]") {
  Workload w = preset("resnet50-imagenet");
  w.precision = Precision::kFp32;
  const Offer& o = offerById("aws-p3.2xlarge-us-east-1");
  const PrecisionLever l = mixedPrecisionLever(base(w, o));
  CHECK_FALSE(l.currently_mixed);
  CHECK(l.before.precision == Precision::kFp32);
  CHECK(l.after.precision == Precision::kFp16);
  CHECK(l.single_gpu_tflops_after > l.single_gpu_tflops_before);
  CHECK(l.gain > 1.0);
  CHECK(l.gain == Approx(l.before.time_hours / l.after.time_hours));
  w.precision = Precision::kFp16;
  const PrecisionLever m = mixedPrecisionLever(base(w, o));
  CHECK(m.currently_mixed);
  CHECK(m.mixed.precision == Precision::kFp16);
  CHECK(m.before.precision == Precision::kFp32);
}

TEST_CASE("spot and reserved levers price the same hardware under the other billing, or say why not", "[levers]") {
  const Workload w = preset("resnet50-imagenet");
  const Offer& o = offerById("aws-p4d.24xlarge-us-east-1");
  const LeverBase b = base(w, o);
  const SpotLever s = spotLever(b);
  REQUIRE(s.has_price);
  if (const Price* sp = o.price(PricingModel::kSpot)) {
    CHECK_FALSE(s.estimated);
    CHECK(s.price.usd_per_hour == sp->usd_per_hour);
  } else {
    CHECK(s.estimated);
    CHECK(s.price.usd_per_hour == Approx(o.price(PricingModel::kOnDemand)->usd_per_hour * (1 - kMedianSpotDiscount)));
  }
  CHECK(s.after.pricing == PricingModel::kSpot);
  CHECK(s.after.time_hours >= b.outcome.time_hours);  // interruptions only stretch the run
  const ReservedLever r = reservedLever(b);
  REQUIRE(r.price);
  CHECK(r.after.pricing == PricingModel::kReserved);
  // A job pays the whole term it forces; its share at the reserved rate is less.
  CHECK(r.cost.commitment_usd == r.after.cost_usd);
  CHECK(r.cost.amortised_cost_usd < r.after.cost_usd);
  LeverBase as_spot = b, as_reserved = b;
  as_spot.model = PricingModel::kSpot;
  as_reserved.model = PricingModel::kReserved;
  CHECK(spotLever(as_spot).already);
  CHECK_FALSE(spotLever(as_reserved).already);
  CHECK(reservedLever(as_reserved).already);
}

TEST_CASE("the MIG lever takes the smallest slice the job fits and shares the GPU-hour among max_count jobs", "[levers]") {
  const Workload w = preset("resnet50-imagenet");
  const Offer& a100 = offerById("aws-p4d.24xlarge-us-east-1");
  const MigLever l = migLever(base(w, a100));
  REQUIRE(l.profile >= 0);
  const MigProfile& p = a100.gpu->mig_profiles[l.profile];
  CHECK(p.compute_slices < 7);
  CHECK(l.plan.memory.fits);
  CHECK(l.after.gpus == 1);
  CHECK(l.after.usd_per_hour == Approx(a100.price(PricingModel::kOnDemand)->headlineUsdPerHour() / a100.gpu_count / p.max_count));
  CHECK(l.after.cost_usd == Approx(l.after.time_hours * l.after.usd_per_hour));
  // A V100 has no MIG profiles.
  CHECK(migLever(base(w, offerById("aws-p3.2xlarge-us-east-1"))).profile == -1);
}

TEST_CASE("more or fewer GPUs keep the GPU type: more nodes over RDMA, else an instance with twice or half the GPUs", "[levers]") {
  const Workload w = preset("llama2-7b-pretrain");
  const Offer& o = offerById("aws-p4d.24xlarge-us-east-1");
  const LeverBase b = base(w, o);
  const ScaleLever more = scaleLever(b, loadedEngine().catalog(), +1);
  REQUIRE(more.target);
  CHECK(more.target->gpu->id == o.gpu->id);
  CHECK(more.after.gpus == 2 * b.outcome.gpus);
  const ScaleLever fewer = scaleLever(b, loadedEngine().catalog(), -1);
  if (fewer.target) {
    CHECK(fewer.target->gpu->id == o.gpu->id);
    CHECK(fewer.after.gpus < b.outcome.gpus);
    if (b.nodes > 1) CHECK(fewer.nodes == b.nodes / 2);
  }
}

TEST_CASE("compare prices a GPU count on the cheapest hosting offer, or at a given rate", "[compare]") {
  const Workload w = preset("yolov7-coco");
  const Catalog& cat = loadedEngine().catalog();
  const GpuSpec& a100 = *loadedEngine().gpuDatabase().find("a100-sxm4-80gb");
  const CompareConfig given = gpuConfig(w, cat, a100, 8, PricingModel::kOnDemand, 20.0, SpotOptions{}, ModelConstants{});
  CHECK(given.priced);
  CHECK(given.offer == nullptr);
  CHECK(given.cost_usd == Approx(given.time_hours * 20.0));
  const CompareConfig found = gpuConfig(w, cat, a100, 8, PricingModel::kOnDemand, -1, SpotOptions{}, ModelConstants{});
  REQUIRE(found.priced);
  const OfferChoice oc = cheapestOffer(cat, a100.id, 8, PricingModel::kOnDemand);
  CHECK(found.offer == oc.offer);
  CHECK(found.usd_per_hour == oc.usd_per_hour);
  CHECK(found.instances * found.offer->gpu_count >= 8);
  CHECK(found.gpus == 8);
}

TEST_CASE("compare's baseline is the slowest configuration and ratios are against it", "[compare]") {
  const Workload w = preset("yolov7-coco");
  const Catalog& cat = loadedEngine().catalog();
  const auto& db = loadedEngine().gpuDatabase();
  std::vector<CompareConfig> cs = {
      gpuConfig(w, cat, *db.find("a100-sxm4-80gb"), 8, PricingModel::kOnDemand, -1, SpotOptions{}, ModelConstants{}),
      gpuConfig(w, cat, *db.find("v100-sxm2-16gb"), 4, PricingModel::kOnDemand, -1, SpotOptions{}, ModelConstants{})};
  REQUIRE(cs[0].priced);
  REQUIRE(cs[1].priced);
  const size_t b = slowestConfig(cs);
  CHECK(b == 1);  // 4× V100 is slower than 8× A100
  const CompareRatios self = compareRatios(cs[b], cs[b]);
  CHECK(self.speedup == Approx(1));
  CHECK(self.cost_ratio == Approx(1));
  const CompareRatios r = compareRatios(cs[0], cs[1]);
  CHECK(r.speedup == Approx(cs[1].time_hours / cs[0].time_hours));
  CHECK(r.speedup > 1);
  CHECK(r.count_ratio == Approx(2));
  CHECK(r.cost_ratio == Approx(cs[0].cost_usd / cs[1].cost_usd));
}

TEST_CASE("an instance configuration with nodes 0 uses the smallest fitting node count", "[compare]") {
  const Workload w = preset("llama2-7b-pretrain");
  const Offer& o = offerById("aws-p4d.24xlarge-us-east-1");
  const CompareConfig c = offerConfig(w, o, 0, o.price(PricingModel::kOnDemand), -1, SpotOptions{}, ModelConstants{});
  CHECK(c.nodes == planOnOffer(w, o, ModelConstants{}).nodes);
  CHECK(c.usd_per_hour == Approx(o.price(PricingModel::kOnDemand)->headlineUsdPerHour() * c.nodes));
  CHECK(c.offer == &o);
  const CompareConfig g = offerConfig(w, o, 2, nullptr, 50, SpotOptions{}, ModelConstants{});
  CHECK(g.nodes == 2);
  CHECK(g.price == nullptr);
  CHECK(g.cost_usd == Approx(g.time_hours * 50));
}
