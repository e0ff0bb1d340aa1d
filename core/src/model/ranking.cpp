#include "model/ranking.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace gpuvalue {

namespace {

std::vector<std::string> lowered(const std::vector<std::string>& v) {
  std::vector<std::string> out;
  for (const auto& s : v) out.push_back(toLower(s));
  return out;
}

bool contains(const std::vector<std::string>& lowered_list, const std::string& v) {
  if (lowered_list.empty()) return true;
  return std::find(lowered_list.begin(), lowered_list.end(), toLower(v)) != lowered_list.end();
}

// The smallest node count in (lo, hi] for which `ok` holds, given that it fails at lo: doubling from lo, then
// bisection; 0 when it fails up to hi.
template <typename Ok>
int smallestNodes(int lo, int hi, Ok&& ok) {
  int found = 0;
  for (int n = std::min(std::max(2, lo * 2), hi);; n = std::min(n * 2, hi)) {
    if (ok(n)) { found = n; break; }
    lo = n;
    if (n >= hi) return 0;
  }
  while (found - lo > 1) {
    const int mid = lo + (found - lo) / 2;
    if (ok(mid)) found = mid; else lo = mid;
  }
  return found;
}

// Smallest node count that fits (scale-out only over RDMA networks, as multi-node training needs), then, when the
// job on it takes longer than the horizon, the smallest that finishes within it (or max_nodes): users planning
// "Llama 2 7B within a month" need the cluster size that achieves it, not the smallest that fits.
Evaluation evaluate(const Workload& workload, const Offer& o, const RankOptions& opt) {
  // Calibrated on the user's measurements: the factor of the measurement nearest this GPU (chosen again below once
  // the node count is known: a measurement of that many GPUs is nearer still).
  Workload w = workload;
  ModelConstants mc = opt.constants;
  CalibrationPick pick;
  if (o.gpu) pick = pickCalibration(opt.calibration, *o.gpu, o.gpu_count, opt.constants);
  applyCalibration(pick, w, mc);
  Cluster c;
  c.gpu = o.gpu;
  c.gpus_per_node = o.gpu_count;
  c.interconnect = o.interconnect;
  c.network_gbps = o.network_gbps;
  c.rdma = o.rdma;
  c.nodes = 1;
  const bool scales = o.rdma && opt.max_nodes > 1;
  int nodes = 1;
  if (scales) {
    c.nodes = 1;
    if (!fitsWithSomeSharding(w, c, mc)) {
      const int n = smallestNodes(1, opt.max_nodes, [&](int k) {
        c.nodes = k;
        return fitsWithSomeSharding(w, c, mc);
      });
      if (n > 0) nodes = n;
    }
  }
  const int fit_nodes = nodes;
  const double horizon = effectiveHorizonHours(opt);
  if (horizon > 0 && scales && opt.max_nodes > nodes) {
    auto meets = [&](int n) {
      c.nodes = n;
      ClusterPlan p = planCluster(w, c, mc);
      return p.memory.fits && p.throughput.time_hours > 0 && p.throughput.time_hours <= horizon;
    };
    if (!meets(nodes)) {
      const int n = smallestNodes(nodes, opt.max_nodes, meets);
      if (n > 0) {
        nodes = n;
      } else {
        // Out of reach: the largest cluster, when it is faster, shows how close the offer can come.
        auto hours = [&](int k) {
          c.nodes = k;
          ClusterPlan p = planCluster(w, c, mc);
          return p.memory.fits && p.throughput.time_hours > 0 ? p.throughput.time_hours : 1e300;
        };
        if (hours(opt.max_nodes) < hours(nodes)) nodes = opt.max_nodes;
      }
    }
  }
  c.nodes = nodes;
  if (o.gpu) pick = pickCalibration(opt.calibration, *o.gpu, nodes * o.gpu_count, opt.constants);
  applyCalibration(pick, w, mc);
  Evaluation e;
  e.calibrated = pick;
  e.nodes = nodes;
  e.fit_nodes = fit_nodes;
  e.offer = &o;
  ClusterPlan plan = planCluster(w, c, mc);
  e.memory = plan.memory;
  e.throughput = plan.throughput;
  return e;
}

}  // namespace

double serviceScore(const Offer& o) {
  double s = 0;
  if (o.service().preinstalled_frameworks) s += 0.25;
  if (o.rdma) s += 0.25;
  if (o.service().sla_pct >= 99.9) s += 0.25;
  else if (o.service().sla_pct >= 99.0) s += 0.125;
  if (o.service().scaling_minutes >= 0 && o.service().scaling_minutes <= 10) s += 0.25;
  return s;
}

