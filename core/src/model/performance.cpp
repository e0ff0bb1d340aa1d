#include "model/performance.hpp"

#include "model/parallel_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuvalue {

namespace {

struct ConstantField {
  const char* name;
  double ModelConstants::*member;
  double min, max;
};

const ConstantField kConstantFields[] = {
    {"compute_eff_transformer", &ModelConstants::compute_eff_transformer, 0.01, 1},
    {"compute_eff_cnn", &ModelConstants::compute_eff_cnn, 0.01, 1},
    {"compute_eff_custom", &ModelConstants::compute_eff_custom, 0.01, 1},
    {"bytes_per_flop_transformer", &ModelConstants::bytes_per_flop_transformer, 0, 10},
    {"bytes_per_flop_cnn", &ModelConstants::bytes_per_flop_cnn, 0, 10},
    {"bytes_per_flop_custom", &ModelConstants::bytes_per_flop_custom, 0, 10},
    {"fp32_eff_factor", &ModelConstants::fp32_eff_factor, 0.01, 1},
    {"arch_volta", &ModelConstants::arch_volta, 0.01, 2},
    {"arch_turing", &ModelConstants::arch_turing, 0.01, 2},
    {"arch_ampere", &ModelConstants::arch_ampere, 0.01, 2},
    {"arch_ampere_gddr", &ModelConstants::arch_ampere_gddr, 0.01, 2},
    {"arch_ada", &ModelConstants::arch_ada, 0.01, 2},
    {"arch_hopper", &ModelConstants::arch_hopper, 0.01, 2},
    {"arch_blackwell", &ModelConstants::arch_blackwell, 0.01, 2},
    {"arch_cdna2", &ModelConstants::arch_cdna2, 0.01, 2},
    {"arch_cdna3", &ModelConstants::arch_cdna3, 0.01, 2},
    {"fp8_eff_factor", &ModelConstants::fp8_eff_factor, 0.01, 1},
    {"dp_overlap", &ModelConstants::dp_overlap, 0, 1},
    {"nvlink_eff", &ModelConstants::nvlink_eff, 0.01, 1},
    {"pcie_eff", &ModelConstants::pcie_eff, 0.01, 1},
    {"rdma_eff", &ModelConstants::rdma_eff, 0.01, 1},
    {"tcp_eff", &ModelConstants::tcp_eff, 0.01, 1},
    {"tp_exposed", &ModelConstants::tp_exposed, 0, 1},
    {"overhead_gb", &ModelConstants::overhead_gb, 0, 100},
    {"usable_fraction", &ModelConstants::usable_fraction, 0.1, 1},
    {"band_low", &ModelConstants::band_low, 0.1, 1},
    {"band_high", &ModelConstants::band_high, 1, 10},
    {"calib_measured_low", &ModelConstants::calib_measured_low, 0.1, 1},
    {"calib_measured_high", &ModelConstants::calib_measured_high, 1, 10},
    {"calib_same_gpu_low", &ModelConstants::calib_same_gpu_low, 0.1, 1},
    {"calib_same_gpu_high", &ModelConstants::calib_same_gpu_high, 1, 10},
    {"calib_same_arch_low", &ModelConstants::calib_same_arch_low, 0.1, 1},
    {"calib_same_arch_high", &ModelConstants::calib_same_arch_high, 1, 10},
    {"calib_other_arch_low", &ModelConstants::calib_other_arch_low, 0.1, 1},
    {"calib_other_arch_high", &ModelConstants::calib_other_arch_high, 1, 10},
    {"software_typical_factor", &ModelConstants::software_typical_factor, 0.1, 1},
    {"pp_exposed", &ModelConstants::pp_exposed, 0, 1},
    {"ep_exposed", &ModelConstants::ep_exposed, 0, 1},
};

double archFactor(const GpuSpec& g, const ModelConstants& k) {
  const std::string& a = g.architecture;
  bool gddr = g.memory_type.find("GDDR") != std::string::npos;
  // Kepler, Maxwell and Pascal have no training measurements in the set either: like Turing they take Volta's
  // factor, the oldest fitted NVIDIA one; GCN 5 (Vega), CDNA's predecessor, takes CDNA2's.
  if (a == "volta" || a == "pascal" || a == "maxwell" || a == "kepler") return k.arch_volta;
  if (a == "gcn5") return k.arch_cdna2;
  if (a == "turing") return k.arch_turing;
  if (a == "ampere") return gddr ? k.arch_ampere_gddr : k.arch_ampere;
  if (a == "ada") return k.arch_ada;
  if (a == "hopper") return k.arch_hopper;
  if (a == "blackwell") return k.arch_blackwell;
  if (a == "cdna2") return k.arch_cdna2;
  if (a == "cdna3") return k.arch_cdna3;
  return 1.0;
}

// PCIe x16 per-direction bandwidth in GB/s: 3.0 → 15.75, 4.0 → 31.5, 5.0 → 63 (PCI-SIG specifications).
double pcieGBs(int gen) {
  switch (gen) {
    case 3: return 15.75;
    case 4: return 31.5;
    case 5: return 63.0;
    case 6: return 126.0;
    default: return 15.75;
  }
}

// Per-GPU bandwidth (GB/s, one direction) available to collective operations inside a node.
double intraNodeGBs(const Cluster& c, const ModelConstants& k) {
  const GpuSpec& g = *c.gpu;
  if (c.gpus_per_node <= 1) return std::numeric_limits<double>::infinity();
  if ((c.interconnect == "nvswitch" || c.interconnect == "nvlink" || c.interconnect == "infinity-fabric") && g.nvlink_gbs > 0)
    return g.nvlink_gbs / 2.0 * k.nvlink_eff;
  return pcieGBs(g.pcie_gen) * k.pcie_eff;
}

// Per-GPU bandwidth (GB/s) across nodes: the node's network shared by its GPUs.
double interNodeGBs(const Cluster& c, const ModelConstants& k) {
  if (c.nodes <= 1) return std::numeric_limits<double>::infinity();
  double gbs = c.network_gbps / 8.0 * (c.rdma ? k.rdma_eff : k.tcp_eff);
  return std::max(gbs, 0.01) / std::max(1, c.gpus_per_node);
}

// Bytes per frozen base weight of a LoRA run: the training format's. FP8 LoRA runs are taken to keep the frozen
// weights in FP8 alone: Transformer Engine modules built under fp8_model_init "hold only FP8 copies of [their]
// parameters" instead of a higher-precision and an FP8 copy, meant among others for "LoRA-like fine-tuning, where
// the main parameters of the model do not change" (github.com/NVIDIA/TransformerEngine@0004dbd0231cb02d7b47d45344900a494fa13f46
// transformer_engine/pytorch/fp8.py, fp8_model_init); NeMo's fp8_params switches it on, as MLPerf Training v5.0's
// NVIDIA-based Llama 2 70B LoRA submissions do (data/measurements.json mlperf50-llama2-70b-lora-dell-h200-sxm-141gb-x8-fp8).
// 16-bit runs keep 2 bytes, fp32/tf32 runs 4.
double frozenWeightBytes(Precision p) {
  if (p == Precision::kFp8) return 1;
  return (p == Precision::kFp32 || p == Precision::kTf32) ? 4 : 2;
}

double optimizerBytes(Optimizer o, bool mixed) {
  // ZeRO paper (Rajbhandari et al. 2020) §3.1: mixed-precision Adam keeps fp32 master weights, momentum and
  // variance = 12 bytes/param; 8-bit Adam (Dettmers et al. 2021) stores the two moments in 1 byte each;
  // SGD with momentum keeps one fp32 state. Pure fp32 training has no separate master copy.
  switch (o) {
    case Optimizer::kAdamW: return mixed ? 12 : 8;
    case Optimizer::kAdam8bit: return mixed ? 6 : 2;
    case Optimizer::kSgd: return mixed ? 8 : 4;
  }
  return 12;
}

}  // namespace

