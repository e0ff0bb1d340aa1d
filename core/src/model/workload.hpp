// What is being trained: a transformer, a CNN, or a custom FLOP count.
#pragma once
#include <algorithm>
#include <string>

#include "model/gpu_specs.hpp"
#include "io/issues.hpp"
#include "io/json_reader.hpp"

namespace gpuvalue {

enum class WorkloadKind { kTransformer, kCnn, kCustom };
enum class Mode { kPretrain, kFinetune, kLora, kInference };
enum class Optimizer { kAdamW, kAdam8bit, kSgd };
// Activation recomputation: none, selective (attention scores and softmax only, Korthikanti et al. 2022,
// arXiv:2205.05198 §5) or full (each layer's forward pass rerun in the backward pass).
enum class Recompute { kNone, kSelective, kFull };
// The software that runs the job: vendor-tuned containers / Megatron-class frameworks / MLPerf-class
// submissions, or a stock framework as most renters run it.
enum class Software { kTuned, kTypical };

struct Workload {
  std::string name;
  WorkloadKind kind = WorkloadKind::kCustom;
  Mode mode = Mode::kPretrain;
  Precision precision = Precision::kBf16;
  Optimizer optimizer = Optimizer::kAdamW;
  // Transformer.
  double params = 0;             // parameters N
  double tokens = 0;             // training (or generated, for inference) tokens D
  double seq_len = 2048;
  // Mean tokens the model computes per sequence when each batch is padded only to its longest sample (sequence
  // binning, e.g. NVIDIA LDDL's bins in DeepLearningExamples BERT phase 2; unpadded kernels); 0 = seq_len. The
  // job's sequences and tokens stay counted at seq_len; FLOPs and communication follow the computed length.
  double computed_seq_len = 0;
  // Attention kernels that write the a·s² score, softmax and dropout tensors to device memory (eager PyTorch,
  // Megatron-LM before 2022) instead of keeping them on chip (FlashAttention-class fused kernels: Dao et al. 2022,
  // arXiv:2205.14135, §3.1); their memory traffic is in the roofline's bytes per FLOP (performance.cpp singleGpu).
  bool attention_materialized = false;
  double layers = 0;             // 0 = derive from params
  double hidden = 0;             // 0 = derive from params
  double heads = 0;
  double kv_heads = 0;           // key/value heads (grouped-query attention); 0 = heads, or derived with the shape
  // Mixture of experts (0 experts = dense). Routed experts are SwiGLU FFNs of expert_ffn_hidden (three h × f
  // matrices: Mixtral, DeepSeek-V3, Qwen3-MoE); dense_layers are leading layers with a dense FFN (DeepSeek-V3: 3).
  double experts = 0;
  double experts_per_token = 0;
  double shared_experts = 0;
  double expert_ffn_hidden = 0;
  double dense_layers = 0;
  double active_params = 0;      // parameters one token passes through; 0 = derived (see activeParams)
  // Load of the busiest expert rank over the mean: dropless routing with a balancing loss stays within about
  // 1.1-1.25 of the mean (Fedus et al. 2022, "Switch Transformers", JMLR 23, arXiv:2101.03961, §2.2 and Table 1
  // train with capacity factors 1.0-1.25; Lepikhin et al. 2020, GShard, arXiv:2006.16668, §2.2). 1.1 is the
  // middle of the range for dropless routers with auxiliary-loss-free balancing (DeepSeek-V3, arXiv:2412.19437,
  // §2.1.2, Fig. 9: expert load stays near uniform).
  double capacity_factor = 1.1;
  double micro_batch = 0;        // sequences per micro-batch per replica; 0 = chosen by the plan search
  double global_batch_tokens = 0;  // tokens per optimizer step; 0 = published practice (defaultGlobalBatchTokens)
  bool activation_checkpointing = false;  // true = recompute fixed to full
  int recompute = -1;            // fixed Recompute value, -1 = chosen by the plan search
  double recompute_layers = -1;  // with full recomputation: the layers that rerun their forward; -1 = all
  Software software = Software::kTypical;
  // How much better (> 1) or worse the user's own code runs the math kernels than the model's compute efficiency,
  // solved from the user's measurement (model/calibration.hpp); 1 = uncalibrated. Not a request member.
  double compute_factor = 1.0;
  double lora_trainable_params = 0;  // 0 = counted from lora_rank, the targets and the shape (loraAdapterParams)
  double lora_rank = 16;             // data_fields kLoraRank
  double ffn_hidden = 0;             // dense FFN intermediate size; 0 = derived (effectiveFfnHidden)
  // LoRA adapters on every linear layer (true) or on the attention projections q, k, v, o only (false, the default:
  // Hu et al. 2021, arXiv:2106.09685, §4.2 and §7.1 adapt attention weights only; MLPerf Training's Llama 2 70B LoRA
  // adapts qkv_proj and o_proj: data/presets.json llama2-70b-lora).
  bool lora_all_linear = false;
  // Separate q, k and v adapters (Hugging Face PEFT) instead of one on the fused qkv projection (data_fields kLoraQkv).
  bool lora_separate_qkv = false;
  // CNN / vision.
  double gflops_per_sample = 0;  // forward GFLOPs per sample, multiply-add = 2 FLOPs
  double samples = 0;            // samples per epoch
  double epochs = 1;
  double batch_per_gpu = 256;
  double activation_gb_per_sample = 0;
  // Inference: requests × tokens per request, when given instead of tokens.
  double requests = 0;
  double tokens_per_request = 0;
  // Custom.
  double total_flops = 0;
  // Sharding (-1 / 0 = choose automatically).
  int zero_stage = -1;
  int tensor_parallel = 0;
  int pipeline_parallel = 0;
  int context_parallel = 0;
  int expert_parallel = 0;
  // True when layers, hidden and heads were inferred from params (see effectiveHidden).
  bool shapeInferred() const { return kind == WorkloadKind::kTransformer && (layers <= 0 || hidden <= 0); }
  // Attention heads, given or hidden/128 (GPT-3 and Llama heads are 128 wide: Brown et al. 2020 Table 2.1).
  double effectiveHeads() const;
  // Key/value heads: given, or the query heads (multi-head attention) when the shape is given; a derived shape
  // takes 8 (Llama 3 8B/70B/405B all use 8 KV heads: Dubey et al. 2024, arXiv:2407.21783, Table 3; Qwen2.5-72B
  // too: Qwen Team 2024, arXiv:2412.15115, Table 1), at most the query heads.
  double effectiveKvHeads() const;
  bool isMoe() const { return kind == WorkloadKind::kTransformer && experts > 1; }
  // Layers whose FFN is a routed mixture of experts.
  double moeLayers() const { return isMoe() ? std::max(0.0, effectiveLayers() - dense_layers) : 0; }
  // Parameters of all routed experts (all MoE layers): moe_layers · experts · 3 · hidden · expert_ffn_hidden, or
  // from the active count: the (experts − k) experts a token skips hold params − active of them.
  double routedExpertParams() const;
  // Parameters a token passes through: given, or params minus the routed experts it skips
  // (moe_layers · (experts − k) · 3 · hidden · expert_ffn_hidden). Dense models: params.
  double activeParams() const;
  // Global batch, tokens: given, or published practice for the mode and size (defaultGlobalBatchTokens).
  double effectiveGlobalBatchTokens() const { return global_batch_tokens > 0 ? global_batch_tokens : defaultGlobalBatchTokens(); }
  double defaultGlobalBatchTokens() const;
  // The recomputation the workload fixes, or -1.
  int fixedRecompute() const { return activation_checkpointing ? static_cast<int>(Recompute::kFull) : recompute; }
  // Tokens computed per sequence: computed_seq_len when given (at most seq_len), else seq_len.
  double computedSeqLen() const { return computed_seq_len > 0 ? std::min(computed_seq_len, seq_len) : seq_len; }
  // Share of the layers full recomputation reruns: recompute_layers / layers, or 1.
  double fullRecomputeShare() const {
    const double L = effectiveLayers();
    return recompute_layers < 0 || L <= 0 ? 1.0 : std::min(1.0, recompute_layers / L);
  }
  // FLOPs per sample under a given recomputation.
  double flopsPerSampleWith(Recompute r) const;

