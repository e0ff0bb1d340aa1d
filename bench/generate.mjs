// Seeded synthetic catalogs shaped like real ones (SkyPilot-style: a few hundred instance shapes, each sold in
// many regions, prices that vary by region, most offers with spot, some with reserved).
// Usage: node bench/generate.mjs N [SEED] > catalog.json
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Hourly on-demand USD per GPU, roughly the level of the shipped catalog (data/catalog/*.json).
const GPU_PRICE = { t4: 0.5, l4: 0.8, a10: 1.1, a10g: 1.2, 'v100-sxm2-16gb': 3.0, 'a100-sxm4-40gb': 4.1, 'a100-sxm4-80gb': 5.1,
  'a100-pcie-80gb': 3.7, 'h100-sxm5-80gb': 9.8, 'h100-pcie-80gb': 7.5, 'h200-sxm-141gb': 10.6, l40s: 1.9, b200: 14.0, mi300x: 6.0 };

export function generateCatalog(n, seed = 42) {
  const rnd = mulberry32(seed);
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const gpus = Object.keys(GPU_PRICE);
  const providers = ['AWS', 'Google Cloud', 'Azure', 'Oracle', 'Lambda', 'RunPod', 'Alibaba Cloud', 'Tencent Cloud'];
  const regions = ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-northeast-1', 'ap-southeast-1', 'cn-hangzhou', 'cn-beijing',
    'us-central1', 'europe-west4', 'asia-east1', 'eastus', 'westeurope', 'ap-guangzhou', 'sa-east-1', 'me-central-1'];
  const shapes = [];
  for (let i = 0; i < 300; i++) {
    const gpu = pick(gpus);
    const count = pick([1, 1, 2, 4, 8, 8]);
    const big = count >= 8 && /a100|h100|h200|b200|mi300x/.test(gpu);
    shapes.push({ gpu, count, provider: pick(providers), type: `syn${i}.${count}x${gpu}`, rdma: big && rnd() < 0.8,
      network_gbps: big ? pick([400, 800, 1600, 3200]) : pick([10, 25, 50, 100]), interconnect: count > 1 ? (/sxm|b200|mi300x/.test(gpu) ? 'nvswitch' : 'pcie') : 'none' });
  }
  const instances = [];
  for (let i = 0; i < n; i++) {
    const s = shapes[i % shapes.length];
    const region = `${regions[Math.floor(i / shapes.length) % regions.length]}-z${Math.floor(i / (shapes.length * regions.length))}`;
    const od = Number((GPU_PRICE[s.gpu] * s.count * (0.8 + 0.5 * rnd())).toFixed(4));
    const prices = [{ model: 'on_demand', usd_per_hour: od, as_of: '2026-11-01', source: 'synthetic' }];
    if (rnd() < 0.7) prices.push({ model: 'spot', usd_per_hour: Number((od * (0.2 + 0.5 * rnd())).toFixed(4)), as_of: '2026-11-01', source: 'synthetic' });
    if (rnd() < 0.3) prices.push({ model: 'reserved', usd_per_hour: Number((od * 0.6).toFixed(4)), term_months: 12, upfront: 'none', as_of: '2026-11-01', source: 'synthetic' });
    instances.push({ id: `syn-${i}`, provider: s.provider, instance_type: s.type, gpu: s.gpu, gpu_count: s.count, vcpus: 8 * s.count, ram_gb: 64 * s.count,
      interconnect: s.interconnect, network_gbps: s.network_gbps, rdma: s.rdma, region, currency: 'USD', billing_increment_s: 1, prices });
  }
  return { schema_version: 1, instances };
}

// A SkyPilot vms.csv of `rows` rows (the format users download and import): 1,000 instance types of the GPUs the
// importer maps, each in 38 regions of 5 zones, with on-demand and spot prices.
export function generateSkypilotCsv(rows) {
  const gpus = ['V100', 'A100', 'H100', 'L4', 'T4', 'A10G', 'L40S', 'H200'];
  const out = ['InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone'];
  for (let i = 0; i < rows; ++i) {
    const t = i % 1000, r = Math.floor(i / 1000) % 38, z = Math.floor(i / 38000) % 5;
    const g = gpus[t % gpus.length], n = 2 ** (t % 4);
    out.push(`x${t}.${g.toLowerCase()}-${n}x,${g},${n},${8 * n},${61 * n},,${(1 + (t % 17) * 0.37 + r * 0.01).toFixed(4)},${(0.4 + (t % 13) * 0.11 + z * 0.01).toFixed(4)},region-${r},region-${r}${'abcde'[z]}`);
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] || 1000);
  process.stdout.write(JSON.stringify(generateCatalog(n, Number(process.argv[3] || 42))));
}
export { root };
