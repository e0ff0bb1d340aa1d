#include "model/workload.hpp"

#include <cmath>

namespace gpuvalue {

const char* workloadKindName(WorkloadKind k) {
  switch (k) {
    case WorkloadKind::kTransformer: return "transformer";
    case WorkloadKind::kCnn: return "cnn";
    case WorkloadKind::kCustom: return "custom";
  }
  return "custom";
}

const char* modeName(Mode m) {
  switch (m) {
    case Mode::kPretrain: return "pretrain";
    case Mode::kFinetune: return "finetune";
    case Mode::kLora: return "lora";
    case Mode::kInference: return "inference";
  }
  return "pretrain";
}

const char* optimizerName(Optimizer o) {
  switch (o) {
    case Optimizer::kAdamW: return "adamw";
    case Optimizer::kAdam8bit: return "adam8bit";
    case Optimizer::kSgd: return "sgd";
  }
  return "adamw";
}

double Workload::effectiveHidden() const {
  if (hidden > 0) return hidden;
  if (layers > 0 && params > 0) return std::sqrt(params / (12.0 * layers));
  if (params <= 0) return 0;
  return std::cbrt(params * 128.0 / 12.0);
}

double Workload::effectiveLayers() const {
  if (layers > 0) return layers;
  double h = effectiveHidden();
  if (h <= 0 || params <= 0) return 0;
  return std::max(1.0, std::round(params / (12.0 * h * h)));
}

double Workload::totalSamples() const {
  switch (kind) {
    case WorkloadKind::kTransformer: return seq_len > 0 ? tokens / seq_len : 0;
    case WorkloadKind::kCnn: return samples * epochs;
    case WorkloadKind::kCustom: return 0;
  }
  return 0;
}

double Workload::trainableParams() const {
  if (mode == Mode::kInference) return 0;
  if (mode == Mode::kLora) return lora_trainable_params > 0 ? lora_trainable_params : 0.005 * params;
  return params;
}

double Workload::elementBytes() const {
  switch (precision) {
    case Precision::kFp32:
    case Precision::kTf32: return 4;
    default: return 2;  // fp16/bf16 mixed precision; fp8 training keeps bf16 activations (Transformer Engine)
  }
}

// Forward FLOPs per token of a decoder: 2N for the weight matmuls plus 4·layers·seq·hidden for the
// attention score and value products (Kaplan et al. 2020 Table 1; Narayanan et al. 2021 eq. 3).
// A training step costs 3 forward passes (backward = 2 forward); full activation recomputation adds
// one more forward (Narayanan et al. 2021 §5.1: 4 forward-equivalents). LoRA skips weight gradients
// of frozen layers: 2 forward-equivalents (+1 with recomputation) plus the adapters' own 3×.
double Workload::flopsPerSample() const {
  if (kind == WorkloadKind::kCnn) {
    double fwd = gflops_per_sample * 1e9;
    return mode == Mode::kInference ? fwd : 3.0 * fwd;
  }
  if (kind == WorkloadKind::kTransformer) {
    double fwd_per_token = 2.0 * params + 4.0 * effectiveLayers() * seq_len * effectiveHidden();
    double factor = 3.0;
    if (mode == Mode::kInference) factor = 1.0;
    else if (mode == Mode::kLora) factor = 2.0;
    if (mode != Mode::kInference && activation_checkpointing) factor += 1.0;
    double per_token = fwd_per_token * factor;
    if (mode == Mode::kLora) per_token += 6.0 * trainableParams();
    return per_token * seq_len;
  }
  return 0;
}

double Workload::totalFlops() const {
  if (kind == WorkloadKind::kCustom) return total_flops;
  return flopsPerSample() * totalSamples();
}

bool parseWorkload(const json& j, const std::string& path, Workload& w, Issues& issues) {
  size_t before = issues.size();
  ObjectReader r(j, path, issues);
  if (!r.ok()) return false;
  std::string kind = r.string("kind", true).value_or("");
  if (kind == "transformer") w.kind = WorkloadKind::kTransformer;
  else if (kind == "cnn" || kind == "vision") w.kind = WorkloadKind::kCnn;
  else if (kind == "custom") w.kind = WorkloadKind::kCustom;
  else if (!kind.empty()) r.error("kind", ErrorCode::kInvalidValue, "must be transformer, cnn or custom (got \"" + kind + "\")");
  w.name = r.string("name", false).value_or(w.name);
  if (auto m = r.string("mode", false)) {
    if (*m == "pretrain" || *m == "pretraining") w.mode = Mode::kPretrain;
    else if (*m == "finetune" || *m == "full_finetune") w.mode = Mode::kFinetune;
    else if (*m == "lora") w.mode = Mode::kLora;
    else if (*m == "inference") w.mode = Mode::kInference;
    else r.error("mode", ErrorCode::kInvalidValue, "must be pretrain, finetune, lora or inference");
  }
  if (auto p = r.string("precision", false)) {
    if (!parsePrecision(*p, w.precision) || w.precision == Precision::kInt8 || w.precision == Precision::kFp4)
      r.error("precision", ErrorCode::kInvalidValue, "must be fp32, tf32, fp16, bf16 or fp8");
  }
  if (auto o = r.string("optimizer", false)) {
    if (*o == "adamw" || *o == "adam") w.optimizer = Optimizer::kAdamW;
    else if (*o == "adam8bit") w.optimizer = Optimizer::kAdam8bit;
    else if (*o == "sgd") w.optimizer = Optimizer::kSgd;
    else r.error("optimizer", ErrorCode::kInvalidValue, "must be adamw, adam8bit or sgd");
  }
  const double kBig = 1e30;
  if (w.kind == WorkloadKind::kTransformer) {
    w.params = r.number("params", true, 0, true, 1e15).value_or(0);
    // Inference may be given as requests × tokens per request (prompt + generated) instead of tokens.
    w.requests = r.number("requests", false, 0, true, 1e15).value_or(0);
    w.tokens_per_request = r.number("tokens_per_request", false, 0, true, 1e7).value_or(0);
    const bool by_requests = w.mode == Mode::kInference && w.requests > 0 && w.tokens_per_request > 0;
    w.tokens = r.number("tokens", !by_requests, 0, true, 1e18).value_or(by_requests ? w.requests * w.tokens_per_request : 0);
    w.seq_len = r.number("seq_len", false, 1, false, 1e7).value_or(w.seq_len);
    w.layers = r.number("layers", false, 1, false, 1e5).value_or(0);
    w.hidden = r.number("hidden", false, 1, false, 1e6).value_or(0);
    w.heads = r.number("heads", false, 1, false, 1e5).value_or(0);
    w.micro_batch = r.number("micro_batch", false, 1, false, 1e6).value_or(w.micro_batch);
    w.global_batch_tokens = r.number("global_batch_tokens", false, 1, false, 1e12).value_or(w.global_batch_tokens);
    w.activation_checkpointing = r.boolean("activation_checkpointing", false).value_or(false);
    w.lora_trainable_params = r.number("lora_trainable_params", false, 0, false, 1e15).value_or(0);
  } else if (w.kind == WorkloadKind::kCnn) {
    w.gflops_per_sample = r.number("gflops_per_sample", true, 0, true, 1e9).value_or(0);
    w.samples = r.number("samples", true, 0, true, 1e15).value_or(0);
    w.epochs = r.number("epochs", false, 0, true, 1e6).value_or(1);
    w.params = r.number("params", false, 0, false, 1e13).value_or(25.6e6);
    w.batch_per_gpu = r.number("batch_per_gpu", false, 1, false, 1e6).value_or(w.batch_per_gpu);
    w.activation_gb_per_sample = r.number("activation_gb_per_sample", false, 0, false, 1e4).value_or(0);
  } else if (w.kind == WorkloadKind::kCustom) {
    w.total_flops = r.number("total_flops", true, 0, true, kBig).value_or(0);
    w.params = r.number("params", false, 0, false, 1e15).value_or(0);
  }
  if (r.has("zero_stage")) w.zero_stage = static_cast<int>(r.integer("zero_stage", false, 0, 3).value_or(-1));
  w.tensor_parallel = static_cast<int>(r.integer("tensor_parallel", false, 1, 1024).value_or(0));
  w.pipeline_parallel = static_cast<int>(r.integer("pipeline_parallel", false, 1, 1024).value_or(0));
  return !hasErrors(Issues(issues.begin() + static_cast<long>(before), issues.end()));
}

}  // namespace gpuvalue
