#include "model/performance.hpp"

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
};

double archFactor(const GpuSpec& g, const ModelConstants& k) {
  const std::string& a = g.architecture;
  bool gddr = g.memory_type.find("GDDR") != std::string::npos;
  if (a == "volta") return k.arch_volta;
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
    if (!known) r.error(it.key(), ErrorCode::kInvalidValue, "is not a model constant");
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
  if (tensor_parallel > 1) s += "TP" + std::to_string(tensor_parallel);
  if (pipeline_parallel > 1) s += (s.empty() ? "" : " × ") + std::string("PP") + std::to_string(pipeline_parallel);
  if (zero_stage > 0) s += (s.empty() ? "" : " + ") + std::string("ZeRO-") + std::to_string(zero_stage);
  return s.empty() ? "data parallel (no sharding)" : s;
}

std::string Sharding::label() const {
  const std::string s = describe();
  return tensor_parallel > 1 || pipeline_parallel > 1 || zero_stage > 0 ? s : std::string();
}

Precision trainingPrecision(const Workload& w, const GpuSpec& g) {
  Precision p = w.precision;
  if (p == Precision::kFp8 && g.peak(Precision::kFp8) <= 0) p = Precision::kBf16;
  if (p == Precision::kBf16 && g.peak(Precision::kBf16) <= 0) p = Precision::kFp16;
  if (p == Precision::kTf32 && g.peak(Precision::kTf32) <= 0) p = Precision::kFp32;
  if (p == Precision::kFp16 && g.peak(Precision::kFp16) <= 0) p = Precision::kFp32;
  return p;
}

