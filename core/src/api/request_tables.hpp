// Field tables of the decision tools' requests (cost, tco, energy, estimate, advise, levers, mig, serverless, plan,
// compare, rank and rankView, parse_measurement and the "measurements" of estimate, compare and rank) and of
// importSkypilot's options. The readers in core/src/api read every member through the fields below, so a member's
// type, bounds, required flag and absent value are stated once; rules that join members (one of gpu and instance,
// hours or a workload) stay in the readers. The JSON Schemas data/schema/<method>.request.schema.json are written
// from the records (api/schemas.cpp), the CLI takes its number options' bounds from them (bin/cli/options.mjs), and
// tests/cpp/test_request_fields.cpp probes each reader against its table.
#pragma once
#include <cstddef>
#include <string>

#include "io/fields.hpp"

namespace gpuvalue {
namespace request_tables {

// Members several requests share.
extern const Field kGpu, kInstance, kPricing, kCount, kNodes, kCooling, kPue, kGrid, kUsdPerKwh, kPreset, kWorkload,
    kPrecision, kConstants, kSpot, kMeasurements, kColdStart;
// cost
extern const Field kCostInstance, kHours, kFreeTrialHours;
// tco
extern const Field kPurchase, kAmortisation, kPowerW, kOtherUsdPerYear, kRentUsdPerGpuHour, kTcoUtilisation;
// energy
extern const Field kEnergyHours, kEnergyUtilisation, kKgCo2PerKwh;
// estimate
extern const Field kEstimateGpu, kGpusPerNode, kInterconnect, kNetworkGbps, kRdma;
// advise (params, tokens and seq_len are the workload table's)
extern const Field kAdviseParams, kAdviseTokens, kAdviseSeqLen, kStage, kMode, kDeadlineHours, kHorizonHours, kMaxGpus;
// levers
extern const Field kLeversInstance;
// mig and its jobs
extern const Field kMigGpu, kJobs, kJobCount, kJobMemory, kJobComputeShare, kJobHours;
// serverless
extern const Field kServerlessOffer, kLoadGpus, kStartsPerHour, kIdleTimeout, kMaxConcurrency;
// A user's measurement (an item of "measurements") and parse_measurement's request and probe line
extern const Field kMeasuredGpu, kMeasuredCount, kTokensPerS, kSamplesPerS, kMeasuredPrecision, kPeakMemory, kLayersRun,
    kMeasuredLayers, kMeasuredSource;
extern const Field kText, kProbeMarker, kProbeError, kProbeGpuName, kProbeGpuMemory, kProbeGpuCount;
// plan: the request, its demand, the demand's prices and spot
extern const Field kExample, kDemand, kMonthlyGpuHours, kPeakGpus, kInterruptibleFraction, kTargetCompletionRate,
    kReservedGranularity, kPlanPrices, kPlanSpot;
extern const Field kOnDemandRate, kReservedRate, kSpotRate;
extern const Field kInterruptionsPerHour, kCheckpointWriteHours, kRestartHours, kTaskHours, kDeadlineFactor;
// compare and one configuration
extern const Field kConfigs, kBaseline, kConfigUsdPerHour, kConfigCount;
// rank's weights and filters (io/request_fields.hpp's records); rankView's view and its sort
extern const Field kWeights, kFilters, kView, kSort, kSortKey, kSortDir, kRows, kPoints, kKeys;
// offers (the page's details of one offer)
extern const Field kOfferIds;
// importSkypilot's options
extern const Field kImportProvider, kImportAsOf, kImportSource, kImportKnownGpus;

extern const Record kCostRecord, kTcoRecord, kEnergyRecord, kEstimateRecord, kAdviseRecord, kLeversRecord, kMigRecord,
    kMigJobRecord, kServerlessRecord, kMeasurementRecord, kParseMeasurementRecord, kProbeLineRecord, kPlanRecord,
    kDemandRecord, kPlanPricesRecord, kPlanSpotRecord, kCompareRecord, kCompareConfigRecord, kViewRecord, kSortRecord,
    kImportOptionsRecord, kRankRecord, kRankViewRecord, kOffersRecord;

// The request table of each method that has one (the serve request's is serving_fields::kRequestRecord): what the
// request schemas are written from.
struct MethodRecord {
  const char* method;
  const Record* record;
};
extern const MethodRecord kMethodRecords[];
extern const size_t kMethodRecordCount;

}  // namespace request_tables
}  // namespace gpuvalue
