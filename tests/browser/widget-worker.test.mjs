// The widget's engine runs in a worker started from the widget's own script, so that a documentation page with
// several <gpu-value> elements is not held up while ~2,000 offers are ranked; where no worker can start (a page
// opened from disk, or window.GPUVALUE_NO_WORKER) the same questions are answered on the page, with the same tables.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, startServer, openPage, root } from './browser.mjs';
import { installProbe } from './probe.mjs';

const browser = await launch();
const { server, base } = await startServer();
const site = path.join(root, 'dist/site');
const hostFile = path.join(site, 'test-widget-worker.html');
test.after(async () => {
  await browser.close();
  server.close();
  fs.rmSync(hostFile, { force: true });
});

// A host page with a training and a serving element; `before`: a script run before the widget's; `head`: more of
// the page's head (a policy).
const hostPage = (before = '', head = '') => `<!doctype html><html><head><meta charset="utf-8">${head}<link rel="icon" href="data:,"><title>host</title></head><body>
<gpu-value id="train" preset="llama2-7b-pretrain" lang="en" limit="8"></gpu-value>
<gpu-value id="serve" mode="serving" preset="llama3.1-8b" rps="5" ttft-ms="1000" tpot-ms="50" lang="zh" limit="8"></gpu-value>
${before}<script src="gpu-value.js"></script></body></html>`;

// Each element's table rows as text, once both are ready, and what the page's main thread compiled and called.
// `allowed`: console errors the host page's own policy is expected to cause.
async function tables(url, allowed = null) {
  const { context, page, log } = await openPage(browser, url, { init: installProbe });
  await page.waitForFunction(() => ['train', 'serve'].every((id) => document.getElementById(id)?.dataset.ready), null, { timeout: 90000 });
  const out = await page.evaluate(() => ({
    ready: ['train', 'serve'].map((id) => document.getElementById(id).dataset.ready),
    rows: Object.fromEntries(['train', 'serve'].map((id) => [id, [...document.getElementById(id).shadowRoot.querySelectorAll('tbody tr')].map((tr) => tr.textContent)])),
    wasm: window.__probe.wasm,
    sent: window.__probe.sent.length,
  }));
  assert.deepEqual(log.errors.filter((e) => !(allowed && allowed.test(e))), []);
  await context.close();
  return out;
}

test('on a served page the engine runs in the widget\'s worker; without a worker the page answers alike', async () => {
  fs.writeFileSync(hostFile, hostPage());
  const worker = await tables(`${base}test-widget-worker.html`);
  assert.deepEqual(worker.ready, ['1', '1']);
  assert.equal(worker.wasm, 0, 'no wasm compiled on the host page');
  // One question per element, though each was upgraded with several attributes (a callback for each).
  assert.equal(worker.sent, 2, 'questions sent to the worker');
  assert.equal(worker.rows.train.length, 8);
  assert.equal(worker.rows.serve.length, 8);
  assert.match(worker.rows.serve.join('\n'), /H100|H200|A100|L40S|RTX/);

  fs.writeFileSync(hostFile, hostPage('<script src="test-no-worker.js"></script>'));
  fs.writeFileSync(path.join(site, 'test-no-worker.js'), 'window.GPUVALUE_NO_WORKER = true;');
  try {
    const onPage = await tables(`${base}test-widget-worker.html`);
    assert.ok(onPage.wasm > 0, 'the engine compiled on the page');
    assert.deepEqual(onPage.rows, worker.rows);
  } finally {
    fs.rmSync(path.join(site, 'test-no-worker.js'), { force: true });
  }
});

test('a host page opened from disk (no worker from file://) shows the same tables', async () => {
  fs.writeFileSync(hostFile, hostPage());
  const served = await tables(`${base}test-widget-worker.html`);
  const disk = await tables(pathToFileURL(hostFile).href);
  assert.deepEqual(disk.ready, ['1', '1']);
  assert.deepEqual(disk.rows, served.rows);
});

test('a host page whose policy refuses workers gets the same tables from the engine on the page', async () => {
  fs.writeFileSync(hostFile, hostPage());
  const served = await tables(`${base}test-widget-worker.html`);
  const policy = '<meta http-equiv="Content-Security-Policy" content="default-src \'self\'; script-src \'self\' \'wasm-unsafe-eval\'; worker-src \'none\'; style-src \'unsafe-inline\'; img-src data:">';
  fs.writeFileSync(hostFile, hostPage('', policy));
  const refused = await tables(`${base}test-widget-worker.html`, /worker|Worker/);
  assert.deepEqual(refused.ready, ['1', '1']);
  assert.ok(refused.wasm > 0, 'the engine compiled on the page');
  assert.deepEqual(refused.rows, served.rows);
});
