// The ranking calibrated on the user's own measurements (state.measurements; the engine's answer carries
// `calibration` at its top and `calibrated` on every row): the line above the table, the mark on a row, and the
// words shared with the measurement tab (tools/probe.js).
import { h, txv, dataText } from './dom.js';

// A GPU's name without its vendor ("A100 80GB SXM4"), as a row's mark says it.
export const shortGpuName = (name) => String(name || '').replace(/^(NVIDIA|AMD)\s+/, '');

// The unit a measurement is in: tokens or samples per second.
export const unitOf = (m) => (m && m.samples_per_s !== undefined ? 'samples_per_s' : 'tokens_per_s');
export const speedOf = (m) => (m ? m[unitOf(m)] : undefined);

// "3,150 tokens/s on 8 × A100 80GB SXM4" as nodes (the GPU's name marked as data).
export function measurementText(ctx, m, speed = speedOf(m)) {
  const { t, fmt, gpuName } = ctx;
  return txv('span', t, unitOf(m) === 'samples_per_s' ? 'calibSpeedSamples' : 'calibSpeedTokens',
    { speed: fmt.num(speed, speed >= 100 ? 0 : 1), count: fmt.int(m.count), gpu: dataText('span', shortGpuName(gpuName(m.gpu))) });
}

// The calibrated band of a row (throughput as a share of the calibrated prediction) as "×0.93–1.08".
export const bandText = (fmt, c) => (c && c.band_low > 0 && c.band_high > 0 ? `×${fmt.num(c.band_low, 2)}–${fmt.num(c.band_high, 2)}` : '');

// A row's mark: "calibrated on your A100 run" (how near the measurement is: the configuration measured, the same
// GPU, the same architecture, another one), with the band beside it.
export function calibratedMark(r, ctx) {
  const c = r.calibrated;
  if (!c) return null;
  const { t, fmt, gpuName, state } = ctx;
  const m = state.measurements[c.measurement];
  const gpu = m ? shortGpuName(gpuName(m.gpu)) : '';
  const key = m ? `calibMark_${c.distance}` : 'calibMarkCombined';
  return h('span', { class: `badge calibrated ${c.distance}`, 'data-distance': c.distance, 'data-measurement': c.measurement,
    'data-band-low': c.band_low, 'data-band-high': c.band_high, title: t('calibMarkTitle', { band: bandText(fmt, c) }) },
  t(key, { gpu }), bandText(fmt, c) ? h('span', { class: 'band' }, ` ${bandText(fmt, c)}`) : null);
}

// The line above the table: what the ranking is calibrated on, the combined factor and (with several measurements)
// how far they disagree; a button opens the measurement tab. Hidden without a calibration.
export function renderCalibrationSummary(el, ctx) {
  const { t, fmt, result, state } = ctx;
  const cal = result && result.calibration;
  el.hidden = !cal;
  if (!cal) { el.replaceChildren(); delete el.dataset.factor; delete el.dataset.spread; return; }
  const one = cal.measurements.length === 1 ? cal.measurements[0] : null;
  const m = one && state.measurements[one.index];
  const what = m
    ? txv('span', t, 'calibSummaryOne', { run: measurementText(ctx, m, one.measured), predicted: fmt.num(one.predicted, one.predicted >= 100 ? 0 : 1), factor: `×${fmt.num(one.factor, 2)}` })
    : txv('span', t, 'calibSummaryMany', { n: fmt.int(cal.measurements.length), factor: `×${fmt.num(cal.factor, 2)}`, spread: `×${fmt.num(cal.spread, 2)}` });
  el.replaceChildren(h('span', { class: 'badge calibrated' }, t('calibBadge')), ' ', what, ' ',
    h('button', { type: 'button', class: 'link', id: 'calib-edit', onclick: () => {
      ctx.update({ tool: 'probe' }, { inPlace: true });
      const tab = document.getElementById('tools');
      if (tab) tab.scrollIntoView({ block: 'start' });
    } }, t('calibEdit')));
  el.dataset.factor = cal.factor;
  el.dataset.spread = cal.spread;
}

