// What rank and rankView share (api/rank.cpp): the ranking request read once, the ranking made with the engine's
// kept evaluations, the answer's summary members and the writer of full results.
#pragma once
#include <functional>
#include <string>
#include <unordered_map>

#include "api/state.hpp"
#include "io/json_writer.hpp"
#include "model/ranking.hpp"

namespace gpuvalue {

struct RankRequest {
  json req;
  Workload w;
  RankOptions opt;
  bool shared_evaluations = false;
};

// Reads a ranking request; on a problem returns false with the error answer in `error`.
bool readRankRequest(EngineState& s, const std::string& text, RankRequest& r, std::string& error);
// The ranking, reusing the hardware evaluations the engine kept for this workload and these options; with
// `keep_evaluations` (rankView) the ones it makes are kept for the next ranking.
Ranking rankRequest(EngineState& s, const RankRequest& r, bool keep_evaluations);
// The members before the results: workload, counts, horizon, fit hints, filters.
void writeRankMeta(JsonWriter& j, const Ranking& ranking, const RankRequest& r);

// Writes full results, each evaluation's throughput, memory and plan made once; with `shared`, results name their
// evaluation by index and writeEvaluations writes them.
class RankResultWriter {
 public:
  struct EvaluationJson {
    std::string throughput, memory, plan;
  };
  using EvaluationText = std::unordered_map<const Evaluation*, EvaluationJson>;

  RankResultWriter(const Ranking& ranking, const RankRequest& r, bool shared);
  // One result; `more` writes members of its own before the result's object closes.
  void write(JsonWriter& j, const RankResult& r, const std::function<void(JsonWriter&)>& more = nullptr);
  void writeEvaluations(JsonWriter& j) const;

 private:
  const Ranking& ranking_;
  const RankRequest& request_;
  bool shared_;
  EvaluationText text_;
  std::unordered_map<const Evaluation*, size_t> index_;
};

}  // namespace gpuvalue
