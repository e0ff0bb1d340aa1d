// Provider names in the reader's language: every provider of the bundled catalog has an entry in both message
// catalogs (web/src/i18n/*.json, key provider:<name>): its Chinese name where the company uses one (阿里云,
// 腾讯云, 华为云 …), else its own name; the English entry is the catalog's name. The page and the CLI's text output
// show it; --json keeps the catalog's name.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, cli } from './helpers.mjs';
import { DICTS, translator } from '../../web/src/i18n/index.js';
import { providerName } from '../../web/src/format/providers.js';

const dir = path.join(root, 'data/catalog');
const providers = [...new Set(fs.readdirSync(dir).filter((f) => f.endsWith('.json'))
  .flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).instances.map((o) => o.provider)))].sort();
const HAN = /[\u3400-\u9fff]/;

test('every provider of the bundled catalog has a zh and an en name', () => {
  assert.ok(providers.length >= 30, `${providers.length} providers`);
  assert.deepEqual(providers.filter((p) => !(`provider:${p}` in DICTS.zh)), [], 'providers without a zh name');
  assert.deepEqual(providers.filter((p) => DICTS.en[`provider:${p}`] !== p), [], 'the en name is the catalog\'s name');
});

test('the Chinese clouds are named in Chinese, the others keep their own name', () => {
  const zh = translator('zh');
  const want = { 'Alibaba Cloud': '阿里云', 'Huawei Cloud': '华为云', 'Baidu AI Cloud': '百度智能云', 'JD Cloud': '京东云',
    'China Telecom Cloud (ctyun)': '天翼云', 'UCloud Compshare (优云智算)': '优云智算', 'Tencent Cloud': '腾讯云', 'Volcano Engine': '火山引擎' };
  for (const [p, name] of Object.entries(want)) assert.equal(providerName(zh, p), name, p);
  // Every cloud of mainland China in the catalog has a name in Chinese characters (none may stay English-only).
  const chinese = providers.filter((p) => /Alibaba|Tencent|Huawei|Baidu|JD Cloud|ctyun|Volcano|Compshare|AWS China/.test(p));
  assert.ok(chinese.length >= 6, chinese.join(', '));
  for (const p of chinese) assert.match(providerName(zh, p), HAN, p);
  assert.equal(providerName(zh, 'Lambda'), 'Lambda');
  // A name no catalog entry has (an imported catalog's own provider) is shown as it is, in both languages.
  assert.equal(providerName(zh, 'My Lab Cloud'), 'My Lab Cloud');
  assert.equal(providerName(translator('en'), 'Alibaba Cloud'), 'Alibaba Cloud');
});

test('rank --lang zh names Alibaba Cloud 阿里云; --lang en and --json keep "Alibaba Cloud"', () => {
  const args = ['rank', '--preset', 'resnet50-imagenet', '--catalog', 'data/catalog/alibaba.json', '--limit', '3'];
  const zh = cli([...args, '--lang', 'zh']);
  assert.equal(zh.code, 0, zh.stderr);
  const rows = zh.stdout.split('\n').filter((l) => /^\d+\s/.test(l));
  assert.equal(rows.length, 3);
  for (const l of rows) assert.match(l, /\s阿里云 [a-z]{2}-[a-z]+-?\d*\s/, l);
  assert.doesNotMatch(zh.stdout, /Alibaba Cloud/);
  const en = cli([...args, '--lang', 'en']);
  assert.match(en.stdout, /Alibaba Cloud [a-z]{2}-/);
  assert.doesNotMatch(en.stdout, /阿里云/);
  const json = JSON.parse(cli([...args, '--lang', 'zh', '--json']).stdout);
  assert.ok(json.results.every((r) => r.provider === 'Alibaba Cloud'));
});
