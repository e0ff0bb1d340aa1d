// LoRA adapter size from the rank, the targets and the shape (workload.cpp loraAdapterParams, effectiveFfnHidden).
#include <catch2/catch.hpp>

#include "model/workload.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;
using gpuvalue_test::loadedEngine;
using gpuvalue_test::parse;

namespace {

Workload loraModel(double params, double layers, double hidden, double heads, double kv_heads) {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.mode = Mode::kLora;
  w.params = params;
  w.tokens = 1e9;
  w.seq_len = 4096;
  w.layers = layers;
  w.hidden = hidden;
  w.heads = heads;
  w.kv_heads = kv_heads;
  return w;
}

}  // namespace

TEST_CASE("LoRA adapters on the attention projections are counted from rank and shape", "[lora][flops]") {
  // Llama 2 70B as MLPerf Training adapts it: rank 16 on the fused qkv projection (8,192 → 8,192 + 2 × 1,024) and
  // o_proj: 80 × [16 × (8,192 + 10,240) + 16 × (8,192 + 8,192)] = 80 × 557,056 = 44,564,480.
  Workload llama = loraModel(68976648192, 80, 8192, 64, 8);
  CHECK(llama.trainableParams() == 44564480.0);
  // Rank 8 halves it.
  llama.lora_rank = 8;
  CHECK(llama.trainableParams() == 22282240.0);
  // A stated count wins.
  llama.lora_trainable_params = 1e7;
  CHECK(llama.trainableParams() == 1e7);
  // Grouped-query attention, Llama 3 8B's shape (32 layers, hidden 4,096, 32 heads, 8 KV heads of 128): k and v are
  // 1,024 wide, 32 × 16 × (2 × 4,096 + 2 × 1,024 + 2 × 4,096) = 32 × 294,912 = 9,437,184.
  const Workload gqa = loraModel(8.03e9, 32, 4096, 32, 8);
  CHECK(gqa.trainableParams() == 9437184.0);
  // The same layers with multi-head attention (32 KV heads): 32 × 16 × 6 × 4,096 = 12,582,912.
  CHECK(loraModel(8.03e9, 32, 4096, 32, 32).trainableParams() == 12582912.0);
  // Pre-training trains every parameter whatever the rank.
  Workload pre = gqa;
  pre.mode = Mode::kPretrain;
  CHECK(pre.trainableParams() == 8.03e9);
}

TEST_CASE("lora_qkv separate counts one adapter per q, k and v projection, read from a request", "[lora][flops]") {
  auto& e = loadedEngine();
  // Llama 2 70B with PEFT's q_proj, k_proj, v_proj, o_proj at rank 16: 80 × 16 × (6 × 8,192 + 2 × 1,024) = 65,536,000.
  const char* shape = R"("kind": "transformer", "mode": "lora", "params": 68976648192, "tokens": 1e8, "seq_len": 4096,
      "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8)";
  auto fused = parse(e.estimate(std::string(R"({"gpu": "h100-sxm5-80gb", "count": 8, "workload": {)") + shape + "}}"));
  auto separate = parse(e.estimate(std::string(R"({"gpu": "h100-sxm5-80gb", "count": 8, "workload": {)") + shape + R"(, "lora_qkv": "separate"}})"));
  REQUIRE(fused["ok"] == true);
  REQUIRE(separate["ok"] == true);
  CHECK(fused["shape"]["trainable_params"] == 44564480.0);
  CHECK(separate["shape"]["trainable_params"] == 65536000.0);
  auto bad = parse(e.estimate(std::string(R"({"gpu": "h100-sxm5-80gb", "count": 8, "workload": {)") + shape + R"(, "lora_qkv": "split"}})"));
  CHECK(bad["ok"] == false);
  CHECK(bad.dump().find("/workload/lora_qkv") != std::string::npos);
}

