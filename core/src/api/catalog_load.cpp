// loadCatalog, addCatalog and validate: one catalog operation (replace, add, or only check) over catalog text
// (one document or an array of documents); validate also recognises a GPU database or presets.
#include <unordered_set>

#include "api/answer.hpp"
#include "api/state.hpp"

namespace gpuvalue {

std::string apiLoadPresets(EngineState&, const std::string&, const std::string&);

std::string applyCatalog(EngineState& s, Catalog& fresh, Issues& found, bool replace, bool dry_run) {
  if (hasErrors(found)) return errorResult(found);
  const size_t n = fresh.offers.size();
  if (!dry_run) {
    s.dataChanged();
    if (replace) s.catalog = std::move(fresh);
    else appendOffers(s.catalog.offers, fresh.offers);
  }
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("count", n).field("total", s.catalog.offers.size()).key("issues");
  writeIssues(j, found);
  j.endObject();
  return out;
}

namespace {

std::string catalogOp(EngineState& s, const std::string& text, bool replace, bool dry_run) {
  Issues issues;
  if (s.gpus.empty()) {
    issues.push_back({ErrorCode::kNotFound, "", Message("error.gpus_not_loaded")});
    return errorResult(issues);
  }
  Catalog fresh;
  std::unordered_set<std::string> ids;
  if (!replace)
    for (const auto& o : s.catalog.offers) ids.insert(o.id);
  if (parseCatalogStream(text, s.gpus, ids, fresh, s.today, issues)) return applyCatalog(s, fresh, issues, replace, dry_run);
  if (hasErrors(issues)) return errorResult(issues);  // too large to read whole either
  json doc;
  if (!parseJsonText(text, doc, issues, "catalog")) return errorResult(issues);
  // Either one document or an array of documents (paths are prefixed with the document index).
  if (doc.is_array()) {
    for (size_t i = 0; i < doc.size(); ++i) {
      Issues sub = parseCatalog(doc[i], s.gpus, ids, fresh, s.today);
      for (auto& is : sub) {
        is.path = "/" + std::to_string(i) + is.path;
        issues.push_back(std::move(is));
      }
    }
  } else {
    issues = parseCatalog(doc, s.gpus, ids, fresh, s.today);
  }
  return applyCatalog(s, fresh, issues, replace, dry_run);
}

}  // namespace

std::string apiLoadCatalog(EngineState& s, const std::string& text, const std::string&) { return catalogOp(s, text, true, false); }
std::string apiAddCatalog(EngineState& s, const std::string& text, const std::string&) { return catalogOp(s, text, false, false); }

std::string apiValidate(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json doc;
  if (!parseJsonText(text, doc, issues, "document")) return errorResult(issues);
  if (doc.is_object() && doc.contains("gpus")) {
    GpuDatabase db;
    issues = db.load(text);
    if (hasErrors(issues)) return errorResult(issues);
    std::string out;
    JsonWriter j(out);
    j.beginObject().field("ok", true).field("kind", "gpus").field("count", db.all().size()).key("issues");
    writeIssues(j, issues);
    j.endObject();
    return out;
  }
  if (doc.is_object() && doc.contains("presets")) {
    EngineState scratch;
    return apiLoadPresets(scratch, text, "");
  }
  return catalogOp(s, text, true, true);
}

}  // namespace gpuvalue
