// The engine's view of a ranking (rankView) as the page keeps it. The worker hands the page the engine's answer
// as text, unparsed (engine/core.js, the view operation): the page parses it once (app/page.js, prepareView), instead
// of the worker parsing it, renaming its members and writing it as text again for the page to parse a second time.
import { docIds } from './bundle.js';

// A row's key on the page (selection, comparison, URL): one offer under one billing model.
export const rowKey = (r) => `${r.id}|${r.pricing}`;

// A row as the page names it: _rank, _key, _user (not a bundled offer), and for the same offer in several regions
// _group on the leading row, _member_of on the others. bundled: the set of the bundled offers' ids.
export function pageRow(x, bundled) {
  x._rank = x.rank;
  x._key = rowKey(x);
  x._user = !bundled.has(x.id);
  if (x.group) x._group = x.group;
  if (x.member_of) x._member_of = x.member_of;
  delete x.rank; delete x.group; delete x.member_of;
  return x;
}

// The scatter's points as the charts take them, from the engine's
// [time_hours, cost_usd, key, pareto, instance, provider, region, pricing] arrays.
export function chartScatter(scatter) {
  return scatter && {
    total: scatter.total, thinned: scatter.thinned,
    points: scatter.points.map(([x, y, key, pareto, instance, provider, region, pricing]) => ({
      x, y, key, pareto, r: { instance, provider, region, pricing, time_hours: x, cost_usd: y, pareto } })),
  };
}

// Whether an answer's text is a successful one, without parsing it: the engine writes "ok" first
// (core/src/api/rank_view.cpp), and a refusal as {"ok":false,...}.
export const isOkText = (text) => text.startsWith('{"ok":true');

// The parsed rankView answer: {meta, total, rows, extra, top, picks, scatter} with page rows and chart points.
export function viewOfText(text, bundled) {
  const { ok, total, rows, extra, top, picks, scatter, ...meta } = JSON.parse(text);
  for (const r of rows) pageRow(r, bundled);
  for (const r of extra) pageRow(r, bundled);
  return { meta, total, rows, extra, top, picks, scatter: chartScatter(scatter) };
}

// The ids of the bundled catalogs' offers ({catalogs: [{doc}]}, packed as shipped or not).
export function bundledIdsOf(data) {
  return new Set(data.catalogs.flatMap((c) => docIds(c.doc)));
}
