// Project guards: the engine core stays plain C++, CMake source lists stay explicit.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test('core/ never mentions Emscripten', () => {
  const hits = walk(path.join(root, 'core')).filter((f) => /emscripten/i.test(fs.readFileSync(f, 'utf8')));
  assert.deepEqual(hits, []);
});

test('every core source file is listed explicitly in core/CMakeLists.txt', () => {
  const cmake = fs.readFileSync(path.join(root, 'core/CMakeLists.txt'), 'utf8');
  assert.doesNotMatch(cmake, /file\s*\(\s*GLOB/i);
  for (const f of fs.readdirSync(path.join(root, 'core/src'))) assert.match(cmake, new RegExp(`src/${f.replace('.', '\\.')}`), f);
});

test('wasm/ holds one binding file with one EMSCRIPTEN_BINDINGS block', () => {
  const cpp = fs.readdirSync(path.join(root, 'wasm')).filter((f) => f.endsWith('.cpp'));
  assert.deepEqual(cpp, ['bindings.cpp']);
  const text = fs.readFileSync(path.join(root, 'wasm/bindings.cpp'), 'utf8');
  assert.equal(text.match(/EMSCRIPTEN_BINDINGS/g).length, 1);
});
