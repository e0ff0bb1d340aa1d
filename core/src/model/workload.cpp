#include "model/workload.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
  if (layers > 0 && params > 0) {
    // Rounded to a multiple of 128 so that the derived heads (hidden / 128) divide it.
    return std::max(128.0, std::round(std::sqrt(params / (12.0 * layers)) / 128.0) * 128.0);
  }
  if (params <= 0) return 0;
  const double step = params >= 1e9 ? 1024.0 : 256.0;
  return std::max(step, std::round(std::cbrt(params * 128.0 / 12.0) / step) * step);
}

double Workload::effectiveHeads() const {
  if (heads > 0) return heads;
  return std::max(1.0, std::round(effectiveHidden() / 128.0));
}

double Workload::effectiveKvHeads() const {
  const double q = effectiveHeads();
  if (kv_heads > 0) return std::min(kv_heads, q);
  if (heads > 0 || !shapeInferred()) return q;
  return std::min(8.0, q);
}

double Workload::routedExpertParams() const {
  if (!isMoe()) return 0;
  const double k = std::min(experts_per_token, experts);
  if (expert_ffn_hidden > 0) return moeLayers() * experts * 3.0 * effectiveHidden() * expert_ffn_hidden;
  if (active_params > 0 && experts > k) return (params - active_params) * experts / (experts - k);
  return 0;
}

double Workload::activeParams() const {
  if (!isMoe()) return params;
  if (active_params > 0) return std::min(active_params, params);
  const double k = std::min(experts_per_token, experts);
  return std::max(0.0, params - routedExpertParams() * (experts - k) / experts);
}

// Published practice when the workload states no global batch (whole sequences, at least one):
// - pre-training, by parameters: 0.5M tokens below 1B and 1M below 5B (GPT-3 125M-760M and 1.3B-2.7B: Brown et al.
//   2020, arXiv:2005.14165, Table 2.1); 4M below 100B (Llama 2 7B-70B: Touvron et al. 2023, arXiv:2307.09288,
//   §2.2); 16M from 100B (Llama 3 405B's batch after its ramp-up: Dubey et al. 2024, arXiv:2407.21783, §3.4.1;
//   DeepSeek-V3 ramps to 15,360 × 4,096 = 63M tokens: arXiv:2412.19437, §4.2);
// - full fine-tuning: 64 sequences (Llama 2-Chat SFT: batch 64 of 4,096 tokens, arXiv:2307.09288, §3.1);
// - LoRA: 8 sequences (MLPerf Training's Llama 2 70B LoRA reference: global batch 8, data/presets.json
//   llama2-70b-lora);
// - inference: one sequence (no optimizer step).
double Workload::defaultGlobalBatchTokens() const {
  const double sq = std::max(1.0, seq_len);
  double sequences = 1;
  switch (mode) {
    case Mode::kLora: sequences = 8; break;
    case Mode::kFinetune: sequences = 64; break;
    case Mode::kInference: sequences = 1; break;
    case Mode::kPretrain: {
      const double tokens_per_step = params < 1e9 ? 524288 : params < 5e9 ? 1048576 : params < 1e11 ? 4194304 : 16777216;
      sequences = std::max(1.0, std::round(tokens_per_step / sq));
      break;
    }
  }
  return sequences * sq;
}

// A layer holds attention (2-4·hidden²: 4 with multi-head attention, 2 + 2·kv/heads with grouped KV heads, up to
// ~4 with DeepSeek's multi-head latent attention) and a feed-forward block (8·hidden² for GPT-3's 4h MLP,
// 8-16·hidden² for SwiGLU MLPs of 8/3-5.3·hidden: Llama 3 8B 10.5, Qwen2.5-7B 15.9), so a dense layer holds
// 10-19·hidden² (Kaplan et al. 2020 eq. 2.1 count 12); an MoE layer holds attention plus its active experts,
// (k + shared)·3·hidden·expert_ffn_hidden. Embeddings add up to 2·256,000·hidden (untied, the largest
// vocabularies in use). params (active params for MoE) outside that range by more than 5 % contradict the shape.
void Workload::paramsRangeOfShape(double& low, double& high) const {
  const double h = effectiveHidden(), h2 = h * h, L = effectiveLayers();
  low = 0;
  high = std::numeric_limits<double>::infinity();
  if (h <= 0 || L <= 0) return;
  if (isMoe() && expert_ffn_hidden <= 0) return;
  const double moe_l = moeLayers(), dense_l = L - moe_l;
  const double experts_coef = isMoe() ? (experts_per_token + shared_experts) * 3.0 * expert_ffn_hidden / h : 0;
  low = 0.95 * (dense_l * 10.0 + moe_l * (2.0 + experts_coef)) * h2;
  high = 1.05 * ((dense_l * 19.0 + moe_l * (4.0 + experts_coef)) * h2 + 2.0 * 256000.0 * h);
}

