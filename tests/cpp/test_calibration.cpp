// Calibration on the user's measurement (model/calibration.hpp, api/measurements.cpp, api/parse_measurement.cpp):
// the factor on the compute efficiency against hand-computed rooflines, its refusal of impossible rates, the
// nearest measurement per row, and the parse of probe lines and typed short forms.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/calibration.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;
using gpuvalue_test::gpuDatabase;
using gpuvalue_test::loadedEngine;
using gpuvalue_test::parse;

namespace {

// A dense transformer small enough for one GPU of 24 GB, tuned software: one GPU, no communication, so one step
// is FLOPs × (time per FLOP of the roofline) exactly.
const char* kSmallTransformer =
    R"({"kind": "transformer", "params": 4.03e8, "layers": 2, "hidden": 4096, "heads": 32, "tokens": 1e9,
        "seq_len": 2048, "software": "tuned"})";

json callOk(const std::string& method, const std::string& request) {
  const json a = parse(loadedEngine().call(method, request));
  INFO(request << " → " << a.dump().substr(0, 600));
  REQUIRE(a.value("ok", false));
  return a;
}

json estimate(const std::string& gpu, int count, const std::string& measurements = "") {
  std::string req = std::string(R"({"workload": )") + kSmallTransformer + R"(, "gpu": ")" + gpu + R"(", "count": )" +
                    std::to_string(count);
  if (!measurements.empty()) req += R"(, "measurements": )" + measurements;
  return callOk("estimate", req + "}");
}

// Time per FLOP of the single-GPU roofline, split in its compute and memory terms (performance.cpp, singleGpu):
// compute = 1 / (peak · compute_eff_transformer · arch factor), memory = bytes_per_flop_transformer · 1024/hidden /
// bandwidth (bf16 elements: elem/2 = 1); tuned software (no typical factor).
struct Split {
  double compute_s, memory_s;
};
Split rooflineSplit(const std::string& gpu_id, double arch_factor) {
  const ModelConstants k;
  const GpuSpec* g = gpuDatabase().find(gpu_id);
  REQUIRE(g);
  return {1.0 / (g->peak(Precision::kBf16) * 1e12 * k.compute_eff_transformer * arch_factor),
          k.bytes_per_flop_transformer * 1024.0 / 4096.0 / (g->memory_bandwidth_gbs * 1e9)};
}

}  // namespace

TEST_CASE("a measurement equal to the prediction changes nothing: factor 1 and identical times", "[calibration]") {
  const json plain = estimate("a100-sxm4-80gb", 1);
  const double predicted = plain["throughput"]["tokens_per_s"].get<double>();
  const std::string m = R"([{"gpu": "a100-sxm4-80gb", "count": 1, "tokens_per_s": )" + std::to_string(predicted) + "}]";
  // std::to_string keeps 6 decimals: the measurement is the prediction to within 1e-6 tokens/s.
  const json cal = estimate("a100-sxm4-80gb", 1, m);
  CHECK_THAT(cal["calibration"]["measurements"][0]["factor"].get<double>(), WithinRel(1.0, 1e-6));
  CHECK_THAT(cal["time_hours"].get<double>(), WithinRel(plain["time_hours"].get<double>(), 1e-6));
  CHECK(cal["calibrated"]["distance"] == "measured");
  // Another GPU with the same measurement: its own prediction, unchanged.
  const json other = estimate("h100-sxm5-80gb", 1, m);
  CHECK_THAT(other["time_hours"].get<double>(), WithinRel(estimate("h100-sxm5-80gb", 1)["time_hours"].get<double>(), 1e-6));
  CHECK(other["calibrated"]["distance"] == "other_architecture");
}

