// The page's chart axes (web/src/views/plotscales.js): bounds, ticks, labels and the mapping from values to pixels,
// for the linear, log and category scales its charts use.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildScale, labelTicks, niceStep, pixelOf, shownTicks } from '../../web/src/views/plotscales.js';

// A canvas context's measureText stand-in: 6 px per character (what matters here is that widths follow the text).
const ctx = { measureText: (s) => ({ width: 6 * String(s).length }) };
const values = (s) => s.ticks.map((t) => t.value);

test('niceStep picks 1, 2, 2.5 or 5 × 10^n, the smallest that cuts the span into at most the parts asked', () => {
  assert.equal(niceStep(10, 10), 1);
  assert.equal(niceStep(10, 4), 2.5);
  assert.equal(niceStep(1000, 3), 500);
  assert.equal(niceStep(0.7, 7), 0.1);
  for (const [span, n] of [[13, 5], [0.042, 6], [98765, 10], [3, 2]]) {
    const step = niceStep(span, n);
    assert.ok(span / step <= n + 1e-9, `${span}/${step} > ${n}`);
    assert.match(String(step / 10 ** Math.floor(Math.log10(step) + 1e-9)), /^(1|2|2\.5|5)$/, `${step}`);
  }
});

test('a linear axis from zero (beginAtZero) ends on a round tick above the data, its ticks evenly spaced', () => {
  const s = buildScale('y', { beginAtZero: true }, [12, 87, 41], null, false, 300);
  assert.equal(s.min, 0);
  assert.ok(s.max >= 87 && s.max <= 100, `max ${s.max}`);
  const v = values(s);
  assert.equal(v[0], 0);
  assert.equal(v[v.length - 1], s.max);
  const step = v[1] - v[0];
  v.forEach((x, i) => assert.ok(Math.abs(x - i * step) < 1e-9, `${v}`));
  assert.ok(v.length <= 11, `${v.length} ticks`);
});

test('a linear axis keeps the min and max it is given', () => {
  const s = buildScale('x', { type: 'linear', min: 0, max: 100 }, [30, 70], null, true, 500);
  assert.deepEqual([s.min, s.max], [0, 100]);
  assert.ok(values(s).every((x) => x >= 0 && x <= 100));
});

test('a log axis rounds its bounds to one significant digit around the data and ticks at powers of ten', () => {
  const s = buildScale('x', { type: 'logarithmic' }, [0.53, 3.2, 312, -1, 0], null, true, 600);
  assert.deepEqual([s.min, s.max], [0.5, 400]);
  assert.deepEqual(values(s), [1, 10, 100]);
  // Less than three decades: 1, 2 and 5 × 10^n.
  const narrow = buildScale('x', { type: 'logarithmic' }, [12, 230], null, true, 600);
  assert.deepEqual([narrow.min, narrow.max], [10, 300]);
  assert.deepEqual(values(narrow), [10, 20, 50, 100, 200]);
  // Within one decade: 1 to 9 × 10^n; at least the two bounds.
  assert.deepEqual(values(buildScale('y', { type: 'logarithmic' }, [2.6e6, 3.4e6], null, false, 300)), [2e6, 3e6, 4e6]);
  assert.deepEqual(values(buildScale('y', { type: 'logarithmic', min: 2.1, max: 2.9 }, [], null, false, 300)), [2.1, 2.9]);
  // Given bounds are kept; with no positive value the axis still has two bounds.
  const given = buildScale('y', { type: 'logarithmic', min: 2, max: 5000 }, [10, 20], null, false, 300);
  assert.deepEqual([given.min, given.max], [2, 5000]);
  const empty = buildScale('y', { type: 'logarithmic' }, [], null, false, 300);
  assert.ok(empty.max > empty.min && empty.min > 0);
});

test('afterBuildTicks may replace the ticks (the page\'s round durations and amounts)', () => {
  const s = buildScale('x', { type: 'logarithmic', afterBuildTicks: (axis) => { axis.ticks = [{ value: 1 }, { value: 24 }]; } }, [0.5, 100], null, true, 600);
  assert.deepEqual(values(s), [1, 24]);
});

test('tick labels come from ticks.callback with the scale as `this`, else plain digits; widths are measured', () => {
  const chart = { width: 640 };
  const s = buildScale('y', { ticks: { callback(v, i) { return `${this.chart.width}:${i}:${v}`; } } }, [0, 10], null, false, 200);
  labelTicks(s, ctx, null, chart);
  assert.equal(s.ticks[0].label, `640:0:${s.ticks[0].value}`);
  assert.deepEqual(s.labelWidths, s.ticks.map((t) => 6 * t.label.length));
  const plain = buildScale('x', { min: 0, max: 20000 }, [], null, true, 400);
  labelTicks(plain, ctx, null, chart);
  assert.ok(plain.ticks.some((t) => t.label === '10,000'), plain.ticks.map((t) => t.label).join(' '));
});

test('a category axis has one tick per label, centred in its band, top to bottom when vertical', () => {
  const labels = ['a', 'b', 'c', 'd'];
  const s = buildScale('y', { type: 'category' }, [], labels, false, 400);
  labelTicks(s, ctx, labels, {});
  assert.deepEqual(s.ticks.map((t) => t.label), labels);
  Object.assign(s, { start: 0, end: 400 });
  assert.deepEqual(s.ticks.map((t) => pixelOf(s, t.value)), [50, 150, 250, 350]);
});

test('pixelOf maps a value axis from min to max, bottom to top when vertical, in log space on a log axis', () => {
  const x = Object.assign(buildScale('x', { type: 'logarithmic', min: 1, max: 100 }, [], null, true, 200), { start: 0, end: 200 });
  assert.equal(pixelOf(x, 1), 0);
  assert.equal(pixelOf(x, 10), 100);
  assert.equal(pixelOf(x, 100), 200);
  const y = Object.assign(buildScale('y', { min: 0, max: 10 }, [], null, false, 100), { start: 20, end: 120 });
  assert.equal(pixelOf(y, 0), 120);
  assert.equal(pixelOf(y, 10), 20);
});

test('labels that would overlap are thinned (autoSkip), unless autoSkip is false', () => {
  const labels = Array.from({ length: 30 }, (_, i) => `label number ${i}`);
  const s = buildScale('x', { type: 'category' }, [], labels, true, 300);
  labelTicks(s, ctx, labels, {});
  const shown = shownTicks(s, 300);
  assert.ok(shown.length < 30 && shown.length >= 2 && shown[0] === 0, `${shown}`);
  const widths = shown.map((i) => s.labelWidths[i] + 8).reduce((a, b) => a + b, 0);
  assert.ok(widths <= 300, `${widths} px of labels on a 300 px axis`);
  const all = buildScale('y', { type: 'category', ticks: { autoSkip: false } }, [], labels, false, 100);
  labelTicks(all, ctx, labels, {});
  assert.equal(shownTicks(all, 100).length, 30);
});
