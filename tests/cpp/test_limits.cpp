// Bounded time and memory per input size: the SkyPilot importer's id de-duplication, the size limits of requests
// and catalogs (too_large instead of an exhausted wasm heap), and linear checks of long strings.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <set>

#include "import/skypilot.hpp"
#include "io/limits.hpp"
#include "test_support.hpp"

using namespace gpuvalue;

namespace {

Engine& freshEngine() {
  static Engine e;
  static bool loaded = false;
  if (!loaded) {
    e.setToday("2026-12-01");
    e.loadGpus(gpuvalue_test::readFile("data/gpus.json"));
    e.loadPresets(gpuvalue_test::readFile("data/presets.json"));
    loaded = true;
  }
  return e;
}

const char* kHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";

// An offer document whose one offer carries an unknown member of `bytes` bytes.
std::string offerWithJunk(size_t bytes) {
  std::string junk = "[";
  while (junk.size() < bytes) junk += "0,";
  junk += "0]";
  return "{\"instances\": [{\"id\": \"x\", \"provider\": \"P\", \"instance_type\": \"x\", \"gpu\": \"h100-sxm5-80gb\", "
         "\"gpu_count\": 1, \"region\": \"r\", \"junk\": " + junk + ", \"prices\": [{\"model\": \"on_demand\", "
         "\"usd_per_hour\": 2, \"as_of\": \"2026-11-01\", \"source\": \"s\"}]}]}";
}

std::string streamed(Engine& e, const std::string& mode, const std::string& text) {
  e.catalogBegin(mode, static_cast<double>(text.size()));
  for (size_t i = 0; i < text.size(); i += 1 << 16) {
    const size_t n = std::min<size_t>(1 << 16, text.size() - i);
    std::memcpy(e.catalogBuffer(n), text.data() + i, n);
    if (!e.catalogFeed(n)) break;
  }
  return e.catalogEnd();
}

}  // namespace

TEST_CASE("SkyPilot ids of colliding instance types stay short and unique", "[skypilot][limits]") {
  // Instance types that differ only in punctuation slug to the same id.
  std::string csv = kHeader;
  const char* marks = "!#$%&*+";
  const int rows = 400;
  for (int i = 0; i < rows; ++i) {
    std::string type = "p3";
    for (int k = i; k > 0; k /= 7) type += marks[k % 7];
    csv += type + ",V100,1.0,8.0,61.0,,3.06,,us-east-1,use1-az1\n";
  }
  SkypilotOptions opt;
  opt.provider = "AWS";
  opt.as_of = "2026-11-01";
  GpuDatabase db;
  db.load(gpuvalue_test::readFile("data/gpus.json"));
  SkypilotImport imp = importSkypilotCsv(csv, db, opt);
  REQUIRE(imp.ok);
  const json& inst = imp.catalog["instances"];
  REQUIRE(inst.size() == static_cast<size_t>(rows));
  std::set<std::string> ids;
  size_t longest = 0;
  for (const auto& o : inst) {
    ids.insert(o["id"].get<std::string>());
    longest = std::max(longest, o["id"].get<std::string>().size());
  }
  CHECK(ids.size() == static_cast<size_t>(rows));
  // "skypilot-aws-p3-us-east-1-1xv100-sxm2-16gb-400": a number appended once, never a growing chain.
  CHECK(longest < 60);
}

TEST_CASE("a request beyond the size limit is answered too_large", "[limits]") {
  Engine& e = freshEngine();
  std::string big = "{\"preset\": \"resnet50-imagenet\", \"junk\": \"" + std::string(kMaxRequestBytes, 'x') + "\"}";
  for (const char* method : {"rank", "estimate", "plan", "advise"}) {
    INFO(method);
    const json r = gpuvalue_test::parse(e.call(method, big));
    CHECK(r["ok"] == false);
    CHECK(r["error"]["code"] == "too_large");
  }
  const json opt = gpuvalue_test::parse(e.importSkypilot(kHeader, "{\"provider\": \"" + std::string(kMaxRequestBytes, 'x') + "\"}"));
  CHECK(opt["error"]["code"] == "too_large");
}