TEST_CASE("a measurement 20 % below the prediction moves a compute-bound GPU by about 20 % and a bandwidth-bound one less",
          "[calibration]") {
  const ModelConstants k;
  // A100 80GB: compute 1/(312e12 · 0.812 · 1.0) = 3.95e-15 s/FLOP, memory 0.00454 · 1024/4096 / 2039e9 = 5.6e-16:
  // 88 % of the time is compute. Measured at 0.8 × the prediction: (c + m)/0.8 = c/f + m, so f = c / ((c + m)/0.8 − m).
  const Split a100 = rooflineSplit("a100-sxm4-80gb", k.arch_ampere);
  const double f = a100.compute_s / ((a100.compute_s + a100.memory_s) / 0.8 - a100.memory_s);
  const double predicted = estimate("a100-sxm4-80gb", 1)["throughput"]["tokens_per_s"].get<double>();
  const std::string m = R"([{"gpu": "a100-sxm4-80gb", "tokens_per_s": )" + std::to_string(0.8 * predicted) + "}]";
  const json on_a100 = estimate("a100-sxm4-80gb", 1, m);
  CHECK_THAT(on_a100["calibration"]["measurements"][0]["factor"].get<double>(), WithinRel(f, 1e-5));
  CHECK_THAT(on_a100["throughput"]["tokens_per_s"].get<double>(), WithinRel(0.8 * predicted, 1e-5));
  // L4: 121 TFLOPS bf16 over 300 GB/s: compute 1/(121e12 · 0.812 · 0.814) = 1.25e-14, memory 0.001135 / 300e9 =
  // 3.8e-15, 23 % memory. Its rate moves by (c + m)/(c/f + m): about 0.82, less than the A100's 0.8.
  const Split l4 = rooflineSplit("l4", k.arch_ada);
  const double l4_ratio = (l4.compute_s + l4.memory_s) / (l4.compute_s / f + l4.memory_s);
  const double l4_plain = estimate("l4", 1)["throughput"]["tokens_per_s"].get<double>();
  const json on_l4 = estimate("l4", 1, m);
  CHECK_THAT(on_l4["throughput"]["tokens_per_s"].get<double>() / l4_plain, WithinRel(l4_ratio, 1e-5));
  CHECK(l4_ratio > 0.8 + 0.02);
  CHECK(l4_ratio < 1.0);
  CHECK(on_l4["calibrated"]["distance"] == "other_architecture");
  CHECK(on_l4["calibrated"]["measurement"] == 0);
  // A compute-bound GPU of the measured one's architecture moves by nearly the full 20 %: H100 is another
  // architecture, so use the A100 40GB (same bandwidth class): (c + m)/(c/f + m) with its own split.
  const Split a40 = rooflineSplit("a100-sxm4-40gb", k.arch_ampere);
  const double a40_ratio = (a40.compute_s + a40.memory_s) / (a40.compute_s / f + a40.memory_s);
  const json on_a40 = estimate("a100-sxm4-40gb", 1, m);
  CHECK_THAT(on_a40["throughput"]["tokens_per_s"].get<double>() / estimate("a100-sxm4-40gb", 1)["throughput"]["tokens_per_s"].get<double>(),
             WithinRel(a40_ratio, 1e-5));
  CHECK(on_a40["calibrated"]["distance"] == "same_architecture");
  CHECK(std::fabs(a40_ratio - 0.8) < std::fabs(l4_ratio - 0.8));
}

TEST_CASE("a measurement faster than the GPU's peak is refused at its rate", "[calibration]") {
  // The small transformer's model FLOPs per token: 6 · 4.03e8 + 12 · 2 · 2048 · 4096 (the attention term) ≈ 2.6e9;
  // one A100 at 312 TFLOPS does at most ~1.2e5 tokens/s: 1e7 is far beyond.
  const std::string req = std::string(R"({"workload": )") + kSmallTransformer +
                          R"(, "gpu": "a100-sxm4-80gb", "measurements": [{"gpu": "a100-sxm4-80gb", "tokens_per_s": 1e7}]})";
  const json a = parse(loadedEngine().call("estimate", req));
  REQUIRE_FALSE(a["ok"].get<bool>());
  CHECK(a["error"]["path"] == "/measurements/0/tokens_per_s");
  CHECK(a["error"]["message"]["code"] == "error.measurement_above_peak");
  const double flops_per_token = 6 * 4.03e8 + 12.0 * 2 * 2048 * 4096;
  CHECK_THAT(a["error"]["message"]["params"]["limit_count"].get<double>(), WithinRel(312e12 / flops_per_token, 0.02));
}

