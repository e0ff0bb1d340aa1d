// serve: what serving a language model costs and sustains on N GPUs of one type or on a catalog offer.
// {"preset"|"model", "gpu"+"count" | "offer" (+"count"), "interconnect"?, "pricing"?, "weights"?, "kv"?, "software"?,
//  "traffic"?: {requests_per_s | tokens_per_day, input_tokens, output_tokens}, "targets"?: {ttft_ms, tpot_ms,
//  percentile}, "constants"?}
#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/serve_request.hpp"

namespace gpuvalue {

namespace {

void writeServingMemory(JsonWriter& j, const ServingMemory& m) {
  j.key("memory").beginObject()
      .field("weights_gb", m.weights_gb).field("overhead_gb", m.overhead_gb).field("kv_cache_gb", m.kv_cache_gb)
      .field("free_gb", m.free_gb).field("kv_bytes_per_token", m.kv_bytes_per_token)
      .field("kv_tokens", m.kv_tokens).field("max_batch", m.max_batch).field("fits", m.fits)
      .endObject();
}

// The replica's capacity: the batch under the TPOT target, its step and throughput, and the band of the
// throughput (published / predicted percentiles, docs/accuracy.md "Serving").
void writeCapacity(JsonWriter& j, const ServingPlan& p, const ServingConstants& k) {
  j.key("capacity").beginObject()
      .field("batch", p.batch).field("output_tokens_per_s", p.output_tokens_per_s)
      .field("output_tokens_per_s_low", p.output_tokens_per_s * k.band_low)
      .field("output_tokens_per_s_high", p.output_tokens_per_s * k.band_high)
      .field("requests_per_s", p.requests_per_s).field("tpot_ms", p.step.time_s * 1000.0)
      .field("prefill_ms", p.prefill_s * 1000.0)
      .field("bound", p.step.compute_bound ? "compute" : "memory bandwidth")
      .field("step_memory_ms", p.step.memory_s * 1000.0).field("step_compute_ms", p.step.compute_s * 1000.0)
      .field("step_attention_ms", p.step.attention_s * 1000.0).field("step_allreduce_ms", p.step.comm_s * 1000.0)
      .field("load_fraction", p.load_fraction)
      .field("sustainable_requests_per_s", p.sustainable_requests_per_s)
      .field("sustainable_output_tokens_per_s", p.sustainable_output_tokens_per_s)
      .endObject();
}

void writeOperating(JsonWriter& j, const ServingPlan& p, const ServeRequest& r) {
  j.key("operating").beginObject()
      .field("requests_per_s", r.config.traffic.requests_per_s).field("replicas", p.replicas)
      .field("gpus", p.replicas * r.hardware.tensor_parallel).field("load_fraction", p.operating_load)
      .field("batch", p.operating_batch).field("ttft_ms", p.ttft_s * 1000.0).field("tpot_ms", p.tpot_s * 1000.0)
      .field("itl_median_ms", p.itl_median_s * 1000.0).field("prefill_step_share", p.prefill_step_share)
      .field("prefill_share", p.prefill_share)
      .endObject();
}

// $ per million tokens on the offer's price under the request's billing model, the instances running all month
// (a reserved price is its term's average hourly rate, a monthly one its month over 730 h); the band from the
// throughput's (a faster replica costs less).
void writeCost(JsonWriter& j, const ServingPlan& p, const ServeRequest& r, const std::string& today) {
  j.key("cost");
  if (!r.offer || !r.price) {
    j.null();
    return;
  }
  SpotReplacement spot;
  const ServingCost c = priceOnOffer(p, r, spot);
  const double rate = r.price->headlineUsdPerHour();
  j.beginObject();
  j.key("offer");
  writeRental(j, r.offer, r.price, today);
  // The billing model is the offer's "pricing"; a reserved price's term and the hourly rate of one instance.
  j.field("term_months", r.price->terms().term_months).field("usd_per_instance_hour", rate);
  j.field("replicas_per_instance", c.replicas_per_instance).field("instances", c.instances)
      .field("spare_instances", c.spare_instances).field("instance_down_share", c.instance_down_share)
      .field("interruptions_per_instance_hour", spot.interruptions_per_hour).field("replace_hours", spot.replace_hours)
      .field("usd_per_hour", c.usd_per_hour).field("monthly_usd", c.monthly_usd)
      .field("usd_per_million_output", c.usd_per_million_output)
      .field("usd_per_million_input", c.usd_per_million_input)
      .field("usd_per_million_blended", c.usd_per_million_blended)
      .field("usd_per_million_output_low", c.usd_per_million_output / r.constants.band_high)
      .field("usd_per_million_output_high", c.usd_per_million_output / r.constants.band_low)
      .endObject();
}

}  // namespace

std::string apiServe(EngineState& s, const std::string& text, const std::string&) {
  Request q(text);
  ServeRequest r;
  if (!q.ok() || !readServeRequest(s, q.doc(), r, q.issues())) return q.errorAnswer();
  const ServingPlan p = planServing(r.config, r.hardware, r.constants);
  const ServingModel& m = r.config.model;
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true);
  j.key("preset");
  if (r.preset.empty()) j.null();
  else j.value(r.preset);
  j.key("model").beginObject().field("params", m.params).field("active_params", m.active_params)
      .field("layers", m.layers).field("hidden", m.hidden).field("heads", m.heads).field("kv_heads", m.kv_heads)
      .field("head_dim", m.head_dim).field("experts", m.experts).field("experts_per_token", m.experts_per_token)
      .field("kv_latent_dim", m.kv_latent_dim).endObject();
  j.field("gpu", r.hardware.gpu->id).field("count", r.hardware.tensor_parallel)
      .field("interconnect", r.hardware.nvlink ? "nvlink" : "pcie").field("fabric", r.fabric)
      .field("weights", weightFormatName(r.config.weights)).field("kv", kvFormatName(r.config.kv))
      .field("software", r.config.software == ServingStack::kTypical ? "typical" : "tuned");
  j.key("traffic").beginObject().field("requests_per_s", r.config.traffic.requests_per_s)
      .field("input_tokens", r.config.traffic.input_tokens).field("output_tokens", r.config.traffic.output_tokens).endObject();
  j.key("targets").beginObject().field("ttft_ms", r.config.targets.ttft_ms).field("tpot_ms", r.config.targets.tpot_ms)
      .field("percentile", r.config.targets.percentile).field("ttft_met", p.ttft_met).field("tpot_met", p.tpot_met)
      .field("met", p.memory.fits && p.ttft_met && p.tpot_met).endObject();
  writeServingMemory(j, p.memory);
  if (p.memory.fits) {
    writeCapacity(j, p, r.constants);
    writeOperating(j, p, r);
    writeCost(j, p, r, s.today);
  } else {
    j.key("capacity").null().key("operating").null().key("cost").null();
  }
  j.field("hints", p.hints);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
