// The page's view of a ranking written out in JavaScript as an independent reference for the engine's rankView
// (core/src/model/ranking_view.cpp): the tests compare the engine's rows, groups, picks and scatter points with
// what these functions make of the engine's full ranking. Not used by the page.
export const rowKey = (r) => `${r.id}|${r.pricing}`;

// Numeric sort keys: value getter and the direction a first click sorts in (cheapest/fastest first).
export const SORTS = {
  rank: { get: (r) => r._rank, first: 'asc' },
  total_gpus: { get: (r) => r.total_gpus, first: 'asc' },
  time_hours: { get: (r) => r.time_hours, first: 'asc' },
  cost_usd: { get: (r) => r.cost_usd, first: 'asc' },
  // A commitment's column shows its list rate (the term spread over a short job would read as an hourly price).
  usd_per_hour: { get: (r) => (r.pricing === 'reserved' || r.pricing === 'monthly' ? r.list_usd_per_hour : r.usd_per_hour) * r.nodes, first: 'asc' },
  usd_per_tflops_day: { get: (r) => r.usd_per_tflops_day, first: 'asc' },
  memory: { get: (r) => r.memory && r.memory.required_gb_per_gpu, first: 'asc' },
  score: { get: (r) => r.score, first: 'desc' },
};

// An on-demand job a free trial covers: $0, the cheapest there is (on-demand rates are at least $0.001/h).
const freeJob = (r) => r.pricing === 'on_demand' && r.fits && r.cost_usd === 0 && r.time_hours > 0;

// Offers that fit come first whatever the column (as in the engine's ranking); missing values
// (0, NaN: e.g. no cost) always sort last.
export function sortRows(rows, sort) {
  const spec = SORTS[sort.key] || SORTS.rank;
  const sign = sort.dir === 'desc' ? -1 : 1;
  const val = (r) => {
    const v = spec.get(r);
    // A $0 job (a free trial covering it) is a cost, the lowest; a null unit cost (no FP16 peak) is missing.
    return typeof v === 'number' && Number.isFinite(v) && (v > 0 || sort.key === 'score' || (sort.key === 'cost_usd' && freeJob(r))) ? v : null;
  };
  return rows.slice().sort((a, b) => {
    if (a.fits !== b.fits) return a.fits ? -1 : 1;
    const va = val(a), vb = val(b);
    if (va === null && vb === null) return a._rank - b._rank;
    if (va === null) return 1;
    if (vb === null) return -1;
    return va !== vb ? sign * (va - vb) : a._rank - b._rank;
  });
}

// The overview's picks over every row (not only the rows shown): best score, cheapest job, fastest, lowest
// unit cost, among the offers that fit, have a cost and finish within the horizon (all that fit when none does).
export function picks(results) {
  const fitting = results.filter((x) => x.fits && (x.cost_usd > 0 || freeJob(x)));
  const inTime = fitting.filter((x) => x.meets_horizon !== false);
  const fits = inTime.length ? inTime : fitting;
  // A missing value (null unit cost) never wins.
  const min = (get) => fits.reduce((best, x) => (get(x) === null ? best : best === null || get(x) < get(best) ? x : best), null);
  return {
    pickBest: results[0] && results[0].fits ? results[0] : null,
    pickCheapest: min((x) => x.cost_usd),
    pickFastest: fastest(fits),
    pickUnit: min((x) => (x.usd_per_tflops_day > 0 ? x.usd_per_tflops_day : null)),
  };
}

// The fastest pick: times within 5 % of the fastest are a tie (inside the model's error), won by the cheaper job.
function fastest(rows) {
  let best = null;
  for (const x of rows) if (best === null || x.time_hours < best.time_hours) best = x;
  if (!best) return null;
  const limit = best.time_hours * 1.05;
  let pick = best;
  for (const x of rows) {
    if (x.time_hours > limit) continue;
    if (x.cost_usd < pick.cost_usd || (x.cost_usd === pick.cost_usd && x.time_hours < pick.time_hours)) pick = x;
  }
  return pick;
}

