// What a SkyPilot CSV import refuses or reports instead of taking silently: files where every row is skipped,
// CR-only line endings, duplicated columns, hex prices, spot above on-demand, impossible dates.
#include <catch2/catch.hpp>

#include "import/skypilot.hpp"
#include "test_support.hpp"

using namespace gpuvalue;

namespace {

const std::string kHead = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone";

SkypilotImport run(const std::string& csv) {
  static GpuDatabase db = [] {
    GpuDatabase g;
    g.load(gpuvalue_test::readFile("data/gpus.json"));
    return g;
  }();
  SkypilotOptions opt;
  opt.provider = "AWS";
  opt.as_of = "2026-11-01";
  return importSkypilotCsv(csv, db, opt);
}

bool mentions(const SkypilotImport& imp, const std::string& text, bool warning) {
  for (const auto& i : imp.issues)
    if (i.warning == warning && debugText(i.message).find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a CSV import in which every row is skipped fails and says so", "[skypilot][csv]") {
  const SkypilotImport imp = run(kHead + "\np3.2xlarge,Gaudi,1.0,8.0,61.0,,3.06,,us-east-1,a\nm5.large,,,2,8,,0.1,,us-east-1,a\n");
  CHECK_FALSE(imp.ok);
  CHECK(mentions(imp, "import.no_offer{row_count=2}", false));
}

TEST_CASE("CR-only line endings separate rows", "[skypilot][csv]") {
  const SkypilotImport imp = run(kHead + "\rp3.2xlarge,V100,1.0,8.0,61.0,,3.06,,us-east-1,a\rp3.8xlarge,V100,4.0,32.0,244.0,,12.24,,us-east-1,a\r");
  REQUIRE(imp.ok);
  CHECK(imp.catalog["instances"].size() == 2);
  CHECK(imp.rows == 2);
}

TEST_CASE("a duplicated column is an error of the header", "[skypilot][csv]") {
  const SkypilotImport imp = run(kHead + ",Price\np3.2xlarge,V100,1.0,8.0,61.0,,3.06,,us-east-1,a,9\n");
  CHECK_FALSE(imp.ok);
  CHECK(mentions(imp, "import.column_twice{column=Price,first_value=7,second_value=11}", false));
}

TEST_CASE("hex, inf and nan prices are not prices", "[skypilot][csv]") {
  for (const char* price : {"0x1p3", "0x10", "inf", "nan", "1,5"}) {
    INFO(price);
    const SkypilotImport imp = run(kHead + "\np3.2xlarge,V100,1.0,8.0,61.0,,\"" + price + "\",,us-east-1,a\n");
    CHECK_FALSE(imp.ok);
  }
}

TEST_CASE("a spot price above on-demand is reported", "[skypilot][csv]") {
  const SkypilotImport imp = run(kHead + "\np3.2xlarge,V100,1.0,8.0,61.0,,3.06,9.5,us-east-1,a\n");
  REQUIRE(imp.ok);
  CHECK(mentions(imp, "import.spot_above_price{spot=9.5,price=3.06}", true));
}

TEST_CASE("import dates must be calendar dates in the stated years", "[skypilot][csv]") {
  Engine& e = gpuvalue_test::loadedEngine();
  const std::string csv = kHead + "\np3.2xlarge,V100,1.0,8.0,61.0,,3.06,,us-east-1,a\n";
  for (const char* d : {"2026-02-30", "2026-13-01", "2025-02-29", "1989-12-31", "2201-01-01", "26-01-01"}) {
    INFO(d);
    const json r = gpuvalue_test::parse(e.importSkypilot(csv, std::string("{\"as_of\": \"") + d + "\"}"));
    CHECK(r["ok"] == false);
    CHECK(r["error"]["path"] == "/as_of");
    CHECK(r["error"]["message"] == json({{"code", "error.date"}, {"params", {{"value", d}}}}));
  }
  CHECK(gpuvalue_test::parse(e.importSkypilot(csv, "{\"as_of\": \"2024-02-29\"}"))["ok"] == true);
  CHECK_FALSE(isIsoDate("2026-02-30"));
  CHECK(isIsoDate("2000-02-29"));
  CHECK_FALSE(isIsoDate("1900-02-29"));
}