TEST_CASE("a measurement the memory traffic alone cannot allow is refused with the model's limit", "[calibration]") {
  // On the L4 the memory term is 5e-15 s/FLOP: even with the math at its peak (1/121e12 = 8.3e-15) the fastest is
  // 1/(8.3e-15 + 5e-15) FLOP/s, 62 % of the peak rate. A rate at 80 % of the peak rate is refused by that floor.
  const GpuSpec* l4 = gpuDatabase().find("l4");
  const double flops_per_token = 6 * 4.03e8 + 12.0 * 2 * 2048 * 4096;
  const double peak_rate = l4->peak(Precision::kBf16) * 1e12 / flops_per_token;
  const std::string req = std::string(R"({"workload": )") + kSmallTransformer + R"(, "gpu": "l4", "measurements": [{"gpu": "l4", "tokens_per_s": )" +
                          std::to_string(0.8 * peak_rate) + "}]}";
  const json a = parse(loadedEngine().call("estimate", req));
  REQUIRE_FALSE(a["ok"].get<bool>());
  CHECK(a["error"]["path"] == "/measurements/0/tokens_per_s");
  CHECK(a["error"]["message"]["code"] == "error.measurement_above_floor");
  const Split l4_split = rooflineSplit("l4", ModelConstants{}.arch_ada);
  const double floor_flops = 1.0 / (1.0 / (l4->peak(Precision::kBf16) * 1e12) + l4_split.memory_s);
  // The floor is in the plan's hardware FLOPs per token (its recomputation included): the estimate's hardware_flops
  // over the workload's 1e9 tokens.
  const double plan_flops_per_token = estimate("l4", 1)["hardware_flops"].get<double>() / 1e9;
  CHECK_THAT(a["error"]["message"]["params"]["limit_count"].get<double>(), WithinRel(floor_flops / plan_flops_per_token, 1e-6));
}

TEST_CASE("bad measurements are refused at their member with a code", "[calibration]") {
  auto errorOf = [](const std::string& measurements, const char* workload = kSmallTransformer) {
    const json a = parse(loadedEngine().call("estimate", std::string(R"({"workload": )") + workload +
                                                             R"(, "gpu": "a100-sxm4-80gb", "measurements": )" + measurements + "}"));
    REQUIRE_FALSE(a["ok"].get<bool>());
    return a["error"];
  };
  json e = errorOf(R"([{"gpu": "a100-sxm4-80gb", "tokens_per_s": 100}, {"gpu": "z9000", "tokens_per_s": 100}])");
  CHECK(e["path"] == "/measurements/1/gpu");
  CHECK(e["code"] == "unknown_id");
  e = errorOf(R"([{"gpu": "a100-sxm4-80gb", "samples_per_s": 100}])");
  CHECK(e["path"] == "/measurements/0/samples_per_s");
  CHECK(e["message"]["code"] == "error.measurement_unit");
  e = errorOf(R"([{"gpu": "a100-sxm4-80gb", "count": 8}])");
  CHECK(e["path"] == "/measurements/0/tokens_per_s");
  e = errorOf(R"([{"gpu": "a100-sxm4-80gb", "tokens_per_s": 10, "layers_run": 9, "layers": 4}])");
  CHECK(e["path"] == "/measurements/0/layers_run");
  e = errorOf(R"({"gpu": "a100-sxm4-80gb"})");
  CHECK(e["path"] == "/measurements");
  std::string nine = "[";
  for (int i = 0; i < 9; ++i) nine += std::string(i ? "," : "") + R"({"gpu": "a100-sxm4-80gb", "tokens_per_s": 100})";
  e = errorOf(nine + "]");
  CHECK(e["message"]["code"] == "error.too_many_measurements");
}

TEST_CASE("a shortened run is scaled to the whole model by the engine's FLOPs per token", "[calibration]") {
  // 1 of 2 layers: the FLOPs per token of one layer over two. 6N + 12·L·seq·h with N and L halved:
  // (6 · 2.015e8 + 12 · 1 · 2048 · 4096) / (6 · 4.03e8 + 12 · 2 · 2048 · 4096) = 1/2 exactly (both terms halve).
  Workload w;
  Issues issues;
  REQUIRE(parseWorkload(parse(kSmallTransformer), "/workload", w, issues));
  CHECK_THAT(shortenedFlopsShare(w, 1, 2), WithinRel(0.5, 1e-12));
  const double predicted = estimate("a100-sxm4-80gb", 1)["throughput"]["tokens_per_s"].get<double>();
  const json a = estimate("a100-sxm4-80gb", 1,
                          R"([{"gpu": "a100-sxm4-80gb", "tokens_per_s": )" + std::to_string(2 * predicted) + R"(, "layers_run": 1, "layers": 2}])");
  CHECK_THAT(a["calibration"]["measurements"][0]["measured"].get<double>(), WithinRel(predicted, 1e-6));
  CHECK_THAT(a["calibration"]["measurements"][0]["factor"].get<double>(), WithinRel(1.0, 1e-5));
  CHECK(a["calibration"]["measurements"][0]["flags"][0]["code"] == "calibration.scaled_from_layers");
}

