// Readers of serving: the served model (a preset, a "model" object or both), the serve request's hardware, formats,
// traffic, targets and constants, every member read through the field tables of model/serving_fields.hpp and
// every problem reported with its JSON Pointer path.
#pragma once
#include <string>

#include "api/state.hpp"
#include "io/fields.hpp"
#include "io/json_reader.hpp"
#include "model/serving.hpp"

namespace gpuvalue {

// Reports members of `j` (at `path`) that `record` does not name, with the nearest name as a suggestion.
void checkMembers(const json& j, const std::string& path, const Record& record, Issues& issues);
// A served model's shape from an object of kModelRecord's members, checked for consistency (KV heads divide the
// heads, active ≤ total parameters, experts per token below experts); false when anything is wrong.
bool readServingModel(const json& j, const std::string& path, ServingModel& m, Issues& issues);

// A serve request read: the configuration, the replica's hardware and the offer it is priced on (or none).
struct ServeRequest {
  std::string preset;
  ServingConfig config;
  ServingHardware hardware;
  ServingConstants constants;
  const Offer* offer = nullptr;
  // The billing model the offer is priced under ("pricing"; on-demand when absent) and the offer's price under it,
  // or null when it has none (an error when the request named the model).
  PricingModel pricing = PricingModel::kOnDemand;
  const Price* price = nullptr;
  // The link a replica's GPUs talk over, as a buyer names it: none (one GPU), pcie, or the scale-up fabric the
  // offer states (nvlink, nvswitch, infinity-fabric); without an offer, infinity-fabric on AMD GPUs, else nvlink.
  std::string fabric;
};
// False when the request has errors (in `issues`).
bool readServeRequest(const EngineState& s, const json& req, ServeRequest& out, Issues& issues);
// The question that serveOffers asks of many offers: a serve request's members but the hardware (model, formats,
// software, billing model, traffic, targets, constants); false when they have errors.
bool readServeQuestion(const EngineState& s, ObjectReader& r, ServeRequest& out, Issues& issues);
// `out` on one offer (which has a GPU) at `count` of its GPUs per replica: the hardware as serve reads it from an
// offer, and the offer's price under out.pricing (null when it has none).
void serveOnOffer(const Offer& offer, int count, ServeRequest& out);
// The service of plan `p` priced on the request's offer (which has a price) under its billing model: instances,
// spares, $ per hour and per million tokens. `spot` gets the reclaim model it assumed (zero when not on spot).
ServingCost priceOnOffer(const ServingPlan& p, const ServeRequest& r, SpotReplacement& spot);

}  // namespace gpuvalue
