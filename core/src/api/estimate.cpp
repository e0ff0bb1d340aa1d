// estimate: time, throughput and memory of a workload on N GPUs of one type.
// {"preset"|"workload", "gpu", "count", "gpus_per_node"?, "precision"?, "interconnect"?, "network_gbps"?,
//  "rdma"?, "constants"?}
#include "api/answer.hpp"
#include "api/request.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {

namespace {

// The cluster a request describes; defaults for a bare GPU type: SXM parts sit on NVSwitch/NVLink boards, PCIe
// parts on PCIe; multi-node clusters get one 200 Gb/s RDMA NIC per GPU, as DGX A100/H100 nodes have (NVIDIA DGX
// user guides).
Cluster readCluster(ObjectReader& r, const GpuSpec* g, int count) {
  int per_node = static_cast<int>(r.integer("gpus_per_node", false, 1, 1024).value_or(std::min(count, 8)));
  Cluster c;
  c.gpu = g;
  c.gpus_per_node = std::min(per_node, count);
  c.nodes = (count + c.gpus_per_node - 1) / c.gpus_per_node;
  c.interconnect = r.string("interconnect", false).value_or(g && g->nvlink_gbs > 0 && g->form_factor.find("PCIe") == std::string::npos ? "nvswitch" : "pcie");
  c.network_gbps = r.number("network_gbps", false, 0, false, 1e6).value_or(200.0 * c.gpus_per_node);
  c.rdma = r.boolean("rdma", false).value_or(true);
  return c;
}

}  // namespace

std::string apiEstimate(EngineState& s, const std::string& text, const std::string&) {
  Issues issues;
  json req;
  Workload w;
  ModelConstants k;
  if (!readWorkloadRequest(s, text, req, w, k, issues)) return errorResult(issues);
  ObjectReader r(req, "", issues);
  const GpuSpec* g = gpuField(s.gpus, r);
  const int count = static_cast<int>(r.integer("count", false, 1, 1 << 20).value_or(1));
  const Cluster c = readCluster(r, g, count);
  if (hasErrors(issues)) return errorResult(issues);
  const ClusterPlan plan = planCluster(w, c, k);
  const MemoryBreakdown& m = plan.memory;
  const Throughput& t = plan.throughput;
  const Precision used = trainingPrecision(w, *g);
  Messages warnings;
  if (!m.fits) warnings.push_back(Message("estimate.no_fit"));
  if (!t.supported) warnings.push_back(Message("estimate.precision_unsupported"));
  if (used != w.precision)
    warnings.push_back(Message("estimate.precision_fallback").text("precision", precisionName(w.precision)).text("gpu", g->id)
                           .text("used", precisionName(used)));
  if (c.totalGpus() != count) warnings.push_back(Message("estimate.rounded_to_nodes").num("gpu_count", c.gpus_per_node));
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("workload", w.name).field("gpu", g->id).field("gpu_count", c.totalGpus())
      .field("nodes", c.nodes).field("precision", precisionName(used)).field("total_flops", finiteOr(w.totalFlops()))
      .field("time_hours", finiteOr(t.time_hours)).field("time_hours_low", finiteOr(t.time_hours_low))
      .field("time_hours_high", finiteOr(t.time_hours_high)).key("throughput");
  writeThroughput(j, t);
  j.key("memory");
  writeMemory(j, m);
  j.field("min_gpus_to_fit", minGpusToFit(w, c, k)).field("warnings", warnings).endObject();
  return out;
}

}  // namespace gpuvalue
