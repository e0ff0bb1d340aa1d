// web/src/engine/wasm.js: the offline file's base64(gzip(wasm)) back to the engine's bytes, through each way it
// decodes base64: Uint8Array.fromBase64 (Chromium 156, which the browser tests run, takes it), a data: URL fetch
// (Node 20 has no fromBase64), and atob when fetch refuses.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { inflate } from '../../web/src/engine/wasm.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasm = fs.readFileSync(path.join(root, 'dist/site/gpuvalue_engine.wasm'));
const base64 = zlib.gzipSync(wasm, { level: 9 }).toString('base64');
const same = (buf) => Buffer.compare(Buffer.from(buf), wasm) === 0;

test('inflate: the engine\'s bytes back through fromBase64, a data: URL and atob', async (t) => {
  const had = Uint8Array.fromBase64;
  const fetched = globalThis.fetch;
  try {
    // Node's own Buffer decoder standing in for the browser's where Node has none.
    if (typeof had !== 'function') Uint8Array.fromBase64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));
    let calls = 0;
    globalThis.fetch = (...args) => { calls++; return fetched(...args); };
    assert.ok(same(await inflate(base64)), 'fromBase64');
    assert.equal(calls, 0, 'no fetch when fromBase64 decodes');
    delete Uint8Array.fromBase64;
    assert.ok(same(await inflate(base64)), 'data: URL');
    assert.equal(calls, 1);
    globalThis.fetch = () => Promise.reject(new TypeError('refused'));
    assert.ok(same(await inflate(base64)), 'atob');
    t.diagnostic(`${wasm.length} bytes from ${base64.length} characters`);
  } finally {
    if (had) Uint8Array.fromBase64 = had;
    else delete Uint8Array.fromBase64;
    globalThis.fetch = fetched;
  }
});
