#!/usr/bin/env node
// Serves dist/site/ on http://127.0.0.1:PORT/ (PORT defaults to 8080) and prints where the offline file is.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml', '.wasm': 'application/wasm' };

// The served site's policy as a header: what the pages' own <meta> policy says, plus what only a header can say
// (frame-ancestors: only pages of this server may frame the site).
export const SITE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self' data:; "
  + "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; frame-src 'self'; object-src 'none'; base-uri 'none'; "
  + "form-action 'none'; frame-ancestors 'self'";

const HEADERS = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': SITE_CSP,
  'Referrer-Policy': 'no-referrer' };

function refuse(res, status, text, extra = {}) {
  res.writeHead(status, { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra }).end(text);
}

export function createServer(siteDir) {
  return http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuse(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      refuse(res, 400, 'bad request');
      return;
    }
    if (urlPath.includes('\0')) {
      refuse(res, 400, 'bad request');
      return;
    }
    if (urlPath.endsWith('/')) urlPath += 'index.html';
    const file = path.resolve(siteDir, `.${urlPath}`);
    if (!file.startsWith(siteDir + path.sep)) {
      refuse(res, 403, 'forbidden');
      return;
    }
    // Streamed from the file, never held whole per request (two hundred requests for the 1.3 MB engine once
    // grew the server by 300 MB); only regular files are served.
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) {
        refuse(res, 404, 'not found');
        return;
      }
      res.writeHead(200, { ...HEADERS, 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Content-Length': st.size });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const stream = fs.createReadStream(file);
      stream.on('error', () => res.destroy());
      res.on('close', () => stream.destroy());
      stream.pipe(res);
    });
  });
}

export function listen(server, port, host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address().port));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT || 8080);
  const site = path.join(root, 'dist/site');
  if (!fs.existsSync(path.join(site, 'index.html'))) {
    console.error('serve: dist/site/index.html is missing; run `npm run build` first');
    process.exit(1);
  }
  const server = createServer(site);
  try {
    const p = await listen(server, port);
    console.log(`gpuvalue is running at http://127.0.0.1:${p}/`);
    console.log(`offline single file:  ${pathToFileURL(path.join(root, 'dist/gpuvalue.html')).href}`);
    console.log(`embedding example:    http://127.0.0.1:${p}/embed-example.html`);
    console.log('press Ctrl-C to stop');
  } catch (e) {
    if (e.code === 'EADDRINUSE') console.error(`serve: port ${port} is already in use; set PORT to another port, e.g. PORT=8081 npm start`);
    else console.error(`serve: cannot listen on 127.0.0.1:${port}: ${e.message}`);
    process.exit(1);
  }
  const stop = () => { server.close(() => process.exit(0)); setTimeout(() => process.exit(0), 500).unref(); };
  process.on('SIGINT', () => { console.log('\nstopped'); stop(); });
  process.on('SIGTERM', stop);
}
