// What the command line reads, it reads with a bound and one verdict: a FIFO, a device or a pipe is refused before
// it is read (exit 1, never a hang), every file has a size cap, a NUL byte gets the same answer from validate and
// rank --catalog; an option that takes one value given twice is refused; the language follows POSIX (an empty
// LC_ALL is unset) and a --lang that names none is refused even beside --help.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { root, tmpFile } from './helpers.mjs';

// The CLI with its own environment; a kill after 60 s only keeps a hang from stalling the suite (a hang fails).
function run(args, { env = {}, input } = {}) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/gpuvalue.mjs'), ...args],
    { cwd: root, encoding: 'utf8', input, timeout: 60000, env: { ...process.env, LC_ALL: 'C', LANG: 'C', ...env } });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const CJK = /[\u4e00-\u9fff]/;

test('a FIFO, /dev/zero and a pipe on /dev/stdin are refused as not regular files, exit 1, nothing read', () => {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR || '/tmp'), 'gpuvalue-fifo-'));
  const fifo = path.join(dir, 'catalog.json');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const cases = [
    ['rank', '--preset', 'resnet50-imagenet', '--catalog', fifo],
    ['validate', fifo],
    ['estimate', '--workload', '/dev/zero', '--gpu', 't4', '--count', '1'],
    ['rank', '--catalog', '/dev/zero', '--preset', 'resnet50-imagenet'],
    ['import', 'skypilot', '/dev/zero'],
  ];
  for (const args of cases) {
    const r = run(args);
    assert.equal(r.signal, null, `${args.join(' ')}: still reading when killed`);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /not a regular file/, args.join(' '));
  }
  const piped = run(['estimate', '--workload', '/dev/stdin', '--gpu', 't4', '--count', '1'], { input: 'x'.repeat(3 << 20) });
  assert.equal(piped.code, 1, piped.stderr);
  assert.match(piped.stderr, /not a regular file/);
});

test('a workload file over 1 MiB is refused by its size, exit 1', () => {
  const big = tmpFile('w.json', `{"kind": "custom", "total_flops": 1e18, "name": "${'x'.repeat(1 << 20)}"}`);
  const r = run(['estimate', '--workload', big, '--gpu', 't4', '--count', '1']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /at most 1048576 bytes/);
});

test('a NUL byte gets one verdict: validate and rank --catalog both refuse it at its place', () => {
  const good = fs.readFileSync(path.join(root, 'data/catalog/lambda.json'));
  const file = tmpFile('nul.json', Buffer.concat([good, Buffer.from([0]), Buffer.from('garbage')]));
  const v = run(['validate', file]);
  const r = run(['rank', '--preset', 'resnet50-imagenet', '--catalog', file]);
  for (const x of [v, r]) {
    assert.equal(x.code, 1, x.stderr);
    assert.match(x.stderr, /NUL byte/);
  }
});

test('an option that takes one value, given twice, is a usage error naming it; a list option may repeat', () => {
  const r = run(['estimate', '--preset', 'resnet50-imagenet', '--gpu', 't4', '--gpu', 'h100-sxm5-80gb', '--count', '1']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--gpu was given more than once/);
  const lists = run(['compare', '--preset', 'yolov7-coco', '--config', 'a100-sxm4-80gb:8', '--config', 'v100-sxm2-16gb:4', '--json']);
  assert.equal(lists.code, 0, lists.stderr);
});

test('LC_ALL empty with LANG=zh_CN.UTF-8 speaks Chinese; LC_ALL set wins over LANG', () => {
  const zh = run(['--help'], { env: { LC_ALL: '', LANG: 'zh_CN.UTF-8' } });
  assert.equal(zh.code, 0);
  assert.match(zh.stdout, CJK);
  const en = run(['--help'], { env: { LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' } });
  assert.doesNotMatch(en.stdout, CJK);
});

test('--lang that names no language is refused beside --help and --version too', () => {
  for (const args of [['--help', '--lang', 'xx'], ['--lang=xx', '--help'], ['rank', '--help', '--lang', 'xx'], ['--version', '--lang', 'fr']]) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}`);
  }
  assert.equal(run(['--help', '--lang', 'zh']).code, 0);
});
