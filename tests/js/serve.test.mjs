// The dev server (scripts/serve.mjs): hostile paths and methods are answered, never crash it; pages carry a CSP
// header with frame-ancestors.
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
