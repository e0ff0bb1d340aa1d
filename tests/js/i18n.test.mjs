// The UI dictionaries: the same keys in Chinese and English, the same placeholders, and every key the page
// code asks for exists.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DICTS, translator, pickLanguage } from '../../web/src/i18n/index.js';
import { placeholders as names } from '../../web/src/i18n/messages.js';
import { root } from './helpers.mjs';

const placeholders = (s) => [...names(s)].sort();

test('zh and en dictionaries have exactly the same keys', () => {
  const en = Object.keys(DICTS.en).sort();
  const zh = Object.keys(DICTS.zh).sort();
  assert.deepEqual(en.filter((k) => !zh.includes(k)), [], 'keys missing in zh');
  assert.deepEqual(zh.filter((k) => !en.includes(k)), [], 'keys missing in en');
  assert.ok(en.length > 450, `${en.length} keys`);
});

test('every string is non-empty and both languages use the same placeholders', () => {
  for (const [k, v] of Object.entries(DICTS.en)) {
    assert.ok(typeof v === 'string' && v.trim(), `en.${k} is empty`);
    assert.ok(typeof DICTS.zh[k] === 'string' && DICTS.zh[k].trim(), `zh.${k} is empty`);
    assert.deepEqual(placeholders(DICTS.zh[k]), placeholders(v), `placeholders of ${k}`);
  }
});

test('Chinese strings are translated, not copied (apart from names and units that stay the same)', () => {
  const same = Object.keys(DICTS.en).filter((k) => DICTS.en[k] === DICTS.zh[k]);
  const allowed = ['title', 'filterGpu', 'kindStore_skypilot', 'ic_pcie', 'ic_nvlink', 'ic_nvswitch', 'ic_infinity-fabric'];
  // A provider without a Chinese name keeps its own (provider:Lambda is Lambda in both languages).
  assert.deepEqual(same.filter((k) => !allowed.includes(k) && !k.startsWith('provider:')), []);
});

test('every key used by the page, widget and panels exists in the dictionaries', () => {
  const dir = path.join(root, 'web/src');
  const used = new Set();
  for (const f of fs.readdirSync(dir, { recursive: true }).filter((x) => x.endsWith('.js'))) {
    const src = fs.readFileSync(path.join(dir, f), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    for (const m of src.matchAll(/\bt{1,2}\('([A-Za-z_-]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/\btx\('[a-z0-9]+', \w+, '([A-Za-z_-]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/\b(?:labelKey|titleKey|helpKey|introKey|messageKey): '([A-Za-z_-]+)'/g)) used.add(m[1]);
    // Key lists mapped to strings (table headers of the tool panels): ['a', 'b'].map((k) => tx('th', t, k ...
    for (const m of src.matchAll(/\[((?:'[A-Za-z_]+', )+'[A-Za-z_]+')\]\.map\(\(k\) => tx\(/g)) for (const k of m[1].split(', ')) used.add(k.slice(1, -1));
    for (const m of src.matchAll(/\[\['(en[A-Za-z]+)', /g)) used.add(m[1]);
    for (const m of src.matchAll(/\bid: '[\w-]+', key: '([A-Za-z_-]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/\['[\w]+', '(weight[A-Za-z]+)', '(weight[A-Za-z]+)'\]/g)) { used.add(m[1]); used.add(m[2]); }
    for (const m of src.matchAll(/\['(mem[A-Za-z]+|pick[A-Za-z]+|col[A-Za-z]+|bandTitle|sharding|effTflops|asOf|warningsTitle)'/g)) used.add(m[1]);
  }
  // Keys built from values: billing models, kinds, modes, currencies, interconnects, stored catalog kinds; the
  // decision tools' stages, recommendation roles, levers, sensitivity parameters and the engine's assumption keys.
  for (const k of ['on_demand', 'reserved', 'spot', 'tiered', 'monthly', 'kind_transformer', 'kind_cnn', 'kind_custom',
    'mode_pretrain', 'mode_finetune', 'mode_lora', 'mode_inference', 'cur_USD', 'cur_CNY', 'ic_none', 'ic_pcie', 'ic_nvlink',
    'ic_nvswitch', 'ic_infinity-fabric', 'kindStore_json', 'kindStore_skypilot', 'kindStore_manual',
    'stage_exploration', 'stage_tuning', 'stage_production', 'advRole_memory', 'advRole_recommended', 'advRole_fastest',
    'lever_mixed_precision', 'lever_spot', 'lever_reserved', 'lever_mig', 'lever_more_gpus', 'lever_fewer_gpus',
    'sensP_size', 'sensP_deadline', 'sensP_interruptions', 'sensX_size_tokens', 'sensX_size_epochs', 'sensX_size_total_flops',
    'sensX_deadline', 'sensX_interruptions']) used.add(k);
  const missing = [...used].filter((k) => !(k in DICTS.en));
  assert.deepEqual(missing, []);
  assert.ok(used.size > 400, `${used.size} keys found in the sources (the decision tools included)`);
  assert.ok(used.size > 120, `${used.size} keys found in the sources`);
});

test('translator fills every placeholder and falls back to English, then to the key', () => {
  const zh = translator('zh');
  assert.equal(zh('resultsSummary', { fit: 3, total: 9, evaluated: 7 }), '9 个结果中 3 个放得下 · 评估了 7 种实例');
  assert.equal(translator('en')('filterNSelected', { n: 2 }), '2 selected');
  assert.equal(zh('no-such-key'), 'no-such-key');
});

test('the browser languages pick Chinese or English, a stored choice wins', () => {
  assert.equal(pickLanguage(null, ['zh-TW', 'en']), 'zh');
  assert.equal(pickLanguage(null, ['fr-FR', 'en-GB']), 'en');
  assert.equal(pickLanguage(null, ['fr-FR']), 'en');
  assert.equal(pickLanguage('zh', ['en-US']), 'zh');
});
