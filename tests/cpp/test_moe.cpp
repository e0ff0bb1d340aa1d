// Mixture of experts, grouped-query attention and the defaults a workload gets when it leaves them out: FLOPs from
// active parameters, memory from all of them with expert parallelism, the all-to-all of expert parallelism, GQA in
// activations and the KV cache, the default global batch and the derived shape. Expected values are worked out by
// hand in the comments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model/parallel_plan.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;
using gpuvalue_test::parse;

namespace {

using gpuvalue_test::gpuDatabase;

// Mixtral 8x7B (Jiang et al. 2024, arXiv:2401.04088, Table 1): 32 layers, hidden 4096, 32 heads, 8 KV heads,
// 8 experts of 14,336, top-2; 46,702,792,704 parameters.
Workload mixtral() {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.params = 46702792704;
  w.tokens = 1e12;
  w.seq_len = 4096;
  w.layers = 32;
  w.hidden = 4096;
  w.heads = 32;
  w.kv_heads = 8;
  w.experts = 8;
  w.experts_per_token = 2;
  w.expert_ffn_hidden = 14336;
  w.software = Software::kTuned;
  return w;
}

// DeepSeek-V3 (arXiv:2412.19437, §4.2): 671B, 61 layers of which 3 dense, hidden 7168, 256 routed experts of 2048,
// top-8, 1 shared.
Workload deepseekV3() {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.params = 671e9;
  w.tokens = 14.8e12;
  w.seq_len = 4096;
  w.layers = 61;
  w.hidden = 7168;
  w.heads = 128;
  w.experts = 256;
  w.experts_per_token = 8;
  w.shared_experts = 1;
  w.expert_ffn_hidden = 2048;
  w.dense_layers = 3;
  w.precision = Precision::kFp8;
  w.software = Software::kTuned;
  return w;
}

Cluster nodesOf(const char* gpu, int per_node, int nodes, double network_gbps) {
  Cluster c;
  c.gpu = gpuDatabase().find(gpu);
  c.gpus_per_node = per_node;
  c.nodes = nodes;
  c.interconnect = "nvswitch";
  c.network_gbps = network_gbps;
  c.rdma = true;
  return c;
}

}  // namespace

TEST_CASE("MoE training FLOPs count the active parameters, not all of them", "[moe][flops]") {
  const Workload w = mixtral();
  // Routed experts: 32 layers × 8 experts × 3 × 4096 × 14336 = 45,097,156,608; a token skips 6 of 8:
  // 45,097,156,608 × 6/8 = 33,822,867,456, so active = 46,702,792,704 − 33,822,867,456 = 12,879,925,248 (the
  // paper's "13B active").
  CHECK_THAT(w.routedExpertParams(), WithinRel(45097156608.0, 1e-12));
  CHECK_THAT(w.activeParams(), WithinRel(12879925248.0, 1e-12));
  // Forward per token: 2 × 12,879,925,248 + 4 × 32 × 4096 × 4096 = 25,759,850,496 + 2,147,483,648
  // = 27,907,334,144; training ×3 = 83,722,002,432 per token.
  CHECK_THAT(w.flopsPerSampleWith(Recompute::kNone) / w.seq_len, WithinRel(83722002432.0, 1e-12));
  // The dense model of the same size would count 2 × 46.7B: 3.3× more.
  Workload dense = w;
  dense.experts = 0;
  CHECK(dense.flopsPerSampleWith(Recompute::kNone) > 3.0 * w.flopsPerSampleWith(Recompute::kNone));
}

TEST_CASE("routed parameters follow from the expert size or from the active count alike", "[moe][flops]") {
  Workload w = deepseekV3();
  // 58 MoE layers × 256 × 3 × 7168 × 2048 = 653,908,770,816 routed; a token skips 248 of 256:
  // 653,908,770,816 × 248/256 = 633,474,121,728, active = 671e9 − that = 37,525,878,272 (the report's 37B).
  CHECK_THAT(w.routedExpertParams(), WithinRel(653908770816.0, 1e-12));
  CHECK_THAT(w.activeParams(), WithinRel(37525878272.0, 1e-12));
  Workload by_active = w;
  by_active.expert_ffn_hidden = 0;
  by_active.active_params = 37525878272.0;
  // (671e9 − 37,525,878,272) × 256/248 = 653,908,770,816.
  CHECK_THAT(by_active.routedExpertParams(), WithinRel(653908770816.0, 1e-9));
}

