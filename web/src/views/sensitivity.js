// Sensitivity of the offer in the details panel: its time to train and job cost as one parameter moves over 100
// values (job size, deadline, or the spot interruption rate), each point a full engine ranking of that offer.
// The 100 engine runs happen in the engine worker (engine/core.js sweep); the chart is the page's own (views/plot.js).
import { Chart, palette, niceTicks, HOUR_TICKS, decades } from './charts.js';
import { h, tx, dataText } from './dom.js';
import { providerName } from '../format/providers.js';
import { sizeField, displayOf } from '../state/state.js';
import { timed } from './profile.js';
import { nextTask } from './tasks.js';

const N = 100;
const logspace = (lo, hi, n = N) => Array.from({ length: n }, (_, i) => lo * (hi / lo) ** (i / (n - 1)));

// The parameters that apply to a row, with their 100 values and the current value.
export function sweepParams(c, row) {
  if (!row) return [];
  const out = [];
  const r = c.request || {};
  const preset = r.preset ? c.presets.find((p) => p.id === r.preset) : null;
  const w = { ...(preset ? preset.workload : {}), ...(r.workload || {}) };
  const fieldName = sizeField(w.kind);
  const v0 = Number(w[fieldName]);
  if (v0 > 0) out.push({ id: 'size', field: fieldName, current: v0, values: logspace(v0 / 10, v0 * 10) });
  if (row.time_hours > 0) out.push({ id: 'deadline', current: null, values: logspace(row.time_hours / 5, row.time_hours * 5) });
  if (row.pricing === 'spot') {
    const cur = (r.spot && r.spot.interruptions_per_node_hour) || (c.defaults.spot && c.defaults.spot.interruptions_per_node_hour) || 1 / 24;
    out.push({ id: 'interruptions', current: cur, values: logspace(0.001, 1) });
  }
  return out;
}

// A value of the swept parameter as text.
function xText(c, p, v) {
  const { fmt } = c;
  if (p.id === 'deadline') return fmt.duration(v);
  if (p.id === 'interruptions') return fmt.sig(v, 2);
  return fmt.compact(v);
}

// The sweep chart's axes: the parameter (log), training time (left) and job cost (right), with their ticks.
function styleSweepAxes(chart, c, p, param, ok, col) {
  const { t, fmt } = c;
  const axisTitle = (text) => ({ display: true, text, color: col.fg });
  const ticks = { color: col.muted, maxRotation: 0, autoSkip: true };
  // Round ticks (durations in days/weeks/months, amounts at 1-2-5), and an axis at least 1.5× tall each way
  // when the values hardly move (a flat line, not a magnified rounding difference).
  const range = (vals) => {
    const v = vals.filter((x) => x > 0);
    if (!v.length) return {};
    const lo = Math.min(...v), hi = Math.max(...v);
    return hi / lo < 2.25 ? { min: lo / 1.5, max: hi * 1.5 } : {};
  };
  const hours = (axis, n) => niceTicks(axis, HOUR_TICKS, n);
  const fine = (lo, hi) => {
    const out = [];
    for (let e = Math.floor(Math.log10(lo)) - 1; e <= Math.ceil(Math.log10(hi)) + 1; ++e) for (let m = 1; m <= 9; ++m) out.push(m * 10 ** e);
    return out;
  };
  const amounts = (axis, n) => {
    const coarse = decades(axis.min, axis.max).filter((v) => v >= axis.min * 0.999 && v <= axis.max * 1.001);
    niceTicks(axis, coarse.length >= 3 ? decades(axis.min, axis.max) : fine(axis.min, axis.max), n);
  };
  chart.options.scales.x = { type: 'logarithmic', title: axisTitle(t(`sensX_${p && p.field ? `size_${p.field}` : param}`)), grid: { color: col.grid },
    afterBuildTicks: (axis) => (param === 'deadline' ? hours(axis, 7) : amounts(axis, 7)), ticks: { ...ticks, callback: (v) => xText(c, p, Number(v)) } };
  chart.options.scales.y = { type: 'logarithmic', position: 'left', ...range(ok.map((x) => x.time_hours)), title: axisTitle(t('sensTime')), grid: { color: col.grid },
    afterBuildTicks: (axis) => hours(axis, 6), ticks: { ...ticks, callback: (v) => fmt.duration(Number(v)) } };
  chart.options.scales.y2 = { type: 'logarithmic', position: 'right', ...range(ok.map((x) => x.cost_usd * fmt.factor)), title: axisTitle(t('sensCost', { cur: fmt.currency })), grid: { drawOnChartArea: false },
    afterBuildTicks: (axis) => amounts(axis, 6), ticks: { ...ticks, callback: (v) => fmt.money(Number(v) / fmt.factor, { digits: Number(v) < 1 ? 2 : 0 }) } };
}

