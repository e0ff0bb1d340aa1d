#include "model/serving_fields.hpp"

namespace gpuvalue {
namespace serving_fields {

namespace {
const char* const kWeightChoices[] = {"bf16", "fp16", "fp8", "int8", "int4", "fp4", nullptr};
const char* const kKvChoices[] = {"fp16", "bf16", "fp8", nullptr};
const char* const kSoftwareChoices[] = {"tuned", "typical", nullptr};
const char* const kInterconnectChoices[] = {"nvlink", "pcie", nullptr};
const char* const kMetricChoices[] = {"output_tokens_per_s", nullptr};
// Billing models a 24/7 service can run under: by the hour, on reclaimable spot capacity, or committed for a term
// (reserved) or a month (tiered and serverless prices are for jobs and bursts: the serverless tool compares those).
const char* const kPricingChoices[] = {"on_demand", "reserved", "spot", "monthly", nullptr};
}  // namespace

// ---- The served model ------------------------------------------------------------------------------------------
extern const Field kParams = Field::number("params", "All parameters (every expert included).").req().above(0).atMost(1e14);
extern const Field kActiveParams =
    Field::number("active_params", "Parameters one token passes through (MoE: shared layers + routed experts); absent = params.").above(0).atMost(1e14);
extern const Field kLayers = Field::integer("layers", "Transformer layers.").req().atLeast(1).atMost(10000);
extern const Field kHidden = Field::integer("hidden", "Hidden (model) size.").req().atLeast(1).atMost(1000000);
extern const Field kHeads = Field::integer("heads", "Attention (query) heads.").req().atLeast(1).atMost(100000);
extern const Field kKvHeads = Field::integer("kv_heads", "Key/value heads (GQA/MQA); absent = heads.").atLeast(1).atMost(100000);
extern const Field kHeadDim = Field::integer("head_dim", "Size of one attention head; absent = hidden / heads.").atLeast(1).atMost(100000);
extern const Field kVocab = Field::integer("vocab", "Vocabulary size.").atLeast(1).atMost(100000000);
extern const Field kExperts = Field::integer("experts", "Routed experts per MoE layer; 0 = dense.").atLeast(0).atMost(100000).byDefault(0.0);
extern const Field kExpertsPerToken = Field::integer("experts_per_token", "Routed experts each token uses.").atLeast(0).atMost(100000).byDefault(0.0);
extern const Field kKvLatentDim =
    Field::integer("kv_latent_dim", "Multi-head latent attention: cached latent per token and layer (DeepSeek-V3: 576); 0 = ordinary KV heads.")
        .atLeast(0).atMost(1000000).byDefault(0.0);
namespace {
const Field* const kModelFields[] = {&kParams, &kActiveParams, &kLayers, &kHidden, &kHeads, &kKvHeads, &kHeadDim,
                                     &kVocab, &kExperts, &kExpertsPerToken, &kKvLatentDim};

// ---- Presets (data/serving-presets.json) -------------------------------------------------------------------------
const Field kSchemaRef = Field::string("$schema", "Relative path to this file's schema, for editors.").ignored();
const Field kSchemaVersion = Field::integer("schema_version", "Version of this file format; 1.").atLeast(1).atMost(1).ignored();
const Field kDescription = Field::string("description", "What the file holds.").ignored();
const Field kNotes = Field::string("notes", "Free text: caveats, conflicts between sources.").ignored();
const Field kPresetId = Field::string("id", "Preset id that serve requests name in 'preset'.").req();
const Field kPresetName = Field::object("name", nullptr, "Display names by language, e.g. {\"en\": ..., \"zh\": ...}.").ignored();
const Field kPresetModel = Field::object("model", &kModelRecord, "").req();
const Field kPresetWeights = Field::string("weights", "Weight format the model is usually served in.").oneOf(kWeightChoices).byDefault("bf16");
const Field kPresetKv = Field::string("kv", "KV-cache format the model is usually served with.").oneOf(kKvChoices).byDefault("fp16");
const Field kPresetSources = Field::object("sources", nullptr, "Where each model value comes from, by key.").ignored();
const Field kPresets = Field::array("presets", &kPresetRecord, "The presets.").req();
const Field* const kPresetFields[] = {&kPresetId, &kPresetName, &kPresetModel, &kPresetWeights, &kPresetKv, &kPresetSources, &kNotes};
const Field* const kPresetDocumentFields[] = {&kSchemaRef, &kSchemaVersion, &kDescription, &kPresets};

// ---- Measurements (data/serving-measurements.json) ---------------------------------------------------------------
const Field kMId = Field::string("id", "Unique row id.").req();
const Field kMSource = Field::string("source", "Where the figure was published (URL; a repository file at a commit).").req();
const Field kMDate = Field::string("date", "When the source published it (YYYY-MM or YYYY-MM-DD).").req();
const Field kMPreset = Field::string("preset", "Serving preset of the measured model.");
const Field kMModel = Field::object("model", &kModelRecord, "The measured model's shape when no preset matches.");
const Field kMGpu = Field::string("gpu", "GPU id from data/gpus.json.").req().formatted("gpu_id", nullptr, nullptr);
const Field kMCount = Field::integer("gpu_count", "GPUs of one replica (tensor parallel).").req().atLeast(1).atMost(1024);
const Field kMWeights = Field::string("weights", "Weight format of the run.").req().oneOf(kWeightChoices);
const Field kMKv = Field::string("kv", "KV-cache format of the run.").oneOf(kKvChoices).byDefault("fp16");
const Field kMSoftware = Field::string("software", "tuned (TensorRT-LLM, SGLang, MLPerf-class) or typical (stock vLLM-class).").req().oneOf(kSoftwareChoices);
const Field kMInput = Field::number("input_tokens", "Input tokens per request (fixed or mean).").req().above(0);
const Field kMOutput = Field::number("output_tokens", "Output tokens per request (fixed or mean).").req().above(0);
const Field kMMetric = Field::string("metric", "What value measures: output tokens/s of the whole replica.").req().oneOf(kMetricChoices);
const Field kMValue = Field::number("value", "The published figure, normalised to the metric.").req().above(0);
const Field kMMeasured = Field::string("measured", "What the source states it measured (output-only or input+output, per GPU or total, percentile), word for word where it can be.").req();
const Field kMScenario = Field::string("scenario", "Maximum throughput (no latency limit) or the latency limits of the run.").req();
const Field kMFramework = Field::string("framework", "Software and version the run used.").ignored();
const Field* const kMeasurementFields[] = {&kMId, &kMSource, &kMDate, &kMPreset, &kMModel, &kMGpu, &kMCount, &kMWeights,
                                           &kMKv, &kMSoftware, &kMInput, &kMOutput, &kMMetric, &kMValue, &kMMeasured,
                                           &kMScenario, &kMFramework, &kNotes};
const Field kMeasurements = Field::array("measurements", &kMeasurementRecord, "The measurement rows.").req();
const Field* const kMeasurementDocumentFields[] = {&kSchemaRef, &kSchemaVersion, &kDescription, &kMeasurements};
}  // namespace

// ---- The serve request ---------------------------------------------------------------------------------------------
extern const Field kRequestsPerS = Field::number("requests_per_s", "Requests per second of the whole service.").atLeast(0).atMost(1e9);
extern const Field kTokensPerDay =
    Field::number("tokens_per_day", "Input + output tokens per day, instead of requests_per_s.").atLeast(0).atMost(1e18);
extern const Field kInputTokens = Field::number("input_tokens", "Mean input (prompt) tokens per request.").above(0).atMost(10000000).byDefault(1000.0);
extern const Field kOutputTokens = Field::number("output_tokens", "Mean output (generated) tokens per request.").atLeast(1).atMost(10000000).byDefault(300.0);
extern const Field kTtftMs = Field::number("ttft_ms", "Time to first token target in ms; 0 = none.").atLeast(0).atMost(1e7).byDefault(0.0);
extern const Field kTpotMs = Field::number("tpot_ms", "Time per output token target in ms; 0 = none (maximum throughput).").atLeast(0).atMost(1e7).byDefault(0.0);
extern const Field kPercentile = Field::number("percentile", "Percentile of requests the TTFT target holds for.").above(0).below(100).byDefault(50.0);
namespace {
const Field* const kTrafficFields[] = {&kRequestsPerS, &kTokensPerDay, &kInputTokens, &kOutputTokens};
const Field* const kTargetFields[] = {&kTtftMs, &kTpotMs, &kPercentile};

const Field kHbmEff = Field::number("hbm_eff", "Share of HBM bandwidth decode reaches (tuned stack).").atLeast(0.05).atMost(1);
const Field kComputeEff = Field::number("compute_eff", "Share of dense tensor peak prefill reaches (tuned stack).").atLeast(0.05).atMost(1);
const Field kTypicalFactor = Field::number("typical_factor", "A stock stack's efficiency relative to a tuned one.").atLeast(0.05).atMost(1);
const Field kLowPrecisionEff = Field::number("low_precision_eff", "Compute efficiency of fp8/int8/fp4 math relative to 16-bit.").atLeast(0.05).atMost(1);
const Field kGemmOverlap = Field::number("gemm_overlap", "Share of the shorter of weight reading and GEMM math hidden behind the longer.").atLeast(0).atMost(1);
const Field kBlackwellEff = Field::number("blackwell_eff", "A Blackwell GPU's share of the math and bandwidth the other efficiencies give.").atLeast(0.05).atMost(1.5);
const Field kCdna3Eff = Field::number("cdna3_eff", "An AMD CDNA 3 GPU's (MI300X) share of the math and bandwidth the other efficiencies give.").atLeast(0.05).atMost(1.5);
const Field kKvEff = Field::number("kv_eff", "Share of HBM bandwidth decode attention reaches reading the KV cache (tuned stack).").atLeast(0.05).atMost(1);
const Field kKvFraction = Field::number("kv_fraction", "Share of the memory left after weights and overhead given to the KV cache.").atLeast(0.1).atMost(1);
const Field kOverhead = Field::number("overhead_gb", "Runtime memory per GPU besides weights and KV cache, GB.").atLeast(0).atMost(100);
const Field kNvlinkEff = Field::number("nvlink_eff", "Achieved share of NVLink bandwidth for all-reduce.").atLeast(0.01).atMost(1);
const Field kPcieEff = Field::number("pcie_eff", "Achieved share of PCIe bandwidth for all-reduce.").atLeast(0.01).atMost(1);
const Field kLatNvlink = Field::number("allreduce_latency_nvlink_us", "Fixed cost of one all-reduce over NVLink, µs.").atLeast(0).atMost(10000);
const Field kLatPcie = Field::number("allreduce_latency_pcie_us", "Fixed cost of one all-reduce over PCIe, µs.").atLeast(0).atMost(10000);
const Field kPrefillChunk = Field::number("prefill_chunk_tokens", "Tokens one batching step carries at most (decode first, then prefill chunks).").atLeast(1).atMost(1e6);
const Field kBandLow = Field::number("band_low", "Low edge of the throughput band (published / predicted).").atLeast(0.1).atMost(1);
const Field kBandHigh = Field::number("band_high", "High edge of the throughput band (published / predicted).").atLeast(1).atMost(10);
const Field* const kConstantsFields[] = {&kHbmEff, &kComputeEff, &kLowPrecisionEff, &kGemmOverlap, &kKvEff, &kBlackwellEff, &kCdna3Eff, &kTypicalFactor, &kKvFraction, &kOverhead, &kNvlinkEff,
                                         &kPcieEff, &kLatNvlink, &kLatPcie, &kPrefillChunk, &kBandLow, &kBandHigh};
}  // namespace

extern const ConstantField kConstantFields[] = {
    {&kHbmEff, &ServingConstants::hbm_eff},
    {&kComputeEff, &ServingConstants::compute_eff},
    {&kTypicalFactor, &ServingConstants::typical_factor},
    {&kLowPrecisionEff, &ServingConstants::low_precision_eff},
    {&kGemmOverlap, &ServingConstants::gemm_overlap},
    {&kKvEff, &ServingConstants::kv_eff},
    {&kBlackwellEff, &ServingConstants::blackwell_eff},
    {&kCdna3Eff, &ServingConstants::cdna3_eff},
    {&kKvFraction, &ServingConstants::kv_fraction},
    {&kOverhead, &ServingConstants::overhead_gb},
    {&kNvlinkEff, &ServingConstants::nvlink_eff},
    {&kPcieEff, &ServingConstants::pcie_eff},
    {&kLatNvlink, &ServingConstants::allreduce_latency_nvlink_us},
    {&kLatPcie, &ServingConstants::allreduce_latency_pcie_us},
    {&kPrefillChunk, &ServingConstants::prefill_chunk_tokens},
    {&kBandLow, &ServingConstants::band_low},
    {&kBandHigh, &ServingConstants::band_high},
};
extern const size_t kConstantFieldCount = sizeof(kConstantFields) / sizeof(kConstantFields[0]);

extern const Field kPreset = Field::string("preset", "Serving preset id (data/serving-presets.json); 'model' members override it.");
extern const Field kModel = Field::object("model", &kModelRecord, "The served model's shape (instead of, or over, a preset).");
extern const Field kGpu = Field::string("gpu", "GPU id or alias, when no offer is named.").formatted("gpu_id", nullptr, nullptr);
extern const Field kCount = Field::integer("count", "GPUs of one replica (tensor parallel); absent = the offer's GPUs, else 1.").atLeast(1).atMost(1024);
extern const Field kOffer = Field::string("offer", "Catalog offer id or instance type: its GPU, GPU count, interconnect and price.");
extern const Field kInterconnect = Field::string("interconnect", "GPU-to-GPU link of a replica; absent = the offer's, else NVLink when the GPU has it.").oneOf(kInterconnectChoices);
extern const Field kWeights = Field::string("weights", "Weight format; absent = the preset's, else bf16.").oneOf(kWeightChoices);
extern const Field kKv = Field::string("kv", "KV-cache format; absent = the preset's, else fp16.").oneOf(kKvChoices);
extern const Field kSoftware = Field::string("software", "tuned (TensorRT-LLM/SGLang class) or typical (stock vLLM class).").oneOf(kSoftwareChoices).byDefault("tuned");
extern const Field kPricing =
    Field::string("pricing", "Billing model the offer is priced under; absent = on_demand. An offer without that price is an error.")
        .oneOf(kPricingChoices);
extern const Field kTraffic = Field::object("traffic", &kTrafficRecord, "");
extern const Field kTargets = Field::object("targets", &kTargetsRecord, "");
extern const Field kConstants = Field::object("constants", &kConstantsRecord, "");
namespace {
const Field* const kRequestFields[] = {&kPreset, &kModel, &kGpu, &kCount, &kOffer, &kInterconnect, &kWeights, &kKv,
                                       &kSoftware, &kPricing, &kTraffic, &kTargets, &kConstants};
}  // namespace

extern const Record kModelRecord = makeRecord("serving_model", "A decoder-only transformer as served.", kModelFields);
extern const Record kPresetRecord = makeRecord("serving_preset", "A served model with the sources of its figures.", kPresetFields);
extern const Record kPresetDocumentRecord = makeRecord("serving_presets", "Serving presets for the gpuvalue engine.", kPresetDocumentFields);
extern const Record kMeasurementRecord = makeRecord("serving_measurement", "One published serving measurement.", kMeasurementFields);
extern const Record kMeasurementDocumentRecord =
    makeRecord("serving_measurements", "Published LLM serving measurements with their settings.", kMeasurementDocumentFields);
extern const Record kTrafficRecord = makeRecord("serving_traffic", "The traffic to serve.", kTrafficFields);
extern const Record kTargetsRecord = makeRecord("serving_targets", "Latency targets.", kTargetFields);
extern const Record kConstantsRecord = makeRecord("serving_constants", "Serving model constants to override.", kConstantsFields);
extern const Record kRequestRecord = makeRecord("serve_request", "A serve request.", kRequestFields);

// serveOffers: the serve request's question without its hardware, and the offers to ask it of.
extern const Field kItemOffer = Field::string("offer", "Catalog offer id.").req();
extern const Field kItemCount = Field::integer("count", "GPUs of one replica (tensor parallel); absent = the offer's GPUs.").atLeast(1).atMost(1024);
namespace {
const Field* const kOfferItemFields[] = {&kItemOffer, &kItemCount};
}  // namespace
extern const Record kOfferItemRecord = makeRecord("serve_offer_item", "An offer and its replica size.", kOfferItemFields);
extern const Field kOffers = Field::array("offers", &kOfferItemRecord, "The offers to ask the question of, each with its replica size.").req();
namespace {
const Field* const kOffersRequestFields[] = {&kPreset, &kModel, &kWeights, &kKv, &kSoftware, &kPricing, &kTraffic, &kTargets,
                                             &kConstants, &kOffers};
}  // namespace
extern const Record kOffersRequestRecord = makeRecord("serve_offers_request", "A serveOffers request.", kOffersRequestFields);

}  // namespace serving_fields
}  // namespace gpuvalue
