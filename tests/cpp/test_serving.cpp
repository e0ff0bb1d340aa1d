#include <catch2/catch.hpp>

#include <cmath>

#include "model/serving.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using gpuvalue_test::parse;

namespace {

using gpuvalue_test::gpuDatabase;

// Llama 3.1 70B (data/serving-presets.json): 80 layers, hidden 8192, 64 query / 8 KV heads of 128.
ServingConfig llama70b() {
  ServingConfig c;
  c.model.params = 70.6e9;
  c.model.active_params = 70.6e9;
  c.model.layers = 80;
  c.model.hidden = 8192;
  c.model.heads = 64;
  c.model.kv_heads = 8;
  c.model.head_dim = 128;
  c.traffic.input_tokens = 1000;
  c.traffic.output_tokens = 300;
  return c;
}

// Llama 3.1 8B: 32 layers, hidden 4096, 32 query / 8 KV heads of 128.
ServingConfig llama8b() {
  ServingConfig c = llama70b();
  c.model.params = c.model.active_params = 8.03e9;
  c.model.layers = 32;
  c.model.hidden = 4096;
  c.model.heads = 32;
  return c;
}

ServingHardware on(const char* gpu, int tp) {
  ServingHardware h;
  h.gpu = gpuDatabase().find(gpu);
  REQUIRE(h.gpu);
  h.tensor_parallel = tp;
  h.nvlink = true;
  return h;
}

}  // namespace

TEST_CASE("Llama 3.1 70B's KV cache takes 2 x layers x KV heads x head size x bytes per token", "[serving][memory]") {
  ServingConfig c = llama70b();
  // 2 (K and V) x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes per token (320 KiB) at fp16.
  CHECK(kvBytesPerToken(c.model, KvFormat::kFp16) == 327680.0);
  // An fp8 cache halves it: 163,840 bytes.
  CHECK(kvBytesPerToken(c.model, KvFormat::kFp8) == 163840.0);

  // On 4 H100 80GB (TP4), bf16 weights, 1.5 GB runtime overhead per GPU and 90 % of what is left for the KV cache:
  // weights 70.6e9 x 2 / 4 = 35.3 GB; free 80 - 35.3 - 1.5 = 43.2 GB; KV cache 0.9 x 43.2 = 38.88 GB per GPU. Each
  // GPU holds 8/4 = 2 KV heads: 2 x 80 x 2 x 128 x 2 = 81,920 bytes per token, so 38.88e9 / 81,920 = 474,609.375
  // tokens. At 1,000 input and 300 output tokens a request holds 1,000 + 150 = 1,150 tokens on average:
  // floor(474,609.375 / 1,150) = floor(412.7) = 412 concurrent requests.
  ServingConstants k;
  k.kv_fraction = 0.9;
  k.overhead_gb = 1.5;
  const ServingMemory m = servingMemory(c, on("h100-sxm5-80gb", 4), k);
  CHECK_THAT(m.weights_gb, WithinRel(35.3, 1e-12));
  CHECK_THAT(m.free_gb, WithinRel(43.2, 1e-9));
  CHECK_THAT(m.kv_cache_gb, WithinRel(38.88, 1e-9));
  CHECK_THAT(m.kv_tokens, WithinRel(38.88e9 / 81920.0, 1e-9));
  CHECK(m.max_batch == 412);
  CHECK(m.fits);

  // On one of them the bf16 weights alone (141.2 GB) exceed the 80 GB.
  CHECK_FALSE(servingMemory(c, on("h100-sxm5-80gb", 1), k).fits);
}

TEST_CASE("NVFP4 weights take 4.5 bits with their block scales, and fp4 models compute attention at the fp8 peak", "[serving][fp4]") {
  // 16 four-bit values share one 8-bit scale: (16 x 4 + 8) / 16 = 4.5 bits = 0.5625 bytes per weight.
  CHECK(weightBytes(WeightFormat::kFp4) == 0.5625);
  CHECK(weightBytes(WeightFormat::kInt4) == 0.5);
  ServingConfig c = llama70b();
  c.weights = WeightFormat::kFp4;
  c.kv = KvFormat::kFp8;
  const ServingHardware h = on("b200", 1);
  const ServingConstants k;
  // 70.6e9 weights x 0.5625 bytes = 39.7 GB on one B200.
  CHECK_THAT(servingMemory(c, h, k).weights_gb, WithinRel(39.7125, 1e-9));
  // A 20,000-token prefill: the GEMMs at the fp4 peak (9,000 TFLOPS x 0.7 x 0.8), attention (4 x 80 layers x 8,192
  // x 20,000^2 / 2 FLOPs) at the fp8 peak (4,500 TFLOPS x 0.7 x 0.8), after one read of the weights; all at the
  // Blackwell factor (0.75) of those peaks and of the bandwidth.
  c.traffic.input_tokens = 20000;
  REQUIRE(k.blackwell_eff == 0.75);
  const double gemm_s = 2 * 70.6e9 * 20000 / (9000e12 * 0.56 * 0.75);
  const double attention_s = 4.0 * 80 * 8192 * 20000.0 * 20000 / 2 / (4500e12 * 0.56 * 0.75);
  const double read_s = 70.6e9 * 0.5625 / (7700e9 * 0.7 * 0.75);
  CHECK_THAT(prefillSeconds(c, h, k), WithinRel(gemm_s + attention_s + read_s, 1e-9));
}