Cluster defaultCluster(const GpuSpec& g, int gpu_count) {
  Cluster c;
  c.gpu = &g;
  gpu_count = std::max(1, gpu_count);
  c.gpus_per_node = std::min(gpu_count, 8);
  c.nodes = (gpu_count + c.gpus_per_node - 1) / c.gpus_per_node;
  // Same defaults as the estimate method (api/estimate.cpp): SXM parts sit on NVSwitch/NVLink boards, PCIe parts on PCIe; one
  // RDMA NIC per GPU across nodes (defaultNetworkGbpsPerGpu).
  const bool sxm = g.nvlink_gbs > 0 && g.form_factor.find("PCIe") == std::string::npos;
  c.interconnect = c.gpus_per_node > 1 ? (sxm ? "nvswitch" : "pcie") : "none";
  c.network_gbps = defaultNetworkGbpsPerGpu(g) * c.gpus_per_node;
  c.rdma = true;
  return c;
}

bool parseConstants(const json& j, const std::string& path, ModelConstants& c, Issues& issues) {
  size_t before = issues.size();
  ObjectReader r(j, path, issues);
  if (!r.ok()) return false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const auto& f : kConstantFields)
      if (it.key() == f.name) {
        known = true;
        if (auto v = r.number(f.name, false, f.min, false, f.max)) c.*(f.member) = *v;
      }
    if (!known) r.error(it.key(), ErrorCode::kInvalidValue, Message("error.not_model_constant"));
  }
  return issues.size() == before;
}

json constantsToJson(const ModelConstants& c) {
  json j = json::object();
  for (const auto& f : kConstantFields) j[f.name] = c.*(f.member);
  return j;
}

std::string Sharding::describe() const {
  std::string s;
  auto add = [&](const std::string& sep, const std::string& part) { s += (s.empty() ? "" : sep) + part; };
  if (tensor_parallel > 1) add(" × ", "TP" + std::to_string(tensor_parallel));
  if (pipeline_parallel > 1) add(" × ", "PP" + std::to_string(pipeline_parallel) + (virtual_stages > 1 ? " (interleaved ×" + std::to_string(virtual_stages) + ")" : ""));
  if (context_parallel > 1) add(" × ", "CP" + std::to_string(context_parallel));
  if (expert_parallel > 1) add(" × ", "EP" + std::to_string(expert_parallel));
  if (zero_stage > 0) add(" + ", "ZeRO-" + std::to_string(zero_stage));
  if (recompute != Recompute::kNone) add(" + ", std::string(recomputeName(recompute)) + " recompute");
  return s.empty() ? "data parallel (no sharding)" : s;
}

