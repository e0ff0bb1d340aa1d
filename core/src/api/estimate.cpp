// estimate: time, throughput and memory of a workload on N GPUs of one type.
// {"preset"|"workload", "gpu", "count", "gpus_per_node"?, "precision"?, "interconnect"?, "network_gbps"?,
//  "rdma"?, "constants"?, "measurements"? (api/measurements.hpp)}
#include "api/answer.hpp"
#include "api/measurements.hpp"
#include "api/request.hpp"
#include "api/request_tables.hpp"
#include "model/parallel_plan.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {

namespace T = request_tables;

namespace {

// The cluster a request describes; defaults for a bare GPU type: SXM parts sit on NVSwitch/NVLink boards, PCIe
// parts on PCIe; multi-node clusters get one RDMA NIC per GPU, as DGX nodes have (defaultNetworkGbpsPerGpu).
Cluster readCluster(ObjectReader& r, const GpuSpec* g, int count) {
  int per_node = integerOr(r, T::kGpusPerNode, std::min(count, 8));
  Cluster c;
  c.gpu = g;
  c.gpus_per_node = std::min(per_node, count);
  c.nodes = (count + c.gpus_per_node - 1) / c.gpus_per_node;
  c.interconnect = readString(r, T::kInterconnect).value_or(g && g->nvlink_gbs > 0 && g->form_factor.find("PCIe") == std::string::npos ? "nvswitch" : "pcie");
  c.network_gbps = readNumber(r, T::kNetworkGbps).value_or((g ? defaultNetworkGbpsPerGpu(*g) : 200.0) * c.gpus_per_node);
  c.rdma = booleanOr(r, T::kRdma);
  return c;
}

// A fixed layout must divide the GPU count (each rank belongs to exactly one group of every axis).
void checkFixedLayout(const Workload& w, const Cluster& c, ObjectReader& r, Issues& issues) {
  const long long tp = std::max(1, w.tensor_parallel), pp = std::max(1, w.pipeline_parallel), cp = std::max(1, w.context_parallel);
  const long long mp = tp * pp * cp, total = c.totalGpus();
  if (mp <= 1 || total % mp == 0) return;
  const char* key = w.tensor_parallel > 1 ? "tensor_parallel" : (w.pipeline_parallel > 1 ? "pipeline_parallel" : "context_parallel");
  const Message message = Message("error.layout_divide_gpus").num("layout_value", static_cast<double>(mp))
                              .num("gpu_count", static_cast<double>(total));
  const json* wj = r.get("workload");
  if (!wj || !wj->is_object()) {
    r.error("workload", ErrorCode::kInvalidValue, message);
    return;
  }
  ObjectReader wr(*wj, "/workload", issues);
  wr.error(key, ErrorCode::kInvalidValue, message);
}

// Why a plan does not fit, naming the workload keys it fixed and what fits without them.
Message fitWarning(const Workload& w, const ClusterPlan& plan) {
  const std::string fixed = fixedPlanValues(w);
  if (fixed.empty()) return Message("estimate.no_fit_any_plan");
  if (plan.fixed_blocks_fit)
    return Message("estimate.no_fit_fixed_fits_with").text("fixed", fixed).text("sharding", plan.unconstrained.label());
  return Message("estimate.no_fit_fixed").text("fixed", fixed);
}

// The standard shape inferred for a workload given only params, tokens and seq_len.
Message shapeNote(const Workload& w) {
  return Message("estimate.shape_inferred")
      .num("layer_count", std::llround(w.effectiveLayers()))
      .num("hidden_count", std::llround(w.effectiveHidden()))
      .num("head_count", std::llround(w.effectiveHeads()))
      .num("kv_head_count", std::llround(w.effectiveKvHeads()));
}

// The global batch the plan assumed when the workload gave none (Workload::defaultGlobalBatchTokens).
Message batchNote(const Workload& w) {
  const double tokens = w.effectiveGlobalBatchTokens();
  const char* code = w.mode == Mode::kLora ? "estimate.batch_assumed_lora"
                     : w.mode == Mode::kFinetune ? "estimate.batch_assumed_finetune" : "estimate.batch_assumed_pretrain";
  return Message(code)
      .num("sequence_count", std::llround(tokens / std::max(1.0, w.seq_len)))
      .num("token_count", tokens);
}

// A given shape whose parameter count is far from params (Workload::paramsRangeOfShape).
Message shapeContradiction(const Workload& w) {
  double low = 0, high = 0;
  w.paramsRangeOfShape(low, high);
  return Message(w.isMoe() ? "estimate.shape_contradicts_active_params" : "estimate.shape_contradicts_params")
      .num("layer_count", std::llround(w.effectiveLayers())).num("hidden_count", std::llround(w.effectiveHidden()))
      .num("param_count", w.activeParams()).num("low_count", low).num("high_count", high);
}

}  // namespace