TEST_CASE("LoRA on all linear layers adds the feed-forward's gate, up and down", "[lora][flops]") {
  // Qwen2.5-7B (28 layers, hidden 3,584, 28 heads, 4 KV heads of 128, intermediate 18,944), rank 16:
  // attention 16 × (2 × 3,584 + 2 × 512 + 2 × 3,584) = 245,760 and MLP 3 × 16 × (3,584 + 18,944) = 1,081,344 per
  // layer: 28 × 1,327,104 = 37,158,912.
  Workload qwen = loraModel(7615616512, 28, 3584, 28, 4);
  qwen.lora_all_linear = true;
  qwen.ffn_hidden = 18944;
  CHECK(qwen.trainableParams() == 37158912.0);
  // Separate q, k and v adapters (Hugging Face PEFT, data/presets.json qwen2.5-7b-lora: 40,370,176) hold two more
  // r × h A matrices per layer than a fused qkv adapter: 28 × 2 × 16 × 3,584 = 3,211,264.
  CHECK(40370176.0 - qwen.trainableParams() == 28 * 2 * 16 * 3584.0);
  qwen.lora_separate_qkv = true;
  CHECK(qwen.trainableParams() == 40370176.0);
  // Without ffn_hidden, Llama 2 70B's FFN is what params leave after attention, as three h × f matrices:
  // f = (68,976,648,192 / 80 − 8,192 × (2 × 8,192 + 2 × 1,024)) / (3 × 8,192) = 28,939.34 (28,672 published).
  Workload llama = loraModel(68976648192, 80, 8192, 64, 8);
  CHECK_THAT(llama.effectiveFfnHidden(), WithinRel(28939.3375, 1e-9));
  llama.lora_all_linear = true;
  // 44,564,480 + 80 × 3 × 16 × (8,192 + 28,939.3375) = 187,148,816.
  CHECK_THAT(llama.trainableParams(), WithinRel(187148816.0, 1e-9));
  llama.ffn_hidden = 28672;
  CHECK(llama.trainableParams() == 44564480.0 + 80 * 3 * 16 * (8192.0 + 28672));
}

TEST_CASE("LoRA on all linear layers of an MoE model adapts every expert", "[lora][moe]") {
  // Mixtral 8x7B's shape (32 layers, hidden 4,096, 32 heads, 8 KV heads, 8 experts of 14,336, top-2), rank 16:
  // attention 294,912 and 8 experts × 3 × 16 × (4,096 + 14,336) = 7,077,888 per layer: 32 × 7,372,800 = 235,929,600.
  Workload mixtral = loraModel(46.7e9, 32, 4096, 32, 8);
  mixtral.experts = 8;
  mixtral.experts_per_token = 2;
  mixtral.expert_ffn_hidden = 14336;
  mixtral.lora_all_linear = true;
  CHECK(mixtral.trainableParams() == 235929600.0);
  // A leading dense layer is taken as wide as the two experts a token passes through (2 × 14,336): it holds
  // 3 × 16 × (4,096 + 28,672) = 1,572,864 adapter parameters where an MoE layer holds 7,077,888.
  mixtral.dense_layers = 1;
  CHECK(mixtral.trainableParams() == 235929600.0 - 7077888 + 1572864);
}

TEST_CASE("lora_rank is a positive integer and names its path otherwise", "[lora][errors]") {
  auto& e = loadedEngine();
  const std::string base = R"({"gpu": "h100-sxm5-80gb", "count": 1, "workload": {"kind": "transformer", "mode": "lora",
      "params": 7e9, "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096, "tokens": 1e8, "lora_rank": )";
  CHECK(parse(e.estimate(base + "64}}"))["ok"] == true);
  for (const char* bad : {"0", "16.5", "\"16\"", "1e6"}) {
    const auto r = parse(e.estimate(base + bad + "}}"));
    INFO(bad);
    CHECK(r["ok"] == false);
    CHECK(r["error"]["path"] == "/workload/lora_rank");
  }
  const auto f = parse(e.estimate(base + R"(16, "ffn_hidden": 0}})"));
  CHECK(f["error"]["path"] == "/workload/ffn_hidden");
}
