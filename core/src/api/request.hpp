// Readers shared by the API methods' requests: the request object itself, the workload (preset or inline),
// the "constants" and "spot" objects, a GPU field, a billing-model field, and offers named by id or instance
// type. Every problem is reported with its JSON Pointer path.
#pragma once
#include <string>

#include "api/answer.hpp"
#include "api/state.hpp"
#include "io/json_reader.hpp"
#include "io/limits.hpp"
#include "model/performance.hpp"
#include "model/pricing.hpp"
#include "model/workload.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {

// Parses a request's text (reported as "request").
bool readRequest(const std::string& text, json& req, Issues& issues);

// The parsed text of a request, held before the reader of its members is built (a base of Request).
struct RequestText {
  explicit RequestText(const std::string& text) : parsed(readRequest(text, doc, issues)) {}
  Issues issues;
  json doc;
  bool parsed;
};

// A request being read: its text parsed (reported as "request"), the reader of its members (path "") and the
// problems found so far. Every method that takes a request object starts
//   Request r(text);
//   if (!r.ok()) return r.errorAnswer();
class Request : private RequestText, public ObjectReader {
 public:
  explicit Request(const std::string& text);
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  // The text is a JSON object (else errorAnswer() says why).
  bool ok() const { return parsed && ObjectReader::ok(); }
  const json& doc() const { return RequestText::doc; }
  Issues& issues() { return RequestText::issues; }
  // Some problem found so far is an error (not a warning).
  bool failed() const { return hasErrors(RequestText::issues); }
  // The error answer for the problems found so far.
  std::string errorAnswer() const { return errorResult(RequestText::issues); }
};

// A request about a workload: its workload resolved and its "constants" read (false when the request is not an
// object or the workload is wrong; a constants problem is left in the request's issues).
bool readWorkloadRequest(const EngineState& s, Request& r, Workload& w, ModelConstants& k);
// The request's workload: "preset" (with "workload" fields overriding it) or "workload", then "precision".
// `document`, when given, gets the workload document read (the preset's with the overrides and the precision).
bool resolveWorkload(const EngineState& s, const json& req, Workload& w, Issues& issues, json* document = nullptr);
// The optional "constants" (model constants), problems under /constants. ("spot" is read by readSpotOptions,
// io/request_fields.hpp.)
bool readConstantsField(const json& req, ModelConstants& k, Issues& issues);
// The GPU a required "gpu" member names (id or alias), or nullptr: the reader reports a missing or mistyped
// member, this an unknown or empty id.
const GpuSpec* gpuField(const GpuDatabase& gpus, ObjectReader& r);
// The optional "pricing" member (on-demand when absent) as a billing model; `name` gets the text as given.
PricingModel pricingField(ObjectReader& r, std::string& name);
// The optional "include_examples" and "include_stale" members (false when absent): which catalog prices a decision
// tool may pick, judged on `today`.
OfferScope offerScopeField(ObjectReader& r, const std::string& today);
// Offer by id, or by instance type: when several regions sell the type, the one with the lowest on-demand rate
// (else first price; ties in catalog order). `matches` counts instance-type matches.
const Offer* findOffer(const Catalog& catalog, const std::string& id_or_type, int& matches);
// The hardware of energy and tco: an "instance" of the catalog (its GPU) or a "gpu"; null members on failure.
struct GpuOrInstance {
  const GpuSpec* gpu = nullptr;
  const Offer* offer = nullptr;
};
GpuOrInstance gpuOrInstance(const EngineState& s, ObjectReader& r);
// The data-centre PUE of energy and tco: "pue" as given, else by "cooling" (air: the industry average; liquid),
// recorded with its source under "pue".
double readPue(ObjectReader& r, Assumptions& as);
// The site's grid (`grid`: "world", the default, or "china") whose price and CO2 intensity stand in for the ones a
// request leaves out.
const GridDefaults& readGrid(ObjectReader& r);
// `usd_per_kwh`, or the grid's price, recorded with its source.
double readElectricityPrice(ObjectReader& r, const GridDefaults& grid, Assumptions& as);

}  // namespace gpuvalue