// While a sweep runs the note says so and the figure is marked busy (the chart keeps what it showed, empty axes at
// first); markReady ends both.
function markComputing(container, c, runs) {
  container.dataset.state = 'loading';
  const note = container.querySelector('#sens-note');
  if (note) note.textContent = c.t('sensComputing', { n: c.fmt.int(runs) });
  container.querySelector('figure.sens-chart')?.setAttribute('aria-busy', 'true');
}

function markReady(container) {
  container.dataset.state = 'ready';
  container.querySelector('figure.sens-chart')?.removeAttribute('aria-busy');
}

// The chart's datasets: time (left axis), cost (right axis, dashed) and the current value's point.
function sweepDatasets(c, p, pts, row, col) {
  const { t, fmt } = c;
  const time = pts.map((x) => ({ x: x.x, y: x.time_hours > 0 ? x.time_hours : null }));
  const cost = pts.map((x) => ({ x: x.x, y: x.cost_usd > 0 ? x.cost_usd * fmt.factor : null }));
  const datasets = [
    { label: t('sensTime'), data: time, yAxisID: 'y', showLine: true, spanGaps: false, borderColor: col.sel, backgroundColor: col.sel, pointRadius: 0, pointHoverRadius: 4, pointHitRadius: 6, borderWidth: 2 },
    { label: t('sensCost', { cur: fmt.currency }), data: cost, yAxisID: 'y2', showLine: true, spanGaps: false, borderColor: col.pareto, backgroundColor: col.pareto, pointRadius: 0, pointHoverRadius: 4, pointHitRadius: 6, borderWidth: 2, borderDash: [6, 3] },
  ];
  if (p && p.current && row) {
    datasets.push({ label: t('sensCurrent'), data: [{ x: p.current, y: row.time_hours }], yAxisID: 'y', pointRadius: 7, pointStyle: 'rectRot', backgroundColor: col.cmp, borderColor: col.fg });
  }
  return datasets;
}

