// The Accuracy view: the throughput model against published measurements, each predicted without its own source
// (leave-one-source-out, scripts/accuracy.mjs writes web/src/data/accuracy.json). A log-log scatter of predicted
// versus published with the identity line and the likely range, the error by workload, and for the selected offer
// how many published measurements of its GPU generation and workload family stand behind its estimate. The data
// is loaded when the view comes near the screen (on the site, a chunk of its own: data/accuracy.js).
import { Chart, palette } from './charts.js';
import { h, tx, dataText, sourceLink } from './dom.js';
import { whenNear } from './near.js';

// The data once loaded, kept for the views drawn after it (the page is built again on a language switch).
let loaded = null;
const loadAccuracy = () => import('../data/accuracy.js').then((m) => { loaded = m.default; return loaded; });

const pct = (fmt, x) => `${fmt.sig(x * 100, 2)} %`;

// The workload family of the page's current request, as the measurement rows name it: presets of image models
// are CNNs, transformers with experts mixture-of-experts, the rest dense transformers.
export function requestFamily(c) {
  const r = c.request || {};
  const preset = r.preset ? (c.presets || []).find((p) => p.id === r.preset) : null;
  const w = r.workload || (preset && preset.workload) || {};
  const kind = w.kind || 'transformer';
  if (kind === 'cnn' || kind === 'vision') return 'cnn';
  return w.experts > 1 ? 'moe' : 'transformer';
}

const FAMILY_KEYS = { cnn: 'accuracyFamilyCnn', moe: 'accuracyFamilyMoe', transformer: 'accuracyFamilyTransformer' };

// The published rows (of the view's data, accuracy) of one GPU generation and workload family.
export function basisRows(accuracy, generation, family) {
  return accuracy.rows.filter((r) => r.generation === generation && r.family === family);
}

// A measurement as the view names it: its workload on its GPUs.
const rowLabel = (r) => `${r.workload} (${r.gpu_count}× ${r.gpu})`;

const ARCH_NAMES = { cdna2: 'CDNA 2', cdna3: 'CDNA 3', ada: 'Ada Lovelace', unknown: '?' };
const archName = (a) => ARCH_NAMES[a] || a.charAt(0).toUpperCase() + a.slice(1);

function basis(accuracy, c) {
  const { t } = c;
  const row = c.selected;
  if (!row) return tx('p', t, 'accuracySelect', { class: 'sub', id: 'accuracy-basis' });
  const gpu = (c.gpus || []).find((g) => g.id === row.gpu);
  const generation = (gpu && gpu.architecture) || 'unknown';
  const family = requestFamily(c);
  const rows = basisRows(accuracy, generation, family);
  // Architecture names are proper nouns in both languages (Ampere, Hopper, CDNA3); the family is translated.
  const vars = { n: rows.length, generation: archName(generation), family: t(FAMILY_KEYS[family]) };
  if (!rows.length) return tx('p', t, 'accuracyBasisNone', { class: 'sub', id: 'accuracy-basis' }, vars);
  return h('div', { id: 'accuracy-basis' }, tx('p', t, 'accuracyBasis', { class: 'sub' }, vars),
    h('details', { class: 'multi', id: 'accuracy-basis-rows' }, tx('summary', t, 'accuracyRowsLink'),
      h('ul', { class: 'basis-rows' }, rows.map((r) => h('li', {}, dataText('span', `${rowLabel(r)}: `), sourceLink(r.source))))));
}

function familyTable(accuracy, c) {
  const { t, fmt } = c;
  const head = h('tr', {}, ['accuracyFamily', 'accuracyRows', 'accuracyMedian', 'accuracyP90'].map((k) => tx('th', t, k, { scope: 'col' })));
  const body = Object.entries(accuracy.by_workload).map(([w, v]) => h('tr', {},
    dataText('td', w), h('td', { class: 'num' }, String(v.n)), h('td', { class: 'num' }, pct(fmt, v.median)), h('td', { class: 'num' }, pct(fmt, v.p90))));
  return h('table', { class: 'accuracy-table', id: 'accuracy-by-family' }, h('thead', {}, head), h('tbody', {}, body));
}

