// A day of bursty GPU demand bought five ways: on-demand instances kept up all day (sized for the peak), on-demand
// instances started and stopped hour by hour, reserved instances (all day), spot instances hour by hour, and
// serverless workers billed per second. For each: what is billed, what is busy, and the idle share in between.
#pragma once
#include <string>
#include <vector>

namespace gpuvalue {

struct DayLoadInputs {
  std::vector<double> gpus_busy;        // 24 values: GPUs kept busy on average in each hour of the day
  std::vector<double> starts_per_hour;  // optional, 24 values: serverless workers started from zero in each hour;
                                        // empty = the rise in workers needed from the hour before (the day wraps)
  int gpus_per_instance = 1;            // instances come in whole nodes of this many GPUs
  double on_demand_usd_per_gpu_hour = 0;
  double reserved_usd_per_gpu_hour = 0;  // 0 = no reserved price
  double spot_usd_per_gpu_hour = 0;      // 0 = no spot price
  double spot_overhead = 1;              // spot wall time per hour of work (checkpoints, lost work, restarts)
  double serverless_usd_per_gpu_hour = 0;
  double cold_start_s = 0;               // billed per serverless worker start
  double idle_timeout_s = 0;             // billed after a worker's last request, once per start
  double min_request_s = 0;              // smallest billed duration of one worker run
  int max_concurrency = 0;               // serverless workers at once; 0 = no published cap
};

enum class DayOption { kOnDemandAllDay, kOnDemandHourly, kReserved, kSpotHourly, kServerless };
constexpr int kDayOptionCount = 5;
const char* dayOptionName(DayOption o);

struct DayOptionResult {
  DayOption option = DayOption::kOnDemandAllDay;
  bool available = false;         // false: no price for it, or (serverless) the peak exceeds the concurrency cap
  double usd_per_gpu_hour = 0;
  double billed_gpu_hours = 0;
  double busy_gpu_hours = 0;
  double idle_gpu_hours = 0;      // billed but not busy
  double idle_share = 0;          // idle / billed
  double cost_usd = 0;
  double idle_avoided_share = 0;  // 1 - idle / idle of on-demand kept up all day
  double starts = 0;              // serverless: worker starts in the day
};

struct DayLoadResult {
  std::vector<DayOptionResult> options;  // in DayOption order
  double peak_gpus = 0;
  double busy_gpu_hours = 0;
  int cheapest = -1;                     // index into options of the cheapest available option
};

// Hours of the day in DayLoadInputs::gpus_busy.
constexpr int kHoursPerDay = 24;

DayLoadResult compareDayLoad(const DayLoadInputs& in);

// The seed article (§5) says serverless GPUs billed by actual compute have "65 % less idle waste".
constexpr double kArticleServerlessIdleReduction = 0.65;

}  // namespace gpuvalue