namespace {

// A small open-addressing hash table from 64-bit keys to values (the standard unordered containers allocate a
// node per entry; ranking looks one up for every offer and every price).
template <typename V>
class FlatMap64 {
 public:
  explicit FlatMap64(size_t expected) {
    size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    slots_.resize(cap);
  }
  // The value for `key`, inserted as `fresh` when absent; `inserted` tells which.
  V& find(uint64_t key, const V& fresh, bool& inserted) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    size_t i = mix(key) & (slots_.size() - 1);
    for (;; i = (i + 1) & (slots_.size() - 1)) {
      Slot& s = slots_[i];
      if (!s.used) {
        s.used = true;
        s.key = key;
        s.value = fresh;
        ++size_;
        inserted = true;
        return s.value;
      }
      if (s.key == key) {
        inserted = false;
        return s.value;
      }
    }
  }
  const V* get(uint64_t key) const {
    for (size_t i = mix(key) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  template <typename F>
  void forEach(F&& f) const {
    for (const Slot& s : slots_)
      if (s.used) f(s.key, s.value);
  }

 private:
  struct Slot {
    uint64_t key = 0;
    V value{};
    bool used = false;
  };
  static size_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return static_cast<size_t>(k);
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(old.size() * 2);
    size_ = 0;
    bool ins;
    for (const Slot& s : old)
      if (s.used) find(s.key, s.value, ins);
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// $/TFLOPS·day at FP16 dense (article formula), at the rate the job pays: a tiered price's effective rate, a
// commitment's whole cost over the job's hours.
double unitCost(const Offer& o, const Price& p, double cost_usd, double wall_hours, int nodes) {
  CostResult c;
  c.cost_usd = cost_usd;
  c.wall_hours = wall_hours;
  return usdPerTflopsDay(jobRateUsdPerHour(o, p, c, nodes), o.gpu_count, o.gpu->peak(Precision::kFp16));
}

CostResult costOf(const Offer& o, const Price& p, const Evaluation& e, const RankOptions& opt, const SpotOptions& spot) {
  if (!(e.throughput.time_hours > 0)) return CostResult{};
  return priceJob(o, p, e.throughput.time_hours, e.nodes, spot, opt.free_trial_hours);
}

uint64_t bitsOf(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Cost and wall time of one offer's price for the job. Spot: the wall time once per evaluation and rate, then
// priceJob's own cost formula.
void jobOf(const Offer& o, const Price& p, const Evaluation& e, const RankOptions& opt, const SpotOptions& spot,
           double& cost_usd, double& wall_hours, bool& runs) {
  runs = true;
  if (p.model == PricingModel::kSpot && e.throughput.time_hours > 0) {
    const double lambda = interruptionsPerHour(p, spot) * std::max(1, e.nodes);
    if (e.spot_lambda != lambda) {
      const CostResult cost = costOf(o, p, e, opt, spot);
      e.spot_wall_hours = cost.wall_hours;
      e.spot_feasible = cost.feasible;
      e.spot_lambda = lambda;
    }
    wall_hours = e.spot_wall_hours;
    runs = e.spot_feasible;
    cost_usd = billedHours(o, wall_hours) * p.usd_per_hour * std::max(1, e.nodes);
    if (!std::isfinite(cost_usd)) cost_usd = 0;
    return;
  }
  const CostResult cost = costOf(o, p, e, opt, spot);
  cost_usd = cost.cost_usd;
  wall_hours = cost.wall_hours;
  runs = cost.feasible;
}

// Every (offer, billing model) that passes the filters, with its job cost and wall time.
std::vector<RankEntry> collectCandidates(const Workload& w, const Catalog& catalog, const RankOptions& opt,
                                         const SpotOptions& spot, Ranking& out) {
  const auto& f = opt.filters;
  const auto providers = lowered(f.providers), regions = lowered(f.regions), gpus = lowered(f.gpus);
  size_t price_count = 0;
  for (const Offer& o : catalog.offers) price_count += o.prices.size();
  std::vector<RankEntry> cands;
  cands.reserve(price_count);
  static std::atomic<uint64_t> last_stamp{0};
  const uint64_t stamp = ++last_stamp;
  const bool any_place_filter = !providers.empty() || !regions.empty() || !gpus.empty();
  const long today_day = f.include_stale ? 0 : dayNumber(opt.today);
  const double horizon = effectiveHorizonHours(opt);
  for (const Offer& o : catalog.offers) {
    if (!o.gpu) continue;
    if (!f.include_examples && o.example) continue;
    if (!f.include_marketplace && o.marketplace) continue;
    if (any_place_filter && (!contains(providers, o.provider) || !contains(regions, o.region) || !contains(gpus, o.gpu_id))) continue;
    const Evaluation& e = out.store->of(w, o, opt);
    if (e.ranking_stamp != stamp) {
      e.ranking_stamp = stamp;
      out.evaluations.push_back(&e);
    }
    ++out.evaluated;
    const bool fits = e.memory.fits && e.throughput.supported && e.throughput.time_hours > 0;
    for (const Price& p : o.prices) {
      if (!f.models.empty() && std::find(f.models.begin(), f.models.end(), p.model) == f.models.end()) continue;
      // One result per billing model: skip a second price of the same model on the same offer.
      if (&p != o.price(p.model)) continue;
      if (f.fits_only && !fits) continue;
      // The seed article's examples are always old; include_examples alone decides about them.
      if (today_day > 0 && !o.example && isStale(p, today_day)) continue;
      double cost_usd, wall_hours;
      bool runs;
      jobOf(o, p, e, opt, spot, cost_usd, wall_hours, runs);
      if (f.budget_usd > 0 && cost_usd > f.budget_usd) continue;
      if (f.deadline_hours > 0 && wall_hours > f.deadline_hours) continue;
      const bool meets = fits && runs && (horizon <= 0 || wall_hours <= horizon * (1 + 1e-9));
      cands.push_back({&o, &p, &e, fits, meets, false, runs, cost_usd, wall_hours, 0});
    }
  }
  return cands;
}

// When a horizon is set and no result that can run finishes within it: double it until one does, and count the
// results within the doubled horizon as meeting it (Ranking::widened_horizon_hours).
void widenHorizon(std::vector<RankEntry>& cands, Ranking& out) {
  if (out.horizon_hours <= 0) return;
  double fastest = 0;
  for (const auto& c : cands) {
    if (!c.ranked()) continue;
    if (c.meets) return;
    if (c.wall_hours > 0 && (fastest == 0 || c.wall_hours < fastest)) fastest = c.wall_hours;
  }
  if (!(fastest > 0) || !std::isfinite(fastest)) return;
  double widened = out.horizon_hours;
  while (widened < fastest * (1 - 1e-12)) widened *= 2;
  out.widened_horizon_hours = widened;
  for (auto& c : cands) c.meets = c.ranked() && c.wall_hours <= widened * (1 + 1e-9);
}

// The three dimensions normalised over the fitting results within the horizon (over every fitting result when
// none meets it): best unit cost, job cost and wall time.
void findBests(const std::vector<RankEntry>& cands, Ranking& out) {
  for (const auto& c : cands) {
    if (!c.fits) continue;
    ++out.fitting_count;
    if (c.meets) ++out.meeting_count;
  }
  for (const auto& c : cands) {
    if (!c.ranked() || (out.meeting_count > 0 && !c.meets)) continue;
    const double unit = c.usdPerTflopsDay();
    if (unit > 0 && (out.best_unit == 0 || unit < out.best_unit)) out.best_unit = unit;
    if (c.cost_usd > 0 && (out.best_cost == 0 || c.cost_usd < out.best_cost)) out.best_cost = c.cost_usd;
    if (c.wall_hours > 0 && (out.best_time == 0 || c.wall_hours < out.best_time)) out.best_time = c.wall_hours;
  }
}

struct Scorer {
  const Ranking& out;
  const Weights& wt;
  // Each ratio to the best is at most 1 (an offer beyond the horizon may be cheaper than the best within it).
  double unit(double usd_per_tflops_day) const {
    return (usd_per_tflops_day > 0 && out.best_unit > 0) ? std::min(1.0, out.best_unit / usd_per_tflops_day) : 0;
  }
  double task(double cost, double wall, bool free_job) const {
    double cs = free_job ? 1 : (cost > 0 && out.best_cost > 0) ? std::min(1.0, out.best_cost / cost) : 0;
    double ts = (wall > 0 && out.best_time > 0) ? std::min(1.0, out.best_time / wall) : 0;
    return 0.5 * cs + 0.5 * ts;
  }
  double score(const RankEntry& c) const {
    const double wsum = std::max(1e-9, wt.unit_cost + wt.task + wt.service);
    return c.ranked() ? (wt.unit_cost * unit(c.usdPerTflopsDay()) + wt.task * task(c.cost_usd, c.wall_hours, isFreeJob(c.model(), c.fits, c.cost_usd, c.wall_hours)) +
                     wt.service * serviceScore(*c.offer)) / wsum
                  : 0;
  }
};

// Pareto frontier of (cost, wall time) among fitting results within the horizon (all fitting ones when none
// meets it): a result is on it when no other one is at most as expensive and as slow and better in one of the two. Wall times take few distinct values (one per hardware
// evaluation and interruption rate), so the frontier is found over the cheapest result of each wall time.
// Returns wall time bits -> cost of the frontier point.
FlatMap64<double> paretoFrontier(const std::vector<RankEntry>& cands, size_t evaluations, bool any_meets) {
  FlatMap64<double> cheapest(evaluations * 4 + 16);  // wall time bits -> lowest cost
  for (const auto& c : cands) {
    if (!c.ranked() || !(c.cost_usd > 0) || (any_meets && !c.meets)) continue;
    bool inserted = false;
    double& lowest = cheapest.find(bitsOf(c.wall_hours), c.cost_usd, inserted);
    if (!inserted && c.cost_usd < lowest) lowest = c.cost_usd;
  }
  std::vector<std::pair<double, double>> groups;  // (cost, wall)
  cheapest.forEach([&](uint64_t bits, double cost) {
    double wall;
    std::memcpy(&wall, &bits, sizeof wall);
    groups.emplace_back(cost, wall);
  });
  std::sort(groups.begin(), groups.end());
  FlatMap64<double> frontier(groups.size() + 16);
  double best_t = 1e300;
  for (const auto& g : groups)
    if (g.second < best_t) {
      bool inserted = false;
      frontier.find(bitsOf(g.second), g.first, inserted);
      best_t = g.second;
    }
  return frontier;
}

// A commitment (reserved, monthly) never ranks above an on-demand offer of the same GPU type and total GPU count,
// in the same group (fitting, within the horizon), whose job costs less: its order score is capped just below the
// lowest order score of those on-demand offers.
void capCommitments(std::vector<RankEntry>& cands, Ranking& out) {
  // An on-demand job's group (GPU type, total GPUs, within the horizon or not), cost and order score: 24 bytes in
  // wasm, one per on-demand entry (100,000 for a 100,000-offer catalog), reserved at their exact number.
  struct OnDemand {
    double cost, order;
    const GpuSpec* gpu;
    int gpus_meets;  // total GPUs x 2 + within the horizon
  };
  auto group_less = [](const OnDemand& a, const OnDemand& b) {
    if (a.gpu != b.gpu) return std::less<const GpuSpec*>()(a.gpu, b.gpu);
    return a.gpus_meets < b.gpus_meets;
  };
  auto key = [&](const OnDemand& a, const OnDemand& b) {
    if (group_less(a, b)) return true;
    if (group_less(b, a)) return false;
    return a.cost < b.cost;
  };
  auto same = [](const OnDemand& a, const OnDemand& b) { return a.gpu == b.gpu && a.gpus_meets == b.gpus_meets; };
  auto of = [](const RankEntry& c) { return OnDemand{c.cost_usd, c.order, c.offer->gpu, c.eval->nodes * c.offer->gpu_count * 2 + (c.meets ? 1 : 0)}; };
  size_t on_demand = 0;
  bool any_commitment = false;
  for (const auto& c : cands) {
    if (!c.fits || !(c.cost_usd > 0)) continue;
    if (c.price->model == PricingModel::kOnDemand) ++on_demand;
    else if (isCommitment(c.price->model)) any_commitment = true;
  }
  if (!any_commitment || on_demand == 0) return;
  std::vector<OnDemand> od;
  od.reserve(on_demand);
  for (const auto& c : cands)
    if (c.fits && c.cost_usd > 0 && c.price->model == PricingModel::kOnDemand) od.push_back(of(c));
  std::sort(od.begin(), od.end(), key);
  // Each group's cheapest job, and the running minimum of the order score within each group in order of cost.
  for (size_t i = 0; i < od.size(); ++i) {
    if (i > 0 && same(od[i], od[i - 1])) {
      od[i].order = std::min(od[i].order, od[i - 1].order);
      continue;
    }
    out.cheapest_on_demand.push_back({od[i].gpu, od[i].gpus_meets / 2, (od[i].gpus_meets & 1) != 0, od[i].cost});
  }
  for (auto& c : cands) {
    if (!c.fits || !(c.cost_usd > 0) || !isCommitment(c.price->model)) continue;
    OnDemand probe = of(c);
    probe.order = 0;
    auto it = std::lower_bound(od.begin(), od.end(), probe, key);  // the first on-demand job costing as much or more
    if (it == od.begin()) continue;
    const OnDemand& cheaper = *(it - 1);
    if (same(cheaper, probe) && c.order >= cheaper.order) c.order = std::nextafter(cheaper.order, -1e300);
  }
}

// Order: fitting first, then within the horizon, then order score, then cost, then catalog order (offers and
// their prices are stored in catalog order, so their addresses give it). Only the kept results are fully sorted.
size_t keepBest(std::vector<RankEntry>& cands, size_t limit) {
  auto better = [](const RankEntry& a, const RankEntry& b) {
    if (a.fits != b.fits) return a.fits;
    if (a.meets != b.meets) return a.meets;
    if (a.order != b.order) return a.order > b.order;
    if (a.cost_usd != b.cost_usd) return a.cost_usd < b.cost_usd;
    if (a.offer != b.offer) return std::less<const Offer*>()(a.offer, b.offer);
    return std::less<const Price*>()(a.price, b.price);
  };
  const size_t keep = limit > 0 ? std::min(limit, cands.size()) : cands.size();
  if (keep < cands.size()) std::partial_sort(cands.begin(), cands.begin() + static_cast<long>(keep), cands.end(), better);
  else std::sort(cands.begin(), cands.end(), better);
  return keep;
}

// Whether each candidate is on the cost–time frontier.
void markFrontier(std::vector<RankEntry>& cands, const FlatMap64<double>& frontier, const Ranking& out) {
  for (auto& c : cands) {
    const double* frontier_cost = c.ranked() && c.cost_usd > 0 && (c.meets || out.meeting_count == 0) ? frontier.get(bitsOf(c.wall_hours)) : nullptr;
    c.pareto = frontier_cost && *frontier_cost == c.cost_usd;
  }
}

// The spot options a ranking prices with: a deadline filter is also the deadline of the spot odds unless the
// spot options name their own.
SpotOptions spotOptionsOf(const RankOptions& opt) {
  SpotOptions spot = opt.spot;
  if (opt.filters.deadline_hours > 0 && spot.deadline_hours <= 0) spot.deadline_hours = opt.filters.deadline_hours;
  return spot;
}

// A full result from its entry: the full price (spot: interruptions, deadline odds), checked against the scan's.
// today_day: dayNumber(opt.today), parsed once by the caller.
RankResult fullResult(const RankEntry& c, const Workload& w, const RankOptions& opt, long today_day, Ranking& ranking) {
  const Offer& o = *c.offer;
  const Price& p = *c.price;
  RankResult r;
  r.offer = &o;
  r.model = p.model;
  r.price = &p;
  r.eval = c.eval;
  r.fits = c.fits;
  r.in_first_group = c.meets;
  r.meets_horizon = c.meets && ranking.widened_horizon_hours == 0;
  r.pareto = c.pareto;
  r.cheaper_on_demand_usd = cheaperOnDemandUsd(ranking, c);
  r.score = entryScore(ranking, c);
  r.usd_per_tflops_day = c.usdPerTflopsDay();
  r.stale = isStale(p, today_day);
  r.cost = costOf(o, p, *c.eval, opt, spotOptionsOf(opt));
  if (r.cost.cost_usd != c.cost_usd || r.cost.wall_hours != c.wall_hours) ++ranking.cost_mismatches;
  // Rates from the job as the scan priced it (they are equal unless the check above counted a mismatch).
  CostResult scanned;
  scanned.cost_usd = c.cost_usd;
  scanned.wall_hours = c.wall_hours;
  r.usd_per_hour = jobRateUsdPerHour(o, p, scanned, c.eval->nodes);
  r.usd_per_tflops_day_at_precision = usdPerTflopsDay(r.usd_per_hour, o.gpu_count, o.gpu->peak(trainingPrecision(w, *o.gpu)));
  if (o.claims && o.claims->tflops > 0 && o.claims->tflops_precision == "fp16")
    r.vendor_usd_per_tflops_day = r.usd_per_hour * 24.0 / o.claims->tflops;
  const Scorer scorer{ranking, opt.weights};
  r.service_score = serviceScore(o);
  r.unit_score = scorer.unit(r.usd_per_tflops_day);
  r.task_score = scorer.task(c.cost_usd, c.wall_hours, isFreeJob(c.model(), c.fits, c.cost_usd, c.wall_hours));
  return r;
}

}  // namespace

double RankEntry::usdPerTflopsDay() const { return unitCost(*offer, *price, cost_usd, wall_hours, eval->nodes); }

double entryScore(const Ranking& ranking, const RankEntry& e) { return Scorer{ranking, ranking.weights}.score(e); }

double cheaperOnDemandUsd(const Ranking& ranking, const RankEntry& e) {
  if (!e.fits || !(e.cost_usd > 0) || !isCommitment(e.model())) return 0;
  const Ranking::GroupCost group{e.offer->gpu, e.nodes() * e.offer->gpu_count, e.meets, 0};
  auto less = [](const Ranking::GroupCost& a, const Ranking::GroupCost& b) {
    if (a.gpu != b.gpu) return std::less<const GpuSpec*>()(a.gpu, b.gpu);
    return a.gpus != b.gpus ? a.gpus < b.gpus : a.meets < b.meets;
  };
  const auto& groups = ranking.cheapest_on_demand;
  auto it = std::lower_bound(groups.begin(), groups.end(), group, less);
  if (it == groups.end() || less(group, *it) || !(it->cost_usd < e.cost_usd)) return 0;
  return it->cost_usd;
}

RankResult resultAt(Ranking& ranking, size_t index, const Workload& w, const RankOptions& opt) {
  return fullResult(ranking.entries.at(index), w, opt, dayNumber(opt.today), ranking);
}

int rankingNodes(const Workload& w, const Offer& o, const RankOptions& opt) { return o.gpu ? evaluate(w, o, opt).nodes : 1; }

double effectiveHorizonHours(const RankOptions& opt) {
  return opt.filters.deadline_hours > 0 ? opt.filters.deadline_hours : std::max(0.0, opt.horizon_hours);
}

struct EvaluationStore::Index {
  struct Seen {
    const Offer* offer;
    const Evaluation* eval;
  };
  FlatMap64<Seen> by_hash{64};
  std::vector<Seen> collisions;
};

EvaluationStore::EvaluationStore() : index_(new Index) {}
EvaluationStore::~EvaluationStore() = default;

const Evaluation& EvaluationStore::of(const Workload& w, const Offer& o, const RankOptions& opt) {
  auto add = [&]() -> const Evaluation* {
    evaluations_.push_back(evaluate(w, o, opt));
    return &evaluations_.back();
  };
  bool inserted = false;
  Index::Seen& seen = index_->by_hash.find(o.hardware_hash, Index::Seen{&o, nullptr}, inserted);
  if (inserted) return *(seen.eval = add());
  if (seen.offer->sameHardware(o)) return *seen.eval;
  for (const Index::Seen& c : index_->collisions)
    if (c.offer->sameHardware(o)) return *c.eval;
  const Evaluation* e = add();
  index_->collisions.push_back({&o, e});
  return *e;
}

Ranking rankOffers(const Workload& w, const Catalog& catalog, const RankOptions& opt, std::shared_ptr<EvaluationStore> store) {
  Ranking out;
  out.store = store ? std::move(store) : std::make_shared<EvaluationStore>();
  out.horizon_hours = effectiveHorizonHours(opt);
  const SpotOptions spot = spotOptionsOf(opt);
  std::vector<RankEntry> cands = collectCandidates(w, catalog, opt, spot, out);
  widenHorizon(cands, out);
  findBests(cands, out);
  out.weights = opt.weights;
  const Scorer scorer{out, opt.weights};
  for (auto& c : cands) c.order = scorer.score(c);
  capCommitments(cands, out);
  const FlatMap64<double> frontier = paretoFrontier(cands, out.evaluations.size(), out.meeting_count > 0);
  out.result_count = cands.size();
  const size_t keep = keepBest(cands, opt.limit);
  cands.resize(keep);
  markFrontier(cands, frontier, out);
  if (opt.entries_only) {
    out.entries = std::move(cands);
    return out;
  }
  out.results.reserve(keep);
  const long today_day = dayNumber(opt.today);
  for (const RankEntry& c : cands) out.results.push_back(fullResult(c, w, opt, today_day, out));
  return out;
}

}  // namespace gpuvalue
