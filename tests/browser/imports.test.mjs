// Imports of real SkyPilot catalog files (tests/fixtures/skypilot): several files at once, the provider taken from
// the file name when none is typed, one report per file with warnings grouped by reason, and a newer download of
// a provider already imported, under another name: a change summary, then replace, with one import per provider.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, startServer, openPage, settled, tableRows, shot, root } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
test.after(async () => { await browser.close(); server.close(); });

const fixture = (name) => fs.readFileSync(path.join(root, 'tests/fixtures/skypilot', name), 'utf8');
const file = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

// A newer Lambda download: the 1x A6000 is dearer everywhere and the 8x A100 (40 GB) is gone.
function newerLambda() {
  const lines = fixture('lambda-vms.csv').split('\n');
  const dearer = lines.filter((l) => l.startsWith('gpu_1x_a6000,')).length;
  const gone = lines.filter((l) => l.startsWith('gpu_8x_a100,')).length;
  const text = lines.filter((l) => !l.startsWith('gpu_8x_a100,'))
    .map((l) => (l.startsWith('gpu_1x_a6000,') ? l.replace(/^((?:[^,]*,){5})0\.8,/, '$10.86,') : l)).join('\n');
  assert.ok(text.includes('gpu_1x_a6000,A6000,1.0,14.0,100.0,0.86,'), 'the A6000 price was changed');
  return { text, dearer, gone };
}

