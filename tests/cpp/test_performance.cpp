#include <catch2/catch.hpp>

#include "model/performance.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using gpuvalue_test::parse;

using gpuvalue_test::gpuDatabase;

static Workload gpt3() {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.params = 1.75e11;
  w.tokens = 3e11;
  w.seq_len = 2048;
  w.layers = 96;
  w.hidden = 12288;
  w.heads = 96;
  return w;
}

TEST_CASE("transformer training FLOPs are 6·N·D plus attention", "[performance][flops]") {
  Workload w = gpt3();
  // Per token forward: 2N + 4·l·s·h = 3.5e11 + 4·96·2048·12288 = 3.5e11 + 9.664e9 = 3.59664e11;
  // training x3 -> 1.078992e12 per token; x 3e11 tokens = 3.236976e23 (Brown et al. 2020: ~3.14e23 from 6ND).
  const double per_token = 2 * 1.75e11 + 4.0 * 96 * 2048 * 12288;
  CHECK_THAT(w.totalFlops(), WithinRel(3 * per_token * 3e11, 1e-12));
  CHECK_THAT(w.totalFlops(), WithinRel(3.14e23, 0.04));
  // Activation checkpointing recomputes the forward pass: 4 forward-equivalents.
  w.activation_checkpointing = true;
  CHECK_THAT(w.totalFlops(), WithinRel(4 * per_token * 3e11, 1e-12));
}

TEST_CASE("CNN training FLOPs are three forward passes", "[performance][flops]") {
  Workload w;
  w.kind = WorkloadKind::kCnn;
  w.gflops_per_sample = 8.2;
  w.samples = 1281167;
  w.epochs = 90;
  // 3 x 8.2e9 x 1,281,167 x 90 = 2.8365e18 (seed-claims-check a: about 2.8e18).
  CHECK_THAT(w.totalFlops(), WithinRel(3 * 8.2e9 * 1281167.0 * 90, 1e-12));
  w.mode = Mode::kInference;
  CHECK_THAT(w.totalFlops(), WithinRel(8.2e9 * 1281167.0 * 90, 1e-12));
}

TEST_CASE("mixed-precision AdamW needs 16 bytes per parameter before sharding", "[performance][memory]") {
  // ZeRO paper §3.1: 2 (fp16 weights) + 2 (grads) + 12 (fp32 master, m, v) = 16 bytes/param.
  Workload w;
  w.kind = WorkloadKind::kCustom;
  w.params = 1e9;
  Cluster c;
  c.gpu = gpuDatabase().find("a100-sxm4-80gb");
  ModelConstants k;
  MemoryBreakdown m = estimateMemory(w, c, Sharding{}, k);
  CHECK_THAT(m.weights_gb, WithinRel(2.0, 1e-12));
  CHECK_THAT(m.gradients_gb, WithinRel(2.0, 1e-12));
  CHECK_THAT(m.optimizer_gb, WithinRel(12.0, 1e-12));
  CHECK_THAT(m.required_gb, WithinRel(16.0 + k.overhead_gb, 1e-12));
}

TEST_CASE("ZeRO stages shard optimizer, then gradients, then weights", "[performance][memory]") {
  Workload w;
  w.kind = WorkloadKind::kCustom;
  w.params = 8e9;
  Cluster c;
  c.gpu = gpuDatabase().find("a100-sxm4-80gb");
  c.gpus_per_node = 8;
  ModelConstants k;
  // 8 GPUs, 8e9 params: stage 1 optimizer 96/8 = 12 GB; stage 2 grads 16/8 = 2 GB; stage 3 weights 16/8 = 2 GB.
  MemoryBreakdown z1 = estimateMemory(w, c, Sharding{1, 1, 1}, k);
  CHECK_THAT(z1.optimizer_gb, WithinRel(12.0, 1e-12));
  CHECK_THAT(z1.gradients_gb, WithinRel(16.0, 1e-12));
  MemoryBreakdown z3 = estimateMemory(w, c, Sharding{3, 1, 1}, k);
  CHECK_THAT(z3.weights_gb, WithinRel(2.0, 1e-12));
  CHECK_THAT(z3.gradients_gb, WithinRel(2.0, 1e-12));
}

TEST_CASE("a model that fits on N GPUs fits on 2N under the same sharding", "[performance][memory][property]") {
  Workload w = gpt3();
  w.activation_checkpointing = true;
  ModelConstants k;
  for (int z = 0; z <= 3; ++z) {
    for (int n : {8, 16, 64, 256}) {
      Cluster a, b;
      a.gpu = b.gpu = gpuDatabase().find("a100-sxm4-80gb");
      a.gpus_per_node = b.gpus_per_node = 8;
      a.nodes = n / 8;
      b.nodes = 2 * n / 8;
      Sharding s{z, 8, 4};
      if (8 * 4 > n) continue;
      MemoryBreakdown ma = estimateMemory(w, a, s, k), mb = estimateMemory(w, b, s, k);
      CHECK(mb.required_gb <= ma.required_gb + 1e-9);
      if (ma.fits) CHECK(mb.fits);
    }
  }
}

