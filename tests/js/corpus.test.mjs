// The bad-input corpus (tests/corpus/, expectations in tests/corpus/expected.json) through the two JavaScript paths:
// the CLI (`gpuvalue validate FILE`, `import skypilot FILE`, `estimate --workload FILE`, `plan --demand FILE` must exit
// 1 with the problem on stderr, never die by a signal) and the shipped wasm module (the same answers as the native
// engine, and the engine keeps its data and keeps answering after every bad input). The corpus walk runs the CLI's
// commands in this process (helpers.mjs `cliIn`); the process boundary itself (exit status, signals) is checked by
// the spawned runs below and by the other CLI tests.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { root, loadEngine, tmpFile, cliIn } from './helpers.mjs';
import { englishText } from '../../web/src/i18n/messages.js';

const dir = path.join(root, 'tests/corpus');
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
// The engine's dispatch table: the methods that take a data document (they may replace the engine's data).
const TABLE = (await loadEngine()).methodList;
const LOADS = new Set(TABLE.filter((m) => m.argument === 'document').map((m) => m.name));
const IMPORT_OPTIONS = { provider: 'AWS', as_of: '2026-11-01' };
// The CLI's English sentence of an expected message (GPU ids shown as their names, as the CLI does).
const GPU_NAMES = new Map((await loadEngine()).gpus().map((g) => [g.id, g.name]));
const english = (m) => englishText(m, (id) => GPU_NAMES.get(id) ?? id);
// An answer's message matches the expectation: the same code and every parameter the expectation lists.
const sameMessage = (got, want) => Boolean(got) && got.code === want.code
  && Object.entries(want.params || {}).every(([k, v]) => got.params && JSON.stringify(got.params[k]) === JSON.stringify(v));

function cliAsync(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, 'bin/gpuvalue.mjs'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26,
      env: { ...process.env, LC_ALL: '', LANG: 'en_US.UTF-8' } },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, signal: err ? err.signal : null, stdout, stderr }));
  });
}

// The CLI command for a corpus file, or null when the CLI has no way to pass that input (covered natively and in wasm).
function cliCommand(file, want) {
  const p = path.join('tests/corpus', file);
  const o = want.cli || {};
  if (o.skip) return null;
  if (o.args) return o.args.map((a) => (a === '{file}' ? p : a));
  if (LOADS.has(want.method) && want.method !== 'addCatalog') return ['validate', p];
  if (want.method === 'importSkypilot') return ['import', 'skypilot', p, '--provider', 'AWS', '--as-of', '2026-11-01'];
  if (want.method === 'estimate') return ['estimate', '--workload', p, '--gpu', 'h100-sxm5-80gb', '--count', '8'];
  if (want.method === 'plan') return ['plan', '--demand', p];
  return null;  // the other methods take no file: entries give cli.args or cli.skip
}

const isUtf8 = (buf) => Buffer.from(buf.toString('utf8'), 'utf8').equals(buf);

test('every corpus file is run through the CLI or has a reason not to be', () => {
  const files = fs.readdirSync(dir).filter((f) => f !== 'expected.json' && fs.statSync(path.join(dir, f)).isFile());
  assert.deepEqual(files.sort(), Object.keys(expected).sort());
  const viaCli = Object.entries(expected).filter(([f, w]) => cliCommand(f, w));
  assert.ok(viaCli.length >= 60, `only ${viaCli.length} corpus files go through the CLI`);
  for (const [f, w] of Object.entries(expected))
    assert.ok(cliCommand(f, w) || (w.cli && w.cli.skip), `${f}: no CLI command for ${w.method} and no cli.skip reason`);
});

test('every corpus entry names a method of the dispatch table, and an unknown name is a clean not_found', async () => {
  const names = new Set(TABLE.map((m) => m.name));
  for (const [file, want] of Object.entries(expected)) assert.ok(names.has(want.method), `${file}: ${want.method} is not an engine method`);
  const e = await loadEngine();
  for (const name of ['nope', 'catalogBegin', '']) {
    const r = e.tryCall(name, '{}');
    assert.equal(r.ok, false);
    assert.equal(r.error.code, 'not_found');
    assert.equal(r.error.path, '');
    assert.deepEqual(r.error.message, { code: 'error.unknown_method', params: { id: name } });
  }
  // Every method of the table that takes a request is a method of the client.
  for (const m of TABLE.filter((x) => x.argument === 'request')) assert.equal(typeof e[m.name], 'function', m.name);
});

