// The test runner's report of where a layer's time goes (scripts/tap.mjs), read from a real node:test TAP report.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { slowestTests } from '../../scripts/tap.mjs';
import { tmpFile } from './helpers.mjs';

test('the slowest top-level tests of a TAP report come first, with their seconds; nested subtests are not counted', () => {
  // Two top-level tests doing fixed work, "long" 300 times more than "short" (no sleeps).
  const file = tmpFile('tap-sample.test.mjs', `import test from 'node:test';
const spin = (n) => { let x = 0; for (let i = 0; i < n; i++) x += Math.sqrt(i); return x; };
test('short', () => { spin(1e5); });
test('long', async (t) => { spin(3e7); await t.test('inner', () => { spin(1e3); }); });
`);
  // Without the parent's NODE_TEST_CONTEXT, which would make the child speak node:test's internal protocol.
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], { encoding: 'utf8', env });
  const said = slowestTests(r.stdout, 5);
  assert.match(said, /^long \d+\.\d s; short \d+\.\d s$/, said);
  assert.equal(slowestTests(r.stdout, 1).split('; ').length, 1);
  assert.equal(slowestTests('TAP version 13\n', 3), 'none');
});
