// The axes of the page's charts (views/plot.js): linear, logarithmic and category scales with Chart.js's option
// names (type, position, min, max, beginAtZero, ticks {callback, maxTicksLimit, autoSkip, font, color, padding},
// afterBuildTicks, title, grid, border), their ticks and labels, and the mapping from a value to a pixel.

const NICE_STEPS = [1, 2, 2.5, 5, 10];
const MAX_TICKS = 11;       // at most this many ticks on a value axis unless ticks.maxTicksLimit says fewer
const PX_PER_TICK_X = 40;   // and one per 40 px of a horizontal axis (Chart.js's rule)
const PX_PER_TICK_Y = 24;
export const TICK_FONT_PX = 12;
export const TICK_PADDING_PX = 4;

// A round step that cuts `span` into at most `count` parts: 1, 2, 2.5 or 5 × 10^n.
export function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  return (NICE_STEPS.find((n) => n * mag >= raw * (1 - 1e-9)) || 10) * mag;
}

// Rounds away binary noise (0.1 + 0.2) from a tick value.
const clean = (v) => Number(v.toPrecision(12));

// A log axis's bounds: the data's, rounded down and up to one significant digit (0.53 → 0.5, 312 → 400).
function logBounds(lo, hi) {
  const down = (v) => { const e = 10 ** Math.floor(Math.log10(v)); return clean(Math.floor(v / e + 1e-9) * e); };
  const up = (v) => { const e = 10 ** Math.floor(Math.log10(v)); return clean(Math.ceil(v / e - 1e-9) * e); };
  let min = down(lo);
  let max = up(hi);
  if (!(max > min)) { min /= 10; max *= 10; }
  return { min, max };
}

// The default ticks of a log axis: the powers of ten within it when there are three or more (every n-th when more
// than `limit`), else 1, 2 and 5 × 10^n, else 1 to 9 × 10^n (an axis within one decade), thinned evenly to `limit`;
// at least its two bounds.
function logTicks(min, max, limit) {
  const within = (ms) => {
    const out = [];
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); ++e) {
      for (const m of ms) {
        const v = clean(m * 10 ** e);
        if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) out.push(v);
      }
    }
    return out;
  };
  const decades = within([1]);
  let out = decades.length >= 3 ? decades : within([1, 2, 5]);
  if (out.length < 2) out = within([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  if (out.length < 2) out = [min, max];
  const every = Math.ceil(out.length / Math.max(2, limit));
  return out.filter((_, i) => i % every === 0);
}

// A scale's bounds and ticks from the values bound to it (finite; > 0 on a log axis) or, for a category scale, its
// labels. `length` is the axis's length in px, which decides how many ticks fit.
export function buildScale(id, options, values, labels, horizontal, length) {
  const type = options.type || (labels ? 'category' : 'linear');
  const ticksOpt = options.ticks || {};
  const s = { id, type, options: { ...options, ticks: { padding: TICK_PADDING_PX, ...ticksOpt } }, horizontal, min: 0, max: 1, ticks: [] };
  const limit = Math.max(2, Math.min(ticksOpt.maxTicksLimit || MAX_TICKS, Math.ceil(length / (horizontal ? PX_PER_TICK_X : PX_PER_TICK_Y))));
  if (type === 'category') {
    s.min = -0.5;
    s.max = labels.length - 0.5;
    s.ticks = labels.map((_, i) => ({ value: i }));
  } else if (type === 'logarithmic') {
    const v = values.filter((x) => x > 0 && Number.isFinite(x));
    const b = v.length ? logBounds(Math.min(...v), Math.max(...v)) : { min: 1, max: 10 };
    s.min = options.min > 0 ? options.min : b.min;
    s.max = options.max > 0 ? options.max : b.max;
    if (!(s.max > s.min)) s.max = s.min * 10;
    s.ticks = logTicks(s.min, s.max, limit).map((value) => ({ value }));
  } else {
    const v = values.filter(Number.isFinite);
    let lo = v.length ? Math.min(...v) : 0;
    let hi = v.length ? Math.max(...v) : 1;
    if (options.beginAtZero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
    if (options.min !== undefined) lo = options.min;
    if (options.max !== undefined) hi = options.max;
    if (!(hi > lo)) { lo -= 1; hi += 1; }
    const step = niceStep(hi - lo, limit - 1);
    s.min = options.min !== undefined ? options.min : clean(Math.floor(lo / step + 1e-9) * step);
    s.max = options.max !== undefined ? options.max : clean(Math.ceil(hi / step - 1e-9) * step);
    for (let t = Math.ceil(s.min / step - 1e-9) * step; t <= s.max + step * 1e-9; t += step) s.ticks.push({ value: clean(t) });
  }
  if (typeof options.afterBuildTicks === 'function') options.afterBuildTicks(s);
  return s;
}

// A tick value as text when no callback formats it: digits grouped by commas (the page's own charts always pass
// their formatter; toLocaleString's first call costs ~40 ms of ICU set-up).
const plain = (v) => {
  const [int, frac] = String(clean(v)).split('.');
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
};

// The labels of a scale's ticks, from ticks.callback (called with the scale as `this`, as Chart.js does) or the
// value as plain digits; measured in `ctx`'s font. Sets tick.label and s.labelWidths.
export function labelTicks(s, ctx, labels, chart) {
  const cb = s.options.ticks.callback;
  s.chart = chart;
  s.ticks.forEach((t, i) => {
    const fallback = labels ? labels[t.value] : plain(t.value);
    const out = cb ? cb.call(s, t.value, i, s.ticks) : fallback;
    t.label = out === undefined || out === null ? '' : String(out);
  });
  s.labelWidths = s.ticks.map((t) => ctx.measureText(t.label).width);
}

// Which tick labels are drawn: all, or (ticks.autoSkip, the default) every n-th when they would overlap.
export function shownTicks(s, lengthPx) {
  const all = s.ticks.map((_, i) => i);
  if (s.options.ticks.autoSkip === false || s.ticks.length < 2) return all;
  const need = s.horizontal
    ? s.labelWidths.reduce((a, w) => a + w + 8, 0)
    : s.ticks.length * (TICK_FONT_PX + 4);
  const every = Math.ceil(need / Math.max(1, lengthPx));
  return every <= 1 ? all : all.filter((i) => i % every === 0);
}

// A value's pixel on a scale laid out from `start` to `end` (left to right; bottom to top for a value axis, top to
// bottom for categories, as Chart.js draws horizontal bars).
export function pixelOf(s, v) {
  const { start, end } = s;
  let f;
  if (s.type === 'logarithmic') f = (Math.log(v) - Math.log(s.min)) / (Math.log(s.max) - Math.log(s.min));
  else f = (v - s.min) / (s.max - s.min);
  if (!s.horizontal && s.type !== 'category') f = 1 - f;
  return start + f * (end - start);
}
