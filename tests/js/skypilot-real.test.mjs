// `gpuvalue import skypilot` on excerpts of real SkyPilot catalog files (tests/fixtures/skypilot/, provenance in
// its README.md), through the CLI and the real wasm module. Every expected number was read off the fixture rows by
// hand; the arithmetic is in the comments.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { cli, loadEngine } from './helpers.mjs';

const AS_OF = '2026-12-02'; // the day the files were read
const FIXTURES = [
  ['aws', 'AWS'],
  ['gcp', 'GCP'],
  ['lambda', 'Lambda'],
  ['azure', 'Azure'],
  ['runpod', 'RunPod'],
];

const imported = new Map();
function importFixture(cloud) {
  if (!imported.has(cloud)) {
    const provider = FIXTURES.find(([c]) => c === cloud)[1];
    const file = path.join('tests/fixtures/skypilot', `${cloud}-vms.csv`);
    const r = cli(['import', 'skypilot', file, '--provider', provider, '--as-of', AS_OF]);
    assert.equal(r.code, 0, r.stderr);
    const summary = r.stderr.match(/: (\d+) rows -> (\d+) offers, (\d+) rows skipped/);
    assert.ok(summary, r.stderr);
    imported.set(cloud, {
      catalog: JSON.parse(r.stdout),
      stderr: r.stderr,
      rows: Number(summary[1]),
      offers: Number(summary[2]),
      skipped: Number(summary[3]),
    });
  }
  return imported.get(cloud);
}

