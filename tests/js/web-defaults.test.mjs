// Defaults once: every number and name list the engine's defaults() gives is read by the page from the engine at
// start-up, never written again in web/src. The search runs over the page's code (comments stripped) for the
// numbers defaults() returns and for the name lists it gives, with its own detector tested on synthetic code.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { sourceFiles } from './web-source.mjs';

const engine = await loadEngine();
const defaults = engine.defaults();

// Every number in a JSON value, with the path it sits at.
function numbersIn(value, at = '') {
  if (typeof value === 'number') return [{ at, value }];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${at}/${k}`));
  return [];
}

// The ways a number is written in code: as it prints, with two decimals when that is exact (1.1 as '1.10'), and a
// share as a percentage. Short forms
// (fewer than three digits: 1, 8, 0.5, 30) are too common in code to stand for a default and are left out.
export function writtenForms(value) {
  const forms = new Set([String(value)]);
  if (!Number.isInteger(value) && value === +value.toFixed(2)) forms.add(value.toFixed(2));
  if (value > 0 && value < 1) forms.add(String(+(value * 100).toPrecision(12)));
  return [...forms].filter((f) => (f.match(/\d/g) || []).length >= 3 && !/^0\.0+$/.test(f));
}

const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

// The places in `files` ({name, text}) where a form of a default stands as a number of its own.
export function literalHits(files, numbers) {
  const hits = [];
  for (const f of files) {
    const code = stripComments(f.text);
    for (const { at, value } of numbers) {
      for (const form of writtenForms(value)) {
        const re = new RegExp(`(?<![\\w.])${form.replace(/\./g, '\\.')}(?![\\w.])`);
        if (re.test(code)) hits.push(`${f.name}: ${form} (defaults${at})`);
      }
    }
  }
  return hits;
}

test('the literal detector finds a default written into code and skips comments', () => {
  const numbers = [{ at: '/hours_per_month', value: 730 }, { at: '/decisions/pue_liquid_cooled', value: 1.1 }, { at: '/x', value: 0.987 }];
  assert.deepEqual(literalHits([{ name: 'a.js', text: "const h = 80 * 730;\n// 730 hours a month\n" }], numbers), ['a.js: 730 (defaults/hours_per_month)']);
  assert.deepEqual(literalHits([{ name: 'b.js', text: "const p = { placeholder: '1.10' };" }], numbers), ['b.js: 1.10 (defaults/decisions/pue_liquid_cooled)']);
  assert.deepEqual(literalHits([{ name: 'c.js', text: "const target = '98.7';" }], numbers), ['c.js: 98.7 (defaults/x)']);
  assert.deepEqual(literalHits([{ name: 'd.js', text: "const x = 17300; const y = 1.105; // 1.10" }], numbers), []);
  // A rounded form of a longer value is not that value: 0.0806 is not written as 0.08.
  assert.deepEqual(literalHits([{ name: 'e.js', text: 'if (v > 0.08) draw();' }], [{ at: '/kwh', value: 0.0806 }]), []);
});

test('defaults() gives the month length, the planner example and the name lists', () => {
  assert.equal(defaults.hours_per_month, 730);
  assert.equal(defaults.planner_example.monthly_gpu_hours, defaults.planner_example.gpus * defaults.hours_per_month);
  for (const k of ['pricing_models', 'precisions', 'workload_kinds', 'modes', 'stages', 'cooling']) assert.ok(defaults.names[k].length >= 2, k);
});

test('no number that defaults() returns is written as a literal in web/src', () => {
  const numbers = numbersIn(defaults);
  assert.ok(numbers.some((n) => n.at === '/hours_per_month') && numbers.some((n) => n.at === '/decisions/pue_air_cooled'), 'the numbers are read');
  assert.deepEqual(literalHits(sourceFiles(), numbers), []);
});

test('no name list that defaults() gives is repeated in web/src', () => {
  const hits = [];
  for (const f of sourceFiles()) {
    const code = stripComments(f.text).replace(/\s+/g, '');
    for (const [k, list] of Object.entries(defaults.names)) {
      // Two or more of a list's names in a row, as an array literal: ['air','liquid'], ['on_demand','reserved',…].
      for (let i = 0; i + 1 < list.length; ++i) {
        const pair = `'${list[i]}','${list[i + 1]}'`;
        if (code.includes(pair)) hits.push(`${f.name}: ${pair} (defaults/names/${k})`);
      }
    }
  }
  assert.deepEqual(hits, []);
});
