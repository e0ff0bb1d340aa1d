#!/usr/bin/env node
// Golden answers: a fixed set of CLI calls whose JSON answers are kept under tests/golden/ and compared by
// tests/js/golden.test.mjs. `npm run golden:update` rewrites them; review the diff before committing it.
// Every call runs with GPUVALUE_TODAY fixed, so that staleness flags do not change with the clock.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const goldenDir = path.join(root, 'tests/golden');
export const GOLDEN_TODAY = '2026-12-01';

const sky = (f) => `tests/fixtures/skypilot/${f}`;

// name -> CLI arguments. JSON commands carry --json; `import skypilot` writes its catalog as JSON anyway.
export const CALLS = {
  'rank-resnet50': ['rank', '--preset', 'resnet50-imagenet', '--json', '--limit', '12'],
  'rank-llama2-7b-on-demand': ['rank', '--preset', 'llama2-7b-pretrain', '--pricing', 'on_demand', '--json', '--limit', '12'],
  'rank-llama2-70b-lora-deadline': ['rank', '--preset', 'llama2-70b-lora', '--deadline', '24', '--json', '--limit', '12'],
  'rank-gpt3-175b-on-demand': ['rank', '--preset', 'gpt3-175b', '--pricing', 'on_demand', '--json', '--limit', '8'],
  'rank-resnet50-spot-fits-budget': ['rank', '--preset', 'resnet50-imagenet', '--pricing', 'spot', '--fits-only', '--budget', '100', '--json'],
  'estimate-llama2-7b-h100x8': ['estimate', '--preset', 'llama2-7b-pretrain', '--gpu', 'h100-sxm5-80gb', '--count', '8', '--json'],
  'estimate-bert-v100x1-fp32': ['estimate', '--preset', 'bert-large-squad', '--gpu', 'v100-sxm2-16gb', '--count', '1', '--precision', 'fp32', '--json'],
  'estimate-gpt3-a100x1024': ['estimate', '--preset', 'gpt3-175b', '--gpu', 'a100-sxm4-80gb', '--count', '1024', '--json'],
  'cost-gn10-tiered': ['cost', '--instance', 'GN10', '--hours', '150', '--pricing', 'tiered', '--json'],
  'cost-p3-on-demand': ['cost', '--instance', 'aws-p3.2xlarge-us-east-1', '--hours', '10.5', '--json'],
  'cost-a2-spot-2-nodes': ['cost', '--instance', 'gcp-a2-highgpu-8g-us-central1', '--hours', '100', '--pricing', 'spot', '--nodes', '2', '--json'],
  'error-cost-no-spot-price': ['cost', '--instance', 'aws-p3.16xlarge-us-east-1', '--hours', '100', '--pricing', 'spot', '--json'],
  'advise-7b-tuning': ['advise', '--params', '7e9', '--stage', 'tuning', '--json'],
  'advise-13b-production': ['advise', '--params', '13e9', '--stage', 'production', '--json'],
  'advise-70b-lora-deadline': ['advise', '--params', '70e9', '--mode', 'lora', '--tokens', '2e8', '--deadline', '48', '--json'],
  'advise-llama2-7b-preset-tuning': ['advise', '--preset', 'llama2-7b-pretrain', '--stage', 'tuning', '--json'],
  'plan-article': ['plan', '--example', 'article', '--json'],
  'mig-a100-7x8gb': ['mig', '--gpu', 'a100-sxm4-80gb', '--jobs', '7x8gb', '--json'],
  'mig-h100-mixed': ['mig', '--gpu', 'h100-sxm5-80gb', '--jobs', '3x20gb,2x5gb@4h', '--json'],
  'levers-resnet50-p3': ['levers', '--preset', 'resnet50-imagenet', '--instance', 'aws-p3.2xlarge-us-east-1', '--precision', 'fp32', '--json'],
  'compare-yolov7': ['compare', '--preset', 'yolov7-coco', '--config', 'a100-sxm4-80gb:8', '--config', 'v100-sxm2-16gb:4', '--json'],
  'energy-a100x8-100h': ['energy', '--gpu', 'a100-sxm4-40gb', '--count', '8', '--hours', '100', '--json'],
  'energy-preset-liquid': ['energy', '--gpu', 'h100-sxm5-80gb', '--count', '8', '--preset', 'llama2-7b-pretrain', '--cooling', 'liquid', '--json'],
  'tco-a100x8': ['tco', '--gpu', 'a100-sxm4-40gb', '--count', '8', '--hours', '100', '--json'],
  'import-skypilot-aws': ['import', 'skypilot', sky('aws-vms.csv'), '--provider', 'AWS', '--as-of', '2026-11-01'],
  'import-skypilot-gcp': ['import', 'skypilot', sky('gcp-vms.csv'), '--provider', 'Google Cloud', '--as-of', '2026-11-01'],
  'import-skypilot-lambda': ['import', 'skypilot', sky('lambda-vms.csv'), '--provider', 'Lambda', '--as-of', '2026-11-01'],
  'error-unknown-preset': ['rank', '--preset', 'no-such-preset', '--json'],
  'error-estimate-unknown-gpu': ['estimate', '--preset', 'resnet50-imagenet', '--gpu', 'no-such-gpu', '--count', '1', '--json'],
  'serve-70b-p4d-reserved': ['serve', '--preset', 'llama3.1-70b', '--offer', 'aws-p4d.24xlarge-us-east-1', '--count', '8', '--rps', '10', '--ttft-ms', '2000',
    '--tpot-ms', '100', '--pricing', 'reserved', '--json'],
  'serve-rank-8b-spot': ['rank', '--preset', 'llama3.1-8b', '--rps', '1', '--ttft-ms', '1000', '--tpot-ms', '50', '--pricing', 'spot', '--limit', '8', '--json'],
  'error-serve-no-reserved-price': ['serve', '--preset', 'llama3.1-70b', '--offer', 'aws-p5.48xlarge-us-east-1', '--pricing', 'reserved', '--json'],
};

// Runs one call: { args, exit, answer } where answer is the parsed JSON of stdout, or for a failing call the
// first line of stderr (the message with its path).
export function runCall(args) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/gpuvalue.mjs'), ...args], {
    cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, GPUVALUE_TODAY: GOLDEN_TODAY, LANG: 'C' },
  });
  if (r.status === 0) return { args, exit: 0, answer: JSON.parse(r.stdout) };
  return { args, exit: r.status, answer: r.stderr.split('\n')[0] };
}

export const goldenFile = (name) => path.join(goldenDir, `${name}.json`);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--update')) {
    console.error('usage: node scripts/golden.mjs --update   (npm run golden:update)');
    process.exit(2);
  }
  fs.mkdirSync(goldenDir, { recursive: true });
  const keep = new Set(Object.keys(CALLS).map((n) => `${n}.json`));
  for (const f of fs.readdirSync(goldenDir)) if (f.endsWith('.json') && !keep.has(f)) fs.rmSync(path.join(goldenDir, f));
  for (const [name, args] of Object.entries(CALLS)) {
    const g = runCall(args);
    fs.writeFileSync(goldenFile(name), `${JSON.stringify(g, null, 1)}\n`);
    console.log(`golden: ${name} (exit ${g.exit})`);
  }
}
