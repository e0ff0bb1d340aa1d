// Throughput, memory and scaling model: how fast a workload runs on N GPUs of a kind, and whether it fits.
#pragma once
#include <string>

#include "model/gpu_specs.hpp"
#include "model/workload.hpp"

namespace gpuvalue {

// Every constant of the model, with its source. Users may override any of them (`constants` in a request).
struct ModelConstants {
  // --- single-GPU roofline: time per FLOP = 1/(peak·compute_eff·arch_factor) + bytes_per_flop·(elem/2)/bandwidth ---
  // Fraction of the datasheet dense tensor peak that the math kernels of each class reach when not
  // memory-bound, with tuned software (see software_typical_factor). Fitted by `node scripts/accuracy.mjs --fit`
  // on data/measurements.json; judged by leave-one-source-out cross-validation (docs/accuracy.md).
  double compute_eff_transformer = 0.812;
  double compute_eff_cnn = 0.477;
  double compute_eff_custom = 0.40;
  // Effective DRAM bytes moved per FLOP (fp16 elements) by each class; calibrated as above. The transformer
  // figure is at hidden size 1024 with fused attention; it scales with 1024/hidden, and with (34 + 5·a·s/h)/34 where
  // attention is materialized (see attentionTrafficFactor in performance.cpp).
  // ResNet-50's arithmetic intensity is low (many 1x1 / depthwise-free convs, BN, ReLU): its
  // throughput tracks memory bandwidth (He et al. 2016 shapes; NVIDIA DLE tables).
  double bytes_per_flop_transformer = 0.00454;
  double bytes_per_flop_cnn = 0.0237;
  double bytes_per_flop_custom = 0.0;
  // Efficiency of non-tensor FP32 math relative to its peak (fp32 training uses CUDA cores).
  double fp32_eff_factor = 0.909;
  // Architecture factors on compute efficiency (software maturity, cache sizes, clocks under load), fitted
  // together with the constants above by `node scripts/accuracy.mjs --fit` on data/measurements.json (published
  // rows: NVIDIA DeepLearningExamples, Lambda, Megatron-LM, NeMo, MosaicML, Llama 3, BLOOM, OPT, Frontier and MLPerf
  // Training tables); leave-one-source-out cross-validation judges them (docs/accuracy.md). Turing has no training
  // measurements in the set: it reuses Volta's factor. The GDDR Ampere factor above 1
  // (A10, RTX A6000, Lambda's rows only) is what those rows need beyond the roofline: an unexplained residual.
  // CDNA3 (MI300X) rests on 7 rows: MLPerf Training Llama 2 70B LoRA, FP8, 8 MI300X, as submitted by AMD, Dell, Oracle
  // and MangoBoost in v5.0 and by AMD, KRAI and MangoBoost in v5.1 (github.com/mlcommons/training_results_v5.0 and
  // training_results_v5.1, result logs), fitted with every other constant held (median error of the 7 rows ~0; the
  // same benchmark on 8 H200 in both rounds is predicted 11-13 % high). All 7 are FP8: an MI300X BF16 job leans on
  // fp8_eff_factor, fitted on NVIDIA rows, being right for CDNA3 too.
  double arch_volta = 1.01, arch_turing = 1.01, arch_ampere = 1.0, arch_ampere_gddr = 1.34, arch_ada = 0.814,
         arch_hopper = 0.782, arch_blackwell = 0.688, arch_cdna2 = 0.477, arch_cdna3 = 0.443;
  // FP8 training: applied on top of the FP8 peak and the architecture factor (fitted as above: FP8 GEMMs reach
  // a smaller share of their doubled peak, and the non-GEMM work stays in 16 bits).
  double fp8_eff_factor = 0.831;

  // --- communication ---
  // Share of the gradient all-reduce that hides behind the backward pass (PyTorch DDP bucketed overlap;
  // Li et al. 2020, "PyTorch Distributed", VLDB, Fig. 8).
  double dp_overlap = 0.8;
  // Achievable fraction of link bandwidth for NCCL ring all-reduce (nccl-tests busbw on DGX A100
  // ~230 of 300 GB/s unidirectional NVLink: 0.77; IB HDR 200G ~ 24 of 25 GB/s: 0.95 with RDMA).
  double nvlink_eff = 0.77;
  double pcie_eff = 0.75;       // x16 PCIe: 16/32/64 GB/s per direction for gen 3/4/5; NCCL reaches ~75 %
  double rdma_eff = 0.90;
  double tcp_eff = 0.45;        // NCCL over TCP sockets reaches well under half of line rate (NCCL docs, sockets transport)
  // Fraction of tensor-parallel all-reduce time not hidden (Megatron-LM, Narayanan et al. 2021: TP stays within a node).
  double tp_exposed = 1.0;