TEST_CASE("an architecture's factor slows every part of its GPUs' step and prefill, and no other GPU's", "[serving][decode]") {
  ServingConfig c = llama70b();
  c.weights = WeightFormat::kFp8;
  c.kv = KvFormat::kFp8;
  ServingConstants none;
  none.blackwell_eff = 1.0;
  none.cdna3_eff = 1.0;
  const ServingConstants fitted;
  REQUIRE(fitted.blackwell_eff == 0.75);
  REQUIRE(fitted.cdna3_eff == 0.6);
  // One GPU (no all-reduce): weights, GEMM math, KV reads and attention all scale, so the step takes 1 / factor as
  // long; Hopper is what the other efficiencies were fitted on: unchanged.
  const struct { const char* gpu; double factor; } cases[] = {{"b200", 0.75}, {"mi300x", 0.6}, {"h200-sxm-141gb", 1.0}, {"h100-sxm5-80gb", 1.0}};
  for (const auto& t : cases) {
    INFO(t.gpu);
    const ServingHardware h = on(t.gpu, 1);
    CHECK_THAT(mixedStep(c, h, fitted, 64, 512).time_s, WithinRel(mixedStep(c, h, none, 64, 512).time_s / t.factor, 1e-12));
    CHECK_THAT(prefillSeconds(c, h, fitted), WithinRel(prefillSeconds(c, h, none) / t.factor, 1e-12));
  }
}

TEST_CASE("tensor parallelism shards weights and KV heads, and replicates KV heads past their count", "[serving][memory]") {
  ServingConfig c = llama70b();
  ServingConstants k;
  const ServingMemory tp4 = servingMemory(c, on("h200-sxm-141gb", 4), k);
  const ServingMemory tp8 = servingMemory(c, on("h200-sxm-141gb", 8), k);
  const ServingMemory tp16 = servingMemory(c, on("h200-sxm-141gb", 16), k);
  CHECK_THAT(tp8.weights_gb, WithinRel(tp4.weights_gb / 2, 1e-12));
  // Per GPU: TP4 holds 2 KV heads, TP8 one; TP16 still one (8 KV heads cannot be split 16 ways: replicated).
  // Tokens = KV space / per-GPU bytes per token: 2 x 80 x heads_per_gpu x 128 x 2.
  CHECK_THAT(tp4.kv_tokens, WithinRel(tp4.kv_cache_gb * 1e9 / (2.0 * 80 * 2 * 128 * 2), 1e-12));
  CHECK_THAT(tp8.kv_tokens, WithinRel(tp8.kv_cache_gb * 1e9 / (2.0 * 80 * 1 * 128 * 2), 1e-12));
  CHECK_THAT(tp16.kv_tokens, WithinRel(tp16.kv_cache_gb * 1e9 / (2.0 * 80 * 1 * 128 * 2), 1e-12));
  // A replica on more GPUs holds more concurrent requests.
  CHECK(tp8.max_batch > tp4.max_batch);
}

