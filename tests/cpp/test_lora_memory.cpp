// LoRA memory: frozen base weights at the bytes they are stored in, and activations without the inputs that only
// the frozen linears' weight gradients would need (performance.cpp layerActivationBytes, frozenWeightBytes).
#include <catch2/catch.hpp>

#include "model/performance.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;
using gpuvalue_test::loadedEngine;
using gpuvalue_test::parse;

namespace {

// A small transformer: 2 layers, hidden 1024, 16 heads, 2,048-token sequences, one sequence per micro-batch.
Workload smallLoraModel(Mode mode, Precision p) {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.mode = mode;
  w.precision = p;
  w.params = 1e9;
  w.lora_trainable_params = 1e7;
  w.tokens = 1e9;
  w.seq_len = 2048;
  w.layers = 2;
  w.hidden = 1024;
  w.heads = 16;
  w.micro_batch = 1;
  w.recompute = static_cast<int>(Recompute::kNone);
  return w;
}

}  // namespace

TEST_CASE("LoRA counts frozen weights at their stored bytes and adapters at 16 bits with their states",
          "[performance][memory][lora]") {
  const ModelConstants k;
  const Cluster h100 = gpuvalue_test::oneGpuCluster("h100-sxm5-80gb");
  // FP8: 1e9 frozen weights × 1 B + 1e7 adapter weights × 2 B = 1.02 GB; adapter gradients 1e7 × 2 B = 0.02 GB;
  // AdamW states with fp32 master weights 1e7 × 12 B = 0.12 GB.
  MemoryBreakdown m = estimateMemory(smallLoraModel(Mode::kLora, Precision::kFp8), h100, Sharding{}, k);
  CHECK_THAT(m.weights_gb, WithinRel(1.02, 1e-12));
  CHECK_THAT(m.gradients_gb, WithinRel(0.02, 1e-12));
  CHECK_THAT(m.optimizer_gb, WithinRel(0.12, 1e-12));
  // BF16: 1e9 × 2 B + 1e7 × 2 B = 2.02 GB.
  m = estimateMemory(smallLoraModel(Mode::kLora, Precision::kBf16), h100, Sharding{}, k);
  CHECK_THAT(m.weights_gb, WithinRel(2.02, 1e-12));
  // An A100 has no FP8: the run falls back to BF16 and so do its frozen weights.
  m = estimateMemory(smallLoraModel(Mode::kLora, Precision::kFp8), gpuvalue_test::oneGpuCluster("a100-sxm4-80gb"), Sharding{}, k);
  CHECK_THAT(m.weights_gb, WithinRel(2.02, 1e-12));
  // Pre-training in FP8 keeps 16-bit weights that the optimizer updates: 1e9 × 2 B.
  m = estimateMemory(smallLoraModel(Mode::kPretrain, Precision::kFp8), h100, Sharding{}, k);
  CHECK_THAT(m.weights_gb, WithinRel(2.0, 1e-12));
  // ZeRO-3 shards the frozen weights and the adapters alike: 8 GPUs, FP8 → 1.02 / 8 GB.
  Cluster eight = h100;
  eight.gpus_per_node = 8;
  m = estimateMemory(smallLoraModel(Mode::kLora, Precision::kFp8), eight, Sharding{3, 1, 1}, k);
  CHECK_THAT(m.weights_gb, WithinRel(1.02 / 8, 1e-12));
}

