// `npm run catalog:update` (scripts/catalog-update.mjs) on the real SkyPilot excerpts of tests/fixtures/skypilot:
// it must reproduce the committed output (tests/fixtures/skypilot/expected/), change nothing on a rerun, keep
// hand-curated members of an existing offer, and print new and removed offers and price moves over 10 %.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { root } from './helpers.mjs';

const FIXTURES = path.join(root, 'tests/fixtures/skypilot');
const EXPECTED = path.join(FIXTURES, 'expected');

function update(args) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/catalog-update.mjs'), ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const tmpDir = () => fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'gpuvalue-update-'));

test('the update of the fixture excerpts reproduces the committed output, file by file', () => {
  const out = tmpDir();
  const empty = tmpDir();
  const r = update(['--skypilot', FIXTURES, '--out', out, '--base', empty]);
  assert.equal(r.code, 0, r.stderr);
  const expected = fs.readdirSync(EXPECTED).sort();
  assert.deepEqual(fs.readdirSync(out).sort(), expected);
  for (const f of expected) assert.equal(fs.readFileSync(path.join(out, f), 'utf8'), fs.readFileSync(path.join(EXPECTED, f), 'utf8'), f);
  // Every offer is new on a first run, and the summary line says how many.
  for (const f of expected) {
    const n = JSON.parse(fs.readFileSync(path.join(EXPECTED, f), 'utf8')).instances.length;
    assert.match(r.stdout, new RegExp(`^${f.replace('.', '\\.')}: ${n} offers, ${n} new, 0 removed`, 'm'));
  }
});

test('a rerun on its own output changes nothing and lists nothing', () => {
  const out = tmpDir();
  fs.cpSync(EXPECTED, out, { recursive: true });
  const r = update(['--skypilot', FIXTURES, '--out', out, '--check']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /0 files would change/);
  assert.doesNotMatch(r.stdout, /^ {2}(new|removed|moved) /m);
});

test('output is sorted by id, stamped with the commit URL and date, and every offer passes the engine validator', () => {
  const sources = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'sources.json'), 'utf8')).files;
  for (const f of fs.readdirSync(EXPECTED)) {
    const doc = JSON.parse(fs.readFileSync(path.join(EXPECTED, f), 'utf8'));
    const ids = doc.instances.map((o) => o.id);
    assert.deepEqual(ids, [...ids].sort(), `${f} sorted`);
    for (const o of doc.instances)
      for (const p of o.prices) {
        const src = Object.values(sources).find((s) => p.source.endsWith(`/blob/${s.commit}/${s.repo_path}`));
        assert.ok(src, `${o.id}: ${p.source}`);
        // The sources give only the day each file was read: prices say so (read_on) and carry no as_of.
        assert.equal(p.read_on, src.read_on, o.id);
        assert.equal(p.as_of, undefined, o.id);
      }
  }
  const v = spawnSync(process.execPath, [path.join(root, 'bin/gpuvalue.mjs'), 'validate', ...fs.readdirSync(EXPECTED).map((f) => path.join(EXPECTED, f))],
    { cwd: root, encoding: 'utf8' });
  assert.equal(v.status, 0, v.stdout + v.stderr);
});

test('Vast.ai offers are marked marketplace, the Shadeform list is split by the cloud that runs the machine', () => {
  const vast = JSON.parse(fs.readFileSync(path.join(EXPECTED, 'vast.json'), 'utf8')).instances;
  assert.ok(vast.length > 0 && vast.every((o) => o.marketplace === true));
  const shade = JSON.parse(fs.readFileSync(path.join(EXPECTED, 'shadeform.json'), 'utf8')).instances;
  const providers = new Set(shade.map((o) => o.provider));
  for (const p of ['Crusoe (via Shadeform)', 'Massed Compute (via Shadeform)', 'Scaleway (via Shadeform)']) assert.ok(providers.has(p), p);
  // The CSV has crusoe_A100-80G-sxm4x8 at 18.4 USD/h in culpeper-usa-1 (line 4 of the excerpt).
  const crusoe = shade.find((o) => o.instance_type === 'crusoe_A100-80G-sxm4x8');
  assert.equal(crusoe.prices[0].usd_per_hour, 18.4);
  assert.equal(crusoe.gpu_count, 8);
  assert.ok(!shade.some((o) => o.marketplace));
});