test('the CLI exits 1 with the message on stderr for every bad corpus file, and 0 for the good ones', async () => {
  const cases = Object.entries(expected).map(([file, want]) => ({ file, want, args: cliCommand(file, want) })).filter((c) => c.args);
  const results = [];
  for (const c of cases) results.push(await cliIn(c.args));
  const problems = [];
  cases.forEach(({ file, want, args }, i) => {
    const r = results[i];
    const o = want.cli || {};
    const say = (m) => problems.push(`${file} (gpuvalue ${args.join(' ')}): ${m}\n    exit ${r.code}, signal ${r.signal}, stderr: ${r.stderr.slice(0, 400)}`);
    if (r.signal !== null) return say('died by a signal');
    if (/RangeError|TypeError|at .*\.m?js:\d+/.test(r.stderr)) say('printed a JavaScript error instead of the problem');
    if (want.known_bug) {
      if (r.code !== 0 && r.code !== 1) say('a known engine bug must still give exit 0 or 1');
      return;
    }
    const ok = o.ok !== undefined ? o.ok : want.ok;
    const exit = o.exit !== undefined ? o.exit : ok ? 0 : 1;  // 2: the CLI refuses the option itself (usage error)
    if (r.code !== exit) say(`exit should be ${exit}`);
    if (!ok) {
      // `validate` reads any kind of document, so the engine names it "the document" where loadCatalog says "the catalog".
      const said = want.message && args[0] === 'validate' && want.message.params && 'what' in want.message.params
        ? { ...want.message, params: { ...want.message.params, what: 'document' } } : want.message;
      const needles = o.stderr_contains ? [].concat(o.stderr_contains) : [said && english(said), want.path].filter(Boolean);
      for (const n of needles) if (!r.stderr.includes(n)) say(`stderr should contain ${JSON.stringify(n)}`);
    } else if (r.code !== 0) {
      // reported above
    } else if (want.method === 'importSkypilot') {
      const catalog = JSON.parse(r.stdout);
      if (want.offers !== undefined && catalog.instances.length !== want.offers) say(`should import ${want.offers} offers, got ${catalog.instances.length}`);
      const text = JSON.stringify(catalog);
      for (const s of want.output_strings || []) if (!text.includes(JSON.stringify(s).slice(1, -1))) say(`the catalog should carry ${JSON.stringify(s)}`);
    } else if (want.count !== undefined && !r.stdout.includes(`ok (${want.count} records)`)) {
      say(`stdout should say ok (${want.count} records)`);
    }
  });
  assert.equal(problems.join('\n'), '');
});

test('the CLI refuses invalid UTF-8 and out-of-range numbers in files instead of silently changing them', async () => {
  const bad = tmpFile('latin1.json', Buffer.from('{"instances": [], "note": "caf\xe9"}', 'latin1'));
  const r1 = await cliAsync(['validate', bad]);
  assert.equal(r1.code, 1);
  assert.match(r1.stderr, /line 1, column 31: not valid UTF-8 \(byte 0xe9\)/);
  const w = tmpFile('w.json', '{"kind": "custom", "total_flops": 1e999}');
  const r2 = await cliAsync(['estimate', '--workload', w, '--gpu', 't4']);
  assert.equal(r2.code, 1);
  assert.match(r2.stderr, /number "total_flops" is out of range/);
  const deep = tmpFile('deep.json', '['.repeat(100000) + ']'.repeat(100000));
  const r3 = await cliAsync(['validate', deep]);
  assert.equal(r3.signal, null);
  assert.equal(r3.code, 1);
  assert.match(r3.stderr, /nests deeper than 256 levels/);
});

test('the wasm module gives the native answers for the corpus and keeps its data after every bad input', async () => {
  let e = await loadEngine();
  const offers = e.catalogSummary().length;
  const problems = [];
  let ran = 0;
  for (const [file, want] of Object.entries(expected)) {
    const buf = fs.readFileSync(path.join(dir, file));
    if (!isUtf8(buf) || want.known_bug) continue;  // a JS string cannot carry invalid UTF-8 (the CLI refuses such files)
    ran++;
    const text = buf.toString('utf8');
    const say = (m) => problems.push(`${file} via ${want.method}: ${m}`);
    let r;
    try {
      r = want.method === 'importSkypilot' ? e.importSkypilot(text, IMPORT_OPTIONS) : e.tryCall(want.method, text);
    } catch (err) {
      say(`threw ${err}`);
      continue;
    }
    if (r.ok !== want.ok) say(`ok should be ${want.ok}: ${JSON.stringify(r.error)}`);
    if (!want.ok && r.error) {
      if (want.code && r.error.code !== want.code) say(`code ${r.error.code}, expected ${want.code}`);
      if (want.path !== undefined && r.error.path !== want.path) say(`path ${r.error.path}, expected ${want.path}`);
      if (want.message && !sameMessage(r.error.message, want.message)) say(`message ${JSON.stringify(r.error.message)}, expected ${JSON.stringify(want.message)}`);
    }
    if (want.ok && LOADS.has(want.method)) {
      e = await loadEngine();  // it replaced or extended the data on purpose
      continue;
    }
    if (e.catalogSummary().length !== offers) say('the loaded catalog changed');
    const c = e.cost({ instance: 'GN10', hours: 150, pricing: 'tiered' });
    if (c.cost_usd !== 1160) say(`GN10 150 h tiered cost ${c.cost_usd} afterwards`);
  }
  assert.ok(ran >= 90, `only ${ran} corpus files ran through the module`);
  assert.equal(problems.join('\n'), '');
});

test('text with a lone surrogate from JavaScript reaches the engine as an error, not as broken UTF-8', async () => {
  const e = await loadEngine();
  const doc = { instances: [{ id: 'x', provider: 'bad \ud800 provider', instance_type: 'x', gpu: 't4', gpu_count: 1, region: 'r',
    prices: [{ model: 'on_demand', usd_per_hour: 1, as_of: '2026-11-01', source: 's' }] }] };
  const r = e.validate(JSON.stringify(doc));
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'json_syntax');
  assert.equal(r.error.message.code, 'error.json_string');
  const fine = e.validate(JSON.stringify({ ...doc, instances: [{ ...doc.instances[0], provider: '<img src=x onerror=alert(1)> \u202e' }] }));
  assert.equal(fine.ok, true);
});