TEST_CASE("LoRA activations drop the inputs only frozen linears' weight gradients need", "[performance][memory][lora]") {
  const ModelConstants k;
  const Cluster c = gpuvalue_test::oneGpuCluster("h100-sxm5-80gb");
  const double sbh = 2048.0 * 1 * 1024;      // s·b·h
  const double lse = 4.0 * 16 * 2048;        // fused attention's fp32 log-sum-exp: 4 B × heads × tokens
  // Pre-training under selective recomputation (the score products rerun): 34·sbh per layer, 2 layers:
  // 2 × 71,303,168 = 142,606,336 bytes.
  Workload pre = smallLoraModel(Mode::kPretrain, Precision::kBf16);
  pre.recompute = static_cast<int>(Recompute::kSelective);
  CHECK_THAT(estimateMemory(pre, c, Sharding{}, k).activations_gb, WithinRel(2 * 34 * sbh / 1e9, 1e-12));
  CHECK_THAT(estimateMemory(pre, c, Sharding{}, k).activations_gb, WithinRel(0.142606336, 1e-12));
  // LoRA with fused attention and no recomputation keeps no scores, only their log-sum-exp (lse).
  // LoRA on q, k, v, o: the MLP's first-linear input (2·sbh) and second-linear input (8·sbh) go, 24·sbh stay:
  // 2 × (50,331,648 + 131,072) = 100,925,440 bytes.
  Workload lora = smallLoraModel(Mode::kLora, Precision::kBf16);
  CHECK_THAT(estimateMemory(lora, c, Sharding{}, k).activations_gb, WithinRel(0.10092544, 1e-12));
  // Adapters on every linear need every linear's input: 34·sbh + lse, 2 × (71,303,168 + 131,072) bytes.
  Workload all = lora;
  all.lora_all_linear = true;
  CHECK_THAT(estimateMemory(all, c, Sharding{}, k).activations_gb, WithinRel(2 * (34 * sbh + lse) / 1e9, 1e-12));
  CHECK_THAT(estimateMemory(all, c, Sharding{}, k).activations_gb, WithinRel(0.14286848, 1e-12));
  // Grouped-query attention with 4 KV heads of 16: K and V at a quarter, 20 + 4/4 = 21·sbh:
  // 2 × (44,040,192 + 131,072) = 88,342,528 bytes.
  Workload gqa = lora;
  gqa.kv_heads = 4;
  CHECK_THAT(estimateMemory(gqa, c, Sharding{}, k).activations_gb, WithinRel(0.088342528, 1e-12));
  // Materialized attention keeps the scores, softmax and dropout mask, 5·a·s/h = 5·16·2048/1024 = 160 more per
  // sbh: 2 × 184 × 2,097,152 = 771,751,936 bytes.
  Workload mat = lora;
  mat.attention_materialized = true;
  CHECK_THAT(estimateMemory(mat, c, Sharding{}, k).activations_gb, WithinRel(0.771751936, 1e-12));
  // Full recomputation keeps each layer's 2·sbh input plus one layer rerun in full: 2 × 4,194,304 + 50,462,720.
  lora.recompute = static_cast<int>(Recompute::kFull);
  CHECK_THAT(estimateMemory(lora, c, Sharding{}, k).activations_gb, WithinRel(0.058851328, 1e-12));
}

TEST_CASE("MLPerf's published Llama 2 70B LoRA layout on 8 H200 fits in their 141 GB", "[performance][memory][lora]") {
  // Dell's MLPerf Training v5.0 submission (data/measurements.json mlperf50-llama2-70b-lora-dell-h200-sxm-141gb-x8-fp8):
  // TP 1, PP 1, CP 2, micro-batch 1, global batch 8 × 8,192 tokens, FP8, no recomputation. Counted as pre-training
  // (16-bit weights, 34·sbh and the a·s² scores per layer) it needed several times the GPU's memory.
  auto& e = loadedEngine();
  const auto r = parse(e.estimate(R"({"gpu": "h200-sxm-141gb", "count": 8, "precision": "fp8", "interconnect": "nvswitch",
    "workload": {"kind": "transformer", "mode": "lora", "params": 68976648192, "layers": 80, "hidden": 8192, "heads": 64,
    "kv_heads": 8, "seq_len": 8192, "tokens": 1e9, "micro_batch": 1, "global_batch_tokens": 65536, "recompute": "none",
    "tensor_parallel": 1, "pipeline_parallel": 1, "context_parallel": 2, "software": "tuned"}})"));
  REQUIRE(r["ok"] == true);
  CHECK(r["memory"]["fits"] == true);
  // 68,976,648,192 frozen weights at 1 B = 68.98 GB of the 129.7 GB usable.
  CHECK(r["memory"]["weights_gb"].get<double>() < 70.0);
  CHECK(r["memory"]["required_gb_per_gpu"].get<double>() <= r["memory"]["available_gb_per_gpu"].get<double>());
}

