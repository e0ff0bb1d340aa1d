// Calibrating the ranking on the user's own measurement, in Chromium with the real engine and catalog: the
// "Measure on your trial" tab writes the measurement script for the workload (its CONFIG as the engine plans it on
// the trial GPUs, a file that compiles), a pasted probe line re-ranks every offer exactly as the engine ranks it with
// `measurements`, rows are marked, the link and a reload keep it, and a bad line is refused at its place in both
// languages while the table stays as it was.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { launch, startServer, openPage, settled, tableRows, shown, nodeEngine, shot } from './browser.mjs';
import { probeConfig } from '../../web/src/tools/probescript.js';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
test.after(async () => { await browser.close(); server.close(); });

const PRESET = 'llama2-7b-pretrain';
const TRIAL = { gpu: 'a100-sxm4-80gb', count: 8 };
const python = spawnSync('python3', ['--version']).status === 0;

const panelDone = (page) => page.waitForFunction(() => document.querySelector('#tool-probe')?.dataset.state === 'ready'
  && !document.querySelector('#tool-probe-out')?.hasAttribute('aria-busy'), null, { timeout: 30000 });
const hashOf = (page) => page.evaluate(() => location.hash);
const pageRequest = (page) => page.evaluate(() => window.gpuvalue.app.store.request());
const keys = async (page) => (await tableRows(page)).map((r) => r.key);

// The line the script prints on 8 A100 SXM4 80GB, at `share` of the engine's own prediction for that trial.
function probeLine(share) {
  const est = engine.estimate({ preset: PRESET, precision: 'bf16', gpu: TRIAL.gpu, count: TRIAL.count });
  const tokens = Math.round(est.throughput.tokens_per_s * share * 10) / 10;
  return JSON.stringify({ gpuvalue_probe: 1, preset: PRESET, kind: 'transformer', mode: 'pretrain', gpu_name: 'NVIDIA A100-SXM4-80GB', gpu_memory_gb: 85.1,
    gpu_count: TRIAL.count, precision: 'bf16', tokens_per_s: tokens, step_s: 0.71, peak_memory_gb: 61.3, torch: '2.4.0', cuda: '12.4',
    layers_run: 32, layers: 32, seq_len: 4096, micro_batch: 1 });
}

async function paste(page, text) {
  await page.fill('#probe-paste', text);
  await page.click('#probe-add');
}

// The script on the page: its CONFIG is the one the engine's plan on the trial gives, the download is the same text,
// and (with python3 here) it compiles.
async function checkScript(t, page) {
  await page.selectOption('#probe-gpu', TRIAL.gpu);
  await page.fill('#probe-count', String(TRIAL.count));
  await page.press('#probe-count', 'Enter');
  await page.waitForFunction((n) => document.querySelector('#probe-run')?.textContent === `torchrun --nproc_per_node=${n} probe.py`, TRIAL.count, { timeout: 15000 });
  await panelDone(page);
  const script = await page.textContent('#probe-script');
  const line = script.split('\n').find((l) => l.startsWith('CONFIG = json.loads('));
  const config = JSON.parse(JSON.parse(line.slice('CONFIG = json.loads('.length, -1)));
  const planned = engine.estimate({ preset: PRESET, precision: 'bf16', gpu: TRIAL.gpu, count: TRIAL.count });
  const preset = engine.presets().find((p) => p.id === PRESET);
  assert.deepEqual(config, probeConfig(preset.workload, { preset: PRESET, shape: planned.shape, plan: planned.plan, precision: planned.precision,
    fallback: engine.defaults().custom_workloads.transformer }));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#probe-download')]);
  assert.equal(download.suggestedFilename(), 'probe.py');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-probe-')), 'probe.py');
  await download.saveAs(file);
  assert.equal(fs.readFileSync(file, 'utf8'), script);
  if (python) {
    const r = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  } else {
    t.diagnostic('python3 is not installed here: the script was not compiled (py_compile skipped)');
  }
}

