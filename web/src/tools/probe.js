// Measure on your trial: the measurement script for the workload on screen (tools/probescript.js, shaped by the
// engine's estimate on the trial GPUs, as `gpuvalue probe` writes it) as a download and a copy, the command to run
// it, and the box its JSON line (or a typed figure) is pasted back into. The engine's parse_measurement reads the
// line; the measurement joins state.measurements, and every ranking, estimate and comparison of the workload is
// calibrated on it (views/calibration.js marks the rows).
import { h, tx, txv, engineText, dataText } from '../views/dom.js';
import { MAX_MEASUREMENTS, sameMeasurement } from '../state/measurements.js';
import { shortGpuName, unitOf, speedOf } from '../views/calibration.js';
import { probeConfig, probeScript } from './probescript.js';
import { field, numberInput, selectInput, num, kv, put, errorBox, workloadOf, times } from './form.js';

// The trial the script is planned for unless the user picks another: one A100 SXM4 80GB (the guide's typical free
// trial is A100 time; `gpuvalue probe` takes the same default).
export const PROBE_GPU = 'a100-sxm4-80gb';
// The script runs on one machine: data parallel over at most this many of its GPUs.
const MAX_PROBE_GPUS = 8;

// The trial hardware of the tab's inputs.
function trialOf(st) {
  const count = Math.round(num(st.count) ?? 1);
  return { gpu: st.gpu || PROBE_GPU, count: count >= 1 && count <= MAX_PROBE_GPUS ? count : 1 };
}

// The workload as the script needs it: the preset's fields under the request's own (as bin/cli/probe.mjs reads it).
function workloadFields(c) {
  const r = c.request || {};
  const preset = r.preset ? c.presets.find((p) => p.id === r.preset) : null;
  return { ...(preset ? preset.workload : {}), ...(r.workload || {}) };
}

// The script's CONFIG from the engine's estimate on the trial hardware (est: its answer, ok or not), or
// {error} when no script can stand for the workload.
export function scriptConfig(c, est) {
  const workload = workloadFields(c);
  const planned = est && est.ok ? est : null;
  if (!planned && !(workload.layers && workload.hidden && workload.heads)) return { error: { code: 'probe.no_plan' } };
  const fallback = (c.defaults.custom_workloads || {}).transformer || {};
  return probeConfig(workload, { preset: (c.request || {}).preset, shape: planned && planned.shape, plan: planned && planned.plan, precision: planned && planned.precision, fallback });
}

export const runCommand = (count) => (count > 1 ? `torchrun --nproc_per_node=${count} probe.py` : 'python3 probe.py');

// What the script measures, in the reader's language, from its CONFIG.
function measuresText(t, fmt, config) {
  if (config.kind === 'cnn') return txv('span', t, 'probeMeasuresCnn', { model: h('code', { 'data-raw': '' }, config.model), batch: fmt.int(config.batch), size: fmt.int(config.image_size), warmup: config.warmup_steps, timed: config.timed_steps });
  return txv('span', t, 'probeMeasuresTransformer', { layers: fmt.int(config.layers), hidden: fmt.int(config.hidden), heads: fmt.int(config.heads), kv: fmt.int(config.kv_heads),
    seq: fmt.int(config.seq_len), mb: fmt.int(config.micro_batch), warmup: config.warmup_steps, timed: config.timed_steps });
}

// The script's Blob URL: one at a time (the previous one is revoked when a new script is drawn).
let scriptUrl = null;
function blobUrl(text) {
  if (scriptUrl) URL.revokeObjectURL(scriptUrl);
  scriptUrl = URL.createObjectURL(new Blob([text], { type: 'text/x-python' }));
  return scriptUrl;
}

