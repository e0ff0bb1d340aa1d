#include "api/serve_request.hpp"

#include <algorithm>
#include <cmath>

#include "api/request.hpp"
#include "model/serving_fields.hpp"

namespace gpuvalue {

namespace F = serving_fields;

namespace {

// Characters two names share from their start, for the suggestion of an unknown member.
size_t sharedPrefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// The member `f` of the request when it holds something: its members checked against `record`, null otherwise.
const json* member(ObjectReader& r, const Field& f, const Record& record, Issues& issues) {
  const json* j = r.get(f.name);
  if (!j || j->is_null()) return nullptr;
  checkMembers(*j, r.childPath(f.name), record, issues);
  return j;
}

WeightFormat weightFormat(const std::string& s) {
  if (s == "fp8") return WeightFormat::kFp8;
  if (s == "int8") return WeightFormat::kInt8;
  if (s == "int4") return WeightFormat::kInt4;
  if (s == "fp4") return WeightFormat::kFp4;
  return WeightFormat::kBf16;
}

const json* presetById(const EngineState& s, const std::string& id) {
  for (const auto& p : s.serving_presets)
    if (p.is_object() && p.value("id", "") == id) return &p;
  return nullptr;
}

// The model (a preset with "model" members over it, or "model" alone) and the preset's default formats.
bool readModelPart(const EngineState& s, ObjectReader& r, ServeRequest& out, std::string& weights, std::string& kv,
                   Issues& issues) {
  json merged = json::object();
  if (auto id = readString(r, F::kPreset)) {
    const json* p = presetById(s, *id);
    if (!p) {
      r.error(F::kPreset.name, ErrorCode::kUnknownId, Message("error.unknown_serving_preset").text("id", excerpt(*id)));
      return false;
    }
    out.preset = *id;
    merged = (*p)["model"];
    weights = p->value("weights", weights);
    kv = p->value("kv", kv);
  }
  const json* mj = r.get(F::kModel.name);
  if (mj && mj->is_object()) {
    checkMembers(*mj, "/model", F::kModelRecord, issues);
    for (auto it = mj->begin(); it != mj->end(); ++it) merged[it.key()] = it.value();
  } else if (mj && !mj->is_null()) {
    r.error(F::kModel.name, ErrorCode::kInvalidValue, Message("error.not_object"));
    return false;
  }
  if (out.preset.empty() && !mj) {
    r.error(F::kModel.name, ErrorCode::kMissingField, Message("error.serving_model_required"));
    return false;
  }
  return readServingModel(merged, "/model", out.config.model, issues);
}

// True when the offer states a scale-up fabric between its GPUs (NVLink, NVSwitch, AMD's Infinity Fabric), which the
// serving model counts as NVLink-class; else its GPUs talk over PCIe.
bool scaleUpLink(const Offer& offer) {
  const std::string& ic = offer.interconnect.str();
  return ic == "nvlink" || ic == "nvswitch" || ic == "infinity-fabric";
}

// The link a replica's GPUs talk over, as a buyer names it: none for one GPU, PCIe, or the scale-up fabric the offer
// states; without an offer, Infinity Fabric on AMD GPUs and NVLink on others.
std::string fabricName(const Offer* offer, const ServingHardware& h) {
  if (h.tensor_parallel <= 1) return "none";
  if (!h.nvlink) return "pcie";
  if (offer && scaleUpLink(*offer)) return offer->interconnect.str();
  return h.gpu && h.gpu->vendor == "AMD" ? "infinity-fabric" : "nvlink";
}

// The replica's GPU and count, from "offer" or "gpu", its interconnect and fabric.
void readHardware(const EngineState& s, ObjectReader& r, ServeRequest& out) {
  ServingHardware& h = out.hardware;
  std::string link;
  if (auto id = readString(r, F::kOffer)) {
    int matches = 0;
    out.offer = findOffer(s.catalog, *id, matches);
    if (!out.offer || !out.offer->gpu) {
      r.error(F::kOffer.name, ErrorCode::kUnknownId, Message("error.unknown_instance").text("id", excerpt(*id)));
      out.offer = nullptr;
      return;
    }
    h.gpu = out.offer->gpu;
    link = scaleUpLink(*out.offer) ? "nvlink" : "pcie";
  } else if (r.has(F::kGpu.name)) {
    h.gpu = gpuField(s.gpus, r);
  } else {
    r.error(F::kGpu.name, ErrorCode::kMissingField, Message("error.serve_gpu_or_offer"));
    return;
  }
  h.tensor_parallel = integerOr(r, F::kCount, out.offer ? out.offer->gpu_count : 1);
  if (out.offer && h.tensor_parallel > out.offer->gpu_count)
    r.error(F::kCount.name, ErrorCode::kInvalidValue, Message("error.count_exceeds_instance").num("gpu_count", out.offer->gpu_count));
  if (auto given = readString(r, F::kInterconnect)) link = *given;
  h.nvlink = link.empty() ? (h.gpu && h.gpu->nvlink_gbs > 0) : link == "nvlink";
  out.fabric = fabricName(out.offer, h);
}

// The offer's price under the billing model the request names (on-demand when it names none). Naming a model the
// offer has no price for is an error at /pricing: the service is not priced under another model instead.
void readPricing(ObjectReader& r, ServeRequest& out) {
  const auto name = readString(r, F::kPricing);
  if (name) parsePricingModel(*name, out.pricing);
  if (!out.offer) return;
  out.price = out.offer->price(out.pricing);
  if (!out.price && name)
    r.error(F::kPricing.name, ErrorCode::kNotFound, Message("error.no_price").text("instance", out.offer->id).text("pricing", *name));
}

void readTraffic(ObjectReader& r, ServingTraffic& t, Issues& issues) {
  const json* tj = member(r, F::kTraffic, F::kTrafficRecord, issues);
  if (!tj) return;
  ObjectReader tr(*tj, r.childPath(F::kTraffic.name), issues);
  if (!tr.ok()) return;
  t.input_tokens = numberOr(tr, F::kInputTokens);
  t.output_tokens = numberOr(tr, F::kOutputTokens);
  t.requests_per_s = numberOr(tr, F::kRequestsPerS);
  if (auto per_day = readNumber(tr, F::kTokensPerDay)) {
    if (tr.has(F::kRequestsPerS.name)) tr.error(F::kTokensPerDay.name, ErrorCode::kInvalidValue, Message("error.traffic_rate_twice"));
    t.requests_per_s = *per_day / 86400.0 / (t.input_tokens + t.output_tokens);
  }
}

void readTargets(ObjectReader& r, ServingTargets& t, Issues& issues) {
  const json* tj = member(r, F::kTargets, F::kTargetsRecord, issues);
  if (!tj) return;
  ObjectReader tr(*tj, r.childPath(F::kTargets.name), issues);
  if (!tr.ok()) return;
  t.ttft_ms = numberOr(tr, F::kTtftMs);
  t.tpot_ms = numberOr(tr, F::kTpotMs);
  t.percentile = numberOr(tr, F::kPercentile);
}

void readServingConstants(ObjectReader& r, ServingConstants& k, Issues& issues) {
  const json* cj = member(r, F::kConstants, F::kConstantsRecord, issues);
  if (!cj) return;
  ObjectReader cr(*cj, r.childPath(F::kConstants.name), issues);
  if (!cr.ok()) return;
  for (size_t i = 0; i < F::kConstantFieldCount; ++i)
    if (auto v = readNumber(cr, *F::kConstantFields[i].field)) k.*(F::kConstantFields[i].member) = *v;
}

}  // namespace

void checkMembers(const json& j, const std::string& path, const Record& record, Issues& issues) {
  if (!j.is_object()) return;
  ObjectReader r(j, path, issues);
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (record.find(it.key())) continue;
    std::string best = record.count ? record.fields[0]->name : "";
    for (size_t i = 1; i < record.count; ++i)
      if (sharedPrefix(it.key(), record.fields[i]->name) > sharedPrefix(it.key(), best)) best = record.fields[i]->name;
    r.error(it.key(), ErrorCode::kInvalidValue, Message("error.unknown_member").text("suggestion", best));
  }
}