bool shapeContradictsParams(const Workload& w) {
  if (w.kind != WorkloadKind::kTransformer || w.layers <= 0 || w.hidden <= 0 || w.params <= 0) return false;
  double low = 0, high = 0;
  w.paramsRangeOfShape(low, high);
  const double n = w.activeParams();
  return n < low || n > high;
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
  if (mode == Mode::kLora) return lora_trainable_params > 0 ? lora_trainable_params : loraAdapterParams();
  return params;
}

// A dense model's FFN: ffn_hidden, or what params leave per layer after the attention weights h·(2h + 2·kv), as a
// SwiGLU block of three h × f matrices (Llama, Qwen, Mistral); the embeddings are counted into the layers, so f is
// high by their share (Llama 2 70B: 28,939 for 28,672; Qwen2.5-7B with its 152k vocabulary: 22,500 for 18,944), and
// a GPT-style 4h MLP of two matrices reads as f = 8h/3. MoE models: the dense layers are taken as wide as the
// experts a token passes through, (k + shared)·expert_ffn_hidden (DeepSeek-V3: 9 × 2,048 = 18,432, its dense
// layers' intermediate size, arXiv:2412.19437 §4.2).
namespace {
// The width of the K and V projections each: kv_heads · hidden / heads (grouped-query attention).
double kvWidth(const Workload& w) { return w.effectiveKvHeads() * w.effectiveHidden() / w.effectiveHeads(); }

// An MoE model's expert intermediate size: expert_ffn_hidden, or from the routed parameters (routedExpertParams).
double expertFfnHidden(const Workload& w) {
  if (w.expert_ffn_hidden > 0) return w.expert_ffn_hidden;
  const double cells = w.moeLayers() * w.experts * 3.0 * w.effectiveHidden();
  return cells > 0 ? w.routedExpertParams() / cells : 0;
}
}  // namespace

double Workload::effectiveFfnHidden() const {
  if (ffn_hidden > 0) return ffn_hidden;
  const double h = effectiveHidden(), L = effectiveLayers();
  if (h <= 0 || L <= 0) return 0;
  if (isMoe()) return (experts_per_token + shared_experts) * expertFfnHidden(*this);
  const double kv = kvWidth(*this);
  return std::max(0.0, (params / L - h * (2.0 * h + 2.0 * kv)) / (3.0 * h));
}