TEST_CASE("decode at batch 1 is bound by reading the weights and the KV cache from HBM", "[serving][decode]") {
  ServingConfig c = llama8b();
  ServingConstants k;
  k.hbm_eff = 0.8;
  k.kv_eff = 0.8;
  k.gemm_overlap = 1;  // the classic roofline: a GEMM takes the longer of its reading and its math
  const ServingHardware h100 = on("h100-sxm5-80gb", 1);
  const ServingStep s = decodeStep(c, h100, k, 1);
  // Weights 8.03e9 x 2 bytes (bf16) and 1 request x 1,150 mean context x 131,072 bytes of KV (2 x 32 x 8 x 128 x 2)
  // = 16.06e9 + 150,732,800 = 16,210,732,800 bytes at 3,350 GB/s x 0.8 = 2,680 GB/s: 6.04878 ms.
  CHECK_THAT(s.memory_s, WithinRel(16.06e9 / 2680e9, 1e-12));
  CHECK_THAT(s.memory_s + s.attention_s, WithinRel(16210732800.0 / 2680e9, 1e-12));
  CHECK_FALSE(s.compute_bound);
  CHECK(s.comm_s == 0);
  CHECK_THAT(s.time_s, WithinRel(16210732800.0 / 2680e9, 1e-12));
  // One request cannot get more tokens/s than the bandwidth over the weight bytes: 3,350e9 / 16.06e9 = 208.6.
  CHECK(1.0 / s.time_s < 3350e9 / 16.06e9);
  CHECK(1.0 / decodeStep(c, h100, ServingConstants(), 1).time_s < 3350e9 / 16.06e9);
  // While memory-bound, H200 (4,800 GB/s) speeds a step up by the bandwidth ratio, not the compute ratio (equal).
  const ServingStep h200 = decodeStep(c, on("h200-sxm-141gb", 1), k, 1);
  CHECK_THAT(s.time_s / h200.time_s, WithinRel(4800.0 / 3350.0, 1e-12));
  // At large batch the weight GEMMs turn compute-bound.
  CHECK(decodeStep(c, h100, k, 2048).compute_bound);
}

TEST_CASE("an MoE step reads only the experts its tokens route to", "[serving][decode]") {
  // Mixtral 8x7B: 46.7e9 parameters, 12.9e9 active, 8 experts, 2 per token.
  ServingConfig moe = llama8b();
  moe.model.params = 46.7e9;
  moe.model.active_params = 12.9e9;
  moe.model.experts = 8;
  moe.model.experts_per_token = 2;
  moe.traffic.input_tokens = 1;
  moe.traffic.output_tokens = 1000;
  ServingConfig dense = moe;
  dense.model.experts = 0;
  dense.model.active_params = dense.model.params;
  ServingConstants k;
  const ServingHardware h = on("h200-sxm-141gb", 1);
  // Weights only (memory_s): one token per step touches a layer's expert with probability 2/8: per expert (46.7 - 12.9)e9 / 6 = 5.633e9,
  // shared 46.7e9 - 8 x 5.633e9 = 1.633e9; read = 1.633e9 + 8 x 5.633e9 x (1 - 0.75^1.001) ~ 12.9e9 of 46.7e9.
  const double moe_s = decodeStep(moe, h, k, 1).memory_s, dense_s = decodeStep(dense, h, k, 1).memory_s;
  CHECK_THAT(moe_s / dense_s, WithinRel(12.9 / 46.7, 0.01));
  // A large batch touches every expert: the whole model is read.
  CHECK_THAT(decodeStep(moe, h, k, 4096).memory_s - decodeStep(dense, h, k, 4096).memory_s, WithinAbs(0, 1e-9));
}

TEST_CASE("tensor-parallel all-reduce costs more over PCIe than over NVLink", "[serving][comm]") {
  ServingConfig c = llama70b();
  ServingConstants k;
  ServingHardware nv = on("h100-sxm5-80gb", 4);
  ServingHardware pcie = nv;
  pcie.nvlink = false;
  const ServingStep a = decodeStep(c, nv, k, 64), b = decodeStep(c, pcie, k, 64);
  // 64 decode + 64 x 1000/300 prefill tokens x 8192 x 2 bytes per all-reduce, 2 per layer x 80 layers, ring 2(t-1)/t:
  // NVLink 900/2 x 0.77 GB/s, PCIe gen 5 63 x 0.75 GB/s, plus 10 and 25 µs per all-reduce.
  const double bytes = (64 + 64 * 1000.0 / 300) * 8192 * 2, ring = 2.0 * 3 / 4;
  CHECK_THAT(a.comm_s, WithinRel(160 * (10e-6 + ring * bytes / (450e9 * 0.77)), 1e-9));
  CHECK_THAT(b.comm_s, WithinRel(160 * (25e-6 + ring * bytes / (63e9 * 0.75)), 1e-9));
  CHECK(decodeStep(c, on("h100-sxm5-80gb", 1), k, 64).comm_s == 0);
}