TEST_CASE("a peak memory below the weights and a factor outside the model's band are flagged", "[calibration]") {
  const double predicted = estimate("a100-sxm4-80gb", 1)["throughput"]["tokens_per_s"].get<double>();
  // Weights of 4.03e8 bf16 parameters: 0.806 GB; 0.5 GB cannot hold them. 0.5 × the prediction is below band_low.
  const json a = estimate("a100-sxm4-80gb", 1,
                          R"([{"gpu": "a100-sxm4-80gb", "tokens_per_s": )" + std::to_string(0.5 * predicted) + R"(, "peak_memory_gb": 0.5}])");
  std::vector<std::string> codes;
  for (const auto& f : a["calibration"]["measurements"][0]["flags"]) codes.push_back(f["code"]);
  CHECK(std::find(codes.begin(), codes.end(), "calibration.memory_below_weights") != codes.end());
  CHECK(std::find(codes.begin(), codes.end(), "calibration.outside_band") != codes.end());
}

TEST_CASE("a measurement of the whole model on GPUs it does not fit on is flagged, a shortened one is not", "[calibration]") {
  // Llama 2 7B pre-training: 16 bytes per parameter of weights, gradients and AdamW state (6.7e9 × 16 = 108 GB) do
  // not fit one 24 GB L4 under any plan.
  const std::string base = R"({"preset": "llama2-7b-pretrain", "gpu": "l4", "measurements": [{"gpu": "l4", "tokens_per_s": 100)";
  auto codes = [](const json& a) {
    std::vector<std::string> out;
    for (const auto& f : a["calibration"]["measurements"][0]["flags"]) out.push_back(f["code"]);
    return out;
  };
  const auto whole = codes(callOk("estimate", base + "}]}"));
  CHECK(std::find(whole.begin(), whole.end(), "calibration.no_fit_measured") != whole.end());
  const auto shortened = codes(callOk("estimate", base + R"(, "layers_run": 2, "layers": 32}]})"));
  CHECK(std::find(shortened.begin(), shortened.end(), "calibration.no_fit_measured") == shortened.end());
}

TEST_CASE("each ranked row uses its nearest measurement and says which", "[calibration]") {
  // Two measurements at 0.9 and 1.1 × the prediction on one A100 and one H100: the combined factor is their
  // geometric mean and the spread their ratio; rows of those GPUs use their own, other GPUs of their architectures
  // the same one, and other architectures the geometric mean.
  const double a100 = estimate("a100-sxm4-80gb", 8)["throughput"]["tokens_per_s"].get<double>();
  const double h100 = estimate("h100-sxm5-80gb", 8)["throughput"]["tokens_per_s"].get<double>();
  const std::string m = R"([{"gpu": "a100-sxm4-80gb", "count": 8, "tokens_per_s": )" + std::to_string(0.9 * a100) +
                        R"(}, {"gpu": "h100-sxm5-80gb", "count": 8, "tokens_per_s": )" + std::to_string(1.1 * h100) + "}]";
  const json r = callOk("rank", std::string(R"({"workload": )") + kSmallTransformer + R"(, "measurements": )" + m + "}");
  const json& cal = r["calibration"];
  const double f0 = cal["measurements"][0]["factor"], f1 = cal["measurements"][1]["factor"];
  CHECK(f0 < 1);
  CHECK(f1 > 1);
  CHECK_THAT(cal["factor"].get<double>(), WithinRel(std::sqrt(f0 * f1), 1e-12));
  CHECK_THAT(cal["spread"].get<double>(), WithinRel(f1 / f0, 1e-12));
  int seen_measured = 0, seen_arch = 0, seen_other = 0;
  const auto& gpus = gpuDatabase();
  for (const auto& row : r["results"]) {
    const json& c = row["calibrated"];
    const GpuSpec* g = gpus.find(row["gpu"].get<std::string>());
    REQUIRE(g);
    if (row["gpu"] == "a100-sxm4-80gb" && row["total_gpus"] == 8) {
      CHECK(c["distance"] == "measured");
      CHECK(c["measurement"] == 0);
      ++seen_measured;
    } else if (g->architecture == "hopper" && row["gpu"] != "h100-sxm5-80gb") {
      CHECK(c["distance"] == "same_architecture");
      CHECK(c["measurement"] == 1);
      CHECK_THAT(c["factor"].get<double>(), WithinRel(f1, 1e-12));
      ++seen_arch;
    } else if (g->architecture != "hopper" && g->architecture != "ampere") {
      CHECK(c["distance"] == "other_architecture");
      CHECK(c["measurement"].is_null());
      CHECK_THAT(c["factor"].get<double>(), WithinRel(std::sqrt(f0 * f1), 1e-12));
      ++seen_other;
    }
    CHECK(c["band_low"].get<double>() <= 1);
    CHECK(c["band_high"].get<double>() >= 1);
  }
  CHECK(seen_measured > 0);
  CHECK(seen_arch > 0);
  CHECK(seen_other > 0);
}

