// The CLI never guesses: strict options with suggestions, decimal numbers, help and version, the article's
// examples kept out of rank unless asked for, terminal-safe text, and the same answer for a file with a BOM.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliIn, tmpFile } from './helpers.mjs';
import { OPTIONS, COMMAND_TABLE, usage, commandHelp } from '../../bin/cli/options.mjs';

const RANK = ['rank', '--preset', 'resnet50-imagenet'];

test('unknown options and stray words exit 2 with a suggestion and the usage on stderr', () => {
  const cases = [
    [[...RANK, '--prest', 'x'], /no option --prest; did you mean --preset\?/],
    [[...RANK, '--jsno'], /did you mean --json\?/],
    [[...RANK, 'json'], /unexpected argument "json"; did you mean --json\?/],
    [[...RANK, 'extra'], /unexpected argument "extra"/],
    [['estimate', '--preset', 'x', '--gpu', 'h100', '--catalog', 'f'], /no option --catalog \(it is an option of rank, serve\)/],
    [['rnak', '--preset', 'x'], /unknown command "rnak"; did you mean rank\?/],
    [['import', 'skypilot', 'a.csv', 'b.csv'], /unexpected argument "b.csv"/],
  ];
  for (const [args, re] of cases) {
    const r = cli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, re, args.join(' '));
    assert.match(r.stderr, /usage: gpuvalue/, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
});

test('flags take no value, value options need one', () => {
  for (const [args, re] of [[[...RANK, '--json=yes'], /--json is a flag and takes no value/], [[...RANK, '--fits-only=false'], /--fits-only is a flag/],
    [['rank', '--preset'], /--preset needs a value/], [['rank', '--preset', '--json'], /--preset needs a value/]]) {
    const r = cli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, re);
  }
});

test('numbers are decimal only; 0 budgets and deadlines are refused', () => {
  for (const v of [' ', '', '0x10', '0b101', '0o7', '1_000', 'Infinity', 'NaN', '1e999', '--5']) {
    const r = cli(['cost', '--instance', 'p3.2xlarge', `--hours=${v}`]);
    assert.equal(r.code, 2, JSON.stringify(v));
    assert.match(r.stderr, /--hours must be a decimal number/, JSON.stringify(v));
  }
  for (const o of ['--budget', '--deadline']) {
    const r = cli([...RANK, o, '0']);
    assert.equal(r.code, 2, o);
    assert.match(r.stderr, new RegExp(`${o} must be a decimal number > 0`));
  }
  assert.match(cli(['estimate', '--preset', 'resnet50-imagenet', '--gpu', 'h100-sxm5-80gb', '--count', '2.5']).stderr, /--count must be a whole number >= 1/);
  const ok = cli(['advise', '--params', '7e9', '--json']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).params, 7e9);
});

test('--version, -h, help, help CMD and CMD --help answer on stdout with exit 0', async () => {
  const v = await cliIn(['--version']);
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^gpuvalue \d+\.\d+\.\d+\n$/);
  for (const args of [['-h'], ['--help'], ['help']]) {
    const r = await cliIn(args);
    assert.equal(r.code, 0, args.join(' '));
    assert.equal(r.stdout.trim(), usage());
  }
  for (const cmd of Object.keys(COMMAND_TABLE)) {
    for (const args of [['help', cmd], [cmd, '--help'], [cmd, '-h']]) {
      const r = await cliIn(args);
      assert.equal(r.code, 0, args.join(' '));
      assert.equal(r.stdout.trim(), commandHelp(cmd));
    }
  }
  const none = await cliIn([]);
  assert.equal(none.code, 2);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /usage: gpuvalue/);
});

test('one table drives parsing and help: every option row appears in the help of each command that takes it', () => {
  for (const [name, o] of Object.entries(OPTIONS)) {
    const cmds = o.commands === '*' ? Object.keys(COMMAND_TABLE) : o.commands;
    for (const cmd of cmds) {
      assert.ok(COMMAND_TABLE[cmd], `${name}: ${cmd}`);
      assert.ok(commandHelp(cmd).includes(`--${name}`), `${cmd} --help lists --${name}`);
    }
  }
});

test('rank leaves the article examples out unless --include-examples, and --json carries the example flag', () => {
  const without = JSON.parse(cli([...RANK, '--json']).stdout).results;
  assert.ok(without.length > 10);
  assert.ok(without.every((x) => x.example === false));
  const withEx = cli([...RANK, '--include-examples', '--json']);
  assert.equal(withEx.code, 0, withEx.stderr);
  const all = JSON.parse(withEx.stdout).results;
  assert.ok(all.some((x) => x.example === true));
  assert.equal(all.length, without.length + all.filter((x) => x.example).length);
});

