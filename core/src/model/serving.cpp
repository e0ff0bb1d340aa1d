#include "model/serving.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/catalog.hpp"

namespace gpuvalue {

const char* weightFormatName(WeightFormat f) {
  switch (f) {
    case WeightFormat::kBf16: return "bf16";
    case WeightFormat::kFp8: return "fp8";
    case WeightFormat::kInt8: return "int8";
    case WeightFormat::kInt4: return "int4";
    case WeightFormat::kFp4: return "fp4";
  }
  return "bf16";
}

const char* kvFormatName(KvFormat f) { return f == KvFormat::kFp8 ? "fp8" : "fp16"; }

// NVFP4 stores 16 four-bit E2M1 values with one FP8 (E4M3) scale per block, plus one FP32 scale per tensor:
// (16 × 4 + 8) / 16 = 4.5 bits a weight (https://developer.nvidia.com/blog/introducing-nvfp4-for-efficient-and-accurate-low-precision-inference/;
// https://modal.com/llm-almanac/block-quants). The per-tensor scale is negligible.
constexpr double kNvfp4BytesPerWeight = (16 * 4 + 8) / 16.0 / 8.0;

double weightBytes(WeightFormat f) {
  switch (f) {
    case WeightFormat::kBf16: return 2;
    case WeightFormat::kFp8:
    case WeightFormat::kInt8: return 1;
    case WeightFormat::kInt4: return 0.5;
    case WeightFormat::kFp4: return kNvfp4BytesPerWeight;
  }
  return 2;
}

double kvBytes(KvFormat f) { return f == KvFormat::kFp8 ? 1 : 2; }

double kvBytesPerToken(const ServingModel& m, KvFormat kv) {
  if (m.kv_latent_dim > 0) return static_cast<double>(m.layers) * m.kv_latent_dim * kvBytes(kv);
  return 2.0 * m.layers * m.kv_heads * m.head_dim * kvBytes(kv);
}

namespace {

constexpr double kGB = 1e9;

// KV-cache bytes per token held by one GPU of the replica.
double kvBytesPerTokenPerGpu(const ServingModel& m, KvFormat kv, int tp) {
  if (m.kv_latent_dim > 0) return kvBytesPerToken(m, kv);
  const double heads_per_gpu = std::ceil(static_cast<double>(m.kv_heads) / std::max(1, tp));
  return 2.0 * m.layers * heads_per_gpu * m.head_dim * kvBytes(kv);
}

// Dense tensor peak (TFLOPS) the weight format's math runs at on this GPU: W8A8 and W4A4 formats use the GPU's
// fp8/int8/fp4 tensor cores when it has them; weight-only formats (and GPUs without them) compute in 16 bits.
double mathTflops(WeightFormat w, const GpuSpec& g) {
  double p16 = g.peak(Precision::kBf16) > 0 ? g.peak(Precision::kBf16) : g.peak(Precision::kFp16);
  if (p16 <= 0) p16 = g.peak(Precision::kFp32);
  Precision native = Precision::kFp16;
  if (w == WeightFormat::kFp8) native = Precision::kFp8;
  else if (w == WeightFormat::kInt8) native = Precision::kInt8;
  else if (w == WeightFormat::kFp4) native = Precision::kFp4;
  else return p16;
  return g.peak(native) > 0 ? g.peak(native) : p16;
}

double stackFactor(const ServingConfig& c, const ServingConstants& k) {
  return c.software == ServingStack::kTypical ? k.typical_factor : 1.0;
}

// The stack's factor and, on a Blackwell or CDNA 3 GPU, ServingConstants::blackwell_eff or cdna3_eff: what multiplies
// every peak and bandwidth the efficiencies apply to.
double hardwareFactor(const ServingConfig& c, const GpuSpec& g, const ServingConstants& k) {
  const double arch = g.architecture == "blackwell" ? k.blackwell_eff : g.architecture == "cdna3" ? k.cdna3_eff : 1.0;
  return stackFactor(c, k) * arch;
}

// FLOP/s per GPU of math in format `w`: the format's peak × compute efficiency (× the 8- and 4-bit factor when
// the math runs on fp8/int8/fp4 tensor cores) × the stack's factor.
double formatFlops(const ServingConfig& c, WeightFormat w, const GpuSpec& g, const ServingConstants& k) {
  const double p16 = mathTflops(WeightFormat::kBf16, g), peak = mathTflops(w, g);
  const double eff = k.compute_eff * (peak > p16 ? k.low_precision_eff : 1.0);
  return peak * 1e12 * eff * hardwareFactor(c, g, k);
}

// The weight GEMMs run in the weight format.
double mathFlops(const ServingConfig& c, const GpuSpec& g, const ServingConstants& k) {
  return formatFlops(c, c.weights, g, k);
}

// Attention (scores and values) runs at 8 bits at most: with fp4 weights the KV cache is fp8 or 16-bit and
// TensorRT-LLM's attention kernels take FP8 or 16-bit inputs (FP8 context FMHA and FP8 KV cache:
// https://nvidia.github.io/TensorRT-LLM/advanced/gpt-attention.html; an NVFP4 KV cache needs a separate offline
// ModelOpt calibration, https://nvidia.github.io/TensorRT-LLM/features/quantization.html, and is not modelled), so
// fp4 models compute attention at the fp8 peak.
double attentionFlops(const ServingConfig& c, const GpuSpec& g, const ServingConstants& k) {
  return formatFlops(c, c.weights == WeightFormat::kFp4 ? WeightFormat::kFp8 : c.weights, g, k);
}

// Bytes of weights one GPU reads for `tokens` tokens in one forward pass. MoE: the shared layers, plus the
// experts the tokens route to; with k of E experts per token chosen independently, a layer's expert is touched
// with probability 1 − (1 − k/E)^tokens.
double weightBytesRead(const ServingConfig& c, int tp, double tokens) {
  const ServingModel& m = c.model;
  double params = m.params;
  if (m.experts > 0 && m.experts_per_token > 0 && m.experts > m.experts_per_token && m.params > m.active_params) {
    const double per_expert = (m.params - m.active_params) / (m.experts - m.experts_per_token);
    const double shared = m.params - m.experts * per_expert;
    const double touched = 1.0 - std::pow(1.0 - static_cast<double>(m.experts_per_token) / m.experts, std::max(0.0, tokens));
    params = shared + m.experts * per_expert * touched;
  }
  return params * weightBytes(c.weights) / std::max(1, tp);
}

// Two all-reduces per layer (after attention and after the MLP; Shoeybi et al. 2019, arXiv:1909.08053, §3) of
// tokens × hidden 16-bit activations, as a ring: 2(t−1)/t of the bytes over each GPU's link.
double allReduceSeconds(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double tokens) {
  const int tp = std::max(1, h.tensor_parallel);
  if (tp <= 1 || !h.gpu) return 0;
  const bool nvlink = h.nvlink && h.gpu->nvlink_gbs > 0;
  // PCIe x16 per direction: 15.75 GB/s at gen 3, doubling each generation (PCI-SIG specifications).
  const double pcie_gbs = 15.75 * std::pow(2.0, std::max(0, h.gpu->pcie_gen - 3));
  const double link_gbs = nvlink ? h.gpu->nvlink_gbs / 2.0 * k.nvlink_eff : pcie_gbs * k.pcie_eff;
  const double latency_s = (nvlink ? k.allreduce_latency_nvlink_us : k.allreduce_latency_pcie_us) * 1e-6;
  const double bytes = tokens * c.model.hidden * 2.0;
  const double per_all_reduce = latency_s + 2.0 * (tp - 1) / tp * bytes / (link_gbs * kGB);
  return 2.0 * c.model.layers * per_all_reduce;
}

double attentionWidth(const ServingModel& m) { return static_cast<double>(m.heads) * m.head_dim; }

// GEMM time from its weight-reading and math times: the longer, plus the share of the shorter that does not
// overlap it (ServingConstants::gemm_overlap).
double gemmSeconds(double read_s, double math_s, const ServingConstants& k) {
  return std::max(read_s, math_s) + (1.0 - k.gemm_overlap) * std::min(read_s, math_s);
}

}  // namespace

ServingMemory servingMemory(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k) {
  ServingMemory mem;
  if (!h.gpu) return mem;
  const int tp = std::max(1, h.tensor_parallel);
  mem.weights_gb = c.model.params * weightBytes(c.weights) / tp / kGB;
  mem.overhead_gb = k.overhead_gb;
  mem.free_gb = h.gpu->memory_gb - mem.weights_gb - mem.overhead_gb;
  mem.kv_cache_gb = std::max(0.0, mem.free_gb * k.kv_fraction);
  mem.kv_bytes_per_token = kvBytesPerToken(c.model, c.kv);
  const double per_gpu = kvBytesPerTokenPerGpu(c.model, c.kv, tp);
  mem.kv_tokens = per_gpu > 0 ? mem.kv_cache_gb * kGB / per_gpu : 0;
  // With a paged KV cache a request holds its input and the output generated so far: on average input + output/2.
  const double mean_context = c.traffic.input_tokens + c.traffic.output_tokens / 2.0;
  mem.max_batch = static_cast<int>(std::min(1e7, std::floor(mem.kv_tokens / std::max(1.0, mean_context))));
  mem.fits = mem.free_gb > 0 &&
             mem.kv_tokens >= c.traffic.input_tokens + c.traffic.output_tokens && mem.max_batch >= 1;
  return mem;
}

ServingStep decodeStep(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double batch) {
  // Steady state of continuous batching with chunked prefill (Agrawal et al. 2024, Sarathi-Serve, arXiv:2403.02310):
  // every step decodes one token of each of `batch` requests and prefills batch·in/out input tokens, so that
  // requests enter as fast as they leave.
  return mixedStep(c, h, k, batch, batch * c.traffic.input_tokens / std::max(1.0, c.traffic.output_tokens));
}

ServingStep mixedStep(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double batch,
                      double prefill_tokens) {
  ServingStep s;
  if (!h.gpu || batch < 0 || prefill_tokens < 0 || batch + prefill_tokens <= 0) return s;
  const ServingModel& m = c.model;
  const int tp = std::max(1, h.tensor_parallel);
  const double in = c.traffic.input_tokens, out = std::max(1.0, c.traffic.output_tokens);
  const double context = in + out / 2.0;
  const double tokens = batch + prefill_tokens;
  const double bw = h.gpu->memory_bandwidth_gbs * kGB * hardwareFactor(c, *h.gpu, k);
  const double flops_per_s = mathFlops(c, *h.gpu, k);
  // Weight GEMMs: a roofline of reading the weights against 2 FLOPs per active parameter and token.
  s.memory_s = weightBytesRead(c, tp, tokens) / (bw * k.hbm_eff);
  s.compute_s = 2.0 * m.active_params * tokens / tp / flops_per_s;
  // Attention, a kernel of its own between the GEMMs: decode reads each request's KV cache (mean context), and
  // scores and values cost 4 × layers × heads × head size FLOPs per token and attended position (a prefill token
  // attends on average half the input).
  const double kv_read_s = batch * context * kvBytesPerTokenPerGpu(m, c.kv, tp) / (bw * k.kv_eff);
  const double attention_flops = 4.0 * m.layers * attentionWidth(m) * (batch * context + prefill_tokens * in / 2.0) / tp;
  s.attention_s = std::max(kv_read_s, attention_flops / attentionFlops(c, *h.gpu, k));
  s.comm_s = allReduceSeconds(c, h, k, tokens);
  s.compute_bound = s.compute_s > s.memory_s;
  s.time_s = gemmSeconds(s.memory_s, s.compute_s, k) + s.attention_s + s.comm_s;
  return s;
}

InterTokenGaps interTokenGaps(double rate, double mean_step_s, double plain_step_s, double chunks_per_request) {
  InterTokenGaps g;
  g.median_s = mean_step_s;
  if (!(rate > 0) || !(mean_step_s > 0) || !(chunks_per_request > 0)) return g;
  g.prefill_step_share = 1.0 - std::exp(-rate * mean_step_s * chunks_per_request);
  const double plain = std::min(plain_step_s, mean_step_s);
  g.median_s = g.prefill_step_share < 0.5 ? plain : plain + (mean_step_s - plain) / g.prefill_step_share;
  return g;
}

namespace {
// The prefill tokens one step carries beside the decode of `batch` requests (decode first, then prefill chunks).
double prefillTokensPerStep(const ServingConstants& k, double batch) { return std::max(1.0, k.prefill_chunk_tokens - batch); }
}  // namespace

double prefillInStepsSeconds(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double batch) {
  const double in = c.traffic.input_tokens;
  if (!h.gpu || in <= 0) return 0;
  const double b = std::max(0.0, batch);
  const double per_step = prefillTokensPerStep(k, b);
  const double full_steps = std::ceil(in / per_step) - 1;
  return full_steps * mixedStep(c, h, k, b, per_step).time_s + mixedStep(c, h, k, b, in - full_steps * per_step).time_s;
}

double prefillSeconds(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k) {
  if (!h.gpu) return 0;
  const ServingModel& m = c.model;
  const int tp = std::max(1, h.tensor_parallel);
  const double in = c.traffic.input_tokens;
  const double gemm_flops = 2.0 * m.active_params * in / tp;
  const double attention_flops = 4.0 * m.layers * attentionWidth(m) * in * in / 2.0 / tp;
  const double compute = gemm_flops / mathFlops(c, *h.gpu, k) + attention_flops / attentionFlops(c, *h.gpu, k);
  const double read = weightBytesRead(c, tp, in) / (h.gpu->memory_bandwidth_gbs * kGB * k.hbm_eff * hardwareFactor(c, *h.gpu, k));
  return gemmSeconds(read, compute, k) + allReduceSeconds(c, h, k, in);
}

double queueWaitSeconds(double load, double service_s, double percentile) {
  if (load <= 0 || service_s <= 0) return 0;
  if (load >= 1) return std::numeric_limits<double>::infinity();
  const double tail = 1.0 - std::min(99.99, std::max(0.0, percentile)) / 100.0;
  if (load <= tail) return 0;
  return std::log(load / tail) * service_s / (1.0 - load);
}

namespace {

// Largest batch in [1, max_batch] whose step meets the TPOT target (steps grow with the batch).
int batchForTpot(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, int max_batch) {
  const double target_s = c.targets.tpot_ms / 1000.0;
  if (target_s <= 0) return max_batch;
  int lo = 1, hi = max_batch;
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (decodeStep(c, h, k, mid).time_s <= target_s) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// The batch a replica holds at an arrival rate (Little's law: batch = rate × output tokens × step time), found
// by bisection between 0 and the capacity's batch.
double batchAtRate(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, double rate, int cap) {
  const double out = std::max(1.0, c.traffic.output_tokens);
  double lo = 0, hi = cap;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    const double need = rate * out * decodeStep(c, h, k, std::max(mid, 1e-9)).time_s;
    (need > mid ? lo : hi) = mid;
  }
  return hi;
}

// TTFT at a load (share of the replica's capacity, p.requests_per_s): the rest of the step in progress when the
// request arrives, the M/M/1 wait of its prefill, and its prefill in steps beside the batch's decode. The batch is
// the mean number of requests decoding (Little's law); with Poisson arrivals and decode phases that do not wait for
// each other it is Poisson distributed (the M/G/∞ queue: P(none) = e^−batch for any decode-time distribution,
// https://real-statistics.com/probability-functions/queueing-theory/m-g-infinity-queueing-model), so a step is in
// progress with probability 1 − e^−batch, and then half of it is left on average (arrivals fall anywhere in it).
double ttftSeconds(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, const ServingPlan& p,
                   double load) {
  const double batch = batchAtRate(c, h, k, load * p.requests_per_s, p.batch);
  const double step_in_progress_s = batch > 0 ? (1.0 - std::exp(-batch)) * decodeStep(c, h, k, batch).time_s / 2 : 0;
  return step_in_progress_s + prefillInStepsSeconds(c, h, k, batch) + queueWaitSeconds(load, p.prefill_s, c.targets.percentile);
}

// Highest load in [0, cap] whose TTFT at the percentile meets the target (TTFT grows with the load).
double loadForTtft(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, const ServingPlan& p,
                   double target_s, double cap) {
  if (ttftSeconds(c, h, k, p, cap) <= target_s) return cap;
  double lo = 0, hi = cap;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (ttftSeconds(c, h, k, p, mid) <= target_s ? lo : hi) = mid;
  }
  return lo;
}

bool fitsWith(ServingConfig c, ServingHardware h, const ServingConstants& k, int tp, WeightFormat w, KvFormat kv) {
  c.weights = w;
  c.kv = kv;
  h.tensor_parallel = tp;
  return servingMemory(c, h, k).fits;
}

// What would fit: more GPUs of the kind (the next powers of two up to 64), or the same GPUs with fp8 weights and
// KV cache, or int4 weights.
void fitHints(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k, Messages& hints) {
  for (int tp = 1; tp <= 64; tp *= 2)
    if (tp > h.tensor_parallel && fitsWith(c, h, k, tp, c.weights, c.kv)) {
      hints.push_back(Message("serve.hint_more_gpus").num("gpu_count", tp));
      break;
    }
  if (weightBytes(c.weights) > 1 && fitsWith(c, h, k, h.tensor_parallel, WeightFormat::kFp8, KvFormat::kFp8))
    hints.push_back(Message("serve.hint_precision").text("weights", "fp8").text("kv", "fp8"));
  else if (weightBytes(c.weights) > 0.5 && fitsWith(c, h, k, h.tensor_parallel, WeightFormat::kInt4, KvFormat::kFp8))
    hints.push_back(Message("serve.hint_precision").text("weights", "int4").text("kv", "fp8"));
  if (hints.empty()) hints.push_back(Message("serve.hint_no_fit"));
}

}  // namespace

