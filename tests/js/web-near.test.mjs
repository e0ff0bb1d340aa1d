// views/near.js: a view's deferred work starts when its element comes near the screen. Node has no
// IntersectionObserver, which is the fallback's case (a browser without one): the work runs on the next microtask,
// after the caller's render, once, and never after the watch was stopped. The observer's case is exercised in
// Chromium by tests/browser/lazy.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { whenNear } from '../../web/src/views/near.js';

test('without IntersectionObserver the work runs once, after the current task\'s synchronous code', async () => {
  assert.equal(typeof globalThis.IntersectionObserver, 'undefined');
  const calls = [];
  const stop = whenNear({}, () => calls.push('near'));
  calls.push('render done');
  await Promise.resolve();
  assert.deepEqual(calls, ['render done', 'near']);
  stop();  // stopping after it ran changes nothing
  await Promise.resolve();
  assert.deepEqual(calls, ['render done', 'near']);
});

test('a watch stopped before the element came near never runs its work', async () => {
  let ran = 0;
  const stop = whenNear({}, () => { ran += 1; });
  stop();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(ran, 0);
});
