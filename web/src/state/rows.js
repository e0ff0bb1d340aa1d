// Ranked rows as the page orders them. The order, the region groups, the picks and the scatter points
// are the engine's (rankView, core/src/model/ranking_view.cpp); the page only chooses the direction
// of a first click on a column.

// The direction a first click on a column sorts in: cheapest, fastest, smallest first; the best score first.
export const SORT_FIRST = {
  rank: 'asc', total_gpus: 'asc', time_hours: 'asc', cost_usd: 'asc', usd_per_hour: 'asc', usd_per_tflops_day: 'asc', memory: 'asc',
  score: 'desc',
};
