// The advisor sizing the request's own workload (a preset or workload, read as rank reads it): the job it sizes is
// the one rank ranks, so its FLOPs, recomputation and each offer's time and cost are rank's; a member beside the
// workload that contradicts it is an error at its path.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuvalue;
using Catch::Matchers::WithinRel;
using gpuvalue_test::loadedEngine;
using gpuvalue_test::parse;

namespace {
const char* const kPreset = "llama2-7b-pretrain";

// The preset's workload as data/presets.json states it.
json presetWorkload(const std::string& id) {
  const json doc = parse(gpuvalue_test::readFile("data/presets.json"));
  for (const auto& p : doc["presets"])
    if (p.value("id", "") == id) return p["workload"];
  throw std::runtime_error("no preset " + id);
}
}  // namespace

TEST_CASE("advise with a preset sizes that workload: its total FLOPs and its recomputation", "[decisions][advisor]") {
  auto& e = loadedEngine();
  const json a = parse(e.advise(json{{"preset", kPreset}}.dump()));
  REQUIRE(a["ok"] == true);
  const json est = parse(e.estimate(json{{"preset", kPreset}, {"gpu", "h100-sxm5-80gb"}, {"count", 8}}.dump()));
  REQUIRE(est["ok"] == true);
  CHECK(a["total_flops"].get<double>() == est["total_flops"].get<double>());
  const json w = presetWorkload(kPreset);
  CHECK(a["params"].get<double>() == w["params"].get<double>());
  CHECK(a["tokens"].get<double>() == w["tokens"].get<double>());
  CHECK(a["assumptions"]["seq_len"].get<double>() == w["seq_len"].get<double>());
  CHECK(a["workload"]["layers"] == w["layers"]);
  // The preset fixes activation checkpointing (full recomputation): a forward pass more per step, 8·N per token
  // instead of 6·N (Korthikanti et al. 2022, arXiv:2205.05198, §5), beside attention.
  REQUIRE(w["activation_checkpointing"] == true);
  CHECK(a["total_flops"].get<double>() > 8.0 * w["params"].get<double>() * w["tokens"].get<double>());
  size_t fitting = 0;
  for (const auto& x : a["ladder"])
    if (x["fits"] == true) {
      CHECK(x["activation_checkpointing"] == true);
      ++fitting;
    }
  CHECK(fitting > 0);
  REQUIRE(a["recommendations"].size() > 0);
  for (const auto& x : a["recommendations"]) CHECK(x["activation_checkpointing"] == true);
  // The same parameters and tokens given alone: the advisor's own transformer, which recomputes only where it must.
  const json p = parse(e.advise(json{{"params", w["params"]}, {"tokens", w["tokens"]}}.dump()));
  REQUIRE(p["ok"] == true);
  CHECK(p["total_flops"].get<double>() < a["total_flops"].get<double>());
}

TEST_CASE("advise with a preset gives each offer rank's time and cost for the same billing and horizon", "[decisions][advisor]") {
  auto& e = loadedEngine();
  for (const char* stage : {"exploration", "tuning"}) {
    const json a = parse(e.advise(json{{"preset", kPreset}, {"stage", stage}, {"horizon_hours", 1000}}.dump()));
    const json r = parse(e.call("rank", json{{"preset", kPreset}, {"horizon_hours", 1000}}.dump()));
    REQUIRE(a["ok"] == true);
    REQUIRE(r["ok"] == true);
    CHECK(a["total_flops"].get<double>() == r["workload"]["total_flops"].get<double>());
    size_t compared = 0;
    for (const json& rows : {a["recommendations"], a["ladder"]})
      for (const auto& x : rows) {
        if (!x["offer"].is_object()) continue;
        INFO(stage << " " << x["offer"]["id"] << " " << x["pricing"]);
        const json* match = nullptr;
        for (const auto& y : r["results"])
          if (y["id"] == x["offer"]["id"] && y["pricing"] == x["pricing"] && y["nodes"] == x["nodes"]) match = &y;
        REQUIRE(match);
        CHECK_THAT(x["cost_usd"].get<double>(), WithinRel((*match)["cost_usd"].get<double>(), 1e-12));
        CHECK_THAT(x["time_hours"].get<double>(), WithinRel((*match)["time_hours"].get<double>(), 1e-12));
        ++compared;
      }
    CHECK(compared >= 2);
  }
}