test('rank --catalog replaces the bundled catalog, --add-catalog adds to it', () => {
  const doc = { instances: [{ id: 'mine-1', provider: 'Mine', instance_type: 'box', gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'home',
    prices: [{ model: 'on_demand', usd_per_hour: 9, as_of: '2026-11-01', source: 'test' }] }] };
  const f = tmpFile('mine.json', JSON.stringify(doc));
  const replaced = JSON.parse(cli([...RANK, '--catalog', f, '--json']).stdout).results;
  assert.deepEqual(replaced.map((x) => x.id), ['mine-1']);
  const added = JSON.parse(cli([...RANK, '--add-catalog', f, '--json']).stdout).results;
  assert.ok(added.some((x) => x.id === 'mine-1'));
  assert.ok(added.length > 10);
  assert.match(commandHelp('rank'), /INSTEAD of the bundled/);
  assert.match(commandHelp('rank'), /IN ADDITION to the bundled/);
});

// eslint-disable-next-line no-control-regex -- the test looks for control characters in the output
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('strings from catalogs reach the terminal with control characters escaped', () => {
  const evil = 'p3\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202etxt';
  const doc = { instances: [{ id: 'evil-1', provider: `Evil\u001b[31m`, instance_type: evil, gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'r\u0007',
    prices: [{ model: 'on_demand', usd_per_hour: 9, as_of: '2026-11-01', source: 'test' }] }] };
  const f = tmpFile('evil.json', JSON.stringify(doc));
  const text = cli([...RANK, '--catalog', f]);
  assert.equal(text.code, 0, text.stderr);
  for (const out of [text.stdout, text.stderr]) assert.doesNotMatch(out, CONTROL);
  assert.match(text.stdout, /p3\\x1b\]0;pwned\\x07/);
  const json = cli([...RANK, '--catalog', f, '--json']);
  assert.doesNotMatch(json.stdout, /[\u007f-\u009f\u202a-\u202e]/);
  assert.equal(JSON.parse(json.stdout).results[0].instance, evil);
  const bad = tmpFile('bad.json', JSON.stringify({ instances: [{ ...doc.instances[0], gpu_count: -1 }] }));
  const v = cli(['validate', bad]);
  assert.equal(v.code, 1);
  assert.doesNotMatch(v.stderr, CONTROL);
});

test('a UTF-8 BOM is accepted alike by validate, rank --catalog and estimate --workload; --as-of is a real date', () => {
  const doc = { instances: [{ id: 'bom-1', provider: 'B', instance_type: 'b', gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: 9, as_of: '2026-11-01', source: 'test' }] }] };
  const f = tmpFile('bom.json', `\uFEFF${JSON.stringify(doc)}`);
  assert.equal(cli(['validate', f]).code, 0);
  assert.equal(cli([...RANK, '--catalog', f, '--json']).code, 0);
  const w = tmpFile('w.json', `\uFEFF${JSON.stringify({ workload: { kind: 'custom', total_flops: 1e20, params: 1e9 } })}`);
  const e = cli(['estimate', '--workload', w, '--gpu', 'h100-sxm5-80gb', '--json']);
  assert.equal(e.code, 0, e.stderr);
  const csv = tmpFile('v.csv', 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\np3.2xlarge,V100,1.0,8.0,61.0,,3.06,,us-east-1,a\n');
  for (const d of ['2026-02-30', '2026-13-01', '26-01-01', '1900-01-01', '2201-01-01', 'today']) {
    const r = cli(['import', 'skypilot', csv, '--as-of', d]);
    assert.equal(r.code, 2, d);
    assert.match(r.stderr, /--as-of must be a date YYYY-MM-DD between 1990 and 2200/);
  }
  assert.equal(cli(['import', 'skypilot', csv, '--as-of', '2024-02-29']).code, 0);
});

test('advise --deadline 1 warns that no option meets it, and an option without an offer shows no $0.00', () => {
  const j = cli(['advise', '--params', '70e9', '--deadline', '1', '--json']);
  assert.equal(j.code, 0, j.stderr);
  const r = JSON.parse(j.stdout);
  assert.ok(r.warnings.some((w) => w.code.startsWith('advise.deadline_missed') && w.params.deadline_hours === 1 && /No option meets the deadline/.test(w.text)), JSON.stringify(r.warnings));
  const text = cli(['advise', '--params', '70e9', '--deadline', '1']);
  assert.match(text.stdout, /warning: No option meets the deadline/);
  for (const x of r.recommendations.filter((y) => !y.offer)) assert.doesNotMatch(text.stdout, new RegExp(`${x.gpu_count}× ${x.gpu} .*\\$0\\.00`));
  const easy = JSON.parse(cli(['advise', '--params', '7e9', '--deadline', '1e6', '--json']).stdout);
  assert.ok(!easy.warnings.some((w) => /deadline/.test(w)));
});

test('a workload file beyond the request size limit is refused before it is parsed', () => {
  const big = tmpFile('big.json', `{"workload":{"kind":"custom","total_flops":1e20,"junk":[${'0,'.repeat(1_000_000)}0]}}`);
  const r = cli(['estimate', '--workload', big, '--gpu', 'h100-sxm5-80gb']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /at most 1048576 bytes/);
});
