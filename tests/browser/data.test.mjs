// Export (CSV, JSON downloads), the user's own data (imports, the offer form, localStorage) in Chromium.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, startServer, openPage, offlineUrl, settled, reloadWithStored, tableRows, nodeEngine, shot, HOLD_ANSWERS } from './browser.mjs';
import { LOCK_NAME } from '../../web/src/app/storesync.js';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
test.after(async () => { await browser.close(); server.close(); });

// RFC 4180 CSV parser (quotes, doubled quotes, CRLF).
function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; ++i; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n') { row.push(cell.replace(/\r$/, '')); rows.push(row); row = []; cell = ''; } else cell += c;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

async function download(page, buttonId) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`#${buttonId}`)]);
  return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8') };
}

const SKYPILOT_CSV = 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n'
  + 'p3.2xlarge,V100,1.0,8.0,61.0,"{\'Gpus\': [{\'Name\': \'V100\', \'Manufacturer\': \'NVIDIA\', \'Count\': 1, \'MemoryInfo\': {\'SizeInMiB\': 16384}}], \'TotalGpuMemoryInMiB\': 16384}",3.06,0.5197,us-east-1,use1-az1\n'
  + 'p4d.24xlarge,A100,8.0,96.0,1152.0,"{\'Gpus\': [{\'Name\': \'A100\', \'Manufacturer\': \'NVIDIA\', \'Count\': 8, \'MemoryInfo\': {\'SizeInMiB\': 40960}}], \'TotalGpuMemoryInMiB\': 327680}",32.77,9.5,us-east-1,use1-az1\n'
  + 'dl1.24xlarge,Gaudi,8.0,96.0,768.0,,13.1,,us-east-1,use1-az1\n';

