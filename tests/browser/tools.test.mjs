// The decision tools and the sensitivity chart in Chromium: every number against the same engine run in node,
// the inputs kept in the URL hash, engine errors shown with their JSON Pointer paths, keyboard use, and both
// languages (screenshots of every panel in test-artifacts/).
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, openPage, offlineUrl, settled, nodeEngine, shot, englishRenderer, HOLD_ANSWERS } from './browser.mjs';

const browser = await launch();
const { server, base } = await startServer();
const engine = await nodeEngine();
const say = await englishRenderer(engine);
test.after(async () => { await browser.close(); server.close(); });

const close = (a, b, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));
const panelDone = (page, id) => page.waitForFunction((i) => ['ready', 'error'].includes(document.querySelector(`#tool-${i}`)?.dataset.state)
  && !document.querySelector(`#tool-${i}-out`)?.hasAttribute('aria-busy'), id, { timeout: 30000 });
const hashParams = async (page) => new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
const dataV = (page, sel) => page.$eval(sel, (el) => Number(el.dataset.v));
const waitHash = (page, key, value) => page.waitForFunction(([k, v]) => new URLSearchParams(location.hash.slice(1)).get(k) === v, [key, value], { timeout: 15000 });

async function setNumber(page, selector, value) {
  await page.fill(selector, String(value));
  await page.press(selector, 'Enter');
}

