#include "model/data_fields.hpp"

namespace gpuvalue {
namespace data_fields {

namespace {
const Field kSchemaRef = Field::string("$schema", "Relative path to this file's schema, for editors.").ignored();
const Field kSchemaVersion = Field::integer("schema_version", "Version of this file format; 1.").atLeast(1).atMost(1).ignored();
const Field kFileDescription = Field::string("description", "What the file holds.").ignored();
const Field kNotes = Field::string("notes", "Free text: caveats, conflicts between sources, derived figures.").ignored();
const char* const kKinds[] = {"transformer", "cnn", "vision", "custom", nullptr};
const char* const kModes[] = {"pretrain", "pretraining", "finetune", "full_finetune", "lora", "inference", nullptr};
const char* const kTrainingPrecisions[] = {"fp32", "tf32", "fp16", "bf16", "fp8", nullptr};
const char* const kOptimizers[] = {"adamw", "adam", "adam8bit", "sgd", nullptr};
const char* const kTransformer[] = {"transformer", nullptr};
const char* const kCnn[] = {"cnn", "vision", nullptr};
const char* const kCustom[] = {"custom", nullptr};
// The largest total FLOPs a custom workload may state.
constexpr double kMaxTotalFlops = 1e30;
const char* const kAttentions[] = {"fused", "materialized", nullptr};
const char* const kRecomputes[] = {"none", "selective", "full", nullptr};
const char* const kLoraTargetChoices[] = {"attention", "all_linear", nullptr};
const char* const kLoraQkvChoices[] = {"fused", "separate", nullptr};
const char* const kSoftwares[] = {"tuned", "typical", nullptr};
}  // namespace

// ---- The GPU database (GpuDatabase::load) -------------------------------------------------------------------
extern const Field kGpuId = Field::string("id", "Stable identifier used by the engine and the catalogs; unique with the aliases, in any letter case.").req();
extern const Field kGpuName = Field::string("name", "Product name shown in results, e.g. 'NVIDIA A100 80GB SXM4'.").req();
extern const Field kVendor = Field::string("vendor", "GPU vendor, e.g. NVIDIA or AMD.");
extern const Field kArchitecture = Field::string("architecture", "Architecture family (lower case): kepler, maxwell, pascal, volta, turing, ampere, ada, hopper, blackwell, gcn5, cdna2, cdna3.").req();
extern const Field kFormFactor = Field::string("form_factor", "Physical form factor, e.g. 'SXM4' or 'PCIe', for display.");
extern const Field kReleaseYear = Field::integer("release_year", "Year the part was announced or first became available.").atLeast(2000).atMost(2100);
extern const Field kAliases = Field::strings("aliases", "Other names clouds, SkyPilot and nvidia-smi use for this GPU (compared ignoring letter case).");
extern const Field kMemoryGb = Field::number("memory_gb", "Device memory of one GPU in GB (decimal, as the vendor states it).").req().above(0).atMost(4096);
extern const Field kMemoryType = Field::string("memory_type", "Memory technology, e.g. HBM3.");
extern const Field kBandwidth = Field::number("memory_bandwidth_gbs", "Peak device-memory bandwidth in GB/s.").req().above(0).atMost(1e6);
extern const Field kTflops = Field::object("tflops", &kGpuTflopsRecord, "").req();
extern const Field kNvlink = Field::number("nvlink_gbs", "Per-GPU GPU-to-GPU bandwidth in GB/s over NVLink or Infinity Fabric; 0 = none.").atLeast(0).atMost(1e6).byDefault(0.0);
extern const Field kPcieGen = Field::integer("pcie_gen", "PCI Express generation of the host link.").atLeast(1).atMost(7);
extern const Field kTdp = Field::number("tdp_w", "Maximum board or module power in watts, as published.").above(0).atMost(1e5);
extern const Field kMigProfiles = Field::array("mig_profiles", &kMigProfileRecord, "Multi-Instance GPU profiles; [] when the GPU has no MIG.");
extern const Field kSources = Field::strings("sources", "Where every figure comes from, one entry per source (the engine warns when there is none).");
// The peaks in Precision order (gpu_specs.cpp kPrecisionNames).
extern const Field kPeakFp32 = Field::number("fp32", "Non-tensor FP32 peak, TFLOPS.").above(0).atMost(1e6);
extern const Field kPeakTf32 = Field::number("tf32", "Dense TF32 tensor peak, TFLOPS; null = unsupported.").above(0).atMost(1e6);
extern const Field kPeakFp16 = Field::number("fp16", "Dense FP16 tensor peak, TFLOPS; null = unsupported.").above(0).atMost(1e6);
extern const Field kPeakBf16 = Field::number("bf16", "Dense BF16 tensor peak, TFLOPS; null = unsupported.").above(0).atMost(1e6);
extern const Field kPeakFp8 = Field::number("fp8", "Dense FP8 tensor peak, TFLOPS; null = unsupported.").above(0).atMost(1e6);
extern const Field kPeakFp4 = Field::number("fp4", "Dense FP4 tensor peak, TFLOPS; null = unsupported.").above(0).atMost(1e6);
extern const Field kPeakInt8 = Field::number("int8", "Dense INT8 tensor peak, TOPS; null = unsupported.").above(0).atMost(1e6);
extern const Field kMigName = Field::string("name", "NVIDIA profile name '<compute slices>g.<memory>gb', e.g. 1g.10gb.").req();
extern const Field kMigMemory = Field::number("memory_gb", "Memory of one instance in GB (at most the GPU's memory).").req().above(0).atMost(4096);
extern const Field kMigSlices = Field::integer("compute_slices", "Compute slices of the 7 on the GPU (the 'Ng' of the name).").req().atLeast(1).atMost(8);
extern const Field kMigMaxCount = Field::integer("max_count", "Most instances of this profile on one GPU.").req().atLeast(1).atMost(8);
extern const Field kGpus = Field::array("gpus", &kGpuRecord, "The GPU records; ids and aliases name one record each.").req();

namespace {
const Field* const kGpuDocumentFields[] = {&kSchemaRef, &kSchemaVersion, &kGpus};
const Field* const kGpuFields[] = {&kGpuId, &kGpuName, &kVendor, &kArchitecture, &kFormFactor, &kReleaseYear, &kAliases,
                                   &kMemoryGb, &kMemoryType, &kBandwidth, &kTflops, &kNvlink, &kPcieGen, &kTdp,
                                   &kMigProfiles, &kSources, &kNotes};
const Field* const kGpuTflopsFields[] = {&kPeakFp32, &kPeakTf32, &kPeakFp16, &kPeakBf16, &kPeakFp8, &kPeakFp4, &kPeakInt8};
const Field* const kMigFields[] = {&kMigName, &kMigMemory, &kMigSlices, &kMigMaxCount};
}  // namespace

// ---- Workloads (parseWorkload) and presets (Engine::loadPresets) ------------------------------------------------
extern const Field kKind = Field::string("kind", "Model family; chooses which other members apply ('vision' = cnn).")
                               .req().oneOf(kKinds);
extern const Field kWorkloadName = Field::string("name", "Name shown in results.");
extern const Field kMode = Field::string("mode", "What is run: pretrain, finetune, lora or inference.").oneOf(kModes).byDefault("pretrain");
extern const Field kPrecision = Field::string("precision", "Training number format (any letter case).")
                                    .oneOf(kTrainingPrecisions).ignoringCase();
extern const Field kOptimizer = Field::string("optimizer", "Optimizer, for the memory of its state.").oneOf(kOptimizers).byDefault("adamw");
extern const Field kTransformerParams = Field::number("params", "Parameters of the model.").req().above(0).atMost(1e15).onlyFor(kTransformer);
extern const Field kRequests = Field::number("requests", "Inference: requests served (with tokens_per_request instead of tokens).").above(0).atMost(1e15).onlyFor(kTransformer);
extern const Field kTokensPerRequest = Field::number("tokens_per_request", "Inference: prompt and generated tokens per request.").above(0).atMost(1e7).onlyFor(kTransformer);
extern const Field kTokens = Field::number("tokens", "Tokens processed; required unless an inference states requests and tokens_per_request.").above(0).atMost(1e18).onlyFor(kTransformer);
extern const Field kSeqLen = Field::integer("seq_len", "Sequence length, tokens.").atLeast(1).atMost(1e7).onlyFor(kTransformer);
extern const Field kComputedSeqLen = Field::integer("computed_seq_len", "Mean tokens computed per sequence when batches are padded only to their longest sample (sequence binning); default: seq_len. At most seq_len.").atLeast(1).atMost(1e7).onlyFor(kTransformer);
extern const Field kAttention = Field::string("attention", "Attention kernels: fused (FlashAttention-class, the score matrix stays on chip) or materialized (scores, softmax and dropout through device memory: eager PyTorch, Megatron-LM before 2022).").oneOf(kAttentions).byDefault("fused").onlyFor(kTransformer);
extern const Field kLayers = Field::integer("layers", "Transformer layers (derived from params when absent).").atLeast(1).atMost(1e5).onlyFor(kTransformer);
extern const Field kHidden = Field::integer("hidden", "Hidden size (derived from params when absent).").atLeast(1).atMost(1e6).onlyFor(kTransformer);
extern const Field kHeads = Field::integer("heads", "Attention heads.").atLeast(1).atMost(1e5).onlyFor(kTransformer);
extern const Field kKvHeads = Field::integer("kv_heads", "Key/value heads (grouped-query attention; 1 = multi-query); default: heads, or 8 with a derived shape. Must divide heads.").atLeast(1).atMost(1e5).onlyFor(kTransformer);
extern const Field kExperts = Field::integer("experts", "Mixture of experts: routed experts per MoE layer (absent = dense model). Needs layers, hidden, experts_per_token and expert_ffn_hidden or active_params.").atLeast(1).atMost(1e6).onlyFor(kTransformer);
extern const Field kExpertsPerToken = Field::integer("experts_per_token", "MoE: routed experts each token goes to (top-k).").atLeast(1).atMost(1e6).onlyFor(kTransformer);
extern const Field kSharedExperts = Field::integer("shared_experts", "MoE: experts every token goes to (DeepSeek-V3: 1); counted in params and active params.").atLeast(0).atMost(1e6).byDefault(0.0).onlyFor(kTransformer);
extern const Field kExpertFfnHidden = Field::integer("expert_ffn_hidden", "MoE: intermediate size of one expert's SwiGLU FFN (3 hidden × size matrices).").atLeast(1).atMost(1e7).onlyFor(kTransformer);
extern const Field kDenseLayers = Field::integer("dense_layers", "MoE: leading layers with a dense FFN instead of experts.").atLeast(0).atMost(1e5).byDefault(0.0).onlyFor(kTransformer);
extern const Field kActiveParams = Field::number("active_params", "MoE: parameters one token passes through (default: params minus the routed experts it skips).").above(0).atMost(1e15).onlyFor(kTransformer);
extern const Field kCapacityFactor = Field::number("capacity_factor", "MoE: load of the busiest expert rank over the mean (Switch Transformer capacity factors 1.0-1.25).").atLeast(1).atMost(100).byDefault(1.1).onlyFor(kTransformer);
extern const Field kExpertParallel = Field::integer("expert_parallel", "Expert-parallel degree (MoE experts split over data-parallel ranks).").atLeast(1).atMost(4096).onlyFor(kTransformer);
extern const Field kMicroBatch = Field::integer("micro_batch", "Sequences per GPU per step.").atLeast(1).atMost(1e6).onlyFor(kTransformer);
extern const Field kGlobalBatchTokens = Field::number("global_batch_tokens", "Tokens per optimizer step over all GPUs (default: published practice for the mode and size, named in the answer).").atLeast(1).atMost(1e12).onlyFor(kTransformer);
extern const Field kCheckpointing = Field::boolean("activation_checkpointing", "Full activation recomputation.").byDefault(false).onlyFor(kTransformer);
extern const Field kLoraParams = Field::number("lora_trainable_params", "LoRA: trainable adapter parameters (default: counted from lora_rank, lora_targets and the shape).").atLeast(0).atMost(1e15).onlyFor(kTransformer);
// Rank 16: MLPerf Training's Llama 2 70B LoRA reference (--lora_r 16, data/presets.json llama2-70b-lora); Hu et al.
// 2021, "LoRA", arXiv:2106.09685, §7.2 and Table 6 find ranks 1-64 alike on GPT-3.
extern const Field kLoraRank = Field::integer("lora_rank", "LoRA: rank r of the adapters (A: r × input, B: output × r).").atLeast(1).atMost(65536).byDefault(16.0).onlyFor(kTransformer);
extern const Field kFfnHidden = Field::integer("ffn_hidden", "Intermediate size of the dense feed-forward layers (SwiGLU: gate, up and down, 3 hidden × size matrices); used for LoRA adapters on all_linear. Default: from params and the shape.").atLeast(1).atMost(1e7).onlyFor(kTransformer);
extern const Field kLoraTargets = Field::string("lora_targets", "LoRA: the linear layers that carry adapters: attention (q, k, v and output projections) or all_linear (the feed-forward layers too); the inputs of frozen linears without adapters are not kept for the backward pass.").oneOf(kLoraTargetChoices).byDefault("attention").onlyFor(kTransformer);
// Fused: Megatron/NeMo's linear_qkv and MLPerf's qkv_proj (data/presets.json llama2-70b-lora); separate: Hugging Face
// PEFT's target_modules q_proj, k_proj, v_proj (https://huggingface.co/docs/peft/developer_guides/lora).
extern const Field kLoraQkv = Field::string("lora_qkv", "LoRA: the q, k and v projections as one fused linear with one adapter (Megatron, NeMo, MLPerf) or three linears with one adapter each (Hugging Face PEFT, LLaMA-Factory): r·2·hidden more parameters per layer.").oneOf(kLoraQkvChoices).byDefault("fused").onlyFor(kTransformer);
extern const Field kGflops = Field::number("gflops_per_sample", "Forward GFLOPs per sample.").req().above(0).atMost(1e9).onlyFor(kCnn);
extern const Field kSamples = Field::number("samples", "Samples per epoch.").req().above(0).atMost(1e15).onlyFor(kCnn);
extern const Field kEpochs = Field::number("epochs", "Passes over the samples.").above(0).atMost(1e6).byDefault(1.0).onlyFor(kCnn);
extern const Field kCnnParams = Field::number("params", "Parameters of the model (default: ResNet-50's 25.6 M).").atLeast(0).atMost(1e13).byDefault(25.6e6).onlyFor(kCnn);
extern const Field kBatchPerGpu = Field::integer("batch_per_gpu", "Samples per GPU per step.").atLeast(1).atMost(1e6).onlyFor(kCnn);
extern const Field kActivationGb = Field::number("activation_gb_per_sample", "Activation memory per sample, GB.").atLeast(0).atMost(1e4).onlyFor(kCnn);
extern const Field kTotalFlops = Field::number("total_flops", "Total FLOPs of the job.").req().above(0).atMost(kMaxTotalFlops).onlyFor(kCustom);
extern const Field kCustomParams = Field::number("params", "Parameters of the model.").atLeast(0).atMost(1e15).onlyFor(kCustom);
extern const Field kZeroStage = Field::integer("zero_stage", "ZeRO stage (0 to 3).").atLeast(0).atMost(3);
extern const Field kTensorParallel = Field::integer("tensor_parallel", "Tensor-parallel degree.").atLeast(1).atMost(1024);
extern const Field kPipelineParallel = Field::integer("pipeline_parallel", "Pipeline-parallel degree.").atLeast(1).atMost(1024);
extern const Field kContextParallel = Field::integer("context_parallel", "Context-parallel degree (ring attention over sequence chunks).").atLeast(1).atMost(1024).onlyFor(kTransformer);
extern const Field kRecompute = Field::string("recompute", "Activation recomputation: none, selective or full (chosen by the plan search when absent).").oneOf(kRecomputes).onlyFor(kTransformer);
extern const Field kRecomputeLayers = Field::integer("recompute_layers", "With recompute full: how many of the layers rerun their forward pass (Megatron-Core recompute_num_layers, counted over the whole model); the others keep their activations. Default: all.").atLeast(0).atMost(1e5).onlyFor(kTransformer);
extern const Field kSoftware = Field::string("software", "Software stack: tuned (vendor containers, Megatron-class frameworks) or typical (a stock framework); default: tuned for transformer pre-training, typical otherwise.").oneOf(kSoftwares);

namespace {
const Field* const kWorkloadFields[] = {&kKind, &kWorkloadName, &kMode, &kPrecision, &kOptimizer, &kTransformerParams, &kRequests,
                                        &kTokensPerRequest, &kTokens, &kSeqLen, &kComputedSeqLen, &kAttention, &kLayers, &kHidden, &kHeads, &kKvHeads,
                                        &kExperts, &kExpertsPerToken, &kSharedExperts, &kExpertFfnHidden, &kDenseLayers,
                                        &kActiveParams, &kCapacityFactor, &kMicroBatch,
                                        &kGlobalBatchTokens, &kCheckpointing, &kLoraParams, &kLoraRank, &kLoraTargets, &kLoraQkv, &kFfnHidden, &kGflops, &kSamples, &kEpochs,
                                        &kCnnParams, &kBatchPerGpu, &kActivationGb, &kTotalFlops, &kCustomParams,
                                        &kZeroStage, &kTensorParallel, &kPipelineParallel, &kContextParallel, &kExpertParallel, &kRecompute, &kRecomputeLayers,
                                        &kSoftware};

const Field kPresetId = Field::string("id", "Preset id that requests name in 'preset'.").req();
const Field kPresetName = Field::object("name", nullptr, "Display names by language, e.g. {\"en\": ..., \"zh\": ...}.").ignored();
const Field kPresetWorkload = Field::object("workload", &kWorkloadRecord, "").req();
const Field kPresetSources = Field::object("sources", nullptr, "Where each workload value comes from, by key path.").ignored();
const Field kReferenceRuns = Field::array("reference_runs", nullptr, "Published runs of this workload.").ignored();
const Field kReferenceEstimates = Field::array("reference_estimates", nullptr, "Published estimates to compare with.").ignored();
const Field kPresets = Field::array("presets", &kPresetRecord, "The presets.").req();
const Field* const kPresetFields[] = {&kPresetId, &kPresetName, &kPresetWorkload, &kPresetSources, &kReferenceRuns,
                                      &kReferenceEstimates, &kNotes};
const Field* const kPresetDocumentFields[] = {&kSchemaRef, &kSchemaVersion, &kFileDescription, &kPresets};

// ---- Measurements (scripts/accuracy.mjs requestFor) -------------------------------------------------------------
const char* const kMeasuredWorkloads[] = {"bert-large-pretrain", "bert-large-squad", "resnet50", "gpt", "moe", nullptr};
const char* const kInterconnects[] = {"nvswitch", "nvlink", "pcie", "infinity-fabric", "none", nullptr};
const char* const kMetrics[] = {"samples_per_s", "tokens_per_s", "tflops_per_gpu", nullptr};
const char* const kFlopsConventions[] = {"model", "hardware_incl_recompute", "unspecified", nullptr};
const char* const kSplits[] = {"calibration", "holdout", nullptr};
const Field kMId = Field::string("id", "Unique row id.").req();
const Field kMWorkload = Field::string("workload", "Which workload the row measures (resnet50 and bert-large-squad use their presets).")
                             .req().oneOf(kMeasuredWorkloads);
const Field kMParams = Field::object("workload_params", nullptr, "gpt, moe and bert-large-pretrain: params, seq_len, computed_seq_len, attention, hidden, layers, heads, kv_heads, micro_batch, global_batch, mode, parallelism, activation_checkpointing, recompute, recompute_layers, ffn_hidden, lora_rank, lora_targets, lora_qkv, lora_trainable_params; moe adds experts, experts_per_token, shared_experts, expert_ffn_hidden, dense_layers, active_params.");
const Field kMGpu = Field::string("gpu", "GPU id from data/gpus.json.").req().formatted("gpu_id", nullptr, nullptr);
const Field kMGpuCount = Field::integer("gpu_count", "GPUs over all nodes.").req().atLeast(1);
const Field kMNodes = Field::integer("nodes", "Nodes the GPUs are spread over.").atLeast(1).byDefault(1.0);
const Field kMInterconnect = Field::string("interconnect", "GPU-to-GPU link inside a node; null = the GPU's default.").oneOf(kInterconnects);
const Field kMNetwork = Field::string("network", "Network between nodes (infiniband, roce-1600g, ...); null for one node.");
const Field kMPrecision = Field::string("precision", "Number format of the run.").req().oneOf(kTrainingPrecisions);
const Field kMMetric = Field::string("metric", "What value measures.").req().oneOf(kMetrics);
const Field kMValue = Field::number("value", "The published figure, in the metric's unit.").req().above(0);
const Field kMBatch = Field::number("batch_per_gpu", "Samples per GPU per step, when published.").above(0);
const Field kMConvention = Field::string("flops_convention", "How tflops_per_gpu counts FLOPs (see conventions).").oneOf(kFlopsConventions);
const Field kMSplit = Field::string("split", "calibration (fits constants) or holdout (judges them).").req().oneOf(kSplits);
const Field kMSoftware = Field::string("software", "Software stack of the source: tuned (vendor containers, Megatron-class frameworks, MLPerf-class) or typical (a stock framework).").req().oneOf(kSoftwares);
const Field kMGpuInferred = Field::boolean("gpu_inferred", "True when the source does not name the exact GPU SKU.").byDefault(false);
const Field kMFramework = Field::string("framework", "Software the run used.").ignored();
const Field kMSource = Field::string("source", "Where the figure was published.").ignored();
const Field kMSystem = Field::string("system", "The system measured.").ignored();
const Field kMConfidence = Field::string("confidence", "How sure the normalisation is.").ignored();
const Field kMAux = Field::object("published_aux", nullptr, "Other published figures of the run.").ignored();
const Field* const kMeasurementFields[] = {&kMId, &kMWorkload, &kMParams, &kMGpu, &kMGpuCount, &kMNodes, &kMInterconnect,
                                           &kMNetwork, &kMPrecision, &kMMetric, &kMValue, &kMBatch, &kMConvention,
                                           &kMSplit, &kMSoftware, &kMGpuInferred, &kMFramework, &kMSource, &kMSystem, &kNotes,
                                           &kMConfidence, &kMAux};
const Field kMeasurements = Field::array("measurements", &kMeasurementRecord, "The measurement rows.").req();
const Field kConventions = Field::object("conventions", nullptr, "What the rows' metric, flops_convention, precision and split mean.").ignored();
const Field kSplitPromotions = Field::strings("split_promotions", "Rows moved to calibration by the split rule.").ignored();
const Field kTimeToTrainNote = Field::string("time_to_train_note", "About the time-to-train rows.").ignored();
const Field kTimeToTrain = Field::array("time_to_train", nullptr, "Published times to train, for reference.").ignored();
const Field* const kMeasurementDocumentFields[] = {&kSchemaRef, &kSchemaVersion, &kFileDescription, &kConventions,
                                                   &kSplitPromotions, &kMeasurements, &kTimeToTrainNote, &kTimeToTrain};
}  // namespace

extern const Record kMeasurementDocumentRecord = makeRecord(
    "measurements", "Published training-throughput measurements, normalised so the engine can predict each row.",
    kMeasurementDocumentFields);
extern const Record kMeasurementRecord = makeRecord("measurement", "One published measurement.", kMeasurementFields);

extern const Record kGpuDocumentRecord = makeRecord("gpus", "The GPU specification database: per-GPU vendor peaks with their sources.", kGpuDocumentFields);
extern const Record kGpuRecord = makeRecord("gpu", "One GPU model (one memory size and form factor).", kGpuFields);
extern const Record kGpuTflopsRecord = makeRecord(
    "gpu_tflops", "Dense peaks per GPU by number format (int8 in TOPS); at least fp16 or fp32 is given.", kGpuTflopsFields);
extern const Record kMigProfileRecord = makeRecord("mig_profile", "One MIG GPU-instance profile.", kMigFields);
extern const Record kWorkloadRecord =
    makeRecord("workload", "A training or inference job; 'kind' chooses which members apply.", kWorkloadFields, "kind", true);
extern const Record kPresetRecord = makeRecord("preset", "A named workload with the sources of its figures.", kPresetFields);
extern const Record kPresetDocumentRecord = makeRecord("presets", "Workload presets for the gpuvalue engine.", kPresetDocumentFields);

}  // namespace data_fields
}  // namespace gpuvalue
