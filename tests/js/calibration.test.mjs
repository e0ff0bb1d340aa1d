// Calibration on the user's measurement from the command line (--measured FILE or a typed short form on estimate,
// rank and compare; the `measured` command) in both languages, and the engine's calibration bands against the
// script that derives them from data/measurements.json (calibrationBands, scripts/accuracy.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, cli, tmpFile } from './helpers.mjs';
import { evaluate, crossValidate, calibrationBands } from '../../scripts/accuracy.mjs';

const engine = await loadEngine();

// What the probe script prints on an 8× A100 80GB node (web/src/tools/probescript.js: the result dict).
const probeLine = (tokensPerS) => JSON.stringify({
  gpuvalue_probe: 1, preset: 'llama2-7b-pretrain', kind: 'transformer', mode: 'pretrain', gpu_name: 'NVIDIA A100-SXM4-80GB',
  gpu_memory_gb: 85.1, gpu_count: 8, precision: 'bf16', tokens_per_s: tokensPerS, step_s: 1.31, peak_memory_gb: 61.2,
  torch: '2.4.1+cu121', cuda: '12.1',
});

const predicted = engine.estimate({ preset: 'llama2-7b-pretrain', gpu: 'a100-sxm4-80gb', count: 8 }).throughput.tokens_per_s;

test('the engine\'s calibration bands are the ones data/measurements.json gives', () => {
  const bands = calibrationBands(crossValidate(evaluate(engine)));
  const c = engine.defaults().constants;
  const names = { measured: 'measured', same_gpu: 'same_gpu', same_architecture: 'same_arch', other_architecture: 'other_arch' };
  for (const [distance, name] of Object.entries(names)) {
    assert.ok(bands[distance].pairs >= 20, `${distance}: ${bands[distance].pairs} pairs`);
    assert.equal(c[`calib_${name}_low`], bands[distance].low, distance);
    assert.equal(c[`calib_${name}_high`], bands[distance].high, distance);
  }
  // Wider with distance.
  assert.ok(bands.same_gpu.high - bands.same_gpu.low < bands.same_architecture.high - bands.same_architecture.low);
  assert.ok(bands.same_architecture.high - bands.same_architecture.low < bands.other_architecture.high - bands.other_architecture.low);
});

