// JsonWriter's numbers: every finite double is written in a form that reads back as the same double, with at
// most 17 significant digits and no more than needed among 15, 16 and 17; whole numbers keep their ".0".
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include "io/json_reader.hpp"
#include "io/json_writer.hpp"

using gpuvalue::JsonWriter;

namespace {

std::string written(double d) {
  std::string out;
  JsonWriter j(out);
  j.beginArray().value(d).endArray();
  return out.substr(1, out.size() - 2);
}

}  // namespace

TEST_CASE("JsonWriter writes every finite double so that it reads back exactly, in no more digits than needed", "[json_writer]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    double d;
    if (i % 2) {
      const uint64_t bits = rng();
      std::memcpy(&d, &bits, sizeof d);
      if (!std::isfinite(d)) continue;
    } else {
      d = std::uniform_real_distribution<double>(-1e6, 1e6)(rng) / static_cast<double>(1 + rng() % 1000);
    }
    const std::string s = written(d);
    INFO(s);
    REQUIRE(std::strtod(s.c_str(), nullptr) == d);
    // 15 significant digits when they suffice.
    char p15[40];
    std::snprintf(p15, sizeof p15, "%.15g", d);
    if (std::strtod(p15, nullptr) == d && !(d == std::floor(d) && std::fabs(d) < 1e15)) CHECK(s == p15);
    // What nlohmann::json reads is the same number.
    CHECK(gpuvalue::json::parse(s).get<double>() == d);
  }
}

TEST_CASE("JsonWriter keeps whole numbers as N.0, short decimals short, and non-finite numbers out", "[json_writer]") {
  CHECK(written(0.0) == "0.0");
  CHECK(written(-0.0) == "-0.0");
  CHECK(written(8.0) == "8.0");
  CHECK(written(-1160.0) == "-1160.0");
  CHECK(written(0.1) == "0.1");
  CHECK(written(3.06) == "3.06");
  CHECK(written(1.0 / 3.0) == "0.3333333333333333");
  CHECK(written(1e-7) == "1e-07");
  CHECK(written(2.5e20) == "2.5e+20");
  const size_t before = gpuvalue::nonFiniteNumbersWritten();
  CHECK(written(std::nan("")) == "0.0");
  CHECK(gpuvalue::nonFiniteNumbersWritten() == before + 1);
}

TEST_CASE("JsonWriter::document writes a DOM read from input member by member, escaping its keys", "[json_writer]") {
  const gpuvalue::json doc = gpuvalue::json::parse(R"({"a\"b": [1, 2.5, "x\u00e9", null, true, {"n": -3}], "big": 18446744073709551615})");
  std::string out;
  JsonWriter j(out);
  j.document(doc);
  const gpuvalue::json back = gpuvalue::json::parse(out);
  CHECK(back["a\"b"] == doc["a\"b"]);
  CHECK(back["big"].get<double>() == Approx(1.8446744073709552e19));
  CHECK(out.find("\\u00e9") != std::string::npos);  // ASCII out
}
