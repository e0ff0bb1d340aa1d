// Cost versus time (log axes, Pareto frontier highlighted) and $/TFLOPS·day bars, drawn by the page's own charts
// (views/plot.js).
import { Chart } from './plot.js';
import { h, tx } from './dom.js';
import { providerName } from '../format/providers.js';

const BAR_LIMIT = 20;

export { Chart };

// The chart colours from the CSS variables. Reading them forces a style recalculation, so they are read once per
// theme (light/dark and the system preference), not on every update.
let paletteCache = null;
export function palette() {
  const key = `${document.documentElement.dataset.theme || ''}|${window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches}`;
  if (paletteCache && paletteCache.key === key) return paletteCache.value;
  paletteCache = { key, value: readPalette() };
  return paletteCache.value;
}

function readPalette() {
  const cs = getComputedStyle(document.documentElement);
  const v = (name) => cs.getPropertyValue(name).trim();
  return { fg: v('--fg'), muted: v('--muted'), line: v('--line'), grid: v('--grid'), point: v('--chart-point'),
    pareto: v('--chart-pareto'), sel: v('--chart-sel'), cmp: v('--chart-cmp'), bar: v('--chart-bar'), bg: v('--bg') };
}

// Log-axis ticks at round values: durations in minutes, hours, days, weeks, months and years; amounts at
// 1, 2 and 5 × 10^n. At most `max` ticks, thinned evenly in log space.
export const HOUR_TICKS = [1 / 60, 5 / 60, 15 / 60, 0.5, 1, 2, 3, 6, 12, 24, 48, 72, 168, 336, 24 * 30, 1440, 2160, 4320, 8760, 17520, 43800, 87600, 219000, 438000, 876000];
export const decades = (lo, hi) => {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)) - 1; e <= Math.ceil(Math.log10(hi)) + 1; ++e) for (const m of [1, 2, 5]) out.push(m * 10 ** e);
  return out;
};
export function niceTicks(axis, candidates, max) {
  const vals = candidates.filter((v) => v >= axis.min * 0.999 && v <= axis.max * 1.001);
  // Each kept tick at least 1/max of the axis's log span after the one before: round values are not evenly spaced
  // (30, 60 and 90 days are close on a log axis), and thinning by position left labels on top of each other.
  const gap = Math.log(axis.max / axis.min) / max;
  const kept = [];
  for (const v of vals) if (!kept.length || Math.log(v / kept[kept.length - 1]) >= gap * 0.999) kept.push(v);
  if (kept.length >= 2) axis.ticks = kept.map((value) => ({ value }));
}

// Axis titles, ticks and colours in the page's language, currency and theme.
function styleAxes(scatter, bar, tt, fmt, col) {
  const axisTitle = (text) => ({ display: true, text, color: col.fg });
  const ticks = { color: col.muted, maxRotation: 0, autoSkip: true };
  const narrow = scatter.width < 420;
  scatter.options.scales.x = { type: 'logarithmic', title: axisTitle(tt('axisTime')), grid: { color: col.grid }, border: { color: col.line },
    afterBuildTicks: (axis) => niceTicks(axis, HOUR_TICKS, narrow ? 4 : 7), ticks: { ...ticks, callback: (v) => fmt.duration(Number(v)) } };
  scatter.options.scales.y = { type: 'logarithmic', title: axisTitle(tt('axisCost', { cur: fmt.currency })), grid: { color: col.grid }, border: { color: col.line },
    afterBuildTicks: (axis) => niceTicks(axis, decades(axis.min, axis.max), 7), ticks: { ...ticks, callback: (v) => fmt.money(Number(v) / fmt.factor, { digits: Number(v) < 1 ? 2 : 0 }) } };
  scatter.options.plugins.legend.labels.color = col.fg;
  bar.options.scales.x = { type: 'linear', beginAtZero: true, title: axisTitle(tt('axisUnitCost', { cur: fmt.currency })), grid: { color: col.grid }, ticks: { ...ticks, callback: (v) => (Number(v) > 0 ? fmt.unitMoney(Number(v) / fmt.factor) : fmt.money(0, { digits: 0 })) } };
  bar.options.scales.y = { type: 'category', grid: { display: false }, ticks: { color: col.fg, autoSkip: false, font: { size: BAR_FONT_PX }, callback: barLabel } };
}

