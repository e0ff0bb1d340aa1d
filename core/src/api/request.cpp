#include "api/request.hpp"

#include <limits>

#include "io/fields.hpp"
#include "model/data_fields.hpp"

namespace gpuvalue {

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

bool resolveWorkload(const EngineState& s, const json& req, Workload& w, Issues& issues) {
  ObjectReader r(req, "", issues);
  if (!r.ok()) return false;
  bool ok = true;
  if (auto preset = r.string("preset", false)) {
    const json* found = nullptr;
    for (const auto& p : s.presets)
      if (p.value("id", "") == *preset) found = &p;
    if (!found) {
      r.error("preset", ErrorCode::kUnknownId, Message("error.unknown_preset").text("id", excerpt(*preset)));
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
  } else if (const json* wj = r.get("workload")) {
    checkWorkloadKeys(*wj, "/workload", issues);
    ok = parseWorkload(*wj, "/workload", w, issues) && !hasErrors(issues);
    if (ok) checkWorkloadShape(*wj, "/workload", w, issues);
  } else {
    r.error("workload", ErrorCode::kMissingField, Message("error.workload_required"));
    return false;
  }
  // The request's "precision" overrides the workload's, with the workload table's choices.
  if (auto p = readString(r, data_fields::kPrecision)) parsePrecision(*p, w.precision);
  return ok && !hasErrors(issues);
}

bool readConstantsField(const json& req, ModelConstants& k, Issues& issues) {
  if (req.is_object() && req.contains("constants")) return parseConstants(req["constants"], "/constants", k, issues);
  return true;
}

const GpuSpec* gpuField(const GpuDatabase& gpus, ObjectReader& r) {
  const std::string id = r.string("gpu", true).value_or("");
  const GpuSpec* g = id.empty() ? nullptr : gpus.find(id);
  if (!g && r.get("gpu") && r.get("gpu")->is_string()) r.error("gpu", ErrorCode::kUnknownId, Message("error.unknown_gpu").text("id", excerpt(id)));
  return g;
}

PricingModel pricingField(ObjectReader& r, const char* fallback, std::string& name) {
  name = r.string("pricing", false).value_or(fallback);
  PricingModel m = PricingModel::kOnDemand;
  if (!parsePricingModel(name, m)) r.error("pricing", ErrorCode::kInvalidValue, notOneOf(name, "on_demand, reserved, spot, tiered, monthly"));
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
  if (auto inst = r.string("instance", false)) {
    int matches = 0;
    h.offer = findOffer(s.catalog, *inst, matches);
    if (!h.offer || !h.offer->gpu) r.error("instance", ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(*inst)));
    else h.gpu = h.offer->gpu;
  } else {
    h.gpu = gpuField(s.gpus, r);
  }
  return h;
}

double readPue(ObjectReader& r, Assumptions& as) {
  double pue = kPueAirCooled;
  Message src("energy.src_pue_air");
  if (auto c = r.string("cooling", false)) {
    if (*c == "liquid") {
      pue = kPueLiquidCooled;
      src = Message("energy.src_pue_liquid");
    } else if (*c != "air") {
      r.error("cooling", ErrorCode::kInvalidValue, notOneOf(*c, "air, liquid"));
    }
  }
  if (auto p = r.number("pue", false, 1, false, 5)) pue = *p, src = Message("plan.src_given");
  as.add("pue", pue, src);
  return pue;
}

const GridDefaults& readGrid(ObjectReader& r) {
  if (auto g = r.string("grid", false)) {
    for (const GridDefaults& d : kGrids)
      if (*g == d.id) return d;
    r.error("grid", ErrorCode::kInvalidValue, notOneOf(*g, "world, china"));
  }
  return kGrids[0];
}

double readElectricityPrice(ObjectReader& r, const GridDefaults& grid, Assumptions& as) {
  const double usd = r.number("usd_per_kwh", false, 0, false, 10).value_or(grid.usd_per_kwh);
  as.add("usd_per_kwh", usd, Message(r.has("usd_per_kwh") ? "plan.src_given" : grid.price_source));
  return usd;
}

OfferScope offerScopeField(ObjectReader& r, const std::string& today) {
  OfferScope scope;
  scope.include_examples = r.boolean("include_examples", false).value_or(false);
  scope.include_stale = r.boolean("include_stale", false).value_or(false);
  scope.today_day = dayNumber(today);
  return scope;
}

}  // namespace gpuvalue