// LoRA (Hu et al. 2021, arXiv:2106.09685, §4.1) puts beside a frozen d_in → d_out linear A (r × d_in) and B
// (d_out × r): r·(d_in + d_out) trainable parameters. Per layer, with kv = kv_heads · hidden/heads:
// - attention: the fused q, k, v projection h → h + 2·kv, r·(2h + 2·kv), and the output projection, r·2h
//   (Megatron/NeMo linear_qkv and linear_proj; MLPerf Training's Llama 2 70B LoRA reference adapts qkv_proj and
//   o_proj: 80 × 16·(8,192 + 10,240 + 16,384) = 44,564,480, data/presets.json llama2-70b-lora). Separate q, k and v
//   adapters (Hugging Face PEFT q_proj, k_proj, v_proj; lora_qkv "separate") each read the h input: r·2h more
//   per layer, r·(6h + 2·kv);
// - all_linear adds the SwiGLU FFN's gate and up (h → f) and down (f → h), 3·r·(h + f) (effectiveFfnHidden); an
//   MoE layer has them on every routed and shared expert, (experts + shared)·3·r·(h + expert_ffn_hidden).
double Workload::loraAdapterParams() const {
  const double h = effectiveHidden(), L = effectiveLayers(), r = lora_rank;
  if (h <= 0 || L <= 0) return 0;
  const double kv = kvWidth(*this);
  double total = L * r * (2.0 * h + 2.0 * kv + 2.0 * h + (lora_separate_qkv ? 2.0 * h : 0.0));
  if (!lora_all_linear) return total;
  const double moe_l = moeLayers();
  total += (L - moe_l) * 3.0 * r * (h + effectiveFfnHidden());
  if (moe_l > 0) total += moe_l * (experts + shared_experts) * 3.0 * r * (h + expertFfnHidden(*this));
  return total;
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
    // MoE: the weight matmuls a token passes through are its active parameters, the routed ones weighted by
    // nothing more (load imbalance is a time cost: see transformerStep), the router's hidden × experts matmul
    // included in params. Grouped-query attention shares K and V between heads but every query head still forms
    // its own scores and weighted values, so the 4·layers·seq·hidden term does not change with kv_heads.
    // A sequence computed at a shorter length than seq_len (computedSeqLen: sequence binning) costs its computed
    // tokens, each attending over that length.
    const double sc = computedSeqLen();
    double fwd_per_token = 2.0 * activeParams() + 4.0 * effectiveLayers() * sc * effectiveHidden();
    double factor = 3.0;
    if (mode == Mode::kInference) factor = 1.0;
    else if (mode == Mode::kLora) factor = 2.0;
    if (mode != Mode::kInference && rc == Recompute::kFull) factor += fullRecomputeShare();  // its layers' forward
    double per_token = fwd_per_token * factor;
    if (mode != Mode::kInference && rc == Recompute::kSelective) per_token += 4.0 * effectiveLayers() * sc * effectiveHidden();
    if (mode == Mode::kLora) per_token += 6.0 * trainableParams();
    return per_token * sc;
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

namespace D = data_fields;

// Mixture-of-experts members: experts and experts_per_token together, with the expert FFN size or the active
// parameter count (either gives the routed parameters; see Workload::routedExpertParams).
void parseMoe(ObjectReader& r, Workload& w) {
  w.experts = readNumber(r, D::kExperts).value_or(0);
  w.experts_per_token = readNumber(r, D::kExpertsPerToken).value_or(0);
  w.shared_experts = numberOr(r, D::kSharedExperts);
  w.expert_ffn_hidden = readNumber(r, D::kExpertFfnHidden).value_or(0);
  w.dense_layers = numberOr(r, D::kDenseLayers);
  w.active_params = readNumber(r, D::kActiveParams).value_or(0);
  w.capacity_factor = numberOr(r, D::kCapacityFactor);
}

void parseTransformer(ObjectReader& r, Workload& w) {
  w.params = readNumber(r, D::kTransformerParams).value_or(0);
  // Inference may be given as requests × tokens per request (prompt + generated) instead of tokens: tokens is
  // required unless both are.
  w.requests = readNumber(r, D::kRequests).value_or(0);
  w.tokens_per_request = readNumber(r, D::kTokensPerRequest).value_or(0);
  const bool by_requests = w.mode == Mode::kInference && w.requests > 0 && w.tokens_per_request > 0;
  w.tokens = readNumber(r, by_requests ? D::kTokens : D::kTokens.req()).value_or(by_requests ? w.requests * w.tokens_per_request : 0);
  w.seq_len = readNumber(r, D::kSeqLen).value_or(w.seq_len);
  w.computed_seq_len = readNumber(r, D::kComputedSeqLen).value_or(0);  // at most seq_len: checkWorkloadShape
  w.attention_materialized = stringOr(r, D::kAttention) == "materialized";
  w.layers = readNumber(r, D::kLayers).value_or(0);
  w.hidden = readNumber(r, D::kHidden).value_or(0);
  w.heads = readNumber(r, D::kHeads).value_or(0);
  w.kv_heads = readNumber(r, D::kKvHeads).value_or(0);
  w.micro_batch = readNumber(r, D::kMicroBatch).value_or(0);
  w.global_batch_tokens = readNumber(r, D::kGlobalBatchTokens).value_or(w.global_batch_tokens);
  parseMoe(r, w);
  w.activation_checkpointing = booleanOr(r, D::kCheckpointing);
  w.lora_trainable_params = readNumber(r, D::kLoraParams).value_or(0);
  w.lora_rank = numberOr(r, D::kLoraRank);
  w.ffn_hidden = readNumber(r, D::kFfnHidden).value_or(0);
  w.lora_all_linear = stringOr(r, D::kLoraTargets) == "all_linear";
  w.lora_separate_qkv = stringOr(r, D::kLoraQkv) == "separate";
  if (auto rc = readString(r, D::kRecompute)) {
    w.recompute = static_cast<int>(*rc == "full" ? Recompute::kFull : *rc == "selective" ? Recompute::kSelective : Recompute::kNone);
    if (w.activation_checkpointing && w.recompute != static_cast<int>(Recompute::kFull))
      r.error(D::kRecompute.name, ErrorCode::kInvalidValue, Message("error.recompute_contradicts_checkpointing"));
  }
  w.recompute_layers = readNumber(r, D::kRecomputeLayers).value_or(-1);
}

void parseCnn(ObjectReader& r, Workload& w) {
  w.gflops_per_sample = readNumber(r, D::kGflops).value_or(0);
  w.samples = readNumber(r, D::kSamples).value_or(0);
  w.epochs = numberOr(r, D::kEpochs);
  w.params = numberOr(r, D::kCnnParams);
  w.batch_per_gpu = readNumber(r, D::kBatchPerGpu).value_or(w.batch_per_gpu);
  w.activation_gb_per_sample = readNumber(r, D::kActivationGb).value_or(0);
}

// The enumerations: each spelling the table accepts to the engine's value (an unknown spelling is reported by
// readString with the table's choices).
void parseChoices(ObjectReader& r, Workload& w) {
  const std::string kind = readString(r, D::kKind).value_or("");
  if (kind == "transformer") w.kind = WorkloadKind::kTransformer;
  else if (kind == "cnn" || kind == "vision") w.kind = WorkloadKind::kCnn;
  else if (kind == "custom") w.kind = WorkloadKind::kCustom;
  w.name = readString(r, D::kWorkloadName).value_or(w.name);
  if (auto m = readString(r, D::kMode)) {
    if (*m == "pretrain" || *m == "pretraining") w.mode = Mode::kPretrain;
    else if (*m == "finetune" || *m == "full_finetune") w.mode = Mode::kFinetune;
    else if (*m == "lora") w.mode = Mode::kLora;
    else w.mode = Mode::kInference;
  }
  if (auto p = readString(r, D::kPrecision)) parsePrecision(*p, w.precision);
  if (auto o = readString(r, D::kOptimizer))
    w.optimizer = *o == "adam8bit" ? Optimizer::kAdam8bit : *o == "sgd" ? Optimizer::kSgd : Optimizer::kAdamW;
  // Without a stated stack, pre-training a transformer is taken to run on a Megatron-class framework (every
  // published LLM pre-training run in data/measurements.json does: Megatron-LM, NeMo, MosaicML, Meta's and
  // DeepSeek's own stacks), everything else on a stock framework.
  if (auto sw = readString(r, D::kSoftware)) w.software = *sw == "tuned" ? Software::kTuned : Software::kTypical;
  else if (w.kind == WorkloadKind::kTransformer && w.mode == Mode::kPretrain) w.software = Software::kTuned;
}

}  // namespace

