// Engine messages ({code, params}) against the engine's own table (the `messages` method) and the two message
// catalogs: every code the engine can emit has a message in both languages with the same placeholders; every
// message in real answers (the recorded golden CLI answers and page-style requests) has a code of the table with
// exactly its parameters; the CLI renders them in Chinese and English; no answer cites a file outside the
// repository.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, loadEngine, cli } from './helpers.mjs';
import { MESSAGE_CATALOGS, messageRenderer, placeholders } from '../../web/src/i18n/messages.js';
import { CALLS, goldenFile } from '../../scripts/golden.mjs';

const engine = await loadEngine();
const TABLE = new Map(engine.call('messages').messages.map((m) => [m.code, m.params]));
// Catalog entries under term.* are words the renderer uses for parameter values (billing models, bounds), not codes.
// The golden CLI answers as recorded in tests/golden/ (golden.test.mjs proves the CLI still gives exactly these).
const GOLDEN = Object.keys(CALLS).map((name) => [name, JSON.parse(fs.readFileSync(goldenFile(name), 'utf8'))]);
const codesOf = (catalog) => Object.keys(catalog).filter((k) => !k.startsWith('term.'));

const isMessage = (x) => x !== null && typeof x === 'object' && typeof x.code === 'string' &&
  x.params !== null && typeof x.params === 'object' && !Array.isArray(x.params);

function collectMessages(value, where, out) {
  if (Array.isArray(value)) value.forEach((v, i) => collectMessages(v, `${where}/${i}`, out));
  else if (value !== null && typeof value === 'object') {
    if (isMessage(value)) out.push({ where, message: value });
    else for (const [k, v] of Object.entries(value)) collectMessages(v, `${where}/${k}`, out);
  }
  return out;
}

test('the engine table is not empty and its codes are dotted lower_snake', () => {
  assert.ok(TABLE.size > 100, `only ${TABLE.size} codes`);
  for (const [code, params] of TABLE) {
    assert.match(code, /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, code);
    for (const p of params) assert.match(p, /^[a-z][a-z0-9_]*$/, `${code}: ${p}`);
  }
});

for (const [lang, catalog] of Object.entries(MESSAGE_CATALOGS)) {
  test(`the ${lang} catalog has exactly the engine's codes, each with the table's placeholders`, () => {
    const codes = codesOf(catalog);
    const missing = [...TABLE.keys()].filter((c) => !(c in catalog));
    const extra = codes.filter((c) => !TABLE.has(c));
    assert.deepEqual(missing, [], `codes without a ${lang} message`);
    assert.deepEqual(extra, [], `${lang} messages for codes the engine does not have`);
    for (const code of codes) {
      assert.deepEqual([...placeholders(catalog[code])].sort(), [...TABLE.get(code)].sort(), `placeholders of ${code} (${lang})`);
    }
  });
}

test('every message in the golden answers has a code of the table with exactly its parameters', () => {
  let seen = 0;
  for (const [name, r] of GOLDEN) {
    if (r.exit !== 0) continue;
    for (const { where, message } of collectMessages(r.answer, name, [])) {
      seen++;
      assert.ok(TABLE.has(message.code), `${where}: unknown code ${message.code}`);
      assert.deepEqual(Object.keys(message.params).sort(), [...TABLE.get(message.code)].sort(), `${where}: params of ${message.code}`);
      assert.equal(typeof message.text, 'string', `${where}: --json adds the English text`);
      assert.doesNotMatch(message.text, /[{}]/, `${where}: unfilled placeholder in "${message.text}"`);
    }
  }
  assert.ok(seen > 100, `only ${seen} messages in the golden answers`);
});

test('every message in page-style answers (rank with every billing model, cost under each) matches the table', () => {
  const answers = [
    engine.rank({ preset: 'gpt3-175b', pricing: 'all', limit: 400, filters: { include_examples: true } }),
    engine.rank({ preset: 'resnet50-imagenet', pricing: 'all', limit: 400, filters: { include_examples: true } }),
    ...['on_demand', 'reserved', 'spot', 'tiered', 'monthly'].map((pricing) => engine.tryCall('cost', { instance: 'GN10', hours: 900, pricing })),
  ];
  const found = answers.flatMap((a, i) => collectMessages(a, `answer ${i}`, []));
  const codes = new Set(found.map((f) => f.message.code));
  for (const need of ['rank.cheapest_job', 'rank.fits_on', 'claim.tflops', 'claim.cpu_memory_type']) assert.ok(codes.has(need), need);
  for (const { where, message } of found) {
    assert.ok(TABLE.has(message.code), `${where}: unknown code ${message.code}`);
    assert.deepEqual(Object.keys(message.params).sort(), [...TABLE.get(message.code)].sort(), `${where}: params of ${message.code}`);
  }
});

