// The provider filter shows each provider's offer count and price date beside its name, in both languages, from the
// bundled catalog files (counted here from data/catalog, not typed in).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, startServer, openPage, settled } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = path.join(root, 'data/catalog');
const offers = fs.readdirSync(dir).filter((f) => f.endsWith('.json'))
  .flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).instances).filter((o) => !o.example);
// {count, dates: sorted as_of, readOn: newest read_on of undated prices} of one provider.
function expected(provider) {
  const mine = offers.filter((o) => o.provider === provider);
  const prices = mine.flatMap((o) => o.prices);
  return { count: mine.length, dates: prices.map((p) => p.as_of).filter(Boolean).sort(), readOn: prices.filter((p) => !p.as_of).map((p) => p.read_on).sort().at(-1) };
}

async function detailOf(page, provider) {
  await page.click('#f-providers-summary');
  const li = page.locator('#f-providers li').filter({ has: page.locator(`label:text-is("${provider}")`) });
  return (await li.locator('.multi-detail').textContent()).trim();
}

test('each provider in the filter shows its offer count and the date of its prices (en and zh)', async () => {
  const azure = expected('Microsoft Azure');
  assert.ok(azure.count > 0 && azure.dates.length > 0);
  const azureDate = azure.dates[0] === azure.dates.at(-1) ? azure.dates[0] : `${azure.dates[0]} – ${azure.dates.at(-1)}`;
  const baidu = expected('Baidu AI Cloud');
  assert.equal(baidu.dates.length, 0, 'Baidu AI Cloud prices carry only a read date');

  const en = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(en.page);
  assert.equal(await detailOf(en.page, 'Microsoft Azure'), `${azure.count.toLocaleString('en')} offers · prices of ${azureDate}`);
  assert.equal(await detailOf(en.page, 'Baidu AI Cloud'), `${baidu.count} offer${baidu.count === 1 ? '' : 's'} · date unknown, read on ${baidu.readOn}`);
  assert.deepEqual(en.log.errors, []);
  await en.context.close();

  const zh = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=zh`);
  await settled(zh.page);
  // The Chinese page names the provider as its company does in Chinese (web/src/i18n/zh-CN.json provider:…).
  assert.equal(await detailOf(zh.page, '微软 Azure'), `${azure.count} 个报价 · 价格日期 ${azureDate}`);
  assert.equal(await zh.page.locator('#f-providers label:text-is("Microsoft Azure")').count(), 0);
  // Listed in the order of the names shown (Chinese collation), not of the catalog's English names.
  const names = await zh.page.$$eval('#f-providers li label', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(names, [...names].sort(new Intl.Collator('zh-CN').compare));
  assert.ok(names.indexOf('微软 Azure') >= 0 && names.indexOf('微软 Azure') < names.indexOf('亚马逊云科技（AWS）'), names.join(', '));
  await zh.context.close();
});
