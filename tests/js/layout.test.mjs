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

// Sources outside core/src/api/ are named one by one; the API methods (one file each) are the one glob, so that
// adding a method is its file and its dispatch-table row.
export function unlistedSources(cmake, files) {
  const globs = [...cmake.matchAll(/file\s*\(\s*GLOB\b[^)]*\)/gi)].map((m) => m[0]);
  if (globs.length !== 1 || !/CONFIGURE_DEPENDS\s+src\/api\/\*\.cpp\s*\)$/.test(globs[0])) return ['(the only glob must be src/api/*.cpp with CONFIGURE_DEPENDS)'];
  return files.filter((f) => !f.startsWith('src/api/') && !cmake.includes(`  ${f}\n`));
}

test('every core source outside core/src/api is listed in core/CMakeLists.txt, and api/*.cpp is the one glob', () => {
  const cmake = fs.readFileSync(path.join(root, 'core/CMakeLists.txt'), 'utf8');
  const files = walk(path.join(root, 'core/src')).filter((f) => f.endsWith('.cpp')).map((f) => path.relative(path.join(root, 'core'), f));
  assert.ok(files.length > 40 && files.some((f) => f.startsWith('src/api/')));
  assert.deepEqual(unlistedSources(cmake, files), []);
  assert.deepEqual(unlistedSources(cmake.replace('  src/model/ranking.cpp\n', ''), files), ['src/model/ranking.cpp']);
  assert.equal(unlistedSources(cmake.replace('CONFIGURE_DEPENDS src', 'src'), files).length, 1);
});

test('wasm/ holds one binding file with one EMSCRIPTEN_BINDINGS block', () => {
  const cpp = fs.readdirSync(path.join(root, 'wasm')).filter((f) => f.endsWith('.cpp'));
  assert.deepEqual(cpp, ['bindings.cpp']);
  const text = fs.readFileSync(path.join(root, 'wasm/bindings.cpp'), 'utf8');
  assert.equal(text.match(/EMSCRIPTEN_BINDINGS/g).length, 1);
});
