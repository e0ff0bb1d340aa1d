// importSkypilot: a SkyPilot vms.csv (and options {provider?, as_of?, source?}) -> a catalog document in our
// format, with the rows read and skipped and every problem.
#include "api/answer.hpp"
#include "api/request_tables.hpp"
#include "api/state.hpp"
#include "import/skypilot.hpp"
#include "io/fields.hpp"
#include "io/limits.hpp"

namespace gpuvalue {

std::string apiImportSkypilot(EngineState& s, const std::string& csv_text, const std::string& options_json) {
  Issues issues;
  SkypilotOptions opt;
  if (!options_json.empty()) {
    json o;
    if (!parseJsonText(options_json, o, issues, "options", kMaxRequestBytes)) return errorResult(issues);
    ObjectReader r(o, "", issues);
    opt.provider = stringOr(r, request_tables::kImportProvider);
    opt.as_of = readString(r, request_tables::kImportAsOf).value_or(s.today);
    opt.source = stringOr(r, request_tables::kImportSource);
    // {instance type or upstream id: GPU id} of machines another catalog file maps (skypilot.hpp).
    if (const json* known = r.get(request_tables::kImportKnownGpus.name)) {
      const json& k = *known;
      if (!k.is_object()) issues.push_back({ErrorCode::kInvalidValue, "/known_gpus", Message("error.not_object")});
      else
        for (const auto& [type, gpu] : k.items())
          if (gpu.is_string()) opt.known_gpus[type] = gpu.get<std::string>();
          else issues.push_back({ErrorCode::kInvalidValue, "/known_gpus/" + pointerEscape(type), Message("error.not_string")});
    }
  } else {
    opt.as_of = s.today;
  }
  if (!isIsoDate(opt.as_of))
    issues.push_back({ErrorCode::kInvalidValue, "/as_of", Message("error.date").text("value", excerpt(opt.as_of))});
  if (hasErrors(issues)) return errorResult(issues);
  SkypilotImport imp = importSkypilotCsv(csv_text, s.gpus, opt);
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", imp.ok).key("catalog").document(imp.catalog).key("issues");
  writeIssues(j, imp.issues);
  j.field("rows", imp.rows).field("skipped_rows", imp.skipped).field("offers", imp.catalog["instances"].size());
  // Accelerator names the GPU database does not know, with how many rows name each, for the import report.
  j.key("unmapped").beginArray();
  for (const auto& [name, rows] : imp.unmapped) j.beginObject().field("name", name).field("rows", rows).endObject();
  j.endArray();
  // Rows left out because their hints disagree, for the import's ambiguous report.
  j.key("ambiguous").beginArray();
  for (const auto& a : imp.ambiguous)
    j.beginObject().field("line", a.line).field("instance_type", a.instance_type).field("accelerator", a.accelerator)
        .field("code", a.code).endObject();
  j.endArray();
  if (!imp.ok) writeFirstError(j, imp.issues);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