  // --- memory ---
  double overhead_gb = 1.0;     // CUDA context + cuBLAS/cuDNN workspaces (PyTorch reports ~0.5-1 GB per process)
  double usable_fraction = 0.92;  // allocator fragmentation headroom (EleutherAI "Transformer Math 101": 10-20 % overhead)

  // --- uncertainty band on throughput ---
  // 10th and 90th percentiles of published / predicted throughput over data/measurements.json, each row predicted
  // without its own source (rows of one source share a bias; `node scripts/accuracy.mjs` prints them). Judged by
  // leave-one-source-out cross-validation, a band made this way covers 80 % of the held-out rows (docs/accuracy.md).
  double band_low = 0.743;
  double band_high = 1.272;

  // --- calibration on the user's measurement (model/calibration.hpp) ---
  // Band of a calibrated prediction by its distance from the measured configuration: the 10th and 90th percentiles
  // of how far one source's published/predicted ratio on one configuration carries to another configuration of the
  // same source and workload in data/measurements.json (`node scripts/accuracy.mjs`, docs/accuracy.md):
  // another row of the same GPU and count (20 pairs), the same GPU at another count (770 pairs), another GPU of the
  // same architecture (660 pairs), another architecture (2,488 pairs).
  double calib_measured_low = 0.928, calib_measured_high = 1.078;
  double calib_same_gpu_low = 0.911, calib_same_gpu_high = 1.097;
  double calib_same_arch_low = 0.818, calib_same_arch_high = 1.223;
  double calib_other_arch_low = 0.712, calib_other_arch_high = 1.405;

