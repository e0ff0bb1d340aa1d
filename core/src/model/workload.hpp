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
  double micro_batch = 1;        // sequences per GPU per micro-step
  double global_batch_tokens = 4194304;  // 4M tokens: Llama 2 (Touvron et al. 2023, §2.2) used 4M-token batches
  bool activation_checkpointing = false;
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

  // Layer count and hidden size, given or derived (GPT-3/Llama shapes keep hidden ≈ 128 × layers,
  // and N ≈ 12·layers·hidden² (Kaplan et al. 2020, eq. 2.1), so hidden = (N·128/12)^(1/3)).
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

// Reads a workload object ({"kind": "transformer", ...}); problems are reported under `path`.
bool parseWorkload(const json& j, const std::string& path, Workload& out, Issues& issues);

}  // namespace gpuvalue