test('advisor: the engine’s recommendations with reasons, the article’s §4.1 rule and the disagreement flagged', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en&tool=advise&advise.params=7000000000&advise.stage=tuning`);
  await settled(page);
  await panelDone(page, 'advise');
  const r = engine.advise({ params: 7e9, stage: 'tuning', mode: 'pretrain' });
  assert.equal(await page.inputValue('#adv-params'), '7000000000');
  assert.equal(await page.inputValue('#adv-stage'), 'tuning');
  assert.equal(await page.$eval('#adv-verdict', (el) => el.dataset.agrees), r.memory_model.agrees_with_article ? '1' : '0');
  assert.match(await page.textContent('#adv-verdict'), new RegExp(say(r.article.rule).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  assert.match(await page.textContent('#adv-agrees'), r.memory_model.agrees_with_article ? /agrees/ : /disagrees/);
  assert.equal(await page.$eval('#adv-stage-pricing', (el) => el.dataset.v), r.stage_billing.pricing);
  const cards = await page.$$eval('#adv-recs li', (lis) => lis.map((li) => ({ role: li.dataset.role, gpu: li.dataset.gpu, cost: Number(li.querySelector('.cost').dataset.v), why: li.querySelector('details p').textContent })));
  assert.deepEqual(cards.map((x) => [x.role, x.gpu]), r.recommendations.map((x) => [x.role, x.gpu]));
  cards.forEach((x, i) => { assert.ok(close(x.cost, r.recommendations[i].cost_usd)); assert.equal(x.why, say(r.recommendations[i].reason)); });
  assert.equal((await page.$$('#adv-ladder tbody tr')).length, r.ladder.length);
  assert.deepEqual(await page.$$eval('#adv-assumptions tbody tr', (trs) => trs.map((tr) => tr.dataset.key)).then((k) => k.sort()), Object.keys(r.assumptions).sort());

  // A new model size: the URL keeps it and the engine answers again.
  await setNumber(page, '#adv-params', 3e8);
  await waitHash(page, 'advise.params', '300000000');
  await panelDone(page, 'advise');
  const r2 = engine.advise({ params: 3e8, stage: 'tuning', mode: 'pretrain' });
  assert.deepEqual(await page.$$eval('#adv-recs li', (lis) => lis.map((li) => li.dataset.gpu)), r2.recommendations.map((x) => x.gpu));

  // LoRA without a token count: the engine's error with its JSON Pointer, the input marked.
  await page.selectOption('#adv-mode', 'lora');
  await page.waitForFunction(() => document.querySelector('#tool-advise')?.dataset.state === 'error', null, { timeout: 15000 });
  assert.deepEqual(await page.$$eval('#tool-advise-error code.path', (els) => els.map((e) => e.textContent)), ['/tokens']);
  assert.match(await page.textContent('#tool-advise-error'), /required for fine-tuning/);
  assert.equal(await page.getAttribute('#adv-tokens', 'aria-invalid'), 'true');
  await setNumber(page, '#adv-tokens', 5e7);
  await page.waitForFunction(() => document.querySelector('#tool-advise')?.dataset.state === 'ready', null, { timeout: 15000 });
  assert.equal(await page.getAttribute('#adv-tokens', 'aria-invalid'), null);
  const roles = () => page.$$eval('#adv-recs li', (lis) => lis.map((li) => [li.dataset.role, li.querySelector('.card-role').textContent]));
  assert.deepEqual((await roles()).find(([role]) => role === 'recommended')[1], 'Recommended: cheapest that meets the stage and the horizon');

  // A job no option finishes within the horizon: the recommended card is the fastest, and its label says so.
  await page.selectOption('#adv-mode', 'pretrain');
  await setNumber(page, '#adv-params', 7e10);
  await setNumber(page, '#adv-tokens', 1.5e13);
  await waitHash(page, 'advise.tokens', '15000000000000');
  await panelDone(page, 'advise');
  const late = engine.advise({ params: 7e10, tokens: 1.5e13, stage: 'tuning', mode: 'pretrain' });
  const rec = late.recommendations.find((x) => x.role === 'recommended');
  assert.equal(rec.meets_horizon, false);
  assert.deepEqual((await roles()).find(([role]) => role === 'recommended')[1], 'Recommended: fastest that meets the stage (none finishes within the horizon)');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('advisor from the page’s workload: the job the ranking ranks, its FLOPs and each offer’s cost the same on both tabs', async () => {
  // A transformer preset that fixes its own shape and recomputation (llama2-7b-pretrain: activation checkpointing):
  // the advisor's own transformer of the same params and tokens would count fewer FLOPs and price another job.
  const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=en&tool=advise`);
  await settled(page);
  await panelDone(page, 'advise');
  assert.equal(await page.$eval('#tool-advise', (el) => el.dataset.state), 'ready');
  const ranked = await dataV(page, '#summary-flops');
  const advised = await dataV(page, '#adv-flops');
  assert.ok(ranked > 0);
  assert.ok(close(advised, ranked), `advisor ${advised} vs ranking ${ranked} FLOPs`);
  // Each recommended offer the table lists costs what the table says, and takes as long.
  const cards = await page.$$eval('#adv-recs li', (lis) => lis.map((li) => ({ key: li.dataset.key, cost: Number(li.querySelector('.cost').dataset.v),
    time: Number(li.querySelector('[data-v]').dataset.v) })));
  let compared = 0;
  for (const x of cards) {
    const row = await page.$(`#results tr[data-key="${x.key}"]`);
    if (!row) continue;
    assert.ok(close(x.cost, Number(await row.$eval('td[data-col=cost]', (td) => td.dataset.v))), `${x.key} cost`);
    assert.ok(close(x.time, Number(await row.$eval('td[data-col=time]', (td) => td.dataset.v))), `${x.key} time`);
    compared += 1;
  }
  assert.ok(compared >= 1, JSON.stringify(cards));
  // Parameters typed in the advisor: its own transformer of those values, no longer the ranking's job.
  await setNumber(page, '#adv-params', 6738415616);
  await waitHash(page, 'advise.params', '6738415616');
  await panelDone(page, 'advise');
  const own = await dataV(page, '#adv-flops');
  assert.ok(own > 0 && !close(own, ranked, 1e-3), `own transformer ${own} vs ranking ${ranked}`);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('planner: the article’s example checked, every assumption with its source; own demand, errors by path', async () => {
  const { context, page, log } = await openPage(browser, `${offlineUrl}#preset=resnet50-imagenet&lang=en&tool=plan`);
  await settled(page);
  await panelDone(page, 'plan');
  const a = engine.plan({ example: 'article' });
  assert.ok(close(await dataV(page, '#plan-yearly'), a.annual_cost_usd));
  assert.ok(close(await dataV(page, '#plan-saving'), a.saving));
  assert.ok(close(await dataV(page, '#plan-completion'), a.completion_rate));
  assert.equal(await page.$eval('#plan-claim', (el) => el.dataset.agrees), Math.abs(a.article_mix.saving - 0.58) < 0.02 ? '1' : '0');
  assert.deepEqual(await page.$$eval('#plan-findings li', (lis) => lis.map((li) => li.textContent)), a.findings.map(say));
  const rows = await page.$$eval('#plan-assumptions tbody tr', (trs) => trs.map((tr) => ({ key: tr.dataset.key, source: tr.querySelector('td.src').textContent })));
  assert.deepEqual(rows.map((x) => x.key).sort(), Object.keys(a.assumptions).sort());
  for (const x of rows) assert.equal(x.source, say(a.assumptions[x.key].source), x.key);
  const mix = await page.$$eval('#plan-mix .seg', (els) => els.map((e) => Number(e.dataset.v)));
  assert.ok(close(mix.reduce((s, v) => s + v, 0), 1, 1e-6));
  await shot(page, 'tool-plan-article.png');

  // Own demand: the defaults are the article's demand on its p4d prices; one month more.
  await page.check('#plan-src-demand');
  await panelDone(page, 'plan');
  await setNumber(page, '#plan-m3', 70000);
  await waitHash(page, 'plan.months', [58400, 58400, 58400, 70000, 58400, 58400, 58400, 58400, 58400, 58400, 58400, 58400].join(','));
  await panelDone(page, 'plan');
  const months = Array(12).fill(58400);
  months[3] = 70000;
  const d = engine.plan({ demand: { monthly_gpu_hours: months, peak_gpus: 80, interruptible_fraction: 0.3, target_completion_rate: 0.987, reserved_granularity_gpus: 8, spot: { task_hours: 8 }, instance: 'aws-p4d.24xlarge-us-east-1' } });
  assert.ok(close(await dataV(page, '#plan-yearly'), d.annual_cost_usd));
  // A month left empty: the engine names it.
  await page.fill('#plan-m5', '');
  await page.press('#plan-m5', 'Enter');
  await page.waitForFunction(() => document.querySelector('#tool-plan')?.dataset.state === 'error', null, { timeout: 15000 });
  assert.ok((await page.$$eval('#tool-plan-error code.path', (els) => els.map((e) => e.textContent))).includes('/demand/monthly_gpu_hours/5'));
  assert.equal(await page.getAttribute('#plan-m5', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('#plan-m4', 'aria-invalid'), null);
  // The state survives a reload (the empty month too).
  await page.reload();
  await settled(page);
  await panelDone(page, 'plan');
  assert.equal(await page.isChecked('#plan-src-demand'), true);
  assert.equal(await page.inputValue('#plan-m3'), '70000');
  assert.equal(await page.inputValue('#plan-m5'), '');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('MIG packing: a 7-slice bar per GPU from the engine’s placements, cost per job against whole small GPUs', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en&tool=mig`);
  await settled(page);
  await panelDone(page, 'mig');
  let r = engine.mig({ gpu: 'a100-sxm4-80gb', jobs: [{ count: 7, memory_gb: 8, hours: 1 }] });
  const segs = await page.$$eval('#mig-bars figure[data-gpu-index="0"] li.mig-seg', (lis) => lis.map((li) => ({ start: Number(li.dataset.start), n: Number(li.dataset.slices), col: li.style.gridColumn, profile: li.dataset.profile })));
  assert.equal(segs.length, 7);
  assert.deepEqual(segs.map((s) => [s.start, s.n, s.profile]), r.assignments.map((x) => [x.start_slice, x.compute_slices, x.profile]).sort((x, y) => x[0] - y[0]));
  assert.match(segs[0].col, /^1 \/ span 1$/);
  assert.match(await page.textContent('#mig-per-job'), new RegExp(`\\$${r.cost_per_job_usd.toFixed(2)}`));
  const costRows = await page.$$eval('#mig-costs tbody tr', (trs) => trs.map((tr) => Number(tr.querySelector('td.per-job').dataset.v || NaN)));
  assert.equal(costRows.length, 1 + r.alternatives.length);
  r.alternatives.forEach((alt, i) => { if (alt.cost_per_job_usd !== null) assert.ok(close(costRows[i + 1], alt.cost_per_job_usd)); });

  // Mixed jobs on an H100: placements as NVML allows them, free slices drawn as free.
  await page.selectOption('#mig-gpu', 'h100-sxm5-80gb');
  await page.click('#mig-example-mixed');
  await waitHash(page, 'mig.jobs', '3:20:2,2:5:4,1:35:8:40');
  await panelDone(page, 'mig');
  r = engine.mig({ gpu: 'h100-sxm5-80gb', jobs: [{ count: 3, memory_gb: 20, hours: 2 }, { count: 2, memory_gb: 5, hours: 4 }, { count: 1, memory_gb: 35, hours: 8, compute_share: 0.4 }] });
  assert.equal((await page.$$('#mig-bars figure')).length, r.layout.length);
  const drawn = await page.$$eval('#mig-bars li.mig-seg', (lis) => lis.map((li) => Number(li.dataset.job)).sort((a, b) => a - b));
  assert.deepEqual(drawn, r.assignments.map((x) => x.job).sort((a, b) => a - b));
  for (const g of r.layout) {
    const free = await page.$$eval(`#mig-bars figure[data-gpu-index="${g.gpu_index}"] li.mig-free`, (lis) => lis.length);
    assert.equal(free, 7 - g.compute_slices_used);
  }
  await shot(page, 'tool-mig-mixed.png');
  // A group of zero jobs: the engine's error names the field.
  await setNumber(page, '#mig-count-0', 0);
  await page.waitForFunction(() => document.querySelector('#tool-mig')?.dataset.state === 'error', null, { timeout: 15000 });
  assert.deepEqual(await page.$$eval('#tool-mig-error code.path', (els) => els.map((e) => e.textContent)), ['/jobs/0/count']);
  assert.equal(await page.getAttribute('#mig-count-0', 'aria-invalid'), 'true');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('levers for the selected offer, scenario comparison with the YOLOv7 preset', async () => {
  const sel = encodeURIComponent('aws-p3.2xlarge-us-east-1|on_demand');
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&prec=fp32&lang=en&tool=levers&sel=${sel}`);
  await settled(page);
  await panelDone(page, 'levers');
  const l = engine.levers({ preset: 'resnet50-imagenet', precision: 'fp32', instance: 'aws-p3.2xlarge-us-east-1', pricing: 'on_demand' });
  const rows = await page.$$eval('#levers-table tbody tr', (trs) => trs.map((tr) => ({ lever: tr.dataset.lever, speed: Number(tr.querySelector('td:nth-child(4)').dataset.v || 0), cost: Number(tr.querySelector('td:nth-child(5)').dataset.v || 0) })));
  assert.deepEqual(rows.map((x) => x.lever).sort(), l.levers.map((x) => x.lever).sort());
  for (const x of rows) {
    const e = l.levers.find((y) => y.lever === x.lever);
    if (e.speedup) { assert.ok(close(x.speed, e.speedup), x.lever); assert.ok(close(x.cost, e.cost_ratio), x.lever); }
  }
  assert.ok(close(await dataV(page, '#levers-baseline .kpi:nth-child(4)'), l.baseline.cost_usd));
  await shot(page, 'tool-levers.png');

  // Scenarios: the article's YOLOv7 case in one click.
  await page.click('#tab-compare');
  await panelDone(page, 'compare');
  await page.click('#cmp-yolo');
  await waitHash(page, 'compare.w', 'yolov7-coco');
  await panelDone(page, 'compare');
  const c = engine.compare({ preset: 'yolov7-coco', pricing: 'on_demand', configs: [{ gpu: 'a100-sxm4-80gb', count: 8 }, { gpu: 'v100-sxm2-16gb', count: 4 }] });
  const speed = await page.$$eval('#cmp-table .speedup', (els) => els.map((e) => Number(e.dataset.v)));
  const ratio = await page.$$eval('#cmp-table .cost-ratio', (els) => els.map((e) => Number(e.dataset.v)));
  c.configs.forEach((x, i) => { assert.ok(close(speed[i], x.speedup_vs_baseline)); assert.ok(close(ratio[i], x.cost_ratio_vs_baseline)); });
  assert.deepEqual(await page.$$eval('#cmp-explanations li span[data-engine]', (els) => els.map((e) => e.textContent)).then((x) => x.filter((s) => !/stale|pays for/.test(s))), c.configs.map((x) => say(x.explanation)));
  assert.ok(close(await dataV(page, '#cmp-model-speedup'), c.article_claim.model_speedup));
  assert.match(await page.textContent('#cmp-claim'), /2\.3×/);
  await shot(page, 'tool-compare-yolo.png');
  // A configuration the catalog cannot price and no price given: the engine's error names configuration 2.
  await page.selectOption('#cmp-gpu-1', 'mi250x');
  await page.waitForFunction(() => ['error', 'ready'].includes(document.querySelector('#tool-compare')?.dataset.state) && new URLSearchParams(location.hash.slice(1)).get('compare.c')?.includes('mi250x'), null, { timeout: 15000 });
  await panelDone(page, 'compare');
  const want = engine.tryCall('compare', { preset: 'yolov7-coco', pricing: 'on_demand', configs: [{ gpu: 'a100-sxm4-80gb', count: 8 }, { gpu: 'mi250x', count: 4 }] });
  if (!want.ok) {
    assert.ok((await page.$$eval('#tool-compare-error code.path', (els) => els.map((e) => e.textContent))).every((p) => p.startsWith('/configs/1')));
    assert.equal(await page.getAttribute('#cmp-gpu-1', 'aria-invalid'), 'true');
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('energy and TCO: PUE, electricity price and grid intensity, own against rent with the break-even', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en&tool=energy&energy.gpu=a100-sxm4-40gb&energy.count=8&energy.hours=100`);
  await settled(page);
  await panelDone(page, 'energy');
  let e = engine.energy({ gpu: 'a100-sxm4-40gb', count: 8, hours: 100, cooling: 'air' });
  const t = engine.tco({ gpu: 'a100-sxm4-40gb', count: 8, cooling: 'air' });
  assert.ok(close(await dataV(page, '#en-facility'), e.facility_energy_kwh));
  assert.ok(close(await dataV(page, '#en-co2-out'), e.co2_kg));
  assert.ok(close(await dataV(page, '#en-break-even'), t.break_even_utilisation));
  assert.equal(await page.textContent('#en-verdict'), say(t.verdict));
  assert.equal((await page.$$('#en-points tbody tr')).length, t.points.length);
  await shot(page, 'tool-energy.png');

  // Liquid cooling, a PUE, a grid intensity and an electricity price typed in CNY (the engine gets USD).
  await page.selectOption('#currency', 'CNY');
  await settled(page);
  await panelDone(page, 'energy');
  const rate = Number(await page.inputValue('#rate'));
  await page.selectOption('#en-cool', 'liquid');
  await setNumber(page, '#en-pue', 1.2);
  await setNumber(page, '#en-co2', 0.55);
  await setNumber(page, '#en-kwh', 0.7);
  await waitHash(page, 'energy.co2', '0.55');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('energy.kwh'), null, { timeout: 15000 });
  await panelDone(page, 'energy');
  e = engine.energy({ gpu: 'a100-sxm4-40gb', count: 8, hours: 100, cooling: 'liquid', pue: 1.2, kg_co2_per_kwh: 0.55, usd_per_kwh: +(0.7 / rate).toPrecision(8) });
  assert.ok(close(await dataV(page, '#en-facility'), e.facility_energy_kwh));
  assert.ok(close(await dataV(page, '#en-kpis .kpi:nth-child(3)'), e.energy_cost_usd, 1e-6));
  assert.ok(close(Number((await hashParams(page)).get('energy.kwh')) * rate, 0.7, 1e-6), 'stored in USD');
  // A GPU without a sourced purchase price: the energy stays, TCO asks for the price (no error before any input).
  await page.selectOption('#en-gpu', 'h100-sxm5-80gb');
  await page.waitForSelector('#en-tco-needs-price');
  assert.equal(await page.$eval('#tool-energy', (el) => el.dataset.state), 'ready');
  assert.equal(await page.$('#tool-energy-error'), null);
  assert.equal(await page.getAttribute('#en-purchase', 'aria-invalid'), null);
  assert.match(await page.textContent('#en-tco-needs-price'), /H100/);
  assert.ok(await page.$('#en-facility'));
  await setNumber(page, '#en-purchase', 2000000);  // CNY
  await page.waitForFunction(() => document.querySelector('#tool-energy')?.dataset.state === 'ready', null, { timeout: 15000 });
  const t2 = engine.tco({ gpu: 'h100-sxm5-80gb', count: 8, cooling: 'liquid', pue: 1.2, usd_per_kwh: +(0.7 / rate).toPrecision(8), purchase_usd: +(2000000 / rate).toPrecision(8) });
  assert.ok(close(await dataV(page, '#en-break-even'), t2.break_even_utilisation, 1e-6));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('energy in Chinese takes China\'s grid (price and CO2) unless the reader picks another; the choice stays in the URL', async () => {
  const { context, page, log } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=zh&tool=energy&energy.gpu=a100-sxm4-40gb&energy.count=8&energy.hours=100`);
  await settled(page);
  await panelDone(page, 'energy');
  const china = engine.energy({ gpu: 'a100-sxm4-40gb', count: 8, hours: 100, cooling: 'air', grid: 'china' });
  const world = engine.energy({ gpu: 'a100-sxm4-40gb', count: 8, hours: 100, cooling: 'air', grid: 'world' });
  assert.notEqual(china.co2_kg, world.co2_kg);
  assert.equal(await page.inputValue('#en-grid'), 'china');
  assert.equal(await page.getAttribute('#en-co2', 'placeholder'), String(engine.defaults().decisions.grids.china.grid_kg_co2_per_kwh));
  assert.ok(close(await dataV(page, '#en-co2-out'), china.co2_kg));
  assert.match(await page.textContent('#tool-energy'), /生态环境部/);
  await page.selectOption('#en-grid', 'world');
  await waitHash(page, 'energy.grid', 'world');
  await panelDone(page, 'energy');
  await page.waitForFunction((v) => Math.abs(Number(document.querySelector('#en-co2-out')?.dataset.v) - v) < 1e-6 * v, world.co2_kg, { timeout: 15000 });
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('sensitivity: 100 engine runs of the selected offer, time and cost against the parameter', async () => {
  const sel = 'aws-p4d.24xlarge-us-east-1|on_demand';
  const { context, page, log } = await openPage(browser, `${base}#preset=llama2-7b-pretrain&lang=en&sel=${encodeURIComponent(sel)}&sens.p=size`, { init: HOLD_ANSWERS });
  await settled(page);
  await page.waitForFunction(() => document.querySelector('#sensitivity')?.dataset.state === 'ready', null, { timeout: 30000 });
  const data = await page.evaluate(() => window.gpuvalue.app.sensitivity.chart.data.datasets.slice(0, 2).map((d) => d.data.map((p) => [p.x, p.y])));
  assert.equal(data[0].length, 100);
  const row = engine.rank({ preset: 'llama2-7b-pretrain', precision: 'bf16', weights: engine.defaults().weights, filters: { fits_only: false, include_examples: false } }).results.find((r) => `${r.id}|${r.pricing}` === sel);
  for (const i of [0, 37, 99]) {
    const [x, time] = data[0][i];
    const r = engine.rank({ preset: 'llama2-7b-pretrain', workload: { tokens: x }, precision: 'bf16', weights: engine.defaults().weights,
      filters: { fits_only: false, include_examples: false, providers: [row.provider], regions: [row.region], gpus: [row.gpu], pricing: [row.pricing] } }).results.find((y) => y.id === row.id);
    assert.ok(close(time, r.time_hours), `point ${i}`);
    assert.ok(close(data[1][i][1], r.cost_usd), `point ${i} cost`);
  }
  assert.ok(data[0][0][0] < 2e12 && data[0][99][0] > 2e12, 'the sweep spans the preset’s 2T tokens');
  assert.match(await page.textContent('#sens-note'), /100 engine runs; 100 with a result/);
  assert.equal(await page.$eval('#sensitivity figure', (f) => f.getAttribute('aria-busy')), null);
  // Another parameter: while its sweep is on its way (the worker's answer held), the note says it is computing and the
  // figure is busy; the answer ends both.
  await page.evaluate(() => { window.holdAnswers = true; });
  await page.selectOption('#sens-param', 'deadline');
  await waitHash(page, 'sens.p', 'deadline');
  await page.waitForFunction(() => document.querySelector('#sensitivity')?.dataset.state === 'loading', null, { timeout: 30000 });
  assert.equal(await page.textContent('#sens-note'), 'Computing 100 engine runs for this offer…');
  assert.equal(await page.$eval('#sensitivity figure', (f) => f.getAttribute('aria-busy')), 'true');
  await page.evaluate(() => window.releaseAnswers());
  await page.waitForFunction(() => document.querySelector('#sensitivity')?.dataset.state === 'ready', null, { timeout: 30000 });
  assert.match(await page.textContent('#sens-note'), /^100 engine runs; \d+ with a result/);
  assert.equal(await page.$eval('#sensitivity figure', (f) => f.getAttribute('aria-busy')), null);
  await page.evaluate(() => document.getElementById('sensitivity').scrollIntoView());
  await shot(page, 'sensitivity-deadline.png');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('tools by keyboard: arrow keys move between tabs, every input has a label', async () => {
  const { context, page } = await openPage(browser, `${base}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  await page.focus('#tab-advise');
  await page.keyboard.press('ArrowRight');
  await waitHash(page, 'tool', 'probe');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-probe');
  assert.equal(await page.getAttribute('#tab-probe', 'aria-selected'), 'true');
  await page.keyboard.press('End');
  await waitHash(page, 'tool', 'energy');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-energy');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).get('tool'), null, { timeout: 15000 });  // the default tab
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-advise');
  await page.keyboard.press('ArrowLeft');
  await waitHash(page, 'tool', 'energy');
  for (const tab of ['advise', 'probe', 'plan', 'mig', 'levers', 'compare', 'energy']) {
    await page.click(`#tab-${tab}`);
    if (tab === 'plan') { await panelDone(page, tab); await page.check('#plan-src-demand'); }
    await panelDone(page, tab);
    const unlabelled = await page.$$eval('#tools input, #tools select, #sensitivity select', (els) => els
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).map((el) => el.id));
    assert.deepEqual(unlabelled, [], tab);
    assert.equal(await page.$eval(`#tool-${tab}`, (el) => el.getAttribute('role')), 'tabpanel');
  }
  await context.close();
});
