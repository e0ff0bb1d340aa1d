#include "gpuvalue/ranking.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

namespace gpuvalue {

namespace {

struct HardwareKey {
  std::string gpu, interconnect;
  int gpus_per_node;
  double network_gbps;
  bool rdma;
  bool operator<(const HardwareKey& o) const {
    return std::tie(gpu, interconnect, gpus_per_node, network_gbps, rdma) <
           std::tie(o.gpu, o.interconnect, o.gpus_per_node, o.network_gbps, o.rdma);
  }
};

struct Evaluation {
  int nodes = 1;
  MemoryBreakdown memory;
  Throughput throughput;
};

bool contains(const std::vector<std::string>& list, const std::string& v) {
  if (list.empty()) return true;
  std::string lv = toLower(v);
  for (const auto& x : list)
    if (toLower(x) == lv) return true;
  return false;
}

// Smallest node count that fits (scale-out only over RDMA networks, as multi-node training needs).
Evaluation evaluate(const Workload& w, const Offer& o, const RankOptions& opt) {
  Cluster c;
  c.gpu = o.gpu;
  c.gpus_per_node = o.gpu_count;
  c.interconnect = o.interconnect;
  c.network_gbps = o.network_gbps;
  c.rdma = o.rdma;
  Evaluation e;
  c.nodes = 1;
  e.memory = chooseSharding(w, c, opt.constants);
  if (!e.memory.fits && o.rdma && opt.max_nodes > 1) {
    int lo = 1, hi = 0;
    for (int n = 2; n <= opt.max_nodes; n = std::min(n * 2, opt.max_nodes)) {
      c.nodes = n;
      if (chooseSharding(w, c, opt.constants).fits) { hi = n; break; }
      lo = n;
      if (n == opt.max_nodes) break;
    }
    if (hi > 0) {
      while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        c.nodes = mid;
        if (chooseSharding(w, c, opt.constants).fits) hi = mid; else lo = mid;
      }
      c.nodes = hi;
      e.memory = chooseSharding(w, c, opt.constants);
    } else {
      c.nodes = 1;
    }
  }
  e.nodes = c.nodes;
  ClusterPlan plan = planCluster(w, c, opt.constants);
  e.memory = plan.memory;
  e.throughput = plan.throughput;
  return e;
}

std::string money(double v) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(v < 100 ? 2 : 0);
  os << "$" << v;
  return os.str();
}

std::string hoursText(double h) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  if (h >= 48) { os.precision(1); os << h / 24 << " days"; }
  else { os.precision(1); os << h << " h"; }
  return os.str();
}

}  // namespace

double serviceScore(const Offer& o) {
  double s = 0;
  if (o.service.preinstalled_frameworks) s += 0.25;
  if (o.rdma) s += 0.25;
  if (o.service.sla_pct >= 99.9) s += 0.25;
  else if (o.service.sla_pct >= 99.0) s += 0.125;
  if (o.service.scaling_minutes >= 0 && o.service.scaling_minutes <= 10) s += 0.25;
  return s;
}

