#include "io/request_fields.hpp"

namespace gpuvalue {
namespace request_fields {

extern const Field kIncludeExamples, kIncludeStale;

namespace {
const Field kInterruptions = Field::number("interruptions_per_node_hour", "Interruptions per node-hour when the price gives none.").atLeast(0).atMost(10);
const Field kCheckpointInterval = Field::number("checkpoint_interval_hours", "Hours between checkpoints; 0 = Young's optimum.").atLeast(0).atMost(1e4);
const Field kCheckpointWrite = Field::number("checkpoint_write_hours", "Hours to write one checkpoint.").atLeast(0).atMost(100);
const Field kRestart = Field::number("restart_hours", "Hours to reacquire an instance and reload after an interruption.").atLeast(0).atMost(100);
const Field kSpotDeadline = Field::number("deadline_hours", "Deadline of the job in hours; 0 = none.").atLeast(0).atMost(1e7);
const Field* const kSpotFields[] = {&kInterruptions, &kCheckpointInterval, &kCheckpointWrite, &kRestart, &kSpotDeadline};

const Field kUnitCost = Field::number("unit_cost", "Weight of $/TFLOPS·day.").atLeast(0).atMost(100);
const Field kTask = Field::number("task", "Weight of time to train and job cost.").atLeast(0).atMost(100);
const Field kServiceWeight = Field::number("service", "Weight of service features.").atLeast(0).atMost(100);
const Field* const kWeightFields[] = {&kUnitCost, &kTask, &kServiceWeight};

// String-or-list members of "filters": one string or an array of strings.
const Field kProviders = Field::strings("providers", "Providers to keep (any letter case).").orSingle(FieldType::kString);
const Field kRegions = Field::strings("regions", "Regions to keep (any letter case).").orSingle(FieldType::kString);
const Field kGpus = Field::strings("gpus", "GPU ids or aliases to keep.").orSingle(FieldType::kString);
const char* const kBillingModels[] = {"on_demand", "reserved", "spot", "tiered", "monthly", "serverless", nullptr};
const Field kPricingList = Field::strings("pricing", "Pricing models to keep.").oneOf(kBillingModels).orSingle(FieldType::kString);
const Field kFitsOnly = Field::boolean("fits_only", "Keep only offers the job fits in.").byDefault(false);
const Field kBudget = Field::number("budget_usd", "Largest job cost in US dollars; 0 = none.").atLeast(0).atMost(1e15).byDefault(0.0);
const Field kDeadline = Field::number("deadline_hours", "Longest time to train in hours; 0 = none.").atLeast(0).atMost(1e7).byDefault(0.0);
const Field kIncludeMarketplace =
    Field::boolean("include_marketplace", "Keep offers of marketplace hosts (peer-to-peer, e.g. Vast.ai).").byDefault(true);
const Field* const kFilterFields[] = {&kProviders, &kRegions, &kGpus, &kPricingList, &kFitsOnly, &kBudget, &kDeadline, &kIncludeExamples,
                                      &kIncludeMarketplace, &kIncludeStale};

}  // namespace

const char* const kPricingChoices[] = {"all", "on_demand", "reserved", "spot", "tiered", "monthly", "serverless", nullptr};
extern const Field kPricing = Field::string("pricing", "One pricing model, or all.")
                           .oneOf(kPricingChoices).byDefault("all");
extern const Field kMaxNodes = Field::integer("max_nodes", "Largest multi-node cluster considered.").atLeast(1).atMost(4096);
extern const Field kHorizon = Field::number("horizon_hours", "Wall time each offer is sized to finish within (the deadline when one is set); 0 = none.")
                           .atLeast(0).atMost(1e7).byDefault(kDefaultHorizonHours);
extern const Field kFreeTrial = Field::number("free_trial_hours", "Free-trial hours to subtract; absent = each price's own.").atLeast(0).atMost(1e5).whenAbsent(-1);
extern const Field kLimit = Field::integer("limit", "Most results returned; 0 = all.").atLeast(0).atMost(10000000).byDefault(0.0);
extern const Field kSharedEvaluations =
    Field::boolean("shared_evaluations",
                   "Write each hardware evaluation's throughput, memory and plan once, in evaluations; each result names "
                   "its own by index (evaluation) instead of repeating them.")
        .byDefault(false);
namespace {
const Field* const kRankFields[] = {&kPricing, &kHorizon, &kMaxNodes, &kFreeTrial, &kLimit, &kSharedEvaluations};
}  // namespace

extern const Field kIncludeExamples = Field::boolean("include_examples", "Keep the seed article's illustrative offers (made-up prices).").byDefault(false);
extern const Field kIncludeStale =
    Field::boolean("include_stale", "Keep prices older than 180 days (they are flagged stale).").byDefault(false);
extern const Record kSpotRecord = makeRecord("spot", "How spot interruptions are costed.", kSpotFields);
extern const Record kWeightsRecord = makeRecord("weights", "Weights of the three ranking scores.", kWeightFields);
extern const Record kFiltersRecord = makeRecord("filters", "Which offers a ranking considers.", kFilterFields);
extern const Record kRankOptionsRecord = makeRecord("rank_options", "Top-level options of a ranking request.", kRankFields);

}  // namespace request_fields

namespace R = request_fields;

static double keep(ObjectReader& r, const Field& f, double current) { return readNumber(r, f).value_or(current); }

void readSpotOptions(const json& req, SpotOptions& s, Issues& issues) {
  if (!req.is_object() || !req.contains("spot")) return;
  ObjectReader r(req["spot"], "/spot", issues);
  if (!r.ok()) return;
  s.interruptions_per_node_hour = keep(r, R::kInterruptions, s.interruptions_per_node_hour);
  s.checkpoint_interval_hours = keep(r, R::kCheckpointInterval, s.checkpoint_interval_hours);
  s.checkpoint_write_hours = keep(r, R::kCheckpointWrite, s.checkpoint_write_hours);
  s.restart_hours = keep(r, R::kRestart, s.restart_hours);
  s.deadline_hours = keep(r, R::kSpotDeadline, s.deadline_hours);
}

static void readFilters(const json& filters, RankFilters& f, Issues& issues) {
  ObjectReader fr(filters, "/filters", issues);
  if (!fr.ok()) return;
  f.providers = readStrings(fr, R::kProviders);
  f.regions = readStrings(fr, R::kRegions);
  f.gpus = readStrings(fr, R::kGpus);
  for (const auto& m : readStrings(fr, R::kPricingList)) {
    PricingModel pm;
    if (parsePricingModel(m, pm)) f.models.push_back(pm);
    else fr.error(R::kPricingList.name, ErrorCode::kInvalidValue, notOneOf(m, choiceList(R::kPricingList).c_str()));
  }
  f.fits_only = booleanOr(fr, R::kFitsOnly);
  f.budget_usd = numberOr(fr, R::kBudget);
  f.deadline_hours = numberOr(fr, R::kDeadline);
  f.include_examples = booleanOr(fr, R::kIncludeExamples);
  f.include_marketplace = booleanOr(fr, R::kIncludeMarketplace);
  f.include_stale = booleanOr(fr, R::kIncludeStale);
}

void readRankOptions(const json& req, RankOptions& opt, long long& limit, Issues& issues) {
  ObjectReader r(req, "", issues);
  const std::string pricing = stringOr(r, R::kPricing);
  PricingModel m;
  if (pricing != "all" && parsePricingModel(pricing, m)) opt.filters.models.push_back(m);
  if (const json* wj = r.get("weights")) {
    ObjectReader wr(*wj, "/weights", issues);
    if (wr.ok()) {
      opt.weights.unit_cost = keep(wr, R::kUnitCost, opt.weights.unit_cost);
      opt.weights.task = keep(wr, R::kTask, opt.weights.task);
      opt.weights.service = keep(wr, R::kServiceWeight, opt.weights.service);
    }
  }
  if (const json* fj = r.get("filters")) readFilters(*fj, opt.filters, issues);
  opt.horizon_hours = keep(r, R::kHorizon, opt.horizon_hours);
  opt.max_nodes = static_cast<int>(keep(r, R::kMaxNodes, opt.max_nodes));
  opt.free_trial_hours = numberOr(r, R::kFreeTrial);
  limit = static_cast<long long>(numberOr(r, R::kLimit));
}

bool readSharedEvaluations(const json& req, Issues& issues) {
  ObjectReader r(req, "", issues);
  return r.ok() && booleanOr(r, R::kSharedEvaluations);
}

}  // namespace gpuvalue
