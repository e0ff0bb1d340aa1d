// The widget on a documentation page: a host page served by scripts/serve.mjs with three <gpu-value> elements (two
// rankings, one serving table, as in web/embed-example.html without its iframe), loaded `runs` times. For each load:
// ms from navigation start until every element is ready (data-ready), and the ms of JavaScript and wasm (garbage
// collection included) the host page's main thread ran meanwhile, from a CPU profile of the page: the sampled time
// that is neither idle nor `(program)`, the native work the profiler cannot attribute (parsing, layout, paint).
/* global document */
import fs from 'node:fs';
import path from 'node:path';
import { createServer, listen } from '../scripts/serve.mjs';

const HOST = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>widget bench</title></head><body>
<gpu-value id="a" preset="llama2-7b-pretrain" lang="en" compact></gpu-value>
<gpu-value id="b" preset="resnet50-imagenet" lang="zh"></gpu-value>
<gpu-value id="c" mode="serving" preset="llama3.1-8b" rps="5" ttft-ms="1000" tpot-ms="50" lang="en" compact></gpu-value>
<script src="gpu-value.js"></script></body></html>`;

export async function widgetLoads(browser, siteDir, runs = 5) {
  const file = path.join(siteDir, 'bench-widget-host.html');
  fs.writeFileSync(file, HOST);
  const server = createServer(siteDir);
  const port = await listen(server, 0);
  const ready = [];
  const busy = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
      await page.goto(`http://127.0.0.1:${port}/bench-widget-host.html`);
      await page.waitForFunction(() => ['a', 'b', 'c'].every((id) => document.getElementById(id)?.dataset.ready), null, { timeout: 120000 });
      ready.push(await page.evaluate(() => performance.now()));
      const { profile } = await cdp.send('Profiler.stop');
      const idle = new Set(profile.nodes.filter((n) => ['(idle)', '(program)'].includes(n.callFrame.functionName)).map((n) => n.id));
      let us = 0;
      profile.samples.forEach((s, k) => { if (!idle.has(s)) us += profile.timeDeltas[k] || 0; });
      busy.push(us / 1000);
      await context.close();
    }
  } finally {
    server.close();
    fs.rmSync(file, { force: true });
  }
  return { ready, busy };
}