bool readServingModel(const json& j, const std::string& path, ServingModel& m, Issues& issues) {
  const size_t before = issues.size();
  ObjectReader r(j, path, issues);
  if (!r.ok()) return false;
  m.params = numberOr(r, F::kParams);
  m.active_params = readNumber(r, F::kActiveParams).value_or(m.params);
  m.layers = integerOr(r, F::kLayers, 0);
  m.hidden = integerOr(r, F::kHidden, 0);
  m.heads = integerOr(r, F::kHeads, 0);
  m.kv_heads = integerOr(r, F::kKvHeads, m.heads);
  m.head_dim = integerOr(r, F::kHeadDim, m.heads > 0 ? m.hidden / m.heads : 0);
  m.vocab = integerOr(r, F::kVocab, 0);
  m.experts = integerOr(r, F::kExperts, 0);
  m.experts_per_token = integerOr(r, F::kExpertsPerToken, 0);
  m.kv_latent_dim = integerOr(r, F::kKvLatentDim, 0);
  const auto new_errors = [&] {
    for (size_t i = before; i < issues.size(); ++i)
      if (!issues[i].warning) return true;
    return false;
  };
  if (new_errors()) return false;
  // Grouped-query attention shares each KV head among heads / kv_heads query heads (Ainslie et al. 2023,
  // arXiv:2305.13245).
  if (m.kv_heads > 0 && m.heads % m.kv_heads != 0)
    r.error(F::kKvHeads.name, ErrorCode::kInvalidValue, Message("error.kv_heads_divide_heads").num("heads_value", m.heads));
  // Without a head size the heads split the hidden size (head size = hidden / heads, Vaswani et al. 2017 §3.2.2);
  // a model whose heads do not divide it must give head_dim (Qwen3's 64 heads of 128 over a hidden size of 4,096).
  if (!j.contains(F::kHeadDim.name) && m.heads > 0 && m.hidden % m.heads != 0)
    r.error(F::kHeads.name, ErrorCode::kInvalidValue, Message("error.heads_divide_hidden").num("hidden_value", m.hidden));
  if (m.active_params > m.params) r.error(F::kActiveParams.name, ErrorCode::kInvalidValue, Message("error.active_exceeds_params"));
  if (m.experts > 0 && (m.experts_per_token < 1 || m.experts_per_token >= m.experts))
    r.error(F::kExpertsPerToken.name, ErrorCode::kInvalidValue, Message("error.experts_per_token").num("experts_value", m.experts));
  return !new_errors();
}

