// Field tables of the ranking request's option records: "spot" (also read by cost and the decision tools),
// "weights", "filters", and the top-level ranking options (pricing, max_nodes, free_trial_hours, limit), with
// the readers the request code calls. Absent members keep the value the options already hold (the defaults
// live, with their sources, in model/pricing.hpp and model/ranking.hpp).
#pragma once
#include "io/fields.hpp"
#include "model/pricing.hpp"
#include "model/ranking.hpp"

namespace gpuvalue {
namespace request_fields {

extern const Record kSpotRecord, kWeightsRecord, kFiltersRecord, kRankOptionsRecord;
// Members the decision tools' requests share with "filters" (api/request_tables.hpp).
extern const Field kIncludeExamples, kIncludeStale;
// The ranking request's top-level options (kRankOptionsRecord's members), for the rank request's table.
extern const Field kPricing, kHorizon, kMaxNodes, kFreeTrial, kLimit, kSharedEvaluations;

}  // namespace request_fields

// The request's "spot" object (/spot), when there is one.
void readSpotOptions(const json& req, SpotOptions& s, Issues& issues);
// The ranking request's "weights" (/weights) and "filters" (/filters) objects, when there are, and its top-level
// pricing, max_nodes, free_trial_hours (-1 when absent) and limit (0 when absent).
void readRankOptions(const json& req, RankOptions& opt, long long& limit, Issues& issues);
// The ranking request's shared_evaluations flag (an output option: how results are written, not what they are).
bool readSharedEvaluations(const json& req, Issues& issues);

}  // namespace gpuvalue