  // --- software stack ---
  // Compute efficiency of a stock framework as most renters run it ("typical") relative to vendor-tuned
  // containers and Megatron-class frameworks ("tuned"); fitted on the rows of data/measurements.json labelled
  // by their source's stack (`node scripts/accuracy.mjs --fit`, docs/accuracy.md).
  double software_typical_factor = 0.733;
  // Share of pipeline point-to-point time left exposed (Megatron-LM overlaps the sends of interleaved
  // schedules with compute: Narayanan et al. 2021, arXiv:2104.04473, §4.1 "scatter/gather optimization").
  double pp_exposed = 0.5;
  // Share of the expert-parallel all-to-all (token dispatch and combine) left exposed. Megatron-Core runs it on the
  // compute stream unless batch-level overlap is switched on (--overlap-moe-expert-parallel-comm, MCore v0.14:
  // github.com/NVIDIA/Megatron-LM megatron/core/transformer/moe/README.md); DeepSeek-V3's DualPipe hides most of
  // it (arXiv:2412.19437, §3.2.1). Between the two: half.
  double ep_exposed = 0.5;
};

// Reads overrides from a JSON object of the same key names; unknown keys are errors.
bool parseConstants(const json& j, const std::string& path, ModelConstants& c, Issues& issues);
json constantsToJson(const ModelConstants& c);

// Network per GPU of a multi-node cluster when the request gives none, Gbit/s: one 400 Gb/s NIC per GPU on Hopper
// and Blackwell SXM nodes (NVIDIA DGX H100 and DGX B200 user guides: 8 × ConnectX-7 400 Gb/s; DeepSeek's H800
// cluster too: arXiv:2412.19437, §3.1), one 200 Gb/s NIC per GPU otherwise (DGX A100: 8 × ConnectX-6 200 Gb/s).
double defaultNetworkGbpsPerGpu(const GpuSpec& g);

struct Cluster {
  const GpuSpec* gpu = nullptr;
  int gpus_per_node = 1;
  int nodes = 1;
  std::string interconnect = "none";  // nvswitch | nvlink | pcie | infinity-fabric | none
  double network_gbps = 0;            // per node
  bool rdma = false;
  int totalGpus() const { return gpus_per_node * nodes; }
};

// A bare GPU type as a cluster, with the same defaults as the estimate method: at most 8 GPUs per node, SXM parts
// on NVSwitch, PCIe parts on PCIe, one RDMA NIC per GPU across nodes (defaultNetworkGbpsPerGpu).
Cluster defaultCluster(const GpuSpec& gpu, int gpu_count);

// A parallel training plan: tensor × pipeline × context × data parallel degrees, ZeRO stage, recomputation and
// the micro-batching of each data-parallel replica's share of the global batch.
struct Sharding {
  int zero_stage = 0;
  int tensor_parallel = 1;
  int pipeline_parallel = 1;
  int context_parallel = 1;
  int expert_parallel = 1;   // MoE experts split over this many data-parallel ranks (1 = every rank holds all)
  int data_parallel = 1;
  int virtual_stages = 1;    // interleaved 1F1B: model chunks per pipeline stage (1 = plain 1F1B)
  Recompute recompute = Recompute::kNone;
  int recompute_layers = 0;  // layers that rerun their forward pass: all of them with full recompute unless the workload caps it
  int micro_batch = 1;       // sequences (transformer) per micro-batch per replica
  int grad_accumulation = 1; // micro-batches per optimizer step per replica
  std::string describe() const;
  std::string label() const;  // the layout without English words (no recomputation): "" for plain data parallel
  int modelParallel() const { return tensor_parallel * pipeline_parallel * context_parallel; }
};

struct MemoryBreakdown {
  double weights_gb = 0, gradients_gb = 0, optimizer_gb = 0, activations_gb = 0, overhead_gb = 0;
  double required_gb = 0;   // per GPU
  double available_gb = 0;  // per GPU, usable
  bool fits = false;
  Sharding sharding;
};

// Per-GPU memory under a given sharding (weights/gradients/optimizer per ZeRO paper §5, activations per
// Korthikanti et al. 2022 eq. 2).
MemoryBreakdown estimateMemory(const Workload& w, const Cluster& c, const Sharding& s, const ModelConstants& k);
// The memory of planCluster's choice.
MemoryBreakdown chooseSharding(const Workload& w, const Cluster& c, const ModelConstants& k);

struct Throughput {
  double peak_tflops_per_gpu = 0;       // datasheet dense peak at the training precision
  double single_gpu_tflops = 0;         // roofline estimate on one GPU
  double scaling_efficiency = 1;        // multi-GPU / multi-node
  double effective_tflops_per_gpu = 0;  // single × scaling
  double samples_per_s = 0;
  double tokens_per_s = 0;
  double time_hours = 0;
  double time_hours_low = 0;            // optimistic (band_high throughput)
  double time_hours_high = 0;           // pessimistic
  double comm_exposed_fraction = 0;
  double bubble_fraction = 0;
  // Exposed (not overlapped) communication per optimizer step, seconds, by parallel axis.
  double step_time_s = 0;
  double exposed_tp_s = 0, exposed_pp_s = 0, exposed_dp_s = 0, exposed_cp_s = 0, exposed_ep_s = 0;
  // Model FLOPs (no recomputation) per GPU per second and their share of the peak (MFU, Chowdhery et al. 2022,
  // arXiv:2204.02311 appendix B).
  double model_tflops_per_gpu = 0;
  double mfu = 0;
  std::string bound;                    // "compute" or "memory bandwidth"
  bool supported = true;                // false when the GPU lacks the precision
};

Throughput estimateThroughput(const Workload& w, const Cluster& c, const Sharding& s, const ModelConstants& k);

// Pipeline stages hold whole layers. Split into pp·v chunks, the busiest stage runs v chunks of ceil(L/(pp·v))
// layers: its layers over the mean L/pp; 1 without pipelining. (Counting the embedding and the loss as chunks of
// their own, pipelineSlots, lets more chunks exist but never puts fewer layers in the busiest one.)
double pipelineImbalance(double layers, int pp, int v);
// The most chunks a model of `layers` layers splits into: one layer (or the embedding, or the loss) per chunk.
// Llama 3 balances its split by counting the embedding and the output layer with the loss as one layer each, so
// that L + 2 slots fill pp·v chunks (Dubey et al. 2024, arXiv:2407.21783, §3.3.2: "we reduce one Transformer layer
// each from the first and the last stages"; Megatron-Core's --account-for-embedding-in-pipeline-split and
// --account-for-loss-in-pipeline-split).
double pipelineSlots(double layers);

struct ClusterPlan {
  MemoryBreakdown memory;
  Throughput throughput;
  // When the workload fixes plan values (e.g. zero_stage) and nothing fits with them: whether a plan without
  // those constraints fits, and which.
  bool fixed_blocks_fit = false;
  Sharding unconstrained;
};
// The fastest sharding that fits (or the least memory-hungry one when nothing fits), with its throughput.
ClusterPlan planCluster(const Workload& w, const Cluster& c, const ModelConstants& k);
// True when some sharding (or the workload's explicit one) fits in memory; cheaper than planCluster.
bool fitsWithSomeSharding(const Workload& w, const Cluster& c, const ModelConstants& k);

// Precision actually usable for training on this GPU (e.g. bf16 on V100 falls back to fp16).
Precision trainingPrecision(const Workload& w, const GpuSpec& g);

}  // namespace gpuvalue
