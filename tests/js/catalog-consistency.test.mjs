// Row-by-row consistency of the bundled catalog (data/catalog/*.json) with what each offer's own name says and with
// the other offers of its GPU: form factor and memory named in the instance type, GPU count named in it, NVSwitch
// only on board (SXM/HGX) GPUs, and prices far from the other offers of the same GPU or of the same machine in other
// regions. A price outlier passes only when data/price-outliers.json lists it with a reason, and every listed
// outlier must still be one (the list cannot rot).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';

const dir = path.join(root, 'data/catalog');
const offers = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
  .flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).instances.map((o) => ({ ...o, file: f })))
  .filter((o) => !o.example);
const gpus = new Map(JSON.parse(fs.readFileSync(path.join(root, 'data/gpus.json'), 'utf8')).gpus.map((g) => [g.id, g]));
const outliers = JSON.parse(fs.readFileSync(path.join(root, 'data/price-outliers.json'), 'utf8')).outliers;
const isPcie = (g) => /PCIe/.test(g.form_factor);

// Form factor words of a name, read as the importer reads them (core/src/import/skypilot_hints.cpp formBitsOf):
// "PCIe" anywhere or a "pci" token, "SXM" anywhere or an "HGX"/"DGX" token, an "NVL" token.
export function formWords(name) {
  const l = name.toLowerCase();
  const tokens = l.split(/[^a-z0-9]+/);
  return {
    pcie: l.includes('pcie') || tokens.includes('pci'),
    sxm: l.includes('sxm') || tokens.includes('hgx') || tokens.includes('dgx'),
    nvl: tokens.includes('nvl'),
  };
}

// GPU memory a name states: a token "80GB", "80G", "32Gx4" or "80GBx2" right after a GPU model token ("A100",
// "2xV100", "4090"). Sizes after other tokens are host RAM (Nebius "…-16vcpu-200gb", CUDO "_1x2v4gb") or GPU counts
// (Google Cloud "a2-megagpu-16g").
export function memoryWord(name) {
  const tokens = name.split(/[^A-Za-z0-9]+/);
  for (let i = 1; i < tokens.length; i++) {
    const m = /^(\d{2,3})GB?(?:x\d+)?$/i.exec(tokens[i]);
    if (m && (/(?:^|\d*x)(?:[AHVLBT]|RTX|GH|MI)\d{2,4}[A-Z]*$/i.test(tokens[i - 1]) || /^\d{4}$/.test(tokens[i - 1]))) return Number(m[1]);
  }
  return null;
}

// The GPU count a name states, by the naming scheme of the clouds in the catalog (first match wins).
const COUNT_RULES = [
  /^(\d+)x[-_]/i,               // Vast "2x-A100_SXM4-…", Daytona "2x-RTX4090"
  /__(\d+)x[A-Z]/,              // Prime Intellect "datacrunch__2xV100_16GB__10__45"
  /^gpu_(\d+)x_/,               // Lambda "gpu_8x_h100_sxm5"
  /_(\d+)x\d+v\d+gb$/,          // CUDO "intel-ice-lake-a100-pci_2x8v16gb"
  /^(\d+)[A-Z][A-Z0-9]*\d+\./,  // Verda "8A100.176V", "1H100.80S.32V"
  /_(\d+)x$/,                   // Lium "RTX4090_2x"
  /^[a-z]\d-[a-z]+gpu-(\d+)g$/, // Google Cloud "a3-highgpu-8g", "a2-megagpu-16g"
  /[A-Za-z0-9]x(\d+)(?:$|[-_])/, // Shadeform "crusoe_A100-80GBx2", Hyperstack "n3-A100x8-NVLink", Spheron "H100x8_…"
];
export function countWord(name) {
  for (const re of COUNT_RULES) {
    const m = re.exec(name);
    if (m) return Number(m[1]);
  }
  return null;
}

