// The page's render steps re-run exactly when one of the inputs they declare changes (web/src/app/memo.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { memoStep } from '../../web/src/app/memo.js';

test('a step runs on its first call, again only when a declared input changes, and receives its inputs', () => {
  const calls = [];
  const view = { rows: [1, 2] };
  const step = memoStep((p) => [p.view, p.state.lang, JSON.stringify(p.request)], (p, v, lang, req) => calls.push([v, lang, req]));
  const pass = (over = {}) => ({ view, state: { lang: 'en', sort: 'rank' }, request: { preset: 'a' }, ...over });
  assert.equal(step(pass()), true);
  assert.equal(step(pass()), false, 'same inputs: not run');
  assert.equal(step(pass({ state: { lang: 'en', sort: 'cost' } })), false, 'an input it does not declare: not run');
  assert.equal(step(pass({ request: { preset: 'a' } })), false, 'a serialised input compares by content');
  assert.equal(step(pass({ state: { lang: 'zh' } })), true, 'a primitive input changed');
  assert.equal(step(pass({ state: { lang: 'zh' }, view: { rows: [1, 2] } })), true, 'an object input compares by identity');
  step.reset();
  assert.equal(step(pass({ state: { lang: 'zh' }, view: calls.at(-1)[0] })), true, 'after reset it runs again');
  assert.deepEqual(calls.map(([v, lang, req]) => [v === view, lang, req]), [[true, 'en', '{"preset":"a"}'], [true, 'zh', '{"preset":"a"}'], [false, 'zh', '{"preset":"a"}'], [false, 'zh', '{"preset":"a"}']]);
});
