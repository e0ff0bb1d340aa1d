// The page's folders are layers (docs/architecture.md, "The page"): an import may only point down. The rule is
// tested on synthetic sources too, so that a broken checker cannot pass silently.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sourceFiles, importsOf } from './web-source.mjs';

// Each folder of web/src and the folders its modules may import from (besides its own).
//   format  numbers, money, durations, dates: shared by the message catalogs, the page and the CLI
//   i18n    the UI strings and the engine's message catalogs
//   engine  the worker side: the wasm client, the engine core, the user's catalogs, exports (and the host that
//           starts it); nothing of the page
//   state   the page state's shape, its URL form and requests (no DOM)
//   views   DOM drawn from state and engine answers
//   tools   the decision tools' panels
//   app     the page's store, its actions and start-up: may use every layer
//   data    JSON only
export const LAYERS = {
  format: [],
  i18n: ['format'],
  engine: ['format', 'i18n'],
  state: ['format'],
  views: ['format', 'i18n', 'state', 'data'],
  tools: ['format', 'i18n', 'state', 'views', 'data'],
  app: ['format', 'i18n', 'engine', 'state', 'views', 'tools', 'data'],
  data: [],
};

// The imports of {name, text} files (names relative to web/src) that point against the layers: "from -> to".
export function wrongImports(files, layers = LAYERS) {
  const bad = [];
  for (const f of files) {
    const from = f.name.split('/')[0];
    for (const spec of importsOf(f.text)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(f.name), spec));
      const to = target.split('/')[0];
      const allowed = layers[from];
      if (!allowed || (to !== from && !allowed.includes(to))) bad.push(`${f.name} -> ${target}`);
    }
  }
  return bad;
}

test('the layer checker finds an import against the direction and passes one along it', () => {
  const files = [
    { name: 'engine/core.js', text: "import { rowKey } from '../state/rows.js';\nimport { x } from './client.js';" },
    { name: 'views/table.js', text: "import { fmt } from '../format/format.js';\nimport { timed } from './profile.js';" },
    { name: 'i18n/messages.js', text: "export { makeFormatter } from '../views/format.js';" },
    { name: 'views/overview.js', text: "const m = await import('../app/page.js');" },
    { name: 'lost/x.js', text: "import { y } from '../format/format.js';" },
  ];
  assert.deepEqual(wrongImports(files), [
    'engine/core.js -> state/rows.js', 'i18n/messages.js -> views/format.js', 'views/overview.js -> app/page.js', 'lost/x.js -> format/format.js',
  ]);
});

test('every import in web/src points down the layers', () => {
  const files = sourceFiles();
  assert.ok(files.length > 30, `${files.length} files`);
  // Every folder with code is a known layer, and the checker sees imports across folders.
  assert.deepEqual([...new Set(files.map((f) => f.name.split('/')[0]))].filter((d) => !LAYERS[d]), []);
  assert.ok(files.some((f) => importsOf(f.text).some((s) => s.startsWith('../'))), 'cross-folder imports are read');
  assert.deepEqual(wrongImports(files), []);
});

test('the engine worker bundle and the CLI reach no page module', () => {
  // The worker's entry imports only the engine side (engine/, i18n/, format/): the rule above, checked from its entry.
  const files = new Map(sourceFiles().map((f) => [f.name, f.text]));
  const seen = new Set();
  const walk = (name) => {
    if (seen.has(name) || !files.has(name)) return;
    seen.add(name);
    for (const s of importsOf(files.get(name))) walk(path.posix.normalize(path.posix.join(path.posix.dirname(name), s)));
  };
  walk('engine/worker.js');
  assert.ok(seen.size > 5, [...seen].join(' '));
  assert.deepEqual([...seen].filter((n) => !/^(engine|i18n|format)\//.test(n)), []);
});