TEST_CASE("advise beside a workload: the workload's own values pass, a different one is an error at its path", "[decisions][advisor][errors]") {
  auto& e = loadedEngine();
  const json w = presetWorkload(kPreset);
  // The workload's own values repeated: the same answer.
  const json same = parse(e.advise(json{{"preset", kPreset}, {"params", w["params"]}, {"tokens", w["tokens"]}, {"mode", "pretrain"}}.dump()));
  REQUIRE(same["ok"] == true);
  CHECK(same["total_flops"] == parse(e.advise(json{{"preset", kPreset}}.dump()))["total_flops"]);
  for (const auto& [member, value] : std::vector<std::pair<std::string, json>>{{"params", 7e9}, {"tokens", 1e12}, {"seq_len", 2048}, {"mode", "lora"}}) {
    INFO(member);
    const json r = parse(e.advise(json{{"preset", kPreset}, {member, value}}.dump()));
    CHECK(r["ok"] == false);
    CHECK(r["error"]["path"] == "/" + member);
    CHECK(r["error"]["message"]["code"] == "error.advise_differs_from_workload");
  }
  // Changed in the workload instead: accepted, and the answer sizes the changed job.
  const json lora = parse(e.advise(json{{"preset", kPreset}, {"workload", {{"mode", "lora"}, {"tokens", 1e9}}}}.dump()));
  REQUIRE(lora["ok"] == true);
  CHECK(lora["mode"] == "lora");
  CHECK(lora["tokens"].get<double>() == 1e9);
  // Not the training of a transformer: at the preset, or at the workload member that says so.
  CHECK(parse(e.advise(R"({"preset": "resnet50-imagenet"})"))["error"]["path"] == "/preset");
  CHECK(parse(e.advise(json{{"preset", kPreset}, {"workload", {{"mode", "inference"}}}}.dump()))["error"]["path"] == "/workload/mode");
  CHECK(parse(e.advise(R"({"workload": {"kind": "custom", "total_flops": 1e20, "params": 1e9}})"))["error"]["path"] == "/workload/kind");
  // Neither params nor a workload: params is required.
  CHECK(parse(e.advise(R"({"stage": "tuning"})"))["error"]["path"] == "/params");
}

TEST_CASE("a recommendation that cannot finish within the horizon is called the fastest, not one that finishes", "[decisions][advisor]") {
  auto& e = loadedEngine();
  auto codes = [](const json& rec) {
    std::vector<std::string> out;
    for (const auto& m : rec["reason"]) out.push_back(m["code"].get<std::string>());
    return out;
  };
  auto has = [](const std::vector<std::string>& v, const char* c) { return std::find(v.begin(), v.end(), c) != v.end(); };
  // Llama 3.1 70B pre-training: no A100/H100 option on ≤ 256 nodes finishes within 30 days.
  const json late = parse(e.advise(json{{"preset", "llama3.1-70b-pretrain"}}.dump()));
  REQUIRE(late["ok"] == true);
  const json& rec = late["recommendations"][0];
  REQUIRE(rec["role"] == "recommended");
  CHECK(rec["meets_horizon"] == false);
  CHECK(has(codes(rec), "advise.role_recommended_late"));
  CHECK_FALSE(has(codes(rec), "advise.role_recommended"));
  CHECK(has(codes(rec), "advise.misses_horizon"));
  // A job that finishes keeps the usual reason.
  const json fine = parse(e.advise(json{{"preset", kPreset}}.dump()));
  REQUIRE(fine["ok"] == true);
  const json& ok = fine["recommendations"][0];
  REQUIRE(ok["meets_horizon"] == true);
  CHECK(has(codes(ok), "advise.role_recommended"));
}
