// The Engine: dispatches API calls through the table in methods.cpp inside one exception guard, and runs the
// streamed catalog (catalogBegin .. catalogEnd).
#include "gpuvalue/engine.hpp"

#include <cmath>

#include "api/answer.hpp"
#include "api/methods.hpp"
#include "api/state.hpp"
#include "io/json_writer.hpp"

namespace gpuvalue {

namespace {

std::string internalError(const char* what) {
  Issues is{{ErrorCode::kInternal, "", Message("error.internal").text("detail", excerpt(what, 200))}};
  return errorResult(is);
}

// Every API call runs through this guard so that no exception crosses the API.
template <typename F>
std::string guarded(F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return internalError(e.what());
  } catch (...) {
    return internalError("unknown exception");
  }
}

std::string dispatch(EngineState& s, const std::string& method, const std::string& argument, const std::string& options) {
  return guarded([&] {
    const ApiMethod* m = findApiMethod(method);
    if (!m) {
      Issues issues{{ErrorCode::kNotFound, "", Message("error.unknown_method").text("id", excerpt(method))}};
      return errorResult(issues);
    }
    // A method this build leaves out (the widget's engine, methods.cpp): its name is known, its code is not here.
    if (!m->handler) {
      Issues issues{{ErrorCode::kNotFound, "", Message("error.method_not_in_engine").text("id", m->name)}};
      return errorResult(issues);
    }
    return m->handler(s, argument, options);
  });
}

}  // namespace

Engine::Engine() : state_(std::make_unique<State>()) {}
Engine::~Engine() = default;

std::string Engine::call(const std::string& method, const std::string& argument, const std::string& options) {
  return dispatch(*state_, method, argument, options);
}

std::string Engine::methods() const {
  return guarded([&] {
    std::string out;
    JsonWriter j(out);
    j.beginObject().field("ok", true).key("methods").beginArray();
    for (size_t i = 0; i < kApiMethodCount; ++i)
      if (kApiMethods[i].handler)  // the methods this build carries
        j.beginObject().field("name", kApiMethods[i].name).field("argument", argumentKindName(kApiMethods[i].argument))
            .field("description", kApiMethods[i].description).endObject();
    j.endArray().endObject();
    return out;
  });
}

std::string Engine::defaults() const { return dispatch(*state_, "defaults", "", ""); }
std::string Engine::presets() const { return dispatch(*state_, "presets", "", ""); }
std::string Engine::gpus() const { return dispatch(*state_, "gpus", "", ""); }
std::string Engine::catalogSummary() const { return dispatch(*state_, "catalogSummary", "", ""); }

void Engine::setToday(const std::string& today) { state_->today = today; }
const GpuDatabase& Engine::gpuDatabase() const { return state_->gpus; }
const Catalog& Engine::catalog() const { return state_->catalog; }

std::string Engine::catalogBegin(const std::string& mode, double total_bytes) {
  return guarded([&] {
    State& st = *state_;
    Issues issues;
    st.stream.reset();
    if (st.gpus.empty()) issues.push_back({ErrorCode::kNotFound, "", Message("error.gpus_not_loaded")});
    if (mode != "load" && mode != "add" && mode != "validate")
      issues.push_back({ErrorCode::kInvalidValue, "", notOneOf(mode, "load, add, validate")});
    if (hasErrors(issues)) return errorResult(issues);
    auto s = std::make_unique<State::Stream>();
    s->replace = mode != "add";
    s->dry_run = mode == "validate";
    if (!s->replace)
      for (const auto& o : st.catalog.offers) s->ids.insert(o.id);
    s->reader = std::make_unique<CatalogStreamReader>(st.gpus, s->ids, st.today);
    if (std::isfinite(total_bytes) && total_bytes > 0 && total_bytes < 4e9) s->reader->expectBytes(static_cast<size_t>(total_bytes));
    st.stream = std::move(s);
    return std::string("{\"ok\":true}");
  });
}

char* Engine::catalogBuffer(size_t bytes) {
  State::Stream* s = state_->stream.get();
  if (!s) return nullptr;
  try {
    if (s->buffer.size() < bytes) s->buffer.resize(bytes);
  } catch (...) {
    return nullptr;
  }
  return s->buffer.data();
}

bool Engine::catalogFeed(size_t bytes) {
  State::Stream* s = state_->stream.get();
  if (!s || bytes > s->buffer.size()) return false;
  try {
    return s->reader->feed(s->buffer.data(), bytes);
  } catch (...) {
    return false;
  }
}

std::string Engine::catalogEnd() {
  return guarded([&] {
    Issues issues;
    if (!state_->stream) {
      issues.push_back({ErrorCode::kNotFound, "", Message("error.no_catalog_stream")});
      return errorResult(issues);
    }
    std::unique_ptr<State::Stream> s = std::move(state_->stream);
    Catalog fresh;
    if (s->reader->sizeIssues(issues)) return errorResult(issues);
    if (!s->reader->finish(fresh, issues)) {
      issues.push_back({ErrorCode::kJsonSyntax, "", Message("error.catalog_stream_syntax")});
      return errorResult(issues, true);
    }
    return applyCatalog(*state_, fresh, issues, s->replace, s->dry_run);
  });
}

}  // namespace gpuvalue