// The link holds the measurement and a reload shows the same calibrated table; measurements follow the workload; a
// tab opened on the workload without them in its link gets them back from this browser, and its export carries them.
async function keptAcrossVisits(page, context, after, { ranked, measurement, lang }) {
  assert.match(decodeURIComponent(await hashOf(page)), /m=a100-sxm4-80gb\*8\*/);
  await page.reload();
  await settled(page);
  assert.deepEqual(await keys(page), after);
  assert.equal(await page.isVisible('#calib-summary'), true);

  // Another preset is uncalibrated; coming back finds the measurement again.
  await page.selectOption('#preset', 'resnet50-imagenet');
  await page.waitForSelector('#calib-summary[hidden]', { state: 'attached', timeout: 30000 });
  await settled(page);
  assert.equal((await pageRequest(page)).measurements, undefined);
  await page.selectOption('#preset', PRESET);
  await page.waitForSelector('#calib-summary:not([hidden])', { timeout: 30000 });
  assert.deepEqual(await keys(page), after);

  const other = await context.newPage();
  await other.goto(`${base}#preset=${PRESET}&lang=${lang}`);
  await settled(other);
  assert.equal(await other.isVisible('#calib-saved'), true);
  assert.deepEqual(await keys(other), after);
  const [file] = await Promise.all([other.waitForEvent('download'), other.click('#export-json')]);
  const exported = JSON.parse(fs.readFileSync(await file.path(), 'utf8'));
  assert.equal(exported.calibration.factor, ranked.calibration.factor);
  assert.deepEqual(exported.request.measurements, [measurement]);
  assert.ok(exported.results.every((r) => r.calibrated && r.calibrated.distance));
  await other.close();
}

