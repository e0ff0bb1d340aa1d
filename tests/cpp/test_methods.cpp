// The dispatch table (core/src/api/methods.cpp): every row has a handler and answers through Engine::call, the
// table is what Engine::methods() lists, and an unknown name gets a clean not_found answer.
#include <catch2/catch.hpp>

#include <set>

#include "api/methods.hpp"
#include "test_support.hpp"

using namespace gpuvalue;
using gpuvalue_test::parse;

TEST_CASE("every row of the dispatch table has a name, a handler and a description, and names are unique", "[methods]") {
  REQUIRE(kApiMethodCount >= 20);
  std::set<std::string> names;
  for (size_t i = 0; i < kApiMethodCount; ++i) {
    const ApiMethod& m = kApiMethods[i];
    INFO("row " << i << ": " << (m.name ? m.name : "(no name)"));
    REQUIRE(m.name != nullptr);
    CHECK(std::string(m.name) != "");
    CHECK(m.handler != nullptr);
    REQUIRE(m.description != nullptr);
    CHECK(std::string(m.description).size() > 10);
    CHECK(names.insert(m.name).second);
    CHECK(findApiMethod(m.name) == &m);
  }
}

TEST_CASE("Engine::methods() lists the table in order with each method's argument kind", "[methods]") {
  const json listed = parse(Engine().methods());
  REQUIRE(listed.value("ok", false));
  REQUIRE(listed["methods"].size() == kApiMethodCount);
  for (size_t i = 0; i < kApiMethodCount; ++i) {
    const json& m = listed["methods"][i];
    CHECK(m.value("name", "") == kApiMethods[i].name);
    CHECK(m.value("argument", "") == argumentKindName(kApiMethods[i].argument));
    CHECK(m.value("description", "") == kApiMethods[i].description);
  }
  // The kinds the page and the CLI rely on.
  CHECK(findApiMethod("rank")->argument == ArgumentKind::kRequest);
  CHECK(findApiMethod("loadCatalog")->argument == ArgumentKind::kDocument);
  CHECK(findApiMethod("importSkypilot")->argument == ArgumentKind::kCsv);
  CHECK(findApiMethod("defaults")->argument == ArgumentKind::kNone);
}

TEST_CASE("every method answers through Engine::call, on an empty engine and with bad arguments, never internally failing", "[methods]") {
  for (const char* arg : {"", "{}", "[", "null"}) {
    Engine e;
    for (size_t i = 0; i < kApiMethodCount; ++i) {
      INFO(kApiMethods[i].name << " with \"" << arg << "\"");
      const json r = parse(e.call(kApiMethods[i].name, arg));
      REQUIRE(r.contains("ok"));
      REQUIRE(r["ok"].is_boolean());
      if (!r["ok"].get<bool>()) {
        CHECK(r["error"].value("code", "") != "internal");
        CHECK(r["error"]["message"].value("code", "") != "");
      }
    }
  }
}

TEST_CASE("every request method answers text that is not JSON, or not a JSON object, with that one problem", "[methods]") {
  // The request methods share one reader of the request text (api/request.hpp Request): a syntax error is reported
  // at its line and column, anything but an object at the request's root, and nothing else is reported with it.
  Engine& e = gpuvalue_test::loadedEngine();
  size_t request_methods = 0;
  for (size_t i = 0; i < kApiMethodCount; ++i) {
    if (kApiMethods[i].argument != ArgumentKind::kRequest) continue;
    ++request_methods;
    INFO(kApiMethods[i].name);
    const json syntax = parse(e.call(kApiMethods[i].name, "{\"hours\": 1,"));
    CHECK(syntax.value("ok", true) == false);
    CHECK(syntax["issues"].size() == 1);
    CHECK(syntax["error"].value("code", "") == "json_syntax");
    CHECK(syntax["error"].value("path", "").rfind("line 1, column ", 0) == 0);
    for (const char* not_object : {"[1, 2]", "\"rank\"", "7"}) {
      INFO(not_object);
      const json answer = parse(e.call(kApiMethods[i].name, not_object));
      CHECK(answer.value("ok", true) == false);
      CHECK(answer["issues"].size() == 1);
      CHECK(answer["error"].value("path", "x") == "");
      CHECK(answer["error"]["message"].value("code", "") == "error.not_object");
    }
  }
  CHECK(request_methods >= 14);
}

TEST_CASE("an unknown method name answers exactly {ok: false, error: {code: not_found, ...}}", "[methods]") {
  Engine& e = gpuvalue_test::loadedEngine();
  for (const std::string name : {"", "nope", "RANK", "rank ", "catalogBegin", "setToday", "methods"}) {
    INFO("\"" << name << "\"");
    const json r = parse(e.call(name, "{}"));
    CHECK(r.value("ok", true) == false);
    REQUIRE(r["error"].is_object());
    CHECK(r["error"].value("code", "") == "not_found");
    CHECK(r["error"].value("path", "x") == "");
    CHECK(r["error"]["message"] == json({{"code", "error.unknown_method"}, {"params", {{"id", name}}}}));
    CHECK(r["issues"].is_array());
  }
}

TEST_CASE("the named shorthands answer what Engine::call answers", "[methods]") {
  Engine& e = gpuvalue_test::loadedEngine();
  const std::string cost = R"({"instance": "GN10", "hours": 150, "pricing": "tiered"})";
  CHECK(e.cost(cost) == e.call("cost", cost));
  const std::string rank = R"({"preset": "resnet50-imagenet", "limit": 3})";
  CHECK(e.rank(rank) == e.call("rank", rank));
  CHECK(e.defaults() == e.call("defaults", ""));
  CHECK(e.gpus() == e.call("gpus", ""));
  CHECK(parse(e.cost(cost)).value("cost_usd", 0.0) == Approx(1160));
}