test('three SkyPilot files at once, then a renamed newer copy of one: one import per provider and a change summary', async () => {
  // Lambda's offers only, so that every imported Lambda row is among the table's first 250.
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en&prov=Lambda`, { viewport: { width: 1366, height: 900 } });
  await settled(page);
  await page.setInputFiles('#import-file', [file('aws-vms.csv', fixture('aws-vms.csv')), file('gcp-vms.csv', fixture('gcp-vms.csv')), file('lambda-vms.csv', fixture('lambda-vms.csv'))]);
  await page.waitForSelector('#import-ok-3', { timeout: 60000 });
  await settled(page);
  // One report per file, each with the provider its name tells.
  const reports = await page.$$eval('.import-report > .notice', (els) => els.map((e) => ({ file: e.dataset.file, ok: e.classList.contains('ok'), text: e.textContent })));
  assert.deepEqual(reports.map((r) => [r.file, r.ok]), [['aws-vms.csv', true], ['gcp-vms.csv', true], ['lambda-vms.csv', true]]);
  assert.match(reports[0].text, /provider AWS/);
  assert.match(reports[1].text, /provider Google Cloud/);
  assert.match(reports[2].text, /provider Lambda/);
  // The GCP report groups its skipped lines by reason: a handful of entries, each with its count.
  const gcp = await page.$$eval('#import-warnings-2 > li', (lis) => lis.map((li) => li.textContent));
  assert.ok(gcp.length <= 7, `${gcp.length} entries in the GCP report`);
  const gcpHeight = await page.$eval('#import-warnings-2', (ul) => ul.getBoundingClientRect().height);
  assert.ok(gcpHeight < 600, `the GCP report is short: ${gcpHeight} px`);
  assert.ok(await page.$('#import-warnings-2 details.issue-group'), 'repeated reasons are grouped');
  // GH200 and the Quadro RTX 6000 of Lambda map to GPUs now: no "maps to no GPU id" for them.
  assert.doesNotMatch(reports[2].text, /"(GH200|RTX6000)" maps to no GPU id/);
  const rows = await tableRows(page);
  assert.ok(rows.some((r) => r.gpu === 'gh200-96gb'), 'GH200 offers are ranked');
  assert.ok(rows.some((r) => r.gpu === 'quadro-rtx6000'), 'Quadro RTX 6000 offers are ranked');
  let catalogs = await page.$$eval('#my-catalogs li .cat-name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(catalogs, ['aws-vms.csv', 'gcp-vms.csv', 'lambda-vms.csv']);
  const lambdaBefore = rows.filter((r) => r.provider === 'Lambda' && r.key.startsWith('skypilot-')).length;
  await page.evaluate(() => document.getElementById('data-panel').scrollIntoView());
  await shot(page, 'import-three.png');

  // The newer Lambda file under another name: nothing changes until the user chooses; the summary says what will.
  const newer = newerLambda();
  await page.setInputFiles('#import-file', [file('vms (lambda, 2026-12-03).csv', newer.text)]);
  await page.waitForSelector('#import-conflict');
  const counts = await page.textContent('#import-conflict .change-counts');
  assert.match(counts, new RegExp(`0 new offers, ${newer.gone} removed, ${newer.dearer} with new prices`));
  // The same move in 17 regions is one line.
  const moves = await page.$$eval('#import-conflict .price-moves li', (lis) => lis.map((li) => li.textContent));
  assert.equal(moves.length, 1);
  assert.match(moves[0], new RegExp(`gpu_1x_a6000 · ${newer.dearer} regions · On-demand: \\$0\\.80 → \\$0\\.86 \\+7\\.5 %`));
  assert.equal((await tableRows(page)).filter((r) => r.provider === 'Lambda' && r.key.startsWith('skypilot-')).length, lambdaBefore);
  await page.evaluate(() => document.getElementById('import-conflict').scrollIntoView());
  await shot(page, 'import-refresh.png');

  await page.click('#import-conflict button[data-mode="replace"]');
  await page.waitForSelector('#import-ok');
  await settled(page);
  assert.match(await page.textContent('#import-ok'), /replaces the earlier import/);
  catalogs = await page.$$eval('#my-catalogs li .cat-name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(catalogs, ['aws-vms.csv', 'gcp-vms.csv', 'vms (lambda, 2026-12-03).csv'], 'one import per provider');
  const after = (await tableRows(page)).filter((r) => r.provider === 'Lambda' && r.key.startsWith('skypilot-'));
  assert.ok(after.length < lambdaBefore, 'the 8x A100 offers are gone');
  assert.ok(!after.some((r) => r.key.includes('gpu_8x_a100')));
  // Kept after a reload.
  await page.reload();
  await settled(page);
  assert.deepEqual(await page.$$eval('#my-catalogs li .cat-name', (els) => els.map((e) => e.textContent)), catalogs);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('merge keeps the earlier offers a newer file lacks; a file without a provider in its name is told by its instance types', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=zh`, { viewport: { width: 768, height: 900 } });
  await settled(page);
  await page.setInputFiles('#import-file', [file('vms.csv', fixture('lambda-vms.csv'))]);
  await page.waitForSelector('#import-ok', { state: 'attached' });
  await settled(page);
  assert.match(await page.textContent('#import-ok'), /Lambda/, 'provider told by gpu_1x_… instance types');
  const before = (await tableRows(page)).filter((r) => r.key.startsWith('skypilot-lambda-')).length;
  await page.setInputFiles('#import-file', [file('vms-new.csv', newerLambda().text)]);
  await page.click('#data-panel-summary');  // the panel is folded below 821 px
  await page.waitForSelector('#import-conflict');
  await page.click('#import-conflict button[data-mode="merge"]');
  await page.waitForSelector('#import-ok');
  await settled(page);
  const rows = (await tableRows(page)).filter((r) => r.key.startsWith('skypilot-lambda-'));
  assert.equal(rows.length, before, 'merged: the 8x A100 offers stay');
  assert.equal(await page.$$eval('#my-catalogs li', (lis) => lis.length), 1);
  await shot(page, 'import-merge-zh.png');
  await context.close();
});

