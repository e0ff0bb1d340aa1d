// Every command of the CLI against the engine's dispatch table: each request method has a command, and every
// command answers --json (JSON on stdout), --lang zh and --lang en (text), and --help in both languages. A command
// that loses an option it reads (guardOptions) or the common options (--json, --lang, --help) fails here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliIn, loadEngine } from './helpers.mjs';
import { COMMAND_TABLE, COMMON, OPTIONS, guardOptions } from '../../bin/cli/options.mjs';

// Request methods without a command of their own: rankView is the page's window onto a ranking, offers the details
// panel's record of one offer; serveOffers is the serving ranking's question on every offer, which `serve` without
// --gpu or --offer and `rank` with a serving preset ask (tests/js/cli-serving.test.mjs).
const NO_COMMAND = ['rankView', 'offers', 'serveOffers'];

// A valid invocation of each command (without --json or --lang); a new command needs one here.
const EXAMPLES = {
  estimate: ['--preset', 'resnet50-imagenet', '--gpu', 'h100-sxm5-80gb'],
  rank: ['--preset', 'resnet50-imagenet', '--limit', '3'],
  cost: ['--instance', 'p3.2xlarge', '--hours', '10'],
  validate: ['data/gpus.json'],
  import: ['skypilot', 'tests/fixtures/skypilot/lambda-vms.csv', '--provider', 'Lambda', '--as-of', '2026-11-01'],
  probe: ['--preset', 'llama2-7b-pretrain'],
  measured: ['3150 tokens/s on a100-sxm4-80gb x8'],
  presets: [],
  gpus: [],
  advise: ['--params', '7e9'],
  plan: ['--example', 'article'],
  serverless: ['--offer', 'runpod-serverless-a100-80gb'],
  mig: ['--gpu', 'a100-sxm4-80gb', '--jobs', '7x8gb'],
  levers: ['--preset', 'resnet50-imagenet', '--instance', 'p3.2xlarge'],
  compare: ['--preset', 'yolov7-coco', '--config', 'a100-sxm4-80gb:8', '--config', 'v100-sxm2-16gb:4'],
  energy: ['--gpu', 'a100-sxm4-80gb', '--count', '8', '--hours', '100'],
  tco: ['--gpu', 'h100-sxm5-80gb', '--purchase-usd', '300000', '--rent-usd-per-gpu-hour', '2.5'],
  serve: ['--preset', 'llama3.1-70b', '--gpu', 'h100-sxm5-80gb', '--count', '4', '--rps', '5', '--ttft-ms', '2000', '--tpot-ms', '100'],
};

test('every request method of the engine\'s dispatch table has a command, and every command names a method of it', async () => {
  const e = await loadEngine();
  const methods = new Set(e.methodList.map((m) => m.name));
  const requests = e.methodList.filter((m) => m.argument === 'request').map((m) => m.name);
  assert.ok(requests.length > 8, requests.join(' '));
  const commandMethods = Object.entries(COMMAND_TABLE).map(([cmd, c]) => c.method ?? cmd);
  assert.deepEqual(requests.filter((m) => !commandMethods.includes(m) && !NO_COMMAND.includes(m)), []);
  assert.deepEqual(commandMethods.filter((m) => !methods.has(m)), []);
  assert.deepEqual(Object.keys(COMMAND_TABLE).filter((c) => !EXAMPLES[c]), [], 'each command has an example here');
});

test('the common options are every command\'s, by construction', () => {
  for (const name of COMMON) assert.deepEqual(OPTIONS[name].commands, Object.keys(COMMAND_TABLE), name);
});

test('a command that reads an option its row does not list stops with an internal error', () => {
  const opts = guardOptions('serverless', { offer: 'x' });
  assert.equal(opts.offer, 'x');
  assert.equal(opts.json, undefined);
  assert.equal(opts['cold-start-s'], undefined);
  assert.throws(() => opts.preset, /serverless reads --preset/);
});

for (const [cmd, args] of Object.entries(EXAMPLES)) {
  test(`${cmd}: --json, --lang zh, --lang en and --help`, async () => {
    const json = await cliIn([cmd, ...args, '--json']);
    assert.equal(json.code, 0, `${cmd} --json: ${json.stderr}`);
    assert.doesNotThrow(() => JSON.parse(json.stdout), `${cmd} --json prints JSON`);
    const zh = await cliIn([cmd, ...args, '--lang', 'zh']);
    const en = await cliIn([cmd, ...args, '--lang', 'en']);
    assert.equal(zh.code, 0, `${cmd} --lang zh: ${zh.stderr}`);
    assert.equal(en.code, 0, `${cmd} --lang en: ${en.stderr}`);
    assert.ok(zh.stdout.length > 0 && en.stdout.length > 0, cmd);
    for (const lang of ['en', 'zh']) {
      const help = await cliIn([cmd, '--help', '--lang', lang]);
      assert.equal(help.code, 0, `${cmd} --help --lang ${lang}: ${help.stderr}`);
      for (const o of [...COMMON, ...COMMAND_TABLE[cmd].options]) assert.ok(help.stdout.includes(`--${o}`), `${cmd} --help (${lang}) lists --${o}`);
    }
    // The usage line is in the reader's language.
    assert.notEqual((await cliIn([cmd, '--help', '--lang', 'zh'])).stdout.split('\n')[2], (await cliIn([cmd, '--help', '--lang', 'en'])).stdout.split('\n')[2], cmd);
  });
}

test('energy and tco take the site grid: China\'s price and CO2 for a Chinese reader, --grid to choose, a bad one refused', () => {
  const hw = ['--gpu', 'a100-sxm4-80gb', '--count', '8', '--hours', '100', '--json'];
  const zh = JSON.parse(cli(['energy', ...hw, '--lang', 'zh']).stdout);
  const en = JSON.parse(cli(['energy', ...hw, '--lang', 'en']).stdout);
  const chosen = JSON.parse(cli(['energy', ...hw, '--lang', 'zh', '--grid', 'world']).stdout);
  assert.equal(zh.assumptions.kg_co2_per_kwh.source.code, 'energy.src_grid_co2_china');
  assert.equal(en.assumptions.kg_co2_per_kwh.source.code, 'energy.src_grid_co2');
  assert.equal(chosen.co2_kg, en.co2_kg);
  // The same facility energy at two intensities: the CO2 ratio is the intensities' ratio.
  assert.ok(Math.abs(zh.co2_kg / en.co2_kg - zh.assumptions.kg_co2_per_kwh.value / en.assumptions.kg_co2_per_kwh.value) < 1e-9);
  const tco = JSON.parse(cli(['tco', '--gpu', 'a100-sxm4-40gb', '--count', '8', '--grid', 'china', '--json']).stdout);
  assert.equal(tco.assumptions.usd_per_kwh.source.code, 'energy.src_electricity_price_china');
  const bad = cli(['energy', ...hw, '--grid', 'mars']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /\/grid/);
});