TEST_CASE("a model that does not fit says which GPU count or format would", "[serving][hints]") {
  // Llama 3.1 405B in bf16 on 8 H100 80GB: 405.9e9 x 2 / 8 = 101.5 GB of weights per GPU > 80 GB.
  ServingConfig c = llama70b();
  c.model.params = c.model.active_params = 405.9e9;
  c.model.layers = 126;
  c.model.hidden = 16384;
  c.model.heads = 128;
  ServingConstants k;
  const ServingPlan p = planServing(c, on("h100-sxm5-80gb", 8), k);
  CHECK_FALSE(p.memory.fits);
  CHECK(p.batch == 0);
  // 16 GPUs: 50.7 GB + 1.5 GB < 80 GB. fp8 on the 8: 50.7 GB of weights too.
  REQUIRE(p.hints.size() == 2);
  CHECK(p.hints[0].code() == "serve.hint_more_gpus");
  CHECK(p.hints[0].params()[0].number == 16);
  CHECK(p.hints[1].code() == "serve.hint_precision");
  CHECK(p.hints[1].params()[0].text == "fp8");
  // A 671e9-parameter model in bf16 fits nowhere near a 16 GB T4: 671e9 x 2 / 64 = 21 GB per GPU even on 64,
  // and neither fp8 (671 GB) nor int4 (335.5 GB) fits on one.
  c.model.params = c.model.active_params = 671e9;
  const ServingPlan t4 = planServing(c, on("t4", 1), k);
  REQUIRE(t4.hints.size() == 1);
  CHECK(t4.hints[0].code() == "serve.hint_no_fit");
}

TEST_CASE("the batch chosen is the largest whose step meets the TPOT target", "[serving][targets]") {
  ServingConfig c = llama70b();
  c.targets.tpot_ms = 30;
  ServingConstants k;
  const ServingHardware h = on("h100-sxm5-80gb", 4);
  const ServingPlan p = planServing(c, h, k);
  REQUIRE(p.tpot_met);
  CHECK(p.step.time_s <= 0.030);
  CHECK(p.batch < p.memory.max_batch);
  CHECK(decodeStep(c, h, k, p.batch + 1).time_s > 0.030);
  // A target below the batch-1 step cannot be met, and says so with the smallest TPOT reachable.
  c.targets.tpot_ms = 1;
  const ServingPlan q = planServing(c, h, k);
  CHECK_FALSE(q.tpot_met);
  REQUIRE_FALSE(q.hints.empty());
  CHECK(q.hints[0].code() == "serve.tpot_unreachable");
}

TEST_CASE("TTFT waits follow the M/M/1 waiting-time percentile", "[serving][targets]") {
  // P(W > t) = load x exp(-(1 - load) t / S): at load 0.5, S = 1 s, the 90th percentile is ln(0.5/0.1) / 0.5 = 3.2189 s.
  CHECK_THAT(queueWaitSeconds(0.5, 1.0, 90), WithinRel(2.0 * std::log(5.0), 1e-12));
  // Below load 1 - p the percentile request does not wait at all.
  CHECK(queueWaitSeconds(0.05, 1.0, 90) == 0);
  CHECK(std::isinf(queueWaitSeconds(1.0, 1.0, 50)));
  // A plan under a TTFT target loads replicas only as far as the target allows, and the traffic gets enough replicas.
  ServingConfig c = llama8b();
  c.traffic.requests_per_s = 50;
  c.targets.ttft_ms = 200;
  c.targets.percentile = 90;
  ServingConstants k;
  const ServingPlan p = planServing(c, on("h100-sxm5-80gb", 1), k);
  REQUIRE(p.ttft_met);
  CHECK(p.ttft_s <= 0.200 + 1e-9);
  CHECK(p.replicas * p.sustainable_requests_per_s >= 50 - 1e-9);
  CHECK(p.operating_load <= p.load_fraction + 1e-12);
}

