#include "api/request.hpp"

#include <limits>

#include "api/request_tables.hpp"
#include "io/fields.hpp"
#include "io/request_fields.hpp"

namespace gpuvalue {

namespace T = request_tables;

bool readRequest(const std::string& text, json& req, Issues& issues) {
  return parseJsonText(text, req, issues, "request", kMaxRequestBytes);
}

// A text that is not JSON is read as an empty object: its one problem is the syntax error, and ok() is false.
static const json& emptyObject() {
  static const json empty = json::object();
  return empty;
}

Request::Request(const std::string& text) : RequestText(text), ObjectReader(parsed ? RequestText::doc : emptyObject(), "", RequestText::issues) {}

bool readWorkloadRequest(const EngineState& s, Request& r, Workload& w, ModelConstants& k) {
  if (!r.ok() || !resolveWorkload(s, r.doc(), w, r.issues())) return false;
  readConstantsField(r.doc(), k, r.issues());
  return true;
}

bool resolveWorkload(const EngineState& s, const json& req, Workload& w, Issues& issues, json* document) {
  ObjectReader r(req, "", issues);
  if (!r.ok()) return false;
  bool ok = true;
  if (auto preset = readString(r, T::kPreset)) {
    const json* found = nullptr;
    for (const auto& p : s.presets)
      if (p.value("id", "") == *preset) found = &p;
    if (!found) {
      r.error(T::kPreset.name, ErrorCode::kUnknownId, Message("error.unknown_preset").text("id", excerpt(*preset)));
      return false;
    }
    json merged = (*found)["workload"];
    // Workload fields given beside a preset override it.
    if (const json* wj = r.get("workload"))
      if (wj->is_object()) {
        checkWorkloadKeys(*wj, "/workload", issues);
        for (auto it = wj->begin(); it != wj->end(); ++it) merged[it.key()] = it.value();
      }
    ok = parseWorkload(merged, "/workload", w, issues) && !hasErrors(issues);
    if (ok) checkWorkloadShape(merged, "/workload", w, issues);
    if (w.name.empty()) w.name = *preset;
    if (document) *document = merged;
  } else if (const json* wj = r.get("workload")) {
    checkWorkloadKeys(*wj, "/workload", issues);
    ok = parseWorkload(*wj, "/workload", w, issues) && !hasErrors(issues);
    if (ok) checkWorkloadShape(*wj, "/workload", w, issues);
    if (document) *document = *wj;
  } else {
    r.error("workload", ErrorCode::kMissingField, Message("error.workload_required"));
    return false;
  }
  // The request's "precision" overrides the workload's, with the workload table's choices.
  if (auto p = readString(r, T::kPrecision)) {
    parsePrecision(*p, w.precision);
    if (document) (*document)["precision"] = *p;
  }
  return ok && !hasErrors(issues);
}

bool readConstantsField(const json& req, ModelConstants& k, Issues& issues) {
  if (req.is_object() && req.contains("constants")) return parseConstants(req["constants"], "/constants", k, issues);
  return true;
}

const GpuSpec* gpuField(const GpuDatabase& gpus, ObjectReader& r) {
  // Required where it is read: the callers read it when no instance or offer names the hardware.
  const std::string id = readString(r, T::kGpu.req()).value_or("");
  const GpuSpec* g = id.empty() ? nullptr : gpus.find(id);
  if (!g && r.get(T::kGpu.name) && r.get(T::kGpu.name)->is_string())
    r.error(T::kGpu.name, ErrorCode::kUnknownId, Message("error.unknown_gpu").text("id", excerpt(id)));
  return g;
}

PricingModel pricingField(ObjectReader& r, std::string& name) {
  name = stringOr(r, T::kPricing);
  PricingModel m = PricingModel::kOnDemand;
  parsePricingModel(name, m);  // the table's choices are the billing models
  return m;
}

namespace {
// The hourly rate a region is chosen by: its on-demand price, else its first price's headline rate.
double regionRate(const Offer& o) {
  const Price* p = o.price(PricingModel::kOnDemand);
  if (!p && !o.prices.empty()) p = &o.prices.front();
  return p ? p->headlineUsdPerHour() : std::numeric_limits<double>::infinity();
}
}  // namespace

const Offer* findOffer(const Catalog& catalog, const std::string& id, int& matches) {
  const Offer* found = nullptr;
  matches = 0;
  for (const auto& o : catalog.offers) {
    if (o.id == id) {
      matches = 1;
      return &o;
    }
    if (o.instance_type == id) {
      if (!found || regionRate(o) < regionRate(*found)) found = &o;
      ++matches;
    }
  }
  return found;
}

GpuOrInstance gpuOrInstance(const EngineState& s, ObjectReader& r) {
  GpuOrInstance h;
  if (auto inst = readString(r, T::kInstance)) {
    int matches = 0;
    h.offer = findOffer(s.catalog, *inst, matches);
    if (!h.offer || !h.offer->gpu) r.error(T::kInstance.name, ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(*inst)));
    else h.gpu = h.offer->gpu;
  } else {
    h.gpu = gpuField(s.gpus, r);
  }
  return h;
}

double readPue(ObjectReader& r, Assumptions& as) {
  double pue = kPueAirCooled;
  Message src("energy.src_pue_air");
  if (readString(r, T::kCooling).value_or("air") == "liquid") {
    pue = kPueLiquidCooled;
    src = Message("energy.src_pue_liquid");
  }
  if (auto p = readNumber(r, T::kPue)) pue = *p, src = Message("plan.src_given");
  as.add("pue", pue, src);
  return pue;
}

const GridDefaults& readGrid(ObjectReader& r) {
  // The table's choices are the ids of kGrids (tests/cpp/test_request_fields.cpp).
  if (auto g = readString(r, T::kGrid))
    for (const GridDefaults& d : kGrids)
      if (*g == d.id) return d;
  return kGrids[0];
}

double readElectricityPrice(ObjectReader& r, const GridDefaults& grid, Assumptions& as) {
  const double usd = readNumber(r, T::kUsdPerKwh).value_or(grid.usd_per_kwh);
  as.add(T::kUsdPerKwh.name, usd, Message(r.has(T::kUsdPerKwh.name) ? "plan.src_given" : grid.price_source));
  return usd;
}

OfferScope offerScopeField(ObjectReader& r, const std::string& today) {
  OfferScope scope;
  scope.include_examples = booleanOr(r, request_fields::kIncludeExamples);
  scope.include_stale = booleanOr(r, request_fields::kIncludeStale);
  scope.today_day = dayNumber(today);
  return scope;
}

}  // namespace gpuvalue