namespace {

// An MoE workload needs its shape (the routed parameters depend on it), k ≤ experts, fewer dense layers than
// layers, active ≤ total parameters, and an expert-parallel degree that divides the experts.
void checkMoeShape(ObjectReader& r, const Workload& w) {
  if (w.experts > 0 && w.experts_per_token <= 0) r.error("experts_per_token", ErrorCode::kMissingField, Message("error.required"));
  if (w.experts <= 0 && (w.experts_per_token > 0 || w.expert_ffn_hidden > 0 || w.active_params > 0))
    r.error("experts", ErrorCode::kMissingField, Message("error.required"));
  if (w.expert_parallel > 1 && !w.isMoe())
    r.error("expert_parallel", ErrorCode::kInvalidValue, Message("error.expert_parallel_needs_experts"));
  if (!w.isMoe() || w.experts_per_token <= 0) return;
  if (w.layers <= 0 || w.hidden <= 0) r.error("experts", ErrorCode::kInvalidValue, Message("error.moe_needs_shape"));
  if (w.expert_ffn_hidden <= 0 && w.active_params <= 0) r.error("experts", ErrorCode::kInvalidValue, Message("error.moe_needs_size"));
  if (w.experts_per_token > w.experts)
    r.error("experts_per_token", ErrorCode::kInvalidValue, Message("error.experts_per_token_exceed").num("experts_value", w.experts));
  if (w.layers > 0 && w.dense_layers >= w.layers)
    r.error("dense_layers", ErrorCode::kInvalidValue, Message("error.dense_layers_exceed").num("layers_value", w.layers));
  if (w.active_params > w.params)
    r.error("active_params", ErrorCode::kInvalidValue, Message("error.active_exceeds_params"));
  if (w.expert_parallel > 1 && std::fmod(w.experts, w.expert_parallel) != 0)
    r.error("expert_parallel", ErrorCode::kInvalidValue, Message("error.expert_parallel_divide_experts").num("experts_value", w.experts));
  if (w.expert_ffn_hidden > 0 && w.layers > 0 && w.hidden > 0 && w.routedExpertParams() >= w.params)
    r.error("expert_ffn_hidden", ErrorCode::kInvalidValue, Message("error.experts_exceed_params"));
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
  if (w.computed_seq_len > w.seq_len)
    r.error("computed_seq_len", ErrorCode::kInvalidValue, Message("error.computed_seq_len_exceeds").num("seq_len_value", w.seq_len));
  const double layers = w.effectiveLayers();
  if (w.pipeline_parallel > 1 && w.pipeline_parallel > layers)
    r.error("pipeline_parallel", ErrorCode::kInvalidValue, Message("error.pipeline_exceeds_layers").num("layers_value", layers));
  if (w.context_parallel > 1 && std::fmod(w.seq_len, 2.0 * w.context_parallel) != 0)
    r.error("context_parallel", ErrorCode::kInvalidValue, Message("error.context_parallel_divide_sequence"));
  // Grouped-query attention: each KV head serves heads / kv_heads query heads (Ainslie et al. 2023, arXiv:2305.13245).
  if (w.kv_heads > 0 && (w.kv_heads > heads || std::fmod(static_cast<double>(heads), w.kv_heads) != 0))
    r.error("kv_heads", ErrorCode::kInvalidValue, Message("error.kv_heads_divide_heads").num("heads_value", static_cast<double>(heads)));
  // Partial recomputation (Megatron-Core --recompute-num-layers; NeMo's activations_checkpoint_num_layers): only with
  // full recomputation, at most the layers.
  if (w.recompute_layers >= 0 && w.fixedRecompute() != static_cast<int>(Recompute::kFull))
    r.error("recompute_layers", ErrorCode::kInvalidValue, Message("error.recompute_layers_needs_full"));
  else if (w.recompute_layers > layers)
    r.error("recompute_layers", ErrorCode::kInvalidValue, Message("error.recompute_layers_exceed_layers").num("layers_value", layers));
  checkMoeShape(r, w);
}

bool parseWorkload(const json& j, const std::string& path, Workload& w, Issues& issues) {
  size_t before = issues.size();
  ObjectReader r(j, path, issues);
  if (!r.ok()) return false;
  parseChoices(r, w);
  if (w.kind == WorkloadKind::kTransformer) {
    parseTransformer(r, w);
  } else if (w.kind == WorkloadKind::kCnn) {
    parseCnn(r, w);
  } else if (w.kind == WorkloadKind::kCustom) {
    w.total_flops = readNumber(r, D::kTotalFlops).value_or(0);
    w.params = readNumber(r, D::kCustomParams).value_or(0);
  }
  w.zero_stage = integerOr(r, D::kZeroStage, w.zero_stage);
  w.tensor_parallel = integerOr(r, D::kTensorParallel, 0);
  w.pipeline_parallel = integerOr(r, D::kPipelineParallel, 0);
  w.context_parallel = integerOr(r, D::kContextParallel, 0);
  w.expert_parallel = integerOr(r, D::kExpertParallel, 0);
  return !hasErrors(Issues(issues.begin() + static_cast<long>(before), issues.end()));
}
}  // namespace gpuvalue
