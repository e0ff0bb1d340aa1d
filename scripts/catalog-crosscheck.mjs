#!/usr/bin/env node
// Cross-checks a sample of the bundled catalog's rows against copies that did not come through the same file:
//
// 1. Resold machines: Prime Intellect, Spheron and Shadeform resell the machines of Hyperstack, Lambda, DataCrunch
//    (Verda), Nebius, Crusoe and Massed Compute, each from its own API. A resold offer and the cloud's own offer of the
//    same machine (same GPU count and vCPUs) must name the same GPU; their prices are listed side by side.
// 2. Provider documentation: facts transcribed below from the providers' pages (URL and date with each) about the
//    GPU of named machines and their list prices.
// 3. Another snapshot: with --snapshot DIR (a folder of SkyPilot-format <cloud>-vms.csv files and a sources.json, as
//    for catalog-update; keep it out of git, e.g. .crosscheck/), the sample rows of each cloud are imported from that
//    copy with the engine's importer and compared (GPU, count, on-demand price within 1 %).
//
//   node scripts/catalog-crosscheck.mjs [--snapshot DIR] [--json]
//
// Prints, per check, the rows checked, the rows agreeing and every difference. Exit code 0 either way: differences
// are findings to read (a resale markup is not an error), not failures; tests/js/catalog-consistency.test.mjs is the
// gate.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const catalogDir = path.join(root, 'data/catalog');
const load = (f) => JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8')).instances;
const onDemand = (o) => (o.prices.find((p) => p.model === 'on_demand') || {}).usd_per_hour;

// Which offers of which file are a given cloud's machines, as the cloud lists them and as resellers do.
const RESOLD = [
  { cloud: 'Hyperstack', own: (f, o) => f === 'hyperstack.json',
    resold: (f, o) => (f === 'primeintellect.json' && o.instance_type.startsWith('hyperstack__')) ||
      (f === 'spheron.json' && /^n3-/.test(o.instance_type)) || o.provider === 'Hyperstack (via Shadeform)' },
  { cloud: 'Lambda', own: (f) => f === 'lambda.json',
    resold: (f, o) => (f === 'primeintellect.json' && o.instance_type.startsWith('lambdalabs__')) || o.provider === 'Lambda (via Shadeform)' },
  { cloud: 'DataCrunch (Verda)', own: (f) => f === 'verda.json',
    resold: (f, o) => (f === 'primeintellect.json' && o.instance_type.startsWith('datacrunch__')) ||
      (f === 'spheron.json' && /^\d[A-Z]+\d+\./.test(o.instance_type)) },
  { cloud: 'Nebius', own: (f) => f === 'nebius.json',
    resold: (f, o) => f === 'primeintellect.json' && o.instance_type.startsWith('nebius__') },
];

// Facts from the providers' own pages. gpu: the GPU id the page implies; usd_per_gpu_hour: its list price.
const DOCS = [
  { match: (o) => o.provider === 'Scaleway (via Shadeform)' && /^scaleway_H100(x2)?$/.test(o.instance_type), gpu: 'h100-pcie-80gb',
    source: 'https://www.scaleway.com/en/docs/gpu/reference-content/choosing-gpu-instance-type/ (H100-1-80G, H100-2-80G: H100 PCIe; SXM machines are H100-SXM-N-80G), page dated 2025-11-04' },
  { match: (o) => o.provider === 'Crusoe (via Shadeform)' && /^crusoe_A100-80GB(x\d)?$/.test(o.instance_type), gpu: 'a100-pcie-80gb', usd_per_gpu_hour: 2.0,
    source: 'https://www.crusoe.ai/cloud/pricing (A100 80GB PCIe $2.00/GPU-h), as transcribed 2026-09-20 in github.com/api-evangelist/crusoe' },
  { match: (o) => o.provider === 'Crusoe (via Shadeform)' && o.instance_type === 'crusoe_A100-80G-sxm4x8', gpu: 'a100-sxm4-80gb', usd_per_gpu_hour: 2.3,
    source: 'https://www.crusoe.ai/cloud/pricing (A100 80GB SXM $2.30/GPU-h), as transcribed 2026-09-20 in github.com/api-evangelist/crusoe' },
  { match: (o) => /^ecs\.gn6e-/.test(o.instance_type), gpu: 'v100-sxm2-32gb',
    source: 'https://www.alibabacloud.com/help/en/ecs/user-guide/gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1 (gn6e: NVIDIA V100, 32 GB)' },
  { match: (o) => /^ecs\.gn6v-/.test(o.instance_type), gpu: 'v100-sxm2-16gb',
    source: 'https://www.alibabacloud.com/help/en/ecs/user-guide/gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1 (gn6v: NVIDIA V100, 16 GB)' },
];