MemoryBreakdown estimateMemory(const Workload& w, const Cluster& c, const Sharding& s, const ModelConstants& k) {
  MemoryBreakdown m;
  m.sharding = s;
  const int total = std::max(1, c.totalGpus());
  const double mp = std::max(1, s.tensor_parallel) * std::max(1, s.pipeline_parallel);
  const double dp = std::max(1.0, std::floor(total / mp));
  const Precision p = c.gpu ? trainingPrecision(w, *c.gpu) : w.precision;
  const bool mixed = !(p == Precision::kFp32 || p == Precision::kTf32);
  const double wb = mixed ? 2 : 4;
  const double GB = 1e9;
  const double trainable = w.trainableParams();
  const double frozen = w.params - (w.mode == Mode::kLora ? trainable : (w.mode == Mode::kInference ? w.params : trainable));

  double weights = (trainable + std::max(0.0, frozen)) * wb / mp;
  if (w.mode == Mode::kInference) weights = w.params * wb / mp;
  double grads = trainable * wb / mp;
  double opt = trainable * optimizerBytes(w.optimizer, mixed) / mp;
  if (s.zero_stage >= 1) opt /= dp;
  if (s.zero_stage >= 2) grads /= dp;
  if (s.zero_stage >= 3) weights /= dp;
  m.weights_gb = weights / GB;
  m.gradients_gb = grads / GB;
  m.optimizer_gb = opt / GB;

  double act = 0;
  if (w.kind == WorkloadKind::kTransformer) {
    const double h = w.effectiveHidden(), L = w.effectiveLayers(), sq = w.seq_len, b = w.micro_batch;
    const double a = w.heads > 0 ? w.heads : std::max(1.0, std::round(h / 128.0));
    const double scale = w.elementBytes() / 2.0;
    if (w.mode == Mode::kInference) {
      // KV cache: 2 tensors (K, V) × layers × hidden × sequence × batch × element bytes.
      act = 2.0 * L * h * sq * b * w.elementBytes() / mp;
    } else {
      // Korthikanti et al. 2022, eq. 1: per layer s·b·h·(34 + 5·a·s/h) bytes at 16-bit; with tensor + sequence
      // parallelism divided by t (eq. 5). Full recomputation keeps only each layer's 2·s·b·h input plus one layer.
      const double per_layer = sq * b * h * (34.0 + 5.0 * a * sq / h) * scale / std::max(1, s.tensor_parallel);
      // With 1F1B pipelining the first stage holds pp micro-batches of L/pp layers = L layers' worth.
      if (w.activation_checkpointing) act = L * 2.0 * sq * b * h * scale / std::max(1, s.tensor_parallel) + per_layer;
      else act = L * per_layer;
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

MemoryBreakdown chooseSharding(const Workload& w, const Cluster& c, const ModelConstants& k) {
  return planCluster(w, c, k).memory;
}

namespace {

// Calls visit(sharding) for each candidate sharding of a cluster, least intrusive first (ZeRO stages at each
// tensor/pipeline degree); visit returns false to stop.
template <typename Visit>
void forEachSharding(const Workload& w, const Cluster& c, Visit&& visit) {
  const int total = std::max(1, c.totalGpus());
  int tps[4] = {1, 0, 0, 0};
  int n_tp = 1;
  int pps[8] = {1, 0, 0, 0, 0, 0, 0, 0};
  int n_pp = 1;
  if (w.kind == WorkloadKind::kTransformer) {
    for (int t = 2; t <= std::min(8, c.gpus_per_node); t *= 2)
      if (c.gpus_per_node % t == 0) tps[n_tp++] = t;
    for (int p = 2; p <= 128; p *= 2) pps[n_pp++] = p;
  }
  for (int i = 0; i < n_tp; ++i) {
    for (int j = 0; j < n_pp; ++j) {
      const int tp = tps[i], pp = pps[j];
      if (tp * pp > total || total % (tp * pp) != 0) continue;
      if (w.kind == WorkloadKind::kTransformer && pp > w.effectiveLayers()) continue;
      const int dp = total / (tp * pp);
      for (int z = 0; z <= 3; ++z) {
        if (z > 0 && dp < 2) break;
        if (!visit(Sharding{z, tp, pp})) return;
      }
    }
  }
}

Sharding explicitSharding(const Workload& w) {
  Sharding s;
  s.zero_stage = std::max(0, w.zero_stage);
  s.tensor_parallel = std::max(1, w.tensor_parallel);
  s.pipeline_parallel = std::max(1, w.pipeline_parallel);
  return s;
}

bool hasExplicitSharding(const Workload& w) { return w.zero_stage >= 0 || w.tensor_parallel > 0 || w.pipeline_parallel > 0; }

}  // namespace

bool fitsWithSomeSharding(const Workload& w, const Cluster& c, const ModelConstants& k) {
  if (hasExplicitSharding(w)) return estimateMemory(w, c, explicitSharding(w), k).fits;
  bool fits = false;
  forEachSharding(w, c, [&](const Sharding& s) {
    fits = estimateMemory(w, c, s, k).fits;
    return !fits;
  });
  return fits;
}

ClusterPlan planCluster(const Workload& w, const Cluster& c, const ModelConstants& k) {
  ClusterPlan plan;
  if (hasExplicitSharding(w)) {
    Sharding s = explicitSharding(w);
    plan.memory = estimateMemory(w, c, s, k);
    plan.throughput = estimateThroughput(w, c, s, k);
    return plan;
  }
  // Among the shardings that fit, take the fastest (as Megatron-LM's and DeepSpeed's tuning guides advise:
  // tensor parallel inside a node, pipeline across nodes, ZeRO for the optimizer). When none fits, report
  // the one that needs the least memory. A higher ZeRO stage at the same TP/PP only adds communication, so
  // the first fitting stage of each TP/PP pair is the only one timed.
  bool have_fit = false, have_any = false;
  MemoryBreakdown least;
  int fitted_tp = -1, fitted_pp = -1;
  forEachSharding(w, c, [&](const Sharding& s) {
    if (s.tensor_parallel == fitted_tp && s.pipeline_parallel == fitted_pp) return true;
    MemoryBreakdown m = estimateMemory(w, c, s, k);
    if (m.fits) {
      fitted_tp = s.tensor_parallel;
      fitted_pp = s.pipeline_parallel;
      Throughput t = estimateThroughput(w, c, s, k);
      if (!have_fit || t.effective_tflops_per_gpu > plan.throughput.effective_tflops_per_gpu * (1 + 1e-9)) {
        plan.memory = m;
        plan.throughput = t;
        have_fit = true;
      }
    } else if (!have_any || m.required_gb < least.required_gb) {
      least = m;
      have_any = true;
    }
    return true;
  });
  if (!have_fit) {
    plan.memory = least;
    plan.throughput = estimateThroughput(w, c, least.sharding, k);
  }
  return plan;
}

Throughput estimateThroughput(const Workload& w, const Cluster& c, const Sharding& s, const ModelConstants& k) {
  Throughput t;
  if (!c.gpu) return t;
  const GpuSpec& g = *c.gpu;
  const Precision p = trainingPrecision(w, g);
  double peak = g.peak(p);
  double eff;
  double bpf;
  switch (w.kind) {
    case WorkloadKind::kTransformer:
      // Non-GEMM work (layer norms, softmax, dropout, residual adds) moves O(seq·hidden) bytes per token and
      // layer while the GEMMs do O(hidden²) FLOPs (Korthikanti et al. 2022, eq. 1 terms), so the memory-bound
      // share falls as 1/hidden: the constant is given at hidden = 1024 (BERT-large).
      eff = k.compute_eff_transformer;
      bpf = k.bytes_per_flop_transformer * 1024.0 / std::max(256.0, w.effectiveHidden());
      break;
    case WorkloadKind::kCnn: eff = k.compute_eff_cnn; bpf = k.bytes_per_flop_cnn; break;
    default: eff = k.compute_eff_custom; bpf = k.bytes_per_flop_custom; break;
  }
  eff *= archFactor(g, k);
  // FP32 runs on CUDA cores, whose FMA pipelines stay busy more easily than tensor cores.
  if (p == Precision::kFp32) eff = k.fp32_eff_factor * archFactor(g, k);
  if (p == Precision::kFp8) eff *= k.fp8_eff_factor;
  if (peak <= 0) {
    t.supported = false;
    return t;
  }
  t.peak_tflops_per_gpu = peak;
  const double elem = (p == Precision::kFp32 || p == Precision::kTf32) ? 4.0 : 2.0;
  const double t_compute = 1.0 / (peak * 1e12 * std::min(1.0, eff));
  const double t_memory = bpf * (elem / 2.0) / (g.memory_bandwidth_gbs * 1e9);
  t.bound = t_memory > t_compute ? "memory bandwidth" : "compute";
  t.single_gpu_tflops = 1.0 / (t_compute + t_memory) / 1e12;

  // --- scaling ---
  const int total = std::max(1, c.totalGpus());
  const double tp = std::max(1, s.tensor_parallel), pp = std::max(1, s.pipeline_parallel);
  const double dp = std::max(1.0, std::floor(total / (tp * pp)));
  const double flops_per_sample = w.flopsPerSample();
  double t_c = 0;           // compute seconds per step per GPU
  double tokens_per_replica_step = 0;
  if (w.kind == WorkloadKind::kTransformer && flops_per_sample > 0) {
    tokens_per_replica_step = std::max(w.seq_len * w.micro_batch, w.global_batch_tokens / dp);
    t_c = flops_per_sample / w.seq_len * tokens_per_replica_step / (tp * pp) / (t.single_gpu_tflops * 1e12);
  } else if (w.kind == WorkloadKind::kCnn && flops_per_sample > 0) {
    t_c = w.batch_per_gpu * flops_per_sample / (t.single_gpu_tflops * 1e12);
  }
  double exposed = 0, t_tp = 0, bubble = 0;
  if (t_c > 0 && total > 1) {
    const double intra = intraNodeGBs(c, k), inter = interNodeGBs(c, k);
    const double grad_elem = elem;
    if (dp > 1 && w.mode != Mode::kInference) {
      double grad_bytes = w.trainableParams() * grad_elem / (tp * pp);
      double volume = 2.0 * (dp - 1) / dp * grad_bytes * (s.zero_stage >= 3 ? 1.5 : 1.0);
      // DP groups span nodes when there is more than one node; then the slower link bounds the ring.
      double bw = c.nodes > 1 ? std::min(intra, inter) : intra;
      double t_comm = volume / (bw * 1e9);
      exposed = std::max(0.0, t_comm - k.dp_overlap * (2.0 / 3.0) * t_c);
    }
    if (tp > 1 && w.kind == WorkloadKind::kTransformer) {
      // Megatron TP: 2 all-reduces forward + 2 backward per layer (+2 with recomputation), each of
      // tokens·hidden·elem bytes (Narayanan et al. 2021 §3.2 / Shoeybi et al. 2019 Fig. 4).
      double n_ar = w.activation_checkpointing ? 6 : 4;
      double bytes = n_ar * (w.effectiveLayers() / pp) * 2.0 * (tp - 1) / tp * tokens_per_replica_step * w.effectiveHidden() * 2.0;
      t_tp = bytes / (intra * 1e9) * k.tp_exposed;
    }
    if (pp > 1 && w.kind == WorkloadKind::kTransformer) {
      double m = std::max(1.0, tokens_per_replica_step / (w.seq_len * w.micro_batch));
      bubble = (pp - 1) / (m + pp - 1);  // 1F1B bubble (Narayanan et al. 2021 §2.2)
    }
  }
  t.scaling_efficiency = t_c > 0 ? t_c / (t_c + exposed + t_tp) * (1.0 - bubble) : 1.0;
  t.comm_exposed_fraction = t_c > 0 ? (exposed + t_tp) / (t_c + exposed + t_tp) : 0;
  t.bubble_fraction = bubble;
  t.effective_tflops_per_gpu = t.single_gpu_tflops * t.scaling_efficiency;
  const double cluster_flops = t.effective_tflops_per_gpu * 1e12 * total;
  if (flops_per_sample > 0) {
    t.samples_per_s = cluster_flops / flops_per_sample;
    if (w.kind == WorkloadKind::kTransformer) t.tokens_per_s = t.samples_per_s * w.seq_len;
  }
  const double flops = w.totalFlops();
  if (flops > 0 && cluster_flops > 0) {
    t.time_hours = flops / cluster_flops / 3600.0;
    t.time_hours_low = t.time_hours / k.band_high;
    t.time_hours_high = t.time_hours / k.band_low;
  }
  return t;
}

}  // namespace gpuvalue
