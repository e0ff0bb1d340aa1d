#include "model/parallel_plan.hpp"

#include <algorithm>
#include <cmath>

namespace gpuvalue {

namespace {

// Powers of two from 1 up to `max`.
std::vector<int> powersOfTwo(int max) {
  std::vector<int> v;
  for (int x = 1; x <= max; x *= 2) v.push_back(x);
  return v;
}

bool isTrainingTransformer(const Workload& w) { return w.kind == WorkloadKind::kTransformer && w.mode != Mode::kInference; }

// Sequences each data-parallel replica processes per optimizer step (at least one micro-batch).
double sequencesPerReplica(const Workload& w, int replicas) {
  return std::max(1.0, std::round(w.effectiveGlobalBatchTokens() / std::max(1.0, w.seq_len) / std::max(1, replicas)));
}

}  // namespace

// Megatron-LM's guidance (Narayanan et al. 2021, arXiv:2104.04473, §3.3 takeaways 1-3): tensor parallel up to
// the GPUs of a node, pipeline parallel across nodes, data parallel for the rest. Context parallelism pays only
// for long sequences: candidates keep at least 4,096 tokens per rank (Llama 3 used CP 16 only for its 131,072-token
// stage: Dubey et al. 2024, arXiv:2407.21783, Table 4).
PlanAxes planAxes(const Workload& w, const Cluster& c) {
  PlanAxes a;
  const bool tf = w.kind == WorkloadKind::kTransformer;
  const int total = std::max(1, c.totalGpus());
  a.tp = w.tensor_parallel > 0 ? std::vector<int>{w.tensor_parallel} : (tf ? powersOfTwo(std::min(8, c.gpus_per_node)) : std::vector<int>{1});
  a.pp = w.pipeline_parallel > 0 ? std::vector<int>{w.pipeline_parallel}
                                 : (tf ? powersOfTwo(std::min({128, total, static_cast<int>(w.effectiveLayers())})) : std::vector<int>{1});
  a.cp = w.context_parallel > 0 ? std::vector<int>{w.context_parallel} : std::vector<int>{1};
  if (tf && w.context_parallel <= 0)
    for (int cp = 2; cp <= 32 && w.seq_len / cp >= 4096; cp *= 2) a.cp.push_back(cp);
  // Expert parallelism (MoE only): powers of two that divide the experts, up to 256 ranks (DeepSeek-V3 trains
  // with EP 64 over 8 nodes: arXiv:2412.19437, §3.2; Megatron-Core recipes use 8-64).
  a.ep = {1};
  if (w.expert_parallel > 0) a.ep = {w.expert_parallel};
  else if (w.isMoe())
    for (int ep = 2; ep <= 256 && ep <= total && std::fmod(w.experts, ep) == 0; ep *= 2) a.ep.push_back(ep);
  a.zero = w.zero_stage >= 0 ? std::vector<int>{w.zero_stage} : std::vector<int>{0, 1, 2, 3};
  if (w.micro_batch > 0) a.micro_batch = {static_cast<int>(w.micro_batch)};
  else if (isTrainingTransformer(w)) a.micro_batch = {8, 4, 2, 1};
  else a.micro_batch = {1};
  if (w.fixedRecompute() >= 0) a.recompute = {static_cast<Recompute>(w.fixedRecompute())};
  else if (isTrainingTransformer(w)) a.recompute = {Recompute::kNone, Recompute::kSelective, Recompute::kFull};
  else a.recompute = {Recompute::kNone};
  return a;
}

bool completeLayout(const Workload& w, const Cluster& c, Sharding& s) {
  const int total = std::max(1, c.totalGpus());
  const int mp = s.modelParallel();
  if (mp > total || total % mp != 0) return false;
  s.data_parallel = total / mp;
  if (w.kind == WorkloadKind::kTransformer) {
    const double heads = w.effectiveHeads();
    if (s.tensor_parallel > 1 && std::fmod(heads, s.tensor_parallel) != 0) return false;
    if (s.pipeline_parallel > w.effectiveLayers()) return false;
    if (s.context_parallel > 1 && std::fmod(w.seq_len, 2.0 * s.context_parallel) != 0) return false;
    // Expert-parallel groups are carved out of the data-parallel ranks.
    if (s.expert_parallel > 1 && (!w.isMoe() || s.data_parallel % s.expert_parallel != 0 || std::fmod(w.experts, s.expert_parallel) != 0))
      return false;
  }
  if (isTrainingTransformer(w)) {
    // A micro-batch larger than the replica's share of the global batch makes the global batch larger.
    const double seqs = sequencesPerReplica(w, s.data_parallel);
    s.grad_accumulation = static_cast<int>(std::max(1.0, std::round(seqs / std::max(1, s.micro_batch))));
  } else if (w.kind == WorkloadKind::kCnn) {
    s.micro_batch = static_cast<int>(w.batch_per_gpu);
  }
  return true;
}

std::string fixedPlanValues(const Workload& w) {
  std::vector<std::string> names;
  if (w.tensor_parallel > 0) names.push_back("tensor_parallel");
  if (w.pipeline_parallel > 0) names.push_back("pipeline_parallel");
  if (w.context_parallel > 0) names.push_back("context_parallel");
  if (w.expert_parallel > 0) names.push_back("expert_parallel");
  if (w.zero_stage >= 0) names.push_back("zero_stage");
  if (w.fixedRecompute() >= 0) names.push_back("recompute");
  if (w.micro_batch > 0 && w.kind == WorkloadKind::kTransformer) names.push_back("micro_batch");
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : ", ") + names[i];
  return out;
}

