// One error shape on the page: every engine failure reaches the page as a GpuvalueError {code, message, path,
// issues}, whether it came from the engine worker (as plain data through postMessage) or from the main thread.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, root } from './helpers.mjs';
import { GpuvalueError } from '../../web/src/engine/client.js';
import { errorData, asGpuvalueError } from '../../web/src/engine/errors.js';
import { createCore } from '../../web/src/engine/core.js';
import { dataBundle } from '../../scripts/build-web.mjs';

const client = await loadEngine();

test('an engine error keeps its code, message, JSON Pointer path and issues across the worker boundary', () => {
  let thrown;
  try { client.call('plan', { example: 'bogus' }); } catch (e) { thrown = e; }
  assert.ok(thrown instanceof GpuvalueError);
  assert.equal(thrown.path, '/example');
  // What the worker posts is plain data (structured clone drops the class); the page makes it a GpuvalueError again.
  const posted = structuredClone(errorData(thrown));
  const seen = asGpuvalueError(posted);
  assert.ok(seen instanceof GpuvalueError);
  assert.deepEqual({ code: seen.code, message: seen.message, explanation: seen.explanation, path: seen.path, issues: seen.issues },
    { code: thrown.code, message: thrown.message, explanation: thrown.explanation, path: thrown.path, issues: thrown.issues });
  // The explanation is a message of the engine's table ({code, params}), said in the reader's language on the page.
  assert.deepEqual(seen.explanation, { code: 'error.not_one_of', params: { value: 'bogus', choices: 'article' } });
  assert.notEqual(seen.code, 'internal');
});

test('failures that are not engine answers (a thrown Error, a worker message) become GpuvalueError too', () => {
  const core = createCore(client, dataBundle(root));
  let thrown;
  try { core.handle('noSuchOperation'); } catch (e) { thrown = e; }
  const fromCore = asGpuvalueError(structuredClone(errorData(thrown)));
  assert.ok(fromCore instanceof GpuvalueError);
  assert.equal(fromCore.code, 'internal');
  assert.match(fromCore.message, /unknown operation noSuchOperation/);
  assert.deepEqual(fromCore.issues, []);
  const fromText = asGpuvalueError('engine worker did not start');
  assert.deepEqual([fromText.code, fromText.message, fromText.path], ['internal', 'engine worker did not start', '']);
  const same = new GpuvalueError({ error: { code: 'not_found', message: 'x', path: '/gpu' } });
  assert.equal(asGpuvalueError(same), same);
});

test('a ranking the engine refuses comes back from the page core as an error with code and path, not a throw', () => {
  const core = createCore(client, dataBundle(root));
  const v = core.handle('view', { request: { preset: 'no-such-preset' }, sort: { key: 'rank', dir: 'asc' } });
  assert.equal(v.error.path, '/preset');
  assert.ok(v.error.code && v.error.code !== 'internal', v.error.code);
  assert.deepEqual(v.error.explanation, { code: 'error.unknown_preset', params: { id: 'no-such-preset' } });
});