test('CSV and JSON exports hold the table as shown (filters, sort, currency), also from file://', async () => {
  for (const url of [`${base}#preset=resnet50-imagenet&lang=zh&cur=USD&sort=cost_usd&dir=asc&prov=Lambda&prov=Nebius`, `${offlineUrl}#preset=resnet50-imagenet&lang=zh&cur=USD&sort=cost_usd&dir=asc&prov=Lambda&prov=Nebius`]) {
    const { context, page, log } = await openPage(browser, url);
    const rows = await tableRows(page);
    assert.ok(rows.length > 5);
    const csv = await download(page, 'export-csv');
    assert.match(csv.name, /^gpuvalue-resnet50-imagenet-\d{4}-\d{2}-\d{2}\.csv$/);
    assert.equal(csv.text.charCodeAt(0), 0xfeff, 'UTF-8 BOM for spreadsheets');
    const table = parseCsv(csv.text.slice(1));
    const head = table[0];
    for (const k of ['rank', 'instance', 'id', 'provider', 'region', 'pricing', 'fits', 'time_hours', 'cost_usd', 'usd_per_tflops_day', 'score', 'as_of', 'source', 'reasons', 'warnings']) assert.ok(head.includes(k), k);
    const body = table.slice(1).filter((r) => r.length > 1);
    assert.equal(body.length, rows.length);
    const col = (name) => head.indexOf(name);
    body.forEach((r, i) => {
      assert.equal(`${r[col('id')]}|${r[col('pricing')]}`, rows[i].key);
      // Amounts to the cent, no float noise (the JSON export keeps the engine's numbers).
      assert.equal(r[col('cost_usd')], String(Number(rows[i].cost.toFixed(2))));
      for (const k of ['time_hours', 'cost_usd', 'usd_per_hour', 'usd_per_tflops_day', 'score']) assert.ok(!/\d{9,}/.test(r[col(k)]), `${k} = ${r[col(k)]}`);
      assert.ok(['Lambda', 'Nebius'].includes(r[col('provider')]));
    });
    assert.ok(!head.includes('cost_cny'));

    await page.selectOption('#currency', 'CNY');
    await settled(page);
    const cny = parseCsv((await download(page, 'export-csv')).text.slice(1));
    const rate = Number(await page.inputValue('#rate'));
    const i = cny[0].indexOf('cost_cny');
    assert.ok(i > 0);
    const rawCost = (await tableRows(page))[0].cost;
    assert.equal(Number(cny[1][i]), Number((rawCost * rate).toFixed(2)));

    const json = await download(page, 'export-json');
    assert.match(json.name, /\.json$/);
    const j = JSON.parse(json.text);
    assert.equal(j.results.length, rows.length);
    assert.deepEqual(j.results.map((r) => `${r.id}|${r.pricing}`), rows.map((r) => r.key));
    assert.equal(j.results[0].rank, rows[0].rank);
    assert.equal(j.results[0].cost_usd, rows[0].cost, 'the JSON export keeps the engine\'s numbers exactly');
    assert.deepEqual(j.request.filters.providers, ['Lambda', 'Nebius']);
    assert.equal(j.request.preset, 'resnet50-imagenet');
    assert.equal(j.currency, 'CNY');
    assert.equal(j.cny_per_usd, rate);
    assert.ok(j.workload.total_flops > 1e18);
    assert.ok(!('_key' in j.results[0]));
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});

test('a bad catalog import shows the engine’s errors with their paths and changes nothing', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  const before = await tableRows(page);
  const summaryBefore = await page.textContent('#summary');
  const bad = JSON.stringify({ schema_version: 1, instances: [{ id: 'x-1', provider: 'Bad Cloud', instance_type: 'b1', gpu: 'zz-9000', gpu_count: 'eight', region: 'r', currency: 'USD', prices: [] }] });
  await page.setInputFiles('#import-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  await page.waitForSelector('#import-error');
  await settled(page);
  const err = await page.textContent('#import-error');
  assert.match(err, /bad\.json/);
  assert.match(err, /Nothing was changed/);
  const paths = await page.$$eval('#import-errors code.path', (els) => els.map((e) => e.textContent));
  assert.deepEqual(paths, ['/instances/0/gpu', '/instances/0/gpu_count', '/instances/0/prices']);
  assert.match(err, /unknown GPU id "zz-9000"/);
  assert.deepEqual((await tableRows(page)).map((r) => r.key), before.map((r) => r.key));
  assert.equal(await page.textContent('#summary'), summaryBefore);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')), null);
  await shot(page, 'import-error.png');

  // Broken JSON: the error names line and column; a CSV without the SkyPilot columns names line 1.
  await page.setInputFiles('#import-file', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"schema_version": 1,\n  "instances": [\n') });
  await page.waitForFunction(() => /broken\.json/.test(document.getElementById('import-error')?.textContent || ''));
  assert.match(await page.textContent('#import-errors'), /line 3, column \d+/);
  await page.setInputFiles('#import-file', { name: 'vms.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Cost\na,1\n') });
  await page.waitForFunction(() => /InstanceType/.test(document.getElementById('import-errors')?.textContent || ''));
  assert.deepEqual([...new Set(await page.$$eval('#import-errors code.path', (els) => els.map((e) => e.textContent)))], ['line 1']);
  assert.deepEqual((await tableRows(page)).map((r) => r.key), before.map((r) => r.key));
  await context.close();
});

test('catalog strings are shown as text: markup in names and non-http sources stay inert', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  const evil = '<img src=x onerror="window.__xss=1">';
  const doc = { schema_version: 1, instances: [{ id: 'evil-1', provider: evil, instance_type: '<b>bold</b>', gpu: 'a100-sxm4-80gb', gpu_count: 1, region: 'r"><script>window.__xss=3</script>', currency: 'USD',
    prices: [{ model: 'on_demand', usd_per_hour: 0.05, as_of: '2026-11-01', source: 'javascript:window.__xss=2' }] }] };
  await page.setInputFiles('#import-file', { name: 'evil<i>.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await page.waitForSelector('#import-ok');
  await settled(page);
  await page.click('#ranking tbody tr[data-key="evil-1|on_demand"] button.link');
  await settled(page);
  assert.equal(await page.textContent('#ranking tbody tr[data-key="evil-1|on_demand"] button.link'), '<b>bold</b>');
  assert.match(await page.textContent('#details'), /<img src=x onerror/);
  assert.match(await page.textContent('#details'), /javascript:window.__xss=2/);
  assert.equal(await page.$('#details a.source-link'), null);
  assert.equal(await page.$('#app img, #app b, #app i, #app script'), null);
  await page.click('#f-providers-summary');
  assert.ok(await page.$(`#f-providers label:text-is('${evil}')`));
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a SkyPilot vms.csv imports through the engine, is kept after a reload and can be removed', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await page.fill('#import-provider', 'TestCloud');
  // Drag and drop onto the drop zone.
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'vms.csv', { type: 'text/csv' }));
    document.getElementById('drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, SKYPILOT_CSV);
  await page.waitForSelector('#import-ok');
  await settled(page);
  assert.match(await page.textContent('#import-ok'), /Added 2 offers from vms\.csv/);
  assert.match(await page.textContent('#import-warnings'), /line 4.*Gaudi/);
  await page.evaluate(() => document.getElementById('data-panel').scrollIntoView());
  await shot(page, 'import-skypilot.png');
  // The table shows the first 250 rows; the provider filter brings the imported ones together.
  await page.evaluate(() => { location.hash = `${location.hash}&prov=TestCloud`; });
  const rows = await tableRows(page);
  const mine = rows.filter((r) => r.provider === 'TestCloud');
  assert.deepEqual(mine.map((r) => r.key).sort(), ['skypilot-testcloud-p3.2xlarge-us-east-1|on_demand', 'skypilot-testcloud-p3.2xlarge-us-east-1|spot',
    'skypilot-testcloud-p4d.24xlarge-us-east-1|on_demand', 'skypilot-testcloud-p4d.24xlarge-us-east-1|spot']);
  assert.equal(rows.length, 4);
  // The imported offers are priced by the engine like any other (p3.2xlarge on demand at $3.06/h).
  const imp = engine.importSkypilot(SKYPILOT_CSV, { provider: 'TestCloud' });
  assert.ok(engine.addCatalog(JSON.stringify(imp.catalog)).ok);
  const want = engine.rank({ preset: 'resnet50-imagenet', precision: 'bf16', weights: engine.defaults().weights, filters: { providers: ['TestCloud'], include_examples: false, fits_only: false } }).results;
  for (const w of want) assert.equal(mine.find((r) => r.key === `${w.id}|${w.pricing}`).cost, w.cost_usd);
  assert.ok(await page.$('#ranking tbody tr[data-provider="TestCloud"] .badge.user'));
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')));
  assert.equal(stored.version, 1);
  assert.equal(stored.catalogs[0].kind, 'skypilot');

  // The same file again: a refresh of the earlier import, nothing changed until the user chooses; keeping the
  // earlier import changes nothing.
  await page.setInputFiles('#import-file', { name: 'vms.csv', mimeType: 'text/csv', buffer: Buffer.from(SKYPILOT_CSV) });
  await page.waitForSelector('#import-conflict');
  assert.match(await page.textContent('#import-conflict .change-counts'), /0 new offers, 0 removed, 0 with new prices, 2 unchanged/);
  assert.equal((await tableRows(page)).length, 4);
  await page.click('#import-conflict button[data-mode="keep"]');
  await page.waitForSelector('#import-kept');
  assert.equal((await tableRows(page)).length, 4);

  await page.reload();
  const again = await tableRows(page);
  assert.equal(again.filter((r) => r.provider === 'TestCloud').length, 4);
  assert.match(await page.textContent('#my-catalogs'), /vms\.csv.*SkyPilot CSV.*2 offers/);
  await page.click('#my-catalogs button[data-index="0"]');
  await settled(page);
  assert.equal((await tableRows(page)).filter((r) => r.provider === 'TestCloud').length, 0);
  assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs'))).catalogs, []);
  await context.close();
});

test('an offer typed into the form is ranked, editable, and kept in localStorage', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await page.click('#offer-form-summary');
  // Missing price: refused with a visible message.
  await page.fill('#of-provider', 'Test Cloud');
  await page.fill('#of-instance', 'tc.8xh100');
  await page.fill('#of-region', 'test-1');
  await page.selectOption('#of-gpu', 'h100-sxm5-80gb');
  await page.fill('#of-count', '8');
  await page.selectOption('#of-interconnect', 'nvswitch');
  await page.fill('#of-source', 'quote from sales, 2026');
  await page.click('#offer-save');
  await page.waitForSelector('#offer-status .notice.error');
  assert.match(await page.textContent('#offer-status'), /give at least one price/);
  assert.equal((await tableRows(page)).filter((r) => r.provider === 'Test Cloud').length, 0);

  // ResNet-50 finishes on one 8-GPU machine well within the horizon, and $1.25 and $0.50 per GPU-hour are cheaper than
  // the bundled H100 offers: its rows are on the first screen (250 rows) however many offers the bundled catalog holds.
  await page.fill('#of-ondemand', '10');
  await page.fill('#of-spot', '4');
  await page.click('#offer-save');
  await settled(page);
  let rows = (await tableRows(page)).filter((r) => r.provider === 'Test Cloud');
  assert.deepEqual(rows.map((r) => r.pricing).sort(), ['on_demand', 'spot']);
  const id = rows[0].key.split('|')[0];
  assert.equal(id, 'user-test-cloud-tc.8xh100-test-1');
  assert.match(await page.textContent('#details-title'), /tc\.8xh100/);
  const today = new Date().toISOString().slice(0, 10);
  const doc = { schema_version: 1, instances: [{ id, provider: 'Test Cloud', instance_type: 'tc.8xh100', gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'test-1', currency: 'USD', interconnect: 'nvswitch',
    prices: [{ model: 'on_demand', usd_per_hour: 10, as_of: today, source: 'quote from sales, 2026' },
      { model: 'spot', usd_per_hour: 4, as_of: today, source: 'quote from sales, 2026' }] }] };
  assert.ok(engine.addCatalog(JSON.stringify(doc)).ok);
  const want = engine.rank({ preset: 'resnet50-imagenet', precision: 'bf16', weights: engine.defaults().weights, filters: { providers: ['Test Cloud'], fits_only: false, include_examples: false } }).results;
  const od = rows.find((r) => r.pricing === 'on_demand');
  assert.equal(od.cost, want.find((w) => w.pricing === 'on_demand').cost_usd);

  // Edit: the price goes up by 10 %, so does the on-demand job cost (same hours).
  // The engine host holds the typed offer's document: the form opens filled once its record arrives.
  await page.click('#my-catalogs button:has-text("Edit")');
  await page.waitForFunction(() => document.getElementById('of-provider')?.value === 'Test Cloud');
  assert.equal(await page.inputValue('#of-ondemand'), '10');
  await page.fill('#of-ondemand', '11');
  await page.click('#offer-save');
  await settled(page);
  rows = (await tableRows(page)).filter((r) => r.provider === 'Test Cloud');
  const od2 = rows.find((r) => r.pricing === 'on_demand');
  assert.ok(Math.abs(od2.cost / od.cost - 1.1) < 0.01, `${od2.cost} vs ${od.cost}`);
  assert.equal(rows.length, 2, 'edited, not added');

  await page.reload();
  rows = (await tableRows(page)).filter((r) => r.provider === 'Test Cloud');
  assert.equal(rows.find((r) => r.pricing === 'on_demand').cost, od2.cost);

  // "Copy as my offer" fills the form from a bundled offer.
  await page.click('#ranking tbody tr[data-provider="AWS"] button.link');
  await page.click('#details-template');
  assert.equal(await page.inputValue('#of-provider'), 'AWS');
  assert.equal(await page.inputValue('#of-source'), '');
  await shot(page, 'offer-form.png', { fullPage: true });
  await context.close();
});

test('a corrupt localStorage value gives a visible notice and a working page, not a blank one', async () => {
  const cases = [
    ['{"version":1,"catalogs":[{"oops"', 'storage-notice', /could not be read/],
    ['{"version":1,"catalogs":"x"}', 'storage-notice', /could not be read/],
    ['{"version":3,"catalogs":[]}', 'storage-notice', /newer version/],
    // A member whose conversion to text throws: read as corrupt data, never an exception that stops the page.
    ['{"version":1,"catalogs":[{"name":"a","kind":"json","added":{"toString":1},"doc":{"instances":[]}}]}', 'storage-notice', /could not be read/],
    [JSON.stringify({ version: 1, catalogs: [{ name: 'old.json', kind: 'json', added: '2026-01-01', doc: { schema_version: 1, instances: [{ id: 'old-1', provider: 'Old', instance_type: 'o1', gpu: 'gone-gpu', gpu_count: 1, region: 'r', currency: 'USD', prices: [{ model: 'on_demand', usd_per_hour: 1, as_of: '2026-01-01', source: 's' }] }] } }] }), 'storage-rejected', /old\.json/],
  ];
  // One page; each case starts from an empty store and reloads with its value.
  const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  for (const [value, noticeId, text] of cases) {
    await reloadWithStored(page, { 'gpuvalue.userCatalogs': value }, { clear: true });
    await settled(page);
    const notice = await page.textContent(`#${noticeId}`);
    assert.match(notice, text);
    assert.ok((await tableRows(page)).length > 50, 'the page still works');
    const aside = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('gpuvalue.userCatalogs.unreadable.'))
      .map((k) => localStorage.getItem(k)));
    if (/newer version/.test(notice)) {
      // A newer version's value stays where that version reads it: not moved aside, not overwritten.
      assert.deepEqual(await aside(), []);
      assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')), value);
    } else if (noticeId === 'storage-notice') {
      assert.deepEqual(await aside(), [value], 'the unreadable value is kept aside');
      assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')), null);
      // A second unreadable value gets a slot of its own: the first copy stays (whatever the first value was, so
      // checked once).
      if (value === cases[0][0]) {
        await reloadWithStored(page, { 'gpuvalue.userCatalogs': '{"broken' });
        await settled(page);
        assert.deepEqual((await aside()).sort(), ['{"broken', value].sort());
      }
    } else {
      // A catalog the engine refuses stays stored, listed with the reason and an Export button.
      assert.equal(JSON.parse(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs'))).catalogs[0].name, 'old.json');
      assert.match(await page.textContent('#my-catalogs'), /old\.json[\s\S]*Not loaded:[\s\S]*gone-gpu/);
    }
    if (value === cases[0][0]) await shot(page, 'storage-corrupt.png');
    await page.click(`#${noticeId} button`);
    assert.equal(await page.$(`#${noticeId}`), null);
    assert.deepEqual(log.errors, [], value.slice(0, 60));
  }
  await context.close();
});

test('a stored value too large to copy aside stays in place and is not overwritten; big imports are session-only', async () => {
  const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  // Over half of Chromium's localStorage quota (5 M characters): no room for a copy.
  const bigValue = `{"broken${'x'.repeat(3_000_000)}`;
  const big = bigValue.length;
  await reloadWithStored(page, { 'gpuvalue.userCatalogs': bigValue });
  await settled(page);
  assert.match(await page.textContent('#storage-notice'), /left exactly where they are/);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs').length), big);
  // An import now is used for this session and does not replace the stored value.
  const doc = { schema_version: 1, instances: [{ id: 'sess-1', provider: 'Sess', instance_type: 's1', gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: 9, as_of: '2026-11-01', source: 's' }] }] };
  await page.setInputFiles('#import-file', { name: 'sess.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await page.waitForSelector('#import-session-only');
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs').length), big);
  assert.match(await page.textContent('#my-catalogs'), /sess\.json[\s\S]*this session only/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('an empty hand-entered catalog does not break the page and offers no Edit button', async () => {
  const stored = JSON.stringify({ version: 1, catalogs: [{ name: 'empty', kind: 'manual', added: '2026-11-01', doc: { schema_version: 1, instances: [] } }] });
  // Stored before the page's first script runs (no reload in between: the page reads exactly this value).
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  await context.addInitScript((v) => { if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpuvalue.userCatalogs', v); sessionStorage.setItem('seeded', '1'); } }, stored);
  const page = await context.newPage();
  const log = { errors: [] };
  page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text()); });
  page.on('pageerror', (e) => log.errors.push(e.message));
  await page.goto(`${offlineUrl}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  // Which list the page drew, and in what state, if not the one expected (a failure then says what was on screen).
  await page.waitForSelector('#my-catalogs, #my-catalogs-empty, #startup-reset');
  const seen = await page.evaluate(() => ({ ready: document.body.dataset.ready, list: (document.querySelector('#my-catalogs, #my-catalogs-empty, #startup-reset') || {}).id,
    stored: localStorage.getItem('gpuvalue.userCatalogs'), notices: [...document.querySelectorAll('.notice')].map((n) => n.textContent).join(' | ') }));
  assert.equal(seen.list, 'my-catalogs', JSON.stringify(seen));
  assert.match(await page.textContent('#my-catalogs'), /empty/);
  assert.equal(await page.$$eval('#my-catalogs button', (bs) => bs.filter((b) => /^Edit$/.test(b.textContent)).length), 0);
  assert.deepEqual(log.errors, []);
  await context.close();
});

// A catalog file of the user's with one offer (8x H100 at $17.5/h) of `provider`, as the import input takes it.
const ownCatalog = (name, provider) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ schema_version: 1,
  instances: [{ id: `${name}-1`, provider, instance_type: 'm1', gpu: 'h100-sxm5-80gb', gpu_count: 8, region: 'eu-1', currency: 'USD', interconnect: 'nvswitch',
    prices: [{ model: 'on_demand', usd_per_hour: 17.5, as_of: '2026-11-20', source: 'https://example.com/prices' }] }] })) });
// Imports it and waits until the page has settled with it.
async function importOwn(page, name, provider) {
  await page.setInputFiles('#import-file', ownCatalog(name, provider));
  await page.waitForSelector('#import-ok', { timeout: 30000 });
  await settled(page);
}

// Takes the page's store lock (Web Locks: as another tab writing the list would) until window.releaseStoreLock().
async function holdStoreLock(page) {
  await page.evaluate((name) => { navigator.locks.request(name, () => new Promise((resolve) => { window.releaseStoreLock = resolve; })); }, LOCK_NAME);
  await page.waitForFunction(() => typeof window.releaseStoreLock === 'function');
}

// Waits until the ranking shows an offer of `provider`; when it does not, the failure says what the page shows.
async function offerShown(page, provider, timeout = 30000) {
  await page.waitForFunction((p) => [...document.querySelectorAll('#ranking tbody tr')].some((tr) => tr.dataset.provider === p), provider, { timeout })
    .catch(async (e) => assert.fail(`${e.message}; the page shows: ${JSON.stringify(await page.evaluate(() => ({
      hash: location.hash, ready: document.body.dataset.ready, busy: document.body.dataset.busy, host: window.gpuvalue.app.host.kind,
      failed: String(window.gpuvalue.app.host.failed || ''), rows: document.querySelectorAll('#ranking tbody tr').length,
      providers: [...new Set([...document.querySelectorAll('#ranking tbody tr')].map((tr) => tr.dataset.provider))].slice(0, 8),
      filters: window.gpuvalue.app.state.filters, notices: [...document.querySelectorAll('.notice')].map((n) => n.textContent).join(' | '),
      catalogs: window.gpuvalue.app.store.session.userData.catalogs.map((c) => c.name) })))}`));
}

test('a long import shows its progress and can be cancelled; the engine restarts with the user catalogs', async () => {
  const { context, page, log } = await openPage(browser, `${base}index.html#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  // A catalog of the user's, imported first: the fresh engine gets it back from the page (its document as a Blob
  // the old worker made, read by the new one).
  await importOwn(page, 'mine.json', 'Mine Cloud');
  const stored = await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs'));
  assert.match(stored, /mine\.json/);
  const head = 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n';
  const rows = [];
  // Just under the engine's 200,000-row import limit (core/src/io/limits.hpp): many seconds of work to cancel.
  for (let i = 0; i < 199_000; ++i) rows.push(`p${i}.x,V100,1.0,8.0,61.0,,3.06,,region-${i % 50},a\n`);
  await page.setInputFiles('#import-file', { name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.from(head + rows.join('')) });
  await page.waitForSelector('#import-cancel', { timeout: 30000 });
  await page.click('#import-cancel');
  await page.waitForSelector('#import-error', { timeout: 60000 });
  assert.match(await page.textContent('#import-error'), /cancelled/);
  await settled(page);
  assert.ok((await tableRows(page)).length > 50, 'the page works with a fresh engine');
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')), stored, 'nothing else was stored');
  await page.evaluate(() => { location.hash = '#preset=resnet50-imagenet&lang=en&prov=Mine%20Cloud'; });
  await offerShown(page, 'Mine Cloud', 60000);
  assert.match(await page.textContent('#my-catalogs'), /mine\.json/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a cancel before the import has begun stops it; the engine restarts with the user catalogs, and nothing waits forever', async () => {
  const { context, page, log } = await openPage(browser, `${base}index.html#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await importOwn(page, 'mine.json', 'Mine Cloud');
  const stored = await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs'));
  // Another step holds the store lock (another tab writing the list): the next import waits for it, its cancel
  // button shown, and is cancelled before it has begun.
  await holdStoreLock(page);
  await page.setInputFiles('#import-file', ownCatalog('later.json', 'Later Cloud'));
  await page.click('#import-cancel');
  await page.evaluate(() => window.releaseStoreLock());
  await page.waitForSelector('#import-error', { timeout: 30000 });
  assert.match(await page.textContent('#import-error'), /cancelled/);
  await settled(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs')), stored, 'nothing else was stored');
  await page.evaluate(() => { location.hash = '#preset=resnet50-imagenet&lang=en&prov=Mine%20Cloud'; });
  await offerShown(page, 'Mine Cloud');
  assert.doesNotMatch(await page.textContent('#my-catalogs'), /later\.json/);
  // The store is free again: a later import goes through.
  await importOwn(page, 'again.json', 'Again Cloud');
  assert.match(await page.textContent('#my-catalogs'), /mine\.json[\s\S]*again\.json/);
  // A step that holds the store lock calls the engine while the engine is being replaced (after a wasm abort, say):
  // its call goes to the fresh engine, and the restore of the user's catalogs waits for the lock, not the step for it.
  await holdStoreLock(page);
  await page.click('#my-catalogs button[data-index="1"]');
  await page.evaluate(() => { window.gpuvalue.host.restart(new Error('replaced by the test')); window.releaseStoreLock(); });
  await page.waitForFunction(() => !/again\.json/.test(document.getElementById('my-catalogs').textContent), null, { timeout: 30000 });
  await settled(page);
  assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs'))).catalogs.map((c) => c.name), ['mine.json']);
  assert.ok((await tableRows(page)).some((r) => r.provider === 'Mine Cloud'), 'the fresh engine has the user\'s catalog');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a restart during the restore of the user catalogs restores them again, without a false "could not load" notice', async () => {
  const { context, page, log } = await openPage(browser, `${base}index.html#preset=resnet50-imagenet&lang=en`, { init: HOLD_ANSWERS });
  await settled(page);
  await importOwn(page, 'mine.json', 'Mine Cloud');
  await page.evaluate(() => { location.hash = '#preset=resnet50-imagenet&lang=en&prov=Mine%20Cloud'; });
  await offerShown(page, 'Mine Cloud');
  await settled(page);
  // The engine is replaced (a wasm abort, say) while the test holds the store lock: the restore waits for it.
  await holdStoreLock(page);
  await page.evaluate(() => { window.gpuvalue.host.restart(new Error('replaced by the test')); });
  await page.waitForFunction(() => !window.gpuvalue.host.replacing, null, { timeout: 30000 });
  // The restore's call is made and held on its way back; the engine is replaced again before it answers.
  await page.evaluate(() => { window.holdAnswers = true; window.releaseStoreLock(); });
  await page.waitForFunction(() => window.gpuvalue.host.waiting.size > 0, null, { timeout: 30000 });
  await page.evaluate(() => { window.gpuvalue.host.restart(new Error('replaced by the test again')); window.releaseAnswers(); });
  await page.waitForFunction(() => !window.gpuvalue.host.replacing, null, { timeout: 30000 });
  // The user's offer is ranked again.
  await offerShown(page, 'Mine Cloud');
  await settled(page);
  assert.equal(await page.$('#storage-restore'), null, 'no notice that the catalogs could not be loaded');
  // Saving still works: a later import is stored, not kept for this session only.
  await importOwn(page, 'again.json', 'Again Cloud');
  assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('gpuvalue.userCatalogs'))).catalogs.map((c) => c.name), ['mine.json', 'again.json']);
  assert.deepEqual(log.errors, []);
  await context.close();
});