// Each row in its own metric's unit (samples/s, tokens/s or TFLOPS per GPU): the log axes hold them all, and
// the distance from the identity line is the relative error. The dashed lines are the median likely range.
function datasets(accuracy, c, col) {
  const { t } = c;
  const points = accuracy.rows.map((r) => ({ x: r.published, y: r.predicted }));
  const xs = points.map((p) => p.x);
  const lo = Math.min(...xs) / 2, hi = Math.max(...xs) * 2;
  const w = accuracy.loso.width;
  const line = (f) => [{ x: lo, y: lo * f }, { x: hi, y: hi * f }];
  const ratio = Math.sqrt(w);
  return [
    { label: t('accuracyPredicted'), data: points, pointRadius: 2.5, backgroundColor: col.point, borderColor: col.point },
    { label: t('accuracyIdentity'), data: line(1), showLine: true, borderColor: col.fg, borderWidth: 1, pointRadius: 0 },
    { label: t('accuracyBand'), data: line(ratio), showLine: true, borderColor: col.muted, borderDash: [4, 4], borderWidth: 1, pointRadius: 0 },
    { label: '', data: line(1 / ratio), showLine: true, borderColor: col.muted, borderDash: [4, 4], borderWidth: 1, pointRadius: 0 },
  ];
}

export function createAccuracy(container) {
  let chart = null;
  let built = null;
  let accuracy = loaded;  // the data, once loaded
  let loading = null;    // its load under way
  let stopWatch = null;  // waiting for the view to come near the screen
  let last = null;       // the last context the view was given (drawn once the data is in)
  let gone = false;

  function build(c) {
    const { t, fmt } = c;
    const canvas = h('canvas', { id: 'chart-accuracy', role: 'img', 'aria-label': t('accuracyTitle') });
    container.replaceChildren(
      tx('h2', t, 'accuracyTitle', { id: 'accuracy-title' }),
      tx('p', t, 'accuracyIntro', { class: 'hint' }, { n: accuracy.loso.n, median: pct(fmt, accuracy.loso.median), coverage: pct(fmt, accuracy.loso.coverage) }),
      h('div', { class: 'accuracy-basis-slot' }),
      h('figure', { class: 'chart accuracy-chart' }, h('div', { class: 'chart-box' }, canvas)),
      familyTable(accuracy, c));
    if (chart) chart.destroy();
    const col = palette();
    const axis = (key) => ({ type: 'logarithmic', title: { display: true, text: t(key), color: col.fg }, grid: { color: col.grid },
      ticks: { color: col.muted, maxTicksLimit: 6, callback: (v) => fmt.compact(Number(v)) } });
    chart = new Chart(canvas, { type: 'scatter', data: { datasets: datasets(accuracy, c, col) },
      options: { responsive: true, maintainAspectRatio: false, animation: false, parsing: false,
        scales: { x: axis('accuracyPublished'), y: axis('accuracyPredicted') },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 10, filter: (item) => item.text !== '' } },
          tooltip: { callbacks: { label: (item) => (item.datasetIndex === 0 ? rowLabel(accuracy.rows[item.dataIndex]) : item.dataset.label) } } } } });
    built = `${c.state.lang}|${c.state.theme || ''}`;
    container.dataset.state = 'ready';
  }

  // The title and a note while the data is not in (state loading, or error when it could not be loaded).
  function placeholder(c, key, state) {
    if (container.dataset.state === state && built === `${state}|${c.state.lang}`) return;
    container.replaceChildren(tx('h2', c.t, 'accuracyTitle', { id: 'accuracy-title' }), tx('p', c.t, key, { class: 'sub', id: 'accuracy-note' }));
    container.dataset.state = state;
    built = `${state}|${c.state.lang}`;
  }

  // The view came near the screen (whenNear has stopped its watch): its data is loaded, then the view drawn with the
  // last context it was given.
  function open() {
    stopWatch = null;
    if (loading || accuracy) return;
    loading = loadAccuracy().then((data) => {
      accuracy = data;
      if (!gone && last) update(last);
    }, () => {
      loading = null;
      if (!gone && last) placeholder(last, 'accuracyLoadFailed', 'error');
    });
  }

  function update(c) {
    last = c;
    if (!accuracy) {
      if (container.dataset.state !== 'error') placeholder(c, 'accuracyLoading', 'loading');
      if (!loading && !stopWatch) stopWatch = whenNear(container, open);
      return;
    }
    if (built !== `${c.state.lang}|${c.state.theme || ''}` || !container.firstChild) build(c);
    const slot = container.querySelector('.accuracy-basis-slot');
    if (slot) slot.replaceChildren(basis(accuracy, c));
  }

  return {
    update,
    destroy() {
      gone = true;
      if (stopWatch) stopWatch();
      if (chart) chart.destroy();
      chart = null; built = null; stopWatch = null;
    },
  };
}
