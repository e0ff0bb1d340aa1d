// The parallel-plan search: tensor × pipeline × context × data parallelism with ZeRO, activation recomputation
// and micro-batching, the fastest plan that fits (planCluster and fitsWithSomeSharding in performance.hpp).
#pragma once
#include <string>
#include <vector>

#include "model/performance.hpp"

namespace gpuvalue {

// The candidate values of each plan axis for a workload on a cluster; values the workload fixes are the only
// candidates of their axis.
struct PlanAxes {
  std::vector<int> tp, pp, cp, ep, zero, micro_batch;
  std::vector<Recompute> recompute;
};
PlanAxes planAxes(const Workload& w, const Cluster& c);

// Completes a layout (tp, pp, cp already set) for the cluster: data-parallel degree and the number of
// micro-batches each replica runs per optimizer step under the workload's global batch. False when the layout
// does not divide the GPU count or the model (heads over TP, layers over PP).
bool completeLayout(const Workload& w, const Cluster& c, Sharding& s);

// The plan values the workload fixes, as a phrase ("ZeRO stage and tensor-parallel degree"), empty when none.
std::string fixedPlanValues(const Workload& w);

// The workload with every plan value it fixes set free (parallel degrees, ZeRO, recomputation, micro-batch).
Workload withFreePlanValues(const Workload& w);
// The fastest fitting plan ignoring the workload's fixed values; false when none fits.
bool unconstrainedPlan(const Workload& w, const Cluster& c, const ModelConstants& k, ClusterPlan& out);

}  // namespace gpuvalue
