#include "model/catalog_fields.hpp"

#include "model/catalog.hpp"

namespace gpuvalue {
namespace catalog_fields {

namespace {
const char* const kInterconnects[] = {"nvswitch", "nvlink", "pcie", "infinity-fabric", "none", nullptr};
const char* const kCurrencies[] = {"USD", "CNY", nullptr};
// The pricing models in PricingModel order (parsePricingModel accepts exactly these).
const char* const kModels[] = {"on_demand", "reserved", "spot", "tiered", "monthly", "serverless", nullptr};
const char* const kUpfronts[] = {"none", "partial", "all", nullptr};
// parsePrecision's names (any letter case).
const char* const kPrecisions[] = {"fp32", "tf32", "fp16", "bf16", "fp8", "fp4", "int8", nullptr};
const char* const kHourly[] = {"on_demand", "reserved", "spot", nullptr};
const char* const kReservedOnly[] = {"reserved", nullptr};
const char* const kMonthlyOnly[] = {"monthly", nullptr};
const char* const kTieredOnly[] = {"tiered", nullptr};
const char* const kServerlessOnly[] = {"serverless", nullptr};
// Seconds in 31 days and in 366 days: the longest billing increment and minimum charge a catalog may state.
constexpr double kMonthSeconds = 31 * 86400.0;
constexpr double kYearSeconds = 366 * 86400.0;
// The message of a string that is not a calendar date YYYY-MM-DD between 1990 and 2200 (parseIsoDate).
constexpr const char* kDateError = "error.date";
}  // namespace

// ---- An offer -----------------------------------------------------------------------------------------------
// nonEmpty on a string: the schema asks for more than white space, as readOfferJson does (error.empty_id).
extern const Field kId = Field::string("id", "Unique id across all catalog files, e.g. aws-p4d.24xlarge-us-east-1.").req().nonEmpty();
extern const Field kProvider = Field::string("provider", "Provider display name, e.g. 'AWS'.").req();
extern const Field kInstanceType = Field::string("instance_type", "The provider's own name for the instance type.").req();
extern const Field kGpu = Field::string("gpu", "GPU id from data/gpus.json (the engine also accepts its aliases, in any letter case).")
                              .req()
                              .formatted("gpu_id", nullptr, nullptr);
extern const Field kGpuCount = Field::integer("gpu_count", "Number of GPUs in the instance.").req().atLeast(1).atMost(1024);
extern const Field kVcpus = Field::number("vcpus", "vCPUs in the instance.").above(0).atMost(1e5);
extern const Field kRamGb =
    Field::number("ram_gb", "Host memory, GB (as the provider states it; GiB and GB are not distinguished).").above(0).atMost(1e6);
extern const Field kInterconnect =
    Field::string("interconnect", "GPU-to-GPU link inside the node; when absent, 'pcie' for several GPUs and 'none' for one.")
        .oneOf(kInterconnects);
extern const Field kNetworkGbps =
    Field::number("network_gbps", "Instance network bandwidth, Gbit/s ('up to' figures are stored as their maximum); 0 = not published.")
        .atLeast(0).atMost(1e5).byDefault(0.0);
extern const Field kRdma = Field::boolean("rdma", "True if the network supports RDMA (EFA, InfiniBand, RoCE).").byDefault(false);
extern const Field kRegion = Field::string(
    "region", "Provider region the prices apply to; 'global' if the provider lists one price for all regions.").req();
extern const Field kCurrency =
    Field::string("currency", "Currency the provider quotes prices in. Prices are always also stored in USD.")
        .oneOf(kCurrencies).byDefault("USD");
// Per-second billing is the finest any provider bills (https://aws.amazon.com/ec2/pricing/on-demand/ "per-second
// billing", 2026-11-01); a smaller increment (5e-324) made the billed hours overflow and the job's cost read $0.
extern const Field kBillingIncrementS =
    Field::number("billing_increment_s", "Billing granularity in seconds: per-second = 1, per-minute = 60, per-hour = 3600.")
        .atLeast(1).atMost(kMonthSeconds).byDefault(3600.0);
extern const Field kMinChargeS = Field::number("min_charge_s", "Minimum billed duration per start, seconds.")
                                     .atLeast(0).atMost(kYearSeconds).byDefault(0.0);
extern const Field kExample =
    Field::boolean("example", "True only for the seed article's illustrative instances (not real offers).").byDefault(false);
extern const Field kMarketplace = Field::boolean(
    "marketplace", "True for offers of independent hosts rented through a marketplace (peer-to-peer, e.g. Vast.ai).").byDefault(false);
extern const Field kZones = Field::integer(
    "zones", "Imported offers: number of zones (or host listings) of this instance type in this region; prices are the cheapest.")
                                .atLeast(1).atMost(100000).ignored();
extern const Field kService = Field::object("service", &kServiceRecord, "");
extern const Field kClaims = Field::object("claims", &kClaimsRecord, "");
extern const Field kPrices = Field::array("prices", &kPriceRecord, "Published prices for this instance.").req().nonEmpty();
extern const Field kNotes =
    Field::string("notes", "Free-text caveats: assumptions, how a value was derived, doubts about dates.").ignored();

// ---- A price ------------------------------------------------------------------------------------------------
extern const Field kModel = Field::string("model", "Pricing model; chooses which other members apply.")
                                .req()
                                .oneOf(kModels)
                                ;
// Lowest hourly price accepted: a tenth of a cent, 200 times below the cheapest GPU offer of the bundled catalog
// (Azure NC4as T4 v3 at $0.21/h, data/catalog/azure.json). Smaller prices (5e-324) underflow $/TFLOPS·day to 0 and
// then rank below every real offer instead of above.
constexpr double kMinUsdPerHour = 0.001;
extern const Field kUsdPerHour =
    Field::number("usd_per_hour", "US dollars per instance-hour (the whole instance, all GPUs); reserved: effective rate over the term.")
        .req().atLeast(kMinUsdPerHour).atMost(1e6).onlyFor(kHourly);
extern const Field kUsdPerMonth =
    Field::number("usd_per_month", "US dollars per instance-month.").req().atLeast(kMinUsdPerHour).atMost(1e8).onlyFor(kMonthlyOnly);
extern const Field kUsdPerSecond =
    Field::number("usd_per_second", "Serverless: US dollars per second a worker of this offer is billed (the provider's per-second price).")
        .req().atLeast(kMinUsdPerHour / 3600.0).atMost(1e3).onlyFor(kServerlessOnly);
extern const Field kColdStartS =
    Field::number("cold_start_s", "Serverless: billed seconds to start a worker from zero, when published; absent = the request's assumption.")
        .atLeast(0).atMost(86400).whenAbsent(-1).onlyFor(kServerlessOnly);
extern const Field kMinRequestS = Field::number("min_request_s", "Serverless: smallest billed duration of one request, seconds.")
                                      .atLeast(0).atMost(86400).byDefault(0.0).onlyFor(kServerlessOnly);
extern const Field kIdleTimeoutS =
    Field::number("idle_timeout_s", "Serverless: seconds a worker stays up (and billed) after its last request before scaling down.")
        .atLeast(0).atMost(86400).byDefault(0.0).onlyFor(kServerlessOnly);
extern const Field kMaxConcurrency =
    Field::integer("max_concurrency", "Serverless: most workers at once (the provider's default cap); absent = not published.")
        .atLeast(0).atMost(1e6).byDefault(0.0).onlyFor(kServerlessOnly);
extern const Field kTiers =
    Field::array("tiers", &kTierRecord, "Tiers in increasing order of up_to_hours; the last has no up_to_hours (or null).")
        .req().nonEmpty().onlyFor(kTieredOnly);
extern const Field kTermMonths = Field::integer("term_months", "Commitment length in months (12 = 1 year, 36 = 3 years).")
                                     .req().atLeast(1).atMost(120).onlyFor(kReservedOnly);
extern const Field kUpfront = Field::string("upfront", "How much is paid at the start: none, partial, or all (prepaid).")
                                  .oneOf(kUpfronts).byDefault("none").onlyFor(kReservedOnly);
extern const Field kAsOf = Field::string(
    "as_of", "Date (YYYY-MM-DD) the source published or fetched the price: a page's stated date, a data file's commit date. "
             "Absent when only the day it was read is known (read_on); one of the two is required.")
                               .formatted("date", &isIsoDate, kDateError);
extern const Field kReadOn = Field::string(
    "read_on", "Date (YYYY-MM-DD) the price was read, for a source that gives no date of its own (as_of absent): the price is "
               "shown as 'date unknown, read on' this day, and the 180-day staleness rule cannot judge it.")
                                 .formatted("date", &isIsoDate, kDateError);
extern const Field kSource = Field::string(
    "source", "Where the price was read: a URL (page, or a GitHub file at a commit), or 'seed article §3' for the article examples.").req();
extern const Field kClaimedDiscountPct =
    Field::number("claimed_discount_pct", "Discount versus on-demand that the vendor claims for this price, in percent.").atLeast(0).atMost(100);
extern const Field kInterruptionPerHour =
    Field::number("interruption_per_hour", "Spot: published interruptions per instance-hour; absent = the engine's default rate.")
        .atLeast(0).atMost(10).whenAbsent(-1);
extern const Field kFreeTrialHours =
    Field::number("free_trial_hours", "Free-trial hours that are not billed.").atLeast(0).atMost(1e5).byDefault(0.0);
extern const Field kLocalPerHour = Field::number(
    "local_per_hour", "Price per hour in the instance's currency when that is not USD (usd_per_hour is converted from it).")
                                       .above(0).ignored();
extern const Field kZoneMedianUsdPerHour = Field::number(
    "zone_median_usd_per_hour", "Imported offers: the median over the zones whose cheapest price usd_per_hour is.").above(0).atMost(1e6).ignored();
extern const Field kLocalPerMonth =
    Field::number("local_per_month", "Price per month in the instance's currency when that is not USD.").above(0).ignored();

// ---- A tier, service features, vendor claims -------------------------------------------------------------------
extern const Field kTierUpToHours = Field::number(
    "up_to_hours", "Cumulative hours up to which this tier applies, above the previous tier's; required on every tier but the last.")
                                        .above(0).atMost(1e9);
extern const Field kTierUsdPerHour =
    Field::number("usd_per_hour", "US dollars per instance-hour in this tier.").req().atLeast(kMinUsdPerHour).atMost(1e6);
extern const Field kPreinstalledFrameworks =
    Field::boolean("preinstalled_frameworks", "True if images with optimised PyTorch/TensorFlow are provided.").byDefault(false);
extern const Field kSlaPct = Field::number("sla_pct", "Published availability SLA in percent, e.g. 99.9; absent = not published.")
                                 .atLeast(0).atMost(100);
extern const Field kScalingMinutes =
    Field::number("scaling_minutes", "Published time to add capacity, in minutes; absent = not published.").atLeast(0).atMost(1e5).whenAbsent(-1);
extern const Field kQueueMinutes =
    Field::number("queue_minutes", "Published typical queueing time before an instance starts, in minutes; absent = not published.")
        .atLeast(0).atMost(1e6).whenAbsent(-1);
extern const Field kClaimGpuMemoryGb = Field::number("gpu_memory_gb", "Claimed memory per GPU, GB.").above(0).atMost(1e5);
extern const Field kClaimTflops = Field::object("tflops", &kTflopsClaimRecord, "Claimed peak compute for the whole instance.");
extern const Field kClaimMemoryBandwidthGbs =
    Field::number("memory_bandwidth_gbs", "Claimed memory bandwidth, GB/s.").above(0).atMost(1e7);
extern const Field kClaimNvlinkGbs = Field::number("nvlink_gbs", "Claimed NVLink bandwidth per GPU, GB/s.").above(0).atMost(1e7);
extern const Field kClaimCpu = Field::string("cpu", "Claimed CPU model.");
extern const Field kClaimCpuMemoryType = Field::string("cpu_memory_type", "Claimed host memory type, e.g. DDR4.");
extern const Field kClaimCpuMemoryGb = Field::number("cpu_memory_gb", "Claimed host memory, GB.").above(0).atMost(1e7);
extern const Field kClaimResnet50 =
    Field::number("resnet50_images_per_s", "Claimed ResNet-50 training throughput for the instance, images/s.").above(0).atMost(1e7);
extern const Field kClaimText = Field::strings("text", "Other claims in free text (items that are not strings are skipped).");
extern const Field kClaimPrecision = Field::string("precision", "Number format the claim refers to (any letter case).")
                                         .req()
                                         .oneOf(kPrecisions)
                                         .ignoringCase();
extern const Field kClaimValue = Field::number("value", "Claimed TFLOPS for the whole instance.").req().above(0).atMost(1e9);

// ---- The document ---------------------------------------------------------------------------------------------
// Read by both readers (readCatalogHeader): a version this engine does not know is refused, not read as if it were 1.
extern const Field kSchemaVersion = Field::integer("schema_version", "Version of this catalog format; 1.").atLeast(1).atMost(1);
namespace {
const Field kSchemaRef = Field::string("$schema", "Relative path to this schema, for editors: '../schema/catalog.schema.json'.").ignored();
const Field kFxField = Field::object("fx", &kFxRecord, "").ignored();
const Field kInstances = Field::array("instances", &kOfferRecord, "The instance types in this file (normally one file per provider).").req();
const Field kFxRate = Field::number("CNY_per_USD", "Chinese yuan per US dollar.").req().above(0);
const Field kFxAsOf = Field::string("as_of", "Date of the exchange rate.").req().formatted("date", &isIsoDate, kDateError);
const Field kFxSource = Field::string("source", "Where the exchange rate was read.").req();

const Field* const kDocumentFields[] = {&kSchemaRef, &kSchemaVersion, &kFxField, &kInstances};
const Field* const kFxFields[] = {&kFxRate, &kFxAsOf, &kFxSource};
const Field* const kOfferFields[] = {&kId,       &kProvider, &kInstanceType,      &kGpu,        &kGpuCount, &kVcpus,
                                     &kRamGb,    &kInterconnect, &kNetworkGbps, &kRdma,       &kRegion,   &kCurrency,
                                     &kBillingIncrementS, &kMinChargeS, &kExample, &kMarketplace, &kZones, &kService, &kClaims,   &kPrices,
                                     &kNotes};
const Field* const kPriceFields[] = {&kModel,  &kUsdPerHour, &kUsdPerMonth,       &kTiers, &kUsdPerSecond, &kColdStartS, &kMinRequestS,
                                     &kIdleTimeoutS, &kMaxConcurrency,
                                     &kTermMonths, &kUpfront, &kAsOf,             &kReadOn, &kSource,
                                     &kClaimedDiscountPct, &kInterruptionPerHour, &kFreeTrialHours, &kLocalPerHour,
                                     &kLocalPerMonth, &kZoneMedianUsdPerHour};
const Field* const kTierFields[] = {&kTierUpToHours, &kTierUsdPerHour};
const Field* const kServiceFields[] = {&kPreinstalledFrameworks, &kSlaPct, &kScalingMinutes, &kQueueMinutes};
const Field* const kClaimsFields[] = {&kClaimGpuMemoryGb, &kClaimTflops, &kClaimMemoryBandwidthGbs, &kClaimNvlinkGbs, &kClaimCpu,
                                      &kClaimCpuMemoryType, &kClaimCpuMemoryGb, &kClaimResnet50, &kClaimText};
const Field* const kTflopsClaimFields[] = {&kClaimPrecision, &kClaimValue};
}  // namespace

extern const Record kDocumentRecord = makeRecord(
    "catalog", "One catalog file: GPU cloud instance types with their published prices; instance ids are unique across all files.",
    kDocumentFields);
extern const Record kFxRecord =
    makeRecord("fx", "Exchange rate used to convert non-USD prices in this file to USD (files with non-USD prices).", kFxFields);
extern const Record kOfferRecord = makeRecord("instance", "One instance type in one region with its published prices.", kOfferFields);
extern const Record kPriceRecord = makeRecord("price", "One published price of an instance; 'model' chooses the variant.", kPriceFields, "model");
extern const Record kTierRecord = makeRecord("tier", "One step of a tiered (usage-based) price.", kTierFields);
extern const Record kServiceRecord =
    makeRecord("service", "Service features the provider publishes for this offer (only what is published).", kServiceFields);
extern const Record kClaimsRecord = makeRecord(
    "claims", "Figures the vendor states for this offer: shown as claims and checked against datasheets, never used as specs.",
    kClaimsFields);
extern const Record kTflopsClaimRecord = makeRecord("tflops_claim", "Claimed peak compute for the whole instance.", kTflopsClaimFields);

}  // namespace catalog_fields
}  // namespace gpuvalue
