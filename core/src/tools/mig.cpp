// MIG packing: small jobs onto Multi-Instance GPU profiles of A100/H100/H200 (and B200/GB200) GPUs.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "tools/decisions.hpp"

namespace gpuvalue {

namespace {

// A100/H100/H200/B200 MIG geometry (NVIDIA MIG user guide, "Supported MIG profiles"): 8 memory slices, 7 compute
// (SM) slices. `nvidia-smi mig -lgipp` lists each GPU-instance profile's placements as {starts}:size in memory
// slices, e.g. A100-40GB 1g.5gb {0,1,2,3,4,5,6}:1, 2g.10gb {0,2,4}:2, 3g.20gb {0,4}:4, 4g.20gb {0}:4, 7g.40gb {0}:8:
// starts are multiples of the size, and only the first max_count of them exist.
constexpr int kMemorySlices = 8;
constexpr int kComputeSlices = 7;

// A plain decimal number (digits and one optional point; no sign, exponent, hex or "inf").
bool readNumber(const std::string& s, size_t& i, double& out) {
  size_t j = i;
  bool digits = false, point = false;
  while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || (s[j] == '.' && !point))) {
    if (s[j] == '.') point = true;
    else digits = true;
    ++j;
  }
  if (!digits) return false;
  out = std::strtod(s.substr(i, j - i).c_str(), nullptr);
  i = j;
  return std::isfinite(out);
}

struct GpuState {
  bool memory[kMemorySlices] = {false, false, false, false, false, false, false, false};
  bool compute[kComputeSlices] = {false, false, false, false, false, false, false};
  int compute_used = 0;
  std::vector<int> profile_count;
  double hours = 0;
};

// First valid start for the profile on this GPU, or -1.
int findStart(const GpuSpec& gpu, int profile, const GpuState& st) {
  const MigProfile& p = gpu.mig_profiles[profile];
  const int m = migMemorySlices(gpu, p), c = p.compute_slices;
  if (m <= 0 || m > kMemorySlices || c <= 0 || c > kComputeSlices) return -1;
  if (st.compute_used + c > kComputeSlices) return -1;
  if (st.profile_count[profile] >= p.max_count) return -1;
  int index = 0;
  for (int s = 0; s + m <= kMemorySlices && index < p.max_count; s += m, ++index) {
    if (s + c > kComputeSlices) continue;
    bool free = true;
    for (int i = s; i < s + m && free; ++i) free = !st.memory[i];
    for (int i = s; i < s + c && free; ++i) free = !st.compute[i];
    if (free) return s;
  }
  return -1;
}

void occupy(const GpuSpec& gpu, int profile, int start, GpuState& st) {
  const MigProfile& p = gpu.mig_profiles[profile];
  const int m = migMemorySlices(gpu, p), c = p.compute_slices;
  for (int i = start; i < start + m; ++i) st.memory[i] = true;
  for (int i = start; i < start + c; ++i) st.compute[i] = true;
  st.compute_used += c;
  st.profile_count[profile]++;
}

}  // namespace

bool parseMigJobSpec(const std::string& spec, std::vector<MigJob>& out, Message& error) {
  std::string s;
  for (char ch : spec)
    if (!std::isspace(static_cast<unsigned char>(ch))) s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (s.empty()) {
    error = Message("error.mig_spec_empty");
    return false;
  }
  size_t i = 0;
  int group = 0;
  while (i < s.size()) {
    ++group;
    // error.mig_spec {group_value, problem, token}: what is wrong with the group'th comma-separated group.
    auto fail = [&](const char* problem, const std::string& token = "") {
      error = Message("error.mig_spec").num("group_value", group).text("problem", problem).text("token", token);
      return false;
    };
    double a = 0;
    if (!readNumber(s, i, a)) return fail("count");
    double count = 1, mem = a;
    if (i < s.size() && s[i] == 'x') {
      ++i;
      count = a;
      if (!readNumber(s, i, mem)) return fail("memory");
    }
    if (s.compare(i, 2, "gb") != 0) return fail("unit");
    i += 2;
    MigJob job;
    job.memory_gb = mem;
    if (i < s.size() && s[i] == ':') {
      ++i;
      if (!readNumber(s, i, job.compute_share)) return fail("share");
    }
    if (i < s.size() && s[i] == '@') {
      ++i;
      if (!readNumber(s, i, job.hours) || i >= s.size() || s[i] != 'h') return fail("hours");
      ++i;
    }
    if (i < s.size() && s[i] != ',') {
      size_t end = i + 1;  // the whole UTF-8 character
      while (end < s.size() && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) ++end;
      return fail("unexpected", s.substr(i, end - i));
    }
    if (i < s.size()) ++i;
    if (!(count >= 1) || count != std::floor(count) || count > 10000) return fail("count_range");
    if (!(mem > 0) || mem > 1e4) return fail("memory_range");
    if (!(job.compute_share > 0) || job.compute_share > 1) return fail("share_range");
    if (!(job.hours > 0) || job.hours > 1e6) return fail("hours_range");
    for (int k = 0; k < static_cast<int>(count); ++k) out.push_back(job);
  }
  if (out.size() > 10000) {
    error = Message("error.mig_too_many_jobs").num("max_value", 10000);
    return false;
  }
  return true;
}

int migMemorySlices(const GpuSpec& gpu, const MigProfile& p) {
  if (!(gpu.memory_gb > 0)) return 0;
  return static_cast<int>(std::lround(p.memory_gb / (gpu.memory_gb / kMemorySlices)));
}