  // Layer count and hidden size, given or derived. Rule: GPT-3 and Llama shapes keep hidden ≈ 128 × layers
  // (Brown et al. 2020, arXiv:2005.14165, Table 2.1: 96 × 12288, 32 × 4096; Llama 3: 32 × 4096, 80 × 8192,
  // 126 × 16384) and N ≈ 12·layers·hidden² (Kaplan et al. 2020, arXiv:2001.08361, eq. 2.1), so hidden =
  // (N·128/12)^(1/3) rounded to a multiple of 1024 from 1B parameters (of 256 below), layers = N / (12·hidden²)
  // rounded, heads = hidden / 128: with hidden a multiple of 1024 the heads are a multiple of 8, so tensor
  // parallelism 2, 4 and 8 divides them as in every published family.
  double effectiveHidden() const;
  double effectiveLayers() const;
  // Total samples processed (transformer: sequences; CNN: images × epochs).
  double totalSamples() const;
  // Total tokens (transformer only).
  double totalTokens() const { return kind == WorkloadKind::kTransformer ? tokens : 0; }
  // Hardware FLOPs of the whole job, recomputation included.
  double totalFlops() const;
  // FLOPs per sample (training step incl. backward and recompute).
  double flopsPerSample() const;
  // Parameters that receive gradients and optimizer state.
  double trainableParams() const;
  // LoRA adapter parameters of rank lora_rank on the targets (see workload.cpp).
  double loraAdapterParams() const;
  // Dense FFN intermediate size: ffn_hidden, or from params and the shape (see workload.cpp).
  double effectiveFfnHidden() const;
  // The range of params a given shape (layers, hidden) allows, [low, high]; see checkShapeAgainstParams.
  void paramsRangeOfShape(double& low, double& high) const;
  // Bytes of an activation element at the chosen precision.
  double elementBytes() const;
};

const char* workloadKindName(WorkloadKind k);
const char* modeName(Mode m);
const char* optimizerName(Optimizer o);
const char* recomputeName(Recompute r);
const char* softwareName(Software s);

// Reads a workload object ({"kind": "transformer", ...}); problems are reported under `path`.
bool parseWorkload(const json& j, const std::string& path, Workload& out, Issues& issues);
// A request's workload members that the workload table does not name are errors naming the closest known
// member (presets may carry documentation members; requests may not).
void checkWorkloadKeys(const json& j, const std::string& path, Issues& issues);
// Checks across members of a parsed workload: heads divide hidden; fixed tensor-parallel degree divides the heads,
// pipeline stages do not outnumber layers, context parallel splits the sequence. `j` is the workload object read.
void checkWorkloadShape(const json& j, const std::string& path, const Workload& w, Issues& issues);
// True when params lies outside the range the given layers and hidden allow (paramsRangeOfShape).
bool shapeContradictsParams(const Workload& w);

}  // namespace gpuvalue