TEST_CASE("MoE memory holds all parameters, routed experts split over expert-parallel ranks", "[moe][memory]") {
  const Workload w = deepseekV3();
  const Cluster c = nodesOf("h800-sxm5-80gb", 8, 256, 3200);
  Sharding s;
  s.pipeline_parallel = 16;
  s.expert_parallel = 64;
  s.zero_stage = 1;
  s.recompute = Recompute::kFull;
  s.micro_batch = 1;
  const MemoryBreakdown m = estimateMemory(w, c, s, ModelConstants{});
  REQUIRE(m.sharding.data_parallel == 128);  // 2048 / 16
  // Dense part 671e9 − 653,908,770,816 = 17,091,229,184 over PP16: 1,068,201,824 per GPU; routed part over
  // PP16 × EP64: 653,908,770,816 / 1024 = 638,582,784. Weights (2 bytes, fp8 training keeps 16-bit weights):
  // (1,068,201,824 + 638,582,784) × 2 = 3,413,569,216 bytes; gradients the same.
  CHECK_THAT(m.weights_gb, WithinRel(3.413569216, 1e-9));
  CHECK_THAT(m.gradients_gb, WithinRel(3.413569216, 1e-9));
  // Optimizer (12 bytes) under ZeRO-1: dense over dp 128, routed over dp/ep = 2:
  // (1,068,201,824 / 128 + 638,582,784 / 2) × 12 = (8,345,326.75 + 319,291,392) × 12 = 3,931,640,625 bytes.
  CHECK_THAT(m.optimizer_gb, WithinRel(3.931640625, 1e-9));
  // Without expert parallelism every GPU of a stage holds all 256 experts: 64× the routed weights.
  Sharding no_ep = s;
  no_ep.expert_parallel = 1;
  CHECK(estimateMemory(w, c, no_ep, ModelConstants{}).weights_gb > 20 * m.weights_gb);
}

TEST_CASE("expert-parallel all-to-all goes over NVLink inside a node and the network across nodes", "[moe][comm]") {
  Workload w = mixtral();
  w.global_batch_tokens = 16 * 4096.0;  // one sequence per replica on 16 GPUs
  w.recompute = static_cast<int>(Recompute::kNone);
  ModelConstants k;
  k.ep_exposed = 1;
  Sharding s;
  s.expert_parallel = 8;
  s.micro_batch = 1;
  // Per pass a GPU sends its 4,096 tokens × k 2 × capacity 1.1 × hidden 4096 × 2 bytes = 73,819,750.4 bytes;
  // 4 passes (dispatch and combine, forward and backward) × 32 MoE layers = 128 passes per step.
  SECTION("eight ranks on one node of 8: 7/8 of it over NVLink") {
    const Throughput t = estimateThroughput(w, nodesOf("h100-sxm5-80gb", 8, 2, 3200), s, k);
    // NVLink per GPU: 900 / 2 × 0.77 = 346.5 GB/s; 73,819,750.4 × 7/8 / 346.5e9 = 1.86415e-4 s × 128.
    CHECK_THAT(t.exposed_ep_s, WithinRel(73819750.4 * 7.0 / 8.0 / 346.5e9 * 128.0, 1e-9));
  }
  SECTION("eight ranks on nodes of 4: half of it over the network") {
    w.software = Software::kTypical;
    const Throughput t = estimateThroughput(w, nodesOf("h100-sxm5-80gb", 4, 4, 1600), s, k);
    // Network per GPU: 1600 Gb/s / 8 × 0.9 RDMA / 4 GPUs = 45 GB/s; 73,819,750.4 × 4/8 / 45e9 × 128 = 0.10499 s,
    // slower than the NVLink share 73,819,750.4 × 3/8 / 346.5e9 × 128.
    CHECK_THAT(t.exposed_ep_s, WithinRel(73819750.4 * 4.0 / 8.0 / 45e9 * 128.0, 1e-9));
  }
  SECTION("a tuned stack sends a token once to each remote node its experts are on") {
    const Throughput t = estimateThroughput(w, nodesOf("h100-sxm5-80gb", 4, 4, 1600), s, k);
    // Two nodes in the group: the other node is hit with probability 1 − (1/2)^(2 × 1.1) = 0.78237 instead of
    // 2.2 × 4/8 = 1.1 copies: 4096 × 4096 × 2 bytes × 0.78237 / 45e9 × 128 passes.
    CHECK_THAT(t.exposed_ep_s, WithinRel(4096.0 * 4096 * 2 * (1.0 - std::pow(0.5, 2.2)) / 45e9 * 128.0, 1e-9));
  }
  SECTION("half of it is exposed by default") {
    const Throughput t = estimateThroughput(w, nodesOf("h100-sxm5-80gb", 8, 2, 3200), s, ModelConstants{});
    CHECK_THAT(t.exposed_ep_s, WithinRel(0.5 * 73819750.4 * 7.0 / 8.0 / 346.5e9 * 128.0, 1e-9));
  }
}