// Instance families whose GPU the provider's naming rules give, where the name carries no GPU word.
// Alibaba Cloud: gn6e is the V100 32 GB family, gn6v the V100 16 GB family (Alibaba Cloud, "GPU-accelerated
// compute-optimized instance families", www.alibabacloud.com/help/en/ecs/user-guide/gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1).
const FAMILY_RULES = [
  { re: /^ecs\.gn6e-/, gpu: 'v100-sxm2-32gb' },
  { re: /^ecs\.gn6v-/, gpu: 'v100-sxm2-16gb' },
];

function nameProblems(o) {
  const g = gpus.get(o.gpu);
  const out = [];
  if (!g) return [`unknown GPU ${o.gpu}`];
  const w = formWords(o.instance_type);
  if ((w.pcie || w.nvl) && w.sxm) out.push('name says both PCIe and SXM');
  else if ((w.pcie || w.nvl) && !isPcie(g)) out.push(`name says PCIe/NVL, GPU ${g.id} is ${g.form_factor}`);
  else if (w.sxm && isPcie(g)) out.push(`name says SXM, GPU ${g.id} is ${g.form_factor}`);
  const mem = memoryWord(o.instance_type);
  if (mem !== null && Math.abs(mem - g.memory_gb) > 4) out.push(`name says ${mem} GB, GPU ${g.id} has ${g.memory_gb} GB`);
  const count = countWord(o.instance_type);
  if (count !== null && count !== o.gpu_count) out.push(`name says ${count} GPUs, offer has ${o.gpu_count}`);
  for (const f of FAMILY_RULES) if (f.re.test(o.instance_type) && o.gpu !== f.gpu) out.push(`family is ${f.gpu}, offer has ${o.gpu}`);
  if (o.interconnect === 'nvswitch' && isPcie(g)) out.push(`NVSwitch on a PCIe card (${g.id})`);
  if (o.interconnect === 'nvlink' && !(g.nvlink_gbs > 0)) out.push(`NVLink on ${g.id}, which has none`);
  return out;
}

