#include "model/fit_hints.hpp"

#include <algorithm>

#include "model/parallel_plan.hpp"

namespace gpuvalue {

namespace {

Cluster clusterOf(const Offer& o, int nodes) {
  Cluster c;
  c.gpu = o.gpu;
  c.gpus_per_node = std::max(1, o.gpu_count);
  c.nodes = nodes;
  c.interconnect = o.interconnect;
  c.network_gbps = o.network_gbps;
  c.rdma = o.rdma;
  return c;
}

// The evaluated hardware that reaches the most GPU memory (scaling out over RDMA up to `max_nodes`).
const Evaluation* roomiest(const Ranking& ranking, int max_nodes) {
  const Evaluation* best = nullptr;
  double best_gb = 0;
  for (const Evaluation* e : ranking.evaluations) {
    if (!e->offer || !e->offer->gpu || !e->throughput.supported) continue;
    const double gb = e->offer->gpu->memory_gb * e->offer->gpu_count * (e->offer->rdma ? max_nodes : 1);
    if (!best || gb > best_gb) best = e, best_gb = gb;
  }
  return best;
}

// The smallest node count of `o` (up to max_nodes) on which some plan of `w` fits; 0 when none.
int nodesToFit(const Workload& w, const Offer& o, int max_nodes, const ModelConstants& k) {
  const int top = o.rdma ? max_nodes : 1;
  for (int lo = 0, n = 1;; n = std::min(n * 2, top)) {
    if (fitsWithSomeSharding(w, clusterOf(o, n), k)) {
      while (n - lo > 1) {
        const int mid = lo + (n - lo) / 2;
        if (fitsWithSomeSharding(w, clusterOf(o, mid), k)) n = mid; else lo = mid;
      }
      return n;
    }
    lo = n;
    if (n >= top) return 0;
  }
}

// The values the workload fixes that the fitting plan `s` sets otherwise, one message each.
void changedValues(const Workload& w, const Sharding& s, Messages& out) {
  if (w.kind == WorkloadKind::kTransformer && w.micro_batch > 0 && s.micro_batch != static_cast<int>(w.micro_batch))
    out.push_back(Message("rank.fit_hint_micro_batch").num("micro_batch", s.micro_batch).num("accumulation_count", s.grad_accumulation)
                      .num("fixed_micro_batch", w.micro_batch));
  if (w.fixedRecompute() >= 0 && static_cast<int>(s.recompute) != w.fixedRecompute())
    out.push_back(Message("rank.fit_hint_recompute").text("recompute", recomputeName(s.recompute)));
  if (w.zero_stage >= 0 && s.zero_stage != w.zero_stage)
    out.push_back(Message("rank.fit_hint_zero").num("zero_stage", s.zero_stage).num("fixed_zero_stage", w.zero_stage));
  if ((w.tensor_parallel > 0 && s.tensor_parallel != w.tensor_parallel) || (w.pipeline_parallel > 0 && s.pipeline_parallel != w.pipeline_parallel) ||
      (w.context_parallel > 0 && s.context_parallel != w.context_parallel))
    out.push_back(Message("rank.fit_hint_layout").num("tensor_parallel", s.tensor_parallel).num("pipeline_parallel", s.pipeline_parallel)
                      .num("context_parallel", s.context_parallel));
}

}  // namespace

Messages fitHints(const Workload& w, const Ranking& ranking, const RankOptions& opt) {
  Messages out;
  if (ranking.fitting_count > 0) return out;
  const Evaluation* e = roomiest(ranking, kFitHintMaxNodes);
  if (!e) return out;
  const Offer& o = *e->offer;
  const Workload free = withFreePlanValues(w);
  const int top = o.rdma ? std::max(1, opt.max_nodes) : 1;
  // Within the ranking's node limit with the fixed values set free, else with more nodes.
  int nodes = nodesToFit(free, o, top, opt.constants);
  const bool more_nodes = nodes == 0 && o.rdma && top < kFitHintMaxNodes;
  if (more_nodes) nodes = nodesToFit(free, o, kFitHintMaxNodes, opt.constants);
  if (nodes == 0) {
    const ClusterPlan least = planCluster(free, clusterOf(o, o.rdma ? kFitHintMaxNodes : 1), opt.constants);
    out.push_back(Message(o.rdma ? "rank.fit_hint_none" : "rank.fit_hint_none_no_rdma").num("required_gb", least.memory.required_gb)
                      .num("available_gb", least.memory.available_gb).num("gpu_count", (o.rdma ? kFitHintMaxNodes : 1) * o.gpu_count)
                      .text("gpu", o.gpu->id));
    return out;
  }
  ClusterPlan plan;
  if (!unconstrainedPlan(w, clusterOf(o, nodes), opt.constants, plan)) return out;
  changedValues(w, plan.memory.sharding, out);
  out.push_back(Message(more_nodes ? "rank.fit_hint_more_nodes" : "rank.fit_hint_fits_on").num("gpu_count", nodes * o.gpu_count)
                    .num("node_count", nodes).text("gpu", o.gpu->id).text("instance", o.instance_type).num("max_node_count", top));
  return out;
}

}  // namespace gpuvalue