test('rank --measured FILE: every row calibrated and marked, the calibration in --json', () => {
  const file = tmpFile('probe.jsonl', `# the trial run\n${probeLine(Math.round(0.82 * predicted))}\n`);
  const r = cli(['rank', '--preset', 'llama2-7b-pretrain', '--measured', file, '--limit', '30', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const a = JSON.parse(r.stdout);
  assert.equal(a.calibration.measurements.length, 1);
  assert.equal(a.calibration.measurements[0].gpu, 'a100-sxm4-80gb');
  assert.ok(Math.abs(a.calibration.measurements[0].measured / predicted - 0.82) < 1e-3);
  assert.ok(a.calibration.factor < 0.82, `a factor on the compute term moves more than the rate: ${a.calibration.factor}`);
  assert.ok(a.results.length > 0);
  for (const x of a.results) assert.ok(['measured', 'same_gpu', 'same_architecture', 'other_architecture'].includes(x.calibrated.distance), x.id);
  const plain = JSON.parse(cli(['rank', '--preset', 'llama2-7b-pretrain', '--limit', '30', '--json']).stdout);
  const a100 = (list) => list.find((x) => x.gpu === 'a100-sxm4-80gb' && x.total_gpus === 8 && x.pricing === 'on_demand');
  const [before, after] = [a100(plain.results), a100(a.results)];
  if (before && after) assert.ok(after.time_hours > before.time_hours * 1.15, `${before.time_hours} → ${after.time_hours}`);
});

const MARKS = { en: ['calibrated', /(measured|same GPU|same arch\.|other arch\.)/], zh: ['校准', /(实测|同型号|同架构|其他架构)/] };
for (const [lang, line] of [['en', /calibrated on your run: [\d,]+ tokens\/s on 8 × NVIDIA A100 80GB SXM4, 0\.\d\d× the model's prediction/],
  ['zh', /已按你的实测校准：8 × NVIDIA A100 80GB SXM4 上 [\d,]+ token\/秒，为模型预测的 0\.\d\d×/]]) {
  test(`rank --measured "… tokens/s on a100-sxm4-80gb x8" says what it was calibrated on (${lang})`, () => {
    const typed = `${Math.round(0.9 * predicted)} tokens/s on a100-sxm4-80gb x8`;
    const r = cli(['rank', '--preset', 'llama2-7b-pretrain', '--measured', typed, '--limit', '40', '--lang', lang]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, line);
    // A column of marks: every row says how near its measurement is.
    const lines = r.stdout.split('\n');
    const header = lines.findIndex((l) => l.startsWith(' #'));
    const [title, mark] = MARKS[lang];
    assert.ok(lines[header].includes(title), lines[header]);
    const rows = lines.slice(header + 2).filter((l) => /^\s*(\d+|-)\s/.test(l));
    assert.ok(rows.length >= 10, r.stdout);
    for (const row of rows) assert.match(row, mark);
  });
}

test('estimate and compare take --measured; several measurements show their spread', () => {
  const typed = [`${Math.round(0.9 * predicted)} tokens/s on a100-sxm4-80gb x8`];
  const h100 = engine.estimate({ preset: 'llama2-7b-pretrain', gpu: 'h100-sxm5-80gb', count: 8 }).throughput.tokens_per_s;
  typed.push(`${Math.round(1.1 * h100)} tok/s on h100-sxm5-80gb ×8`);
  const est = cli(['estimate', '--preset', 'llama2-7b-pretrain', '--gpu', 'h100-sxm5-80gb', '--count', '8', ...typed.flatMap((t) => ['--measured', t]), '--json']);
  assert.equal(est.code, 0, est.stderr);
  const e = JSON.parse(est.stdout);
  assert.equal(e.calibrated.distance, 'measured');
  assert.equal(e.calibrated.measurement, 1);
  assert.ok(e.calibration.spread > 1.1, e.calibration.spread);
  const text = cli(['estimate', '--preset', 'llama2-7b-pretrain', '--gpu', 'l4', ...typed.flatMap((t) => ['--measured', t]), '--lang', 'en']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /the measurements disagree by 1\.\d\d×/);
  assert.match(text.stdout, /calibrated\s+other arch\./);
  const cmp = cli(['compare', '--preset', 'llama2-7b-pretrain', '--config', 'a100-sxm4-80gb:8', '--config', 'h100-sxm5-80gb:8', '--measured', typed[0], '--json']);
  assert.equal(cmp.code, 0, cmp.stderr);
  const c = JSON.parse(cmp.stdout);
  assert.deepEqual(c.configs.map((x) => x.calibrated.distance), ['measured', 'other_architecture']);
  assert.ok(c.calibration.measurements[0].factor < 1);
});

for (const lang of ['en', 'zh']) {
  test(`--measured with an unknown GPU or a bad line exits 1 saying where (${lang})`, () => {
    const r = cli(['rank', '--preset', 'llama2-7b-pretrain', '--measured', '3150 tokens/s on z9000 x8', '--lang', lang]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, lang === 'en' ? /--measured "3150 tokens\/s on z9000 x8": column 18: unknown GPU id "z9000"/ : /--measured “3150 tokens\/s on z9000 x8”: column 18: 未知的 GPU 编号“z9000”/);
    const file = tmpFile('probe.jsonl', `${probeLine(3000)}\n${probeLine(3000).replace('NVIDIA A100-SXM4-80GB', 'NVIDIA Z9000')}\n`);
    const f = cli(['estimate', '--preset', 'llama2-7b-pretrain', '--gpu', 'l4', '--measured', file, '--lang', lang]);
    assert.equal(f.code, 1);
    assert.match(f.stderr, lang === 'en' ? /probe\.jsonl line 2: \/gpu_name: unknown GPU id "NVIDIA Z9000"/ : /probe\.jsonl 第 2 行: \/gpu_name: 未知的 GPU 编号“NVIDIA Z9000”/);
  });
}

test('a measurement faster than the GPUs can run is refused at its rate', () => {
  const r = cli(['rank', '--preset', 'llama2-7b-pretrain', '--measured', '9e9 tokens/s on a100-sxm4-80gb x8', '--lang', 'en']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--measured "9e9 tokens\/s on a100-sxm4-80gb x8": \/measurements\/0\/tokens_per_s: .*more than 8 × NVIDIA A100 80GB SXM4 can do at its datasheet peak/);
});

test('--measured is refused where it means nothing: cost, and rank with a serving preset', () => {
  assert.equal(cli(['cost', '--instance', 'p3.2xlarge', '--hours', '1', '--measured', 'x']).code, 2);
  const s = cli(['rank', '--preset', 'llama3.1-8b', '--measured', '3150 tokens/s on a100-sxm4-80gb x8', '--lang', 'en']);
  assert.equal(s.code, 2);
  assert.match(s.stderr, /--measured/);
});

test('gpuvalue measured lists the measurements as the engine reads them', () => {
  const file = tmpFile('probe.jsonl', `${probeLine(3150.5)}\n`);
  const r = cli(['measured', file, '412 img/s on NVIDIA L4', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const a = JSON.parse(r.stdout);
  assert.deepEqual(a.measurements.map((m) => [m.gpu, m.count, m.source]), [['a100-sxm4-80gb', 8, 'probe'], ['l4', 1, 'typed']]);
  assert.equal(a.measurements[1].samples_per_s, 412);
  const zh = cli(['measured', '412 img/s on NVIDIA L4', '--lang', 'zh']);
  assert.equal(zh.code, 0, zh.stderr);
  assert.match(zh.stdout, /1 × NVIDIA L4 上 412 样本\/秒（手动输入）/);
});
