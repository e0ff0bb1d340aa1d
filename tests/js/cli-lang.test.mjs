// The command line's own text (usage, help, table headers, sentences, usage errors) in both languages: the two
// catalogs (bin/cli/strings.*.json) have the same keys with the same placeholders, every key the code uses exists,
// and --lang zh (or LANG=zh_CN) gives Chinese usage, help, headers and errors while English output is unchanged.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, cli } from './helpers.mjs';
import { placeholders } from '../../web/src/i18n/messages.js';
import { CLI_STRINGS, requestedLanguage } from '../../bin/cli/strings.mjs';
import { OPTIONS, COMMAND_TABLE } from '../../bin/cli/options.mjs';

const HAN = /[\u4e00-\u9fff]/;

test('both CLI catalogs have the same keys with the same placeholders, and the Chinese one is Chinese', () => {
  const { en, zh } = CLI_STRINGS;
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const k of Object.keys(en)) {
    assert.deepEqual([...placeholders(zh[k])].sort(), [...placeholders(en[k])].sort(), k);
    if (/^(command|usage|help)\./.test(k)) assert.match(zh[k], HAN, `${k} is not translated`);
  }
  for (const name of Object.keys(OPTIONS)) assert.ok(`option.${name}` in en, `option ${name} has no help text`);
  for (const name of Object.keys(COMMAND_TABLE)) assert.ok(`command.${name}` in en, `command ${name} has no summary`);
});

test('every text key the CLI code uses is in the catalogs', () => {
  const dir = path.join(root, 'bin');
  const files = [path.join(dir, 'gpuvalue.mjs'), ...fs.readdirSync(path.join(dir, 'cli')).filter((f) => f.endsWith('.mjs')).map((f) => path.join(dir, 'cli', f))];
  const used = new Set();
  for (const f of files) for (const m of fs.readFileSync(f, 'utf8').matchAll(/\bs\('([a-z_]+\.[a-z_.]+)'/g)) used.add(m[1]);
  assert.ok(used.size > 80, `only ${used.size} keys found`);
  for (const k of used) assert.ok(k in CLI_STRINGS.en, `${k} is used but not in strings.en.json`);
});

test('the language comes from --lang, else LC_ALL, else LANG', () => {
  assert.equal(requestedLanguage(['rank', '--lang', 'zh'], {}), 'zh');
  assert.equal(requestedLanguage(['rank', '--lang=zh-CN'], { LANG: 'en_US.UTF-8' }), 'zh');
  assert.equal(requestedLanguage(['rank'], { LANG: 'zh_CN.UTF-8' }), 'zh');
  assert.equal(requestedLanguage(['rank'], { LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' }), 'en');
  assert.equal(requestedLanguage(['rank', '--lang', 'en'], { LANG: 'zh_CN.UTF-8' }), 'en');
});

test('usage, help, usage errors and table headers follow --lang', () => {
  const help = cli(['rank', '--help', '--lang', 'zh']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^用法：gpuvalue rank/);
  assert.match(help.stdout, /用这些目录【替换】内置目录进行排名/);
  assert.doesNotMatch(help.stdout, /rank these catalogs/);
  const bad = cli(['rank', '--preset', 'resnet50-imagenet', '--bugdet', '5', '--lang', 'zh']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /rank 没有选项 --bugdet；是不是想用 --budget？/);
  const num = cli(['rank', '--preset', 'resnet50-imagenet', '--budget', '0x10', '--lang', 'zh']);
  assert.match(num.stderr, /--budget 必须是十进制数 > 0（实际为“0x10”）/);
  const table = cli(['rank', '--preset', 'resnet50-imagenet', '--lang', 'zh', '--limit', '2']);
  assert.equal(table.code, 0, table.stderr);
  const header = table.stdout.split('\n')[1];
  assert.match(header, /实例\s+云厂商\s+GPU\s+计费\s+放得下\s+时间/);
  assert.doesNotMatch(table.stdout, /\b(instance|provider|pricing|on_demand)\b/);
  const en = cli(['rank', '--preset', 'resnet50-imagenet', '--lang', 'en', '--limit', '2']);
  assert.match(en.stdout.split('\n')[1], /#\s+instance\s+provider\s+GPUs\s+pricing\s+fits\s+time/);
  const top = cli(['--help', '--lang', 'zh']);
  assert.match(top.stdout, /命令：[\s\S]*决策工具/);
});

test('the columns of a Chinese table line up (a CJK character takes two terminal columns)', () => {
  const out = cli(['gpus', '--lang', 'zh']);
  const lines = out.stdout.split('\n').filter(Boolean);
  const width = (t) => t.length + (t.match(/[\u4e00-\u9fff\uff00-\uff60]/g) || []).length;
  assert.equal(width(lines[0]) <= width(lines[1]), true);
  assert.match(lines[0], /编号\s+名称/);
});

test('Chinese answers say roles, durations, stacks, own/rent and rates in Chinese with their currency', () => {
  const zh = (args) => {
    const r = cli([...args, '--lang', 'zh']);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const advise = zh(['advise', '--params', '7e9', '--stage', 'tuning']);
  assert.match(advise, /【推荐】/);
  assert.doesNotMatch(advise, /\[(recommended|fastest|memory model)\]/);
  const estimate = zh(['estimate', '--preset', 'llama2-7b-pretrain', '--gpu', 'h100-sxm5-80gb', '--count', '8']);
  assert.match(estimate, /\d+\.\d 天/);
  assert.doesNotMatch(estimate, /\d d\b|\btuned\b|\btypical\b/);
  const tco = zh(['tco', '--gpu', 'a100-sxm4-40gb', '--count', '8', '--hours', '100']);
  assert.doesNotMatch(tco, /\b(rent|own)\s*$/m, 'the cheaper column in Chinese');
  assert.match(tco, /租用/);
  assert.match(tco, /每 GPU 小时 US\$\d+\.\d\d 租用/, 'the break-even rate with its currency');
  // English is unchanged.
  const en = cli(['advise', '--params', '7e9', '--stage', 'tuning', '--lang', 'en']).stdout;
  assert.match(en, /\[recommended\]/);
  assert.match(cli(['estimate', '--preset', 'llama2-7b-pretrain', '--gpu', 'h100-sxm5-80gb', '--count', '8', '--lang', 'en']).stdout, /\d+\.\d d /);
});
