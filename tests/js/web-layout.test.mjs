// Guards on the page's code layout (web/src): no import cycle, no file over 600 lines, no function over 120 lines.
// The detectors are tested on small synthetic sources too, so that a broken detector cannot pass silently.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';

const WEB_SRC = path.join(root, 'web/src');
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 120;

export function sourceFiles(dir = WEB_SRC) {
  return fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js')).sort()
    .map((f) => ({ name: f.split(path.sep).join('/'), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

// The relative modules a source imports or re-exports (static and dynamic imports).
export function importsOf(text) {
  const specs = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]);
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs.filter((s) => s.startsWith('.'));
}

// The first import cycle among {name, text} files (names relative to one folder, '/'-separated), as the list of
// files around it, or null.
export function findCycle(files) {
  const graph = new Map(files.map((f) => [f.name, importsOf(f.text)
    .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(f.name), s)))
    .filter((s) => s.endsWith('.js'))]));
  const state = new Map();  // name -> 'open' while on the stack, 'done' after
  const stack = [];
  const visit = (name) => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'open') return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, 'open');
    stack.push(name);
    for (const next of graph.get(name) || []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of graph.keys()) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return null;
}

// The functions of a source longer than maxLines: [{line, lines}]. A function is a `{` opened right after `=>` or
// after a parenthesised list that does not belong to if/for/while/switch/catch; strings, template literals,
// comments and regular-expression literals are skipped, so braces inside them do not count.
export function longFunctions(text, maxLines) {
  const found = [];
  const open = [];  // {line, fn}
  let line = 1;
  let parens = [];  // indices of unmatched '('
  let lastClose = null;  // the word before the '(' matched by the latest ')', and where that ')' was
  let prev = '';    // previous significant character
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (c === '\n') { line += 1; continue; }
    if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i += 1; i -= 1; continue; }
    if (c === '/' && text[i + 1] === '*') { const e = text.indexOf('*/', i + 2); line += (text.slice(i, e).match(/\n/g) || []).length; i = e + 1; continue; }
    if (c === '\'' || c === '"' || c === '`' || (c === '/' && /[(,=:[!&|?{};]|^$/.test(prev))) {
      for (i += 1; i < text.length && text[i] !== c; ++i) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '\n') line += 1;
        else if (c === '/' && text[i] === '[') { while (text[i] !== ']') i += text[i] === '\\' ? 2 : 1; }
      }
      prev = c;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === '(') parens.push(i);
    else if (c === ')') {
      const at = parens.pop();
      const before = /([A-Za-z_$][\w$]*)\s*$/.exec(text.slice(Math.max(0, at - 40), at));
      lastClose = { word: before ? before[1] : '', at: i };
    } else if (c === '{') {
      const afterArrow = text.slice(Math.max(0, i - 3), i).trimEnd().endsWith('=>');
      const afterParams = prev === ')' && lastClose && !['if', 'for', 'while', 'switch', 'catch', 'with'].includes(lastClose.word);
      open.push({ line, fn: afterArrow || afterParams });
    } else if (c === '}') {
      const o = open.pop();
      if (o && o.fn && line - o.line + 1 > maxLines) found.push({ line: o.line, lines: line - o.line + 1 });
    }
    prev = c;
  }
  return found;
}

test('the cycle detector finds a synthetic cycle and passes a tree without one', () => {
  const cyclic = [
    { name: 'tools/panel.js', text: "import { field } from './form.js';\nimport { advise } from './advise.js';" },
    { name: 'tools/advise.js', text: "import { put } from './panel.js';" },
    { name: 'tools/form.js', text: "export const field = 1;" },
  ];
  assert.deepEqual(findCycle(cyclic), ['tools/panel.js', 'tools/advise.js', 'tools/panel.js']);
  const acyclic = [cyclic[0], { name: 'tools/advise.js', text: "import { put } from './form.js';" }, cyclic[2]];
  assert.equal(findCycle(acyclic), null);
  const viaReexport = [{ name: 'a/x.js', text: "export { y } from '../b/y.js';" }, { name: 'b/y.js', text: "const m = await import('../a/x.js');" }];
  assert.deepEqual(findCycle(viaReexport), ['a/x.js', 'b/y.js', 'a/x.js']);
});

test('no import cycle among the modules of web/src', () => {
  const files = sourceFiles();
  assert.ok(files.length > 20, `${files.length} files`);
  assert.ok(files.some((f) => importsOf(f.text).length > 5), 'imports are read');
  assert.equal(findCycle(files), null);
});

test('no file in web/src over 600 lines (the JSON message files excepted)', () => {
  const long = sourceFiles().map((f) => [f.name, f.text.split('\n').length]).filter(([, n]) => n > MAX_FILE_LINES);
  assert.deepEqual(long, []);
});

test('the function-length detector measures arrows and methods, not if/for blocks or braces in strings', () => {
  const body = (n) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
  assert.deepEqual(longFunctions(`const f = (a) => {\n${body(10)}\n};`, 5), [{ line: 1, lines: 12 }]);
  assert.deepEqual(longFunctions(`class A {\n  m(a) {\n${body(10)}\n  }\n}`, 5), [{ line: 2, lines: 12 }]);
  assert.deepEqual(longFunctions(`function g() {\n  if (a) {\n${body(3)}\n  }\n}`, 5), [{ line: 1, lines: 7 }]);
  assert.deepEqual(longFunctions(`if (a) {\n${body(10)}\n}`, 5), []);
  assert.deepEqual(longFunctions(`const s = '{';\nconst r = /[{]/;\nfunction h() {\n  return \`\${'}'}\`;\n}`, 2), [{ line: 3, lines: 3 }]);
});

test('no function in web/src over 120 lines', () => {
  const long = sourceFiles().flatMap((f) => longFunctions(f.text, MAX_FUNCTION_LINES).map((x) => `${f.name}:${x.line} (${x.lines} lines)`));
  assert.deepEqual(long, []);
  // The detector sees the page's functions: the longest one is well past a few lines.
  const longest = Math.max(...sourceFiles().flatMap((f) => longFunctions(f.text, 0).map((x) => x.lines)));
  assert.ok(longest > 30, `longest function ${longest} lines`);
});
