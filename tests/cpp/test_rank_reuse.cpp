// Views of rankings (rankView) keep the hardware evaluations of their workload, and later rankings of it reuse them:
// the answers must be exactly those of an engine that never ranked before, whatever came between (other weights,
// filters, workloads), and a new catalog, GPU database or preset list must drop them. shared_evaluations writes the
// same answer with each evaluation once.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuvalue;
using gpuvalue_test::parse;
using gpuvalue_test::readFile;

namespace {

std::unique_ptr<Engine> newEngine(const std::string& catalog) {
  auto e = std::make_unique<Engine>();
  e->setToday("2026-12-01");
  e->loadGpus(readFile("data/gpus.json"));
  e->loadPresets(readFile("data/presets.json"));
  e->loadCatalog(catalog);
  return e;
}

const char* kRequests[] = {
    R"({"preset": "llama2-7b-pretrain", "limit": 40})",
    R"({"preset": "llama2-7b-pretrain", "limit": 40, "weights": {"unit_cost": 0.2, "task": 1, "service": 0}})",
    R"({"preset": "llama2-7b-pretrain", "limit": 40, "pricing": "spot"})",
    R"({"preset": "llama2-7b-pretrain", "limit": 40, "filters": {"providers": ["AWS"]}})",
    R"({"preset": "llama2-7b-pretrain", "limit": 40, "horizon_hours": 100})",
    R"({"preset": "llama2-7b-pretrain", "limit": 40, "workload": {"tokens": 1e11}})",
    R"({"preset": "resnet50-imagenet", "limit": 40, "filters": {"deadline_hours": 5}})",
    R"({"preset": "llama2-7b-pretrain", "limit": 40, "max_nodes": 2})",
};

// The request with a view asked for (rank's members plus "view").
std::string withView(const std::string& req) {
  json j = parse(req);
  j["view"] = {{"rows", 5}, {"sort", {{"key", "cost_usd"}, {"dir", "asc"}}}};
  return j.dump();
}

}  // namespace

TEST_CASE("a ranking that reuses earlier evaluations answers exactly as a fresh engine", "[ranking][reuse]") {
  const std::string catalog = gpuvalue_test::allCatalogsText();
  auto warm = newEngine(catalog);
  for (int round = 0; round < 2; ++round)
    for (const char* req : kRequests) {
      INFO(req);
      // A view keeps the evaluations of its workload; the ranking after it reuses them.
      REQUIRE(parse(warm->call("rankView", withView(req)))["ok"] == true);
      const std::string reused = warm->rank(req);
      REQUIRE(parse(reused)["ok"] == true);
      CHECK(reused == newEngine(catalog)->rank(req));
    }
}

TEST_CASE("a new catalog, GPU database or preset list drops the kept evaluations", "[ranking][reuse]") {
  const std::string all = gpuvalue_test::allCatalogsText();
  const std::string one = readFile("data/catalog/lambda.json");
  const char* req = kRequests[0];
  auto e = newEngine(all);
  const std::string view = withView(req);
  e->call("rankView", view);
  const std::string before = e->rank(req);
  // Another catalog: the kept evaluations pointed into the old one (ASan reports any use of them).
  e->loadCatalog(one);
  const std::string lambda_only = e->rank(req);
  CHECK(lambda_only == newEngine(one)->rank(req));
  CHECK(lambda_only != before);
  e->call("rankView", view);
  e->loadCatalog(all);
  CHECK(e->rank(req) == before);
  // GPUs and presets reloaded: the same answer, from fresh evaluations.
  e->call("rankView", view);
  e->loadGpus(readFile("data/gpus.json"));
  CHECK(e->rank(req) == before);
  e->call("rankView", view);
  e->loadPresets(readFile("data/presets.json"));
  CHECK(e->rank(req) == before);
  // Offers added to the catalog are ranked too.
  auto grown = newEngine(one);
  grown->call("rankView", withView(R"({"preset": "llama2-7b-pretrain", "filters": {"providers": ["AWS"]}})"));
  grown->addCatalog(readFile("data/catalog/aws.json"));
  const json r = parse(grown->rank(R"({"preset": "llama2-7b-pretrain", "filters": {"providers": ["AWS"]}})"));
  CHECK(r["result_count"].get<int>() > 0);
}

TEST_CASE("shared_evaluations writes each evaluation once and the same results", "[ranking][reuse]") {
  auto e = newEngine(gpuvalue_test::allCatalogsText());
  const json full = parse(e->rank(R"({"preset": "llama2-7b-pretrain"})"));
  const json shared = parse(e->rank(R"({"preset": "llama2-7b-pretrain", "shared_evaluations": true})"));
  REQUIRE(full["results"].size() == shared["results"].size());
  REQUIRE(shared["evaluations"].is_array());
  CHECK(shared["evaluations"].size() < shared["results"].size() / 4);
  CHECK_FALSE(full.contains("evaluations"));
  for (size_t i = 0; i < full["results"].size(); ++i) {
    json r = shared["results"][i];
    REQUIRE_FALSE(r.contains("throughput"));
    const json& ev = shared["evaluations"].at(r["evaluation"].get<size_t>());
    for (const char* k : {"throughput", "memory", "plan"}) r[k] = ev[k];
    r.erase("evaluation");
    CHECK(r == full["results"][i]);
  }
}