namespace {

// Calls visit(layout) for each valid tensor × pipeline × context layout of the cluster.
template <typename Visit>
void forEachLayout(const Workload& w, const Cluster& c, const PlanAxes& a, Visit&& visit) {
  for (int tp : a.tp)
    for (int pp : a.pp)
      for (int cp : a.cp)
        for (int ep : a.ep) {
          Sharding s;
          s.tensor_parallel = tp;
          s.pipeline_parallel = pp;
          s.context_parallel = cp;
          s.expert_parallel = ep;
          if (!completeLayout(w, c, s)) continue;
          visit(s);
        }
}

// Interleaving degrees worth timing for a layout: 1 and, with pipelining, powers of two while every chunk keeps
// a layer (or the embedding, or the loss: pipelineSlots) and the micro-batch count stays a multiple of the stage
// count (Megatron-LM's interleaved schedule requirement, Narayanan et al. 2021 §2.2.2). Llama 3 405B's 126 layers
// on 16 stages run 8 chunks of one layer each (Dubey et al. 2024, arXiv:2407.21783, §3.3.2: the first chunk of the
// first stage holds only the embedding, the last chunk of the last stage only the output layer and the loss).
std::vector<int> interleavings(const Workload& w, const Sharding& s) {
  std::vector<int> v{1};
  if (s.pipeline_parallel <= 1 || s.grad_accumulation % s.pipeline_parallel != 0) return v;
  for (int x = 2; x <= 16 && s.pipeline_parallel * x <= pipelineSlots(w.effectiveLayers()); x *= 2) v.push_back(x);
  return v;
}

struct SearchResult {
  bool have_fit = false, have_any = false;
  ClusterPlan best;
  MemoryBreakdown least;
};

void search(const Workload& w, const Cluster& c, const ModelConstants& k, const PlanAxes& a, SearchResult& r) {
  forEachLayout(w, c, a, [&](const Sharding& layout) {
    // With pipelining the smallest micro-batch is the fastest (more micro-batches, smaller bubble) and the most
    // frugal; without, time does not depend on it and the largest that fits is taken (the searched list is
    // descending), so the first micro-batch that fits ends the loop.
    const bool searched_mb = a.micro_batch.size() > 1;
    const std::vector<int> mbs = searched_mb && layout.pipeline_parallel > 1 ? std::vector<int>{a.micro_batch.back()} : a.micro_batch;
    bool layout_fitted = false;
    for (int mb : mbs) {
      if (layout_fitted) break;
      Sharding s = layout;
      s.micro_batch = mb;
      if (!completeLayout(w, c, s)) continue;
      // Searched micro-batches stay within the replica's share of the global batch.
      if (a.micro_batch.size() > 1 && mb > 1 && mb > sequencesPerReplica(w, s.data_parallel)) continue;
      // For each recomputation the first ZeRO stage that fits is the fastest (later stages only add
      // communication); across recomputations more FLOPs may buy a lower ZeRO stage, so each is timed.
      bool fitted = false;
      for (Recompute rc : a.recompute) {
        bool rc_fitted = false;
        for (int z : a.zero) {
          s.recompute = rc;
          s.zero_stage = z;
          if (a.zero.size() > 1 && z > 0 && s.data_parallel * s.context_parallel < 2) continue;  // nothing to shard over
          for (int v : interleavings(w, s)) {
            s.virtual_stages = v;
            MemoryBreakdown m = estimateMemory(w, c, s, k);
            if (!m.fits) {
              if (!r.have_any || m.required_gb < r.least.required_gb) r.least = m, r.have_any = true;
              continue;
            }
            fitted = rc_fitted = true;
            Throughput t = estimateThroughput(w, c, s, k);
            if (!r.have_fit || t.model_tflops_per_gpu > r.best.throughput.model_tflops_per_gpu * (1 + 1e-9)) {
              r.best.memory = m;
              r.best.throughput = t;
              r.have_fit = true;
            }
          }
          if (rc_fitted) break;
        }
      }
      layout_fitted = fitted && searched_mb;
    }
  });
}

}  // namespace