std::string Sharding::label() const {
  std::string s;
  auto add = [&](const std::string& sep, const std::string& part) { s += (s.empty() ? "" : sep) + part; };
  if (tensor_parallel > 1) add(" × ", "TP" + std::to_string(tensor_parallel));
  if (pipeline_parallel > 1) add(" × ", "PP" + std::to_string(pipeline_parallel) + (virtual_stages > 1 ? "/v" + std::to_string(virtual_stages) : ""));
  if (context_parallel > 1) add(" × ", "CP" + std::to_string(context_parallel));
  if (expert_parallel > 1) add(" × ", "EP" + std::to_string(expert_parallel));
  if (zero_stage > 0) add(" + ", "ZeRO-" + std::to_string(zero_stage));
  return s;
}

double defaultNetworkGbpsPerGpu(const GpuSpec& g) {
  const bool sxm = g.nvlink_gbs > 0 && g.form_factor.find("PCIe") == std::string::npos;
  return sxm && (g.architecture == "hopper" || g.architecture == "blackwell") ? 400.0 : 200.0;
}

Precision trainingPrecision(const Workload& w, const GpuSpec& g) {
  Precision p = w.precision;
  if (p == Precision::kFp8 && g.peak(Precision::kFp8) <= 0) p = Precision::kBf16;
  if (p == Precision::kBf16 && g.peak(Precision::kBf16) <= 0) p = Precision::kFp16;
  if (p == Precision::kTf32 && g.peak(Precision::kTf32) <= 0) p = Precision::kFp32;
  if (p == Precision::kFp16 && g.peak(Precision::kFp16) <= 0) p = Precision::kFp32;
  return p;
}

