// Headless Debian Chromium through playwright-core (never a downloaded browser), plus a local server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { createServer, listen } from '../../scripts/serve.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const artifacts = path.join(root, 'test-artifacts');
fs.mkdirSync(artifacts, { recursive: true });
export const offlineUrl = pathToFileURL(path.join(root, 'dist/gpuvalue.html')).href;

export async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function startServer() {
  const server = createServer(path.join(root, 'dist/site'));
  const port = await listen(server, 0);
  return { server, base: `http://127.0.0.1:${port}/` };
}

// A page that records console errors, page errors and every request.
export async function openPage(browser, url, { locale = 'en-US', viewport = { width: 1280, height: 900 } } = {}) {
  const context = await browser.newContext({ locale, viewport });
  const page = await context.newPage();
  const log = { errors: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text()); });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('request', (r) => log.requests.push(r.url()));
  await page.goto(url);
  return { context, page, log };
}