test('English messages have correct plurals; Chinese ones are rendered without English words', () => {
  const en = messageRenderer({ lang: 'en' });
  const zh = messageRenderer({ lang: 'zh', gpuName: () => 'A100' });
  const fits = (gpu_count, node_count) => ({ code: 'rank.fits_on', params: { gpu_count, node_count, sharding: '' } });
  assert.equal(en(fits(1, 1)), 'fits on 1 GPU with data parallel (no sharding)');
  assert.equal(en(fits(16, 2)), 'fits on 16 GPUs (2 nodes) with data parallel (no sharding)');
  assert.equal(en({ code: 'cost.months_billed', params: { month_count: 1 } }), '1 month billed');
  assert.equal(en({ code: 'cost.months_billed', params: { month_count: 3 } }), '3 months billed');
  assert.match(zh(fits(16, 2)), /^16 块 GPU（2 个节点）可容纳，采用数据并行/);
  assert.match(zh({ code: 'price.stale', params: { pricing: 'spot', date: '2026-01-02', day_count: 180 } }), /竞价.*2026年1月2日/);
});

test('the CLI prints Chinese reasons with --lang zh and code, params and English text with --json', () => {
  const zh = cli(['rank', '--preset', 'resnet50-imagenet', '--lang', 'zh', '--limit', '3']);
  assert.equal(zh.code, 0, zh.stderr);
  assert.match(zh.stdout, /任务成本最低|最快|可容纳/);
  assert.doesNotMatch(zh.stdout, /cheapest job|fits on/);
  const en = cli(['rank', '--preset', 'resnet50-imagenet', '--lang', 'en', '--limit', '3']);
  assert.match(en.stdout, /fits on \d+ GPUs? /);
  const json = cli(['rank', '--preset', 'resnet50-imagenet', '--json', '--limit', '1']);
  const reason = JSON.parse(json.stdout).results[0].reasons[0];
  assert.ok(TABLE.has(reason.code));
  assert.equal(typeof reason.text, 'string');
  assert.equal(reason.text, messageRenderer({ lang: 'en' })({ code: reason.code, params: reason.params }));
  const bad = cli(['rank', '--preset', 'resnet50-imagenet', '--lang', 'fr']);
  assert.equal(bad.code, 2);
});

