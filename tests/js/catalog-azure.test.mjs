// Microsoft Azure through `npm run catalog:update`, on rows cut from the real Azure vms.csv of anycloud-sh/catalog
// (tests/fixtures/azure): the GPU each size rents (Azure's size pages name the part where the file names only the
// family), ND-series NVSwitch + InfiniBand, the fractional and retired sizes left out with a reason, the file's bare
// "V1,V2" Generation value read, and the commit date as every price's as_of.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { root } from './helpers.mjs';

const FIXTURE = path.join(root, 'tests/fixtures/azure');
const tmpDir = () => fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'gpuvalue-azure-'));

function importFixture() {
  const out = tmpDir();
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/catalog-update.mjs'), '--skypilot', FIXTURE, '--out', out, '--base', tmpDir()],
    { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return { stdout: r.stdout, offers: JSON.parse(fs.readFileSync(path.join(out, 'azure.json'), 'utf8')).instances };
}
const { stdout, offers } = importFixture();
const offer = (type, region) => offers.find((o) => o.instance_type === type && o.region === region);

test('ND H100 v5 and ND A100 v4 are 8 board GPUs with NVSwitch and InfiniBand with GPUDirect RDMA', () => {
  const h100 = offer('Standard_ND96isr_H100_v5', 'eastus');
  assert.deepEqual([h100.gpu, h100.gpu_count, h100.interconnect, h100.network_gbps, h100.rdma], ['h100-sxm5-80gb', 8, 'nvswitch', 3200, true]);
  // Azure's eastus list price of the VM in the file's row: 98.32 USD/h.
  assert.equal(h100.prices.find((p) => p.model === 'on_demand').usd_per_hour, 98.32);
  const a100 = offer('Standard_ND96amsr_A100_v4', 'westus2');
  assert.deepEqual([a100.gpu, a100.gpu_count, a100.interconnect, a100.network_gbps, a100.rdma], ['a100-sxm4-80gb', 8, 'nvswitch', 1600, true]);
  const a100_40 = offer('Standard_ND96asr_v4', 'eastus');
  assert.deepEqual([a100_40.gpu, a100_40.interconnect, a100_40.network_gbps], ['a100-sxm4-40gb', 'nvswitch', 1600]);
  const v100 = offer('Standard_ND40rs_v2', 'eastus');
  assert.deepEqual([v100.gpu, v100.interconnect, v100.network_gbps], ['v100-sxm2-32gb', 'nvlink', 100]);
  const mi300x = offer('Standard_ND96isr_MI300X_v5', 'westus');
  assert.deepEqual([mi300x.gpu, mi300x.interconnect, mi300x.network_gbps], ['mi300x', 'infinity-fabric', 3200]);
});

test('NC A100 v4 rents A100 PCIe cards and NCads / NCCads H100 v5 the 94 GB H100 NVL, linked by PCIe', () => {
  for (const type of ['Standard_NC24ads_A100_v4', 'Standard_NC96ads_A100_v4']) assert.equal(offer(type, 'eastus').gpu, 'a100-pcie-80gb', type);
  assert.equal(offer('Standard_NC96ads_A100_v4', 'eastus').interconnect, 'pcie');
  for (const type of ['Standard_NC40ads_H100_v5', 'Standard_NC80adis_H100_v5']) assert.equal(offer(type, 'eastus').gpu, 'h100-nvl-94gb', type);
  assert.equal(offer('Standard_NC80adis_H100_v5', 'eastus').interconnect, 'pcie');
  assert.equal(offer('Standard_NCC40ads_H100_v5', 'eastus2').gpu, 'h100-nvl-94gb');
  // No NC size gets a scale-out network it does not have.
  for (const o of offers.filter((x) => x.instance_type.startsWith('Standard_NC'))) assert.equal(o.network_gbps, undefined, o.id);
});

test('rows whose Generation "V1,V2" the file leaves unquoted are read: T4, whole-GPU A10, M60 and MI25 sizes', () => {
  assert.equal(offer('Standard_NC4as_T4_v3', 'eastus').gpu, 't4');
  assert.deepEqual([offer('Standard_NV72ads_A10_v5', 'eastus').gpu, offer('Standard_NV72ads_A10_v5', 'eastus').gpu_count], ['a10', 2]);
  assert.equal(offer('Standard_NV36ads_A10_v5', 'eastus').gpu, 'a10');
  assert.equal(offer('Standard_NV12s_v3', 'eastus').gpu, 'm60');
  assert.equal(offer('Standard_NV32as_v4', 'eastus').gpu, 'mi25');
});

test('fractional NV sizes and retired NCv3 sizes are no offers, and the report says why', () => {
  for (const type of ['Standard_NV6ads_A10_v5', 'Standard_NV12ads_A10_v5', 'Standard_NV18ads_A10_v5', 'Standard_NV4as_v4', 'Standard_NC6s_v3', 'Standard_NC24rs_v3'])
    assert.equal(offers.filter((o) => o.instance_type === type).length, 0, type);
  assert.match(stdout, /left out Standard_NV6ads_A10_v5 \(1 rows\): rents 0\.167 of one A10/);
  assert.match(stdout, /left out Standard_NV18ads_A10_v5 \(1 rows\): rents 0\.5 of one A10/);
  assert.match(stdout, /left out Standard_NC6s_v3 \(1 rows\): retired: .*2025-09-30/);
  assert.match(stdout, /Standard_NV4as_v4 rents 1\/8 of one mi25/);
  assert.match(stdout, /azure\.json: 31 offers, 31 new, 0 removed/);
});

test('every Azure price carries the source commit date as as_of and its pinned URL', () => {
  const src = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'sources.json'), 'utf8')).files.azure;
  for (const o of offers)
    for (const p of o.prices) {
      assert.equal(p.as_of, src.as_of, o.id);
      assert.equal(p.source, `https://github.com/${src.repo}/blob/${src.commit}/${src.repo_path}`, o.id);
    }
});

test('the bundled azure.json is what the update makes of the source file: the same mapping, sizes and regions', () => {
  const bundled = JSON.parse(fs.readFileSync(path.join(root, 'data/catalog/azure.json'), 'utf8')).instances;
  // Offers whose prices a newer dated source replaced (catalog-azure-observations.test.mjs checks those) keep the
  // mapping; the others keep this file's prices too.
  let sameSource = 0;
  for (const o of offers) {
    const b = bundled.find((x) => x.id === o.id);
    assert.ok(b, o.id);
    assert.deepEqual([b.gpu, b.gpu_count, b.interconnect, b.network_gbps], [o.gpu, o.gpu_count, o.interconnect, o.network_gbps], o.id);
    if (b.prices.every((p) => p.source === o.prices[0].source)) {
      assert.deepEqual(b.prices, o.prices, o.id);
      sameSource++;
    }
  }
  // The fixture's T4 (1), whole-GPU A10 (2), M60 (1), MI25 (1), NDv2 (6) and NCC H100 (4) offers: 15 of 31 still
  // come from this file; its 16 A100, H100, H200 and MI300X offers have the 2026-10-10 observation's prices.
  assert.equal(sameSource, 15);
  const ndH100Regions = bundled.filter((o) => o.instance_type === 'Standard_ND96isr_H100_v5').length;
  assert.ok(ndH100Regions >= 20, `ND H100 v5 in ${ndH100Regions} regions`);
  assert.equal(bundled.filter((o) => /NC(6|12|24|24r)s_v3|NV(6|12|18)ads_A10_v5|NV(4|8|16)as_v4/.test(o.instance_type)).length, 0);
});