function offer(cloud, type, region) {
  const o = importFixture(cloud).catalog.instances.find((i) => i.instance_type === type && i.region === region);
  assert.ok(o, `${cloud}: no offer ${type} in ${region}`);
  return o;
}
const onDemand = (o) => o.prices.find((p) => p.model === 'on_demand');
const spot = (o) => o.prices.find((p) => p.model === 'spot');
const near = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} != ${expected}`);

// Line numbers the import names in its messages about skipped rows: "line 7", "lines 2-4, 10-11".
function skippedLines(stderr) {
  const out = new Set();
  const skips = stderr.split('\n').filter((l) => l.includes('skipped') && !/rows -> \d+ offers/.test(l)).join('\n');
  for (const m of skips.matchAll(/\blines? ((?:\d+(?:-\d+)?)(?:, \d+(?:-\d+)?)*)/g)) {
    for (const part of m[1].split(', ')) {
      const [a, b] = part.split('-').map(Number);
      for (let l = a; l <= (b ?? a); l++) out.add(l);
    }
  }
  return out;
}

test('AWS p4d.24xlarge in us-east-1 is 8x A100 40GB at the cheapest of its three zones', () => {
  const o = offer('aws', 'p4d.24xlarge', 'us-east-1');
  assert.equal(o.gpu, 'a100-sxm4-40gb');
  assert.equal(o.gpu_count, 8);
  assert.equal(o.gpu_memory_gb, 40); // SizeInMiB 40960 / 1024, not TotalGpuMemoryInMiB 327680
  assert.equal(o.zones, 3); // use1-az1, use1-az2, use1-az6, all 21.957642
  assert.equal(o.interconnect, 'nvswitch');
  near(onDemand(o).usd_per_hour, 21.957642, 'on-demand');
  near(spot(o).usd_per_hour, 6.289, 'spot = min(6.289000, 14.105100, 12.499100)');
  near(spot(o).zone_median_usd_per_hour, 12.4991, 'median spot');
  // us-east-2 writes the same price with one digit less: 21.95764.
  near(onDemand(offer('aws', 'p4d.24xlarge', 'us-east-2')).usd_per_hour, 21.95764, 'us-east-2');
});

test('AWS empty SpotPrice cells are zones without spot, and 80 GB / 32 GB parts are told apart', () => {
  const p3 = offer('aws', 'p3.2xlarge', 'us-east-1');
  assert.equal(p3.zones, 6);
  near(onDemand(p3).usd_per_hour, 3.06, 'p3.2xlarge on-demand');
  // spot in 4 of 6 zones (use1-az3 and use1-az4 are empty): 0.4995, 0.4803, 0.5059, 0.5576
  near(spot(p3).usd_per_hour, 0.4803, 'p3.2xlarge spot');
  near(spot(p3).zone_median_usd_per_hour, 0.5027, 'median (0.4995 + 0.5059) / 2');
  const p4de = offer('aws', 'p4de.24xlarge', 'us-east-1');
  assert.deepEqual([p4de.gpu, p4de.gpu_count, p4de.gpu_memory_gb], ['a100-sxm4-80gb', 8, 80]);
  const p3dn = offer('aws', 'p3dn.24xlarge', 'us-east-1');
  assert.deepEqual([p3dn.gpu, p3dn.gpu_memory_gb, p3dn.interconnect], ['v100-sxm2-32gb', 32, 'nvlink']);
  near(spot(p3dn).usd_per_hour, 5.06, 'p3dn spot = min(8.357600, 5.060000)');
  const b200 = offer('aws', 'p6-b200.48xlarge', 'us-east-2');
  assert.equal(b200.gpu, 'b200');
  near(b200.gpu_memory_gb, 183359 / 1024, 'B200 SizeInMiB 183359');
  near(onDemand(b200).usd_per_hour, 113.9328, 'p6-b200 on-demand');
  const h1 = offer('aws', 'p5.4xlarge', 'eu-west-2');
  assert.equal(h1.prices.length, 1, 'both eu-west-2 zones have an empty SpotPrice');
  const { stderr } = importFixture('aws');
  assert.match(stderr, /line 5: "Inferentia" is an AWS Inferentia accelerator, not a GPU: not modelled/);
  assert.match(stderr, /5 rows without an accelerator were skipped \(lines 2-4, 10-11\)/);
});

test('GCP A2, G2 and A3 offers are the machine row plus the GPU row of the same zone', () => {
  const a2 = offer('gcp', 'a2-highgpu-1g', 'us-central1');
  assert.deepEqual([a2.gpu, a2.gpu_count, a2.gpu_memory_gb, a2.zones], ['a100-sxm4-40gb', 1, 40, 4]);
  assert.equal(onDemand(a2).usd_per_hour, 3.67339); // 0.73948 (line 12) + 2.93391 (line 246)
  assert.equal(spot(a2).usd_per_hour, 1.80385); // 0.36975 + 1.4341
  assert.match(a2.notes, /0\.73948 \(line 12\) \+ 2\.93391 \(line 246\) = 3\.67339/);
  near(onDemand(offer('gcp', 'a2-highgpu-8g', 'us-central1')).usd_per_hour, 29.38708, '5.91582 + 23.47126');
  const mega = offer('gcp', 'a2-megagpu-16g', 'us-central1');
  assert.equal(mega.gpu_count, 16);
  near(onDemand(mega).usd_per_hour, 55.73951, '8.79698 + 46.94253');
  const ultra = offer('gcp', 'a2-ultragpu-1g', 'us-central1');
  assert.equal(ultra.gpu, 'a100-sxm4-80gb');
  near(onDemand(ultra).usd_per_hour, 2.94582, '1.09962 + 1.8462');
  const g2 = offer('gcp', 'g2-standard-4', 'us-central1');
  assert.deepEqual([g2.gpu, g2.zones], ['l4', 2]); // the excerpt keeps g2-standard-4 us-central1-a and -b only
  near(onDemand(g2).usd_per_hour, 0.70683, '0.14679 + 0.56004');
  near(spot(g2).usd_per_hour, 0.28184, '0.05874 + 0.2231');
  const a3 = offer('gcp', 'a3-highgpu-8g', 'us-east4');
  assert.deepEqual([a3.gpu, a3.gpu_count, a3.zones], ['h100-sxm5-80gb', 8, 3]);
  near(onDemand(a3).usd_per_hour, 87.83247, '9.46006 + 78.37241');
  const h200 = offer('gcp', 'a3-ultragpu-8g', 'asia-south2');
  assert.equal(h200.prices.length, 1, 'the H200 row of asia-south2-c has an empty SpotPrice');
  near(onDemand(h200).usd_per_hour, 51.33527, '14.73269 + 36.60258');
});

test('GCP N1 offers name their host: the cheapest n1 machine with the vCPUs and memory SkyPilot asks for', () => {
  const t4 = offer('gcp', 'n1-highmem-4 + 1x T4', 'us-central1');
  assert.deepEqual([t4.gpu, t4.gpu_count, t4.vcpus, t4.zones], ['t4', 1, 4, 4]);
  near(onDemand(t4).usd_per_hour, 0.58661, '0.23661 + 0.35');
  near(spot(t4).usd_per_hour, 0.24683, '0.07183 + 0.175');
  const v100 = offer('gcp', 'n1-highmem-8 + 1x V100', 'europe-west4');
  assert.equal(v100.gpu, 'v100-sxm2-16gb');
  near(onDemand(v100).usd_per_hour, 3.12494, '0.52094 + 2.604');
  // n1-highcpu-8 (8 vCPUs, 7.2 GiB) never hosts a V100: SkyPilot asks 8 vCPUs and 32 GiB.
  assert.ok(!importFixture('gcp').catalog.instances.some((i) => i.instance_type.startsWith('n1-highcpu')));
});

test('GCP rows that cannot be priced are reported with their lines', () => {
  const { stderr, catalog } = importFixture('gcp');
  assert.match(stderr, /lines 116-126: a4-highgpu-8g rows have no price \(0\.0 or empty\)/);
  assert.match(stderr, /lines 304-314: 8x B200 accelerator rows pair with a machine whose price is 0\.0/);
  assert.match(stderr, /lines 59-61: a3-edgegpu-8g has GPUs built in, but SkyPilot pairs it with no accelerator row/);
  assert.match(stderr, /lines 317-318, 327-328, 333: 8x H100 accelerator rows have no host row in the same zone/);
  assert.match(stderr, /lines 420-424: 1x P100 accelerator rows have no host row in the same zone/);
  assert.match(stderr, /21 rows name "tpu-v6e-8" \(lines 456-476\)/);
  assert.ok(!catalog.instances.some((i) => i.gpu === 'b200'), 'no B200 offer at a 0.0 host price');
});

test('Lambda gpu_8x_a100 is 8x A100 40GB at 10.32 USD/h with no spot', () => {
  const o = offer('lambda', 'gpu_8x_a100', 'us-east-1');
  assert.deepEqual([o.gpu, o.gpu_count, o.gpu_memory_gb, o.vcpus], ['a100-sxm4-40gb', 8, 40, 124]);
  assert.equal(o.prices.length, 1); // SpotPrice is empty on every Lambda row
  assert.equal(onDemand(o).usd_per_hour, 10.32);
  // TotalGpuMemoryInMiB is 40960 on Lambda's 8-GPU row too; memory comes from SizeInMiB per GPU.
  const h = offer('lambda', 'gpu_8x_h100_sxm5', 'us-west-1');
  assert.deepEqual([h.gpu, h.gpu_memory_gb, onDemand(h).usd_per_hour], ['h100-sxm5-80gb', 80, 23.92]);
  const b = offer('lambda', 'gpu_8x_b200_sxm6', 'us-east-1');
  assert.deepEqual([b.gpu, b.gpu_memory_gb, onDemand(b).usd_per_hour], ['b200', 180, 39.92]); // 184320 MiB
  // GH200 (96 GB HBM3, GpuInfo 98304 MiB) and the 24 GB Turing Quadro RTX 6000 of Lambda map to GPUs of ours.
  const gh = offer('lambda', 'gpu_1x_gh200', 'europe-central-1');
  assert.deepEqual([gh.gpu, gh.gpu_count, gh.gpu_memory_gb, onDemand(gh).usd_per_hour], ['gh200-96gb', 1, 96, 1.49]);
  const q = offer('lambda', 'gpu_1x_rtx6000', 'europe-central-1');
  assert.deepEqual([q.gpu, q.gpu_count, q.gpu_memory_gb, onDemand(q).usd_per_hour], ['quadro-rtx6000', 1, 24, 0.5]);
  const { stderr } = importFixture('lambda');
  assert.doesNotMatch(stderr, /"(RTX6000|GH200)" maps to no GPU id/);
  assert.match(stderr, /17 rows without an accelerator were skipped \(lines 2-18\)/);
});

test('Azure rows without zones, with a bare-name GpuInfo and a quoted Generation column import', () => {
  const t4 = offer('azure', 'Standard_NC4as_T4_v3', 'eastus');
  assert.deepEqual([t4.gpu, t4.gpu_count, t4.zones], ['t4', 1, 1]);
  near(onDemand(t4).usd_per_hour, 0.526, 'NC4as_T4_v3 eastus');
  near(spot(t4).usd_per_hour, 0.062699, 'spot');
  const nd = offer('azure', 'Standard_ND96asr_v4', 'eastus');
  assert.deepEqual([nd.gpu, nd.gpu_count], ['a100-sxm4-40gb', 8]);
  near(onDemand(nd).usd_per_hour, 27.197, 'ND96asr_v4 eastus');
  const nc = offer('azure', 'Standard_NC24ads_A100_v4', 'westus3');
  assert.match(nc.gpu, /^a100-.*80gb$/); // an 80 GB A100; the file cannot say SXM or PCIe
  near(onDemand(nc).usd_per_hour, 3.673, 'NC24ads_A100_v4 westus3');
  const { stderr } = importFixture('azure');
  assert.match(stderr, /line 129: AcceleratorCount 12 of NVIDIA H100 80GB SXM5 is not a count/); // ND96isr_H100_v5 has 8 H100
  assert.match(stderr, /line 156: Price "" is not a positive number/);
  // K80 and M60 are counted per GPU, as Azure counts them (NC6: one of the two GK210 GPUs of a K80 board, 12 GB).
  const nc6 = offer('azure', 'Standard_NC6', 'westus2');  // line 79: 0.9, spot 0.099
  assert.deepEqual([nc6.gpu, nc6.gpu_count], ['k80', 1]);
  near(onDemand(nc6).usd_per_hour, 0.9, 'NC6 westus2');
  near(spot(nc6).usd_per_hour, 0.099, 'NC6 spot');
  assert.deepEqual([offer('azure', 'Standard_NC24', 'westus2').gpu_count, offer('azure', 'Standard_NC24', 'westus2').interconnect], [4, 'pcie']);
  const nv = offer('azure', 'Standard_NV12s_v3', 'southcentralus');  // line 148: 1.368, spot 0.15048
  assert.deepEqual([nv.gpu, nv.gpu_count], ['m60', 1]);
  near(onDemand(nv).usd_per_hour, 1.368, 'NV12s_v3 southcentralus');
  // NV16as_v4 rents half an MI25 (Azure's size table) though the file says 1: its priced rows are skipped with the
  // reason (line 156 has no price and is skipped for that).
  for (const line of [152, 153, 154, 155, 157, 158]) assert.match(stderr, new RegExp(`line ${line}: Standard_NV16as_v4 rents 1/2 of one AMD Radeon Instinct MI25, not 1 whole GPU`));
  assert.equal(importFixture('azure').catalog.instances.some((i) => i.gpu === 'mi25'), false);
  assert.doesNotMatch(stderr, /accelerator names with no GPU id/);
});

test('GCP P100 rows become N1 offers; Shadeform and Hyperstack A4000/A5000 map; names with no GPU are listed', () => {
  // P100 x1 asks for 8 vCPUs and 32 GiB: n1-highmem-8 (line 228, 0.47321 / spot 0.14366) + P100 (line 426, 1.46 / 0.6699).
  const p100 = offer('gcp', 'n1-highmem-8 + 1x P100', 'us-central1');
  assert.deepEqual([p100.gpu, p100.gpu_count], ['p100-pcie-16gb', 1]);
  near(onDemand(p100).usd_per_hour, 1.93321, 'n1-highmem-8 + P100 us-central1');
  near(spot(p100).usd_per_hour, 0.81356, 'spot');
  // Zones of asia-east1, australia-southeast1 and europe-west1 have no N1 host in the excerpt (lines 420-424); the
  // TPU rows are the only accelerator with no GPU.
  assert.match(importFixture('gcp').stderr, /accelerator names with no GPU id, rows skipped: tpu-v6e-8 \(21 rows\)\n/);
  const run = (cloud, provider) => {
    const r = cli(['import', 'skypilot', path.join('tests/fixtures/skypilot', `${cloud}-vms.csv`), '--provider', provider, '--as-of', AS_OF]);
    assert.equal(r.code, 0, r.stderr);
    return { catalog: JSON.parse(r.stdout), stderr: r.stderr };
  };
  const shade = run('shadeform', 'Shadeform');
  const a4000 = shade.catalog.instances.find((i) => i.instance_type === 'paperspace_A4000x4');  // line 69: 4x A4000, 3.2 USD/h
  assert.deepEqual([a4000.gpu, a4000.gpu_count, a4000.prices[0].usd_per_hour], ['rtx-a4000', 4, 3.2]);
  const a5000 = shade.catalog.instances.find((i) => i.instance_type === 'paperspace_A5000');  // line 61: 1.42 USD/h
  assert.deepEqual([a5000.gpu, a5000.gpu_count, a5000.prices[0].usd_per_hour], ['rtx-a5000', 1, 1.42]);
  // GAUDI2 (line 95) matches no GPU of the database (an Intel accelerator: Intel publishes no FP16/FP32 peak);
  // RTXPro6000 (lines 112-116) is the RTX PRO 6000 Blackwell Server Edition, A16 (line 50) two of an A16 board's GPUs.
  assert.match(shade.stderr, /accelerator names with no GPU id, rows skipped: GAUDI2 \(1 row\)\n/);
  const a16 = shade.catalog.instances.find((i) => i.instance_type === 'vultr_A16x2');
  assert.deepEqual([a16.gpu, a16.gpu_count, a16.interconnect], ['a16', 2, 'pcie']);
  const pro = shade.catalog.instances.filter((i) => /RTXPro6000/.test(i.instance_type));
  assert.equal(pro.length, 5);
  assert.ok(pro.every((i) => i.gpu === 'rtx-pro-6000-se'));
  const hyper = run('hyperstack', 'Hyperstack');
  const ten = hyper.catalog.instances.find((i) => i.instance_type === 'n3-RTX-A4000x10');  // line 22
  assert.deepEqual([ten.gpu, ten.gpu_count, ten.interconnect], ['rtx-a4000', 10, 'pcie']);
  assert.doesNotMatch(hyper.stderr, /no GPU id/);
});

test('RunPod SizeInMiB written in GB and "A100 PCIe" give an 80 GB PCIe A100', () => {
  const o = offer('runpod', '1x_A100-80GB_SECURE', 'US');
  assert.deepEqual([o.gpu, o.gpu_memory_gb, o.zones], ['a100-pcie-80gb', 80, 14]);
  near(onDemand(o).usd_per_hour, 1.64, 'on-demand');
  near(spot(o).usd_per_hour, 0.82, 'spot');
  const three = offer('runpod', '3x_A100-80GB_SECURE', 'CA');
  assert.deepEqual([three.gpu_count, three.interconnect], [3, 'pcie']);
  assert.match(importFixture('runpod').stderr, /line 2: GpuInfo SizeInMiB 80 for "A100-80GB" is not MiB; read as GB/);
});

test('every skipped row of every fixture is named by its line number', () => {
  for (const [cloud] of FIXTURES) {
    const r = importFixture(cloud);
    assert.equal(r.offers, r.catalog.instances.length, cloud);
    assert.doesNotMatch(r.stderr, /\.\.\.|not listed individually/, `${cloud}: every line is listed`);
    const lines = skippedLines(r.stderr);
    for (const l of lines) assert.ok(l >= 2 && l <= r.rows + 1, `${cloud}: line ${l} is outside the file`);
    assert.equal(lines.size, r.skipped, `${cloud}: ${r.skipped} rows skipped, ${lines.size} lines named`);
  }
  const counts = Object.fromEntries(FIXTURES.map(([c]) => [c, [importFixture(c).rows, importFixture(c).offers, importFixture(c).skipped]]));
  assert.deepEqual(counts, {
    aws: [121, 49, 10],
    gcp: [476, 113, 90], // P100 lines 425-431 and their n1-highmem-8 host of us-east1-b (line 230) now feed 4 offers
    lambda: [108, 91, 17], // 17 CPU rows skipped; the 3 GH200 and 3 Quadro RTX 6000 rows are offers
    azure: [171, 135, 36], // + 16 K80 and 7 M60 offers (one row each); the 7 MI25 rows stay skipped
    runpod: [79, 26, 0],
  });
});

test('every imported offer loads into the engine without errors or warnings', async () => {
  const engine = await loadEngine();
  for (const [cloud] of FIXTURES) {
    const { catalog } = importFixture(cloud);
    const added = engine.addCatalog(JSON.stringify(catalog));
    assert.equal(added.ok, true, `${cloud}: ${JSON.stringify(added.issues || added.error)}`);
    const warnings = (added.issues || []).filter((i) => i.warning);
    assert.deepEqual(warnings, [], `${cloud}: ${JSON.stringify(warnings.slice(0, 3))}`);
  }
});
