// Runs a Catch2 suite binary directly, in as many processes at once as the machine has cores, each with a share of
// the test cases, and counts every TEST_CASE once from the XML reporter's OverallResult.
// Why not ctest: catch_discover_tests registers a test case whose name holds ';' as several ctest tests (CMake's list
// separator), each a filter no test case matches, which Catch2 runs as zero tests and passes; and one node start
// per test case cost the wasm layer about a minute on 2 cores.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A test name as a Catch2 test spec that matches it alone: the spec language's special characters escaped.
export const specOf = (name) => name.replace(/[\\,[\]"*]/g, (c) => `\\${c}`).replace(/^~/, '\\~');

// `command` (array: the program and its first arguments, e.g. [node, suite.cjs]) -> the test case names.
export function listTests(command, cwd) {
  const [cmd, ...args] = command;
  const r = spawnSync(cmd, [...args, '--list-test-names-only'], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  return (r.stdout || '').split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '');
}

// The test cases of one XML report: [{name, success, text}] (text: the XML of a failed case, for the log).
export function parseXmlReport(xml) {
  const cases = [];
  const re = /<TestCase name="([^"]*)"[\s\S]*?<\/TestCase>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const name = m[1].replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const success = /<OverallResult success="true"/.test(m[0]);
    cases.push({ name, success, text: success ? '' : m[0] });
  }
  return cases;
}

// A shard still running after this long has hung (the whole suite takes seconds natively, a few minutes under the
// sanitizers): it is stopped and its unreported cases fail. A guard against hangs, not a time budget (those live
// in `npm run bench`). GPUVALUE_CATCH2_HANG_SECONDS overrides it.
const HANG_SECONDS = Number(process.env.GPUVALUE_CATCH2_HANG_SECONDS || 1800);

function runShard(command, names, cwd, dir, i) {
  const list = path.join(dir, `shard-${i}.txt`);
  const out = path.join(dir, `shard-${i}.xml`);
  fs.writeFileSync(list, `${names.map(specOf).join('\n')}\n`);
  const [cmd, ...args] = command;
  return new Promise((resolve) => {
    let log = '';
    const child = spawn(cmd, [...args, '--use-colour', 'no', '-r', 'xml', '-o', out, '-f', list], { cwd, env: process.env });
    const hang = setTimeout(() => {
      log += `\nstopped after ${HANG_SECONDS} s: the shard hung\n`;
      child.kill('SIGKILL');
    }, HANG_SECONDS * 1000);
    child.stdout.on('data', (d) => { log += d; });
    child.stderr.on('data', (d) => { log += d; });
    child.on('close', (status, signal) => {
      clearTimeout(hang);
      const xml = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
      resolve({ cases: parseXmlReport(xml), status, signal, log });
    });
  });
}

// Runs every test case of the suite; a case that no report shows (the process crashed before it) counts as failed.
// Returns {registered, passed, failed, failures: [text]}.
export async function runSuite(command, { cwd, jobs = 1 }) {
  const names = listTests(command, cwd);
  if (!names.length) return { registered: 0, passed: 0, failed: 1, failures: ['the suite lists no test cases'] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-catch2-'));
  const shards = Array.from({ length: Math.max(1, Math.min(jobs, names.length)) }, () => []);
  names.forEach((n, i) => shards[i % shards.length].push(n));
  try {
    const results = await Promise.all(shards.map((s, i) => runShard(command, s, cwd, dir, i)));
    const seen = new Map();
    const failures = [];
    for (const r of results) {
      for (const c of r.cases) {
        seen.set(c.name, c.success);
        if (!c.success) failures.push(c.text);
      }
      if (r.status !== 0 && !r.cases.some((c) => !c.success)) failures.push(`exit ${r.status ?? r.signal}\n${r.log.slice(-4000)}`);
    }
    const missing = names.filter((n) => !seen.has(n));
    if (missing.length) failures.push(`not reported (the process ended before them): ${missing.join('; ')}`);
    const passed = names.filter((n) => seen.get(n) === true).length;
    return { registered: names.length, passed, failed: names.length - passed, failures };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