ServingPlan planServing(const ServingConfig& c, const ServingHardware& h, const ServingConstants& k) {
  ServingPlan p;
  p.memory = servingMemory(c, h, k);
  if (!p.memory.fits) {
    fitHints(c, h, k, p.hints);
    return p;
  }
  p.batch = batchForTpot(c, h, k, p.memory.max_batch);
  p.step = decodeStep(c, h, k, p.batch);
  p.tpot_met = c.targets.tpot_ms <= 0 || p.step.time_s * 1000.0 <= c.targets.tpot_ms;
  const double out = std::max(1.0, c.traffic.output_tokens);
  p.output_tokens_per_s = p.batch / p.step.time_s;
  p.requests_per_s = p.output_tokens_per_s / out;
  p.prefill_s = prefillSeconds(c, h, k);
  if (!p.tpot_met)
    p.hints.push_back(Message("serve.tpot_unreachable").num("tpot_ms", c.targets.tpot_ms).num("min_tpot_ms", p.step.time_s * 1000.0));
  // Without a TTFT target replicas run at the highest load a queue stays stable at (kMaxLoad).
  constexpr double kMaxLoad = 0.95;  // assumption: M/M/1 waits grow as 1/(1 − load); 5 % headroom bounds them
  p.load_fraction = kMaxLoad;
  if (c.targets.ttft_ms > 0) {
    const double target_s = c.targets.ttft_ms / 1000.0;
    const double min_ttft_s = ttftSeconds(c, h, k, p, 0);
    p.ttft_met = min_ttft_s <= target_s;
    p.load_fraction = p.ttft_met ? loadForTtft(c, h, k, p, target_s, kMaxLoad) : 0;
    if (!p.ttft_met)
      p.hints.push_back(Message("serve.ttft_unreachable").num("ttft_ms", c.targets.ttft_ms).num("min_ttft_ms", min_ttft_s * 1000.0));
  }
  p.sustainable_requests_per_s = p.requests_per_s * p.load_fraction;
  p.sustainable_output_tokens_per_s = p.output_tokens_per_s * p.load_fraction;
  // The operating point: the traffic's rate per replica, or the sustainable load of one replica without traffic.
  double rate = p.sustainable_requests_per_s;
  if (c.traffic.requests_per_s > 0 && p.sustainable_requests_per_s > 0) {
    p.replicas = static_cast<int>(std::min(1e9, std::ceil(c.traffic.requests_per_s / p.sustainable_requests_per_s - 1e-9)));
    rate = c.traffic.requests_per_s / p.replicas;
  }
  if (rate <= 0) return p;
  p.operating_load = rate / p.requests_per_s;
  p.operating_batch = batchAtRate(c, h, k, rate, p.batch);
  p.tpot_s = decodeStep(c, h, k, std::max(1.0, p.operating_batch)).time_s;
  p.ttft_s = ttftSeconds(c, h, k, p, p.operating_load);
  const double batch = std::max(1.0, p.operating_batch);
  const double chunks = std::ceil(c.traffic.input_tokens / prefillTokensPerStep(k, batch));
  const InterTokenGaps gaps = interTokenGaps(rate, p.tpot_s, mixedStep(c, h, k, batch, 0).time_s, chunks);
  p.prefill_step_share = gaps.prefill_step_share;
  p.itl_median_s = gaps.median_s;
  // GPU time per request if prefill and decode ran apart: its prefill, and its share of output_tokens steps.
  const double decode_s = out * p.tpot_s / std::max(1.0, p.operating_batch);
  p.prefill_share = p.prefill_s / (p.prefill_s + decode_s);
  return p;
}

