#include <catch2/catch.hpp>

#include "model/pricing.hpp"
#include "tools/serverless.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {
// Two busy hours of 1.5 and 2 GPUs, idle otherwise: 3.5 busy GPU-hours, peak 2.
DayLoadInputs twoHourDay() {
  DayLoadInputs in;
  in.gpus_busy.assign(kHoursPerDay, 0.0);
  in.gpus_busy[10] = 1.5;
  in.gpus_busy[11] = 2;
  in.on_demand_usd_per_gpu_hour = 2;
  in.reserved_usd_per_gpu_hour = 1;
  in.spot_usd_per_gpu_hour = 0.5;
  in.serverless_usd_per_gpu_hour = 3.6;  // $0.001 per second
  in.cold_start_s = 30;
  in.idle_timeout_s = 5;
  return in;
}
const DayOptionResult& option(const DayLoadResult& r, DayOption o) { return r.options[static_cast<size_t>(o)]; }
}  // namespace

TEST_CASE("a day's load: capacity kept all day, hour by hour, and per-second serverless", "[serverless]") {
  const DayLoadResult r = compareDayLoad(twoHourDay());
  CHECK_THAT(r.busy_gpu_hours, WithinRel(3.5, 1e-12));
  CHECK_THAT(r.peak_gpus, WithinRel(2.0, 1e-12));
  // All day, sized for the peak: 2 GPUs x 24 h = 48 GPU-h billed, 44.5 idle, $96.
  const auto& all = option(r, DayOption::kOnDemandAllDay);
  CHECK_THAT(all.billed_gpu_hours, WithinRel(48.0, 1e-12));
  CHECK_THAT(all.idle_gpu_hours, WithinRel(44.5, 1e-12));
  CHECK_THAT(all.cost_usd, WithinRel(96.0, 1e-12));
  // Hour by hour in whole GPUs: 2 + 2 = 4 GPU-h, 0.5 idle.
  CHECK_THAT(option(r, DayOption::kOnDemandHourly).billed_gpu_hours, WithinRel(4.0, 1e-12));
  CHECK_THAT(option(r, DayOption::kReserved).cost_usd, WithinRel(48.0, 1e-12));
  // Serverless: workers rise 0 -> 2 at 10:00 (2 starts), 2 -> 2 at 11:00, nothing later: 2 starts x 35 s billed
  // on top of 3.5 busy hours: 3.5 + 70 / 3600 GPU-h.
  const auto& sl = option(r, DayOption::kServerless);
  CHECK(sl.starts == 2);
  CHECK_THAT(sl.billed_gpu_hours, WithinRel(3.5 + 70.0 / 3600, 1e-12));
  CHECK_THAT(sl.idle_gpu_hours, WithinRel(70.0 / 3600, 1e-9));
  CHECK_THAT(sl.idle_avoided_share, WithinRel(1.0 - (70.0 / 3600) / 44.5, 1e-12));
  CHECK_THAT(sl.cost_usd, WithinRel((3.5 + 70.0 / 3600) * 3.6, 1e-12));
  // Cheapest here: spot hour by hour (4 GPU-h x $0.5 = $2; no spot overhead given).
  CHECK(r.cheapest == static_cast<int>(DayOption::kSpotHourly));
}

TEST_CASE("serverless over its concurrency cap, or without a price, is not available", "[serverless]") {
  DayLoadInputs in = twoHourDay();
  in.max_concurrency = 1;  // the peak needs 2 workers
  CHECK_FALSE(option(compareDayLoad(in), DayOption::kServerless).available);
  in.max_concurrency = 2;
  CHECK(option(compareDayLoad(in), DayOption::kServerless).available);
  in.reserved_usd_per_gpu_hour = 0;
  CHECK_FALSE(option(compareDayLoad(in), DayOption::kReserved).available);
}

TEST_CASE("instances come in whole nodes; given starts replace the counted ones", "[serverless]") {
  DayLoadInputs in = twoHourDay();
  in.gpus_per_instance = 8;  // one 8-GPU node kept up all day for a peak of 2 GPUs
  CHECK_THAT(option(compareDayLoad(in), DayOption::kOnDemandAllDay).billed_gpu_hours, WithinRel(8.0 * 24, 1e-12));
  in.starts_per_hour.assign(kHoursPerDay, 1.0);  // a cold start every hour
  CHECK(option(compareDayLoad(in), DayOption::kServerless).starts == 24);
}

TEST_CASE("serverless job cost: per second, cold start and idle timeout billed, cap enforced", "[serverless][pricing]") {
  Offer o;
  o.gpu_count = 1;
  o.billing_increment_s = 1;
  Price p;
  p.model = PricingModel::kServerless;
  p.usd_per_hour = 0.00076 * 3600;  // RunPod A100 80 GB flex worker
  p.editTerms().cold_start_s = 20;
  p.editTerms().idle_timeout_s = 5;
  p.editTerms().max_concurrency = 3;
  const CostResult c = priceJob(o, p, 1.0, 2, SpotOptions{});
  // (3600 + 20 + 5) s x $0.00076 x 2 workers.
  CHECK_THAT(c.cost_usd, WithinRel(3625 * 0.00076 * 2, 1e-12));
  CHECK_THAT(c.billed_hours, WithinRel(3625.0 / 3600, 1e-12));
  CHECK_FALSE(priceJob(o, p, 1.0, 4, SpotOptions{}).available);
  p.editTerms().min_request_s = 60;
  CHECK_THAT(priceJob(o, p, 1.0 / 3600, 1, SpotOptions{}).billed_hours, WithinRel(60.0 / 3600, 1e-12));
}