TEST_CASE("left to its search, a Llama 2 70B FP8 LoRA on 8 H200 runs without recomputation",
          "[plan][memory][lora]") {
  auto& e = loadedEngine();
  const auto r = parse(e.estimate(R"({"gpu": "h200-sxm-141gb", "count": 8, "precision": "fp8", "preset": "llama2-70b-lora",
    "workload": {"activation_checkpointing": false, "software": "tuned"}})"));
  REQUIRE(r["ok"] == true);
  CHECK(r["memory"]["fits"] == true);
  // Counted as pre-training the only plans that fit recomputed every layer in full (+50 % of a LoRA step's work).
  INFO(r["plan"].dump());
  CHECK(r["plan"]["recompute"] == "none");
}

TEST_CASE("lora_targets takes attention or all_linear and names its path otherwise", "[lora][errors]") {
  auto& e = loadedEngine();
  const char* base = R"({"gpu": "h100-sxm5-80gb", "count": 1, "workload": {"kind": "transformer", "mode": "lora",
      "params": 7e9, "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096, "tokens": 1e8, "micro_batch": 1,
      "recompute": "none", "lora_targets": )";
  const auto attention = parse(e.estimate(std::string(base) + R"("attention"}})"));
  const auto all = parse(e.estimate(std::string(base) + R"("all_linear"}})"));
  REQUIRE(attention["ok"] == true);
  REQUIRE(all["ok"] == true);
  // All linears keep the MLP's linear inputs: 10·s·b·h more per layer, 32 × 10 × 4096 × 4096 bytes = 5.37 GB.
  CHECK_THAT(all["memory"]["activations_gb"].get<double>() - attention["memory"]["activations_gb"].get<double>(),
             WithinRel(32 * 10.0 * 4096 * 4096 / 1e9, 1e-9));
  const auto bad = parse(e.estimate(std::string(base) + R"("mlp"}})"));
  CHECK(bad["ok"] == false);
  CHECK(bad["error"]["path"] == "/workload/lora_targets");
}

TEST_CASE("recompute_layers reruns only that many layers: their forward FLOPs and their activations",
          "[performance][memory][lora][flops]") {
  const ModelConstants k;
  const Cluster c = gpuvalue_test::oneGpuCluster("h100-sxm5-80gb");
  // 2 layers under LoRA (attention adapters): a kept layer holds 24·sbh + lse = 50,462,720 bytes, a recomputed one its
  // 2·sbh input, 4,194,304, and the rerun needs one kept layer more. One of two recomputed:
  // 4,194,304 + 50,462,720 + 50,462,720 = 105,119,744 bytes.
  Workload half = smallLoraModel(Mode::kLora, Precision::kBf16);
  half.recompute = static_cast<int>(Recompute::kFull);
  half.recompute_layers = 1;
  CHECK_THAT(estimateMemory(half, c, Sharding{}, k).activations_gb, WithinRel(0.105119744, 1e-12));
  // None of them: what no recomputation keeps, 2 × 50,462,720.
  Workload none = half;
  none.recompute_layers = 0;
  CHECK_THAT(estimateMemory(none, c, Sharding{}, k).activations_gb, WithinRel(0.10092544, 1e-12));
  // FLOPs: LoRA's 2 forward-equivalents plus the rerun forward of 1 of 2 layers, + the adapters' 6 per parameter.
  // Per token: fwd = 2 × 1e9 + 4 × 2 × 2,048 × 1,024 = 2,016,777,216; (2 + 0.5) × fwd + 6 × 1e7.
  const double fwd = 2e9 + 4.0 * 2 * 2048 * 1024;
  CHECK_THAT(half.flopsPerSample(), WithinRel((2.5 * fwd + 6e7) * 2048, 1e-12));
  CHECK_THAT(none.flopsPerSample(), WithinRel((2.0 * fwd + 6e7) * 2048, 1e-12));
  half.recompute_layers = -1;  // all layers
  CHECK_THAT(half.flopsPerSample(), WithinRel((3.0 * fwd + 6e7) * 2048, 1e-12));
}