namespace {

// Activation bytes per GPU of one micro-batch through one layer (Korthikanti et al. 2022, arXiv:2205.05198, §4.1):
// s·b·h·(34 + 5·a·s/h) at 16 bits without recomputation, divided by t with tensor + sequence parallelism (eq. 5).
// The 34 (bytes per s·b·h) are, per layer:
//   attention 11: QKV-projection input 2, Q and K for the scores 4, V 2, output-projection input 2, dropout mask 1;
//   MLP 19: first-linear input 2, GeLU input 8, second-linear input (GeLU output) 8, dropout mask 1;
//   layer norms 4: the inputs of the two norms.
// The 5·a·s/h are the attention scores, softmax output and dropout mask: written to memory only by materialized
// attention. Fused (FlashAttention-class) kernels keep them on chip and store the softmax's per-row log-sum-exp,
// one fp32 value per head and token (Dao 2023, arXiv:2307.08691, Algorithm 1-2: 4·a bytes per token), and rerun
// the scores in the backward pass; LoRA runs are counted so. Pre-training and full fine-tuning keep the score term
// under no recomputation as before (dropping it there moves the plan search from selective to no recomputation
// for long-sequence pre-training: a change of its own). Selective recomputation drops the score term (eq. 6);
// full recomputation keeps only the layer's 2·s·b·h input (§4.3). Context parallelism splits each sequence over cp ranks (the s of every
// term but the a·s² score matrix, which becomes a·(s/cp)·s).
// Grouped-query attention stores K and V at kv/heads of their multi-head size: of the 11, K and V are 2 each, so
// the 34 becomes 30 + 4·kv/heads. An MoE layer's FFN bytes (the 19) become its input 2 plus, per routed copy of
// each token (k of them, times the capacity factor) and per shared expert, the copy (2, routed only) and the
// SwiGLU gate, up and product outputs (3 × 2·f_e/h).
// LoRA keeps the base weights frozen, so no weight gradient needs a frozen linear's input: a linear without an
// adapter stores nothing for its own backward (dX = dY·Wᵀ needs W, not X). Of the terms above the FFN's linear
// inputs are only such inputs: dense 2 + 8 (first and second linear), MoE the FFN input 2, each routed copy 2
// and each expert's product 2·f_e/h. With adapters on the attention projections only (the default) they go;
// the attention projections' inputs stay (their adapters' gradients need them), as do the non-linearities',
// norms' and attention's own tensors. Each adapter's rank-r intermediate (2·r/h, under 0.01 for r ≤ 16 at
// h ≥ 4096) is left out.
double ffnBytesPerSbh(const Workload& w, bool frozen) {
  const double dense_ffn = frozen ? 9.0 : 19.0;
  if (!w.isMoe() || w.effectiveLayers() <= 0) return dense_ffn;
  const double L = w.effectiveLayers(), moe_l = w.moeLayers(), k = w.experts_per_token, h = w.effectiveHidden();
  const double fe = w.routedExpertParams() / std::max(1.0, moe_l * w.experts * 3.0 * h);
  const double per_expert = frozen ? 4.0 * fe / h : 6.0 * fe / h;  // gate and up outputs (+ the product)
  const double moe_ffn = (frozen ? 0.0 : 2.0) + w.capacity_factor * k * ((frozen ? 0.0 : 2.0) + per_expert) + w.shared_experts * per_expert;
  return (moe_l * moe_ffn + (L - moe_l) * dense_ffn) / L;  // mean over the dense and MoE layers
}

double layerActivationBytes(const Workload& w, const Sharding& s, Recompute rc, int micro_batch) {
  const double h = w.effectiveHidden(), sq = w.seq_len, b = micro_batch, a = w.effectiveHeads();
  const double t = std::max(1, s.tensor_parallel), cp = std::max(1, s.context_parallel);
  const double scale = w.elementBytes() / 2.0;
  const double sl = sq / cp;
  const double g = w.effectiveKvHeads() / std::max(1.0, a);
  const bool frozen_ffn = w.mode == Mode::kLora && !w.lora_all_linear;
  const double per_sbh = 4.0 + (7.0 + 4.0 * g) + ffnBytesPerSbh(w, frozen_ffn);
  switch (rc) {
    case Recompute::kFull: return 2.0 * sl * b * h * scale / t;
    case Recompute::kSelective: return sl * b * h * per_sbh * scale / t;
    case Recompute::kNone: break;
  }
  if (w.mode == Mode::kLora && !w.attention_materialized) return (sl * b * h * per_sbh * scale + 4.0 * a * sl * b) / t;
  return sl * b * h * (per_sbh + 5.0 * a * sq / h) * scale / t;
}

// Layers' worth of activations the busiest (first) pipeline stage holds: with 1F1B it keeps min(pp, m)
// micro-batches of L/pp layers; the interleaved schedule multiplies that by 1 + (pp−1)/(pp·v) (Korthikanti et
// al. 2022, §4.2.3). Full recomputation additionally needs one layer's full activations while it reruns it; with
// recompute_layers, that share of each stage's layers keeps its input only and the others keep all activations.
double activationBytes(const Workload& w, const Sharding& s) {
  const double L = w.effectiveLayers(), pp = std::max(1, s.pipeline_parallel), v = std::max(1, s.virtual_stages);
  const double in_flight = std::min(pp, static_cast<double>(std::max(1, s.grad_accumulation)));
  double layers_held = std::ceil(L / pp) * in_flight;
  if (v > 1) layers_held *= 1.0 + (pp - 1) / (pp * v);
  double per_layer = layerActivationBytes(w, s, s.recompute, s.micro_batch);
  if (s.recompute != Recompute::kFull) return layers_held * per_layer;
  const double share = w.fullRecomputeShare(), kept = layerActivationBytes(w, s, Recompute::kNone, s.micro_batch);
  per_layer = share * per_layer + (1.0 - share) * kept;
  return layers_held * per_layer + (share > 0 ? kept : 0.0);
}

// The plan with what the workload fixes and the cluster implies filled in: data-parallel degree, micro-batch
// count, fixed recomputation (with the layers it reruns) and micro-batch.
Sharding normalized(const Workload& w, const Cluster& c, Sharding s) {
  if (w.fixedRecompute() >= 0) s.recompute = static_cast<Recompute>(w.fixedRecompute());
  if (w.micro_batch > 0) s.micro_batch = static_cast<int>(w.micro_batch);
  if (!completeLayout(w, c, s)) s.data_parallel = std::max(1, c.totalGpus() / std::max(1, s.modelParallel()));
  const double rerun = w.fullRecomputeShare() * std::max(0.0, w.effectiveLayers());
  s.recompute_layers = s.recompute == Recompute::kFull ? static_cast<int>(std::lround(rerun)) : 0;
  return s;
}

}  // namespace