TEST_CASE("expert parallelism is searched and shown in the plan of an MoE model", "[moe][plan]") {
  const ClusterPlan p = planCluster(deepseekV3(), nodesOf("h800-sxm5-80gb", 8, 256, 3200), ModelConstants{});
  REQUIRE(p.memory.fits);
  CHECK(p.memory.sharding.expert_parallel > 1);
  CHECK(p.memory.sharding.label().find("EP" + std::to_string(p.memory.sharding.expert_parallel)) != std::string::npos);
  // A dense model never gets expert parallelism.
  Workload dense = deepseekV3();
  dense.experts = 0;
  dense.params = 7e9;
  dense.layers = 32;
  dense.hidden = 4096;
  dense.heads = 32;
  CHECK(planCluster(dense, nodesOf("h800-sxm5-80gb", 8, 1, 0), ModelConstants{}).memory.sharding.expert_parallel == 1);
}

TEST_CASE("grouped-query attention shrinks K and V in activations and the KV cache", "[gqa][memory]") {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.params = 8e9;
  w.tokens = 1e9;
  w.seq_len = 4096;
  w.layers = 32;
  w.hidden = 4096;
  w.heads = 32;
  w.kv_heads = 8;
  w.global_batch_tokens = 4096;
  const Cluster c = nodesOf("h100-sxm5-80gb", 1, 1, 0);
  Sharding s;
  s.recompute = Recompute::kSelective;
  s.micro_batch = 1;
  // Selective recomputation keeps s·b·h·(30 + 4·kv/heads) bytes a layer: 4096 × 4096 × (30 + 4 × 8/32 = 31)
  // = 520,093,696; × 32 layers = 16,642,998,272 bytes.
  CHECK_THAT(estimateMemory(w, c, s, ModelConstants{}).activations_gb, WithinRel(16.642998272, 1e-9));
  Workload mha = w;
  mha.kv_heads = 0;  // = heads: eq. 2's 34
  CHECK_THAT(estimateMemory(mha, c, s, ModelConstants{}).activations_gb, WithinRel(4096.0 * 4096 * 34 * 32 / 1e9, 1e-9));
  // Attention FLOPs do not change: every query head still forms its scores.
  CHECK(w.flopsPerSample() == mha.flopsPerSample());
  // KV cache: 2 × 32 layers × 4096 × 8/32 × 4096 tokens × 1 sequence × 2 bytes = 536,870,912 bytes.
  w.mode = Mode::kInference;
  CHECK_THAT(estimateMemory(w, c, s, ModelConstants{}).activations_gb, WithinRel(0.536870912, 1e-9));
}

TEST_CASE("a workload without a global batch gets the published one for its size and mode", "[defaults][batch]") {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.seq_len = 8192;
  w.params = 405e9;  // Llama 3 405B: 16M tokens = 2,048 sequences of 8,192
  CHECK(w.effectiveGlobalBatchTokens() == 2048.0 * 8192);
  w.params = 7e9;  // Llama 2: 4M tokens = 4,194,304 / 8,192 = 512 sequences
  CHECK(w.effectiveGlobalBatchTokens() == 512.0 * 8192);
  w.params = 2.7e9;  // GPT-3 2.7B: 1M tokens = 128 sequences
  CHECK(w.effectiveGlobalBatchTokens() == 128.0 * 8192);
  w.seq_len = 2048;
  w.params = 350e6;  // GPT-3 350M: 0.5M tokens = 256 sequences of 2,048
  CHECK(w.effectiveGlobalBatchTokens() == 256.0 * 2048);
  w.mode = Mode::kFinetune;  // Llama 2-Chat SFT: 64 sequences
  CHECK(w.effectiveGlobalBatchTokens() == 64.0 * 2048);
  w.mode = Mode::kLora;  // MLPerf Llama 2 70B LoRA: 8 sequences
  CHECK(w.effectiveGlobalBatchTokens() == 8.0 * 2048);
  w.global_batch_tokens = 65536;  // a given batch wins
  CHECK(w.effectiveGlobalBatchTokens() == 65536);
}