test('curated members survive an update; new, removed and moved offers are printed', () => {
  const base = tmpDir();
  const out = tmpDir();
  const doc = JSON.parse(fs.readFileSync(path.join(EXPECTED, 'vast.json'), 'utf8'));
  const [first, second, ...rest] = doc.instances;
  // A curated member and a price the new file moves by more than 10 % (the file halves it back).
  first.service = { preinstalled_frameworks: true };
  first.prices[0].usd_per_hour *= 2;
  // An offer the file no longer lists (SkyPilot-sourced: removed) and one entered by hand (kept).
  const gone = { ...second, id: 'vast-gone', instance_type: 'gone', region: 'nowhere' };
  const hand = { ...second, id: 'vast-by-hand', instance_type: 'by-hand', region: 'here',
    prices: [{ model: 'on_demand', usd_per_hour: 1, as_of: '2026-12-01', source: 'https://vast.ai/pricing' }] };
  fs.writeFileSync(path.join(base, 'vast.json'), JSON.stringify({ ...doc, instances: [first, gone, hand, ...rest] }));
  const r = update(['--skypilot', FIXTURES, '--provider', 'vast', '--out', out, '--base', base]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^ {2}new +${second.id}$`, 'm'));
  assert.match(r.stdout, /^ {2}removed +vast-gone$/m);
  assert.match(r.stdout, new RegExp(`^ {2}moved +${first.id} on_demand: .* \\(-50\\.0 %\\)$`, 'm'));
  assert.doesNotMatch(r.stdout, /^shadeform/m, '--provider limits the update');
  const after = JSON.parse(fs.readFileSync(path.join(out, 'vast.json'), 'utf8')).instances;
  const kept = after.find((o) => o.id === first.id);
  assert.deepEqual(kept.service, { preinstalled_frameworks: true });
  assert.ok(after.some((o) => o.id === 'vast-by-hand'));
  assert.ok(!after.some((o) => o.id === 'vast-gone'));
});

test('bad arguments are usage errors (exit 2) that name the problem', () => {
  assert.equal(update([]).code, 2);
  const r = update(['--skypilot', FIXTURES, '--provider', 'nosuchcloud', '--out', tmpDir()]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--provider nosuchcloud: not found/);
  assert.match(update(['--skypilot', tmpDir()]).stderr, /neither a skypilot-catalog checkout/);
});

test('Prime Intellect rows take the form factor of the machine from Hyperstack\'s own file, and ambiguous rows are listed', () => {
  // --base holds hyperstack.json (its n3-H100x1 is the H100 PCIe): Prime Intellect's row whose UpstreamCloudId is
  // n3-H100x1 becomes the PCIe card; without it the row says nothing of its form factor and stays the named H100.
  const base = tmpDir();
  fs.copyFileSync(path.join(EXPECTED, 'hyperstack.json'), path.join(base, 'hyperstack.json'));
  const withSibling = tmpDir();
  assert.equal(update(['--skypilot', FIXTURES, '--provider', 'primeintellect', '--out', withSibling, '--base', base]).code, 0);
  const pi = JSON.parse(fs.readFileSync(path.join(withSibling, 'primeintellect.json'), 'utf8')).instances;
  const h100 = pi.find((o) => o.instance_type === 'hyperstack__1xH100_80GB__28__180');
  assert.equal(h100.gpu, 'h100-pcie-80gb');
  assert.equal(pi.find((o) => o.instance_type === 'hyperstack__8xH100_80GB__252__1440').interconnect, 'pcie');
  assert.equal(pi.find((o) => o.instance_type === 'datacrunch__2xV100_16GB__10__45').gpu, 'v100-sxm2-16gb');
  const alone = tmpDir();
  assert.equal(update(['--skypilot', FIXTURES, '--provider', 'primeintellect', '--out', alone, '--base', tmpDir()]).code, 0);
  const pi2 = JSON.parse(fs.readFileSync(path.join(alone, 'primeintellect.json'), 'utf8')).instances;
  assert.equal(pi2.find((o) => o.instance_type === 'hyperstack__1xH100_80GB__28__180').gpu, 'h100-sxm5-80gb');
  // Spheron's A100_80G_PCIE rows named DGX / SXM4 are refused and printed as ambiguous.
  const r = update(['--skypilot', FIXTURES, '--provider', 'spheron', '--out', tmpDir(), '--base', tmpDir()]);
  assert.match(r.stdout, /^ {2}ambiguous line \d+ gpu_1x_a100_SXM4_us-central-3 \(A100_80G_PCIE\): /m);
  assert.match(r.stdout, /^ {2}ambiguous line \d+ gpu_1x_DGX_A100_us-central-2 \(A100_80G_PCIE\): /m);
});

test('an excerpt (sources.json "excerpt": true) updates the offers it lists and keeps the others', () => {
  const base = tmpDir();
  const doc = JSON.parse(fs.readFileSync(path.join(EXPECTED, 'cudo.json'), 'utf8'));
  const other = { ...doc.instances[0], id: 'cudo-not-in-excerpt', instance_type: 'ice-lake-a40-compute_1x2v4gb', region: 'ca-montreal-3' };
  fs.writeFileSync(path.join(base, 'cudo.json'), JSON.stringify({ ...doc, instances: [other, ...doc.instances] }));
  const out = tmpDir();
  const r = update(['--skypilot', FIXTURES, '--provider', 'cudo', '--out', out, '--base', base]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /removed +cudo-not-in-excerpt/);
  const after = JSON.parse(fs.readFileSync(path.join(out, 'cudo.json'), 'utf8')).instances;
  assert.ok(after.some((o) => o.id === 'cudo-not-in-excerpt'));
  // CUDO's '-pci_' types are the PCIe card, like the '-pcie_' ones.
  for (const o of after.filter((x) => /a100-pci_/.test(x.instance_type))) {
    assert.equal(o.gpu, 'a100-pcie-80gb', o.id);
    assert.notEqual(o.interconnect, 'nvswitch', o.id);
  }
});

test('hostile Shadeform rows: __proto__ and constructor prefixes, a quoted newline and escape sequences are refused by line, never crash or reach the catalog or the terminal', () => {
  const dir = tmpDir();
  const good = fs.readFileSync(path.join(FIXTURES, 'shadeform-vms.csv'), 'utf8').split('\n').slice(0, 3).join('\n');
  const gpuInfo = `"{'Gpus': [{'Name': 'A6000', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 48}, 'TotalGpuMemoryInMiB': 384}]}"`;
  const rows = [
    `__proto___A6000x8,A6000,8.0,62.0,384,4.56,r1,${gpuInfo},`,
    `constructor_A6000x8,A6000,8.0,62.0,384,4.56,r1,${gpuInfo},`,
    `"massedcompute_A6000x8\nforged row",A6000,8.0,62.0,384,4.56,r2,${gpuInfo},`,
    `massedcompute_A6000x8,A6000,8.0,62.0,384,4.56,"\u001b]0;owned\u0007r3",${gpuInfo},`,
    `massedcompute_A6000x8,A6000,8.0,62.0,384,4.56,r\u200b4,${gpuInfo},`,
  ];
  fs.writeFileSync(path.join(dir, 'shadeform-vms.csv'), `${good}\n${rows.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'sources.json'), JSON.stringify({ files: { shadeform: { file: 'shadeform-vms.csv',
    repo_path: 'catalogs/v8/shadeform/vms.csv', commit: '0'.repeat(40), read_on: '2026-12-02' } } }));
  const out = tmpDir();
  const r = update(['--skypilot', dir, '--out', out, '--base', tmpDir()]);
  assert.equal(r.code, 0, r.stderr);
  // eslint-disable-next-line no-control-regex -- no raw control character may reach the terminal
  assert.doesNotMatch(r.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b]/);
  for (const line of [4, 5, 6, 8, 9]) assert.match(r.stdout, new RegExp(`line ${line} refused`), `line ${line}: ${r.stdout}`);
  const written = fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), 'utf8')).join('\n');
  assert.ok(written.includes('massedcompute_A6000x8'), 'the good rows are imported');
  for (const bad of ['__proto__', 'constructor', 'forged', 'owned', '\u200b', /\\u001b/]) assert.ok(!(bad instanceof RegExp ? bad.test(written) : written.includes(bad)), String(bad));
});