TEST_CASE("activations follow Korthikanti et al. eq. 1", "[performance][memory]") {
  Workload w = gpt3();
  w.micro_batch = 1;
  Cluster c;
  c.gpu = gpuDatabase().find("a100-sxm4-80gb");
  ModelConstants k;
  // per layer: s·b·h·(34 + 5·a·s/h) = 2048·1·12288·(34 + 5·96·2048/12288) = 2048·12288·114 bytes; x 96 layers.
  const double per_layer = 2048.0 * 12288 * (34 + 5.0 * 96 * 2048 / 12288);
  MemoryBreakdown m = estimateMemory(w, c, Sharding{}, k);
  CHECK_THAT(m.activations_gb, WithinRel(96 * per_layer / 1e9, 1e-12));
  w.activation_checkpointing = true;
  m = estimateMemory(w, c, Sharding{}, k);
  CHECK_THAT(m.activations_gb, WithinRel((96 * 2.0 * 2048 * 12288 + per_layer) / 1e9, 1e-12));
}

TEST_CASE("more GPUs never lower total FLOPs and never slow a job down", "[performance][property]") {
  Workload w = gpt3();
  w.activation_checkpointing = true;
  ModelConstants k;
  double last_time = 1e300;
  for (int nodes : {16, 32, 64, 128}) {
    Cluster c;
    c.gpu = gpuDatabase().find("a100-sxm4-80gb");
    c.gpus_per_node = 8;
    c.nodes = nodes;
    c.interconnect = "nvswitch";
    c.network_gbps = 1600;
    c.rdma = true;
    MemoryBreakdown m = chooseSharding(w, c, k);
    Throughput t = estimateThroughput(w, c, m.sharding, k);
    CHECK(t.time_hours > 0);
    CHECK(t.time_hours < last_time);
    last_time = t.time_hours;
    CHECK(w.totalFlops() == gpt3().totalFlops() * 4 / 3);
  }
}

TEST_CASE("GPT-3 on 1024 A100 takes about a month", "[performance][article]") {
  // Narayanan et al. 2021 (arXiv:2104.04473): 3.14e23 FLOPs at 140 TFLOPS/GPU on 1024 A100 ≈ 34 days, with
  // tensor parallel 8 within a node and pipeline parallel across nodes (their Table 1 layouts for 175B).
  auto& e = gpuvalue_test::loadedEngine();
  auto r = parse(e.estimate(R"({"preset": "gpt3-175b", "workload": {"tensor_parallel": 8, "pipeline_parallel": 8},
      "gpu": "a100-sxm4-80gb", "count": 1024})"));
  REQUIRE(r["ok"] == true);
  INFO(r.dump());
  const double days = r["time_hours"].get<double>() / 24;
  CHECK(days > 20);
  CHECK(days < 40);
  // The band (calibration p10/p90) reaches the published month.
  CHECK(r["time_hours_low"].get<double>() / 24 < 34);
  CHECK(r["time_hours_high"].get<double>() / 24 > 30);
  CHECK(r["memory"]["fits"] == true);
  // Megatron-LM's published 138-171 TFLOPS per A100 (hardware FLOPs, recomputation included) for 39B-1T GPTs.
  CHECK(r["throughput"]["effective_tflops_per_gpu"].get<double>() > 100);
  CHECK(r["throughput"]["effective_tflops_per_gpu"].get<double>() < 230);
  // The free plan search never picks a slower plan than the published layout.
  auto free = parse(e.estimate(R"({"preset": "gpt3-175b", "gpu": "a100-sxm4-80gb", "count": 1024})"));
  REQUIRE(free["ok"] == true);
  CHECK(free["time_hours"].get<double>() <= r["time_hours"].get<double>() * (1 + 1e-9));
}

TEST_CASE("bf16 on a V100 falls back to fp16 with a warning", "[performance]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto r = parse(e.estimate(R"({"preset": "resnet50-imagenet", "gpu": "v100-sxm2-16gb", "count": 1, "precision": "bf16"})"));
  REQUIRE(r["ok"] == true);
  CHECK(r["precision"] == "fp16");
  CHECK(r["warnings"].size() >= 1);
}

TEST_CASE("ResNet-50 throughput tracks memory bandwidth", "[performance]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto a100 = parse(e.estimate(R"({"preset": "resnet50-imagenet", "gpu": "a100-sxm4-80gb", "count": 1, "precision": "fp16"})"));
  auto a10 = parse(e.estimate(R"({"preset": "resnet50-imagenet", "gpu": "a10", "count": 1, "precision": "fp16"})"));
  REQUIRE(a100["ok"] == true);
  REQUIRE(a10["ok"] == true);
  double ratio = a100["throughput"]["samples_per_s"].get<double>() / a10["throughput"]["samples_per_s"].get<double>();
  // Peak FP16 ratio is 312/125 = 2.5; bandwidth ratio 2039/600 = 3.4; measured (Lambda) ~ 2600/638 ≈ 4.
  CHECK(ratio > 2.5);
}

TEST_CASE("estimate errors name the field", "[performance][errors]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto r = parse(e.estimate(R"({"preset": "gpt3-175b", "gpu": "x100", "count": 8})"));
  CHECK(r["ok"] == false);
  CHECK(r["error"]["path"] == "/gpu");
  auto r2 = parse(e.estimate(R"({"workload": {"kind": "transformer", "params": "big"}, "gpu": "h100", "count": 8})"));
  CHECK(r2["ok"] == false);
  CHECK(r2["error"]["path"] == "/workload/params");
  auto r3 = parse(e.estimate(R"({"preset": "gpt3-175b", "gpu": "h100", "count": 8, "constants": {"warp_drive": 2}})"));
  CHECK(r3["ok"] == false);
  CHECK(r3["error"]["path"] == "/constants/warp_drive");
}