MemoryBreakdown estimateMemory(const Workload& w, const Cluster& c, const Sharding& plan, const ModelConstants& k) {
  MemoryBreakdown m;
  const Sharding s = normalized(w, c, plan);
  m.sharding = s;
  const double mp = std::max(1, s.tensor_parallel) * std::max(1, s.pipeline_parallel);
  const double dp = std::max(1, s.data_parallel) * std::max(1, s.context_parallel);  // ZeRO shards over dp × cp ranks
  const Precision p = c.gpu ? trainingPrecision(w, *c.gpu) : w.precision;
  const bool mixed = !(p == Precision::kFp32 || p == Precision::kTf32);
  const double wb = mixed ? 2 : 4;
  const double GB = 1e9;
  // MoE: routed experts are split over the expert-parallel ranks too, and their gradients and optimizer states
  // are sharded over the dp·cp/ep ranks that hold the same experts (Megatron-Core's expert data parallel group).
  const double ep = std::max(1, s.expert_parallel), edp = std::max(1.0, dp / ep);
  const double routed = w.routedExpertParams(), dense = w.params - routed;
  const double trainable = w.trainableParams();
  const double trainable_routed = (w.mode == Mode::kPretrain || w.mode == Mode::kFinetune) ? routed : 0;
  const double trainable_dense = trainable - trainable_routed;
  // Per GPU: dense parameters over tp·pp, routed ones over tp·pp·ep; ZeRO divides by dp (dense) or edp (routed).
  auto perGpu = [&](double dense_part, double routed_part, bool sharded) {
    return dense_part / mp / (sharded ? dp : 1.0) + routed_part / (mp * ep) / (sharded ? edp : 1.0);
  };
  // LoRA: the frozen base weights at the bytes they are stored in, the adapters in 16 bits beside them.
  const bool lora = w.mode == Mode::kLora;
  const double weights = perGpu(dense, routed, s.zero_stage >= 3) * (lora ? frozenWeightBytes(p) : wb) +
                         (lora ? perGpu(trainable, 0, s.zero_stage >= 3) * wb : 0.0);
  const double grads = perGpu(trainable_dense, trainable_routed, s.zero_stage >= 2) * wb;
  const double opt = perGpu(trainable_dense, trainable_routed, s.zero_stage >= 1) * optimizerBytes(w.optimizer, mixed);
  m.weights_gb = weights / GB;
  m.gradients_gb = grads / GB;
  m.optimizer_gb = opt / GB;

  double act = 0;
  if (w.kind == WorkloadKind::kTransformer) {
    if (w.mode == Mode::kInference) {
      // KV cache: 2 tensors (K, V) × layers × hidden × kv_heads/heads × sequence × batch × element bytes
      // (grouped-query attention keeps kv_heads of the heads' K and V: Ainslie et al. 2023, arXiv:2305.13245).
      const double kv_share = w.effectiveKvHeads() / std::max(1.0, w.effectiveHeads());
      act = 2.0 * w.effectiveLayers() * w.effectiveHidden() * kv_share * w.seq_len * s.micro_batch * w.elementBytes() / mp;
    } else {
      act = activationBytes(w, s);
    }
  } else if (w.kind == WorkloadKind::kCnn) {
    act = w.activation_gb_per_sample * GB * w.batch_per_gpu * w.elementBytes() / 2.0;
  }
  m.activations_gb = act / GB;
  m.overhead_gb = k.overhead_gb;
  m.required_gb = m.weights_gb + m.gradients_gb + m.optimizer_gb + m.activations_gb + m.overhead_gb;
  m.available_gb = c.gpu ? c.gpu->memory_gb * k.usable_fraction : 0;
  m.fits = m.required_gb <= m.available_gb;
  return m;
}