TEST_CASE("a catalog offer carrying a huge unknown member is too_large, whole or streamed, and changes nothing",
          "[limits][catalog]") {
  Engine& e = freshEngine();
  e.loadCatalog(gpuvalue_test::readFile("data/catalog/aws.json"));
  const std::string before = e.catalogSummary();
  const std::string text = offerWithJunk(kMaxOfferBytes + 100);
  for (const std::string& r : {e.loadCatalog(text), e.addCatalog(text), streamed(e, "load", text), streamed(e, "add", text)}) {
    const json j = gpuvalue_test::parse(r);
    CHECK(j["ok"] == false);
    CHECK(j["error"]["code"] == "too_large");
    CHECK(j["error"]["path"] == "/instances/0");
    CHECK_FALSE(j.contains("retry_whole_text"));
  }
  CHECK(e.catalogSummary() == before);
  // Below the limit the same offer loads (the unknown member is reported, not fatal).
  CHECK(gpuvalue_test::parse(e.validate(offerWithJunk(1000)))["error"]["code"] != "too_large");
}

TEST_CASE("a document with more values than the limit is too_large before it is built", "[limits]") {
  Engine& e = freshEngine();
  std::string many = "[";
  many.reserve(2 * kMaxJsonValues + 8);
  for (size_t i = 0; i <= kMaxJsonValues; ++i) many += "0,";
  many += "0]";
  for (const std::string& r : {e.validate(many), e.loadCatalog(many)}) {
    const json j = gpuvalue_test::parse(r);
    CHECK(j["ok"] == false);
    CHECK(j["error"]["code"] == "too_large");
  }
}

namespace {

// A one-offer catalog document with the given price members and offer members.
std::string oneOffer(const std::string& id, const std::string& price, const std::string& extra = "") {
  return "{\"instances\": [{\"id\": \"" + id + "\", \"provider\": \"P\", \"instance_type\": \"" + id +
         "\", \"gpu\": \"a100-sxm4-80gb\", \"gpu_count\": 8, \"interconnect\": \"nvswitch\", \"region\": \"r\", " + extra +
         "\"prices\": [" + price + "]}]}";
}

}  // namespace

TEST_CASE("a tiered price is ranked by the job's effective rate, not its teaser tier", "[limits][pricing]") {
  Engine& e = freshEngine();
  const std::string teaser = oneOffer("teaser", "{\"model\": \"tiered\", \"tiers\": [{\"up_to_hours\": 1, \"usd_per_hour\": 0.01}, "
                                                "{\"usd_per_hour\": 400}], \"as_of\": \"2026-11-01\", \"source\": \"s\"}");
  const std::string flat = oneOffer("flat", "{\"model\": \"on_demand\", \"usd_per_hour\": 30, \"as_of\": \"2026-11-01\", \"source\": \"s\"}");
  REQUIRE(gpuvalue_test::parse(e.loadCatalog("[" + teaser + "," + flat + "]"))["ok"] == true);
  const json r = gpuvalue_test::parse(e.rank("{\"preset\": \"llama2-7b-pretrain\"}"));
  INFO(r.dump().substr(0, 400));
  REQUIRE(r["ok"] == true);
  REQUIRE(r["results"].size() == 2);
  CHECK(r["results"][0]["id"] == "flat");
  const json& t = r["results"][1];
  CHECK(t["id"] == "teaser");
  // The effective rate of a long job is close to the second tier.
  CHECK(t["usd_per_hour"].get<double>() > 300);
  CHECK(t["usd_per_tflops_day"].get<double>() > r["results"][0]["usd_per_tflops_day"].get<double>());
}

TEST_CASE("near-zero billing increments and prices are refused with a path, never priced as $0", "[limits][pricing]") {
  Engine& e = freshEngine();
  const std::string price = "{\"model\": \"on_demand\", \"usd_per_hour\": 2, \"as_of\": \"2026-11-01\", \"source\": \"s\"}";
  const json inc = gpuvalue_test::parse(e.validate(oneOffer("a", price, "\"billing_increment_s\": 5e-324, ")));
  CHECK(inc["ok"] == false);
  CHECK(inc["error"]["path"] == "/instances/0/billing_increment_s");
  const json tiny = gpuvalue_test::parse(
      e.validate(oneOffer("a", "{\"model\": \"on_demand\", \"usd_per_hour\": 5e-324, \"as_of\": \"2026-11-01\", \"source\": \"s\"}")));
  CHECK(tiny["ok"] == false);
  CHECK(tiny["error"]["path"] == "/instances/0/prices/0/usd_per_hour");
  // Per-second billing and a tenth of a cent per hour are the smallest values accepted.
  CHECK(gpuvalue_test::parse(e.validate(oneOffer("a", "{\"model\": \"on_demand\", \"usd_per_hour\": 0.001, \"as_of\": \"2026-11-01\", "
                                                      "\"source\": \"s\"}", "\"billing_increment_s\": 1, ")))["ok"] == true);
}