// The script half of the tab: what it measures and leaves out, the engine's expectation, download, copy, command.
function scriptPart(c, est, trial) {
  const { t, fmt } = c;
  const config = scriptConfig(c, est);
  if (config.error) {
    return [est && !est.ok ? errorBox(t, est, 'tool-probe-error') : null,
      tx('p', t, config.error.code === 'probe.no_torchvision_model' ? 'probeNoModel' : 'probeNoPlan', { class: 'notice warn', id: 'probe-no-script' })];
  }
  const script = probeScript(config);
  const tp = est && est.ok ? est.throughput : null;
  const expected = tp && (config.kind === 'cnn' ? tp.samples_per_s : tp.tokens_per_s);
  const code = h('code', { id: 'probe-script', 'data-raw': '' }, script);
  const copy = h('button', { type: 'button', id: 'probe-copy', onclick: () => {
    const done = () => { copy.textContent = t('copied'); };
    // Selected too, for a manual copy where the clipboard is refused.
    const box = document.getElementById('probe-script-box');
    if (box) box.open = true;
    const range = document.createRange();
    range.selectNodeContents(code);
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(script).then(done, () => { /* selected for a manual copy */ });
  } }, t('probeCopy'));
  return [
    kv([[t('probeMeasures'), h('span', { id: 'probe-measures' }, measuresText(t, fmt, config))],
      [t('probeLeavesOut'), tx('span', t, 'probeLeavesOutText', { id: 'probe-leaves-out' })],
      config.kind === 'transformer' ? [t('probeLayersRun'), tx('span', t, 'probeLayersRunText')] : null,
      expected > 0 ? [t('probeExpected'), h('span', { id: 'probe-expected', 'data-v': expected },
        t(config.kind === 'cnn' ? 'probeExpectedSamples' : 'probeExpectedTokens', { speed: fmt.num(expected, expected >= 100 ? 0 : 1), count: fmt.int(trial.count), gpu: shortGpuName(c.gpuName(trial.gpu)) }))] : null],
    { id: 'probe-facts' }),
    h('div', { class: 'actions' },
      txv('a', t, 'probeDownload', { file: h('code', { 'data-raw': '' }, 'probe.py') }, { href: blobUrl(script), download: 'probe.py', id: 'probe-download', class: 'button' }), copy),
    h('p', {}, tx('span', t, 'probeRun'), ' ', h('code', { id: 'probe-run', 'data-raw': '' }, runCommand(trial.count))),
    h('details', { class: 'source', id: 'probe-script-box' }, tx('summary', t, 'probeShowScript'), h('pre', { class: 'script', 'aria-label': t('probeScriptLabel') }, code)),
  ];
}

// Where the engine found the problem in a pasted line: a JSON Pointer into it, or a column (the engine's path is then
// "column C" in a typed figure, "line 1, column C" in malformed JSON).
function whereOf(t, err) {
  const col = /^(?:line 1, )?column (\d+)$/.exec(err.path || '');
  if (col) return { text: t('probeAtColumn', { n: Number(col[1]) }), column: Number(col[1]), path: null };
  if (err.path) return { text: t('probeAtPointer', { path: err.path }), column: null, path: err.path };
  return { text: '', column: null, path: null };
}

// The paste box: the engine's parse_measurement reads the line; an error is shown under the box, where it is,
// and nothing else changes.
function pastePart(c) {
  const { t } = c;
  const box = h('textarea', { id: 'probe-paste', rows: 3, spellcheck: 'false', placeholder: t('probePastePlaceholder'), 'aria-describedby': 'probe-paste-error' });
  const status = h('div', { id: 'probe-paste-error', 'aria-live': 'polite' });
  const fail = (nodes) => {
    box.setAttribute('aria-invalid', 'true');
    status.replaceChildren(h('div', { class: 'notice bad', role: 'alert' }, ...nodes));
    status.dataset.state = 'error';
  };
  const add = async () => {
    const text = box.value.trim();
    if (!text) return;
    const now = c.current().state.measurements;
    if (now.length >= MAX_MEASUREMENTS) { fail([tx('p', t, 'probeTooMany', {}, { n: MAX_MEASUREMENTS })]); return; }
    status.dataset.state = 'busy';
    const r = await c.ask('call', { method: 'parse_measurement', request: { text } });
    if (!r.ok) {
      const err = r.error || {};
      const where = whereOf(t, err);
      fail([h('p', {}, tx('strong', t, 'probePasteError'), ' ', where.text ? h('span', { class: 'where', id: 'probe-paste-where', 'data-path': where.path, 'data-column': where.column }, where.text) : null),
        engineText('p', err.message || err.code),
        where.column ? h('pre', { class: 'caret', 'data-raw': '' }, `${text}\n${' '.repeat(Math.max(0, where.column - 1))}^`) : null]);
      return;
    }
    if (now.some((m) => sameMeasurement(m, r.measurement))) { fail([tx('p', t, 'probeDuplicate')]); return; }
    box.removeAttribute('aria-invalid');
    status.replaceChildren();
    status.dataset.state = 'added';
    c.update({ measurements: [...now, r.measurement] }, { inPlace: true });
  };
  box.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); add(); } });
  return [tx('h3', t, 'probePasteTitle'), field('probe-paste', t('probePasteLabel'), box,
    h('span', { class: 'hint' }, tx('span', t, 'probePasteExample'), ' ', h('code', { 'data-raw': '' }, '3150 tokens/s on a100-sxm4-80gb x8'))),
    h('div', { class: 'actions' }, h('button', { type: 'button', id: 'probe-add', onclick: add }, t('probeAdd'))), status];
}