std::string apiEstimate(EngineState& s, const std::string& text, const std::string&) {
  Request r(text);
  Workload w;
  ModelConstants k;
  if (!readWorkloadRequest(s, r, w, k)) return r.errorAnswer();
  const GpuSpec* g = gpuField(s.gpus, r);
  const int count = integerOr(r, T::kCount, 1);
  const Cluster c = readCluster(r, g, count);
  if (!r.failed()) checkFixedLayout(w, c, r, r.issues());
  if (r.failed()) return r.errorAnswer();
  // The user's measurements: the factor and band of the one nearest this GPU and count.
  const Calibration calibration = readMeasurementsField(s, r.doc(), w, k, r.issues());
  if (r.failed()) return r.errorAnswer();
  const CalibrationPick pick = pickCalibration(calibration, *g, c.totalGpus(), k);
  applyCalibration(pick, w, k);
  const ClusterPlan plan = planCluster(w, c, k);
  const MemoryBreakdown& m = plan.memory;
  const Throughput& t = plan.throughput;
  const Precision used = trainingPrecision(w, *g);
  Messages warnings;
  if (!m.fits) warnings.push_back(fitWarning(w, plan));
  if (w.shapeInferred() && w.params > 0) warnings.push_back(shapeNote(w));
  if (shapeContradictsParams(w)) warnings.push_back(shapeContradiction(w));
  const bool batch_assumed = w.kind == WorkloadKind::kTransformer && w.mode != Mode::kInference && w.global_batch_tokens <= 0;
  if (batch_assumed) warnings.push_back(batchNote(w));
  if (!t.supported) warnings.push_back(Message("estimate.precision_unsupported"));
  if (used != w.precision)
    warnings.push_back(Message("estimate.precision_fallback").text("precision", precisionName(w.precision)).text("gpu", g->id)
                           .text("used", precisionName(used)));
  if (c.totalGpus() != count) warnings.push_back(Message("estimate.rounded_to_nodes").num("gpu_count", c.gpus_per_node));
  std::string out;
  JsonWriter j(out);
  j.beginObject().field("ok", true).field("workload", w.name).field("gpu", g->id).field("gpu_count", c.totalGpus())
      .field("nodes", c.nodes).field("precision", precisionName(used)).field("total_flops", finiteOr(w.totalFlops()))
      .field("hardware_flops", finiteOr(t.time_hours > 0 ? t.effective_tflops_per_gpu * 1e12 * c.totalGpus() * t.time_hours * 3600.0 : w.totalFlops()))
      .field("time_hours", finiteOr(t.time_hours)).field("time_hours_low", finiteOr(t.time_hours_low))
      .field("time_hours_high", finiteOr(t.time_hours_high)).key("throughput");
  writeThroughput(j, t);
  j.key("memory");
  writeMemory(j, m);
  j.key("plan");
  writePlan(j, m, t);
  // The same job under the other software stack: the difference is part of the answer.
  Workload other = w;
  other.software = w.software == Software::kTuned ? Software::kTypical : Software::kTuned;
  const ClusterPlan other_plan = planCluster(other, c, k);
  j.field("software", softwareName(w.software)).key("other_software").beginObject()
      .field("software", softwareName(other.software)).field("time_hours", finiteOr(other_plan.throughput.time_hours))
      .field("fits", other_plan.memory.fits).endObject();
  if (w.kind == WorkloadKind::kTransformer)
    j.key("shape").beginObject().field("layers", finiteOr(w.effectiveLayers())).field("hidden", finiteOr(w.effectiveHidden()))
      .field("heads", finiteOr(w.effectiveHeads())).field("kv_heads", finiteOr(w.effectiveKvHeads()))
      .field("inferred", w.shapeInferred()).field("active_params", finiteOr(w.activeParams()))
      .field("routed_expert_params", finiteOr(w.routedExpertParams())).field("trainable_params", finiteOr(w.trainableParams()))
      .field("global_batch_tokens", finiteOr(w.effectiveGlobalBatchTokens())).field("global_batch_assumed", batch_assumed)
      .endObject();
  j.field("min_gpus_to_fit", minGpusToFit(w, c, k)).field("warnings", warnings);
  writeCalibration(j, calibration);
  writeCalibrated(j, pick);
  j.endObject();
  return out;
}

}  // namespace gpuvalue
