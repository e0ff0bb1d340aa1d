#include "api/request_tables.hpp"

#include "io/request_fields.hpp"
#include "model/data_fields.hpp"
#include "model/ranking.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {
namespace request_tables {

namespace {
const char* const kPricingModels[] = {"on_demand", "reserved", "spot", "tiered", "monthly", "serverless", nullptr};
const char* const kCoolings[] = {"air", "liquid", nullptr};
const char* const kGridIds[] = {"world", "china", nullptr};
const char* const kStages[] = {"exploration", "tuning", "production", nullptr};
const char* const kAdviceModes[] = {"pretrain", "finetune", "lora", nullptr};
const char* const kMeasuredPrecisions[] = {"fp32", "tf32", "fp16", "bf16", "fp8", "fp4", "int8", nullptr};
const char* const kMeasurementSources[] = {"probe", "typed", nullptr};
const char* const kExamples[] = {"article", nullptr};
const char* const kSortDirections[] = {"asc", "desc", nullptr};
}  // namespace

// ---- Shared members -------------------------------------------------------------------------------------------
extern const Field kGpu = Field::string("gpu", "GPU id or alias (data/gpus.json).");
extern const Field kInstance = Field::string("instance", "Catalog offer id, or an instance type (its region with the lowest on-demand rate).");
extern const Field kPricing = Field::string("pricing", "Billing model the offer is priced under.").oneOf(kPricingModels).byDefault("on_demand");
extern const Field kCount = Field::integer("count", "GPUs.").atLeast(1).atMost(1 << 20);
extern const Field kNodes = Field::integer("nodes", "Instances the job runs on; absent = as many as it needs.").atLeast(1).atMost(4096);
extern const Field kCooling = Field::string("cooling", "Data-centre cooling, for the PUE when pue is absent.").oneOf(kCoolings).byDefault("air");
extern const Field kPue = Field::number("pue", "Power usage effectiveness of the data centre; absent = the cooling's.").atLeast(1).atMost(5);
extern const Field kGrid = Field::string("grid", "Grid whose electricity price and CO2 intensity stand in for absent ones.").oneOf(kGridIds).byDefault("world");
extern const Field kUsdPerKwh = Field::number("usd_per_kwh", "Electricity price, US dollars per kWh; absent = the grid's.").atLeast(0).atMost(10);
extern const Field kPreset = Field::string("preset", "Workload preset id (data/presets.json).");
extern const Field kWorkload = Field::object("workload", nullptr,
    "The workload (presets.schema.json's workload record); beside a preset, the members given override the preset's.");
extern const Field kPrecision = data_fields::kPrecision;
extern const Field kConstants = Field::object("constants", nullptr, "Model constants to override.");
extern const Field kSpot = Field::object("spot", &request_fields::kSpotRecord, "");
extern const Field kMeasurements = Field::array("measurements", &kMeasurementRecord, "The user's own throughput measurements, to calibrate the model.");
extern const Field kColdStart = Field::number("cold_start_s", "Serverless cold start in seconds when the price gives none.").atLeast(0).atMost(86400);

// ---- cost ----------------------------------------------------------------------------------------------------------
extern const Field kCostInstance = kInstance.req();
extern const Field kHours = Field::number("hours", "Hours of work.").req().atLeast(0).atMost(1e7);
extern const Field kFreeTrialHours = Field::number("free_trial_hours", "Free-trial hours to subtract; absent = the price's own.").atLeast(0).atMost(1e5);

// ---- tco -----------------------------------------------------------------------------------------------------------
extern const Field kPurchase = Field::number("purchase_usd", "Purchase price of the GPUs in US dollars; absent = the DGX A100's pro rata for a100-sxm4-40gb.").above(0).atMost(1e12);
extern const Field kAmortisation = Field::number("amortisation_years", "Years the purchase is written off over.").above(0).atMost(50).byDefault(kAmortisationYears);
extern const Field kPowerW = Field::number("power_w", "Power of the GPUs in watts; absent = their TDP.").above(0).atMost(1e9);
extern const Field kOtherUsdPerYear = Field::number("other_usd_per_year", "Other yearly costs of owning (space, staff, support).").atLeast(0).atMost(1e12).byDefault(0.0);
extern const Field kRentUsdPerGpuHour = Field::number("rent_usd_per_gpu_hour", "Rental rate per GPU-hour; absent = the instance's, else the catalog's cheapest on-demand.").above(0).atMost(1e4);
extern const Field kTcoUtilisation = Field::number("utilisation", "A utilisation to add to the points compared.").above(0).atMost(1);

// ---- energy --------------------------------------------------------------------------------------------------------
extern const Field kEnergyHours = Field::number("hours", "Hours the job runs; absent = the throughput model's time for the workload.").above(0).atMost(1e7);
extern const Field kEnergyUtilisation = Field::number("utilisation", "Share of TDP drawn.").atLeast(0).atMost(1).byDefault(kTrainingPowerShareOfTdp);
extern const Field kKgCo2PerKwh = Field::number("kg_co2_per_kwh", "Grid CO2 intensity, kg per kWh; absent = the grid's.").atLeast(0).atMost(5);

// ---- estimate ------------------------------------------------------------------------------------------------------
extern const Field kEstimateGpu = kGpu.req();
extern const Field kGpusPerNode = Field::integer("gpus_per_node", "GPUs per node; absent = count, at most 8.").atLeast(1).atMost(1024);
extern const Field kInterconnect = Field::string("interconnect", "Link between a node's GPUs (nvswitch, nvlink, infinity-fabric, pcie); absent = the GPU's board.");
extern const Field kNetworkGbps = Field::number("network_gbps", "Network per node, Gbit/s; absent = one RDMA NIC per GPU.").atLeast(0).atMost(1e6);
extern const Field kRdma = Field::boolean("rdma", "The network is RDMA (InfiniBand, RoCE).").byDefault(true);

// ---- advise --------------------------------------------------------------------------------------------------------
// params: required without a preset or workload (the reader asks for it then), else optional.
extern const Field kAdviseParams = [] {
  Field f = data_fields::kTransformerParams.anyVariant();
  f.required = false;
  f.description = "Parameters of the model; required without a preset or workload, else the workload's (a different value is an error).";
  return f;
}();
extern const Field kAdviseTokens = data_fields::kTokens.anyVariant();
extern const Field kAdviseSeqLen = data_fields::kSeqLen.anyVariant().byDefault(2048.0);
extern const Field kStage = Field::string("stage", "Training stage (the article's §4.2).").oneOf(kStages).byDefault("exploration");
extern const Field kMode = Field::string("mode", "What is trained; finetune and lora need tokens. Beside a preset or workload: the workload's.").oneOf(kAdviceModes).byDefault("pretrain");
extern const Field kDeadlineHours = Field::number("deadline_hours", "Deadline in hours; 0 = none.").atLeast(0).atMost(1e7).byDefault(0.0);
extern const Field kHorizonHours = Field::number("horizon_hours", "Wall time each offer is sized to finish within.").atLeast(0).atMost(1e7).byDefault(kDefaultHorizonHours);
extern const Field kMaxGpus = Field::integer("max_gpus", "Most GPUs advised.").atLeast(8).atMost(65536).byDefault(4096.0);

// ---- levers --------------------------------------------------------------------------------------------------------
extern const Field kLeversInstance = kInstance.req();

// ---- mig -----------------------------------------------------------------------------------------------------------
extern const Field kMigGpu = kGpu.req();
extern const Field kJobs = Field::array("jobs", &kMigJobRecord, "The jobs: items, or one text such as \"7x8gb,2x20gb@4h\".").req().orSingle(FieldType::kString);
extern const Field kJobCount = Field::integer("count", "Jobs of this kind.").atLeast(1).atMost(10000).byDefault(1.0);
extern const Field kJobMemory = Field::number("memory_gb", "Memory each job needs, GB.").req().above(0).atMost(1e4);
extern const Field kJobComputeShare = Field::number("compute_share", "Share of the whole GPU's compute a job needs.").above(0).atMost(1).byDefault(1.0 / 7.0);
extern const Field kJobHours = Field::number("hours", "Hours each job runs.").above(0).atMost(1e6).byDefault(1.0);

// ---- serverless ----------------------------------------------------------------------------------------------------
extern const Field kServerlessOffer = Field::string("offer", "The serverless offer (id or instance type).").req();
extern const Field kLoadGpus = Field::numbers("load_gpus", "GPUs busy in each hour of a day; absent = the example day.").ofLength(24).atLeast(0).atMost(1e5);
extern const Field kStartsPerHour = Field::numbers("starts_per_hour", "Cold starts in each hour of a day.").ofLength(24).atLeast(0).atMost(1e6);
extern const Field kIdleTimeout = Field::number("idle_timeout_s", "Seconds a worker idles before it stops, when the price gives none.").atLeast(0).atMost(86400);
extern const Field kMaxConcurrency = Field::integer("max_concurrency", "Most workers at once, when the price gives none.").atLeast(1).atMost(1000000);

// ---- measurements and parse_measurement ----------------------------------------------------------------------------
extern const Field kMeasuredGpu = kGpu.req();
extern const Field kMeasuredCount = Field::integer("count", "GPUs measured.").atLeast(1).atMost(65536).byDefault(1.0);
extern const Field kTokensPerS = Field::number("tokens_per_s", "Tokens per second measured (one of the two rates).").above(0).atMost(1e15);
extern const Field kSamplesPerS = Field::number("samples_per_s", "Samples per second measured (one of the two rates).").above(0).atMost(1e15);
extern const Field kMeasuredPrecision = Field::string("precision", "Number format measured (any letter case).").oneOf(kMeasuredPrecisions).ignoringCase();
extern const Field kPeakMemory = Field::number("peak_memory_gb", "Peak memory per GPU, GB.").atLeast(0).atMost(1e5);
extern const Field kLayersRun = Field::integer("layers_run", "Layers of a shortened model that ran (at most layers).").atLeast(1).atMost(1000000);
extern const Field kMeasuredLayers = Field::integer("layers", "Layers of the full model.").atLeast(1).atMost(1000000);
extern const Field kMeasuredSource = Field::string("source", "Where the figure comes from.").oneOf(kMeasurementSources).byDefault("typed");
extern const Field kText = Field::string("text", "A probe script's line, or \"R tokens/s on GPU xN\".").req();
extern const Field kProbeMarker = Field::integer("gpuvalue_probe", "Marks a probe script's line: its format version (only its presence is checked).").req();
extern const Field kProbeError = Field::string("error", "Why the probe failed.");
extern const Field kProbeGpuName = Field::string("gpu_name", "The GPU's name as the driver reports it.").req();
extern const Field kProbeGpuMemory = Field::number("gpu_memory_gb", "The GPU's memory as the driver reports it, decimal GB.").atLeast(0).atMost(1e5);
extern const Field kProbeGpuCount = Field::integer("gpu_count", "GPUs the probe ran on.").req().atLeast(1).atMost(65536);

// ---- plan ----------------------------------------------------------------------------------------------------------
extern const Field kExample = Field::string("example", "The article's worked example instead of a demand.").oneOf(kExamples);
extern const Field kDemand = Field::object("demand", &kDemandRecord, "");
extern const Field kMonthlyGpuHours = Field::numbers("monthly_gpu_hours", "GPU-hours needed in each month.").req().ofLength(12).atLeast(0).atMost(1e9);
extern const Field kPeakGpus = Field::numbers("peak_gpus", "Peak GPUs in use, one for the year or one per month.").ofLength(12).atLeast(0).atMost(1e6).orSingle(FieldType::kNumber);
extern const Field kInterruptibleFraction = Field::number("interruptible_fraction", "Share of the work that can run interrupted (spot).").req().atLeast(0).atMost(1);
extern const Field kTargetCompletionRate = Field::number("target_completion_rate", "Share of interruptible work that must finish.").req().atLeast(0).atMost(1);
extern const Field kReservedGranularity = Field::number("reserved_granularity_gpus", "GPUs per reservation (an instance's).").above(0).atMost(1e5).byDefault(1.0);
extern const Field kPlanPrices = Field::object("prices", &kPlanPricesRecord, "");
extern const Field kPlanSpot = Field::object("spot", &kPlanSpotRecord, "");
extern const Field kOnDemandRate = Field::number("on_demand_usd_per_gpu_hour", "On-demand rate per GPU-hour.").above(0).atMost(1e4);
extern const Field kReservedRate = Field::number("reserved_usd_per_gpu_hour", "Reserved rate per GPU-hour.").above(0).atMost(1e4);
extern const Field kSpotRate = Field::number("spot_usd_per_gpu_hour", "Spot rate per GPU-hour; absent = the on-demand rate less the median spot discount.").above(0).atMost(1e4);
extern const Field kInterruptionsPerHour = Field::number("interruptions_per_hour", "Spot interruptions per hour.").atLeast(0).atMost(10);
extern const Field kCheckpointWriteHours = Field::number("checkpoint_write_hours", "Hours to write one checkpoint.").atLeast(0).atMost(100);
extern const Field kRestartHours = Field::number("restart_hours", "Hours to restart after an interruption.").atLeast(0).atMost(100);
extern const Field kTaskHours = Field::number("task_hours", "Hours of one interruptible task.").above(0).atMost(1e5);
extern const Field kDeadlineFactor = Field::number("deadline_factor", "A task's deadline as a multiple of its length.").atLeast(1).atMost(1e3);

// ---- compare -------------------------------------------------------------------------------------------------------
extern const Field kConfigs = Field::array("configs", &kCompareConfigRecord, "Two to four configurations.").req();
extern const Field kBaseline = Field::integer("baseline", "Index of the configuration the others are set against; absent = the slowest.").atLeast(0).atMost(3);
extern const Field kConfigUsdPerHour = Field::number("usd_per_hour", "Hourly rate of the whole configuration, given instead of the catalog's.").above(0).atMost(1e6);
extern const Field kConfigCount = Field::integer("count", "GPUs (with gpu).").atLeast(1).atMost(65536);

// ---- rankView ------------------------------------------------------------------------------------------------------
extern const Field kWeights = Field::object("weights", &request_fields::kWeightsRecord, "");
extern const Field kFilters = Field::object("filters", &request_fields::kFiltersRecord, "");
extern const Field kView = Field::object("view", &kViewRecord, "");
extern const Field kSort = Field::object("sort", &kSortRecord, "");
extern const Field kSortKey = Field::string("key", "The column the rows are ordered by.");
extern const Field kSortDir = Field::string("dir", "Ascending or descending.").oneOf(kSortDirections);
extern const Field kRows = Field::integer("rows", "Rows written.").atLeast(0).atMost(1000000).byDefault(250.0);
extern const Field kPoints = Field::integer("points", "Most scatter points written.").atLeast(1).atMost(100000).byDefault(600.0);
extern const Field kKeys = Field::strings("keys", "Result keys to write even when not in rows (at most 1000).");

// ---- offers --------------------------------------------------------------------------------------------------------
extern const Field kOfferIds = Field::strings("ids", "Ids of the catalog offers whose records are written, in this order.").req();

// ---- importSkypilot ------------------------------------------------------------------------------------------------
extern const Field kImportProvider = Field::string("provider", "Provider of the offers; absent = the CSV's cloud column.");
extern const Field kImportAsOf = Field::string("as_of", "Date the prices were read (YYYY-MM-DD); absent = today.");
extern const Field kImportSource = Field::string("source", "Where the CSV comes from.").byDefault("SkyPilot catalog vms.csv");
extern const Field kImportKnownGpus = Field::object("known_gpus", nullptr, "GPU id of each instance type (or upstream id) another catalog file maps.");

namespace {
const Field* const kCostFields[] = {&kCostInstance, &kHours, &kPricing, &kNodes, &kSpot, &kFreeTrialHours, &kColdStart};
const Field* const kTcoFields[] = {&kGpu, &kInstance, &kCount, &kPurchase, &kAmortisation, &kPowerW, &kCooling, &kPue, &kUsdPerKwh,
                                   &kGrid, &kOtherUsdPerYear, &kRentUsdPerGpuHour, &kTcoUtilisation,
                                   &request_fields::kIncludeExamples, &request_fields::kIncludeStale};
const Field* const kEnergyFields[] = {&kGpu, &kInstance, &kCount, &kEnergyHours, &kPreset, &kWorkload, &kPrecision,
                                      &kConstants, &kEnergyUtilisation, &kCooling, &kPue, &kUsdPerKwh, &kKgCo2PerKwh, &kGrid, &kPowerW};
const Field* const kEstimateFields[] = {&kPreset, &kWorkload, &kPrecision, &kEstimateGpu, &kCount, &kGpusPerNode, &kInterconnect,
                                        &kNetworkGbps, &kRdma, &kConstants, &kMeasurements};
const Field* const kAdviseFields[] = {&kPreset, &kWorkload, &kPrecision, &kAdviseParams, &kAdviseTokens, &kStage, &kMode, &kAdviseSeqLen,
                                      &kDeadlineHours, &kHorizonHours, &kMaxGpus, &request_fields::kIncludeExamples,
                                      &request_fields::kIncludeStale, &kSpot, &kConstants, &kMeasurements};
const Field* const kLeversFields[] = {&kPreset, &kWorkload, &kPrecision, &kLeversInstance, &kPricing, &kNodes, &kSpot, &kConstants,
                                      &request_fields::kIncludeExamples, &request_fields::kIncludeStale};
const Field* const kMigFields[] = {&kMigGpu, &kJobs, &kConstants, &request_fields::kIncludeExamples, &request_fields::kIncludeStale};
const Field* const kMigJobFields[] = {&kJobCount, &kJobMemory, &kJobComputeShare, &kJobHours};
const Field* const kServerlessFields[] = {&kServerlessOffer, &kInstance, &kLoadGpus, &kStartsPerHour, &kColdStart, &kIdleTimeout,
                                          &kMaxConcurrency};
const Field* const kMeasurementFields[] = {&kMeasuredGpu, &kMeasuredCount, &kTokensPerS, &kSamplesPerS, &kMeasuredPrecision,
                                           &kPeakMemory, &kLayersRun, &kMeasuredLayers, &kMeasuredSource};
const Field* const kParseMeasurementFields[] = {&kText};
const Field* const kProbeLineFields[] = {&kProbeMarker, &kProbeError, &kProbeGpuName, &kProbeGpuMemory, &kProbeGpuCount};
const Field* const kPlanFields[] = {&kExample, &kDemand};
const Field* const kDemandFields[] = {&kMonthlyGpuHours, &kPeakGpus, &kInterruptibleFraction, &kTargetCompletionRate,
                                      &kReservedGranularity, &kInstance, &kPlanPrices, &kPlanSpot};
const Field* const kPlanPricesFields[] = {&kOnDemandRate, &kReservedRate, &kSpotRate};
const Field* const kPlanSpotFields[] = {&kInterruptionsPerHour, &kCheckpointWriteHours, &kRestartHours, &kTaskHours, &kDeadlineFactor};
const Field* const kCompareFields[] = {&kPreset, &kWorkload, &kPrecision, &kConfigs, &kPricing, &kBaseline, &kSpot, &kConstants,
                                       &kMeasurements};
const Field* const kCompareConfigFields[] = {&kInstance, &kNodes, &kGpu, &kConfigCount, &kConfigUsdPerHour};
namespace R = request_fields;
const Field* const kRankFields[] = {&kPreset, &kWorkload, &kPrecision, &R::kPricing, &kWeights, &kFilters, &kSpot, &kConstants,
                                    &R::kMaxNodes, &R::kHorizon, &R::kFreeTrial, &R::kLimit, &R::kSharedEvaluations, &kMeasurements};
// rank's members and the view.
const Field* const kRankViewFields[] = {&kPreset, &kWorkload, &kPrecision, &R::kPricing, &kWeights, &kFilters, &kSpot,
                                        &kConstants, &R::kMaxNodes, &R::kHorizon, &R::kFreeTrial, &R::kLimit,
                                        &R::kSharedEvaluations, &kMeasurements, &kView};
const Field* const kViewFields[] = {&kSort, &kRows, &kPoints, &kKeys};
const Field* const kSortFields[] = {&kSortKey, &kSortDir};
const Field* const kOffersFields[] = {&kOfferIds};
const Field* const kImportFields[] = {&kImportProvider, &kImportAsOf, &kImportSource, &kImportKnownGpus};

// Requests take members their table does not name without complaint (the serve request excepted), so the schemas
// leave them open.
template <size_t N>
constexpr Record openRecord(const char* name, const char* description, const Field* const (&fields)[N]) {
  return makeRecord(name, description, fields, nullptr, true);
}
}  // namespace

extern const Record kCostRecord = openRecord("cost_request", "A cost request: hours on one catalog instance.", kCostFields);
extern const Record kTcoRecord = openRecord("tco_request", "A tco request: owning against renting GPUs (gpu or instance).", kTcoFields);
extern const Record kEnergyRecord = openRecord("energy_request", "An energy request (gpu or instance; hours, or a workload to time).", kEnergyFields);
extern const Record kEstimateRecord = openRecord("estimate_request", "An estimate request (preset or workload).", kEstimateFields);
extern const Record kAdviseRecord = openRecord("advise_request", "An advise request: params (and tokens), or a preset or workload as rank takes it.", kAdviseFields);
extern const Record kLeversRecord = openRecord("levers_request", "A levers request (preset or workload).", kLeversFields);
extern const Record kMigRecord = openRecord("mig_request", "A mig request.", kMigFields);
extern const Record kMigJobRecord = openRecord("mig_job", "Jobs of one kind.", kMigJobFields);
extern const Record kServerlessRecord = openRecord("serverless_request", "A serverless request.", kServerlessFields);
extern const Record kMeasurementRecord = openRecord("user_measurement", "A throughput measurement (tokens_per_s or samples_per_s).", kMeasurementFields);
extern const Record kParseMeasurementRecord = openRecord("parse_measurement_request", "A parse_measurement request.", kParseMeasurementFields);
extern const Record kProbeLineRecord = openRecord("probe_line", "A probe script's line; its other members are a measurement's.", kProbeLineFields);
extern const Record kPlanRecord = openRecord("plan_request", "A plan request (demand, or example).", kPlanFields);
extern const Record kDemandRecord = openRecord("demand", "A year's GPU demand and its prices (instance, prices or both).", kDemandFields);
extern const Record kPlanPricesRecord = openRecord("plan_prices", "Rates per GPU-hour, given instead of the instance's.", kPlanPricesFields);
extern const Record kPlanSpotRecord = openRecord("plan_spot", "How interruptible work fares on spot.", kPlanSpotFields);
extern const Record kCompareRecord = openRecord("compare_request", "A compare request (preset or workload).", kCompareFields);
extern const Record kCompareConfigRecord = openRecord("compare_config", "One configuration: instance, or gpu and count.", kCompareConfigFields);
extern const Record kViewRecord = openRecord("view", "What the page shows of a ranking.", kViewFields);
extern const Record kSortRecord = openRecord("sort", "The rows' order.", kSortFields);
extern const Record kOffersRecord = openRecord("offers_request", "An offers request: the offers by id.", kOffersFields);
extern const Record kImportOptionsRecord = openRecord("import_options", "Options of a SkyPilot import.", kImportFields);
extern const Record kRankRecord = openRecord("rank_request", "A rank request (preset or workload).", kRankFields);
extern const Record kRankViewRecord = openRecord("rank_view_request", "A rankView request: a rank request and its view.", kRankViewFields);

extern const MethodRecord kMethodRecords[] = {
    {"rank", &kRankRecord}, {"rankView", &kRankViewRecord}, {"estimate", &kEstimateRecord}, {"cost", &kCostRecord}, {"advise", &kAdviseRecord}, {"plan", &kPlanRecord},
    {"serverless", &kServerlessRecord}, {"mig", &kMigRecord}, {"levers", &kLeversRecord}, {"compare", &kCompareRecord},
    {"energy", &kEnergyRecord}, {"tco", &kTcoRecord}, {"parse_measurement", &kParseMeasurementRecord},
    {"importSkypilot", &kImportOptionsRecord}, {"offers", &kOffersRecord},
};
extern const size_t kMethodRecordCount = sizeof(kMethodRecords) / sizeof(kMethodRecords[0]);

}  // namespace request_tables
}  // namespace gpuvalue