// The scatter's points: every offer that fits with a cost and a time. Above `max` points the cloud is thinned
// to one point per cell of a grid in log-log space (the frontier is always kept), which looks the same at
// chart resolution and keeps Chart.js well inside a frame. Each point carries what its tooltip needs.
export function scatterPoints(rows, { max = Infinity, cols = 160, lines = 100 } = {}) {
  const all = rows.filter((r) => r.fits && r.cost_usd > 0 && r.time_hours > 0);
  const point = (r) => ({ x: r.time_hours, y: r.cost_usd, key: r._key, pareto: Boolean(r.pareto),
    r: { instance: r.instance, provider: r.provider, region: r.region, pricing: r.pricing, time_hours: r.time_hours, cost_usd: r.cost_usd, pareto: Boolean(r.pareto) } });
  if (all.length <= max) return { points: all.map(point), total: all.length, thinned: false };
  const lx = all.map((r) => Math.log10(r.time_hours)), ly = all.map((r) => Math.log10(r.cost_usd));
  const [x0, x1] = [Math.min(...lx), Math.max(...lx)];
  const [y0, y1] = [Math.min(...ly), Math.max(...ly)];
  // The finest grid whose occupied cells stay within `max` points (coarser grids until they do).
  let out = [];
  for (let scale = 1; scale >= 0.1; scale *= 0.7) {
    const c = Math.max(4, Math.round(cols * scale)), l = Math.max(3, Math.round(lines * scale));
    const cell = (i) => `${Math.floor(((lx[i] - x0) / ((x1 - x0) || 1)) * (c - 1))},${Math.floor(((ly[i] - y0) / ((y1 - y0) || 1)) * (l - 1))}`;
    const seen = new Set();
    out = [];
    all.forEach((r, i) => {
      if (r.pareto) { out.push(r); return; }
      const k = cell(i);
      if (seen.has(k)) return;
      seen.add(k);
      out.push(r);
    });
    if (out.length <= max) break;
  }
  return { points: out.map(point), total: all.length, thinned: true };
}

// The same offer in several regions (same provider, instance type, GPUs, nodes and billing model) is one group:
// its first row in table order leads, the others follow it, marked as members (the table shows them when the
// group is opened). Every row is kept, in groups of the order of their first row. Returns the rows in that
// order; a leading row carries _group {n, regions, cheapest_region, cheapest_cost_usd}, a member _member_of
// (the leading row's key).
export function collapseRegions(rows) {
  const groups = new Map();
  const order = [];
  for (const r of rows) {
    const k = `${r.provider}\u0000${r.instance}\u0000${r.gpu}\u0000${r.total_gpus}\u0000${r.nodes}\u0000${r.pricing}`;
    let g = groups.get(k);
    if (!g) { g = []; groups.set(k, g); order.push(g); }
    g.push(r);
  }
  const out = [];
  for (const g of order) {
    const regions = new Set(g.map((r) => r.region));
    if (g.length < 2 || regions.size < 2) { out.push(...g); continue; }
    const priced = g.filter((r) => r.cost_usd > 0);
    const cheapest = (priced.length ? priced : g).reduce((a, b) => (b.cost_usd < a.cost_usd || (b.cost_usd === a.cost_usd && b.usd_per_hour < a.usd_per_hour) ? b : a));
    const [head, ...members] = g;
    out.push({ ...head, _group: { n: g.length, regions: regions.size, cheapest_region: cheapest.region, cheapest_cost_usd: cheapest.cost_usd } });
    for (const m of members) out.push({ ...m, _member_of: head._key });
  }
  return out;
}

// The first `limit` rows of grouped rows (collapseRegions), never cutting a group: the group at the limit comes
// whole, so that opening it lists every region.
export function firstRows(rows, limit) {
  let end = Math.min(limit, rows.length);
  while (end < rows.length && rows[end]._member_of) end += 1;
  return end < rows.length ? rows.slice(0, end) : rows;
}
