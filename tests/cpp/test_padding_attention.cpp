// Sequence binning (computed_seq_len) and materialized attention (attention: "materialized"): the two corrections
// that make DeepLearningExamples BERT, Megatron-LM 2021, BLOOM and OPT rows comparable with fused-attention stacks.
#include <catch2/catch.hpp>

#include "model/performance.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;
using gpuvalue_test::parse;

namespace {

// BERT-large (Devlin et al. 2019: 24 layers, hidden 1024, 16 heads, 340M parameters) pre-training in fp16.
Workload bertLarge(double seq_len) {
  Workload w;
  w.kind = WorkloadKind::kTransformer;
  w.mode = Mode::kPretrain;
  w.precision = Precision::kFp16;
  w.software = Software::kTuned;
  w.params = 340e6;
  w.layers = 24;
  w.hidden = 1024;
  w.heads = 16;
  w.seq_len = seq_len;
  w.tokens = 1e12;
  w.micro_batch = 32;
  w.recompute = static_cast<int>(Recompute::kNone);
  return w;
}

}  // namespace

TEST_CASE("a binned sequence costs the FLOPs of its computed length", "[performance][flops][binning]") {
  Workload w = bertLarge(512);
  // Full length: per token forward 2·340e6 + 4·24·512·1024 = 680,000,000 + 50,331,648 = 730,331,648; ×3 for
  // training = 2,190,994,944; × 512 tokens = 1,121,789,411,328 FLOPs per sequence.
  CHECK_THAT(w.flopsPerSample(), WithinRel(1121789411328.0, 1e-12));
  // Computed at 288 tokens (LDDL bins of 64 over Wikipedia at 512): 680,000,000 + 4·24·288·1024 = 708,311,552;
  // ×3 = 2,124,934,656; × 288 = 611,981,180,928 FLOPs per sequence, 54.6 % of the full length.
  w.computed_seq_len = 288;
  CHECK_THAT(w.flopsPerSample(), WithinRel(611981180928.0, 1e-12));
  // The job still counts its sequences at seq_len: 1e12 tokens / 512 = 1,953,125,000 sequences.
  CHECK_THAT(w.totalSamples(), WithinRel(1953125000.0, 1e-12));
  CHECK_THAT(w.totalFlops(), WithinRel(611981180928.0 * 1953125000.0, 1e-12));
}

TEST_CASE("binning raises sequences per second by the FLOPs it saves", "[performance][binning]") {
  const Cluster c = gpuvalue_test::oneGpuCluster("a100-sxm4-80gb");
  const ModelConstants k;
  Workload full = bertLarge(512);
  Workload binned = full;
  binned.computed_seq_len = 288;
  const Sharding plan;
  const Throughput a = estimateThroughput(full, c, plan, k);
  const Throughput b = estimateThroughput(binned, c, plan, k);
  // On one GPU the achieved FLOP rate is the roofline's (no communication), so the rates of sequences are in the
  // inverse ratio of the FLOPs per sequence: 1,121,789,411,328 / 611,981,180,928 = 1.83304.
  CHECK_THAT(b.samples_per_s / a.samples_per_s, WithinRel(1121789411328.0 / 611981180928.0, 1e-9));
}

TEST_CASE("a computed length above seq_len is an error at its path", "[performance][binning][errors]") {
  auto& e = gpuvalue_test::loadedEngine();
  auto r = parse(e.estimate(R"({"workload": {"kind": "transformer", "params": 3.4e8, "layers": 24, "hidden": 1024,
      "heads": 16, "seq_len": 512, "computed_seq_len": 600, "tokens": 1e9}, "gpu": "a100-sxm4-80gb", "count": 1})"));
  CHECK(r["ok"] == false);
  CHECK(r["error"]["path"] == "/workload/computed_seq_len");
  auto bad = parse(e.estimate(R"({"workload": {"kind": "transformer", "params": 3.4e8, "layers": 24, "hidden": 1024,
      "heads": 16, "seq_len": 512, "attention": "sparse", "tokens": 1e9}, "gpu": "a100-sxm4-80gb", "count": 1})"));
  CHECK(bad["ok"] == false);
  CHECK(bad["error"]["path"] == "/workload/attention");
}

TEST_CASE("materialized attention adds the score matrices' memory traffic to the roofline", "[performance][attention]") {
  const Cluster c = gpuvalue_test::oneGpuCluster("a100-sxm4-80gb");
  ModelConstants k;
  k.compute_eff_transformer = 0.5;
  k.arch_ampere = 1.0;
  k.bytes_per_flop_transformer = 0.004;
  Workload fused = bertLarge(128);
  Workload materialized = fused;
  materialized.attention_materialized = true;
  const Sharding plan;
  const Throughput f = estimateThroughput(fused, c, plan, k);
  const Throughput m = estimateThroughput(materialized, c, plan, k);
  // A100 SXM4 80GB: 312 TFLOPS fp16, 2039 GB/s. Time per FLOP = 1/(312e12 · 0.5) + 0.004 · (1024/1024) / 2039e9.
  const double t_compute = 1.0 / (312e12 * 0.5);
  const double t_fused = 0.004 / 2039e9;
  // Materialized: the layer's bytes per token grow from 34·h to 34·h + 5·a·s = 34·1024 + 5·16·128, a factor of
  // (34 + 5·16·128/1024) / 34 = (34 + 10) / 34 = 44/34 (Korthikanti et al. 2022, eq. 1).
  const double t_materialized = t_fused * 44.0 / 34.0;
  CHECK_THAT(f.single_gpu_tflops, WithinRel(1.0 / (t_compute + t_fused) / 1e12, 1e-9));
  CHECK_THAT(m.single_gpu_tflops, WithinRel(1.0 / (t_compute + t_materialized) / 1e12, 1e-9));
  // The factor grows with the sequence: at 512, (34 + 5·16·512/1024) / 34 = 74/34.
  Workload long_seq = bertLarge(512);
  long_seq.attention_materialized = true;
  const Throughput l = estimateThroughput(long_seq, c, plan, k);
  CHECK_THAT(l.single_gpu_tflops, WithinRel(1.0 / (t_compute + t_fused * 74.0 / 34.0) / 1e12, 1e-9));
}