// Bar labels fit the chart: a name wider than LABEL_SHARE (42 %) of the chart's width is cut with an ellipsis (the
// tooltip, on hover and on keyboard focus of the bar, shows the whole name).
const BAR_FONT_PX = 11;
const LABEL_SHARE = 0.42;
// A `keep` ending of the text (a region count) stays whole when the rest is cut, if it leaves room for some of it;
// `keep` may list endings from the longest to the shortest, and the first that leaves room is kept.
export function fitText(ctx, text, maxPx, keep = '') {
  if (ctx.measureText(text).width <= maxPx) return text;
  const tail = [].concat(keep).find((k) => k && text.endsWith(k) && ctx.measureText(`MM…${k}`).width <= maxPx) || '';
  const head = text.slice(0, text.length - tail.length);
  let lo = 0;
  let hi = head.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${head.slice(0, mid)}…${tail}`).width <= maxPx) lo = mid; else hi = mid - 1;
  }
  return `${head.slice(0, lo)}…${tail}`;
}
// The endings of the bar labels kept whole when a name is cut, per bar: nodes and region count, else the region count.
const labelEndings = new WeakMap();
function barLabel(value, index) {
  const full = this.chart.data.labels[index];
  const ctx = this.chart.ctx;
  ctx.save();
  ctx.font = `${BAR_FONT_PX}px ${Chart.defaults.font.family}`;
  const text = fitText(ctx, String(full ?? ''), Math.max(60, this.chart.width * LABEL_SHARE - 12), (labelEndings.get(this.chart) || [])[index]);
  ctx.restore();
  return text;
}

// A bar's name, instance and billing model, and the ending kept visible when the name is cut: the nodes when the
// job needs several, as ×N instances (one instance type can be sized differently where a region lacks the network for several nodes:
// two bars, told apart) and in how many regions the offer is listed.
const regionsEnding = (tt, fmt) => (r) => (r._group ? ` · ${tt('regionsN', { n: fmt.int(r._group.regions) })}` : '');
const barEnding = (tt, fmt) => (r) => (r.nodes > 1 ? ` ×${fmt.int(r.nodes)}` : '') + regionsEnding(tt, fmt)(r);
const barName = (tt, fmt) => (r) => `${r.instance} (${tt(r.pricing)})${barEnding(tt, fmt)(r)}`;

// Unit costs that span more than 20× (a commitment's whole term over a short job beside hourly rates) go on a log
// scale, so that the hourly offers are not flattened to slivers; it starts at half the smallest bar, or the cheapest
// offer's bar would have no length at all. True when the scale is logarithmic.
function setBarScale(bar, units) {
  const log = units.length > 1 && Math.max(...units) > 20 * Math.min(...units);
  const least = Math.min(...bar.data.datasets[0].data.filter((v) => v > 0));
  Object.assign(bar.options.scales.x, { type: log ? 'logarithmic' : 'linear', beginAtZero: !log, min: log ? least / 2 : undefined });
  return log;
}

// The two charts, made at the first draw. `live` gives the bars drawn and the latest context, which the
// click and tooltip callbacks read.
function makeCharts(scatterCanvas, barCanvas, ctx, live) {
  const common = { responsive: true, maintainAspectRatio: false, animation: false };
  const scatter = new Chart(scatterCanvas, {
    type: 'scatter',
    data: { datasets: [] },
    options: {
      ...common,
      parsing: false,
      interaction: { mode: 'nearest', intersect: true },
      scales: { x: { type: 'logarithmic' }, y: { type: 'logarithmic' } },
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 10, usePointStyle: true } }, tooltip: {} },
      onClick: (evt, els) => {
        const el = els && els[0];
        if (!el) return;
        const p = scatter.data.datasets[el.datasetIndex].data[el.index];
        if (p && p.key) ctx.current().select(p.key);
      },
    },
  });
  const bar = new Chart(barCanvas, {
    type: 'bar',
    data: { labels: [], datasets: [] },
    options: {
      ...common,
      indexAxis: 'y',
      scales: { x: { type: 'linear', beginAtZero: true }, y: { type: 'category', ticks: { autoSkip: false } } },
      plugins: { legend: { display: false }, tooltip: {} },
      onClick: (evt, els) => {
        const el = els && els[0];
        if (el && live.bars[el.index]) ctx.current().select(live.bars[el.index]._key);
      },
    },
  });

  scatter.options.plugins.tooltip.callbacks = {
    label: (item) => {
      const p = item.raw;
      return p && p.r ? `${p.r.instance} · ${providerName(live.cur.t, p.r.provider)} · ${live.cur.t(p.r.pricing)}: ${live.cur.fmt.duration(p.r.time_hours)}, ${live.cur.fmt.money(p.r.cost_usd)}` : '';
    },
  };
  bar.options.plugins.tooltip.callbacks = {
    title: (items) => (items[0] ? String(bar.data.labels[items[0].dataIndex]) : ''),
    // An offer listed in several regions gets a second line: in how many, and the cheapest (short lines fit a phone).
    label: (item) => {
      const r = live.bars[item.dataIndex];
      if (!r) return '';
      const { t: tt, fmt } = live.cur;
      const line = `${providerName(tt, r.provider)} · ${r.region}: ${fmt.unitMoney(r.usd_per_tflops_day)}`;
      return r._group ? [line, tt('barRegionsWhere', { n: fmt.int(r._group.regions), cheapest: r._group.cheapest_region })] : line;
    },
  };
  return { scatter, bar };
}

export function createCharts(container, ctx) {
  const { t } = ctx;
  const scatterCanvas = h('canvas', { id: 'chart-scatter', role: 'img', 'aria-label': t('scatterAria') });
  const barCanvas = h('canvas', { id: 'chart-bars', role: 'img', tabindex: '0', 'aria-label': t('barsAria') });
  const scatterNote = h('p', { class: 'chart-note', id: 'scatter-note' });
  const barNote = h('p', { class: 'chart-note', id: 'bars-note' });
  container.replaceChildren(
    h('figure', { class: 'chart' }, tx('figcaption', t, 'scatterTitle'), h('div', { class: 'chart-box' }, scatterCanvas), scatterNote),
    h('figure', { class: 'chart' }, tx('figcaption', t, 'barsTitle'), h('div', { class: 'chart-box tall' }, barCanvas), barNote));

  let points = [];
  let bars = [];
  let lastRows = null;
  let lastStyle = '';
  let cur = ctx;  // the context of the latest update, read by the callbacks
  // The chart instances are made at the first draw, which comes after the table (a quarter of the page's
  // start-up time went into making them).
  let scatter = null;
  let bar = null;
  function ensure() {
    if (scatter) return;
    ({ scatter, bar } = makeCharts(scatterCanvas, barCanvas, ctx, { get bars() { return bars; }, get cur() { return cur; } }));
  }

  // The bars by keyboard: focus shows the first bar's tooltip (its whole name), the arrow keys move it, Enter
  // selects the offer.
  let focusBar = 0;
  function showBar(i) {
    if (!bar || !bar.canvas || !bars.length) return;
    focusBar = Math.max(0, Math.min(bars.length - 1, i));
    const active = [{ datasetIndex: 0, index: focusBar }];
    const el = bar.getDatasetMeta(0).data[focusBar];
    bar.setActiveElements(active);
    bar.tooltip.setActiveElements(active, el ? { x: el.x, y: el.y } : { x: 0, y: 0 });
    bar.update('none');
  }
  barCanvas.addEventListener('focus', () => showBar(focusBar));
  // (A chart destroyed with its canvas still focused gets the blur too: it has no canvas then.)
  barCanvas.addEventListener('blur', () => { if (bar && bar.canvas) { bar.setActiveElements([]); bar.tooltip.setActiveElements([], { x: 0, y: 0 }); bar.update('none'); } });
  barCanvas.addEventListener('keydown', (e) => {
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
    if (step) { e.preventDefault(); showBar(focusBar + step); } else if (e.key === 'Enter' && bars[focusBar]) ctx.current().select(bars[focusBar]._key);
  });

  // Rows unchanged → only the highlighted points move; style (language, currency, theme) unchanged → options stay.
  // scatter: for a long ranking the page holds only its first rows, so the engine host sends every point
  // (thinned to one per chart cell above a few thousand) separately.
  let thinned = null;
  let barsFit = true;  // false: no offer fits and the bars show offers that do not
  let barsLog = false;  // the unit-cost axis is logarithmic (values spanning more than 20×)
  // update draws both charts; with { split: true } it draws the scatter and returns a function that draws the
  // bars, for the caller to run in a later task (each chart is one short task).
  function update(rows, c, scatterData = null, { split = false } = {}) {
    ensure();
    cur = c;
    const { t: tt, fmt, state } = c;
    const sel = c.selKey;
    const col = palette();
    const styleKey = JSON.stringify([state.lang, fmt.currency, fmt.factor, col]);
    const dataChanged = rows !== lastRows || styleKey !== lastStyle;
    if (dataChanged) {
      thinned = scatterData && scatterData.thinned ? scatterData.total : null;
      points = scatterData
        ? scatterData.points.map((p) => ({ x: p.x, y: p.y * fmt.factor, key: p.key, r: p.r }))
        : rows.filter((r) => r.fits && r.cost_usd > 0 && r.time_hours > 0)
          .map((r) => ({ x: r.time_hours, y: r.cost_usd * fmt.factor, key: r._key, r }));
      // Offers that fit (a unit price of an offer that cannot run the job is no option); all offers if none fits.
      // The same offer in several regions is one bar, its group's leading row (as the table shows it folded).
      const priced = rows.filter((r) => r.usd_per_tflops_day > 0 && !r._member_of);
      const fitting = priced.filter((r) => r.fits);
      bars = (fitting.length ? fitting : priced).slice(0, BAR_LIMIT);
      barsFit = fitting.length > 0;
    }
    const pareto = points.filter((p) => p.r.pareto).sort((a, b) => a.x - b.x);
    const selected = points.filter((p) => p.key === sel);
    const compared = points.filter((p) => state.cmp.includes(p.key) && p.key !== sel);
    scatter.data.datasets = [
      { label: tt('legendSelected'), data: selected, pointRadius: 8, pointHoverRadius: 9, pointStyle: 'rectRot', backgroundColor: col.sel, borderColor: col.fg, borderWidth: 1.5 },
      { label: tt('legendCompared'), data: compared, pointRadius: 6, pointStyle: 'triangle', backgroundColor: col.cmp, borderColor: col.fg, borderWidth: 1 },
      { label: tt('legendPareto'), data: pareto, showLine: true, borderColor: col.pareto, backgroundColor: col.pareto, pointRadius: 4.5, borderWidth: 2 },
      { label: tt('legendOffers'), data: points, pointRadius: 3, backgroundColor: col.point, borderColor: col.point },
    ].filter((d, i) => d.data.length || i === 3);
    if (styleKey !== lastStyle) styleAxes(scatter, bar, tt, fmt, col);
    scatter.update('none');

    const drawBars = () => {
      if (dataChanged || !bar.data.datasets.length) {
        bar.data.labels = bars.map(barName(tt, fmt));
        labelEndings.set(bar, bars.map((r) => [barEnding(tt, fmt)(r), regionsEnding(tt, fmt)(r)]));
        bar.data.datasets = [{ label: tt('colUnitCost'), data: bars.map((r) => r.usd_per_tflops_day * fmt.factor), borderWidth: 0 }];
        barsLog = setBarScale(bar, bars.map((r) => r.usd_per_tflops_day));
      }
      bar.data.datasets[0].backgroundColor = bars.map((r) => (r._key === sel ? col.sel : r.pareto ? col.pareto : col.bar));
      bar.update('none');
      barNote.textContent = tt(barsFit ? 'barsNote' : 'barsNone', { n: fmt.int(bars.length) }) + (barsLog ? ` ${tt('barsLogScale')}` : '');
    };

    const total = c.view && c.view.total > rows.length ? c.view.total : rows.length;
    scatterNote.textContent = tt('scatterNote', { shown: fmt.int(thinned || points.length), pareto: fmt.int(pareto.length), hidden: fmt.int(total - (thinned || points.length)) })
      + (thinned ? ` ${tt('scatterThinned', { n: fmt.int(points.length) })}` : '');
    lastRows = rows;
    lastStyle = styleKey;
    if (split) return drawBars;
    drawBars();
    return () => {};
  }

  return {
    update,
    get scatter() { ensure(); return scatter; },
    get bar() { ensure(); return bar; },
    destroy() { if (scatter) { scatter.destroy(); bar.destroy(); } },
  };
}
