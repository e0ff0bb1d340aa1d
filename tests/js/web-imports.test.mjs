// The page's data code for imports, region groups and exports, on real fixture files where there are some:
// provider inference, the change summary and merge of a refreshed import, grouped import warnings, the grouping
// of one offer in many regions, and the CSV's rounding.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inferProvider, changeSummary, mergeDocs, refreshedEntry, fileProviders } from '../../web/src/engine/imports.js';
import { groupIssues, reasonOf, linesOf } from '../../web/src/views/issues.js';
import { messageRenderer } from '../../web/src/i18n/messages.js';
import { toCsv } from '../../web/src/engine/export.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name) => fs.readFileSync(path.join(root, 'tests/fixtures/skypilot', name), 'utf8');

test('the provider of a SkyPilot file: from its path or name, else from its instance types', () => {
  assert.equal(inferProvider('catalogs/v7/lambda/vms.csv', ''), 'Lambda');
  assert.equal(inferProvider('aws-vms.csv', ''), 'AWS');
  assert.equal(inferProvider('vms (gcp).csv', ''), 'Google Cloud');
  // Every fixture, renamed to a bare vms.csv, is told by its rows.
  assert.equal(inferProvider('vms.csv', fixture('aws-vms.csv')), 'AWS');
  assert.equal(inferProvider('vms.csv', fixture('gcp-vms.csv')), 'Google Cloud');
  assert.equal(inferProvider('vms.csv', fixture('lambda-vms.csv')), 'Lambda');
  assert.equal(inferProvider('vms.csv', fixture('azure-vms.csv')), 'Microsoft Azure');
  assert.equal(inferProvider('vms.csv', fixture('runpod-vms.csv')), 'RunPod');
  assert.equal(inferProvider('vms.csv', 'InstanceType,Price\nmystery-box,1\n'), '');
  assert.equal(inferProvider('notes.csv', 'no header here'), '');
});

const inst = (id, price, region = 'r1') => ({ id, provider: 'P', instance_type: id.split('@')[0], region, prices: [{ model: 'on_demand', usd_per_hour: price }] });

test('a refreshed import: what is new, removed and re-priced; merge keeps the old offers the new file lacks', () => {
  const before = { schema_version: 1, instances: [inst('a@1', 1), inst('b@1', 2), inst('c@1', 3)] };
  const after = { schema_version: 1, instances: [inst('a@1', 1), inst('b@1', 2.5), inst('d@1', 4)] };
  const s = changeSummary(before, after);
  assert.deepEqual([s.added, s.removed, s.moved, s.unchanged], [1, 1, 1, 1]);
  assert.deepEqual(s.moves.map((m) => [m.id, m.model, m.from, m.to]), [['b@1', 'on_demand', 2, 2.5]]);
  // One machine re-priced alike in several regions is one line of the summary.
  const many = changeSummary({ instances: [inst('m@1', 1, 'r1'), inst('m@2', 1, 'r2'), inst('n@1', 5)] },
    { instances: [{ ...inst('m@1', 1.2, 'r1'), instance_type: 'm' }, { ...inst('m@2', 1.2, 'r2'), instance_type: 'm' }, inst('n@1', 4)] });
  assert.equal(many.moved, 3);
  assert.deepEqual(many.moves.map((m) => [m.instance, m.regions]), [['m', ['r1', 'r2']], ['n', ['r1']]]);
  assert.deepEqual(s.addedList.map((x) => x.id), ['d@1']);
  assert.deepEqual(s.removedList.map((x) => x.id), ['c@1']);
  const merged = mergeDocs(before, after);
  assert.deepEqual(merged.instances.map((i) => [i.id, i.prices[0].usd_per_hour]), [['c@1', 3], ['a@1', 1], ['b@1', 2.5], ['d@1', 4]]);
  // Which earlier import a file refreshes: an imported file of the same provider, never a typed offer.
  const entries = [
    { kind: 'manual', docText: JSON.stringify({ instances: [{ provider: 'P' }] }) },
    { kind: 'skypilot', docText: JSON.stringify({ instances: [{ provider: 'Q' }] }) },
    { kind: 'skypilot', docText: JSON.stringify(before) },
  ];
  assert.equal(refreshedEntry(entries, fileProviders(true, '', 'P')), 2);
  assert.equal(refreshedEntry(entries, fileProviders(true, '', 'R')), -1);
  assert.equal(refreshedEntry(entries, fileProviders(false, JSON.stringify({ instances: [{ provider: 'Q' }] }), '')), 1);
  assert.equal(refreshedEntry(entries, fileProviders(false, '{broken', '')), -1);
});