namespace {

// The formats (the preset's unless named), the software, the traffic, the targets and the constants.
void readServeSettings(ObjectReader& r, ServeRequest& out, std::string weights, std::string kv, Issues& issues) {
  if (auto w = readString(r, F::kWeights)) weights = *w;
  if (auto k = readString(r, F::kKv)) kv = *k;
  out.config.weights = weightFormat(weights);
  out.config.kv = kv == "fp8" ? KvFormat::kFp8 : KvFormat::kFp16;
  out.config.software = stringOr(r, F::kSoftware) == "typical" ? ServingStack::kTypical : ServingStack::kTuned;
  readTraffic(r, out.config.traffic, issues);
  readTargets(r, out.config.targets, issues);
  readServingConstants(r, out.constants, issues);
}

}  // namespace

bool readServeRequest(const EngineState& s, const json& req, ServeRequest& out, Issues& issues) {
  ObjectReader r(req, "", issues);
  if (!r.ok()) return false;
  checkMembers(req, "", F::kRequestRecord, issues);
  std::string weights = "bf16", kv = "fp16";
  readModelPart(s, r, out, weights, kv, issues);
  readHardware(s, r, out);
  readPricing(r, out);
  readServeSettings(r, out, weights, kv, issues);
  return !hasErrors(issues) && out.hardware.gpu;
}

bool readServeQuestion(const EngineState& s, ObjectReader& r, ServeRequest& out, Issues& issues) {
  std::string weights = "bf16", kv = "fp16";
  readModelPart(s, r, out, weights, kv, issues);
  if (auto name = readString(r, F::kPricing)) parsePricingModel(*name, out.pricing);
  readServeSettings(r, out, weights, kv, issues);
  return !hasErrors(issues);
}

void serveOnOffer(const Offer& offer, int count, ServeRequest& out) {
  ServingHardware& h = out.hardware;
  out.offer = &offer;
  h.gpu = offer.gpu;
  h.tensor_parallel = count;
  h.nvlink = scaleUpLink(offer);
  out.fabric = fabricName(&offer, h);
  out.price = offer.price(out.pricing);
}

ServingCost priceOnOffer(const ServingPlan& p, const ServeRequest& r, SpotReplacement& spot) {
  // On spot, instances are reclaimed at the price record's published rate, else the engine's default (one a
  // day: SpotOptions), and replaced in the restart time a training run assumes (SpotOptions::restart_hours).
  spot = SpotReplacement();
  if (r.pricing == PricingModel::kSpot) {
    const SpotOptions defaults;
    spot.interruptions_per_hour = interruptionsPerHour(*r.price, defaults);
    spot.replace_hours = defaults.restart_hours;
  }
  return priceServing(p, r.config, r.hardware.tensor_parallel, r.offer->gpu_count, r.price->headlineUsdPerHour(), spot);
}

}  // namespace gpuvalue