test('every offer agrees with its name: form factor, memory, GPU count, family; NVSwitch only on board GPUs', () => {
  const bad = [];
  for (const o of offers) for (const p of nameProblems(o)) bad.push(`${o.file} ${o.id}: ${p}`);
  assert.deepEqual(bad, []);
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const onDemand = (o) => (o.prices.find((p) => p.model === 'on_demand') || {}).usd_per_hour;

// Offers whose on-demand price per GPU-hour is over 3x or under 1/3 of the median for the same GPU, or (for a machine
// listed in 3 or more regions) over 2x or under 1/2 of its median across those regions. The median for a GPU is over
// all its offers (a median of the providers' medians would flag every hyperscaler row against the neoclouds).
export function priceOutliers() {
  const found = new Map();
  const byGpu = new Map();
  const byMachine = new Map();
  for (const o of offers) {
    const usd = onDemand(o);
    if (!(usd > 0)) continue;
    const perGpu = usd / o.gpu_count;
    if (!byGpu.has(o.gpu)) byGpu.set(o.gpu, []);
    byGpu.get(o.gpu).push([o, perGpu]);
    const key = `${o.provider}|${o.instance_type}|${o.gpu_count}`;
    if (!byMachine.has(key)) byMachine.set(key, []);
    byMachine.get(key).push([o, usd]);
  }
  for (const [gpu, list] of byGpu) {
    if (list.length < 3) continue;
    const m = median(list.map(([, v]) => v));
    for (const [o, v] of list)
      if (v > 3 * m || v < m / 3) found.set(o.id, `${v.toFixed(3)} USD/GPU-h vs median ${m.toFixed(3)} of ${list.length} ${gpu} offers`);
  }
  for (const list of byMachine.values()) {
    if (list.length < 3) continue;
    const m = median(list.map(([, v]) => v));
    for (const [o, v] of list)
      if (v > 2 * m || v < m / 2) found.set(o.id, `${v} USD/h vs median ${m} of its ${list.length} regions`);
  }
  return found;
}

// An entry of data/price-outliers.json names one offer (id), every region of one machine (provider + instance_type),
// or the machines of one provider whose instance type matches a pattern (provider + instance_type_pattern, a regular
// expression matched against the whole type).
const covers = (x, o) => (x.id ? x.id === o.id
  : x.provider === o.provider && (x.instance_type ? x.instance_type === o.instance_type : new RegExp(`^(?:${x.instance_type_pattern})$`).test(o.instance_type)));
const label = (x) => x.id || `${x.provider} ${x.instance_type || x.instance_type_pattern}`;

test('every price outlier per GPU type or per machine is listed with a reason in data/price-outliers.json', () => {
  const found = priceOutliers();
  const byId = new Map(offers.map((o) => [o.id, o]));
  const unlisted = [...found].filter(([id]) => !outliers.some((x) => covers(x, byId.get(id)))).map(([id, why]) => `${id}: ${why}`);
  assert.deepEqual(unlisted, [], 'outliers without a reason');
  const stale = outliers.filter((x) => ![...found.keys()].some((id) => covers(x, byId.get(id)))).map(label);
  assert.deepEqual(stale, [], 'listed outliers that are no longer outliers (remove them)');
  for (const x of outliers) assert.ok(typeof x.reason === 'string' && x.reason.length > 40, `${label(x)}: a reason a reader can check`);
});

test('the name rules read the names of the clouds in the catalog', () => {
  // Known names, so that a rule that stops matching is seen here and not as a silently passing consistency check.
  assert.deepEqual(formWords('intel-ice-lake-a100-pci_2x8v16gb'), { pcie: true, sxm: false, nvl: false });
  assert.deepEqual(formWords('1x-H100_NVL-32-65536'), { pcie: false, sxm: false, nvl: true });
  assert.deepEqual(formWords('massedcompute_A100-sxm4-80G-DGX'), { pcie: false, sxm: true, nvl: false });
  assert.equal(memoryWord('datacrunch__2xV100_16GB__10__45'), 16);
  assert.equal(memoryWord('crusoe_A100-80GBx2'), 80);
  assert.equal(memoryWord('epyc-genoa-a100-pcie_2x8v16gb'), null);
  assert.equal(countWord('2x-A100_SXM4-32-65536'), 2);
  assert.equal(countWord('datacrunch__4xV100_16GB__20__90'), 4);
  assert.equal(countWord('gpu_8x_h100_sxm5'), 8);
  assert.equal(countWord('intel-ice-lake-a100-pci_4x32v64gb'), 4);
  assert.equal(countWord('8A100.176V'), 8);
  assert.equal(countWord('a3-highgpu-8g'), 8);
  assert.equal(countWord('n3-A100x8-NVLink'), 8);
  assert.equal(countWord('p4d.24xlarge'), null);
  assert.equal(countWord('ecs.gn6e-c12g1.24xlarge'), null);
});

// One provider's machine is the same machine in every region: its GPUs, links and scale-out network (a region
// without the network would be planned on one node only, as AWS's p6-b200 outside us-east-1 once was).
test('an instance type has the same GPUs, interconnect and network in every region of its provider', () => {
  const byType = new Map();
  for (const o of offers) {
    const key = `${o.provider}|${o.instance_type}`;
    const hw = JSON.stringify([o.gpu, o.gpu_count, o.interconnect, o.network_gbps ?? null, o.rdma ?? false]);
    if (!byType.has(key)) byType.set(key, new Map());
    byType.get(key).set(hw, o.id);
  }
  const differing = [...byType].filter(([, hws]) => hws.size > 1).map(([key, hws]) => `${key}: ${[...hws].map(([hw, id]) => `${id} ${hw}`).join(' vs ')}`);
  assert.deepEqual(differing, []);
});