// English runs the whole flow; Chinese the parts whose text is the reader's (the rows' marks, the screenshot, a bad
// line's error), the rest being the same code in either language.
for (const lang of ['en', 'zh']) {
  const full = lang === 'en';
  test(`${lang}: ${full ? 'get the script, paste its line, the ranking is recalibrated as the engine says and kept in the link' : 'a pasted line recalibrates the ranking; marks and errors in Chinese'}`, async (t) => {
    const { context, page, log } = await openPage(browser, `${base}#preset=${PRESET}&lang=${lang}&tool=probe`, { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    await settled(page);
    await panelDone(page);
    if (full) await checkScript(t, page);
    const before = await keys(page);
    assert.equal(await page.isHidden('#calib-summary'), true);

    // The probe line, read by the engine as the page reads it; the page's ranking is the engine's with it.
    const text = probeLine(0.6);
    const measurement = engine.parse_measurement({ text }).measurement;
    assert.equal(measurement.gpu, TRIAL.gpu);
    await paste(page, text);
    await page.waitForSelector('#calib-summary:not([hidden])', { timeout: 30000 });
    await settled(page);
    const request = await pageRequest(page);
    assert.deepEqual(request.measurements, [measurement]);
    const ranked = engine.rank(request);
    const after = await keys(page);
    assert.deepEqual(after, shown(ranked.results));
    const plain = { ...request };
    delete plain.measurements;
    assert.deepEqual(before, shown(engine.rank(plain).results), 'the table before was the uncalibrated ranking');
    assert.notDeepEqual(after, before, 'a measurement 40 % below the prediction reorders the offers');

    // Every row is marked with how near the measurement it used is; the A100 rows say "your A100 run".
    const marks = await page.$$eval('#ranking tbody tr', (trs) => trs.map((tr) => {
      const b = tr.querySelector('.badge.calibrated');
      return { key: tr.dataset.key, distance: b ? b.dataset.distance : null, text: b ? b.textContent : '' };
    }));
    const byKey = new Map(ranked.results.map((r) => [`${r.id}|${r.pricing}`, r]));
    for (const m of marks) assert.equal(m.distance, byKey.get(m.key).calibrated.distance, m.key);
    const a100 = marks.find((m) => byKey.get(m.key).gpu === TRIAL.gpu);
    assert.ok(a100, 'an A100 SXM4 80GB offer is ranked');
    assert.match(a100.text, lang === 'zh' ? /按你在 A100 80GB SXM4 上的实测|你在 A100 80GB SXM4 上的实测配置/ : /your A100 80GB SXM4 run/);
    // The list shows the measurement against the engine's prediction, with its factor.
    const cal = ranked.calibration.measurements[0];
    assert.equal(Number(await page.$eval('#probe-measurements tbody tr td.factor', (td) => td.dataset.v)), cal.factor);
    assert.equal(Number(await page.$eval('#calib-summary', (el) => el.dataset.factor)), ranked.calibration.factor);
    await shot(page, `calibration-${lang}.png`, { fullPage: true });

    if (full) await keptAcrossVisits(page, context, after, { ranked, measurement, lang });

    // A bad line: an error at its place (the pointer of the JSON field, the column of a typed figure), in the
    // reader's language; the table and the link stay as they were.
    const hash = await hashOf(page);
    await panelDone(page);
    const bad = JSON.parse(text);
    bad.tokens_per_s = -5;
    await paste(page, JSON.stringify(bad));
    await page.waitForSelector('#probe-paste-error [role="alert"]', { timeout: 15000 });
    assert.equal(await page.$eval('#probe-paste-where', (el) => el.dataset.path), '/tokens_per_s');
    assert.equal(await page.getAttribute('#probe-paste', 'aria-invalid'), 'true');
    await paste(page, '3150 tokens/s on a100-sxm4-80gb xx');
    await page.waitForFunction(() => document.querySelector('#probe-paste-where')?.dataset.column, null, { timeout: 15000 });
    const errorText = await page.textContent('#probe-paste-error');
    assert.match(errorText, lang === 'zh' ? /第 \d+ 列/ : /at column \d+/);
    if (lang === 'zh') assert.match(errorText, /[\u4e00-\u9fff]/);
    await settled(page);
    assert.deepEqual(await keys(page), after);
    assert.equal(await hashOf(page), hash);

    // Removing the measurement gives the uncalibrated ranking back.
    await page.click('#probe-remove-0');
    await page.waitForSelector('#calib-summary[hidden]', { state: 'attached', timeout: 30000 });
    assert.deepEqual(await keys(page), before);
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('a measurement in the link that cannot be read is dropped with a notice; the page still ranks', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=${PRESET}&lang=en&m=garbage&m=no-such-gpu*1*5t`);
  assert.equal(await settled(page), '1');
  assert.match(await page.textContent('#calib-url-dropped'), /garbage/);
  assert.ok((await tableRows(page)).length > 0);
  assert.equal(await page.isHidden('#calib-summary'), true);
  // One the engine refuses (faster than eight A100s can run at their datasheet peak) is dropped with the engine's
  // reason at its pointer; the one beside it still calibrates the ranking.
  const fast = 'a100-sxm4-80gb*8*50000000t*y';
  const fine = 'h100-sxm5-80gb*8*30000t*y';
  await page.evaluate((h) => { location.hash = h; }, `#preset=${PRESET}&lang=en&m=${fast}&m=${fine}`);
  await page.waitForSelector('#calib-refused', { timeout: 30000 });
  await settled(page);
  assert.match(await page.textContent('#calib-refused'), /\/measurements\/0\/tokens_per_s/);
  const request = await pageRequest(page);
  assert.deepEqual(request.measurements.map((m) => m.gpu), ['h100-sxm5-80gb']);
  assert.equal(await page.isVisible('#calib-summary'), true);
  assert.deepEqual(await keys(page), shown(engine.rank(request).results));
  assert.doesNotMatch(decodeURIComponent(await hashOf(page)), /50000000t/);
  // The scenario comparison of the workload is calibrated on it too, each configuration as the engine says.
  await page.click('#tab-compare');
  await page.waitForFunction(() => document.querySelector('#tool-compare')?.dataset.state === 'ready', null, { timeout: 30000 });
  const cmp = engine.compare({ preset: PRESET, precision: 'bf16', pricing: 'on_demand', measurements: request.measurements,
    configs: [{ gpu: 'h100-sxm5-80gb', count: 8 }, { gpu: 'a100-sxm4-80gb', count: 8 }] });
  assert.deepEqual(await page.$$eval('#cmp-calibrated .badge.calibrated', (bs) => bs.map((b) => b.dataset.distance)), cmp.configs.map((x) => x.calibrated.distance));
  assert.deepEqual(await page.$$eval('#cmp-table .speedup', (els) => els.map((e) => Number(e.dataset.v))), cmp.configs.map((x) => x.speedup_vs_baseline));
  assert.deepEqual(log.errors, []);
  await context.close();
});
