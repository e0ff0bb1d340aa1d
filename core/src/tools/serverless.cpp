// A day's load curve priced as always-on, hourly, reserved, spot and serverless capacity (tools/serverless.hpp).
#include "tools/serverless.hpp"

#include <algorithm>
#include <cmath>

namespace gpuvalue {

namespace {
const char* const kDayOptionNames[kDayOptionCount] = {"on_demand_all_day", "on_demand_hourly", "reserved", "spot_hourly",
                                                      "serverless"};

// GPUs held in an hour when capacity comes in whole instances of `per` GPUs.
double wholeInstances(double gpus, int per) {
  const double n = std::max(1, per);
  return std::ceil(std::max(0.0, gpus) / n - 1e-9) * n;
}

void finish(DayOptionResult& o, double busy) {
  o.busy_gpu_hours = busy;
  o.idle_gpu_hours = std::max(0.0, o.billed_gpu_hours - busy);
  o.idle_share = o.billed_gpu_hours > 0 ? o.idle_gpu_hours / o.billed_gpu_hours : 0;
  o.cost_usd = o.billed_gpu_hours * o.usd_per_gpu_hour;
}

// Serverless: busy seconds plus, per worker start, the cold start and the idle timeout (a run is billed at least
// min_request_s). Workers start when the whole number of busy workers rises from one hour to the next.
DayOptionResult serverlessDay(const DayLoadInputs& in, double busy, double peak) {
  DayOptionResult o;
  o.option = DayOption::kServerless;
  o.usd_per_gpu_hour = in.serverless_usd_per_gpu_hour;
  o.available = in.serverless_usd_per_gpu_hour > 0 && (in.max_concurrency <= 0 || std::ceil(peak - 1e-9) <= in.max_concurrency);
  double starts = 0;
  const size_t n = in.gpus_busy.size();
  for (size_t h = 0; h < n; ++h) {
    if (in.starts_per_hour.size() == n) {
      starts += std::max(0.0, in.starts_per_hour[h]);
      continue;
    }
    const double now = wholeInstances(in.gpus_busy[h], 1);
    const double before = wholeInstances(in.gpus_busy[(h + n - 1) % n], 1);
    starts += std::max(0.0, now - before);
  }
  o.starts = starts;
  const double overhead_s = std::max(0.0, in.cold_start_s) + std::max(0.0, in.idle_timeout_s);
  double billed_s = busy * 3600.0 + starts * overhead_s;
  if (starts > 0) billed_s = std::max(billed_s, starts * in.min_request_s);
  o.billed_gpu_hours = billed_s / 3600.0;
  finish(o, busy);
  return o;
}
}  // namespace

const char* dayOptionName(DayOption o) { return kDayOptionNames[static_cast<int>(o)]; }

DayLoadResult compareDayLoad(const DayLoadInputs& in) {
  DayLoadResult r;
  double hourly_gpus = 0;
  for (double g : in.gpus_busy) {
    const double busy = std::max(0.0, g);
    r.busy_gpu_hours += busy;
    r.peak_gpus = std::max(r.peak_gpus, busy);
    hourly_gpus += wholeInstances(busy, in.gpus_per_instance);
  }
  const double all_day_gpus = wholeInstances(r.peak_gpus, in.gpus_per_instance) * static_cast<double>(in.gpus_busy.size());
  auto instanceOption = [&](DayOption which, double rate, double billed) {
    DayOptionResult o;
    o.option = which;
    o.available = rate > 0;
    o.usd_per_gpu_hour = rate;
    o.billed_gpu_hours = billed;
    finish(o, r.busy_gpu_hours);
    return o;
  };
  r.options.push_back(instanceOption(DayOption::kOnDemandAllDay, in.on_demand_usd_per_gpu_hour, all_day_gpus));
  r.options.push_back(instanceOption(DayOption::kOnDemandHourly, in.on_demand_usd_per_gpu_hour, hourly_gpus));
  r.options.push_back(instanceOption(DayOption::kReserved, in.reserved_usd_per_gpu_hour, all_day_gpus));
  // Spot runs the same hours as hourly on-demand, stretched by its interruption overhead.
  r.options.push_back(instanceOption(DayOption::kSpotHourly, in.spot_usd_per_gpu_hour, hourly_gpus * std::max(1.0, in.spot_overhead)));
  r.options.push_back(serverlessDay(in, r.busy_gpu_hours, r.peak_gpus));
  const double base_idle = r.options.front().idle_gpu_hours;
  for (auto& o : r.options) o.idle_avoided_share = base_idle > 0 ? 1.0 - o.idle_gpu_hours / base_idle : 0;
  for (size_t i = 0; i < r.options.size(); ++i)
    if (r.options[i].available && (r.cheapest < 0 || r.options[i].cost_usd < r.options[static_cast<size_t>(r.cheapest)].cost_usd))
      r.cheapest = static_cast<int>(i);
  return r;
}

}  // namespace gpuvalue
