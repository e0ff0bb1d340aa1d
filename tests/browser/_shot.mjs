// Scratch: screenshots of the calibration flow at 1366 and 360 px in zh and en.
import { launch, startServer, settled } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
const m = process.argv[2] || 'a100-sxm4-80gb*8*5000t*m61.3*r32*n32*pbf16';
for (const lang of ['en', 'zh']) {
  for (const width of [1366, 360]) {
    const context = await browser.newContext({ locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    page.on('console', (x) => { if (x.type() === 'error') console.log('console', x.text()); });
    await page.goto(`${base}#preset=llama2-7b-pretrain&lang=${lang}&tool=probe&m=${m}`);
    await settled(page);
    await page.waitForFunction(() => document.querySelector('#tool-probe')?.dataset.state === 'ready', null, { timeout: 30000 });
    await page.screenshot({ path: `/tmp/shot-${lang}-${width}-top.png` });
    await page.setViewportSize({ width, height: 1700 });
    await page.evaluate(() => document.getElementById('tool-probe').scrollIntoView());
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: `/tmp/shot-${lang}-${width}-tools.png` });
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => document.getElementById('table-title').scrollIntoView());
    await page.screenshot({ path: `/tmp/shot-${lang}-${width}-table.png` });
    console.log(lang, width, await page.textContent('#calib-summary').catch(() => ''));
    await context.close();
  }
}
await browser.close();
server.close();