function allOffers() {
  return fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json')).sort()
    .flatMap((f) => load(f).map((o) => ({ ...o, file: f })));
}

// "a100-sxm4-40gb" -> "a100": GPUs of one family differ only in form factor or memory (as in skypilot_hints.cpp).
const family = (id) => /^[^0-9]*[0-9]*/.exec(id)[0];

function resoldCheck(offers) {
  const rows = [];
  for (const r of RESOLD) {
    const own = offers.filter((o) => r.own(o.file, o));
    for (const o of offers.filter((x) => r.resold(x.file, x))) {
      // The cloud's own offer of the same machine: same GPU family, count and vCPUs, the nearest host memory.
      const twin = own.filter((x) => family(x.gpu) === family(o.gpu) && x.gpu_count === o.gpu_count && x.vcpus === o.vcpus)
        .sort((a, b) => Math.abs(a.ram_gb - o.ram_gb) - Math.abs(b.ram_gb - o.ram_gb))[0];
      if (!twin) continue;
      const agree = twin.gpu === o.gpu;
      rows.push({ check: `resold ${r.cloud}`, id: o.id, agree,
        detail: `${o.gpu} x${o.gpu_count} ${onDemand(o)} USD/h vs ${r.cloud}'s ${twin.instance_type}: ${twin.gpu} ${onDemand(twin)} USD/h` });
    }
  }
  return rows;
}

function docsCheck(offers) {
  const rows = [];
  for (const o of offers)
    for (const d of DOCS.filter((x) => x.match(o))) {
      const perGpu = onDemand(o) / o.gpu_count;
      const priceOk = d.usd_per_gpu_hour === undefined || Math.abs(perGpu / d.usd_per_gpu_hour - 1) < 0.01;
      rows.push({ check: 'provider docs', id: o.id, agree: o.gpu === d.gpu && priceOk,
        detail: `${o.gpu} ${perGpu.toFixed(4)} USD/GPU-h; docs: ${d.gpu}${d.usd_per_gpu_hour !== undefined ? ` ${d.usd_per_gpu_hour} USD/GPU-h` : ''} (${d.source})` });
    }
  return rows;
}

async function snapshotCheck(offers, dir) {
  const { createEngine } = await import('../web/src/engine/client.js');
  const { CLOUDS } = await import('./catalog-clouds.mjs');
  const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
  const factory = createRequire(import.meta.url)(path.join(root, 'dist/engine/gpuvalue_engine.cjs'));
  const engine = await createEngine(factory, { gpus: read('data/gpus.json'), presets: read('data/presets.json'), catalogs: [] });
  const sources = JSON.parse(fs.readFileSync(path.join(dir, 'sources.json'), 'utf8')).files;
  const rows = [];
  for (const [cloud, s] of Object.entries(sources)) {
    const target = CLOUDS[cloud];
    const r = engine.importSkypilot(fs.readFileSync(path.join(dir, s.file), 'utf8'), { provider: target.provider, as_of: s.read_on || s.as_of });
    for (const x of r.ok ? r.catalog.instances : []) {
      const o = offers.find((y) => y.file === target.file && y.instance_type === x.instance_type && y.region === x.region);
      if (!o) continue;
      const a = onDemand(o), b = x.prices[0].usd_per_hour;
      rows.push({ check: `snapshot ${cloud}@${s.commit.slice(0, 8)}`, id: o.id,
        agree: o.gpu === x.gpu && o.gpu_count === x.gpu_count && Math.abs(a / b - 1) < 0.01,
        detail: `bundled ${o.gpu} x${o.gpu_count} ${a} USD/h; snapshot ${x.gpu} x${x.gpu_count} ${b} USD/h` });
    }
  }
  return rows;
}

async function main() {
  const args = process.argv.slice(2);
  const snap = args.includes('--snapshot') ? args[args.indexOf('--snapshot') + 1] : null;
  const offers = allOffers();
  const rows = [...resoldCheck(offers), ...docsCheck(offers), ...(snap ? await snapshotCheck(offers, path.resolve(snap)) : [])];
  if (args.includes('--json')) {
    console.log(JSON.stringify(rows, null, 1));
    return;
  }
  const byCheck = new Map();
  for (const r of rows) {
    if (!byCheck.has(r.check)) byCheck.set(r.check, []);
    byCheck.get(r.check).push(r);
  }
  for (const [check, list] of byCheck) {
    console.log(`${check}: ${list.length} rows checked, ${list.filter((r) => r.agree).length} agree`);
    for (const r of list.filter((x) => !x.agree)) console.log(`  differs  ${r.id}: ${r.detail}`);
  }
  console.log(`all: ${rows.length} rows checked, ${rows.filter((r) => r.agree).length} agree`);
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
