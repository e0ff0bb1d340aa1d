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

test('a catalog attribute adds its offers to its own element only; a missing file says HTTP 404 and is fetched again later', async () => {
  const own = path.join(site, 'test-own-catalog.json');
  const later = path.join(site, 'test-later-catalog.json');
  const host = path.join(site, 'test-own-host.html');
  const doc = (id, provider) => JSON.stringify({ schema_version: 1, instances: [{ id, provider, instance_type: `${id}.8x`, gpu: 'h100-sxm5-80gb', gpu_count: 8,
    region: 'r1', interconnect: 'nvswitch', prices: [{ model: 'on_demand', usd_per_hour: 0.02, as_of: '2026-11-01', source: 'https://example.com/p' }] }] });
  fs.writeFileSync(own, doc('own-1', 'Own Cloud'));
  fs.writeFileSync(host, `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title></head><body>
<gpu-value id="a" preset="resnet50-imagenet" lang="en" catalog="test-own-catalog.json"></gpu-value>
<gpu-value id="b" preset="resnet50-imagenet" lang="en"></gpu-value>
<gpu-value id="d" preset="resnet50-imagenet" lang="en" catalog="test-later-catalog.json"></gpu-value>
<script src="gpu-value.js"></script></body></html>`);
  try {
    const { context, page, log } = await openPage(browser, `${base}test-own-host.html`);
    const ready = (id) => page.waitForFunction((x) => document.getElementById(x)?.dataset.ready, id, { timeout: 30000 })
      .then(() => page.evaluate((x) => ({ state: document.getElementById(x).dataset.ready, text: document.getElementById(x).shadowRoot.textContent }), id));
    const a = await ready('a');
    assert.equal(a.state, '1');
    assert.match(a.text, /Own Cloud/, 'the element with the catalog ranks its $0.02/h offer');
    assert.doesNotMatch((await ready('b')).text, /Own Cloud/, 'an element without the attribute never sees it');
    // The catalog's element removed, a new plain element: still only the bundled offers.
    await page.evaluate(() => {
      document.getElementById('a').remove();
      const c = document.createElement('gpu-value');
      Object.assign(c, { id: 'c' });
      c.setAttribute('preset', 'resnet50-imagenet');
      c.setAttribute('lang', 'en');
      document.body.append(c);
    });
    const c = await ready('c');
    assert.equal(c.state, '1');
    assert.doesNotMatch(c.text, /Own Cloud/);
    // A missing file: the HTTP status, not a JSON syntax error; once the file is there, the element loads it.
    const d = await ready('d');
    assert.equal(d.state, 'error');
    assert.match(d.text, /test-later-catalog\.json could not be fetched \(HTTP 404\)/);
    assert.doesNotMatch(d.text, /syntax|unexpected|line \d/i, 'not read as a JSON syntax error');
    fs.writeFileSync(later, doc('later-1', 'Later Cloud'));
    await page.evaluate(() => { const el = document.getElementById('d'); delete el.dataset.ready; el.setAttribute('catalog', 'test-later-catalog.json'); });
    const d2 = await ready('d');
    assert.equal(d2.state, '1');
    assert.match(d2.text, /Later Cloud/);
    assert.deepEqual(log.errors.filter((e) => !/404/.test(e)), [], 'no error but the 404 the browser logs');
    await context.close();
  } finally {
    for (const f of [own, later, host]) fs.rmSync(f, { force: true });
  }
});