TEST_CASE("a shape derived from params alone has heads that tensor parallelism 8 divides", "[defaults][shape]") {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.params = 70e9;
  // hidden = (70e9 × 128 / 12)^(1/3) = 9,072.9, to a multiple of 1,024: 9,216; heads 9,216 / 128 = 72;
  // layers = 70e9 / (12 × 9,216²) = 68.7 → 69; KV heads 8.
  CHECK(w.effectiveHidden() == 9216);
  CHECK(w.effectiveHeads() == 72);
  CHECK(w.effectiveLayers() == 69);
  CHECK(w.effectiveKvHeads() == 8);
  for (double p : {1.3e9, 7e9, 13e9, 34e9, 70e9, 180e9, 405e9}) {
    w.params = p;
    INFO(p);
    CHECK(std::fmod(w.effectiveHeads(), 8.0) == 0);
    CHECK(std::fmod(w.effectiveHidden(), w.effectiveHeads()) == 0);
  }
}

TEST_CASE("a given shape far from params is flagged, real model shapes are not", "[defaults][shape]") {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.params = 70e9;
  w.layers = 24;
  w.hidden = 2048;  // at most 1.05 × (24 × 19 × 2048² + 2 × 256,000 × 2048) = 3.11e9 parameters
  CHECK(shapeContradictsParams(w));
  w.layers = 80;  // Llama 2 70B's real shape
  w.hidden = 8192;
  w.heads = 64;
  CHECK_FALSE(shapeContradictsParams(w));
  CHECK_FALSE(shapeContradictsParams(mixtral()));
  CHECK_FALSE(shapeContradictsParams(deepseekV3()));
  Workload qwen7b = w;  // Qwen2.5-7B: 19 h² a layer with its 5.3 h SwiGLU and 152k vocabulary
  qwen7b.params = 7615616512;
  qwen7b.layers = 28;
  qwen7b.hidden = 3584;
  qwen7b.heads = 28;
  CHECK_FALSE(shapeContradictsParams(qwen7b));
}

TEST_CASE("estimate names the assumed batch and warns about a contradicting shape", "[defaults][estimate]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto r = parse(e.estimate(R"({"workload": {"kind": "transformer", "params": 70e9, "tokens": 1e12, "seq_len": 4096,
    "layers": 24, "hidden": 2048}, "gpu": "h100", "count": 64})"));
  REQUIRE(r["ok"] == true);
  std::vector<std::string> codes;
  for (const auto& m : r["warnings"]) codes.push_back(m["code"].get<std::string>());
  CHECK(std::count(codes.begin(), codes.end(), "estimate.shape_contradicts_params") == 1);
  CHECK(std::count(codes.begin(), codes.end(), "estimate.batch_assumed_pretrain") == 1);
  CHECK(r["shape"]["global_batch_assumed"] == true);
  CHECK(r["shape"]["global_batch_tokens"] == 1024.0 * 4096);  // 4M tokens / 4,096 = 1,024 sequences
}

TEST_CASE("MoE and GQA errors name the member", "[moe][errors]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto path = [&](const std::string& workload) {
    auto r = parse(e.estimate(R"({"gpu": "h100", "count": 8, "workload": )" + workload + "}"));
    return r["ok"] == true ? std::string("ok") : r["error"]["path"].get<std::string>();
  };
  const std::string base = R"("kind": "transformer", "params": 47e9, "tokens": 1e9, "layers": 32, "hidden": 4096, "heads": 32)";
  CHECK(path("{" + base + R"(, "kv_heads": 5})") == "/workload/kv_heads");
  CHECK(path("{" + base + R"(, "experts": 8, "expert_ffn_hidden": 14336})") == "/workload/experts_per_token");
  CHECK(path("{" + base + R"(, "experts": 8, "experts_per_token": 2})") == "/workload/experts");
  CHECK(path("{" + base + R"(, "experts": 8, "experts_per_token": 9, "expert_ffn_hidden": 14336})") == "/workload/experts_per_token");
  CHECK(path("{" + base + R"(, "expert_parallel": 2})") == "/workload/expert_parallel");
  CHECK(path("{" + base + R"(, "experts": 8, "experts_per_token": 2, "expert_ffn_hidden": 14336, "expert_parallel": 3})") ==
        "/workload/expert_parallel");
  CHECK(path("{" + base + R"(, "experts": 8, "experts_per_token": 2, "expert_ffn_hidden": 40000})") == "/workload/expert_ffn_hidden");
  CHECK(path(R"({"kind": "transformer", "params": 47e9, "tokens": 1e9, "experts": 8, "experts_per_token": 2, "expert_ffn_hidden": 14336})") ==
        "/workload/experts");
  CHECK(path("{" + base + R"(, "kv_heads": 8, "experts": 8, "experts_per_token": 2, "expert_ffn_hidden": 14336})") == "ok");
}