namespace {

// Memory traffic of a layer's non-GEMM work over that of fused attention. The traffic follows the bytes a layer
// writes per token (Korthikanti et al. 2022, arXiv:2205.05198, eq. 1: 34·h + 5·a·s at 16 bits): the 5·a·s of the
// attention scores, softmax output and dropout mask reach device memory only when attention is materialized;
// fused kernels keep them on chip (Dao et al. 2022, arXiv:2205.14135, §3.1), leaving 34·h.
double attentionTrafficFactor(const Workload& w) {
  if (!w.attention_materialized || w.effectiveHidden() <= 0) return 1.0;
  return (34.0 + 5.0 * w.effectiveHeads() * w.computedSeqLen() / w.effectiveHidden()) / 34.0;
}

// Single-GPU roofline: time per FLOP = 1/(peak·compute_eff·arch_factor) + bytes_per_flop·(elem/2)/bandwidth.
void singleGpu(const Workload& w, const GpuSpec& g, Precision p, const ModelConstants& k, Throughput& t) {
  double eff, bpf;
  switch (w.kind) {
    case WorkloadKind::kTransformer:
      // Non-GEMM work (layer norms, softmax, dropout, residual adds) moves O(seq·hidden) bytes per token and
      // layer while the GEMMs do O(hidden²) FLOPs (Korthikanti et al. 2022, eq. 1 terms), so the memory-bound
      // share falls as 1/hidden: the constant is given at hidden = 1024 (BERT-large).
      eff = k.compute_eff_transformer;
      bpf = k.bytes_per_flop_transformer * 1024.0 / std::max(256.0, w.effectiveHidden()) * attentionTrafficFactor(w);
      break;
    case WorkloadKind::kCnn: eff = k.compute_eff_cnn; bpf = k.bytes_per_flop_cnn; break;
    default: eff = k.compute_eff_custom; bpf = k.bytes_per_flop_custom; break;
  }
  eff *= archFactor(g, k);
  // FP32 runs on CUDA cores, whose FMA pipelines stay busy more easily than tensor cores.
  if (p == Precision::kFp32) eff = k.fp32_eff_factor * archFactor(g, k);
  if (p == Precision::kFp8) eff *= k.fp8_eff_factor;
  if (w.software == Software::kTypical) eff *= k.software_typical_factor;
  eff *= w.compute_factor;  // the user's measurement (model/calibration.hpp); capped at the peak below
  const double elem = (p == Precision::kFp32 || p == Precision::kTf32) ? 4.0 : 2.0;
  const double t_compute = 1.0 / (t.peak_tflops_per_gpu * 1e12 * std::min(1.0, eff));
  const double t_memory = bpf * (elem / 2.0) / (g.memory_bandwidth_gbs * 1e9);
  t.bound = t_memory > t_compute ? "memory bandwidth" : "compute";
  t.single_gpu_tflops = 1.0 / (t_compute + t_memory) / 1e12;
}

// Whether the GPUs of one group of `span` consecutive ranks (Megatron order: TP, CP, PP, DP) share a node.
bool withinNode(const Cluster& c, double span) { return c.nodes <= 1 || span <= c.gpus_per_node; }

// The routed experts' share of a token's forward FLOPs: 2 · routed · k / experts of 2 · active + attention.
double routedShareOfFlops(const Workload& w) {
  if (!w.isMoe()) return 0;
  const double routed_active = w.routedExpertParams() * w.experts_per_token / w.experts;
  const double fwd = 2.0 * w.activeParams() + 4.0 * w.effectiveLayers() * w.seq_len * w.effectiveHidden();
  return fwd > 0 ? 2.0 * routed_active / fwd : 0;
}

// Expert-parallel all-to-all time of one optimizer step per replica (`tokens` per replica), seconds, before
// overlap. Each MoE layer dispatches every token's hidden vector to its k experts and combines the results back:
// two all-to-alls forward, two backward, two more when full recomputation reruns the forward (Lepikhin et al. 2020,
// GShard, arXiv:2006.16668, §2.2; Megatron-Core's alltoall token dispatcher). A rank sends k · capacity_factor
// copies of each of its tokens (its sequence share over tp and cp) at 16 bits, (ep − 1)/ep of them to other
// ranks. The ranks of one expert-parallel group follow the tensor- and context-parallel ones (Megatron-Core's
// tp-cp-ep-dp-pp order): those on the same node are reached over NVLink, the rest over the node's network, both
// at once. Tuned stacks send a token once to each remote node its experts are on and forward it over NVLink there
// (DeepEP's internode kernels, github.com/deepseek-ai/DeepEP; DeepSeek-V3, arXiv:2412.19437, §3.2.2): with
// uniform routing over n nodes a token reaches (n − 1)·(1 − (1 − 1/n)^k) remote nodes instead of k·(n − 1)/n.
double expertAllToAllSeconds(const Workload& w, const Cluster& c, const Sharding& s, const ModelConstants& k, double tokens) {
  const double tp = std::max(1, s.tensor_parallel), cp = std::max(1, s.context_parallel), ep = std::max(1, s.expert_parallel);
  const double pp = std::max(1, s.pipeline_parallel);
  if (ep <= 1 || !w.isMoe()) return 0;
  const double passes = w.mode == Mode::kInference ? 2.0 : (s.recompute == Recompute::kFull ? 4.0 + 2.0 * w.fullRecomputeShare() : 4.0);
  const double kk = w.experts_per_token * w.capacity_factor;
  const double token_bytes = tokens / (tp * cp) * w.effectiveHidden() * 2.0;
  const double local = std::min(ep, std::max(1.0, std::floor(c.gpus_per_node / (tp * cp))));  // group ranks on one node
  const double n = ep / local;                                                                // nodes of the group
  const double remote_copies = w.software == Software::kTuned && n > 1 ? (n - 1) * (1.0 - std::pow(1.0 - 1.0 / n, kk))
                                                                       : kk * (ep - local) / ep;
  const double intra_s = token_bytes * kk * (local - 1) / ep / (intraNodeGBs(c, k) * 1e9);
  const double inter_s = local < ep ? token_bytes * remote_copies / (interNodeGBs(c, k) * 1e9) : 0;
  return passes * (w.moeLayers() / pp) * std::max(intra_s, inter_s);
}

// Slow-down of the routed experts' GEMMs when few tokens reach each expert: an expert's weights are read once per
// micro-batch for T tokens, 2·T FLOPs per 2-byte weight, so below the GPU's ridge point (achieved FLOP/s over
// memory bytes/s) the expert GEMMs are memory-bound by ridge / T (roofline: Williams et al. 2009, CACM 52(4)).
// T = the micro-batch's tokens (over cp) × k / experts × ep: expert parallelism gathers the tokens of ep ranks.
double expertGemmSlowdown(const Workload& w, const Sharding& s, const GpuSpec& g, double single_gpu_tflops) {
  if (!w.isMoe()) return 1.0;
  const double cp = std::max(1, s.context_parallel), ep = std::max(1, s.expert_parallel), mb = std::max(1, s.micro_batch);
  const double tokens_per_expert = mb * w.seq_len / cp * w.experts_per_token / w.experts * ep;
  const double ridge = single_gpu_tflops * 1e12 / (g.memory_bandwidth_gbs * 1e9);
  return std::max(1.0, ridge / std::max(1.0, tokens_per_expert));
}

// One optimizer step of a transformer under plan s: compute and exposed communication per axis, seconds.
// TP: 4 all-reduces (or all-gather + reduce-scatter with sequence parallelism, same volume) of tokens·hidden per
// layer and step, +2 with full recomputation (Shoeybi et al. 2019, arXiv:1909.08053, Fig. 4; Korthikanti et
// al. 2022 §4.2.2). PP: one activation send forward and one gradient send backward per micro-batch, chunk and
// stage boundary, split over the TP ranks (Narayanan et al. 2021, arXiv:2104.04473, §4.1). CP: ring attention
// passes K and V around cp ranks, 3 passes' worth with the backward (Liu et al. 2023, arXiv:2310.01889),
// hidden behind the attention math. DP: ring reduce-scatter + all-gather of the gradients; with ZeRO-3 the
// gradients' reduce-scatter and two weight gathers per micro-batch (Rajbhandari et al. 2020, arXiv:1910.02054,
// §7: 1.5× an all-reduce with one micro-batch), overlapped with the backward pass. EP: expertAllToAllSeconds.
double transformerStep(const Workload& w, const Cluster& c, const Sharding& s, const ModelConstants& k, double elem,
                       Throughput& t) {
  const double tp = std::max(1, s.tensor_parallel), pp = std::max(1, s.pipeline_parallel);
  const double cp = std::max(1, s.context_parallel), v = std::max(1, s.virtual_stages);
  const double dp = std::max(1, s.data_parallel), m = std::max(1, s.grad_accumulation), mb = std::max(1, s.micro_batch);
  // Tokens are those computed (sequence binning computes fewer than seq_len per sequence: Workload::computedSeqLen).
  const double L = w.effectiveLayers(), h = w.effectiveHidden(), sq = w.computedSeqLen();
  const double tokens = m * mb * sq;  // per replica per step
  const double flops_per_token = w.flopsPerSampleWith(s.recompute) / sq;
  // Stages hold whole layers: the busiest sets the pace (pipelineImbalance).
  const double imbalance = pipelineImbalance(L, s.pipeline_parallel, s.virtual_stages);
  // Expert parallelism: the busiest expert rank sets the pace of the routed experts' share of the FLOPs.
  const double ep = std::max(1, s.expert_parallel);
  // and few tokens per expert make its GEMMs memory-bound.
  const double routed_share = routedShareOfFlops(w);
  const double expert_time = (ep > 1 ? w.capacity_factor : 1.0) * expertGemmSlowdown(w, s, *c.gpu, t.single_gpu_tflops);
  const double expert_load = 1.0 + routed_share * (expert_time - 1.0);
  const double t_c = flops_per_token * tokens / (tp * pp * cp) / (t.single_gpu_tflops * 1e12) * imbalance * expert_load;
  const double intra = intraNodeGBs(c, k), inter = interNodeGBs(c, k);
  const double act_bytes = 2.0;  // 16-bit activations on the wire
  if (ep > 1) t.exposed_ep_s = expertAllToAllSeconds(w, c, s, k, m * mb * sq) * k.ep_exposed;
  if (tp > 1) {
    double n_ar = w.mode == Mode::kInference ? 2 : (s.recompute == Recompute::kFull ? 4 + 2 * w.fullRecomputeShare() : 4);
    double bytes = n_ar * (L / pp) * 2.0 * (tp - 1) / tp * (tokens / cp) * h * act_bytes;
    t.exposed_tp_s = bytes / ((withinNode(c, tp) ? intra : inter) * 1e9) * k.tp_exposed;
  }
  if (pp > 1) {
    double bytes = 2.0 * m * v * mb * (sq / cp) * h * act_bytes / tp;
    t.exposed_pp_s = bytes / ((withinNode(c, tp * cp * pp) ? intra : inter) * 1e9) * k.pp_exposed;
  }
  if (cp > 1) {
    double bytes = 3.0 * (L / pp) * m * (cp - 1) / cp * 2.0 * mb * sq * h * act_bytes / tp;
    double t_cp = bytes / ((withinNode(c, tp * cp) ? intra : inter) * 1e9);
    double t_attention = 3.0 * 4.0 * (L / pp) * m * mb * (sq / cp) * sq * h / tp / (t.single_gpu_tflops * 1e12);
    t.exposed_cp_s = std::max(0.0, t_cp - t_attention);
  }
  const double replicas = dp * cp;  // gradients are reduced over data- and context-parallel ranks
  if (replicas > 1 && w.mode != Mode::kInference) {
    const double routed = (w.mode == Mode::kPretrain || w.mode == Mode::kFinetune) ? w.routedExpertParams() : 0;
    double grad_bytes = (w.trainableParams() - routed + routed / ep) * elem / (tp * pp);
    double volume = 2.0 * (replicas - 1) / replicas * grad_bytes;
    // ZeRO-3 gathers the weights again for the forward and the backward pass of every micro-batch (PyTorch FSDP
    // reshards after each forward by default: Zhao et al. 2023, arXiv:2304.11277, §3.2; DeepSpeed ZeRO-3 likewise)
    // and reduce-scatters the gradients once per step: (1 + 2·m) shards' worth instead of an all-reduce's 2.
    const double weight_bytes = (w.params - w.routedExpertParams() + w.routedExpertParams() / ep) * elem / (tp * pp);
    if (s.zero_stage >= 3) {
      volume = (replicas - 1) / replicas * (grad_bytes + 2.0 * m * weight_bytes);
    } else if (s.zero_stage == 2) {
      // ZeRO-2 keeps only its shard of the gradients, so each micro-batch's backward reduce-scatters them (ZeRO
      // paper §5.2; DeepSpeed stage 2 reduces on every backward), and the updated weights are gathered once per
      // step: (m + 1) shards' worth. Accumulating whole gradients instead would need ZeRO-1's memory.
      volume = (replicas - 1) / replicas * (m * grad_bytes + weight_bytes);
    }
    double t_dp = volume / ((withinNode(c, tp * cp * pp * dp) ? intra : std::min(intra, inter)) * 1e9);
    t.exposed_dp_s = std::max(0.0, t_dp - k.dp_overlap * (2.0 / 3.0) * t_c);
  }
  // 1F1B bubble (p−1)/m of the ideal time, (p−1)/(v·m) interleaved (Narayanan et al. 2021, §2.2.1-2.2.2).
  t.bubble_fraction = pp > 1 ? (pp - 1) / (v * m + pp - 1) : 0;
  const double busy = t_c + t.exposed_tp_s + t.exposed_pp_s + t.exposed_cp_s + t.exposed_dp_s + t.exposed_ep_s;
  t.step_time_s = busy / (1.0 - t.bubble_fraction);
  t.comm_exposed_fraction = (busy - t_c) / busy;
  return flops_per_token * tokens * dp;  // hardware FLOPs of the step over the cluster
}

}  // namespace

