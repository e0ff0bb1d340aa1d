#include "model/workload.hpp"

#include <algorithm>
#include <cmath>

#include "model/data_fields.hpp"

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

const char* recomputeName(Recompute r) {
  switch (r) {
    case Recompute::kNone: return "none";
    case Recompute::kSelective: return "selective";
    case Recompute::kFull: return "full";
  }
  return "none";
}

const char* softwareName(Software s) { return s == Software::kTuned ? "tuned" : "typical"; }

double Workload::effectiveHidden() const {
  if (hidden > 0) return hidden;
  if (layers > 0 && params > 0) return std::sqrt(params / (12.0 * layers));
  if (params <= 0) return 0;
  return std::max(128.0, std::round(std::cbrt(params * 128.0 / 12.0) / 128.0) * 128.0);
}

double Workload::effectiveHeads() const {
  if (heads > 0) return heads;
  return std::max(1.0, std::round(effectiveHidden() / 128.0));
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
  int r = fixedRecompute();
  return flopsPerSampleWith(r < 0 ? Recompute::kNone : static_cast<Recompute>(r));
}

// Selective recomputation reruns only the attention score and value products: 4·layers·seq·hidden FLOPs
// per token (Korthikanti et al. 2022, arXiv:2205.05198, §5 and Table 4: 2-4 % overhead).
double Workload::flopsPerSampleWith(Recompute rc) const {
  if (kind == WorkloadKind::kCnn) {
    double fwd = gflops_per_sample * 1e9;
    return mode == Mode::kInference ? fwd : 3.0 * fwd;
  }
  if (kind == WorkloadKind::kTransformer) {
    double fwd_per_token = 2.0 * params + 4.0 * effectiveLayers() * seq_len * effectiveHidden();
    double factor = 3.0;
    if (mode == Mode::kInference) factor = 1.0;
    else if (mode == Mode::kLora) factor = 2.0;
    if (mode != Mode::kInference && rc == Recompute::kFull) factor += 1.0;
    double per_token = fwd_per_token * factor;
    if (mode != Mode::kInference && rc == Recompute::kSelective) per_token += 4.0 * effectiveLayers() * seq_len * effectiveHidden();
    if (mode == Mode::kLora) per_token += 6.0 * trainableParams();
    return per_token * seq_len;
  }
  return 0;
}

double Workload::totalFlops() const {
  if (kind == WorkloadKind::kCustom) return total_flops;
  return flopsPerSample() * totalSamples();
}

namespace {

// Levenshtein distance, for suggesting the closest known key.
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

void checkWorkloadKeys(const json& j, const std::string& path, Issues& issues) {
  ObjectReader r(j, path, issues);
  if (!r.ok()) return;
  const Record& rec = data_fields::kWorkloadRecord;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (rec.find(it.key())) continue;
    std::string best;
    size_t best_d = 1000;
    for (size_t i = 0; i < rec.count; ++i) {
      size_t d = editDistance(it.key(), rec.fields[i]->name);
      if (d < best_d) best_d = d, best = rec.fields[i]->name;
    }
    r.error(it.key(), ErrorCode::kInvalidValue, Message("error.not_workload_member").text("suggestion", best));
  }
}

namespace {

// Counts that must be whole numbers, read as integers.
double wholeNumber(ObjectReader& r, const char* key, long long max, double fallback) {
  if (!r.has(key)) return fallback;
  return static_cast<double>(r.integer(key, false, 1, max).value_or(static_cast<long long>(fallback)));
}

void parseTransformer(ObjectReader& r, Workload& w) {
  w.params = r.number("params", true, 0, true, 1e15).value_or(0);
  // Inference may be given as requests × tokens per request (prompt + generated) instead of tokens.
  w.requests = r.number("requests", false, 0, true, 1e15).value_or(0);
  w.tokens_per_request = r.number("tokens_per_request", false, 0, true, 1e7).value_or(0);
  const bool by_requests = w.mode == Mode::kInference && w.requests > 0 && w.tokens_per_request > 0;
  w.tokens = r.number("tokens", !by_requests, 0, true, 1e18).value_or(by_requests ? w.requests * w.tokens_per_request : 0);
  w.seq_len = wholeNumber(r, "seq_len", 10000000, w.seq_len);
  w.layers = wholeNumber(r, "layers", 100000, 0);
  w.hidden = wholeNumber(r, "hidden", 1000000, 0);
  w.heads = wholeNumber(r, "heads", 100000, 0);
  w.micro_batch = wholeNumber(r, "micro_batch", 1000000, 0);
  w.global_batch_tokens = r.number("global_batch_tokens", false, 1, false, 1e12).value_or(w.global_batch_tokens);
  w.activation_checkpointing = r.boolean("activation_checkpointing", false).value_or(false);
  w.lora_trainable_params = r.number("lora_trainable_params", false, 0, false, 1e15).value_or(0);
  if (auto rc = r.string("recompute", false)) {
    if (*rc == "none") w.recompute = static_cast<int>(Recompute::kNone);
    else if (*rc == "selective") w.recompute = static_cast<int>(Recompute::kSelective);
    else if (*rc == "full") w.recompute = static_cast<int>(Recompute::kFull);
    else r.error("recompute", ErrorCode::kInvalidValue, notOneOf(*rc, "none, selective, full"));
    if (w.activation_checkpointing && w.recompute >= 0 && w.recompute != static_cast<int>(Recompute::kFull))
      r.error("recompute", ErrorCode::kInvalidValue, Message("error.recompute_contradicts_checkpointing"));
  }
}

}  // namespace

