// The size check (scripts/lint-size.mjs) fails on a function over 120 lines and a file over 600 lines, in C++ and
// JS, and is not misled by braces in strings and comments.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { checkText, cppFunctions, jsSizeLinter, EXCEPTED } from '../../scripts/lint-size.mjs';
import { root } from './helpers.mjs';

// A C++ function whose head is on its first line and whose closing brace is on line `lines`.
const cppFunction = (name, lines) =>
  [`int ${name}(int x) {`, ...Array.from({ length: lines - 2 }, (_, i) => `  x += ${i};  // {`), '}'].join('\n');

const jsFunction = (name, lines) =>
  [`export function ${name}(x) {`, ...Array.from({ length: lines - 2 }, (_, i) => `  x += ${i};`), '}'].join('\n');

const linter = jsSizeLinter(root);

test('a 130-line C++ function is reported at its first line with its length; 120 lines pass', async () => {
  const text = `#include <string>\n\nnamespace a {\n\n${cppFunction('small', 120)}\n\n${cppFunction('big', 130)}\n\n}  // namespace a\n`;
  const findings = await checkText('core/src/synthetic.cpp', text);
  assert.deepEqual(findings, [{ file: 'core/src/synthetic.cpp', line: 126, message: 'function has 130 lines (limit 120)' }]);
});

test('a 601-line file is reported; 600 lines pass', async () => {
  const lines = (n) => `${Array.from({ length: n }, (_, i) => `int v${i} = ${i};`).join('\n')}\n`;
  assert.deepEqual(await checkText('core/src/long.hpp', lines(600)), []);
  assert.deepEqual(await checkText('core/src/long.hpp', lines(601)),
    [{ file: 'core/src/long.hpp', line: 1, message: 'file has 601 lines (limit 600)' }]);
  assert.deepEqual(await checkText('web/src/long.js', lines(601).replace(/int /g, 'let '), linter),
    [{ file: 'web/src/long.js', line: 1, message: 'file has 601 lines (limit 600)' }]);
});

test('a 130-line JS function is reported; 120 lines pass', async () => {
  const text = `${jsFunction('small', 120)}\n\n${jsFunction('big', 130)}\n`;
  const findings = await checkText('web/src/synthetic.js', text, linter);
  assert.deepEqual(findings, [{ file: 'web/src/synthetic.js', line: 122, message: 'function has 130 lines (limit 120)' }]);
});

test('the C++ scanner skips braces in strings, comments, character literals and preprocessor lines', () => {
  const text = [
    '#define OPEN {',
    'namespace n {',
    'struct S : Base {',
    ' public:',
    '  S(int x) : a_(x), b_{x} {',
    '  }',
    '  int f() const { return \'{\'; }',
    '};',
    'const int kTable[] = {1, 2, 3};',
    'std::string g() {',
    '  /* } */ const char* s = "}}}";  // }',
    '  auto r = R"x(})x";',
    '  return [&]() { return s; }();',
    '}',
    '}  // namespace n',
  ].join('\n');
  assert.deepEqual(cppFunctions(text), [{ line: 5, lines: 2 }, { line: 7, lines: 1 }, { line: 10, lines: 5 }]);
});

test('each file the size check excepts exists, with its reason', () => {
  for (const [file, why] of Object.entries(EXCEPTED)) {
    assert.ok(fs.existsSync(path.join(root, file)), file);
    assert.ok(why.length > 10, `${file} has a reason`);
  }
});