Workload withFreePlanValues(const Workload& w) {
  Workload free = w;
  free.tensor_parallel = free.pipeline_parallel = free.context_parallel = free.expert_parallel = 0;
  free.zero_stage = -1;
  free.recompute = -1;
  free.activation_checkpointing = false;
  if (free.kind == WorkloadKind::kTransformer) free.micro_batch = 0;
  return free;
}

bool unconstrainedPlan(const Workload& w, const Cluster& c, const ModelConstants& k, ClusterPlan& out) {
  const Workload free = withFreePlanValues(w);
  SearchResult r;
  search(free, c, k, planAxes(free, c), r);
  if (r.have_fit) out = r.best;
  return r.have_fit;
}

// Among the plans that fit, the fastest by model FLOPs per second (time to train); when none fits, the one that
// needs the least memory.
ClusterPlan planCluster(const Workload& w, const Cluster& c, const ModelConstants& k) {
  SearchResult r;
  search(w, c, k, planAxes(w, c), r);
  if (r.have_fit) return r.best;
  ClusterPlan plan;
  if (!r.have_any) {
    // No valid layout (a fixed degree does not divide the GPU count): the fixed values as given.
    Sharding s;
    s.tensor_parallel = std::max(1, w.tensor_parallel);
    s.pipeline_parallel = std::max(1, w.pipeline_parallel);
    s.context_parallel = std::max(1, w.context_parallel);
    s.expert_parallel = std::max(1, w.expert_parallel);
    s.zero_stage = std::max(0, w.zero_stage);
    r.least = estimateMemory(w, c, s, k);
  }
  plan.memory = r.least;
  plan.throughput = estimateThroughput(w, c, r.least.sharding, k);
  if (!fixedPlanValues(w).empty()) {
    ClusterPlan free;
    if (unconstrainedPlan(w, c, k, free)) {
      plan.fixed_blocks_fit = true;
      plan.unconstrained = free.memory.sharding;
    }
  }
  return plan;
}

MemoryBreakdown chooseSharding(const Workload& w, const Cluster& c, const ModelConstants& k) {
  return planCluster(w, c, k).memory;
}

// Memory only: each layout with its most frugal settings (highest allowed ZeRO stage, full recomputation,
// the smallest micro-batch, no interleaving).
bool fitsWithSomeSharding(const Workload& w, const Cluster& c, const ModelConstants& k) {
  const PlanAxes a = planAxes(w, c);
  bool fits = false;
  forEachLayout(w, c, a, [&](const Sharding& layout) {
    if (fits) return;
    Sharding s = layout;
    s.micro_batch = *std::min_element(a.micro_batch.begin(), a.micro_batch.end());
    if (!completeLayout(w, c, s)) return;
    s.recompute = a.recompute.back();
    for (auto z = a.zero.rbegin(); z != a.zero.rend() && !fits; ++z) {
      s.zero_stage = *z;
      if (a.zero.size() > 1 && *z > 0 && s.data_parallel * s.context_parallel < 2) continue;
      fits = estimateMemory(w, c, s, k).fits;
    }
  });
  return fits;
}

}  // namespace gpuvalue
