// When no offer of a ranking fits the workload in memory: why, and what would make it fit (letting the plan
// search choose the micro-batch, recomputation, ZeRO stage or parallel layout the workload fixes, more nodes).
#pragma once
#include "model/ranking.hpp"

namespace gpuvalue {

// Largest node count the hints probe past the ranking's max_nodes (the request field's own upper bound).
constexpr int kFitHintMaxNodes = 4096;

// Messages for a ranking in which nothing fits (empty when something fits or nothing was evaluated), probed on
// the evaluated hardware that can hold the most memory: rank.fit_hint_* with the values that fit and where.
Messages fitHints(const Workload& w, const Ranking& ranking, const RankOptions& opt);

}  // namespace gpuvalue
