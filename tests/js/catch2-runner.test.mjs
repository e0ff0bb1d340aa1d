// The Catch2 layers' runner (scripts/catch2.mjs) on the real native suite: every test case name, however odd its
// characters (';' split such names in ctest's registration, ',' and '[' mean something to Catch2's filters), selects
// exactly that test case, and a failing case is counted as failed.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { root } from './helpers.mjs';
import { listTests, specOf, parseXmlReport, runSuite } from '../../scripts/catch2.mjs';

const binary = path.join(root, 'build/native/tests/gpuvalue_tests');

test('each test case name with a special character selects exactly that test case', { skip: !fs.existsSync(binary) && 'native suite not built' }, () => {
  const names = listTests([binary], root);
  assert.ok(names.length > 100, `the suite lists ${names.length} test cases`);
  const odd = names.filter((n) => /[;,[\]"*\\]|^~/.test(n));
  assert.ok(odd.some((n) => n.includes(';')) && odd.some((n) => n.includes(',')), 'the suite has names with ; and ,');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catch2-spec-'));
  try {
    // Catch2 selects the same test cases for listing as for running: each spec is checked by listing what it
    // selects (no test case runs), and the first is also run with the XML reporter the runner reads.
    const list = path.join(dir, 'one.txt');
    for (const name of odd) {
      fs.writeFileSync(list, `${specOf(name)}\n`);
      const r = spawnSync(binary, ['-f', list, '--list-test-names-only'], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.deepEqual(r.stdout.split('\n').filter((l) => l.trim()), [name], `the spec of "${name}"`);
    }
    fs.writeFileSync(list, `${specOf(odd[0])}\n`);
    const r = spawnSync(binary, ['-r', 'xml', '-f', list, '--use-colour', 'no'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.deepEqual(parseXmlReport(r.stdout).map((c) => c.name), [odd[0]], `the spec of "${odd[0]}", run`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a failing test case is counted as failed, with its report', async () => {
  // A stand-in suite: a script that answers Catch2's two calls the way the binary does, one case failing.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catch2-fail-'));
  const script = path.join(dir, 'suite.mjs');
  fs.writeFileSync(script, `
import fs from 'node:fs';
const a = process.argv.slice(2);
if (a.includes('--list-test-names-only')) { console.log('passes\\nfails, with a comma'); process.exit(0); }
const out = a[a.indexOf('-o') + 1];
const specs = fs.readFileSync(a[a.indexOf('-f') + 1], 'utf8').split('\\n').filter(Boolean);
const tc = (s) => { const n = s.replace(/\\\\(.)/g, '$1'); return '<TestCase name="' + n + '"><OverallResult success="' + (n === 'passes') + '"/></TestCase>'; };
fs.writeFileSync(out, '<Catch>' + specs.map(tc).join('') + '</Catch>');
process.exit(specs.some((s) => s !== 'passes') ? 1 : 0);
`);
  try {
    const r = await runSuite([process.execPath, script], { cwd: dir, jobs: 2 });
    assert.equal(r.registered, 2);
    assert.equal(r.passed, 1);
    assert.equal(r.failed, 1);
    assert.match(r.failures.join('\n'), /fails, with a comma/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a shard that hangs is stopped, and its cases fail as not reported', () => {
  // A stand-in suite whose one case never ends; the runner, told that 2 s is a hang, stops it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catch2-hang-'));
  const script = path.join(dir, 'suite.mjs');
  fs.writeFileSync(script, `
const a = process.argv.slice(2);
if (a.includes('--list-test-names-only')) { console.log('hangs'); process.exit(0); }
setInterval(() => {}, 1000);
`);
  const runner = path.join(root, 'scripts/catch2.mjs');
  const driver = `import { runSuite } from ${JSON.stringify(runner)};
const r = await runSuite([process.execPath, ${JSON.stringify(script)}], { cwd: ${JSON.stringify(dir)}, jobs: 1 });
console.log(JSON.stringify(r));`;
  try {
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', driver], { encoding: 'utf8', env: { ...process.env, GPUVALUE_CATCH2_HANG_SECONDS: '2' }, timeout: 120000 });
    assert.equal(out.status, 0, out.stderr);
    const r = JSON.parse(out.stdout.trim().split('\n').at(-1));
    assert.equal(r.registered, 1);
    assert.equal(r.failed, 1);
    assert.match(r.failures.join('\n'), /stopped after 2 s: the shard hung/);
    assert.match(r.failures.join('\n'), /not reported/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
