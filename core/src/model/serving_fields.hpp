// Field tables of serving: the served model's shape (a request's "model" and each preset's), the serving presets
// document (data/serving-presets.json), the serving measurements (data/serving-measurements.json, read by
// tests/js/serving-accuracy.test.mjs), the serve request's members and the overridable serving constants. The
// readers (api/serve_request.cpp) and the JSON Schemas (model/schemas.cpp) come from them.
#pragma once
#include "io/fields.hpp"
#include "model/serving.hpp"

namespace gpuvalue {
namespace serving_fields {

extern const Record kModelRecord, kPresetRecord, kPresetDocumentRecord;
extern const Record kMeasurementRecord, kMeasurementDocumentRecord;
extern const Record kTrafficRecord, kTargetsRecord, kConstantsRecord, kRequestRecord;
// serveOffers's request and each of its offers.
extern const Record kOffersRequestRecord, kOfferItemRecord;
extern const Field kOffers, kItemOffer, kItemCount;

// Members of the served model, in ServingModel's order.
extern const Field kParams, kActiveParams, kLayers, kHidden, kHeads, kKvHeads, kHeadDim, kVocab, kExperts,
    kExpertsPerToken, kKvLatentDim;
// Request members.
extern const Field kPreset, kModel, kGpu, kCount, kOffer, kInterconnect, kWeights, kKv, kSoftware, kPricing, kTraffic,
    kTargets, kConstants;
extern const Field kRequestsPerS, kTokensPerDay, kInputTokens, kOutputTokens, kTtftMs, kTpotMs, kPercentile;

// The serving constants a request may override: each member with its field (name, bounds).
struct ConstantField {
  const Field* field;
  double ServingConstants::*member;
};
extern const ConstantField kConstantFields[];
extern const size_t kConstantFieldCount;

}  // namespace serving_fields
}  // namespace gpuvalue
