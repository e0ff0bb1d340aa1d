// The embeddable widget renders strings from a catalog as text: markup and javascript: URLs stay inert.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, startServer, openPage, root } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
const site = path.join(root, 'dist/site');
const catalogFile = path.join(site, 'test-hostile-catalog.json');
const hostFile = path.join(site, 'test-hostile-host.html');
test.after(async () => {
  await browser.close();
  server.close();
  fs.rmSync(catalogFile, { force: true });
  fs.rmSync(hostFile, { force: true });
});

test('hostile strings from a catalog render inert inside <gpu-value>', async () => {
  const evil = '<img src=x onerror="window.__xss=1">';
  fs.writeFileSync(catalogFile, JSON.stringify({ instances: [{ id: 'hostile-1', provider: evil, instance_type: 'javascript:window.__xss=2',
    gpu: 'h100-sxm5-80gb', gpu_count: 8, region: '<script>window.__xss=3</script>', interconnect: 'nvswitch',
    prices: [{ model: 'on_demand', usd_per_hour: 0.01, as_of: '2026-11-01', source: 'javascript:window.__xss=4' }] }] }));
  fs.writeFileSync(hostFile, `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' data:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:">
<link rel="icon" href="data:,"><title>host</title></head><body>
<gpu-value id="w" preset="resnet50-imagenet" lang="en" catalog="test-hostile-catalog.json" limit="50"></gpu-value>
<script src="gpu-value.js"></script></body></html>`);
  const { context, page, log } = await openPage(browser, `${base}test-hostile-host.html`);
  await page.waitForFunction(() => document.getElementById('w')?.dataset.ready, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.getElementById('w').dataset.ready), '1');
  const text = await page.evaluate(() => document.getElementById('w').shadowRoot.textContent);
  // The $0.01/h offer ranks among the results and its strings appear verbatim, as text.
  assert.match(text, /javascript:window\.__xss=2/);
  assert.match(text, /<img src=x onerror/);
  const injected = await page.evaluate(() => ({
    imgs: document.getElementById('w').shadowRoot.querySelectorAll('img').length,
    scripts: document.getElementById('w').shadowRoot.querySelectorAll('script').length,
    links: [...document.getElementById('w').shadowRoot.querySelectorAll('a')].map((a) => a.href).filter((h) => h.startsWith('javascript:')),
    xss: window.__xss,
  }));
  assert.deepEqual(injected, { imgs: 0, scripts: 0, links: [], xss: undefined });
  assert.deepEqual(log.errors, []);
  await context.close();
});
