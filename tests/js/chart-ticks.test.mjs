// The log axes' ticks (web/src/views/charts.js niceTicks): round values, never crowded on the axis.
import test from 'node:test';
import assert from 'node:assert/strict';
import { niceTicks, HOUR_TICKS, decades } from '../../web/src/views/charts.js';

const ticksOf = (min, max, candidates, n) => {
  const axis = { min, max, ticks: [] };
  niceTicks(axis, candidates, n);
  return axis.ticks.map((t) => t.value);
};

test('time ticks from 20 days to 3 years: no two labels closer than 1/7 of the log span (30, 60, 90 days were)', () => {
  const [min, max] = [20 * 24, 3 * 8760];
  const ticks = ticksOf(min, max, HOUR_TICKS, 7);
  assert.ok(ticks.length >= 3 && ticks.length <= 8, `${ticks}`);
  const gap = Math.log(max / min) / 7;
  for (let i = 1; i < ticks.length; i++) assert.ok(Math.log(ticks[i] / ticks[i - 1]) >= gap * 0.999, `${ticks[i - 1]} and ${ticks[i]} crowd`);
  assert.ok(!(ticks.includes(1440) && ticks.includes(2160)), '60 and 90 days both labelled');
  for (const t of ticks) assert.ok(HOUR_TICKS.includes(t) && t >= min * 0.999 && t <= max * 1.001);
});

test('money ticks over six decades keep at most max + 1 round values, evenly spread', () => {
  const ticks = ticksOf(20, 2e6, decades(20, 2e6), 7);
  assert.ok(ticks.length >= 4 && ticks.length <= 8, `${ticks}`);
  for (const t of ticks) assert.match(String(t / 10 ** Math.floor(Math.log10(t) + 1e-9)), /^[125]$/);
});

test('a narrow range keeps the round values it has, and leaves the axis alone with fewer than two', () => {
  assert.deepEqual(ticksOf(1, 3.5, HOUR_TICKS, 7), [1, 2, 3]);
  const axis = { min: 4, max: 5, ticks: ['untouched'] };
  niceTicks(axis, HOUR_TICKS, 7);
  assert.deepEqual(axis.ticks, ['untouched']);
});