TEST_CASE("the median gap between tokens is the step without prefill while under half the steps carry a chunk", "[serving][latency]") {
  // 10 requests/s, a mean step of 20 ms, one chunk per prefill: arrivals per step ~ Poisson(0.2), so a step carries
  // a chunk with probability 1 - e^-0.2 = 0.181269 < 1/2 and the median gap is the 15 ms step without prefill.
  InterTokenGaps g = interTokenGaps(10, 0.020, 0.015, 1);
  CHECK_THAT(g.prefill_step_share, WithinRel(0.1812692469, 1e-9));
  CHECK_THAT(g.median_s, WithinRel(0.015, 1e-12));
  // Two chunks per prefill: each request's prefill covers two steps, share 1 - e^-0.4 = 0.329680.
  CHECK_THAT(interTokenGaps(10, 0.020, 0.015, 2).prefill_step_share, WithinRel(0.3296799540, 1e-9));
  // 50 requests/s: share 1 - e^-1 = 0.632121 > 1/2, so the median gap is a step with a chunk. The mean step is
  // 0.368 x 15 ms + 0.632 x chunk step = 20 ms: the chunk step is 15 + 5 / 0.632121 = 22.9099 ms.
  g = interTokenGaps(50, 0.020, 0.015, 1);
  CHECK_THAT(g.prefill_step_share, WithinRel(0.6321205588, 1e-9));
  CHECK_THAT(g.median_s, WithinRel(0.015 + 0.005 / 0.6321205588, 1e-9));
  // Without traffic nothing is mixed in: the median is the mean step.
  CHECK(interTokenGaps(0, 0.020, 0.015, 1).median_s == 0.020);

  // In a plan: Llama 3.1 8B on one H100 at 2 requests/s, 1,000 input tokens fit one 8,192-token step beside the batch.
  ServingConfig c = llama8b();
  c.traffic.requests_per_s = 2;
  ServingConstants k;
  const ServingHardware h = on("h100-sxm5-80gb", 1);
  const ServingPlan p = planServing(c, h, k);
  REQUIRE(p.replicas == 1);
  const double batch = std::max(1.0, p.operating_batch);
  CHECK_THAT(p.prefill_step_share, WithinRel(1 - std::exp(-2 * p.tpot_s), 1e-9));
  CHECK(p.prefill_step_share < 0.5);
  CHECK_THAT(p.itl_median_s, WithinRel(mixedStep(c, h, k, batch, 0).time_s, 1e-12));
  CHECK(p.itl_median_s < p.tpot_s);
  // The steady state's step is the step with batch x input / output prefill tokens.
  CHECK_THAT(decodeStep(c, h, k, batch).time_s, WithinRel(mixedStep(c, h, k, batch, batch * 1000 / 300).time_s, 1e-12));
  // A 600-token step budget leaves 600 - batch tokens for prefill chunks: 1,000 input tokens take two steps.
  k.prefill_chunk_tokens = 600;
  const ServingPlan q = planServing(c, h, k);
  REQUIRE(q.operating_batch < 100);
  CHECK_THAT(q.prefill_step_share, WithinRel(1 - std::exp(-2 * q.tpot_s * 2), 1e-9));
}

TEST_CASE("a prefill runs in steps beside the batch's decode, and the TTFT adds the step in progress and the wait", "[serving][latency]") {
  ServingConfig c = llama8b();
  ServingConstants k;
  const ServingHardware h = on("h100-sxm5-80gb", 1);
  // 1,000 input tokens and a 8,192-token step budget: one step with the batch's 20 decode tokens.
  CHECK_THAT(prefillInStepsSeconds(c, h, k, 20), WithinRel(mixedStep(c, h, k, 20, 1000).time_s, 1e-12));
  // A 420-token budget leaves 400 tokens a step beside 20 decode tokens: 400 + 400 + 200, three steps.
  k.prefill_chunk_tokens = 420;
  CHECK_THAT(prefillInStepsSeconds(c, h, k, 20),
             WithinRel(2 * mixedStep(c, h, k, 20, 400).time_s + mixedStep(c, h, k, 20, 200).time_s, 1e-12));
  // An idle replica: the prefill alone, as prefillSeconds prices it (16-bit, no overlap: reading + math + attention).
  k = ServingConstants{};
  CHECK_THAT(prefillInStepsSeconds(c, h, k, 0), WithinRel(prefillSeconds(c, h, k), 1e-9));

  // At 5 requests/s the TTFT (p50) is the rest of the step in progress, (1 − e^−batch) × step / 2 (a step runs
  // unless no request is decoding, Poisson with mean batch), the M/M/1 wait and the prefill in steps.
  c.traffic.requests_per_s = 5;
  const ServingPlan p = planServing(c, h, k);
  REQUIRE(p.replicas == 1);
  const double b = p.operating_batch;
  const double expected = (1 - std::exp(-b)) * decodeStep(c, h, k, b).time_s / 2 + prefillInStepsSeconds(c, h, k, b) +
                          queueWaitSeconds(p.operating_load, p.prefill_s, 50);
  CHECK_THAT(p.ttft_s, WithinRel(expected, 1e-9));
  CHECK(p.ttft_s > prefillSeconds(c, h, k));
}

