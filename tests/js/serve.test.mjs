// The dev server (scripts/serve.mjs): hostile paths and methods are answered, never crash it; pages carry a CSP
// header with frame-ancestors.
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createServer, listen } from '../../scripts/serve.mjs';

const site = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-site-'));
fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>t</title>');
fs.writeFileSync(path.join(site, 'app.js'), 'console.log(1)');

function request(port, method, rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the dev server survives %00, refuses other methods than GET/HEAD and sends a CSP', async () => {
  const server = createServer(site);
  const port = await listen(server, 0);
  try {
    for (const p of ['/%00', '/index.html%00', '/a%00b/c', '/%2e%2e/%00', '/%E0%A4%A']) {
      const r = await request(port, 'GET', p);
      assert.ok(r.status === 400 || r.status === 404, `${p}: ${r.status}`);
    }
    for (const m of ['PUT', 'DELETE', 'TRACE', 'POST', 'PATCH', 'OPTIONS']) {
      const r = await request(port, m, '/index.html');
      assert.equal(r.status, 405, m);
      assert.equal(r.headers.allow, 'GET, HEAD');
    }
    // Still serving after all of the above.
    const ok = await request(port, 'GET', '/');
    assert.equal(ok.status, 200);
    const csp = ok.headers['content-security-policy'];
    assert.match(csp, /frame-ancestors 'self'/);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.equal(ok.headers['x-content-type-options'], 'nosniff');
    const head = await request(port, 'HEAD', '/app.js');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  } finally {
    server.close();
  }
});

test('the dev server streams a file byte for byte and answers a FIFO in the site with 404 without opening it', async () => {
  const big = Buffer.alloc(3 * (1 << 20));
  for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
  fs.writeFileSync(path.join(site, 'big.bin'), big);
  const fifo = path.join(site, 'pipe.js');
  const made = spawnSync('mkfifo', [fifo]).status === 0;
  const server = createServer(site);
  const port = await listen(server, 0);
  try {
    const got = await new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/big.bin' }, (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      }).on('error', reject);
    });
    assert.equal(Number(got.headers['content-length']), big.length);
    assert.ok(got.body.equals(big), 'the same bytes');
    const head = await request(port, 'HEAD', '/big.bin');
    assert.equal(Number(head.headers['content-length']), big.length);
    assert.equal(head.body, '');
    // Reading a FIFO would wait for a writer forever: it is no file to serve.
    if (made) assert.equal((await request(port, 'GET', '/pipe.js')).status, 404);
  } finally {
    server.close();
  }
});
