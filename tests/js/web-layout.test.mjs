// Guards on the page's code layout (web/src): no import cycle, no file over 600 lines, no function over 120 lines.
// The detectors are tested on small synthetic sources too, so that a broken detector cannot pass silently.
import test from 'node:test';
import assert from 'node:assert/strict';
import { sourceFiles, importsOf, findCycle, longFunctions } from './web-source.mjs';

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 120;

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
