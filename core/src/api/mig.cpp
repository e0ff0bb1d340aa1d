// mig: packs small jobs into MIG slices of one GPU type, prices the packing, and compares it with one whole
// smaller GPU per job. {"gpu", "jobs": "7x8gb,2x20gb@4h" | [{"count", "memory_gb", "compute_share"?, "hours"?}],
// "constants"?}
#include "api/answer.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

void readJobs(ObjectReader& r, std::vector<MigJob>& jobs, Issues& issues) {
  const json* jj = r.get(T::kJobs.name);
  if (!jj) {
    r.error(T::kJobs.name, ErrorCode::kMissingField, Message("error.mig_jobs_required"));
  } else if (jj->is_string()) {
    Message err;
    if (!parseMigJobSpec(jj->get<std::string>(), jobs, err)) r.error("jobs", ErrorCode::kInvalidValue, err);
  } else if (jj->is_array()) {
    for (size_t i = 0; i < jj->size(); ++i) {
      ObjectReader jr((*jj)[i], r.childPath(T::kJobs.name) + "/" + std::to_string(i), issues);
      if (!jr.ok()) continue;
      const int count = integerOr(jr, T::kJobCount, 1);
      MigJob job;
      job.memory_gb = readNumber(jr, T::kJobMemory).value_or(0);
      job.compute_share = readNumber(jr, T::kJobComputeShare).value_or(job.compute_share);
      job.hours = readNumber(jr, T::kJobHours).value_or(job.hours);
      for (int k = 0; k < count && jobs.size() <= 10000; ++k) jobs.push_back(job);
    }
    if (jobs.size() > 10000) r.error("jobs", ErrorCode::kInvalidValue, Message("error.mig_too_many_jobs").num("max_value", 10000));
  } else {
    r.error("jobs", ErrorCode::kInvalidValue, Message("error.mig_jobs_type"));
  }
  if (!hasErrors(issues) && jobs.empty()) r.error("jobs", ErrorCode::kInvalidValue, Message("error.mig_no_jobs"));
}

void writePacking(JsonWriter& j, const GpuSpec& g, const std::vector<MigJob>& jobs, const MigPacking& pack) {
  j.key("assignments").beginArray();
  for (const auto& p : pack.placements) {
    const MigProfile& prof = g.mig_profiles[p.profile];
    const MigJob& job = jobs[p.job];
    j.beginObject().field("job", p.job).field("memory_gb", job.memory_gb).field("compute_share", finiteOr(job.compute_share))
        .field("hours", job.hours).field("profile", prof.name).field("gpu_index", p.gpu_index).field("start_slice", p.start_slice)
        .field("memory_slices", migMemorySlices(g, prof)).field("compute_slices", prof.compute_slices).endObject();
  }
  j.endArray().key("layout").beginArray();
  for (int gi = 0; gi < pack.gpus; ++gi) {
    std::vector<std::string> profiles;
    int compute = 0, memory = 0;
    for (const auto& p : pack.placements)
      if (p.gpu_index == gi) {
        const MigProfile& prof = g.mig_profiles[p.profile];
        profiles.push_back(prof.name);
        compute += prof.compute_slices;
        memory += migMemorySlices(g, prof);
      }
    j.beginObject().field("gpu_index", gi).field("profiles", profiles).field("compute_slices_used", compute)
        .field("memory_slices_used", memory).field("hours", pack.gpu_hours[static_cast<size_t>(gi)]).endObject();
  }
  j.endArray().key("unplaced_jobs").beginArray();
  for (int u : pack.unplaced) j.value(u);
  j.endArray();
}

// Cost per job of an option, or 0 when it has no rental or no job.
double perJob(const Rental& rent, size_t jobs) { return rent.offer && jobs ? finiteOr(rent.cost_usd / static_cast<double>(jobs)) : 0; }

