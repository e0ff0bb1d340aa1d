// Azure prices from a dated observation of Azure's Retail Prices API (github.com/ewyluda/gpu-price-index,
// data/observations/2026/2026-10-10.csv): scripts/catalog-azure-observations.mjs turns its Azure rows into
// SkyPilot-format rows, and `npm run catalog:update` lays them over the offers imported from anycloud-sh/catalog.
// Fixture: rows cut from the real observation file (tests/fixtures/azure-observations, an AWS and a CoreWeave row
// kept to show that only Azure's are read) and the anycloud excerpt of tests/fixtures/azure as the hardware file.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { root } from './helpers.mjs';
import { readObservations, readHardware, convert, ConvertError } from '../../scripts/catalog-azure-observations.mjs';

const OBSERVATIONS = path.join(root, 'tests/fixtures/azure-observations/2026-10-10.csv');
const HARDWARE = path.join(root, 'tests/fixtures/azure/azure-vms.csv');
const ANYCLOUD = path.join(root, 'tests/fixtures/azure');
const REPO = 'ewyluda/gpu-price-index';
const REPO_PATH = 'data/observations/2026/2026-10-10.csv';
const COMMIT = 'ab49c8081de81f1dae5f8f7e7d46af80b68c35d6';
const tmpDir = () => fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'gpuvalue-azobs-'));
const node = (args) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
const obsText = fs.readFileSync(OBSERVATIONS, 'utf8');
const hardware = readHardware(fs.readFileSync(HARDWARE, 'utf8'));