Ranking rankOffers(const Workload& w, const Catalog& catalog, const RankOptions& opt) {
  Ranking out;
  std::map<HardwareKey, Evaluation> cache;
  const auto& f = opt.filters;
  for (const Offer& o : catalog.offers) {
    if (!o.gpu) continue;
    if (!f.include_examples && o.example) continue;
    if (!contains(f.providers, o.provider) || !contains(f.regions, o.region) || !contains(f.gpus, o.gpu_id)) continue;
    HardwareKey key{o.gpu_id, o.interconnect, o.gpu_count, o.network_gbps, o.rdma};
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, evaluate(w, o, opt)).first;
    const Evaluation& e = it->second;
    ++out.evaluated;
    for (const Price& p : o.prices) {
      if (!f.models.empty() && std::find(f.models.begin(), f.models.end(), p.model) == f.models.end()) continue;
      // One result per billing model: skip a second price of the same model on the same offer.
      if (&p != o.price(p.model)) continue;
      RankResult r;
      r.offer = &o;
      r.model = p.model;
      r.price = &p;
      r.nodes = e.nodes;
      r.memory = e.memory;
      r.throughput = e.throughput;
      r.fits = e.memory.fits && e.throughput.supported && e.throughput.time_hours > 0;
      if (e.throughput.time_hours > 0) {
        SpotOptions spot = opt.spot;
        if (f.deadline_hours > 0 && spot.deadline_hours <= 0) spot.deadline_hours = f.deadline_hours;
        r.cost = priceJob(o, p, e.throughput.time_hours, e.nodes, spot);
      }
      r.usd_per_hour = p.headlineUsdPerHour();
      r.usd_per_tflops_day = usdPerTflopsDay(r.usd_per_hour, o.gpu_count, o.gpu->peak(Precision::kFp16));
      r.usd_per_tflops_day_at_precision =
          usdPerTflopsDay(r.usd_per_hour, o.gpu_count, o.gpu->peak(trainingPrecision(w, *o.gpu)));
      if (o.has_claims && o.claims.tflops > 0 && toLower(o.claims.tflops_precision) == "fp16")
        r.vendor_usd_per_tflops_day = r.usd_per_hour * 24.0 / o.claims.tflops;
      r.service_score = serviceScore(o);
      r.warnings = o.warnings;
      const std::string stale = staleWarning(p, opt.today);
      r.stale = !stale.empty();
      if (r.stale) r.warnings.push_back(stale);
      if (!e.throughput.supported) r.warnings.push_back(std::string("the GPU cannot run ") + precisionName(w.precision));
      if (!e.memory.fits) {
        std::ostringstream os;
        os.setf(std::ios::fixed);
        os.precision(1);
        os << "does not fit: needs " << e.memory.required_gb << " GB per GPU, " << e.memory.available_gb << " GB usable";
        if (!o.rdma && o.gpu_count >= 1) os << " (no RDMA network, so no multi-node scale-out)";
        r.warnings.push_back(os.str());
      }
      if (p.model == PricingModel::kSpot && r.cost.available) {
        std::ostringstream os;
        os.setf(std::ios::fixed);
        os.precision(1);
        os << "spot: about " << r.cost.expected_interruptions << " interruptions expected, checkpoint every "
           << r.cost.checkpoint_interval_hours << " h";
        if (!r.cost.feasible) os << "; " << r.cost.note;
        r.warnings.push_back(os.str());
      }
      if (f.fits_only && !r.fits) continue;
      if (f.budget_usd > 0 && r.cost.cost_usd > f.budget_usd) continue;
      if (f.deadline_hours > 0 && r.cost.wall_hours > f.deadline_hours) continue;
      out.results.push_back(std::move(r));
    }
  }
  // Normalise the three dimensions over the fitting results.
  double best_unit = 0, best_cost = 0, best_time = 0;
  for (const auto& r : out.results) {
    if (!r.fits) continue;
    if (r.usd_per_tflops_day > 0 && (best_unit == 0 || r.usd_per_tflops_day < best_unit)) best_unit = r.usd_per_tflops_day;
    if (r.cost.cost_usd > 0 && (best_cost == 0 || r.cost.cost_usd < best_cost)) best_cost = r.cost.cost_usd;
    if (r.cost.wall_hours > 0 && (best_time == 0 || r.cost.wall_hours < best_time)) best_time = r.cost.wall_hours;
  }
  const Weights& wt = opt.weights;
  const double wsum = std::max(1e-9, wt.unit_cost + wt.task + wt.service);
  for (auto& r : out.results) {
    r.unit_score = (r.usd_per_tflops_day > 0 && best_unit > 0) ? best_unit / r.usd_per_tflops_day : 0;
    double cs = (r.cost.cost_usd > 0 && best_cost > 0) ? best_cost / r.cost.cost_usd : 0;
    double ts = (r.cost.wall_hours > 0 && best_time > 0) ? best_time / r.cost.wall_hours : 0;
    r.task_score = 0.5 * cs + 0.5 * ts;
    r.score = r.fits ? (wt.unit_cost * r.unit_score + wt.task * r.task_score + wt.service * r.service_score) / wsum : 0;
  }
  // Pareto frontier of (cost, wall time) among fitting results.
  std::vector<RankResult*> fit;
  for (auto& r : out.results)
    if (r.fits && r.cost.cost_usd > 0) fit.push_back(&r);
  std::sort(fit.begin(), fit.end(), [](const RankResult* a, const RankResult* b) {
    return a->cost.cost_usd != b->cost.cost_usd ? a->cost.cost_usd < b->cost.cost_usd : a->cost.wall_hours < b->cost.wall_hours;
  });
  double best_t = 1e300;
  for (auto* r : fit)
    if (r->cost.wall_hours < best_t) {
      r->pareto = true;
      best_t = r->cost.wall_hours;
    }
  std::stable_sort(out.results.begin(), out.results.end(), [](const RankResult& a, const RankResult& b) {
    if (a.fits != b.fits) return a.fits;
    if (a.score != b.score) return a.score > b.score;
    return a.cost.cost_usd < b.cost.cost_usd;
  });
  // Reasons, with numbers.
  for (auto& r : out.results) {
    if (!r.fits) {
      r.reasons.push_back("does not fit in GPU memory");
      continue;
    }
    if (r.cost.cost_usd > 0 && r.cost.cost_usd <= best_cost * (1 + 1e-9)) r.reasons.push_back("cheapest job: " + money(r.cost.cost_usd));
    if (r.cost.wall_hours > 0 && r.cost.wall_hours <= best_time * (1 + 1e-9)) r.reasons.push_back("fastest: " + hoursText(r.cost.wall_hours));
    if (r.usd_per_tflops_day > 0 && r.usd_per_tflops_day <= best_unit * (1 + 1e-9)) r.reasons.push_back("lowest $/TFLOPS·day");
    if (r.pareto) r.reasons.push_back("on the cost-time Pareto frontier");
    std::string shard = r.memory.sharding.describe();
    std::ostringstream os;
    os << "fits on " << r.nodes * r.offer->gpu_count << " GPU" << (r.nodes * r.offer->gpu_count > 1 ? "s" : "");
    if (r.nodes > 1) os << " (" << r.nodes << " nodes)";
    os << " with " << shard;
    r.reasons.push_back(os.str());
    if (r.model == PricingModel::kReserved && r.cost.break_even_utilisation > 0) {
      std::ostringstream b;
      b.setf(std::ios::fixed);
      b.precision(0);
      b << "reserved pays off above " << r.cost.break_even_utilisation * 100 << " % utilisation";
      r.reasons.push_back(b.str());
    }
  }
  return out;
}

}  // namespace gpuvalue