TEST_CASE("serving cost splits GPU hours between input and output tokens by prefill share", "[serving][cost]") {
  ServingConfig c = llama8b();
  ServingPlan p;
  p.sustainable_requests_per_s = 2;
  p.prefill_share = 0.25;
  // 8 GPUs per instance, 2 per replica: 4 replicas x 2 requests/s = 8 requests/s, 1,000 in and 300 out each:
  // 28.8e6 input and 8.64e6 output tokens per hour at $10/h: input 10 x 0.25 / 28.8 = $0.0868 per million,
  // output 10 x 0.75 / 8.64 = $0.868, blended 10 / 37.44 = $0.267; a 730-hour month $7,300.
  const ServingCost cost = priceServing(p, c, 2, 8, 10.0);
  CHECK(cost.replicas_per_instance == 4);
  CHECK(cost.instances == 1);
  CHECK_THAT(cost.usd_per_million_input, WithinRel(10 * 0.25 / 28.8, 1e-12));
  CHECK_THAT(cost.usd_per_million_output, WithinRel(10 * 0.75 / 8.64, 1e-12));
  CHECK_THAT(cost.usd_per_million_blended, WithinRel(10 / 37.44, 1e-12));
  CHECK_THAT(cost.monthly_usd, WithinRel(7300.0, 1e-12));
  // A replica wider than the instance cannot be priced on it.
  CHECK(priceServing(p, c, 16, 8, 10.0).replicas_per_instance == 0);
}

TEST_CASE("a service on spot keeps spare instances for reclaimed ones", "[serving][cost][spot]") {
  // One reclaim per instance-day (λ = 1/24 per hour), replaced in 10 minutes (R = 1/6 h): λR = 1/144 and the share
  // of time one instance is down u = λR / (1 + λR) = 1/145 = 0.0069.
  const double u = 1.0 / 145;
  // 1 instance: down 0.69 % of the time, within the 1 % allowed: no spare.
  CHECK(spareInstances(1, u, 0.99) == 0);
  // 2 instances: one or both down 1 − (1 − u)² = 1.37 % > 1 %; with a spare, 2 of 3 down: 3u² − 2u³ = 0.014 %.
  CHECK(spareInstances(2, u, 0.99) == 1);
  // 100 instances: with S spares, X ~ Binomial(100 + S, u), mean ≈ 0.70. P(X > 1) = 15.4 % (S = 1),
  // P(X > 2) = 3.4 % (S = 2), P(X > 3) = 1 − (0.49027 + 0.35068 + 0.12420 + 0.02904) = 0.58 % (S = 3).
  CHECK(spareInstances(100, u, 0.99) == 3);
  CHECK(spareInstances(0, u, 0.99) == 0);
  CHECK(spareInstances(5, 0, 0.99) == 0);  // not on spot

  ServingConfig c = llama8b();
  c.traffic.requests_per_s = 16;
  ServingPlan p;
  p.sustainable_requests_per_s = 2;
  p.replicas = 8;
  p.prefill_share = 0.25;
  SpotReplacement spot;
  spot.interruptions_per_hour = 1.0 / 24;
  spot.replace_hours = 1.0 / 6;
  // 8 replicas of 2 GPUs on 8-GPU instances: 2 instances, and 1 spare for them (as above): 3 at $10/h.
  const ServingCost on_spot = priceServing(p, c, 2, 8, 10.0, spot);
  CHECK(on_spot.spare_instances == 1);
  CHECK(on_spot.instances == 3);
  CHECK_THAT(on_spot.usd_per_hour, WithinRel(30.0, 1e-12));
  CHECK_THAT(on_spot.instance_down_share, WithinRel(u, 1e-12));
  // The spare is paid for, the tokens are the traffic's: a million output tokens costs 3/2 of the same service without it.
  const ServingCost plain = priceServing(p, c, 2, 8, 10.0);
  CHECK(plain.instances == 2);
  CHECK(plain.spare_instances == 0);
  CHECK_THAT(on_spot.usd_per_million_output, WithinRel(plain.usd_per_million_output * 1.5, 1e-12));
}

