#include "api/answer.hpp"

#include <algorithm>
#include <cmath>


namespace gpuvalue {

double finiteOr(double v, double fallback) { return std::isfinite(v) ? v : fallback; }

std::string gpuLabel(int count, const GpuSpec& g) { return std::to_string(count) + "× " + g.name; }

// An issue: its error class, JSON Pointer path and explanation, a message {"code", "params"}.
void writeIssues(JsonWriter& j, const Issues& issues) {
  j.beginArray();
  for (const auto& i : issues)
    j.beginObject().field("code", errorCodeName(i.code)).field("path", i.path).field("message", i.message)
        .field("warning", i.warning).endObject();
  j.endArray();
}

void writeFirstError(JsonWriter& j, const Issues& issues) {
  for (const auto& i : issues)
    if (!i.warning) {
      j.key("error").beginObject().field("code", errorCodeName(i.code)).field("path", i.path)
          .field("message", i.message).endObject();
      return;
    }
}

std::string errorResult(const Issues& issues, bool retry_whole_text) {
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", false).key("issues");
  writeIssues(j, issues);
  if (hasErrors(issues)) writeFirstError(j, issues);
  else j.key("error").beginObject().field("code", "internal").field("path", "").field("message", Message("error.internal").text("detail", "")).endObject();
  if (retry_whole_text) j.field("retry_whole_text", true);
  j.endObject();
  return out;
}

void writeMemory(JsonWriter& j, const MemoryBreakdown& m, MemoryDetail detail) {
  j.beginObject()
      .field("weights_gb", finiteOr(m.weights_gb)).field("gradients_gb", finiteOr(m.gradients_gb))
      .field("optimizer_gb", finiteOr(m.optimizer_gb)).field("activations_gb", finiteOr(m.activations_gb));
  if (detail == MemoryDetail::kFull) j.field("overhead_gb", finiteOr(m.overhead_gb));
  j.field("required_gb_per_gpu", finiteOr(m.required_gb)).field("available_gb_per_gpu", finiteOr(m.available_gb))
      .field("fits", m.fits).field("sharding", m.sharding.label());
  if (detail == MemoryDetail::kFull)
    j.field("zero_stage", m.sharding.zero_stage).field("tensor_parallel", m.sharding.tensor_parallel)
        .field("pipeline_parallel", m.sharding.pipeline_parallel);
  j.endObject();
}

// The layers each pipeline stage reruns (each model chunk with the interleaved schedule), rounded up: what
// Megatron-LM's --recompute-num-layers takes with --recompute-method block ("the number of individual Transformer
// layers to recompute within each pipeline stage", megatron/training/arguments.py). The memory model spreads the
// whole model's recompute_layers evenly over the stages (performance.cpp activationBytes).
static int recomputeLayersPerStage(const Sharding& s) {
  const int chunks = std::max(1, s.pipeline_parallel) * std::max(1, s.virtual_stages);
  return s.recompute_layers > 0 ? (s.recompute_layers + chunks - 1) / chunks : 0;
}

void writePlan(JsonWriter& j, const MemoryBreakdown& m, const Throughput& t) {
  const Sharding& s = m.sharding;
  const char* schedule = s.pipeline_parallel <= 1 ? "none" : (s.virtual_stages > 1 ? "interleaved-1f1b" : "1f1b");
  j.beginObject()
      .field("tensor_parallel", s.tensor_parallel).field("pipeline_parallel", s.pipeline_parallel)
      .field("data_parallel", s.data_parallel).field("context_parallel", s.context_parallel)
      .field("expert_parallel", s.expert_parallel)
      .field("zero_stage", s.zero_stage).field("recompute", recomputeName(s.recompute))
      .field("recompute_layers", s.recompute_layers).field("recompute_layers_per_stage", recomputeLayersPerStage(s))
      .field("micro_batch", s.micro_batch).field("grad_accumulation", s.grad_accumulation)
      .field("schedule", schedule).field("virtual_stages", s.virtual_stages)
      .field("bubble_fraction", finiteOr(t.bubble_fraction)).field("step_time_s", finiteOr(t.step_time_s));
  j.key("exposed_comm_s").beginObject()
      .field("tensor", finiteOr(t.exposed_tp_s)).field("pipeline", finiteOr(t.exposed_pp_s))
      .field("data", finiteOr(t.exposed_dp_s)).field("context", finiteOr(t.exposed_cp_s))
      .field("expert", finiteOr(t.exposed_ep_s)).endObject();
  j.field("describe", s.describe()).endObject();
}

void writeThroughput(JsonWriter& j, const Throughput& t) {
  j.beginObject()
      .field("samples_per_s", finiteOr(t.samples_per_s)).field("tokens_per_s", finiteOr(t.tokens_per_s))
      .field("effective_tflops_per_gpu", finiteOr(t.effective_tflops_per_gpu))
      .field("single_gpu_tflops", finiteOr(t.single_gpu_tflops)).field("peak_tflops_per_gpu", finiteOr(t.peak_tflops_per_gpu))
      .field("scaling_efficiency", finiteOr(t.scaling_efficiency)).field("comm_exposed_fraction", finiteOr(t.comm_exposed_fraction))
      .field("bubble_fraction", finiteOr(t.bubble_fraction)).field("bound", t.bound)
      .field("model_tflops_per_gpu", finiteOr(t.model_tflops_per_gpu)).field("mfu", finiteOr(t.mfu))
      .endObject();
}

void writeOfferBrief(JsonWriter& j, const OfferChoice& c, const std::string& today) {
  if (!c.offer) {
    j.null();
    return;
  }
  j.beginObject()
      .field("stale", !staleWarning(*c.price, today).empty()).field("id", c.offer->id)
      .field("instance", c.offer->instance_type).field("provider", c.offer->provider).field("region", c.offer->region)
      .field("instances", c.instances).field("usd_per_hour", finiteOr(c.usd_per_hour)).field("as_of", c.price->as_of)
      .field("read_on", c.price->read_on).field("source", c.price->source)
      .endObject();
}

void writeRental(JsonWriter& j, const Offer* offer, const Price* price, const std::string& today) {
  if (!offer) {
    j.null();
    return;
  }
  j.beginObject()
      .field("id", offer->id).field("instance", offer->instance_type).field("provider", offer->provider)
      .field("gpu_count", offer->gpu_count).field("pricing", pricingModelName(price->model)).field("usd_per_hour", price->usd_per_hour)
      .field("as_of", price->as_of).field("read_on", price->read_on)
      .field("source", price->source);
  const Message stale = staleWarning(*price, today);
  if (!stale.empty()) j.field("warning", stale);
  j.endObject();
}

Assumptions::Item& Assumptions::slot(const std::string& key) {
  for (auto& i : items_)
    if (i.key == key) return i;
  items_.push_back({});
  items_.back().key = key;
  return items_.back();
}

void Assumptions::add(const std::string& key, double value, const Message& source) {
  Item& i = slot(key);
  i.is_text = false;
  i.number = value;
  i.source = source;
}

void Assumptions::add(const std::string& key, const Message& text, const Message& source) {
  Item& i = slot(key);
  i.is_text = true;
  i.text = text;
  i.source = source;
}

void Assumptions::write(JsonWriter& j) const {
  j.beginObject();
  for (const auto& i : items_) {
    j.key(i.key).beginObject().key("value");
    if (i.is_text) j.value(i.text);
    else j.value(i.number);
    j.field("source", i.source).endObject();
  }
  j.endObject();
}

}  // namespace gpuvalue