TEST_CASE("the band is narrowest at the measured configuration and widens with distance", "[calibration]") {
  const ModelConstants k;
  CHECK(k.calib_measured_high - k.calib_measured_low <= k.calib_same_gpu_high - k.calib_same_gpu_low);
  CHECK(k.calib_same_gpu_high - k.calib_same_gpu_low <= k.calib_other_arch_high - k.calib_other_arch_low);
  CHECK(k.calib_same_arch_high - k.calib_same_arch_low <= k.calib_other_arch_high - k.calib_other_arch_low);
  const double predicted = estimate("a100-sxm4-80gb", 8)["throughput"]["tokens_per_s"].get<double>();
  const std::string m = R"([{"gpu": "a100-sxm4-80gb", "count": 8, "tokens_per_s": )" + std::to_string(predicted) + "}]";
  const json here = estimate("a100-sxm4-80gb", 8, m);
  // time_hours_low = time / band_high of the distance (performance.cpp), time_hours_high = time / band_low.
  CHECK_THAT(here["time_hours_low"].get<double>(), WithinRel(here["time_hours"].get<double>() / k.calib_measured_high, 1e-9));
  CHECK_THAT(here["time_hours_high"].get<double>(), WithinRel(here["time_hours"].get<double>() / k.calib_measured_low, 1e-9));
  const json four = estimate("a100-sxm4-80gb", 4, m);
  CHECK(four["calibrated"]["distance"] == "same_gpu");
  CHECK_THAT(four["time_hours_high"].get<double>(), WithinRel(four["time_hours"].get<double>() / k.calib_same_gpu_low, 1e-9));
}

// ---- parse_measurement ----------------------------------------------------------------------------------

namespace {

json parseLine(const std::string& line) {
  return parse(loadedEngine().call("parse_measurement", json{{"text", line}}.dump()));
}

}  // namespace

