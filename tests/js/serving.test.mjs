// The serve method through the real wasm engine, with the real serving presets and catalog: capacity under
// latency targets, replicas for a traffic, $ per million tokens on real offers, and errors with their paths.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { dataBundle } from '../../scripts/build-web.mjs';
import { root } from './helpers.mjs';

const engine = await loadEngine();
engine.call('loadServingPresets', JSON.stringify(dataBundle(root).serving_presets));
const serve = (request) => engine.tryCall('serve', request);

test('the serving presets load and list every model the issue names', () => {
  const ids = engine.call('servingPresets').presets.map((p) => p.id);
  for (const id of ['llama3.1-8b', 'llama3.1-70b', 'llama3.1-405b', 'qwen2.5-7b', 'qwen2.5-72b', 'qwen3-32b', 'deepseek-v3', 'llama3.2-3b'])
    assert.ok(ids.includes(id), id);
});

test('70B on an 8x H100 offer meets 2 s TTFT and 100 ms TPOT at 20 requests/s, with $ per million tokens', () => {
  const a = serve({ preset: 'llama3.1-70b', offer: 'aws-p5.48xlarge-us-east-1', count: 4,
    traffic: { requests_per_s: 20, input_tokens: 1000, output_tokens: 300 }, targets: { ttft_ms: 2000, tpot_ms: 100 } });
  assert.equal(a.ok, true, JSON.stringify(a.error));
  assert.equal(a.targets.met, true);
  assert.ok(a.operating.ttft_ms <= 2000 && a.operating.tpot_ms <= 100, JSON.stringify(a.operating));
  assert.ok(a.operating.replicas * a.capacity.sustainable_requests_per_s >= 20 - 1e-9);
  // A step is its parts: weight reading and GEMM math (not overlapped by default), attention, all-reduces.
  const cap = a.capacity;
  const parts = cap.step_memory_ms + cap.step_compute_ms + cap.step_attention_ms + cap.step_allreduce_ms;
  assert.ok(Math.abs(cap.tpot_ms - parts) < 1e-9 * cap.tpot_ms, `${cap.tpot_ms} vs ${parts}`);
  const c = a.cost;
  assert.equal(c.replicas_per_instance, 2);
  assert.equal(c.instances, Math.ceil(a.operating.replicas / 2));
  assert.ok(Math.abs(c.usd_per_hour - c.instances * c.offer.usd_per_hour) < 1e-9);
  assert.ok(Math.abs(c.monthly_usd - c.usd_per_hour * 730) < 1e-6);
  // The blended price times the tokens served is the hourly cost; input and output split it.
  const tokensPerHour = 20 * 3600 * (1000 + 300);
  assert.ok(Math.abs(c.usd_per_million_blended * tokensPerHour / 1e6 - c.usd_per_hour) < 1e-6 * c.usd_per_hour);
  const split = (c.usd_per_million_input * 20 * 3600 * 1000 + c.usd_per_million_output * 20 * 3600 * 300) / 1e6;
  assert.ok(Math.abs(split - c.usd_per_hour) < 1e-6 * c.usd_per_hour);
  assert.ok(c.usd_per_million_output_low < c.usd_per_million_output && c.usd_per_million_output < c.usd_per_million_output_high);
});

test('at low load an 8B model costs less per million tokens on one L4 than on a node of eight H100s', () => {
  const traffic = { requests_per_s: 0.5, input_tokens: 500, output_tokens: 200 };
  const l4 = serve({ preset: 'llama3.1-8b', offer: 'aws-g6.xlarge-us-east-1', traffic, targets: { tpot_ms: 100 } });
  const h100 = serve({ preset: 'llama3.1-8b', offer: 'aws-p5.48xlarge-us-east-1', count: 1, traffic, targets: { tpot_ms: 100 } });
  assert.equal(l4.ok, true, JSON.stringify(l4.error));
  assert.equal(l4.targets.met, true);
  assert.ok(l4.cost.usd_per_million_blended < h100.cost.usd_per_million_blended, `${l4.cost.usd_per_million_blended} vs ${h100.cost.usd_per_million_blended}`);
});

test('405B in bf16 does not fit a node of H100s and says what would; in fp8 it fits', () => {
  const bf16 = serve({ preset: 'llama3.1-405b', weights: 'bf16', gpu: 'h100-sxm5-80gb', count: 8 });
  assert.equal(bf16.ok, true);
  assert.equal(bf16.memory.fits, false);
  assert.equal(bf16.capacity, null);
  assert.deepEqual(bf16.hints.map((h) => h.code), ['serve.hint_more_gpus', 'serve.hint_precision']);
  const fp8 = serve({ preset: 'llama3.1-405b', gpu: 'h100-sxm5-80gb', count: 8 });
  assert.equal(fp8.weights, 'fp8');
  assert.equal(fp8.memory.fits, true);
});

test('decode of one request speeds up by the bandwidth ratio from H100 to H200, not by compute', () => {
  const one = (gpu) => serve({ preset: 'llama3.1-8b', gpu, traffic: { input_tokens: 100, output_tokens: 1000 }, targets: { tpot_ms: 0.001 } });
  const h100 = one('h100-sxm5-80gb'), h200 = one('h200-sxm-141gb');
  // A TPOT target nothing meets leaves batch 1: the step is the weights (and a small KV cache) read from HBM.
  assert.equal(h100.capacity.batch, 1);
  assert.equal(h100.targets.tpot_met, false);
  const ratio = h100.capacity.tpot_ms / h200.capacity.tpot_ms;
  assert.ok(ratio > 1.3 && ratio < 4800 / 3350 + 1e-9, `H200/H100 batch-1 speed-up ${ratio}`);
});

test('bad requests are refused with the JSON Pointer path of the value', () => {
  const cases = [
    [{ preset: 'llama3.1-70b', gpu: 'h100-sxm5-80gb', traffic: { input_tokens: -5 } }, '/traffic/input_tokens', 'error.number_out_of_range'],
    [{ preset: 'nope', gpu: 'h100-sxm5-80gb' }, '/preset', 'error.unknown_serving_preset'],
    [{ preset: 'llama3.1-70b' }, '/gpu', 'error.serve_gpu_or_offer'],
    [{ preset: 'llama3.1-70b', offer: 'aws-g6.xlarge-us-east-1', count: 2 }, '/count', 'error.count_exceeds_instance'],
    [{ preset: 'llama3.1-70b', gpu: 'l4', weights: 'fp3' }, '/weights', 'error.not_one_of'],
    [{ preset: 'llama3.1-70b', gpu: 'l4', traffic: { requests_per_s: 1, tokens_per_day: 1e9 } }, '/traffic/tokens_per_day', 'error.traffic_rate_twice'],
    [{ model: { params: 1e9, layers: 2, hidden: 64, heads: 4, experts: 8, experts_per_token: 8 }, gpu: 'l4' }, '/model/experts_per_token', 'error.experts_per_token'],
  ];
  for (const [request, path, code] of cases) {
    const a = serve(request);
    assert.equal(a.ok, false, JSON.stringify(request));
    assert.equal(a.error.path, path, JSON.stringify(a.error));
    assert.equal(a.error.message.code, code);
  }
});
