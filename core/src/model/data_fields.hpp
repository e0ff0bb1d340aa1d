// The field tables of the other data files: the GPU database (data/gpus.json, with MIG profiles), the workload
// presets (data/presets.json, whose "workload" is the request's workload record) and the throughput measurements
// (data/measurements.json, read by scripts/accuracy.mjs). The schemas are written from them, and the readers
// (GpuDatabase::load, parseWorkload) read every member through the fields below, so a member's type, bounds,
// required flag and absent value are stated once; tests/cpp/test_fields.cpp probes each reader against its table.
#pragma once
#include "io/fields.hpp"

namespace gpuvalue {
namespace data_fields {

extern const Record kGpuDocumentRecord, kGpuRecord, kGpuTflopsRecord, kMigProfileRecord;
extern const Record kPresetDocumentRecord, kPresetRecord, kWorkloadRecord;
extern const Record kMeasurementDocumentRecord, kMeasurementRecord;

// The members GpuDatabase::load reads, each with its rules (kGpuTflopsRecord's fields are the peaks in Precision
// order).
extern const Field kGpus, kGpuId, kGpuName, kVendor, kArchitecture, kFormFactor, kReleaseYear, kAliases, kMemoryGb,
    kMemoryType, kBandwidth, kTflops, kNvlink, kPcieGen, kTdp, kMigProfiles, kSources;
extern const Field kMigName, kMigMemory, kMigSlices, kMigMaxCount;
// The members parseWorkload reads. "params" has one field per kind (its bounds and default differ); context_parallel
// and expert_parallel are documented for transformers but read for every kind.
extern const Field kKind, kWorkloadName, kMode, kPrecision, kOptimizer, kSoftware, kZeroStage, kTensorParallel,
    kPipelineParallel, kContextParallel, kExpertParallel;
extern const Field kTransformerParams, kRequests, kTokensPerRequest, kTokens, kSeqLen, kComputedSeqLen, kAttention,
    kLayers, kHidden, kHeads, kKvHeads, kMicroBatch, kGlobalBatchTokens, kCheckpointing, kLoraParams, kLoraRank, kLoraTargets, kLoraQkv, kFfnHidden, kRecompute, kRecomputeLayers;
extern const Field kExperts, kExpertsPerToken, kSharedExperts, kExpertFfnHidden, kDenseLayers, kActiveParams,
    kCapacityFactor;
extern const Field kGflops, kSamples, kEpochs, kCnnParams, kBatchPerGpu, kActivationGb, kTotalFlops, kCustomParams;

}  // namespace data_fields
}  // namespace gpuvalue