int smallestMigProfile(const GpuSpec& gpu, const MigJob& job) {
  const int need_compute = static_cast<int>(std::ceil(job.compute_share * kComputeSlices - 1e-9));
  int best = -1;
  for (size_t i = 0; i < gpu.mig_profiles.size(); ++i) {
    const MigProfile& p = gpu.mig_profiles[i];
    if (p.memory_gb + 1e-9 < job.memory_gb || p.compute_slices < need_compute) continue;
    if (best < 0) { best = static_cast<int>(i); continue; }
    const MigProfile& b = gpu.mig_profiles[best];
    const int pm = migMemorySlices(gpu, p), bm = migMemorySlices(gpu, b);
    if (pm < bm || (pm == bm && p.compute_slices < b.compute_slices)) best = static_cast<int>(i);
  }
  return best;
}

MigPacking packMig(const GpuSpec& gpu, const std::vector<MigJob>& jobs) {
  MigPacking out;
  std::vector<int> profile(jobs.size(), -1), order;
  for (size_t j = 0; j < jobs.size(); ++j) {
    profile[j] = smallestMigProfile(gpu, jobs[j]);
    if (profile[j] < 0) out.unplaced.push_back(static_cast<int>(j));
    else order.push_back(static_cast<int>(j));
  }
  // First-fit decreasing: larger profiles first (memory slices, then compute slices, then longer jobs).
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const MigProfile& pa = gpu.mig_profiles[profile[a]];
    const MigProfile& pb = gpu.mig_profiles[profile[b]];
    const int ma = migMemorySlices(gpu, pa), mb = migMemorySlices(gpu, pb);
    if (ma != mb) return ma > mb;
    if (pa.compute_slices != pb.compute_slices) return pa.compute_slices > pb.compute_slices;
    return jobs[a].hours > jobs[b].hours;
  });
  std::vector<GpuState> state;
  for (int j : order) {
    int g = 0, start = -1;
    for (; g < static_cast<int>(state.size()); ++g)
      if ((start = findStart(gpu, profile[j], state[g])) >= 0) break;
    if (start < 0) {
      GpuState fresh;
      fresh.profile_count.assign(gpu.mig_profiles.size(), 0);
      state.push_back(fresh);
      g = static_cast<int>(state.size()) - 1;
      start = findStart(gpu, profile[j], state[g]);
      if (start < 0) {  // the profile cannot be placed even on an empty GPU (bad data)
        state.pop_back();
        out.unplaced.push_back(j);
        continue;
      }
    }
    occupy(gpu, profile[j], start, state[g]);
    state[g].hours = std::max(state[g].hours, jobs[j].hours);
    out.placements.push_back({j, profile[j], g, start});
  }
  std::sort(out.placements.begin(), out.placements.end(),
            [](const MigPlacement& a, const MigPlacement& b) { return a.job < b.job; });
  std::sort(out.unplaced.begin(), out.unplaced.end());
  out.gpus = static_cast<int>(state.size());
  for (const auto& st : state) out.gpu_hours.push_back(st.hours);
  out.fits = out.unplaced.empty() && !jobs.empty();
  return out;
}

double rentGpusCost(const Offer& offer, const Price& price, std::vector<double> gpu_hours) {
  std::sort(gpu_hours.begin(), gpu_hours.end(), std::greater<double>());
  const size_t per = static_cast<size_t>(std::max(1, offer.gpu_count));
  double cost = 0;
  for (size_t i = 0; i < gpu_hours.size(); i += per)
    cost += billedHours(offer, gpu_hours[i]) * price.headlineUsdPerHour();  // the group's longest GPU
  return cost;
}

Rental cheapestRental(const Catalog& catalog, const std::string& id, const std::vector<double>& gpu_hours, const OfferScope& scope) {
  Rental best;
  for (const Offer& o : catalog.offers) {
    if (!o.gpu || o.gpu->id != id || o.gpu_count <= 0) continue;
    const Price* p = o.price(PricingModel::kOnDemand);
    if (!p || !(p->usd_per_hour > 0) || !scope.admits(o, *p)) continue;
    const double c = rentGpusCost(o, *p, gpu_hours);
    if (!best.offer || c < best.cost_usd) best = {&o, p, c};
  }
  return best;
}

double genericTflops(const GpuSpec& g, const ModelConstants& k) {
  Workload w;
  w.kind = WorkloadKind::kCustom;
  w.precision = Precision::kFp16;
  w.total_flops = 1e15;
  Cluster c = defaultCluster(g, 1);
  return estimateThroughput(w, c, Sharding{}, k).single_gpu_tflops;
}

WholeGpuOption wholeGpuOption(const Catalog& catalog, const GpuSpec& gpu, const std::vector<MigJob>& jobs, double mig_tflops,
                              const ModelConstants& k, const OfferScope& scope) {
  WholeGpuOption opt;
  opt.gpu = &gpu;
  opt.tflops = genericTflops(gpu, k);
  std::vector<double> hours;
  for (const MigJob& job : jobs) {
    if (job.memory_gb > gpu.memory_gb + 1e-9) continue;
    ++opt.jobs_that_fit;
    const double slow = opt.tflops > 0 ? std::max(1.0, job.compute_share * mig_tflops / opt.tflops) : 1;
    opt.slowdown = std::max(opt.slowdown, slow);
    hours.push_back(job.hours * slow);
  }
  opt.rental = cheapestRental(catalog, gpu.id, hours, scope);
  return opt;
}

}  // namespace gpuvalue