TEST_CASE("serve answers with the preset, capacity and cost, and reports bad models with their paths", "[serving][api]") {
  Engine e;
  e.setToday("2026-12-02");
  REQUIRE(parse(e.loadGpus(gpuvalue_test::readFile("data/gpus.json"))).value("ok", false));
  REQUIRE(parse(e.loadCatalog(gpuvalue_test::allCatalogsText())).value("ok", false));
  REQUIRE(parse(e.call("loadServingPresets", gpuvalue_test::readFile("data/serving-presets.json"), "")).value("ok", false));
  const auto a = parse(e.call("serve", R"({"preset": "llama3.1-70b", "gpu": "h100-sxm5-80gb", "count": 4,
      "traffic": {"requests_per_s": 20, "input_tokens": 1000, "output_tokens": 300}, "targets": {"ttft_ms": 2000, "tpot_ms": 100}})", ""));
  REQUIRE(a.value("ok", false));
  CHECK(a["memory"]["kv_bytes_per_token"].get<double>() == 327680.0);
  CHECK(a["capacity"]["tpot_ms"].get<double>() <= 100);
  CHECK(a["operating"]["replicas"].get<int>() >= 1);
  CHECK(a["cost"].is_null());  // no offer: no price
  const auto bad = parse(e.call("serve", R"({"model": {"params": 7e9, "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 5}, "gpu": "l4"})", ""));
  CHECK_FALSE(bad.value("ok", true));
  CHECK(bad["error"]["path"] == "/model/kv_heads");
  CHECK(bad["error"]["message"]["code"] == "error.kv_heads_divide_heads");
  // 4096 / 30 is no whole head size: refused at /model/heads unless head_dim is given (then any head count works).
  const auto uneven = parse(e.call("serve", R"({"model": {"params": 7e9, "layers": 32, "hidden": 4096, "heads": 30, "kv_heads": 5}, "gpu": "l4"})", ""));
  CHECK_FALSE(uneven.value("ok", true));
  CHECK(uneven["error"]["path"] == "/model/heads");
  CHECK(uneven["error"]["message"]["code"] == "error.heads_divide_hidden");
  const auto sized = parse(e.call("serve", R"({"model": {"params": 7e9, "layers": 32, "hidden": 4096, "heads": 30, "kv_heads": 5, "head_dim": 128}, "gpu": "l4"})", ""));
  CHECK(sized.value("ok", false));
  const auto unknown = parse(e.call("serve", R"({"preset": "llama3.1-70b", "gpu": "l4", "trafic": {}})", ""));
  CHECK(unknown["error"]["path"] == "/trafic");
  CHECK(unknown["error"]["message"]["code"] == "error.unknown_member");
}

namespace {

// Serve answers on a small catalog: an 8x H100 node under four billing models, an 8x MI300X node and a PCIe pair of
// L40S priced on demand only.
Engine& billingEngine() {
  static const auto x = [] {
    auto e = gpuvalue_test::engineWithCatalog(R"({"schema_version": 1, "instances": [
      {"id": "h8", "provider": "A", "instance_type": "h8", "gpu": "h100-sxm5-80gb", "gpu_count": 8, "interconnect": "nvswitch",
       "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 40, "as_of": "2026-12-01", "source": "test"},
        {"model": "spot", "usd_per_hour": 16, "as_of": "2026-11-30", "source": "test"},
        {"model": "reserved", "usd_per_hour": 28, "term_months": 12, "upfront": "none", "as_of": "2026-11-29", "source": "test"},
        {"model": "monthly", "usd_per_month": 20440, "as_of": "2026-11-28", "source": "test"}]},
      {"id": "mi8", "provider": "B", "instance_type": "mi8", "gpu": "mi300x", "gpu_count": 8, "interconnect": "infinity-fabric",
       "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 30, "as_of": "2026-12-01", "source": "test"}]},
      {"id": "l2", "provider": "C", "instance_type": "l2", "gpu": "l40s", "gpu_count": 2, "interconnect": "pcie",
       "region": "r", "prices": [{"model": "on_demand", "usd_per_hour": 3, "as_of": "2026-12-01", "source": "test"}]}]})");
    REQUIRE(parse(e->call("loadServingPresets", gpuvalue_test::readFile("data/serving-presets.json"), "")).value("ok", false));
    return e;
  }();
  return *x;
}

json serveOn(const std::string& where, const std::string& extra = "") {
  return parse(billingEngine().call("serve", R"({"preset": "llama3.1-8b", )" + where + extra +
                                                 R"(, "traffic": {"requests_per_s": 10}})", ""));
}

}  // namespace

TEST_CASE("serve names the link a replica's GPUs use: none for one GPU, else the offer's fabric or PCIe", "[serving][api]") {
  const auto fabric = [](const std::string& where) {
    const json a = serveOn(where);
    REQUIRE(a.value("ok", false));
    return a["fabric"].get<std::string>();
  };
  CHECK(fabric(R"("offer": "h8", "count": 1)") == "none");
  CHECK(fabric(R"("offer": "h8", "count": 4)") == "nvswitch");
  CHECK(fabric(R"("offer": "mi8", "count": 2)") == "infinity-fabric");
  CHECK(fabric(R"("offer": "l2", "count": 2)") == "pcie");
  // The engine's own link stays what its all-reduce model uses: NVLink for every scale-up fabric.
  CHECK(serveOn(R"("offer": "mi8", "count": 2)")["interconnect"] == "nvlink");
  CHECK(serveOn(R"("offer": "l2", "count": 2)")["interconnect"] == "pcie");
  // Without an offer: NVLink on NVIDIA GPUs that have it, Infinity Fabric on AMD's, PCIe when asked for.
  CHECK(fabric(R"("gpu": "h100-sxm5-80gb", "count": 2)") == "nvlink");
  CHECK(fabric(R"("gpu": "mi300x", "count": 2)") == "infinity-fabric");
  CHECK(fabric(R"("gpu": "h100-sxm5-80gb", "count": 2, "interconnect": "pcie")") == "pcie");
  CHECK(fabric(R"("gpu": "h100-sxm5-80gb", "count": 1)") == "none");
}

