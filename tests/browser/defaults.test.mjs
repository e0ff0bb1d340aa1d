// Every decision tool opens on a valid run of the engine, before the user types anything: for the presets whose
// top offers use GPUs without a sourced purchase price (AMD MI300X, H100), the Energy tab too.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, settled, shot } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const TOOLS = ['advise', 'probe', 'plan', 'mig', 'levers', 'compare', 'energy'];

// One page per preset; each tool's tab opened in turn on it (a tool first opened by its tab starts from the same
// defaults as one opened by the URL).
for (const preset of ['llama2-7b-pretrain', 'resnet50-imagenet', 'gpt3-175b']) {
  test(`${preset}: every tool opens without an error`, async () => {
    const { context, page, log } = await openPage(browser, `${base}#preset=${preset}&lang=en&tool=${TOOLS[0]}`);
    await settled(page);
    for (const tool of TOOLS) {
      if (tool !== TOOLS[0]) await page.click(`#tab-${tool}`);
      await page.waitForFunction((t) => ['ready', 'error'].includes(document.querySelector(`#tool-${t}`)?.dataset.state), tool, { timeout: 30000 });
      const s = await page.evaluate((t) => {
        const sec = document.querySelector(`#tool-${t}`);
        return { state: sec.dataset.state, errors: [...sec.querySelectorAll('.tool-error, .notice.error, [role="alert"]')].map((e) => e.textContent.slice(0, 200)),
          invalid: [...sec.querySelectorAll('[aria-invalid="true"]')].map((e) => e.id), selected: document.getElementById(`tab-${t}`).getAttribute('aria-selected') };
      }, tool);
      assert.equal(s.selected, 'true', `${tool}: its tab is the selected one`);
      assert.equal(s.state, 'ready', `${tool}: ${s.errors.join(' | ')}`);
      assert.deepEqual(s.errors, [], tool);
      assert.deepEqual(s.invalid, [], tool);
      if (tool === 'energy' && preset === 'llama2-7b-pretrain') {
        await page.evaluate(() => document.getElementById('tool-energy').scrollIntoView());
        await shot(page, 'energy-default.png');
      }
      assert.deepEqual(log.errors, [], tool);
    }
    await context.close();
  });
}