TEST_CASE("probe lines of five GPUs parse to measurement objects with the database's GPU ids", "[calibration][parse]") {
  // As the probe script prints them: torch.cuda.get_device_name and total_memory / 1e9 of each part.
  const std::vector<std::pair<std::string, std::string>> lines = {
      {R"({"gpuvalue_probe": 1, "preset": "llama2-70b-lora", "kind": "transformer", "mode": "lora", "gpu_name": "NVIDIA A100-SXM4-80GB", "gpu_memory_gb": 85.1, "gpu_count": 8, "precision": "bf16", "tokens_per_s": 3150.4, "step_s": 5.2011, "peak_memory_gb": 61.32, "torch": "2.4.1+cu121", "cuda": "12.1", "layers_run": 40, "layers": 80, "seq_len": 4096, "micro_batch": 1})",
       "a100-sxm4-80gb"},
      {R"({"gpuvalue_probe": 1, "preset": "llama2-7b-pretrain", "kind": "transformer", "mode": "pretrain", "gpu_name": "NVIDIA H100 80GB HBM3", "gpu_memory_gb": 85.0, "gpu_count": 8, "precision": "bf16", "tokens_per_s": 61234.5, "step_s": 1.0703, "peak_memory_gb": 70.1, "torch": "2.5.0", "cuda": "12.4"})",
       "h100-sxm5-80gb"},
      {R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA H100 PCIe", "gpu_memory_gb": 85.0, "gpu_count": 1, "precision": "bf16", "tokens_per_s": 5321.0, "step_s": 0.77, "peak_memory_gb": 50.5, "torch": "2.3.0", "cuda": "12.1"})",
       "h100-pcie-80gb"},
      {R"({"gpuvalue_probe": 1, "preset": "resnet50-imagenet", "kind": "cnn", "mode": "pretrain", "gpu_name": "NVIDIA L4", "gpu_memory_gb": 23.7, "gpu_count": 1, "precision": "bf16", "samples_per_s": 412.3, "step_s": 0.6209, "peak_memory_gb": 14.02, "torch": "2.4.0", "cuda": "12.1"})",
       "l4"},
      {R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA GeForce RTX 4090", "gpu_memory_gb": 25.3, "gpu_count": 2, "precision": "bf16", "tokens_per_s": 9000, "step_s": 0.9, "peak_memory_gb": 20.0, "torch": "2.4.0", "cuda": "12.4"})",
       "rtx4090"},
  };
  for (const auto& [line, id] : lines) {
    const json a = parseLine(line);
    INFO(line << " → " << a.dump());
    REQUIRE(a["ok"].get<bool>());
    const json& m = a["measurement"];
    CHECK(m["gpu"] == id);
    CHECK(m["source"] == "probe");
    CHECK(m["count"] == parse(line)["gpu_count"]);
    CHECK(m["peak_memory_gb"] == parse(line)["peak_memory_gb"]);
  }
  const json first = parseLine(lines[0].first)["measurement"];
  CHECK(first["tokens_per_s"] == 3150.4);
  CHECK(first["layers_run"] == 40);
  CHECK(first["layers"] == 80);
  CHECK(parseLine(lines[3].first)["measurement"]["samples_per_s"] == 412.3);
}

TEST_CASE("the reported memory picks the variant of a part", "[calibration][parse]") {
  // "NVIDIA A100-SXM4-40GB" is an alias; a bare "A100" is the 40 GB part unless the memory says 80 GB (85.9e9 bytes).
  CHECK(parseLine(R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA A100", "gpu_memory_gb": 85.9, "gpu_count": 1, "tokens_per_s": 10})")["measurement"]["gpu"] == "a100-sxm4-80gb");
  CHECK(parseLine(R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA A100", "gpu_memory_gb": 42.4, "gpu_count": 1, "tokens_per_s": 10})")["measurement"]["gpu"] == "a100-sxm4-40gb");
}

TEST_CASE("probe lines with problems are refused at their member", "[calibration][parse]") {
  auto errorOf = [](const std::string& line) {
    const json a = parseLine(line);
    REQUIRE_FALSE(a["ok"].get<bool>());
    return a["error"];
  };
  json e = errorOf(R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA Z9000", "gpu_count": 1, "tokens_per_s": 10})");
  CHECK(e["path"] == "/gpu_name");
  CHECK(e["code"] == "unknown_id");
  e = errorOf(R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA L4", "gpu_count": 1, "tokens_per_s": -3})");
  CHECK(e["path"] == "/tokens_per_s");
  e = errorOf(R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA L4", "gpu_count": 0, "tokens_per_s": 3})");
  CHECK(e["path"] == "/gpu_count");
  e = errorOf(R"({"gpuvalue_probe": 1, "error": "out of GPU memory: lower micro_batch or seq_len in CONFIG"})");
  CHECK(e["message"]["code"] == "error.measurement_probe_failed");
  e = errorOf(R"({"gpu_name": "NVIDIA L4", "gpu_count": 1, "tokens_per_s": 3})");
  CHECK(e["path"] == "/gpuvalue_probe");
  e = errorOf(R"({"gpuvalue_probe": 1, "gpu_name": "NVIDIA L4",)");
  CHECK(e["code"] == "json_syntax");
}

