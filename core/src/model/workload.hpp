// What is being trained: a transformer, a CNN, or a custom FLOP count.
#pragma once
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
  double layers = 0;             // 0 = derive from params
  double hidden = 0;             // 0 = derive from params
  double heads = 0;
  double micro_batch = 0;        // sequences per micro-batch per replica; 0 = chosen by the plan search
  double global_batch_tokens = 4194304;  // 4M tokens: Llama 2 (Touvron et al. 2023, §2.2) used 4M-token batches
  bool activation_checkpointing = false;  // true = recompute fixed to full
  int recompute = -1;            // fixed Recompute value, -1 = chosen by the plan search
  Software software = Software::kTypical;
  double lora_trainable_params = 0;  // 0 = 0.5% of params (LoRA r=16 on attention+MLP of a 70B model is ~0.5%)
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
  // True when layers, hidden and heads were inferred from params (see effectiveHidden).
  bool shapeInferred() const { return kind == WorkloadKind::kTransformer && (layers <= 0 || hidden <= 0); }
  // Attention heads, given or hidden/128 (GPT-3 and Llama heads are 128 wide: Brown et al. 2020 Table 2.1).
  double effectiveHeads() const;
  // The recomputation the workload fixes, or -1.
  int fixedRecompute() const { return activation_checkpointing ? static_cast<int>(Recompute::kFull) : recompute; }
  // FLOPs per sample under a given recomputation.
  double flopsPerSampleWith(Recompute r) const;

  // Layer count and hidden size, given or derived. Rule: GPT-3 shapes keep hidden ≈ 128 × layers (Brown et al.
  // 2020, arXiv:2005.14165, Table 2.1: 96 layers × 12288, 40 × 5140, 32 × 4096) and N ≈ 12·layers·hidden²
  // (Kaplan et al. 2020, arXiv:2001.08361, eq. 2.1), so hidden = (N·128/12)^(1/3) rounded to a multiple of 128,
  // layers = N / (12·hidden²) rounded, heads = hidden / 128.
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

}  // namespace gpuvalue
