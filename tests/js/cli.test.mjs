// The CLI's stable JSON contract and exit codes, over the real wasm module and data files.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cli, tmpFile } from './helpers.mjs';

test('estimate --json has time, throughput, memory and warnings', () => {
  const r = cli(['estimate', '--preset', 'llama2-7b-pretrain', '--gpu', 'h100-sxm5-80gb', '--count', '8', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.ok(j.time_hours > 0);
  for (const k of ['samples_per_s', 'tokens_per_s', 'effective_tflops_per_gpu']) assert.ok(j.throughput[k] > 0, k);
  for (const k of ['required_gb_per_gpu', 'available_gb_per_gpu']) assert.ok(j.memory[k] > 0, k);
  assert.equal(typeof j.memory.fits, 'boolean');
  assert.ok(Array.isArray(j.warnings));
});

test('rank --json lists results best first with the contract keys', () => {
  const r = cli(['rank', '--preset', 'gpt3-175b', '--pricing', 'on_demand', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.ok(j.results.length > 10);
  for (const k of ['instance', 'provider', 'gpu', 'gpu_count', 'pricing', 'fits', 'time_hours', 'cost_usd', 'usd_per_tflops_day', 'score', 'warnings'])
    assert.ok(k in j.results[0], k);
  const fitting = j.results.filter((x) => x.fits);
  assert.ok(fitting.length >= 1);
  for (const x of fitting) assert.ok(x.total_gpus > 1, x.instance);
  assert.ok(j.results.some((x) => x.instance === 'p4d.24xlarge'));
});

test('cost --json for GN10 tiered 150 h is 1160', () => {
  const r = cli(['cost', '--instance', 'GN10', '--hours', '150', '--pricing', 'tiered', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual([j.instance, j.pricing, j.hours, j.cost_usd], ['GN10', 'tiered', 150, 1160]);
  assert.ok(j.usd_per_tflops_day > 0);
});

test('validate passes the shipped data and fails a broken catalog with paths (exit 1)', () => {
  const ok = cli(['validate', 'data/gpus.json', 'data/catalog/aws.json', 'data/catalog/article-examples.json']);
  assert.equal(ok.code, 0, ok.stderr);
  const bad = tmpFile('bad.json', JSON.stringify({ instances: [{ id: 'a', provider: 'P', instance_type: 'x', gpu: 'h100', gpu_count: 8, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: -1, as_of: '2026-01-01', source: 's' }] }] }));
  const r = cli(['validate', bad]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /\/instances\/0\/prices\/0\/usd_per_hour: must be a finite number >= 0.001/);
});

test('bad input exits 1 with a message on stderr, never a signal', () => {
  const cases = [
    ['estimate', '--preset', 'gpt3-175b', '--gpu', 'x100', '--count', '8'],
    ['rank', '--preset', 'no-such-preset'],
    ['cost', '--instance', 'nope', '--hours', '1'],
  ];
  for (const args of cases) {
    const r = cli(args);
    assert.equal(r.signal, null);
    assert.equal(r.code, 1, args.join(' '));
    assert.ok(r.stderr.length > 0);
  }
  const w = tmpFile('w.json', '{"kind": "transformer", "params": 1e9,');
  const r = cli(['estimate', '--workload', w, '--gpu', 'h100', '--count', '1']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /not valid JSON/);
});

test('usage errors exit 2', () => {
  assert.equal(cli(['frobnicate']).code, 2);
  assert.equal(cli(['cost', '--instance', 'GN7', '--hours', 'many']).code, 2);
  assert.equal(cli([]).code, 2);
});

test('import skypilot writes our catalog and reports skipped lines', () => {
  const csv = tmpFile('vms.csv', 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n'
    + 'p3.2xlarge,V100,1.0,8.0,61.0,"{\'Gpus\': [{\'Name\': \'V100\', \'Manufacturer\': \'NVIDIA\', \'Count\': 1, \'MemoryInfo\': {\'SizeInMiB\': 16384}}], \'TotalGpuMemoryInMiB\': 16384}",3.06,0.5197,us-east-1,use1-az1\n'
    + 'dl1.24xlarge,Gaudi,8.0,96.0,768.0,,13.1,,us-east-1,use1-az1\n');
  const r = cli(['import', 'skypilot', csv, '--provider', 'AWS']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.instances.length, 1);
  assert.equal(j.instances[0].instance_type, 'p3.2xlarge');
  assert.match(r.stderr, /line 3: "Gaudi" is an Intel Gaudi accelerator, not a GPU/);
  // The imported file ranks through --catalog, with the provider's own instance names.
  const out = tmpFile('offers.json', r.stdout);
  const rank = cli(['rank', '--preset', 'resnet50-imagenet', '--catalog', out, '--json']);
  assert.equal(rank.code, 0, rank.stderr);
  assert.equal(JSON.parse(rank.stdout).results[0].instance, 'p3.2xlarge');
});

test('import skypilot refuses a file over the engine\'s row limit at once, saying where and what to do', () => {
  const head = 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n';
  const rows = [];
  for (let i = 0; i < 200_001; ++i) rows.push(`p${i}.x,V100,1.0,8.0,61.0,,3.06,,region-${i % 50},a\n`);
  const file = tmpFile('too-many-rows.csv', head + rows.join(''));
  const r = cli(['import', 'skypilot', file, '--provider', 'X']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /line 200002: the file has 200001 rows; the engine imports at most 200000 rows at a time: split the file/);
  assert.doesNotMatch(r.stderr, /internal error|bad_alloc/);
  assert.equal(r.stdout, '');
});