TEST_CASE("recompute_layers needs full recomputation and at most the layers, else names its path", "[lora][errors]") {
  auto& e = loadedEngine();
  const std::string base = R"({"gpu": "mi300x", "count": 8, "precision": "fp8", "workload": {"kind": "transformer",
      "mode": "lora", "params": 68976648192, "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "seq_len": 8192,
      "tokens": 1e9, "micro_batch": 1, "global_batch_tokens": 65536, "tensor_parallel": 1, "pipeline_parallel": 1, )";
  const auto some = parse(e.estimate(base + R"("recompute": "full", "recompute_layers": 21}})"));
  const auto all = parse(e.estimate(base + R"("recompute": "full"}})"));
  REQUIRE(some["ok"] == true);
  REQUIRE(all["ok"] == true);
  CHECK(some["memory"]["activations_gb"].get<double>() > all["memory"]["activations_gb"].get<double>());
  CHECK(some["throughput"]["tokens_per_s"].get<double>() > all["throughput"]["tokens_per_s"].get<double>());
  // The plan says how many layers rerun their forward pass: the cap, all 80 without one, none without recompute.
  CHECK(some["plan"]["recompute_layers"] == 21);
  CHECK(all["plan"]["recompute_layers"] == 80);
  // One pipeline stage: Megatron's per-stage count is the whole count.
  CHECK(some["plan"]["recompute_layers_per_stage"] == 21);
  // Four stages: 21 layers spread over them is 5.25 a stage, so Megatron's block method needs 6 per stage.
  const std::string pp4 = std::string(base).replace(base.find(R"("pipeline_parallel": 1)"), 22, R"("pipeline_parallel": 4)");
  const auto staged = parse(e.estimate(pp4 + R"("recompute": "full", "recompute_layers": 21}})"));
  REQUIRE(staged["ok"] == true);
  CHECK(staged["plan"]["pipeline_parallel"] == 4);
  CHECK(staged["plan"]["recompute_layers"] == 21);
  const int chunks = 4 * staged["plan"]["virtual_stages"].get<int>();  // model chunks under the interleaved schedule
  CHECK(staged["plan"]["recompute_layers_per_stage"] == (21 + chunks - 1) / chunks);
  if (chunks == 4) CHECK(staged["plan"]["recompute_layers_per_stage"] == 6);
  const auto kept = parse(e.estimate(base + R"("recompute": "none"}})"));
  REQUIRE(kept["ok"] == true);
  CHECK(kept["plan"]["recompute"] == "none");
  CHECK(kept["plan"]["recompute_layers"] == 0);
  for (const char* bad : {R"("recompute": "selective", "recompute_layers": 21)", R"("recompute_layers": 21)",
                          R"("recompute": "full", "recompute_layers": 81)", R"("recompute": "full", "recompute_layers": -1)"}) {
    const auto r = parse(e.estimate(base + bad + "}}"));
    INFO(bad);
    CHECK(r["ok"] == false);
    CHECK(r["error"]["path"] == "/workload/recompute_layers");
  }
  CHECK(parse(e.estimate(base + R"("activation_checkpointing": true, "recompute_layers": 21}})"))["ok"] == true);
}