TEST_CASE("typed short forms parse, with the GPU by id or name and the count after x, × or *", "[calibration][parse]") {
  struct Case {
    const char* text;
    const char* gpu;
    int count;
    const char* unit;
    double rate;
  };
  const Case cases[] = {
      {"3150 tokens/s on a100-sxm4-80gb x8", "a100-sxm4-80gb", 8, "tokens_per_s", 3150},
      {"3,150 tokens/s on a100-sxm4-80gb×8", "a100-sxm4-80gb", 8, "tokens_per_s", 3150},
      {"  3150.5 tok/s on H100 SXM * 16 ", "h100-sxm5-80gb", 16, "tokens_per_s", 3150.5},
      {"412 img/s on NVIDIA L4", "l4", 1, "samples_per_s", 412},
      {"1.2e4 samples/s on rtx4090 X2", "rtx4090", 2, "samples_per_s", 12000},
      {"900 tokens/s on mi250x", "mi250x", 1, "tokens_per_s", 900},
  };
  for (const Case& c : cases) {
    const json a = parseLine(c.text);
    INFO(c.text << " → " << a.dump());
    REQUIRE(a["ok"].get<bool>());
    CHECK(a["measurement"]["gpu"] == c.gpu);
    CHECK(a["measurement"]["count"] == c.count);
    CHECK(a["measurement"][c.unit] == c.rate);
    CHECK(a["measurement"]["source"] == "typed");
  }
}

TEST_CASE("typed short forms with mistakes are refused at their column", "[calibration][parse]") {
  struct Case {
    const char* text;
    const char* column;
    const char* code;
  };
  const Case cases[] = {
      {"fast on a100-sxm4-80gb", "column 1", "error.measurement_rate"},
      {"3150 tokens/h on a100-sxm4-80gb", "column 6", "error.measurement_unit_unknown"},
      {"3150 tokens/s at a100-sxm4-80gb", "column 15", "error.measurement_on"},
      {"3150 tokens/s on z9000 x8", "column 18", "error.unknown_gpu"},
      {"3150 tokens/s on a100-sxm4-80gb x0", "column 34", "error.measurement_count"},
      {"3150 tokens/s on ", "column 17", "error.measurement_gpu_missing"},
  };
  for (const Case& c : cases) {
    const json a = parseLine(c.text);
    INFO(c.text << " → " << a.dump());
    REQUIRE_FALSE(a["ok"].get<bool>());
    CHECK(a["error"]["path"] == c.column);
    CHECK(a["error"]["message"]["code"] == c.code);
  }
}

TEST_CASE("compared configurations are calibrated on their nearest measurement, and a ranking without measurements is the plain one",
          "[calibration]") {
  const double a100 = estimate("a100-sxm4-80gb", 8)["throughput"]["tokens_per_s"].get<double>();
  const std::string m = R"([{"gpu": "a100-sxm4-80gb", "count": 8, "tokens_per_s": )" + std::to_string(0.8 * a100) + "}]";
  const std::string configs = R"([{"gpu": "a100-sxm4-80gb", "count": 8, "usd_per_hour": 10}, {"gpu": "a100-sxm4-40gb", "count": 8, "usd_per_hour": 8}])";
  const std::string base = std::string(R"({"workload": )") + kSmallTransformer + R"(, "configs": )" + configs;
  const json plain = callOk("compare", base + "}");
  const json cal = callOk("compare", base + R"(, "measurements": )" + m + "}");
  CHECK(cal["configs"][0]["calibrated"]["distance"] == "measured");
  CHECK(cal["configs"][1]["calibrated"]["distance"] == "same_architecture");
  CHECK_FALSE(plain["configs"][0].contains("calibrated"));
  CHECK_FALSE(plain.contains("calibration"));
  // The measured configuration runs at the measured rate: 0.8 × the prediction takes 1/0.8 the time.
  CHECK_THAT(cal["configs"][0]["time_hours"].get<double>(), WithinRel(plain["configs"][0]["time_hours"].get<double>() / 0.8, 1e-5));
  // The rankings keep their evaluations apart: after a calibrated one, the plain one answers as before.
  const std::string rank_plain = std::string(R"({"workload": )") + kSmallTransformer + R"(, "limit": 20})";
  const std::string before = loadedEngine().call("rank", rank_plain);
  callOk("rank", std::string(R"({"workload": )") + kSmallTransformer + R"(, "limit": 20, "measurements": )" + m + "}");
  CHECK(loadedEngine().call("rank", rank_plain) == before);
}