double pipelineSlots(double layers) { return layers + 2.0; }

double pipelineImbalance(double layers, int pp, int v) {
  const double chunks = std::max(1, pp) * std::max(1, v);
  if (chunks <= 1 || layers <= 0) return 1.0;
  return std::ceil(layers / chunks) * chunks / layers;
}

Throughput estimateThroughput(const Workload& w, const Cluster& c, const Sharding& plan, const ModelConstants& k) {
  Throughput t;
  const Sharding s = normalized(w, c, plan);
  if (!c.gpu) return t;
  const GpuSpec& g = *c.gpu;
  const Precision p = trainingPrecision(w, g);
  t.peak_tflops_per_gpu = g.peak(p);
  if (t.peak_tflops_per_gpu <= 0) {
    t.supported = false;
    return t;
  }
  singleGpu(w, g, p, k, t);
  const double elem = (p == Precision::kFp32 || p == Precision::kTf32) ? 4.0 : 2.0;
  const int total = std::max(1, c.totalGpus());
  double flops_per_sample = w.flopsPerSample();
  double job_flops = w.totalFlops();
  t.scaling_efficiency = 1;
  if (w.kind == WorkloadKind::kTransformer && flops_per_sample > 0) {
    flops_per_sample = w.flopsPerSampleWith(s.recompute);
    job_flops = flops_per_sample * w.totalSamples();
    const double step_flops = transformerStep(w, c, s, k, elem, t);
    t.effective_tflops_per_gpu = step_flops / t.step_time_s / total / 1e12;
    t.scaling_efficiency = t.effective_tflops_per_gpu / t.single_gpu_tflops;
  } else if (w.kind == WorkloadKind::kCnn && flops_per_sample > 0) {
    const double t_c = w.batch_per_gpu * flops_per_sample / (t.single_gpu_tflops * 1e12);
    if (total > 1 && w.mode != Mode::kInference) {
      const double bw = c.nodes > 1 ? std::min(intraNodeGBs(c, k), interNodeGBs(c, k)) : intraNodeGBs(c, k);
      double volume = 2.0 * (total - 1) / total * w.trainableParams() * elem * (s.zero_stage >= 3 ? 1.5 : 1.0);
      t.exposed_dp_s = std::max(0.0, volume / (bw * 1e9) - k.dp_overlap * (2.0 / 3.0) * t_c);
    }
    t.step_time_s = t_c + t.exposed_dp_s;
    t.scaling_efficiency = t_c / t.step_time_s;
    t.comm_exposed_fraction = t.exposed_dp_s / t.step_time_s;
    t.effective_tflops_per_gpu = t.single_gpu_tflops * t.scaling_efficiency;
  } else {
    t.effective_tflops_per_gpu = t.single_gpu_tflops;
  }
  const double cluster_flops = t.effective_tflops_per_gpu * 1e12 * total;
  if (flops_per_sample > 0) {
    t.samples_per_s = cluster_flops / flops_per_sample;
    if (w.kind == WorkloadKind::kTransformer) t.tokens_per_s = t.samples_per_s * w.seq_len;
    const double model_flops = w.kind == WorkloadKind::kTransformer ? w.flopsPerSampleWith(Recompute::kNone) : flops_per_sample;
    t.model_tflops_per_gpu = t.effective_tflops_per_gpu * model_flops / flops_per_sample;
  } else {
    t.model_tflops_per_gpu = t.effective_tflops_per_gpu;
  }
  t.mfu = t.model_tflops_per_gpu / t.peak_tflops_per_gpu;
  if (job_flops > 0 && cluster_flops > 0) {
    t.time_hours = job_flops / cluster_flops / 3600.0;
    t.time_hours_low = t.time_hours / k.band_high;
    t.time_hours_high = t.time_hours / k.band_low;
  }
  return t;
}

}  // namespace gpuvalue
