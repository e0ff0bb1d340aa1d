// Serving a large language model: memory (weights, KV cache), prefill and decode time, tensor-parallel
// all-reduce, continuous batching under latency targets, replicas for a traffic and what a million tokens costs.
// Plain structs and arithmetic; requests and answers are read and written in api/serve.cpp.
#pragma once
#include <string>
#include <vector>

#include "io/messages.hpp"
#include "model/gpu_specs.hpp"

namespace gpuvalue {

// Weight formats of served models: 16-bit (bf16/fp16), fp8 (W8A8 on GPUs with fp8 tensor cores, weight-only on
// others), int8 (W8A8 SmoothQuant-class where the GPU has int8 tensor cores), int4 (W4A16, AWQ/GPTQ-class: 16-bit
// math on dequantised weights) and fp4 (W4A4 NVFP4 on GPUs with fp4 tensor cores, else W4A16).
enum class WeightFormat { kBf16, kFp8, kInt8, kInt4, kFp4 };
enum class KvFormat { kFp16, kFp8 };
enum class ServingStack { kTuned, kTypical };

const char* weightFormatName(WeightFormat f);
const char* kvFormatName(KvFormat f);
double weightBytes(WeightFormat f);  // per parameter: 2, 1, 1, 0.5, 0.5625 (NVFP4's block scales)
double kvBytes(KvFormat f);          // per element: 2, 1

// A decoder-only transformer as served. Dense models have active_params == params and experts == 0.
struct ServingModel {
  double params = 0;          // all parameters, including embeddings and every expert
  double active_params = 0;   // parameters one token passes through (MoE: shared layers + experts_per_token experts)
  int layers = 0;
  int hidden = 0;
  int heads = 0;              // attention (query) heads
  int kv_heads = 0;           // key/value heads (GQA/MQA; = heads for multi-head attention)
  int head_dim = 0;
  int vocab = 0;
  int experts = 0;            // routed experts per MoE layer; 0 = dense
  int experts_per_token = 0;
  // Multi-head latent attention (DeepSeek-V2/V3): the cached latent per token and layer (kv_lora_rank + rope
  // dimensions, 512 + 64 = 576 in DeepSeek-V3, arXiv:2412.19437 §2.1.1); 0 = ordinary K and V per KV head.
  int kv_latent_dim = 0;
};

struct ServingTraffic {
  double requests_per_s = 0;  // 0 = no traffic given: the answer is the capacity of one replica
  double input_tokens = 1000;
  double output_tokens = 300;
};

struct ServingTargets {
  double ttft_ms = 0;      // 0 = no target
  double tpot_ms = 0;      // 0 = no target
  double percentile = 50;  // the percentile the TTFT target applies to (50, 90, 99, ...)
};

// Every constant of the serving model, with its source. Overridable per request ("constants").
struct ServingConstants {
  // Fraction of datasheet HBM bandwidth that reading the weights reaches with a tuned stack (TensorRT-LLM, SGLang):
  // streaming GEMM/GEMV operands. Chosen by hand on data/serving-measurements.json (docs/accuracy.md, "Serving"),
  // to which it matters little: at maximum-throughput batches reading the weights is a small share of a step; the
  // attainable ceiling is ~0.9 (Azure measured 7.35 of 8 TB/s, 92 %, on GB200:
  // https://techcommunity.microsoft.com/blog/azurehighperformancecomputingblog/4399253).
  double hbm_eff = 0.7;
  // The same for reading the KV cache in decode attention: paged blocks gathered per request reach a smaller share
  // of the bandwidth than contiguous weights. Fitted on the same measurements.
  double kv_eff = 0.8;
  // Fraction of the dense tensor peak that prefill and large-batch decode GEMMs reach with a tuned stack; fitted
  // on the same measurements.
  double compute_eff = 0.7;
  // Compute efficiency of 8- and 4-bit math (fp8, int8, fp4 tensor cores) relative to 16-bit: their GEMMs reach a
  // smaller share of their doubled peaks. Fitted on the same measurements.
  double low_precision_eff = 0.8;
  // Share of the shorter of weight reading and GEMM math that hides behind the longer (1 = the classic roofline's
  // max, 0 = their sum). Chosen on all rows of the same measurements (0 halves the median error of 0.5 and 1: decode
  // GEMMs at serving batches of 100-2,000 tokens are neither purely bandwidth- nor compute-bound); not re-estimated
  // per fold.
  double gemm_overlap = 0;
  // A stock vLLM-class stack relative to a tuned one, on both efficiencies: on one H100 80GB serving Llama 3.3 70B
  // in FP8 with 50 concurrent requests, vLLM gave 1,850 output tokens/s and TensorRT-LLM 2,100 (1,850 / 2,100 =
  // 0.88; https://www.spheron.network/blog/vllm-vs-tensorrt-llm-vs-sglang-benchmarks, 2026-03-23). Not fitted: the
  // calibration set has no maximum-throughput rows of a stock stack.
  double typical_factor = 0.88;
  // A Blackwell GPU's share of the math and bandwidth the efficiencies above give (they are fitted on Hopper, Ampere
  // and Ada rows): the published B200 rows of two TensorRT-LLM tables (the v1.0 perf overview at commit 00f37686 and
  // the developer guide's at 03e27c7d, data/serving-measurements.json) reach 25-40 % less than their datasheet peaks
  // and bandwidth predict with them. Fitted on those rows (scripts/serving-accuracy.mjs: each source's rows are
  // predicted with the factor chosen on the other's); 1 = none.
  double blackwell_eff = 0.75;
  // The same for an AMD CDNA 3 GPU (MI300X): in MLPerf Inference llama2-70b (closed, Offline, 8 GPUs each), eight
  // MI300X served 0.96 x the tokens/s of eight H100 SXM in v4.1 and 0.79 x those of eight H200 in v5.1
  // (data/serving-ratios.json: the rounds' medians over submitters), where their datasheet peaks and bandwidth with
  // the efficiencies above predict 1.54 x and 1.34 x. Fitted on those two ratios (scripts/serving-ratios.mjs: each
  // round's ratio is predicted with the factor chosen on the other's): what the published MI300X stacks (vLLM on
  // ROCm) reach of the peaks, against TensorRT-LLM on Hopper; 1 = none.
  double cdna3_eff = 0.6;
  // Share of the memory left after weights and runtime overhead that the KV cache takes: TensorRT-LLM's
  // kv_cache_free_gpu_mem_fraction, 0.9 by default and 0.95 in NVIDIA's published throughput runs
  // (https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html); vLLM's gpu_memory_utilization (0.9 of
  // the whole memory, https://docs.vllm.ai/en/latest/serving/engine_args.html) leaves about the same.
  double kv_fraction = 0.9;
  // Runtime memory per GPU besides weights and KV cache: CUDA context and library workspaces (~0.5-1 GB per process)
  // plus the activations of one prefill chunk (8,192 tokens × hidden and MLP width × 2 bytes, ~0.5 GB for a 70B
  // model at TP1); assumption.
  double overhead_gb = 1.5;
  // NCCL ring all-reduce reaches ~77 % of NVLink and ~75 % of PCIe bandwidth (same figures as training,
  // model/performance.hpp: nccl-tests busbw on DGX A100).
  double nvlink_eff = 0.77;
  double pcie_eff = 0.75;
  // Fixed cost of one all-reduce of a decode step (launch and synchronisation, independent of size); assumption
  // at the order of nccl-tests' small-message latency: ~10 µs over NVLink, ~25 µs over PCIe.
  double allreduce_latency_nvlink_us = 10;
  double allreduce_latency_pcie_us = 25;
  // Tokens one step of continuous batching carries at most (decode tokens first, prefill chunks in what is left):
  // TensorRT-LLM's max_num_tokens, 8192 by default
  // (https://nvidia.github.io/TensorRT-LLM/performance/performance-tuning-guide/tuning-max-batch-size-and-max-num-tokens.html);
  // vLLM's max_num_batched_tokens for its OpenAI server, 8192 on GPUs of 70 GiB and more other than A100 and 2048
  // below (EngineArgs.get_batch_defaults, https://github.com/vllm-project/vllm/blob/main/vllm/engine/arg_utils.py;
  // chunked prefill always on in vLLM V1, https://docs.vllm.ai/en/latest/configuration/optimization.html).
  double prefill_chunk_tokens = 8192;
  // 10th and 90th percentiles of published / predicted output tokens/s over the 261 rows of
  // data/serving-measurements.json at the defaults above (the folds' bands, each from the other sources' rows:
  // 0.78-1.05, 0.78-1.10, 0.78-1.09; tests/js/serving-accuracy.test.mjs, docs/accuracy.md "Serving").
  double band_low = 0.78;
  double band_high = 1.09;
};

struct ServingConfig {
  ServingModel model;
  WeightFormat weights = WeightFormat::kBf16;
  KvFormat kv = KvFormat::kFp16;
  ServingStack software = ServingStack::kTuned;
  ServingTraffic traffic;
  ServingTargets targets;
};

// One replica: `tensor_parallel` GPUs of one kind sharding the model (tensor and, for MoE, expert parallel).
struct ServingHardware {
  const GpuSpec* gpu = nullptr;
  int tensor_parallel = 1;
  bool nvlink = true;  // GPUs joined by NVLink/NVSwitch (else PCIe)
};

struct ServingMemory {
  double weights_gb = 0;             // per GPU
  double overhead_gb = 0;            // per GPU
  double kv_cache_gb = 0;            // per GPU, what is left for the KV cache
  double free_gb = 0;                // per GPU: memory - weights - overhead
  double kv_bytes_per_token = 0;     // whole model, all layers
  double kv_tokens = 0;              // tokens the replica's KV cache holds
  int max_batch = 0;                 // concurrent requests the KV cache holds at the mean context
  bool fits = false;                 // weights fit and at least one request's KV cache fits
};

// One decode step of the replica at a batch, with the prefill work continuous batching mixes into it.
struct ServingStep {
  double time_s = 0;       // weight GEMMs (memory_s and compute_s, partly overlapped) + attention_s + comm_s
  double memory_s = 0;     // weight GEMMs: reading the weights from HBM
  double compute_s = 0;    // weight GEMMs: the math of decode and prefill-chunk tokens
  double attention_s = 0;  // attention: reading the KV cache (decode), scores and values (all tokens)
  double comm_s = 0;       // tensor-parallel all-reduces
  bool compute_bound = false;  // the weight GEMMs are bound by math rather than by reading the weights
};

// Capacity of one replica and, with traffic, the operating point of the deployment.
struct ServingPlan {
  ServingMemory memory;
  // Largest batch meeting the TPOT target (the KV cache's batch without one) and its step.
  int batch = 0;
  ServingStep step;
  double output_tokens_per_s = 0;  // per replica at `batch`, all GPU time used (offline maximum)
  double requests_per_s = 0;
  double prefill_s = 0;            // one request's prefill alone
  // Load that keeps the TTFT target at its percentile (1 without a target) and what the replica then sustains.
  double load_fraction = 1;
  double sustainable_requests_per_s = 0;
  double sustainable_output_tokens_per_s = 0;
  bool tpot_met = true, ttft_met = true;
  // With traffic: replicas, and the latency at the load each replica then carries.
  int replicas = 0;
  double operating_load = 0;
  double operating_batch = 0;
  double ttft_s = 0;
  double tpot_s = 0;           // mean step: every step carries its share of the prefill chunks
  // Share of steps that carry a prefill chunk, and the median gap between two tokens of a request: the step without
  // prefill while fewer than half the steps carry one (InterTokenGaps).
  double prefill_step_share = 0;
  double itl_median_s = 0;
  double prefill_share = 0;  // share of GPU time spent on prefill at the operating point (splits $ input/output)
  Messages hints;            // what would fit or meet the targets
};

// The deployment on one catalog offer: whole instances, each holding as many replicas as its GPUs allow, and what
// a million tokens costs at the operating point (the traffic, or one instance at its sustainable load). GPU time
// is split between input and output tokens by prefill_share.
struct ServingCost {
  int replicas_per_instance = 0;  // 0: a replica needs more GPUs than the instance has
  int instances = 0;              // paid for: those the traffic needs and the spares
  int spare_instances = 0;        // spot: kept beside them to cover reclaimed ones (SpotReplacement)
  double instance_down_share = 0; // spot: share of the time one instance is reclaimed and not yet replaced
  double usd_per_hour = 0;        // all instances
  double monthly_usd = 0;         // usd_per_hour × 730 h
  double input_tokens_per_hour = 0, output_tokens_per_hour = 0;
  double usd_per_million_input = 0, usd_per_million_output = 0, usd_per_million_blended = 0;
};

// KV-cache bytes per token of the whole model: 2 (K and V) × layers × KV heads × head size × bytes per element,
// or layers × latent size × bytes with multi-head latent attention.
double kvBytesPerToken(const ServingModel& m, KvFormat kv);
// Memory per GPU of one replica; KV heads are split over the tensor-parallel GPUs (replicated when there are
// fewer KV heads than GPUs; an MLA latent is replicated on every GPU).
ServingMemory servingMemory(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k);
// Time of one decode step at `batch` concurrent requests in steady state.
ServingStep decodeStep(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double batch);
// A step at `batch` decode tokens that also prefills `prefill_tokens` input tokens (each attending on average half
// the input); decodeStep is this step with the steady state's batch × input / output prefill tokens.
ServingStep mixedStep(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double batch,
                      double prefill_tokens);
// The gaps between two tokens of a request under continuous batching with chunked prefill, at `rate` requests/s
// per replica. A request's prefill spans ceil(input / (chunk − batch)) steps (the decode tokens take their share of
// the chunk first); with Poisson arrivals the number of requests arriving during one step of mean length
// `mean_step_s` is Poisson(rate × mean_step_s), so a step carries a chunk of some request's prefill with probability
// share = 1 − exp(−rate × mean_step_s × chunks) (the Poisson process, Kleinrock 1975, Queueing Systems vol. 1, ch. 2). The gaps are
// two-valued: the step without prefill (`plain_step_s`) and the steps with a chunk, whose mean makes the mean
// step: plain + (mean − plain) / share. The median gap is the plain step while share < 1/2, else the chunk step.
struct InterTokenGaps {
  double prefill_step_share = 0;
  double median_s = 0;
};
InterTokenGaps interTokenGaps(double rate, double mean_step_s, double plain_step_s, double chunks_per_request);
// A request's prefill as the batch runs: its input in chunks of (prefill_chunk_tokens − batch) tokens, one per step,
// each step also decoding the batch's tokens (vLLM V1 schedules the running requests' decode tokens first and fills
// the rest of the step's token budget with prefill chunks: https://docs.vllm.ai/en/latest/configuration/optimization.html).
double prefillInStepsSeconds(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double batch);
// Prefill of one request's input alone: compute-bound (2 × active params × tokens + causal attention), at least
// one read of the weights, plus its all-reduces.
double prefillSeconds(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k);
// M/M/1 waiting time at a percentile (Kleinrock 1975, Queueing Systems vol. 1, §3.2: P(W > t) = ρ·e^(−(1−ρ)t/S)).
double queueWaitSeconds(double load, double service_s, double percentile);
// The whole plan: capacity under the targets, replicas and latency at the traffic, hints.
ServingPlan planServing(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k);
// A service on spot capacity: each instance is reclaimed `interruptions_per_hour` times an hour on average and its
// replacement serves again after `replace_hours` (a new instance and the model's weights loaded). Renewal theory
// (up for 1/λ on average, then down for R) gives the share of time one instance is down, u = λR / (1 + λR); the
// service keeps spares so that the instances it needs are all up at least `full_capacity_share` of the time, the
// instances down at once counted as a binomial (reclaims of different instances taken as independent).
struct SpotReplacement {
  double interruptions_per_hour = 0;  // 0: not on spot
  double replace_hours = 0;
  // Assumption: a service on spot has all the instances it needs up 99 % of the time, a little below what on-demand
  // capacity is promised (EC2's instance-level uptime commitment is 99.5 %, aws.amazon.com/compute/sla).
  double full_capacity_share = 0.99;
};
// The spares for `needed` instances: the smallest S with P(more than S of needed + S instances down) ≤ 1 − share.
int spareInstances(int needed, double down_share, double full_capacity_share);
ServingCost priceServing(const ServingPlan& p, const ServingConfig& c, int tensor_parallel, int gpus_per_instance,
                         double usd_per_instance_hour, const SpotReplacement& spot = {});

}  // namespace gpuvalue
