// The built wasm module, driven through the same loader the page uses.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { GpuvalueError } from '../../web/src/engine/client.js';

const engine = await loadEngine();

test('GN7 on-demand unit cost is 3.2 x 24 / (2 x 125) = 0.3072 $/TFLOPS·day', () => {
  const r = engine.cost({ instance: 'GN7', hours: 1, pricing: 'on_demand' });
  assert.ok(Math.abs(r.usd_per_tflops_day - 0.3072) < 1e-9, String(r.usd_per_tflops_day));
});

test('GN10 tiered for 150 h costs 100 x 8.5 + 50 x 6.2 = $1160', () => {
  const r = engine.cost({ instance: 'GN10', hours: 150, pricing: 'tiered' });
  assert.equal(r.cost_usd, 1160);
});

test('rank returns plain objects, fitting results first, with reasons', () => {
  const r = engine.rank({ preset: 'resnet50-imagenet', limit: 20 });
  assert.equal(r.results.length, 20);
  const top = r.results[0];
  assert.equal(top.fits, true);
  assert.ok(top.cost_usd > 0 && top.time_hours > 0);
  assert.ok(Array.isArray(top.reasons) && top.reasons.length > 0);
  assert.equal(typeof top.instance, 'string');
});

test('GPT-3 on 1024 A100 80GB takes about a month (Megatron-LM: ~34 days)', () => {
  const r = engine.estimate({ preset: 'gpt3-175b', gpu: 'a100-sxm4-80gb', count: 1024 });
  const days = r.time_hours / 24;
  assert.ok(days > 20 && days < 45, `${days} days`);
  assert.equal(r.memory.fits, true);
});

test('engine errors become GpuvalueError with code and JSON Pointer path', () => {
  assert.throws(() => engine.estimate({ preset: 'gpt3-175b', gpu: 'z9', count: 8 }), (e) => {
    assert.ok(e instanceof GpuvalueError);
    assert.equal(e.code, 'unknown_id');
    assert.equal(e.path, '/gpu');
    return true;
  });
  assert.throws(() => engine.rank('{"preset": '), (e) => e instanceof GpuvalueError && e.code === 'json_syntax');
});

test('a bad catalog load reports every problem and keeps the previous catalog', () => {
  const before = engine.catalogSummary().length;
  const r = engine.loadCatalog(JSON.stringify({ instances: [{ id: 'x', provider: 'P', instance_type: 't', gpu: 'nope', gpu_count: 0, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: Number.NaN, as_of: '2026-01-01', source: 's' }] }] }));
  assert.equal(r.ok, false);
  const paths = r.issues.map((i) => i.path);
  assert.ok(paths.includes('/instances/0/gpu'), paths.join());
  assert.ok(paths.includes('/instances/0/gpu_count'), paths.join());
  assert.ok(paths.includes('/instances/0/prices/0/usd_per_hour'), paths.join());
  assert.equal(engine.catalogSummary().length, before);
});

test('SkyPilot import through the module returns our catalog format', () => {
  const csv = 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n'
    + 'gpu_8x_a100,A100,8.0,124.0,1800.0,10.32,us-east-1,"{\'Gpus\': [{\'Name\': \'A100\', \'Manufacturer\': \'NVIDIA\', \'Count\': 8.0, \'MemoryInfo\': {\'SizeInMiB\': 40960}}], \'TotalGpuMemoryInMiB\': 40960}",\n';
  const r = engine.importSkypilot(csv, { provider: 'Lambda', as_of: '2026-11-01' });
  assert.equal(r.ok, true);
  assert.equal(r.catalog.instances[0].gpu, 'a100-sxm4-40gb');
  assert.equal(r.catalog.instances[0].gpu_count, 8);
  const added = engine.addCatalog(JSON.stringify(r.catalog));
  assert.equal(added.ok, true, JSON.stringify(added.issues));
});

test('defaults come from C++ and include every model constant with the spot defaults', () => {
  const d = engine.defaults();
  assert.ok(d.constants.compute_eff_transformer > 0);
  assert.ok(d.spot.interruptions_per_node_hour > 0);
  assert.equal(d.stale_after_days, 180);
});

test('hostile strings pass through as data, unchanged', () => {
  const evil = '<img src=x onerror=alert(1)>';
  const r = engine.loadCatalog(JSON.stringify({ instances: [{ id: 'evil', provider: evil, instance_type: 'javascript:alert(1)', gpu: 't4', gpu_count: 1,
    region: '区域 🌏', prices: [{ model: 'on_demand', usd_per_hour: 1, as_of: '2026-11-01', source: 'javascript:alert(2)' }] }] }));
  assert.equal(r.ok, true);
  const s = engine.catalogSummary();
  assert.equal(s[0].provider, evil);
  assert.equal(s[0].region, '区域 🌏');
});
