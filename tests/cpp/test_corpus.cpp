// The bad-input corpus (tests/corpus/, expectations in tests/corpus/expected.json) and generated hostile inputs
// (100,000-level nesting, a 100 MB document) against the engine's JSON-text API: every answer is well-formed JSON
// with the expected error code, path and message, no exception or NaN escapes, and the engine keeps its data and
// keeps answering. The same suite runs natively, under the sanitizers and as wasm under node.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "io/json_writer.hpp"
#include "test_support.hpp"

using gpuvalue::Engine;
using gpuvalue::json;

namespace {

const char* kImportOptions = R"({"provider": "AWS", "as_of": "2026-11-01"})";

std::vector<std::string> listDir(const std::string& rel) {
  std::vector<std::string> names;
  if (DIR* d = opendir((std::string(GPUVALUE_SOURCE_DIR) + "/" + rel).c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != ".." && e->d_type != DT_DIR) names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

const json& expectations() {
  static const json e = gpuvalue_test::parse(gpuvalue_test::readFile("tests/corpus/expected.json"));
  return e;
}

// An engine of its own with the real GPU database, catalog and presets (the corpus changes what it loads).
std::unique_ptr<Engine> corpusEngine() {
  auto e = std::make_unique<Engine>();
  e->setToday("2026-12-02");
  auto check = [](const std::string& r) { REQUIRE(gpuvalue_test::parse(r).value("ok", false)); };
  check(e->loadGpus(gpuvalue_test::readFile("data/gpus.json")));
  check(e->loadCatalog(gpuvalue_test::allCatalogsText()));
  check(e->loadPresets(gpuvalue_test::readFile("data/presets.json")));
  return e;
}

// The engine's dispatch table, by the kind of argument a method takes ("document", "request", "csv", "none").
std::set<std::string> methodsTaking(const std::string& argument) {
  std::set<std::string> names;
  const json table = gpuvalue_test::parse(Engine().methods());
  for (const auto& m : table["methods"])
    if (m.value("argument", "") == argument) names.insert(m.value("name", ""));
  return names;
}
// Read on first use (not during static initialisation, when the table's translation unit may not be ready).
const std::set<std::string>& loadMethods() {
  static const std::set<std::string> names = methodsTaking("document");
  return names;
}
const std::set<std::string>& requestMethods() {
  static const std::set<std::string> names = methodsTaking("request");
  return names;
}

// Any method of the table through Engine::call (importSkypilot with fixed options).
std::string call(Engine& e, const std::string& method, const std::string& text) {
  if (!loadMethods().count(method) && !requestMethods().count(method) && method != "importSkypilot")
    FAIL("not an engine method taking text: " << method);
  return e.call(method, text, method == "importSkypilot" ? kImportOptions : "");
}

// What every answer must be, whatever the input: JSON (valid UTF-8), {"ok": bool}, an error with code, path and
// message that is not "internal" (an escaped exception), and no NaN/Infinity on the way out.
json wellFormed(const std::string& method, const std::string& out, size_t non_finite_before) {
  INFO(method << " answered: " << out.substr(0, 1500));
  CHECK(gpuvalue::nonFiniteNumbersWritten() == non_finite_before);
  json j = json::parse(out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  REQUIRE(j.is_object());
  REQUIRE(j.contains("ok"));
  REQUIRE(j["ok"].is_boolean());
  if (!j["ok"].get<bool>()) {
    REQUIRE(j.contains("error"));
    const json& err = j["error"];
    REQUIRE(err.is_object());
    CHECK(err.value("code", "") != "internal");
    CHECK(err.contains("path"));
    REQUIRE(err.contains("message"));
    CHECK(err["message"].is_object());
    CHECK(err["message"].value("code", "") != "");
    CHECK(err["message"]["params"].is_object());
    REQUIRE(j.contains("issues"));
    CHECK(j["issues"].is_array());
  }
  return j;
}

struct Snapshot {
  size_t offers, gpus;
  std::string presets;
};

Snapshot snapshot(const Engine& e) { return {e.catalog().offers.size(), e.gpuDatabase().all().size(), e.presets()}; }

// The engine still has its data and still answers: the article's GN10 example (150 h tiered = $1160, README) and an
// estimate on an H100 node.
void stillWorks(Engine& e, const Snapshot& before, const std::string& what) {
  INFO("after " << what);
  const Snapshot now = snapshot(e);
  CHECK(now.offers == before.offers);
  CHECK(now.gpus == before.gpus);
  CHECK(now.presets == before.presets);
  json c = gpuvalue_test::parse(e.cost(R"({"instance": "GN10", "hours": 150, "pricing": "tiered"})"));
  CHECK(c.value("ok", false));
  CHECK(c.value("cost_usd", 0.0) == Approx(1160));
  json r = gpuvalue_test::parse(e.estimate(R"({"preset": "llama2-7b-pretrain", "gpu": "h100-sxm5-80gb", "count": 8})"));
  CHECK(r.value("ok", false));
  CHECK(r.value("time_hours", 0.0) > 0);
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

// True when the message has the wanted code and every parameter the expectation lists, with the same value.
bool sameMessage(const json& got, const json& want) {
  if (!got.is_object() || got.value("code", "") != want.value("code", "?")) return false;
  const json params = got.value("params", json::object());
  const json wanted = want.value("params", json::object());
  for (auto p = wanted.begin(); p != wanted.end(); ++p)
    if (!params.contains(p.key()) || params[p.key()] != p.value()) return false;
  return true;
}

// Checks one answer against its expectation; returns a description of every mismatch (empty when all match), so
// that known bugs can be reported without failing.
std::vector<std::string> mismatches(Engine& e, const json& want, const json& got) {
  std::vector<std::string> bad;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) bad.push_back(what);
  };
  const bool ok = want.value("ok", false);
  expect(got.value("ok", !ok) == ok, std::string("ok should be ") + (ok ? "true" : "false"));
  if (!ok && got.contains("error") && got["error"].is_object()) {
    const json& err = got["error"];
    if (want.contains("code")) expect(err.value("code", "") == want["code"].get<std::string>(), "code should be " + want["code"].dump());
    if (want.contains("path")) expect(err.value("path", "?") == want["path"].get<std::string>(), "path should be " + want["path"].dump());
    if (want.contains("message"))
      expect(sameMessage(err.value("message", json()), want["message"]),
             "message should be " + want["message"].dump() + ", not " + err.value("message", json()).dump());
  }
  // An issue at the path (any path when empty) with this message (its code and the parameters listed).
  auto issueText = [&](const std::string& path_or_empty, const json& message) {
    for (const auto& i : got.value("issues", json::array()))
      if ((path_or_empty.empty() || i.value("path", "") == path_or_empty) && sameMessage(i.value("message", json()), message))
        return true;
    return false;
  };
  for (const auto& p : want.value("also_paths", json::array())) {
    bool found = false;
    for (const auto& i : got.value("issues", json::array())) found = found || i.value("path", "") == p.get<std::string>();
    expect(found, "an issue should name " + p.dump());
  }
  for (const auto& m : want.value("also_messages", json::array()))
    expect(issueText("", m), "an issue should say " + m.dump());
  for (const auto& w : want.value("warnings", json::array()))
    expect(issueText(w[0].get<std::string>(), w[1]), "a warning should say " + w.dump());
  if (want.contains("count")) expect(got.value("count", -1) == want["count"].get<int>(), "count should be " + want["count"].dump());
  if (want.contains("offers")) expect(got.value("offers", -1) == want["offers"].get<int>(), "offers should be " + want["offers"].dump());
  if (want.contains("output_strings")) {
    // Strings come back as the same text (no mangling, no HTML escaping: the page escapes what it shows).
    std::set<std::string> strings;
    std::vector<const json*> stack{&got};
    while (!stack.empty()) {
      const json* v = stack.back();
      stack.pop_back();
      if (v->is_string()) strings.insert(v->get<std::string>());
      else if (v->is_structured())
        for (const auto& c : *v) stack.push_back(&c);
    }
    for (const auto& s : want["output_strings"]) expect(strings.count(s.get<std::string>()) > 0, "the answer should carry " + s.dump());
  }
  // An import that succeeds must give a catalog the engine accepts.
  if (ok && got.contains("catalog") && got.value("offers", 0) > 0) {
    json v = gpuvalue_test::parse(e.validate(got["catalog"].dump()));
    expect(v.value("ok", false), "the engine should accept the imported catalog: " + v.value("error", json()).dump());
  }
  return bad;
}

std::string describe(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "\n  - " + x;
  return s;
}

// Runs every corpus entry whose method is in `methods` (known bugs excluded) on one engine.
void runCorpus(const std::set<std::string>& methods) {
  auto engine = corpusEngine();
  size_t ran = 0;
  for (auto it = expectations().begin(); it != expectations().end(); ++it) {
    const json& want = it.value();
    const std::string method = want.value("method", "");
    if (!methods.count(method) || want.contains("known_bug")) continue;
    ++ran;
    Engine& e = *engine;
    INFO("tests/corpus/" << it.key() << " via " << method);
    const std::string text = gpuvalue_test::readFile("tests/corpus/" + it.key());
    const Snapshot before = snapshot(e);
    const size_t nf = gpuvalue::nonFiniteNumbersWritten();
    const json got = wellFormed(method, call(e, method, text), nf);
    const auto bad = mismatches(e, want, got);
    INFO("answer: " << got.dump().substr(0, 1500));
    CHECK(describe(bad) == "");
    if (want.value("ok", false) && (method == "loadCatalog" || method == "addCatalog" || method == "loadGpus" ||
                                    method == "loadPresets")) {
      engine = corpusEngine();  // the corpus document replaced or extended the data on purpose
      continue;
    }
    stillWorks(e, before, it.key());
  }
  CHECK(ran >= 10);
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("every corpus file has an expectation and every expectation names a corpus file", "[corpus]") {
  std::set<std::string> files;
  for (const auto& n : listDir("tests/corpus"))
    if (n != "expected.json") files.insert(n);
  std::set<std::string> listed;
  for (auto it = expectations().begin(); it != expectations().end(); ++it) {
    listed.insert(it.key());
    INFO(it.key());
    const std::string m = it.value().value("method", "");
    CHECK((loadMethods().count(m) || requestMethods().count(m) || m == "importSkypilot"));
    CHECK(it.value().contains("ok"));
    if (!it.value().value("ok", true)) {
      CHECK(it.value().contains("code"));
      CHECK(it.value().contains("path"));
      CHECK(it.value().contains("message"));
    }
  }
  for (const auto& f : files) {
    INFO(f << " has no entry in tests/corpus/expected.json");
    CHECK(listed.count(f) == 1);
  }
  for (const auto& l : listed) {
    INFO(l << " is in expected.json but not in tests/corpus/");
    CHECK(files.count(l) == 1);
  }
  CHECK(files.size() >= 100);
}

TEST_CASE("bad catalogs, GPU databases and presets are rejected with the expected code, path and message, and the loaded data stays", "[corpus]") {
  runCorpus(loadMethods());
}

TEST_CASE("bad requests are rejected with the expected code, path and message, and the engine keeps answering", "[corpus]") {
  runCorpus(requestMethods());
}

TEST_CASE("broken SkyPilot CSV files get the expected error or row-by-row warnings, and clean imports load back", "[corpus][skypilot]") {
  runCorpus({"importSkypilot"});
}

TEST_CASE("hostile strings in names, providers and regions are ranked and priced as the same plain text", "[corpus]") {
  auto engine = corpusEngine();
  Engine& e = *engine;
  const json doc = gpuvalue_test::parse(gpuvalue_test::readFile("tests/corpus/catalog-hostile-strings.json"));
  REQUIRE(gpuvalue_test::parse(e.addCatalog(doc.dump())).value("ok", false));
  for (const auto& offer : doc["instances"]) {
    const std::string provider = offer["provider"].get<std::string>();
    INFO(offer["id"].get<std::string>());
    const size_t nf = gpuvalue::nonFiniteNumbersWritten();
    json req = {{"preset", "resnet50-imagenet"}, {"filters", {{"providers", {provider}}}}};
    const std::string text = e.rank(req.dump());
    const json r = wellFormed("rank", text, nf);
    REQUIRE(r.value("ok", false));
    REQUIRE(r["results"].size() == 1);
    const json& x = r["results"][0];
    CHECK(x["provider"] == offer["provider"]);
    CHECK(x["region"] == offer["region"]);
    CHECK(x["instance"] == offer["instance_type"]);
    CHECK(x["source"] == offer["prices"][0]["source"]);
    CHECK(text.find('\0') == std::string::npos);  // NUL travels as \u0000
    const json c = wellFormed("cost", e.cost(json({{"instance", offer["id"]}, {"hours", 10}}).dump()), nf);
    CHECK(c["provider"] == offer["provider"]);
    CHECK(c.value("cost_usd", 0.0) == Approx(200));
  }
  const json s = gpuvalue_test::parse(e.catalogSummary());
  size_t hostile = 0;
  for (const auto& o : s["offers"]) hostile += o["id"].get<std::string>().rfind("hostile-", 0) == 0;
  CHECK(hostile == 3);
}

TEST_CASE("JSON nested 100,000 levels deep is rejected by every JSON entry point without exhausting the stack", "[corpus][deep]") {
  auto engine = corpusEngine();
  Engine& e = *engine;
  const Snapshot before = snapshot(e);
  const size_t depth = 100000;
  const std::vector<std::string> docs = {
      repeat("[", depth) + repeat("]", depth),
      repeat("{\"a\":", depth) + "1" + repeat("}", depth),
      "{\"instances\": " + repeat("[", depth) + repeat("]", depth) + "}",
      repeat("[", depth),  // unterminated as well
  };
  std::vector<std::string> methods(loadMethods().begin(), loadMethods().end());
  methods.insert(methods.end(), requestMethods().begin(), requestMethods().end());
  for (const auto& doc : docs) {
    for (const auto& m : methods) {
      INFO(m << " with " << doc.substr(0, 20) << "...");
      const size_t nf = gpuvalue::nonFiniteNumbersWritten();
      const json r = wellFormed(m, call(e, m, doc), nf);
      CHECK_FALSE(r.value("ok", true));
      CHECK(r["error"].value("code", "") == "json_syntax");
      CHECK(r["error"]["message"].value("code", "") == "error.too_deep");
    }
  }
  // The SkyPilot options are JSON too; a GpuInfo cell is a Python literal that the importer parses as JSON.
  const size_t nf = gpuvalue::nonFiniteNumbersWritten();
  const json o = wellFormed("importSkypilot", e.importSkypilot("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n",
                                                               repeat("[", depth) + repeat("]", depth)), nf);
  CHECK(o["error"].value("code", "") == "json_syntax");
  const std::string csv = "InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Price,Region\np3.2xlarge,V100,1,\"" +
                          repeat("[", depth) + repeat("]", depth) + "\",3.06,us-east-1\n";
  const json g = wellFormed("importSkypilot", e.importSkypilot(csv, kImportOptions), nf);
  CHECK(g.value("offers", 0) == 1);
  stillWorks(e, before, "100,000-level documents");
}

TEST_CASE("256 levels of nesting are still parsed and 257 are refused", "[corpus][deep]") {
  auto engine = corpusEngine();
  const json ok = gpuvalue_test::parse(engine->estimate(repeat("[", 256) + repeat("]", 256)));
  CHECK(ok["error"].value("code", "") == "invalid_value");  // parsed: an array is not a request object
  const json deep = gpuvalue_test::parse(engine->estimate(repeat("[", 257) + repeat("]", 257)));
  CHECK(deep["error"].value("code", "") == "json_syntax");
  CHECK(deep["error"].value("path", "") == "line 1");
}

TEST_CASE("a 100 MB catalog (16 MB in wasm) is refused at its one bad price, by path, and the loaded catalog stays", "[corpus][big]") {
#ifdef __EMSCRIPTEN__
  const size_t target = 16u << 20;  // node's wasm heap and the time budget of the wasm layer
#else
  const size_t target = 100u * 1000 * 1000;
#endif
  // Offers with a 10 kB note each (notes are free text the engine ignores), the last one priced at -1 USD/h.
  const std::string note(10000, 'x');
  std::string doc = "{\"schema_version\": 1, \"instances\": [";
  doc.reserve(target + 20000);
  size_t n = 0;
  while (doc.size() < target) {
    doc += (n ? "," : "");
    doc += "{\"id\": \"big-" + std::to_string(n) + "\", \"provider\": \"Big\", \"instance_type\": \"b" + std::to_string(n) +
           "\", \"gpu\": \"a100-sxm4-80gb\", \"gpu_count\": 8, \"region\": \"r\", \"notes\": \"" + note +
           "\", \"prices\": [{\"model\": \"on_demand\", \"usd_per_hour\": 20, \"as_of\": \"2026-11-01\", \"source\": \"s\"}]}";
    ++n;
  }
  doc += "]}";
  const size_t last_price = doc.rfind("\"usd_per_hour\": 20");
  doc.replace(last_price, 18, "\"usd_per_hour\": -1");
  auto engine = corpusEngine();
  Engine& e = *engine;
  const Snapshot before = snapshot(e);
  const size_t nf = gpuvalue::nonFiniteNumbersWritten();
  const auto t0 = std::chrono::steady_clock::now();
  const json r = wellFormed("loadCatalog", e.loadCatalog(doc), nf);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO(doc.size() << " bytes, " << n << " offers, answered in " << seconds << " s");
  CHECK_FALSE(r.value("ok", true));
  CHECK(r["error"].value("path", "") == "/instances/" + std::to_string(n - 1) + "/prices/0/usd_per_hour");
  // How long it takes is the bench's business; a reader that hangs is stopped by the test runner (scripts/catch2.mjs).
  WARN("a " << doc.size() / 1e6 << " MB catalog was answered in " << seconds << " s");
  stillWorks(e, before, "the big catalog");
  // The same document without its bad price loads.
  const size_t bad = doc.rfind("\"usd_per_hour\": -1");
  REQUIRE(bad != std::string::npos);
  doc.replace(bad, 18, "\"usd_per_hour\": 20");
  const json ok = wellFormed("loadCatalog", e.loadCatalog(doc), nf);
  CHECK(ok.value("ok", false));
  CHECK(ok.value("count", 0) == static_cast<int>(n));
}

TEST_CASE("known importer bugs in the corpus still reproduce and are reported until they are fixed", "[corpus][known-bug]") {
  size_t known = 0;
  for (auto it = expectations().begin(); it != expectations().end(); ++it) {
    const json& want = it.value();
    if (!want.contains("known_bug")) continue;
    ++known;
    auto engine = corpusEngine();
    Engine& e = *engine;
    INFO("tests/corpus/" << it.key());
    const std::string method = want.value("method", "");
    const Snapshot before = snapshot(e);
    const size_t nf = gpuvalue::nonFiniteNumbersWritten();
    const std::string out = call(e, method, gpuvalue_test::readFile("tests/corpus/" + it.key()));
    // Whatever the bug, the answer is JSON and the engine keeps working.
    const json got = json::parse(out, nullptr, false);
    REQUIRE_FALSE(got.is_discarded());
    auto bad = mismatches(e, want, got);
    if (gpuvalue::nonFiniteNumbersWritten() != nf) bad.push_back("the answer carried a NaN or Infinity (written as null)");
    stillWorks(e, before, it.key());
    if (bad.empty())
      FAIL_CHECK(it.key() << " now behaves as expected: remove its \"known_bug\" note from tests/corpus/expected.json");
    else
      WARN("known bug, " << it.key() << ": " << want["known_bug"].get<std::string>() << describe(bad));
  }
  CHECK(known <= 4);  // the list only shrinks
}

TEST_CASE("inputs the fuzzers crashed on (tests/corpus/fuzz-crashes) get well-formed answers and leave the engine working", "[corpus][fuzz]") {
  auto engine = corpusEngine();
  const auto files = listDir("tests/corpus/fuzz-crashes");
  for (const auto& f : files) {
    if (f == "README.md") continue;
    INFO("tests/corpus/fuzz-crashes/" << f);
    const std::string input = gpuvalue_test::readFile("tests/corpus/fuzz-crashes/" + f);
    const std::string target = f.substr(0, f.find('-'));
    std::vector<std::pair<std::string, std::string>> calls;  // method, text
    if (target == "catalog") calls = {{"validate", input}, {"loadCatalog", input}};
    else if (target == "gpus") calls = {{"validate", input}, {"loadGpus", input}};
    else if (target == "skypilot") calls = {{"importSkypilot", input}};
    else if (target == "workload") calls = {{"estimate", input}, {"rank", input}};
    else if (target == "requests") {
      const size_t nl = input.find('\n');
      const std::string first = nl == std::string::npos ? "" : input.substr(0, nl);
      if (requestMethods().count(first)) calls = {{first, input.substr(nl + 1)}};
      else
        for (const auto& m : requestMethods()) calls.push_back({m, input});
    } else {
      FAIL_CHECK("a fuzz crash file must start with the target name (catalog-, gpus-, skypilot-, workload-, requests-)");
    }
    for (const auto& [method, text] : calls) {
      Engine& e = *engine;
      const Snapshot before = snapshot(e);
      const size_t nf = gpuvalue::nonFiniteNumbersWritten();
      const json r = wellFormed(method, call(e, method, text), nf);
      if (r.value("ok", false) && loadMethods().count(method) && method != "validate") {
        engine = corpusEngine();
        continue;
      }
      stillWorks(e, before, f);
    }
  }
  CHECK(files.size() < 1000);
}
