// Golden answers: each fixed CLI call must answer what tests/golden/ holds (numbers to 1e-9 relative, key order
// free). A deliberate change is recorded with `npm run golden:update` and its diff reviewed in the commit.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { CALLS, runCall, goldenFile } from '../../scripts/golden.mjs';

// Returns the JSON Pointer of the first difference between a and b, or null.
export function firstDifference(a, b, where = '') {
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b), 1e-300);
    return Math.abs(a - b) / scale <= 1e-9 ? null : `${where} (${a} vs ${b})`;
  }
  if (Array.isArray(a) !== Array.isArray(b) || typeof a !== typeof b || (a === null) !== (b === null))
    return `${where} (${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)})`;
  if (a === null || typeof a !== 'object') return a === b ? null : `${where} (${JSON.stringify(a).slice(0, 120)} vs ${JSON.stringify(b).slice(0, 120)})`;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return `${where} (length ${a.length} vs ${b.length})`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${where}/${i}`);
      if (d) return d;
    }
    return null;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (!(k in a) || !(k in b)) return `${where}/${k} (${k in a ? 'missing in the answer' : 'not in the golden file'})`;
    const d = firstDifference(a[k], b[k], `${where}/${k}`);
    if (d) return d;
  }
  return null;
}

test('the comparison finds a changed number, a missing key and a reordered array', () => {
  assert.equal(firstDifference({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }), null);
  assert.match(firstDifference({ a: 1 }, { a: 1.001 }), /^\/a/);
  assert.match(firstDifference({ a: 1 }, { a: 1, b: 2 }), /^\/b/);
  assert.match(firstDifference([1, 2], [2, 1]), /^\/0/);
});

for (const [name, args] of Object.entries(CALLS)) {
  test(`golden: gpuvalue ${args.join(' ')}`, () => {
    const want = JSON.parse(fs.readFileSync(goldenFile(name), 'utf8'));
    assert.deepEqual(args, want.args, 'the call changed: run npm run golden:update');
    const got = runCall(args);
    assert.equal(got.exit, want.exit, `exit status (stderr/answer: ${typeof got.answer === 'string' ? got.answer : ''})`);
    const d = firstDifference(got.answer, want.answer);
    assert.equal(d, null, `${name}: answer differs from tests/golden/${name}.json at ${d}`);
  });
}