int spareInstances(int needed, double down_share, double full_capacity_share) {
  if (needed <= 0 || !(down_share > 0)) return 0;
  const double u = std::min(down_share, 1.0 - 1e-12);
  const double allowed = 1.0 - full_capacity_share;
  for (int spares = 0; spares < 1000; ++spares) {
    // P(X ≤ spares) for X ~ Binomial(needed + spares, u), summed term by term (the terms' ratio is (n − k)/(k + 1) · u/(1 − u)).
    const int n = needed + spares;
    double term = std::pow(1.0 - u, n);
    double at_most = term;
    for (int k = 0; k < spares; ++k) {
      term *= static_cast<double>(n - k) / (k + 1) * u / (1.0 - u);
      at_most += term;
    }
    if (1.0 - at_most <= allowed) return spares;
  }
  return 1000;
}

ServingCost priceServing(const ServingPlan& p, const ServingConfig& c, int tensor_parallel, int gpus_per_instance,
                         double usd_per_instance_hour, const SpotReplacement& spot) {
  ServingCost cost;
  cost.replicas_per_instance = gpus_per_instance / std::max(1, tensor_parallel);
  if (cost.replicas_per_instance <= 0 || p.sustainable_requests_per_s <= 0) return cost;
  double rate = p.sustainable_requests_per_s * cost.replicas_per_instance;
  cost.instances = 1;
  if (c.traffic.requests_per_s > 0 && p.replicas > 0) {
    rate = c.traffic.requests_per_s;
    cost.instances = (p.replicas + cost.replicas_per_instance - 1) / cost.replicas_per_instance;
  }
  if (spot.interruptions_per_hour > 0 && spot.replace_hours > 0) {
    const double lr = spot.interruptions_per_hour * spot.replace_hours;
    cost.instance_down_share = lr / (1.0 + lr);
    cost.spare_instances = spareInstances(cost.instances, cost.instance_down_share, spot.full_capacity_share);
    cost.instances += cost.spare_instances;
  }
  cost.usd_per_hour = cost.instances * usd_per_instance_hour;
  cost.monthly_usd = cost.usd_per_hour * kHoursPerMonth;
  cost.input_tokens_per_hour = rate * c.traffic.input_tokens * 3600.0;
  cost.output_tokens_per_hour = rate * c.traffic.output_tokens * 3600.0;
  const double all = cost.input_tokens_per_hour + cost.output_tokens_per_hour;
  if (cost.input_tokens_per_hour > 0) cost.usd_per_million_input = cost.usd_per_hour * p.prefill_share / cost.input_tokens_per_hour * 1e6;
  if (cost.output_tokens_per_hour > 0)
    cost.usd_per_million_output = cost.usd_per_hour * (1.0 - p.prefill_share) / cost.output_tokens_per_hour * 1e6;
  if (all > 0) cost.usd_per_million_blended = cost.usd_per_hour / all * 1e6;
  return cost;
}

}  // namespace gpuvalue