// The measurements given: each with what the engine predicted for it, the factor and its flags, and a remove button;
// with several, how far they disagree.
function listPart(c) {
  const { t, fmt, state } = c;
  const list = state.measurements;
  if (!list.length) return [tx('p', t, 'probeNone', { class: 'sub', id: 'probe-none' })];
  const cal = (c.result && c.result.calibration) || null;
  const info = (i) => (cal ? cal.measurements.find((x) => x.index === i) : null);
  const speed = (m, v) => (v > 0 ? t(unitOf(m) === 'samples_per_s' ? 'probeSamplesPerS' : 'probeTokensPerS', { speed: fmt.num(v, v >= 100 ? 0 : 1) }) : '—');
  // One row per measurement (the run with its remove button, measured, predicted, factor), its checks on a row of their own below
  // it (they are sentences: a column of them would squeeze the numbers on a phone).
  const rows = list.flatMap((m, i) => {
    const x = info(i);
    const main = h('tr', { 'data-index': i, 'data-gpu': m.gpu, 'data-count': m.count },
      h('th', { scope: 'row' }, `${fmt.int(m.count)} × `, dataText('span', shortGpuName(c.gpuName(m.gpu))), m.source === 'typed' ? tx('span', t, 'probeTyped', { class: 'badge' }) : null,
        ' ', h('button', { type: 'button', class: 'small', id: `probe-remove-${i}`, 'aria-label': t('probeRemoveN', { n: i + 1 }),
          onclick: () => c.update({ measurements: c.current().state.measurements.filter((_, j) => j !== i) }, { inPlace: true }) }, t('remove'))),
      h('td', { class: 'num', 'data-v': speedOf(m) }, speed(m, x ? x.measured : speedOf(m))),
      h('td', { class: 'num', 'data-v': x ? x.predicted : '' }, x ? speed(m, x.predicted) : '—'),
      h('td', { class: 'num factor', 'data-v': x ? x.factor : '' }, x ? times(fmt, x.factor) : '—'));
    const flags = x && x.flags.length ? h('tr', { class: 'flags-row', 'data-index': i },
      h('td', { colspan: 4 }, tx('span', t, 'probeColFlags', { class: 'sub' }), ' ', x.flags.map((f) => engineText('span', f, { class: 'flag', 'data-flag': f.code })))) : null;
    return flags ? [main, flags] : [main];
  });
  const table = h('div', { class: 'scroll-x' }, h('table', { class: 'mini measurements', id: 'probe-measurements' },
    h('thead', {}, h('tr', {}, ['probeColRun', 'probeColMeasured', 'probeColPredicted', 'probeColFactor'].map((k) => tx('th', t, k, { scope: 'col' })))),
    h('tbody', {}, rows)));
  const spread = cal && cal.measurements.length > 1
    ? txv('p', t, 'probeSpread', { spread: h('strong', {}, times(fmt, cal.spread)), factor: times(fmt, cal.factor) }, { id: 'probe-spread', 'data-v': cal.spread })
    : null;
  return [table, spread, cal ? null : tx('p', t, 'probeNotCalibrated', { class: 'sub', id: 'probe-not-calibrated' })];
}

export const probePanel = {
  id: 'probe',
  titleKey: 'toolProbe',
  introKey: 'toolProbeIntro',
  // Only the script depends on the engine's estimate; the paste box and the list also follow the measurements and
  // the ranking's calibration.
  alwaysRender: true,
  // An estimate the trial GPUs cannot hold still gives a script from the workload's own shape: not an error of the
  // tab; scriptPart shows it when no script can be written.
  ownErrors: true,
  prompt: () => true,
  displayKey: (c) => JSON.stringify([c.state.measurements, c.result && c.result.calibration]),

  inputs(c, st, io) {
    const { t } = c;
    const trial = trialOf(st);
    return h('div', { class: 'tool-grid' },
      field('probe-gpu', t('probeGpu'), selectInput('probe-gpu', trial.gpu, c.gpus.map((g) => [g.id, g.name, true]), (v) => io.set('gpu', v === PROBE_GPU ? '' : v), { 'data-path': '/gpu' })),
      field('probe-count', t('probeCount'), numberInput('probe-count', trial.count, (v) => io.set('count', v === '1' ? '' : v), { min: 1, max: MAX_PROBE_GPUS, step: 1, 'data-path': '/count' }),
        tx('span', t, 'probeCountHint', { class: 'hint' })));
  },

  // The estimate on the trial hardware shapes the script (layer shape, micro-batch) and gives the uncalibrated
  // expectation, so it is asked without the measurements.
  calls(c, st) {
    const trial = trialOf(st);
    return [{ method: 'estimate', request: { ...workloadOf(c), gpu: trial.gpu, count: trial.count } }];
  },

  render(out, [est], c, st) {
    const trial = trialOf(st);
    put(out, tx('h3', c.t, 'probeScriptTitle'), scriptPart(c, est, trial), pastePart(c), tx('h3', c.t, 'calibListTitle'), listPart(c));
  },
};