export function createSensitivity(container, app) {
  let chart = null;
  let ctxNow = null;
  let key = null;
  let shown = null;
  let inflight = false;
  let result = null;
  let params = [];

  function build(c) {
    const { t } = c;
    const sel = h('select', { id: 'sens-param', onchange: (e) => app.update({ tools: { ...c.current().state.tools, sens: { p: e.target.value } } }, { inPlace: true }) });
    const canvas = h('canvas', { id: 'chart-sensitivity', role: 'img', 'aria-label': t('sensAria') });
    container.replaceChildren(
      tx('h2', t, 'sensTitle', { id: 'sensitivity-title' }),
      tx('p', t, 'sensIntro', { class: 'hint' }),
      h('div', { class: 'sens-controls' }, h('div', { class: 'field' }, tx('label', t, 'sensParam', { for: 'sens-param' }), sel),
        h('p', { class: 'sub', id: 'sens-context' })),
      h('figure', { class: 'chart sens-chart' }, h('div', { class: 'chart-box' }, canvas), h('p', { class: 'chart-note', id: 'sens-note' })));
    if (chart) chart.destroy();
    chart = new Chart(canvas, { type: 'scatter', data: { datasets: [] },
      options: { responsive: true, maintainAspectRatio: false, animation: false, parsing: false, interaction: { mode: 'nearest', intersect: false, axis: 'x' },
        scales: { x: { type: 'logarithmic' }, y: { type: 'logarithmic', position: 'left' }, y2: { type: 'logarithmic', position: 'right', grid: { drawOnChartArea: false } } },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 10 } }, tooltip: {} } } });
    return { sel, canvas };
  }

  let els = null;
  let buildKey = null;

  function draw(c) {
    const { t, fmt } = c;
    const p = params.find((x) => x.id === result.param);
    const col = palette();
    const pts = result.points;
    const ok = pts.filter((x) => x.time_hours > 0 && x.cost_usd > 0);
    const datasets = sweepDatasets(c, p, pts, ctxNow.selected, col);
    styleSweepAxes(chart, c, p, result.param, ok, col);
    chart.options.plugins.legend.labels.color = col.fg;
    chart.options.plugins.tooltip.callbacks = { label: (item) => {
      const q = pts[item.dataIndex];
      if (!q || item.datasetIndex > 1) return `${t('sensCurrent')}: ${xText(c, p, item.raw.x)}`;
      return `${xText(c, p, q.x)}: ${fmt.duration(q.time_hours)}, ${fmt.money(q.cost_usd)}${q.nodes > 1 ? ` · ${t('nodesN', { n: q.nodes })}` : ''}`;
    } };
    chart.data.datasets = datasets;
    chart.update('none');
    const note = document.getElementById('sens-note');
    if (note) note.textContent = t('sensNote', { n: fmt.int(pts.length), ok: fmt.int(ok.length), gaps: fmt.int(pts.length - ok.length) });
  }

  function update(c) {
    ctxNow = c;
    const { t } = c;
    const row = c.selected;
    params = sweepParams(c, row);
    const want = (c.state.tools.sens && c.state.tools.sens.p) || 'size';
    const p = params.find((x) => x.id === want) || params[0];
    const bk = JSON.stringify([c.state.lang]);
    if (!els || bk !== buildKey) {
      const keep = () => { els = build(c); };
      if (c.preserve) c.preserve(keep); else keep();
      buildKey = bk;
      shown = null;
    }
    const ok = JSON.stringify([params.map((x) => x.id), p && p.id]);
    if (els.optionsKey !== ok) {
      els.optionsKey = ok;
      els.sel.replaceChildren(...params.map((x) => h('option', { value: x.id, selected: x === p }, t(`sensP_${x.id}`))));
      els.sel.disabled = !params.length;
    }
    const context = document.getElementById('sens-context');
    if (context) context.replaceChildren(row ? dataText('span', `${row.instance} · ${providerName(t, row.provider)} · ${row.region}`) : tx('span', t, 'sensNoOffer'), row ? ` · ${t(row.pricing)}` : '');
    if (!row || !p) { markReady(container); return; }
    // The weights order offers but change no offer's time or cost: a weight change does not run the sweep again.
    const { weights, ...request } = c.request;
    const args = { request, row: { id: row.id, provider: row.provider, region: row.region, gpu: row.gpu, pricing: row.pricing }, param: p.id, ...(p.field ? { field: p.field } : {}), values: p.values };
    const k = JSON.stringify([args, c.catalog.version]);
    const dk = JSON.stringify([k, displayOf(c.state), c.theme, buildKey]);
    if (k !== key) {
      key = k;
      result = null;
      run();
      return;
    }
    if (result && shown !== dk) { shown = dk; timed('sensitivity chart', () => draw(c)); markReady(container); }
  }

  function run() {
    if (inflight) return;
    inflight = true;
    const c = ctxNow;
    const k = key;
    const args = JSON.parse(k)[0];
    markComputing(container, c, args.values.length);
    // The page's one cache of engine answers (app/answers.js) holds the sweeps; a failure is an answer with `error`.
    ctxNow.ask('sweep', args).then(async (r) => {
      await nextTask();  // draw in a task of its own
      inflight = false;
      if (k !== key) { run(); return; }
      result = r;
      shown = null;
      update(ctxNow || c);
    });
  }

  return {
    update,
    get chart() { return chart; },
    destroy() { if (chart) chart.destroy(); chart = null; els = null; },
  };
}