// Heads split the hidden size; fixed parallel degrees must be consistent with the model shape (Megatron-LM splits
// heads over tensor-parallel ranks and layers over pipeline stages: Narayanan et al. 2021, arXiv:2104.04473,
// §2.2-2.3).
void checkWorkloadShape(const json& j, const std::string& path, const Workload& w, Issues& issues) {
  if (w.kind != WorkloadKind::kTransformer) return;
  ObjectReader r(j, path, issues);
  if (w.hidden > 0 && w.heads > 0 && std::fmod(w.hidden, w.heads) != 0)
    r.error("heads", ErrorCode::kInvalidValue, Message("error.heads_divide_hidden").num("hidden_value", w.hidden));
  const long long heads = static_cast<long long>(w.effectiveHeads());
  if (w.tensor_parallel > 1 && heads % w.tensor_parallel != 0)
    r.error("tensor_parallel", ErrorCode::kInvalidValue, Message("error.tensor_parallel_divide_heads").num("heads_value", static_cast<double>(heads)));
  const double layers = w.effectiveLayers();
  if (w.pipeline_parallel > 1 && w.pipeline_parallel > layers)
    r.error("pipeline_parallel", ErrorCode::kInvalidValue, Message("error.pipeline_exceeds_layers").num("layers_value", layers));
  if (w.context_parallel > 1 && std::fmod(w.seq_len, 2.0 * w.context_parallel) != 0)
    r.error("context_parallel", ErrorCode::kInvalidValue, Message("error.context_parallel_divide_sequence"));
}

bool parseWorkload(const json& j, const std::string& path, Workload& w, Issues& issues) {
  size_t before = issues.size();
  ObjectReader r(j, path, issues);
  if (!r.ok()) return false;
  std::string kind = r.string("kind", true).value_or("");
  if (kind == "transformer") w.kind = WorkloadKind::kTransformer;
  else if (kind == "cnn" || kind == "vision") w.kind = WorkloadKind::kCnn;
  else if (kind == "custom") w.kind = WorkloadKind::kCustom;
  else if (!kind.empty()) r.error("kind", ErrorCode::kInvalidValue, notOneOf(kind, "transformer, cnn, custom"));
  w.name = r.string("name", false).value_or(w.name);
  if (auto m = r.string("mode", false)) {
    if (*m == "pretrain" || *m == "pretraining") w.mode = Mode::kPretrain;
    else if (*m == "finetune" || *m == "full_finetune") w.mode = Mode::kFinetune;
    else if (*m == "lora") w.mode = Mode::kLora;
    else if (*m == "inference") w.mode = Mode::kInference;
    else r.error("mode", ErrorCode::kInvalidValue, notOneOf(*m, "pretrain, finetune, lora, inference"));
  }
  if (auto p = r.string("precision", false)) {
    if (!parsePrecision(*p, w.precision) || w.precision == Precision::kInt8 || w.precision == Precision::kFp4)
      r.error("precision", ErrorCode::kInvalidValue, notOneOf(*p, "fp32, tf32, fp16, bf16, fp8"));
  }
  if (auto o = r.string("optimizer", false)) {
    if (*o == "adamw" || *o == "adam") w.optimizer = Optimizer::kAdamW;
    else if (*o == "adam8bit") w.optimizer = Optimizer::kAdam8bit;
    else if (*o == "sgd") w.optimizer = Optimizer::kSgd;
    else r.error("optimizer", ErrorCode::kInvalidValue, notOneOf(*o, "adamw, adam8bit, sgd"));
  }
  if (auto sw = r.string("software", false)) {
    if (*sw == "tuned") w.software = Software::kTuned;
    else if (*sw == "typical") w.software = Software::kTypical;
    else r.error("software", ErrorCode::kInvalidValue, notOneOf(*sw, "tuned, typical"));
  }
  const double kBig = 1e30;
  if (w.kind == WorkloadKind::kTransformer) {
    parseTransformer(r, w);
  } else if (w.kind == WorkloadKind::kCnn) {
    w.gflops_per_sample = r.number("gflops_per_sample", true, 0, true, 1e9).value_or(0);
    w.samples = r.number("samples", true, 0, true, 1e15).value_or(0);
    w.epochs = r.number("epochs", false, 0, true, 1e6).value_or(1);
    w.params = r.number("params", false, 0, false, 1e13).value_or(25.6e6);
    w.batch_per_gpu = wholeNumber(r, "batch_per_gpu", 1000000, w.batch_per_gpu);
    w.activation_gb_per_sample = r.number("activation_gb_per_sample", false, 0, false, 1e4).value_or(0);
  } else if (w.kind == WorkloadKind::kCustom) {
    w.total_flops = r.number("total_flops", true, 0, true, kBig).value_or(0);
    w.params = r.number("params", false, 0, false, 1e15).value_or(0);
  }
  if (r.has("zero_stage")) w.zero_stage = static_cast<int>(r.integer("zero_stage", false, 0, 3).value_or(-1));
  w.tensor_parallel = static_cast<int>(r.integer("tensor_parallel", false, 1, 1024).value_or(0));
  w.pipeline_parallel = static_cast<int>(r.integer("pipeline_parallel", false, 1, 1024).value_or(0));
  w.context_parallel = static_cast<int>(r.integer("context_parallel", false, 1, 1024).value_or(0));
  return !hasErrors(Issues(issues.begin() + static_cast<long>(before), issues.end()));
}

}  // namespace gpuvalue
