// The field tables of the catalog's records (data/catalog/*.json): the document, an offer (instance), its prices
// and price tiers, its service features and its vendor claims. Both catalog readers (readOfferJson and the
// direct reader in io/catalog_stream.cpp) and the generated catalog schema take their rules from here.
#pragma once
#include "io/fields.hpp"

namespace gpuvalue {
namespace catalog_fields {

// The document's format version (a catalog says 1, or nothing).
extern const Field kSchemaVersion;
// An offer ("instances" item).
extern const Field kId, kProvider, kInstanceType, kGpu, kGpuCount, kVcpus, kRamGb, kInterconnect, kNetworkGbps, kRdma,
    kRegion, kCurrency, kBillingIncrementS, kMinChargeS, kExample, kMarketplace, kZones, kService, kClaims, kPrices, kNotes;
// A price; "model" chooses which members apply.
extern const Field kModel, kUsdPerHour, kUsdPerMonth, kTiers, kTermMonths, kUpfront, kAsOf, kReadOn, kSource, kClaimedDiscountPct,
    kInterruptionPerHour, kFreeTrialHours, kLocalPerHour, kLocalPerMonth, kZoneMedianUsdPerHour, kUsdPerSecond,
    kColdStartS, kMinRequestS, kIdleTimeoutS, kMaxConcurrency;
// One tier of a tiered price.
extern const Field kTierUpToHours, kTierUsdPerHour;
// Service features.
extern const Field kPreinstalledFrameworks, kSlaPct, kScalingMinutes, kQueueMinutes;
// Vendor claims, and their "tflops" object.
extern const Field kClaimGpuMemoryGb, kClaimTflops, kClaimMemoryBandwidthGbs, kClaimNvlinkGbs, kClaimCpu,
    kClaimCpuMemoryType, kClaimCpuMemoryGb, kClaimResnet50, kClaimText, kClaimPrecision, kClaimValue;

extern const Record kDocumentRecord, kFxRecord, kOfferRecord, kPriceRecord, kTierRecord, kServiceRecord, kClaimsRecord,
    kTflopsClaimRecord;

}  // namespace catalog_fields
}  // namespace gpuvalue
