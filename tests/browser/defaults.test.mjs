// Every decision tool opens on a valid run of the engine, before the user types anything: for the presets whose
// top offers use GPUs without a sourced purchase price (AMD MI300X, H100), the Energy tab too.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, settled, shot } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const TOOLS = ['advise', 'plan', 'mig', 'levers', 'compare', 'energy'];

for (const preset of ['llama2-7b-pretrain', 'resnet50-imagenet', 'gpt3-175b']) {
  test(`${preset}: every tool opens without an error`, async () => {
    for (const tool of TOOLS) {
      const { context, page, log } = await openPage(browser, `${base}#preset=${preset}&lang=en&tool=${tool}`);
      await settled(page);
      await page.waitForFunction((t) => ['ready', 'error'].includes(document.querySelector(`#tool-${t}`)?.dataset.state), tool, { timeout: 30000 });
      const s = await page.evaluate((t) => {
        const sec = document.querySelector(`#tool-${t}`);
        return { state: sec.dataset.state, errors: [...sec.querySelectorAll('.tool-error, .notice.error, [role="alert"]')].map((e) => e.textContent.slice(0, 200)),
          invalid: [...sec.querySelectorAll('[aria-invalid="true"]')].map((e) => e.id) };
      }, tool);
      assert.equal(s.state, 'ready', `${tool}: ${s.errors.join(' | ')}`);
      assert.deepEqual(s.errors, [], tool);
      assert.deepEqual(s.invalid, [], tool);
      if (tool === 'energy' && preset === 'llama2-7b-pretrain') {
        await page.evaluate(() => document.getElementById('tool-energy').scrollIntoView());
        await shot(page, 'energy-default.png');
      }
      assert.deepEqual(log.errors, [], tool);
      await context.close();
    }
  });
}
