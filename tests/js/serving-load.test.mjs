// The serving model's latency terms under load against published closed-loop runs, predicted with the engine's
// default constants at each row's arrival rate and percentile on the real wasm engine (scripts/serving-load.mjs,
// docs/accuracy.md "Latency under load").
import test from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, measurements, requestFor, unpredicted, BEGIN, END } from '../../scripts/serving-load.mjs';
import { summarise, bySource, withSection, BEGIN as LATENCY_BEGIN, END as LATENCY_END } from '../../scripts/serving-latency.mjs';
import { loadServingEngine } from '../../scripts/serving-accuracy.mjs';

const engine = await loadServingEngine();
const rows = evaluate(engine);
const predicted = rows.filter((r) => !r.over_capacity);
const all = summarise(predicted);
const pct = (x) => `${(x * 100).toFixed(1)} %`;

test('every row under load gets a TTFT and a TPOT, or the engine says one replica cannot carry its rate', () => {
  assert.ok(rows.length >= 30, `${rows.length} rows`);
  const missing = unpredicted(rows);
  assert.equal(missing.length, 0, missing.map((r) => `${r.m.id}: ${r.why}`).join('\n'));
  for (const r of predicted) assert.ok(r.ttft_ms > 0 && r.tpot_ms > 0, r.m.id);
  // Over capacity means the published rate is above what the engine runs one replica at, not a silent failure.
  for (const r of rows.filter((x) => x.over_capacity))
    assert.ok(r.m.requests_per_s > r.sustainable_rps, `${r.m.id}: ${r.m.requests_per_s} vs ${r.sustainable_rps}`);
  // 7 of 46 rows today (the saturation knee of each sweep); more would mean the capacity model moved.
  assert.ok(rows.length - predicted.length <= 7, `${rows.length - predicted.length} rows over capacity`);
});

test('every row states its load, percentile, source and what was measured, and its numbers obey Little\'s law', () => {
  for (const m of measurements) {
    assert.ok(m.requests_per_s > 0 && m.rate_note.length > 40, m.id);
    if (m.load === 'open') {
      assert.equal(m.concurrency, null, m.id);
      assert.match(m.rate_note, /Poisson/, m.id);
    }
    assert.ok([50, 90, 95, 99].includes(m.percentile), m.id);
    // The statistic of the inter-token latency the row publishes: a median gap is named in what was measured.
    assert.ok(['itl_median', 'tpot_mean'].includes(m.tpot_statistic), m.id);
    if (m.tpot_statistic === 'itl_median') assert.match(m.measured, /itl_median|median inter-token/, m.id);
    assert.ok(m.source.startsWith('https://') && m.measured.length > 40 && m.date, m.id);
    assert.ok(Boolean(m.preset) !== Boolean(m.model), `${m.id}: a preset or a model shape, not both`);
    // A closed loop holds `concurrency` requests, each in flight for TTFT + (output − 1) × ITL: rate × that time
    // ÷ concurrency is 1 up to the gap between the published statistics (p95 TTFT, median ITL). 0.91-1.09 on the
    // rows today; a mistyped figure moves it far outside 0.85-1.15.
    if (m.load === 'open') continue;
    assert.equal(m.load, 'closed', m.id);
    assert.ok(m.concurrency > 1, m.id);
    const little = (m.requests_per_s * (m.ttft_ms + (m.output_tokens - 1) * m.tpot_ms)) / 1000 / m.concurrency;
    assert.ok(little > 0.85 && little < 1.15, `${m.id}: ${little.toFixed(3)}`);
  }
  assert.ok(measurements.some((m) => m.load === 'open'), 'at least one open-loop (Poisson) run');
  assert.equal(new Set(measurements.map((m) => m.id)).size, measurements.length);
});

test('the check is not one vendor\'s: at least two sources, each with predicted rows', () => {
  const sources = bySource(predicted);
  assert.ok(sources.length >= 2, `${sources.length} sources`);
  for (const s of sources) assert.ok(s.n >= 2, `${s.source}: ${s.n}`);
});

test('the rows exercise the queueing term: above the tail share of load the TTFT is more than the prefill', () => {
  const queued = predicted.filter((r) => r.load > 1 - r.m.percentile / 100);
  assert.ok(queued.length >= 10, `${queued.length} rows with a wait`);
  for (const r of queued) assert.ok(r.ttft_ms > r.prefill_ms, r.m.id);
  const a = engine.call('serve', requestFor(queued[0].m));
  assert.ok(a.operating.ttft_ms > a.capacity.prefill_ms);
});

test('a row publishing the median gap between tokens is compared with the step without prefill while under half the steps carry one', () => {
  const median = predicted.filter((r) => r.m.tpot_statistic === 'itl_median');
  assert.ok(median.length >= 10, `${median.length} rows`);
  for (const r of median) {
    assert.ok(r.prefill_step_share > 0 && r.prefill_step_share < 1, r.m.id);
    if (r.prefill_step_share < 0.5) assert.ok(r.tpot_ms < r.mean_tpot_ms, `${r.m.id}: ${r.tpot_ms} vs ${r.mean_tpot_ms}`);
    else assert.ok(r.tpot_ms > r.mean_tpot_ms, r.m.id);
  }
  for (const r of predicted.filter((x) => x.m.tpot_statistic === 'tpot_mean')) assert.equal(r.tpot_ms, r.mean_tpot_ms, r.m.id);
});

// The bounds stated from the result (docs/accuracy.md "Latency under load"): median |error| 54.8 % for TTFT and
// 20.5 % for TPOT on the 39 predicted rows of 46, with the engine's default constants (56.5 % and 29.7 % before the
// prefill shared its steps with the batch and each row was compared with the statistic it publishes). The TTFT miss
// is large and explained there (closed loops send requests in waves, not Poisson); the bounds are just above the
// result, so a model change that makes it worse fails here.
test('median absolute error under load is at most 56 % for TTFT and 22 % for TPOT', () => {
  assert.ok(all.ttft <= 0.56, `TTFT median |error| ${pct(all.ttft)}`);
  assert.ok(all.tpot <= 0.22, `TPOT median |error| ${pct(all.tpot)}`);
});

test('the docs block has its own markers: it is replaced between them and leaves the one-request block alone', () => {
  const latency = `${LATENCY_BEGIN}\nkept\n${LATENCY_END}\n`;
  const block = `${BEGIN}\nnew\n${END}\n`;
  assert.equal(withSection(`# A\n\n${latency}`, block, BEGIN, END), `# A\n\n${latency}\n${block}`);
  assert.equal(withSection(`# A\n\n${latency}${BEGIN}\nold\n${END}\n`, block, BEGIN, END), `# A\n\n${latency}${block}`);
});