test('import warnings grouped by reason, whatever GPU or machine they name, with the lines they concern', () => {
  const m = (code, params = {}) => ({ code, params });
  const n1 = m('import.no_host_n1', { accelerator: '1x T4', vcpu_count: 8, ram_gib_value: 32 });
  const g = groupIssues([
    { path: 'line 3', message: m('import.bad_price', { value: '' }) },
    { path: 'lines 432-433', message: n1 },
    { path: 'line 4', message: m('import.bad_price', { value: 'x' }) },
    { path: 'lines 317-318, 327-328, 333', message: m('import.no_host_builtin', { accelerator: '8x H100', machines: 'a3-highgpu-8g' }) },
    { path: '', message: m('import.unmapped_rows', { row_count: 12, accelerator: 'P100', lines: '420-431' }) },
    { path: '', message: m('import.unmapped_rows', { row_count: 21, accelerator: 'tpu-v6e-8', lines: '456-476' }) },
  ]);
  assert.deepEqual(g.map((x) => [x.items.length, x.lines]), [[2, 2], [2, 7], [2, 33]]);
  assert.equal(g[1].message, n1);
  assert.equal(reasonOf(m('import.unmapped_gpu', { accelerator: 'P4' })), reasonOf(m('import.unmapped_gpu', { accelerator: 'tpu-v5' })));
  assert.notEqual(reasonOf(m('import.unmapped_gpu', { accelerator: 'P4' })), reasonOf(m('import.bad_price', { value: '' })));
  assert.notEqual(reasonOf(m('import.memory_read_as_gb')), reasonOf(m('import.memory_ignored')));
  assert.equal(reasonOf('GPU name "P4" maps to no GPU id'), reasonOf('GPU name "tpu-v5" maps to no GPU id'), 'sentences made on the page still group');
  assert.equal(linesOf({ path: 'line 7', message: m('import.bad_price', { value: '' }) }), 1);
  assert.equal(linesOf({ path: '', message: m('import.cpu_rows', { row_count: 3, lines: '2-3, 5' }) }), 3);
});

test('the CSV export: amounts to the cent, no float noise; the columns that identify a row exact', () => {
  const r = { _rank: 1, instance: 'n1-highmem-32 + 4x nvidia-tesla-t4', id: 'gcp-x', provider: 'Google Cloud', region: 'us-central1', gpu: 't4', gpu_name: 'NVIDIA T4',
    gpu_count: 4, nodes: 1, total_gpus: 4, pricing: 'on_demand', fits: true, pareto: false, time_hours: 47.800000000000004, time_hours_low: 40.1, time_hours_high: 55.55555555,
    cost_usd: 174.0711552 + 2e-14, usd_per_hour: 3.641656 + 3e-16, usd_per_tflops_day: 0.336152861538, usd_per_tflops_day_at_precision: 0.336152861538,
    score: 0.7123456789, scores: { unit_cost: 0.5, task: 0.61234567, service: 0.9 }, memory: { required_gb_per_gpu: 7.123456, available_gb_per_gpu: 16, sharding: 'none' },
    as_of: '2026-11-01', stale: false, source: 'https://cloud.google.com/compute/gpus-pricing', reasons: [], warnings: [] };
  const [head, line] = toCsv([r], { currency: 'USD', rate: 7, say: messageRenderer({ lang: 'en' }) }).slice(1).split('\r\n');
  const cell = Object.fromEntries(head.split(',').map((k, i) => [k, line.split(',')[i]]));
  assert.equal(cell.time_hours, '47.8');
  assert.equal(cell.cost_usd, '174.07');
  assert.equal(cell.usd_per_hour, '3.6417');
  assert.equal(cell.usd_per_tflops_day, '0.3362');
  assert.equal(cell.score, '0.7123');
  assert.equal(cell.required_gb_per_gpu, '7.12');
  assert.equal(cell.id, 'gcp-x');
  assert.equal(cell.total_gpus, '4');
  assert.ok(!/\d{9,}/.test(line), line);
});