TEST_CASE("serve prices an offer under the billing model asked for, and refuses one the offer lacks", "[serving][cost]") {
  const json od = serveOn(R"("offer": "h8", "count": 1)");
  REQUIRE(od.value("ok", false));
  REQUIRE(od["cost"].is_object());
  const json& c = od["cost"];
  CHECK(c["offer"]["pricing"] == "on_demand");
  CHECK(c["usd_per_instance_hour"].get<double>() == 40.0);
  const double instances = c["instances"].get<double>();
  REQUIRE(instances >= 1);
  CHECK_THAT(c["usd_per_hour"].get<double>(), WithinRel(instances * 40.0, 1e-12));
  // The same replicas on the same GPUs: only the hourly rate changes, so every $ figure scales by its ratio to $40/h.
  struct Case {
    const char* pricing;
    double usd_per_instance_hour;
    int term_months;
    const char* as_of;
  };
  // Monthly: $20,440 a month over 730 hours = $28/h.
  for (const Case& k : {Case{"spot", 16, 0, "2026-11-30"}, Case{"reserved", 28, 12, "2026-11-29"}, Case{"monthly", 28, 0, "2026-11-28"}}) {
    INFO(k.pricing);
    const json a = serveOn(R"("offer": "h8", "count": 1)", std::string(R"(, "pricing": ")") + k.pricing + "\"");
    REQUIRE(a.value("ok", false));
    const json& p = a["cost"];
    CHECK(p["offer"]["pricing"] == k.pricing);
    CHECK(p["offer"]["as_of"] == k.as_of);
    CHECK(p["term_months"].get<int>() == k.term_months);
    CHECK_THAT(p["usd_per_instance_hour"].get<double>(), WithinRel(k.usd_per_instance_hour, 1e-12));
    CHECK(p["instances"].get<double>() == instances);
    CHECK(a["operating"]["replicas"] == od["operating"]["replicas"]);
    const double ratio = k.usd_per_instance_hour / 40.0;
    CHECK_THAT(p["usd_per_million_output"].get<double>(), WithinRel(c["usd_per_million_output"].get<double>() * ratio, 1e-12));
    CHECK_THAT(p["usd_per_million_input"].get<double>(), WithinRel(c["usd_per_million_input"].get<double>() * ratio, 1e-12));
    CHECK_THAT(p["monthly_usd"].get<double>(), WithinRel(instances * k.usd_per_instance_hour * 730.0, 1e-12));
    // Spot instances are reclaimed once a day by default (no rate in the price record) and replaced in 10 minutes;
    // one instance alone is down 1/145 of the time, under the 1 % allowed, so it gets no spare.
    const bool spot = std::string(k.pricing) == "spot";
    CHECK_THAT(p["interruptions_per_instance_hour"].get<double>(), WithinAbs(spot ? 1.0 / 24 : 0.0, 1e-12));
    CHECK_THAT(p["replace_hours"].get<double>(), WithinAbs(spot ? 1.0 / 6 : 0.0, 1e-12));
    CHECK_THAT(p["instance_down_share"].get<double>(), WithinAbs(spot ? 1.0 / 145 : 0.0, 1e-12));
    CHECK(p["spare_instances"].get<int>() == 0);
  }
  // An offer without a spot price is not priced on demand instead.
  const json none = serveOn(R"("offer": "mi8", "count": 2)", R"(, "pricing": "spot")");
  CHECK_FALSE(none.value("ok", true));
  CHECK(none["error"]["path"] == "/pricing");
  CHECK(none["error"]["message"]["code"] == "error.no_price");
  // Tiered and serverless prices are for jobs and bursts, not a service running all month.
  const json tiered = serveOn(R"("offer": "h8", "count": 1)", R"(, "pricing": "tiered")");
  CHECK_FALSE(tiered.value("ok", true));
  CHECK(tiered["error"]["path"] == "/pricing");
}