test('answers and data cite URLs or docs/sources.md entries, never files outside the repository', () => {
  const anchors = new Set([...fs.readFileSync(path.join(root, 'docs/sources.md'), 'utf8').matchAll(/^## ([\w-]+)$/gm)].map((m) => m[1]));
  const texts = [];
  for (const [lang, catalog] of Object.entries(MESSAGE_CATALOGS)) for (const [k, v] of Object.entries(catalog)) texts.push([`${lang} ${k}`, v]);
  const dataFiles = ['data/gpus.json', 'data/presets.json', ...fs.readdirSync(path.join(root, 'data/catalog')).map((f) => `data/catalog/${f}`)];
  for (const f of dataFiles) texts.push([f, fs.readFileSync(path.join(root, f), 'utf8')]);
  for (const [name, r] of GOLDEN) texts.push([`golden ${name}`, JSON.stringify(r.answer)]);
  for (const [where, text] of texts) {
    assert.doesNotMatch(text, /shared\/reference|seed-claims-check|seed-article\.md|\/work\//, where);
    for (const m of text.matchAll(/docs\/sources\.md#([\w-]+)/g)) assert.ok(anchors.has(m[1]), `${where}: no entry ${m[1]} in docs/sources.md`);
  }
});

test('every input error and import warning of the corpus is a message of the table with exactly its parameters, said in both languages', () => {
  const dir = path.join(root, 'tests/corpus');
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  const en = messageRenderer({ lang: 'en' });
  const zh = messageRenderer({ lang: 'zh' });
  const codes = new Set();
  for (const [file, want] of Object.entries(expected)) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const r = want.method === 'importSkypilot' ? engine.importSkypilot(text, { provider: 'AWS', as_of: '2026-11-01' }) : engine.tryCall(want.method, text);
    for (const { where, message } of collectMessages([r.error || null, r.issues || []], file, [])) {
      codes.add(message.code);
      assert.ok(TABLE.has(message.code), `${where}: unknown code ${message.code}`);
      assert.deepEqual(Object.keys(message.params).sort(), [...TABLE.get(message.code)].sort(), `${where}: params of ${message.code}`);
      assert.doesNotMatch(en(message), /\{[a-z_]+[,}]|^error\./, `${where}: ${en(message)}`);
      assert.match(zh(message), /[\u4e00-\u9fff]/, `${where}: no Chinese in "${zh(message)}"`);
    }
  }
  for (const need of ['error.number_out_of_range', 'error.json_syntax', 'error.not_one_of', 'error.empty_id', 'error.second_on_demand', 'import.bad_price'])
    assert.ok(codes.has(need), `the corpus has no ${need}`);
  assert.ok(codes.size >= 40, `only ${codes.size} codes`);
});

test('an input error keeps its JSON Pointer path and says it in the reader\'s language', () => {
  const r = engine.tryCall('cost', { instance: 'GN10', hours: -1 });
  assert.equal(r.error.path, '/hours');
  assert.equal(r.error.code, 'invalid_value');
  assert.deepEqual(r.error.message, { code: 'error.number_out_of_range', params: { lower: 'closed', min: 0, upper: 'closed', max: 1e7, value: -1 } });
  assert.equal(messageRenderer({ lang: 'en' })(r.error.message), 'must be a finite number >= 0 and <= 10000000 (got -1)');
  assert.equal(messageRenderer({ lang: 'zh' })(r.error.message), '必须是有限数值，且 ≥ 0，且 ≤ 10000000（实际为 -1）');
  const cn = cli(['cost', '--instance', 'p99.mega', '--hours', '1', '--lang', 'zh']);
  assert.equal(cn.code, 1);
  assert.match(cn.stderr, /\/instance: 未知的实例“p99\.mega”/);
  const us = cli(['cost', '--instance', 'p99.mega', '--hours', '1', '--lang', 'en']);
  assert.match(us.stderr, /\/instance: unknown instance "p99\.mega"/);
});

test('a list of messages never doubles punctuation: no "。；" in Chinese, no ".;" in English', () => {
  const list = [{ code: 'levers.scale_no_fit', params: {} }, { code: 'levers.already_spot', params: {} }, { code: 'levers.scale_no_fit', params: {} }];
  const zh = messageRenderer({ lang: 'zh' })(list);
  const en = messageRenderer({ lang: 'en' })(list);
  assert.doesNotMatch(zh, /[。！？][；;]/, zh);
  assert.doesNotMatch(en, /[.!?];/, en);
  assert.match(zh, /显存放不下。已按竞价计费；显存放不下。/);
});

// JSON.parse keeps the last of two equal keys without a word, so a message written twice in a catalog silently
// replaces the first: every file of user-visible text says each key once.
test('every message catalog names each key once', () => {
  const dir = path.join(root, 'web/src/i18n');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 2, files.join(', '));
  for (const f of files) {
    const keys = [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^\s*"([^"]+)"\s*:/gm)].map((m) => m[1]);
    assert.ok(keys.length > 100, `${f}: ${keys.length} keys`);
    const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
    assert.deepEqual(twice, [], `${f}: keys written more than once`);
  }
});

test('a rate per GPU-hour in a message is money in the reader\'s currency, never a bare number', async () => {
  const { makeFormatter } = await import('../../web/src/format/format.js');
  const m = { code: 'tco.own_above', params: { share_fraction: 0.85, year_count: 5, usd_per_gpu_hour: 0.721 } };
  assert.match(messageRenderer({ lang: 'en', fmt: makeFormatter({ lang: 'en' }) })(m), /renting at \$0\.72\/GPU-h/);
  const zh = messageRenderer({ lang: 'zh', fmt: makeFormatter({ lang: 'zh', currency: 'CNY', rate: 7.2 }) })(m);
  assert.match(zh, /¥5\.19/, zh);
  assert.doesNotMatch(zh, /0\.721/);
});
