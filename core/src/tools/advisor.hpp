// The advisor (article §4.1 model size, §4.2 training stage): which GPU class, how many GPUs and which billing
// for a transformer of a given size at a given stage. The article's size ladder is checked against the memory
// model; the recommendations are catalog offers, ranked as the rank method ranks them (horizon, commitments,
// stale and illustrative prices left out), the cheapest that meets the stage's constraint first.
#pragma once
#include <string>
#include <vector>

#include "model/ranking.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {

// Training stage (article §4.2); names "exploration", "tuning", "production".
enum class Stage { kExploration, kTuning, kProduction };
const char* stageName(Stage s);
bool parseStage(const std::string& s, Stage& out);
// The billing the article's §4.2 assigns to a stage: exploration -> spot; tuning and production -> reserved.
PricingModel stagePricing(Stage s);
// What a stage demands of an offer. Exploration: short, restartable experiments, so interruptions (spot) are
// acceptable. Tuning and production run on capacity that is not taken away mid-run (the article puts both on
// reserved capacity, §4.2): no spot. Production also wants a published SLA of at least 99.9 % where the catalog
// records one (the article's "dedicated cluster + SLA").
bool stageAllows(Stage s, PricingModel m);
constexpr double kProductionSlaPct = 99.9;

// The article's size ladder (§4.1): <100M parameters -> A10; 0.1-10B -> A100 40GB; >10B -> A100 80GB or H100.
struct ArticleRung {
  const char* label;   // "A10", "A100 40GB", "A100 80GB", "H100 80GB"
  const char* gpu_id;  // the GPU database id standing for the class
};
extern const ArticleRung kArticleLadder[4];
// Index into kArticleLadder of the article's class for `params` (2 means "A100 80GB or H100").
int articleRungFor(double params);

struct AdviceOptions {
  double params = 0;
  double tokens = 0;  // 0 = 20 tokens per parameter (Hoffmann et al. 2022, "Chinchilla", compute-optimal)
  Stage stage = Stage::kExploration;
  Mode mode = Mode::kPretrain;
  double seq_len = 2048;          // GPT-3's context (Brown et al. 2020, §2.1)
  double deadline_hours = 0;      // > 0: the horizon is the deadline
  double horizon_hours = kDefaultHorizonHours;  // offers are sized to finish within it (ranking.hpp)
  int max_gpus = 4096;
  bool include_examples = false;  // the seed article's illustrative offers
  bool include_stale = false;     // prices older than kStaleAfterDays on `today`
  SpotOptions spot;
  ModelConstants constants;
  Calibration calibration;        // the user's measurements of the workload, as the ranking applies them
  // The workload is the request's own (a preset or workload, as rank reads it): its recomputation setting is kept
  // (the plan search chooses when it leaves it open), where the advisor's own transformer tries none, then full.
  bool own_workload = false;
  std::string today;              // YYYY-MM-DD prices are judged stale against; empty = not judged
};

// One catalog option for the job: an offer, its billing and the node count the ranking chose for it.
struct AdviceChoice {
  bool present = false;
  OfferChoice offer;              // instances = nodes; usd_per_hour = headline rate of all of them
  int gpu_count = 0;              // nodes × the offer's GPUs: the GPUs the job runs on and pays for
  int nodes = 0;
  ClusterPlan plan;
  CostResult cost;
  bool meets_horizon = false;
  bool stale = false;
  double time_hours() const { return cost.wall_hours; }
};

struct RungEvaluation {
  int rung = 0;
  const GpuSpec* gpu = nullptr;
  // The memory model on the article's cluster (defaultCluster): the smallest GPU count (1, 2, 4, 8, then whole
  // 8-GPU nodes) at which some plan fits, without then with activation checkpointing.
  bool fits = false;
  int min_gpu_count = 0;
  bool activation_checkpointing = false;
  ClusterPlan min_plan;
  // Catalog options of this GPU allowed by the stage: the cheapest job within the horizon (the fastest when none
  // meets it), the fastest, the cheapest under the article's stage billing, and the cheapest on-demand job on
  // the same GPU count as `best`.
  AdviceChoice best, fastest, stage_choice, on_demand;
  Message pricing_note;           // why the article's stage billing is not the recommendation, or empty
};

struct Advice {
  Workload workload;
  int article_rung = 0;
  int model_rung = -1;              // the memory model's class (-1: nothing fits within max_gpus)
  bool agrees = false;
  std::vector<RungEvaluation> ladder;
  // Rungs of the recommendations (-1: none): the cheapest option meeting the stage and horizon over the whole
  // ladder, and the fastest.
  int recommended_rung = -1, fastest_rung = -1;
  double horizon_hours = 0;
};

// Evaluates every rung of the article's ladder (memory model and catalog options) for the transformer `w` and
// picks the recommendations. The API reads `w` from the workload document it also writes into the answer (the
// request's preset or workload, else params and tokens with derived shape, bf16 mixed precision, AdamW,
// micro-batch 1), so that rank, levers and estimate asked with that document evaluate the very same job. The memory model's class: the least capable rung that fits
// on one GPU, else the rung needing the fewest GPUs (ties: the less capable).
Advice advise(const AdviceOptions& opt, const Workload& w, const GpuDatabase& gpus, const Catalog& catalog);

}  // namespace gpuvalue