test('only the Azure rows are read, dated by their observation day; each size gets the hardware file\'s columns', () => {
  const obs = readObservations(obsText);
  assert.equal(obs.date, '2026-10-10');
  // 29 data rows: 1 AWS, 1 CoreWeave, 27 Azure (14 on-demand, 13 spot: the collector drops ND H200's spot meter).
  assert.equal(obs.rows.length, 27);
  const { text, rows, notes } = convert(obs, hardware);
  // 14 size-region pairs less NC48ads A100 v4, which the hardware excerpt does not list (2 rows left out).
  assert.equal(rows, 13);
  assert.equal(notes.filter((n) => /Standard_NC48ads_A100_v4 eastus .*does not list the size/.test(n)).length, 2);
  const lines = text.trim().split('\n');
  assert.equal(lines[0], 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation');
  // vCPUs, memory and GPU name from anycloud's row of the size; prices and region from the observation.
  assert.ok(lines.includes('Standard_ND96isr_H100_v5,H100,8,96,1900,H100,98.32,18.1695,eastus,V2'));
  assert.ok(lines.includes('Standard_NC24ads_A100_v4,A100-80GB,1,24,220,A100-80GB,3.673,0.6788,eastus,V2'));
  // No spot observation: an empty SpotPrice, not the on-demand price.
  assert.ok(lines.includes('Standard_ND96isr_H200_v5,H200,8,96,1850,H200,84.8,,eastus2,V2'));
});

test('the update lays the observed prices over the anycloud import: new date and source, same GPU mapping', () => {
  const catalog = tmpDir();
  let r = node([path.join(root, 'scripts/catalog-update.mjs'), '--skypilot', ANYCLOUD, '--out', catalog, '--base', tmpDir()]);
  assert.equal(r.status, 0, r.stderr);
  const converted = tmpDir();
  r = node([path.join(root, 'scripts/catalog-azure-observations.mjs'), '--observations', OBSERVATIONS, '--hardware', HARDWARE, '--out', converted,
    '--repo', REPO, '--path', REPO_PATH, '--commit', COMMIT]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /27 observation rows of 2026-10-10 -> 13 vms\.csv rows/);
  r = node([path.join(root, 'scripts/catalog-update.mjs'), '--skypilot', converted, '--out', catalog]);
  assert.equal(r.status, 0, r.stderr);
  // The excerpt replaces 13 offers' prices and removes none of the 31 (T4, A10, M60, MI25, V100 and NCC sizes stay).
  assert.match(r.stdout, /azure\.json: 31 offers, 0 new, 0 removed/);
  // NC24ads A100 v4 eastus spot: 0.746721 (anycloud, 2026-05-20) -> 0.6788 (2026-10-10), -9.1 %: not listed;
  // NC40ads H100 v5 eastus spot: 2.192418 -> 1.2899, (1.2899 / 2.192418 - 1) = -41.2 %: listed.
  assert.match(r.stdout, /moved {4}azure-standard_nc40ads_h100_v5-eastus spot: 2\.192418 -> 1\.2899 USD\/h \(-41\.2 %\)/);
  assert.doesNotMatch(r.stdout, /moved {4}azure-standard_nc24ads_a100_v4-eastus /);
  const offers = JSON.parse(fs.readFileSync(path.join(catalog, 'azure.json'), 'utf8')).instances;
  const offer = (type, region) => offers.find((o) => o.instance_type === type && o.region === region);
  const url = `https://github.com/${REPO}/blob/${COMMIT}/${REPO_PATH}`;
  const h100 = offer('Standard_ND96isr_H100_v5', 'eastus');
  assert.deepEqual([h100.gpu, h100.gpu_count, h100.interconnect, h100.network_gbps, h100.rdma], ['h100-sxm5-80gb', 8, 'nvswitch', 3200, true]);
  assert.deepEqual(h100.prices.map((p) => [p.model, p.usd_per_hour, p.as_of, p.source]),
    [['on_demand', 98.32, '2026-10-10', url], ['spot', 18.1695, '2026-10-10', url]]);
  assert.match(h100.notes, /^From ewyluda\/gpu-price-index \(a daily GPU price index: Azure Retail Prices API/);
  assert.equal(offer('Standard_NC24ads_A100_v4', 'eastus').gpu, 'a100-pcie-80gb');
  assert.equal(offer('Standard_NC80adis_H100_v5', 'eastus').gpu, 'h100-nvl-94gb');
  // ND H200 v5: anycloud's spot equalled on-demand (84.8); the observation has no spot price, so the offer has none.
  assert.deepEqual(offer('Standard_ND96isr_H200_v5', 'eastus2').prices.map((p) => p.model), ['on_demand']);
  // A size the observation does not cover keeps anycloud's price and date.
  const t4 = offer('Standard_NC4as_T4_v3', 'eastus');
  assert.deepEqual(t4.prices.map((p) => [p.usd_per_hour, p.as_of]), [[0.526, '2026-05-20'], [0.204246, '2026-05-20']]);
  // A rerun on its own output changes nothing.
  r = node([path.join(root, 'scripts/catalog-update.mjs'), '--skypilot', converted, '--out', catalog, '--check']);
  assert.equal(r.status, 0, r.stdout + r.stderr);

  // The bundled azure.json carries the same observed prices for these offers (the fixture is cut from its source).
  const bundled = JSON.parse(fs.readFileSync(path.join(root, 'data/catalog/azure.json'), 'utf8')).instances;
  const observed = offers.filter((o) => o.prices.some((p) => p.source === url));
  assert.equal(observed.length, 13);
  for (const o of observed) {
    const b = bundled.find((x) => x.id === o.id);
    assert.deepEqual([b.gpu, b.gpu_count, b.interconnect, b.network_gbps, b.prices], [o.gpu, o.gpu_count, o.interconnect, o.network_gbps, o.prices], o.id);
  }
});

test('a file of two dates, a GPU count that disagrees, two prices of one meter, a lone spot price', () => {
  const [header, ...rows] = obsText.trim().split('\n');
  const azure = rows.filter((l) => l.split(',')[2] === 'azure');
  const h100Spot = azure.find((l) => l.includes(',spot,H100,Standard_ND96isr_H100_v5,eastus,'));
  // One row of another day: refused, naming the dates.
  assert.throws(() => readObservations([header, ...azure, h100Spot.replaceAll('2026-10-10', '2026-10-09')].join('\n')),
    (e) => e instanceof ConvertError && /2 dates \(2026-10-10, 2026-10-09\)/.test(e.message));
  // collected_at of another day than the date column: refused.
  assert.throws(() => readObservations([header, h100Spot.replace('2026-10-10T', '2026-10-11T')].join('\n')), /disagree/);
  // A second, cheaper spot meter of the same VM and region: the lower price is kept, and said.
  const cheaper = h100Spot.replace(',18.1695,2.2712,', ',17.5,2.1875,');
  let out = convert(readObservations([header, ...azure, cheaper].join('\n')), hardware);
  assert.ok(out.text.includes('Standard_ND96isr_H100_v5,H100,8,96,1900,H100,98.32,17.5,eastus,V2'));
  assert.ok(out.notes.some((n) => /two spot prices for Standard_ND96isr_H100_v5 eastus \(18\.1695 and 17\.5 USD\/h\)/.test(n)));
  // A GPU count the hardware file does not have for the size: left out, not priced as another machine.
  const wrongCount = azure.filter((l) => l.includes('Standard_NC40ads_H100_v5')).map((l) => l.replace(',NA,1,', ',NA,2,'));
  out = convert(readObservations([header, ...wrongCount].join('\n')), hardware);
  assert.equal(out.rows, 0);
  assert.ok(out.notes.some((n) => /2 GPUs in the observation, 1 in the hardware file/.test(n)));
  // A spot price without the on-demand price of its VM and region cannot make a row.
  out = convert(readObservations([header, h100Spot].join('\n')), hardware);
  assert.equal(out.rows, 0);
  assert.ok(out.notes.some((n) => /spot price \(18\.1695 USD\/h\) without an on-demand price/.test(n)));
  // The command refuses a missing option and a commit that is no commit.
  const r = node([path.join(root, 'scripts/catalog-azure-observations.mjs'), '--observations', OBSERVATIONS, '--hardware', HARDWARE, '--out', tmpDir(),
    '--repo', REPO, '--path', REPO_PATH, '--commit', 'main']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--commit needs the 40-hex commit/);
});