test('the report of a SkyPilot file names the accelerators that match no GPU, with their rows, in both languages', async () => {
  for (const [lang, width, rowsText] of [['en', 1366, /GAUDI2 \(1 row\)/], ['zh', 360, /GAUDI2 \(1 行\)/]]) {
    const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=${lang}`,
      { viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    await settled(page);
    await page.evaluate(() => { document.getElementById('data-panel').open = true; });
    await page.setInputFiles('#import-file', [file('shadeform-vms.csv', fixture('shadeform-vms.csv'))]);
    await page.waitForSelector('#import-ok', { timeout: 60000 });
    await settled(page);
    // GAUDI2 (line 95) is in no GPU record; A4000, A5000, A16 and RTXPro6000 now are.
    const names = await page.$$eval('#import-unmapped code', (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, ['GAUDI2']);
    assert.match(await page.textContent('#import-unmapped'), rowsText);
    // 117 rows map to a GPU; 11 of them are left out as ambiguous (their form factor contradicts the file's other rows of
    // that accelerator: the importer does not guess SXM), and the report says so.
    assert.match(await page.textContent('#import-ok'), lang === 'en' ? /Added 106 offers/ : /已添加 106 个报价/);
    if (lang === 'en') assert.match(await page.textContent('#import-ok'), /left out as ambiguous/);
    await page.evaluate(() => document.getElementById('import-ok').scrollIntoView({ block: 'center' }));
    await shot(page, `import-unmapped-${lang}-${width}.png`);
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});

test('many warnings of one reason: the report shows 20 of them and says how many more, so the page stays light', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await page.evaluate(() => { document.getElementById('data-panel').open = true; });
  // 3,000 rows whose price is not a number, each its own warning, and one row that imports.
  const rows = ['InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone',
    'p3.2xlarge,V100,1,8,61,,3.06,,us-east-1,a'];
  for (let i = 0; i < 3000; ++i) rows.push(`p${i}.x,V100,1,8,61,,n/a,,us-east-${i % 7},z`);
  await page.setInputFiles('#import-file', [file('many-warnings-vms.csv', `${rows.join('\n')}\n`)]);
  await page.waitForSelector('#import-ok', { timeout: 60000 });
  await settled(page);
  const groups = await page.$$eval('#import-warnings details.issue-group', (ds) => ds.map((d) => ({
    summary: d.querySelector('summary').textContent, cases: d.querySelectorAll(':scope > ul > li').length, last: d.querySelector(':scope > ul > li:last-child').textContent })));
  // The engine lists 50 rows of one reason (and counts the rest); the page shows 20 of those and the count of the others.
  const big = groups.find((g) => /Price "n\/a"[\s\S]*50 lines/.test(g.summary));
  assert.ok(big, JSON.stringify(groups));
  assert.equal(big.cases, 21);
  assert.match(big.last, /and 30 more/);
  assert.match(await page.textContent('#import-status'), /2,950 more skipped rows are not listed one by one/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

// Bytes that are not UTF-8 get the CLI's verdict (bin/cli/io.mjs readText), not U+FFFD in the offers.
test('a file that is not UTF-8 is refused at its line and column in both languages; nothing is imported', async () => {
  const bad = fs.readFileSync(path.join(root, 'tests/corpus/catalog-invalid-utf8-string.json'));
  const lines = fixture('lambda-vms.csv').split('\n');
  // A Latin-1 "é" (0xe9) in the third row's instance type: not UTF-8.
  const csv = Buffer.concat([Buffer.from(`${lines.slice(0, 2).join('\n')}\n`), Buffer.from('gpu_1x_\xe9,', 'latin1'), Buffer.from(`${lines[2].split(',').slice(1).join(',')}\n`)]);
  for (const lang of ['en', 'zh']) {
    const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=${lang}`);
    await settled(page);
    const before = await tableRows(page);
    await page.setInputFiles('#import-file', { name: 'bad.json', mimeType: 'application/json', buffer: bad });
    await page.waitForSelector('#import-error');
    const text = await page.textContent('#import-error');
    assert.match(text, /line 6, column 27/, text);
    assert.match(text, lang === 'zh' ? /不是有效的 UTF-8（字节 0xff）/ : /not valid UTF-8 \(byte 0xff\)/, text);
    await page.setInputFiles('#import-file', { name: 'lambda-vms.csv', mimeType: 'text/csv', buffer: csv });
    await page.waitForFunction(() => /byte 0xe9|字节 0xe9/.test(document.querySelector('#import-error')?.textContent || ''));
    assert.match(await page.textContent('#import-error'), /line 3, column 8/);
    assert.equal(await page.$('#import-ok'), null, 'nothing imported');
    assert.deepEqual((await tableRows(page)).map((r) => r.key), before.map((r) => r.key), 'the ranking is unchanged');
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});
