// The part of a render that follows the table's paint: charts, deferred details, the URL and the sensitivity
// chart, each its own short task; and the settling of a render's three parts (table, charts, details), after which
// the page is no longer busy.
import { timed } from '../views/profile.js';
import { nextTask } from '../views/tasks.js';

// Tracks the three parts of a render: when all have settled the page is no longer busy. A newer render (or
// markBusy) makes the older one's reports stale. paint: the page's paint bookkeeping (app.paint).
export function settler(paint, t0, timing) {
  const token = {};
  paint.settleToken = token;
  const settled = { table: false, charts: false, details: false };
  const done = (part) => {
    if (paint.settleToken !== token) return;
    settled[part] = true;
    if (settled.table && settled.charts && settled.details) {
      delete document.body.dataset.busy;
      timing.settledMs = performance.now() - t0;
    }
  };
  done.stale = () => paint.settleToken !== token;
  return done;
}

// A step after the paint runs in the task of the step before it while that task has run less than this long, and
// in a task of its own after it: short tasks (a long one would delay the next input) without a task per step. At
// 12 ms the scatter chart spent the slice and the bars waited for the next frame; at 24 ms the charts, details and
// URL share one task of ~25-30 ms on a slow host (none over 50 ms), and a slider change with 10,000 offers is drawn
// one frame sooner (docs/performance.md, "The steps after the table's frame in one task").
const SLICE_MS = 24;

// After the paint: charts, deferred details, and the URL (history.replaceState costs several ms), in short tasks:
// scatter, bars, details, the URL, then the sensitivity chart. The first step waits for the table's frame.
export function afterPaint(app, { view, selected, later, done }, timing) {
  cancelAnimationFrame(app.paint.chartFrame);
  app.paint.chartFrame = requestAnimationFrame(async () => {
    let sliceStart = null;
    // Whether to go on (not when a newer render made this one stale), after a new task when the slice is spent.
    const next = async () => {
      if (sliceStart === null || performance.now() - sliceStart > SLICE_MS) {
        await nextTask();
        sliceStart = performance.now();
      }
      return !done.stale();
    };
    if (!(await next())) return;
    let tc = performance.now();
    const drawBars = timed('scatter chart', () => app.charts.update(view.rows, app.ctx(), view.scatter, { split: true }));
    timing.chartsMs = performance.now() - tc;
    if (!(await next())) return;
    tc = performance.now();
    timed('bar chart', drawBars);
    timing.chartsMs += performance.now() - tc;
    if (!(await next())) return;
    if (later.details) timed('details', () => app.showDetails(selected, app.ctx(), () => done('details')));
    timed('url', () => app.writeHash());
    if (!(await next())) return;
    const ctx = { ...app.ctx(), selected };
    if (app.sensitivity) timed('sensitivity', () => app.sensitivity.update(ctx));
    if (app.accuracy) app.accuracy.update(ctx);
    done('charts');
  });
}
