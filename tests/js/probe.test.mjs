// The measurement script (gpuvalue probe, web/src/tools/probescript.js): written for every preset from the real
// engine's plan on the trial GPUs, it compiles under Python, its CONFIG line reads back as the workload's shape, and a
// workload no script can stand for is refused with a reason (exit 1, both languages).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadEngine, cli, tmpFile } from './helpers.mjs';
import { probeConfig, probeScript, TORCHVISION_MODELS } from '../../web/src/tools/probescript.js';

const engine = await loadEngine();
const presets = engine.presets();
const fallback = engine.defaults().custom_workloads.transformer;

// Compiles scripts with Python (py_compile), one interpreter for all of them, and returns each CONFIG as Python
// reads it.
function pythonConfigs(scripts) {
  const files = scripts.map((script, i) => tmpFile(`probe-${i}.py`, script));
  const read = spawnSync('python3', ['-c', `import ast, json, py_compile, sys
for f in sys.argv[1:]:
    py_compile.compile(f, doraise=True)
    src = open(f).read()
    line = next(l for l in src.splitlines() if l.startswith("CONFIG = json.loads("))
    print(json.dumps(json.loads(ast.literal_eval(line[len("CONFIG = json.loads("):-1]))))`, ...files], { encoding: 'utf8' });
  assert.equal(read.status, 0, read.stderr);
  const lines = read.stdout.trim().split('\n');
  assert.equal(lines.length, scripts.length, 'one CONFIG per script');
  return lines.map((l) => JSON.parse(l));
}
const pythonConfig = (script) => pythonConfigs([script])[0];

test('every preset gets a script that compiles, whose CONFIG is the workload as the engine plans it', () => {
  const written = [];
  for (const p of presets) {
    // A preset whose own layout needs more GPUs (pipeline stages of 16) is written from its own shape.
    const planned = engine.tryCall('estimate', { preset: p.id, gpu: 'h100-sxm5-80gb', count: 8 });
    const est = planned.ok ? planned : { shape: p.workload, plan: p.workload };
    const config = probeConfig(p.workload, { preset: p.id, shape: est.shape, plan: est.plan, precision: est.precision, fallback });
    if (p.workload.kind === 'cnn' && !TORCHVISION_MODELS[p.id]) {
      assert.equal(config.error.code, 'probe.no_torchvision_model', p.id);
      continue;
    }
    written.push({ id: p.id, config, est });
  }
  const backs = pythonConfigs(written.map((w) => probeScript(w.config)));
  for (const [i, { id, config, est }] of written.entries()) {
    const back = backs[i];
    assert.deepEqual(back, config, id);
    if (config.kind === 'transformer') {
      assert.equal(back.layers, est.shape.layers, id);
      assert.equal(back.kv_heads, est.shape.kv_heads, id);
      assert.equal(back.micro_batch, est.plan.micro_batch || 1, id);
      assert.equal(back.hidden % back.heads, 0, `${id}: heads divide hidden`);
      assert.equal(back.heads % back.kv_heads, 0, `${id}: KV heads divide heads`);
    }
  }
  assert.ok(written.length >= presets.length - 1, `${written.length} of ${presets.length} presets`);
});

test('grouped-query attention, LoRA and experts reach the script', () => {
  const lora = presets.find((p) => p.id === 'llama2-70b-lora');
  const c = probeConfig(lora.workload, { preset: lora.id });
  assert.equal(c.kv_heads, 8);
  assert.equal(c.lora_rank, lora.workload.lora_rank);
  const moe = presets.find((p) => p.workload.experts > 1);
  const m = probeConfig(moe.workload, { preset: moe.id });
  assert.equal(m.experts, moe.workload.experts);
  assert.equal(m.experts_per_token, moe.workload.experts_per_token);
  const own = probeConfig({ kind: 'transformer', mode: 'pretrain', hidden: 4096, heads: 32 }, { fallback });
  assert.equal(own.lora_rank, 0);
  assert.equal(own.seq_len, fallback.seq_len, 'what an own workload leaves out comes from the engine\'s defaults');
});

test('gpuvalue probe writes the script to a file and says how to run it; a CNN without a torchvision model exits 1', () => {
  const out = path.join(path.dirname(tmpFile('x', '')), 'probe.py');
  const r = cli(['probe', '--preset', 'resnet50-imagenet', '--gpu', 'a100-sxm4-80gb', '--count', '8', '--out', out, '--lang', 'en']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /torchrun --nproc_per_node=8 /);
  assert.equal(pythonConfig(fs.readFileSync(out, 'utf8')).model, 'resnet50');
  const j = JSON.parse(cli(['probe', '--preset', 'llama2-7b-pretrain', '--json']).stdout);
  assert.equal(j.run, 'python3 probe.py');
  assert.equal(pythonConfig(j.script).layers, 32);
  for (const [lang, words] of [['en', /no measurement script for yolov7-coco/], ['zh', /无法为 yolov7-coco 生成测量脚本/]]) {
    const bad = cli(['probe', '--preset', 'yolov7-coco', '--lang', lang]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, words);
    assert.equal(bad.stdout, '');
  }
});
