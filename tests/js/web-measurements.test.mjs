// The user's measurements in the page's URL hash (state/measurements.js, state/hash.js): the short form reads back
// as the measurement it was written from, malformed and unknown values are dropped and reported (not a blank page),
// at most eight are kept, and the rank request carries them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseHash, serializeHash } from '../../web/src/state/hash.js';
import { defaultState, rankRequest } from '../../web/src/state/state.js';
import { setNames } from '../../web/src/state/names.js';
import { formatMeasurement, parseMeasurement, parseMeasurements, workloadKey, MAX_MEASUREMENTS } from '../../web/src/state/measurements.js';
import { loadEngine } from './helpers.mjs';

const engine = await loadEngine();
const defaults = engine.defaults();
setNames(defaults.names);
const base = defaultState(defaults, { rate: 7.1 });
const gpuIds = engine.gpus().map((g) => g.id);

// A probe line's measurement (the shape of the engine's parse_measurement answer) and a typed one.
const probe = { gpu: 'a100-sxm4-80gb', count: 8, tokens_per_s: 3150.5, precision: 'bf16', peak_memory_gb: 61.52, layers_run: 20, layers: 80, source: 'probe' };
const typed = { gpu: 'h100-sxm5-80gb', count: 1, samples_per_s: 2400, source: 'typed' };

test('the short form is compact and reads back as the measurement it was written from', () => {
  assert.equal(formatMeasurement(probe), 'a100-sxm4-80gb*8*3150.5t*m61.52*r20*n80*pbf16');
  assert.equal(formatMeasurement(typed), 'h100-sxm5-80gb*1*2400s*y');
  for (const m of [probe, typed]) assert.deepEqual(parseMeasurement(formatMeasurement(m), { gpuIds }), m);
  // A speed with many digits (a scaled figure) keeps every one of them.
  const exact = { ...typed, samples_per_s: 1234.5678901234 };
  assert.equal(parseMeasurement(formatMeasurement(exact)).samples_per_s, exact.samples_per_s);
});

test('malformed short forms are refused, part by part', () => {
  for (const bad of ['', 'a100-sxm4-80gb', 'a100-sxm4-80gb*8', 'a100-sxm4-80gb*0*3150t', 'a100-sxm4-80gb*8*3150', 'a100-sxm4-80gb*8*3150x',
    'a100-sxm4-80gb*8*-3150t', 'a100-sxm4-80gb*8*0t', 'a100-sxm4-80gb*8*1e9t', 'a100-sxm4-80gb*8.5*3150t', 'A100*8*3150t', 'a100-sxm4-80gb*8*3150t*m1*m2',
    'a100-sxm4-80gb*8*3150t*q7', 'a100-sxm4-80gb*8*3150t*y*y', 'a100-sxm4-80gb*8*3150t*r0', `a100-sxm4-80gb*8*3150t*m${'1'.repeat(200)}`]) {
    assert.equal(parseMeasurement(bad), null, bad);
  }
  // A GPU the database does not know is refused when the page knows the names.
  assert.equal(parseMeasurement('no-such-gpu*1*100t', { gpuIds }), null);
  assert.ok(parseMeasurement('no-such-gpu*1*100t'));
});

test('a hash keeps the measurements it can read, in order, reports the others, and keeps at most eight', () => {
  const report = {};
  const good = formatMeasurement(probe);
  const s = parseHash(`#preset=llama2-70b-lora&m=${good}&m=garbage&m=${formatMeasurement(typed)}&m=no-such-gpu*1*5t`, base, { gpuIds, report });
  assert.deepEqual(s.measurements, [probe, typed]);
  assert.deepEqual(report.measurements, ['garbage', 'no-such-gpu*1*5t']);
  assert.equal(report.measurementsGiven, true);
  const none = {};
  assert.deepEqual(parseHash('#preset=llama2-70b-lora', base, { gpuIds, report: none }).measurements, []);
  assert.equal(none.measurementsGiven, false);
  const many = Array.from({ length: MAX_MEASUREMENTS + 2 }, (_, i) => `m=a100-sxm4-80gb*${i + 1}*${1000 + i}t`).join('&');
  const r = parseMeasurements(new URLSearchParams(many).getAll('m'), { gpuIds });
  assert.equal(r.measurements.length, MAX_MEASUREMENTS);
  assert.equal(r.dropped.length, 2);
});

test('the hash written from a state with measurements reads back to the same state, and the rank request carries them', () => {
  const s = { ...structuredClone(base), preset: 'llama2-70b-lora', measurements: [probe, typed] };
  const hash = serializeHash(s, base);
  assert.match(hash, /m=a100-sxm4-80gb\*8\*3150\.5t/);
  assert.deepEqual(parseHash(hash, base, { gpuIds }).measurements, [probe, typed]);
  assert.deepEqual(rankRequest(s).measurements, [probe, typed]);
  // No measurements: nothing in the hash and no field in the request.
  assert.doesNotMatch(serializeHash(base, base), /(^|&|#)m=/);
  assert.equal('measurements' in rankRequest(base), false);
});

test('measurements are saved per workload: a preset, or the user\'s own model of a kind and mode', () => {
  assert.equal(workloadKey({ preset: 'llama2-70b-lora', custom: null }), 'preset:llama2-70b-lora');
  assert.equal(workloadKey({ preset: 'x', custom: { kind: 'transformer', mode: 'lora', params: 7e9 } }), 'custom:transformer:lora');
  assert.equal(workloadKey({ preset: 'x', custom: { kind: 'cnn' } }), 'custom:cnn:pretrain');
});