void writeAlternative(JsonWriter& j, const WholeGpuOption& a, const std::string& option, size_t jobs, double mig_tflops,
                      const std::string& today) {
  const size_t fit = a.jobs_that_fit;
  j.beginObject().field("option", option).field("gpu", a.gpu->id).field("gpu_name", a.gpu->name).field("fits", fit == jobs)
      .field("jobs_that_fit", fit).field("gpus_needed", fit).field("slowdown", finiteOr(a.slowdown)).key("offer");
  writeRental(j, a.rental.offer, a.rental.price, today);
  j.key("cost_usd");
  if (a.rental.offer) j.value(finiteOr(a.rental.cost_usd));
  else j.null();
  j.key("cost_per_job_usd");
  if (a.rental.offer && fit) j.value(perJob(a.rental, fit));
  else j.null();
  Messages note;
  if (fit < jobs) note.push_back(Message("mig.jobs_exceed").num("job_count", jobs - fit).num("memory_gb", a.gpu->memory_gb));
  if (!a.rental.offer) note.push_back(Message("mig.no_offer_whole"));
  else if (a.slowdown > 1 + 1e-9)
    note.push_back(Message("mig.slowdown").num("slowdown_ratio", a.slowdown).num("tflops", a.tflops).num("mig_tflops", mig_tflops));
  j.field("note", note).endObject();
}

}  // namespace

std::string apiMig(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  if (!r.ok()) return r.errorAnswer();
  const GpuSpec* g = gpuField(s.gpus, r);
  if (g && g->mig_profiles.empty())
    r.error("gpu", ErrorCode::kInvalidValue, Message("error.no_mig").text("gpu", g->id));
  std::vector<MigJob> jobs;
  readJobs(r, jobs, r.issues());
  ModelConstants k;
  readConstantsField(r.doc(), k, r.issues());
  const OfferScope scope = offerScopeField(r, s.today);
  if (r.failed()) return r.errorAnswer();

  const MigPacking pack = packMig(*g, jobs);
  const size_t placed = pack.placements.size();
  const Rental mig_rent = cheapestRental(s.catalog, g->id, pack.gpu_hours, scope);
  const double mig_tflops = genericTflops(*g, k);
  std::vector<std::pair<WholeGpuOption, std::string>> alternatives;
  // Each alternative is named "whole_<GPU id>": one whole GPU of that type per job (the MIG GPU itself last).
  for (const char* id : {"t4", "l4", "a10"})
    if (const GpuSpec* a = s.gpus.find(id)) alternatives.push_back({wholeGpuOption(s.catalog, *a, jobs, mig_tflops, k, scope), std::string("whole_") + id});
  alternatives.push_back({wholeGpuOption(s.catalog, *g, jobs, mig_tflops, k, scope), "whole_" + g->id});
  std::string cheapest = "mig";
  double cheapest_per_job = placed > 0 && mig_rent.offer ? mig_rent.cost_usd / static_cast<double>(placed) : 0;
  for (const auto& [a, option] : alternatives)
    if (a.jobs_that_fit == jobs.size() && a.rental.offer && a.jobs_that_fit &&
        (cheapest_per_job <= 0 || perJob(a.rental, a.jobs_that_fit) < cheapest_per_job)) {
      cheapest_per_job = perJob(a.rental, a.jobs_that_fit);
      cheapest = option;
    }
  Messages warnings;
  if (!pack.unplaced.empty())
    warnings.push_back(Message("mig.unplaced").num("job_count", pack.unplaced.size()).text("gpu", g->id));
  if (!mig_rent.offer) warnings.push_back(Message("mig.no_offer").text("gpu", g->id));

  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("gpu", g->id).field("gpu_name", g->name).field("jobs", jobs.size())
      .field("fits", pack.fits).field("gpus_needed", pack.gpus);
  writePacking(j, *g, jobs, pack);
  j.key("offer");
  writeRental(j, mig_rent.offer, mig_rent.price, s.today);
  j.key("cost_usd");
  if (mig_rent.offer) j.value(finiteOr(mig_rent.cost_usd));
  else j.null();
  j.key("cost_per_job_usd");
  if (mig_rent.offer && placed) j.value(perJob(mig_rent, placed));
  else j.null();
  j.key("alternatives").beginArray();
  for (const auto& [a, option] : alternatives) writeAlternative(j, a, option, jobs.size(), mig_tflops, s.today);
  j.endArray().field("cheapest_option", cheapest)
      .field("rules", Message("mig.rules")).field("pricing", Message("mig.pricing"))
      .field("warnings", warnings).endObject();
  return out;
}

}  // namespace gpuvalue
