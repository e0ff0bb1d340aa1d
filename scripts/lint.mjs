#!/usr/bin/env node
// `npm run lint`: ESLint (eslint.config.js) over the project's JavaScript, then the size check of core/ and web/src
// (scripts/lint-size.mjs). Both always run; prints each one's findings and exits 1 when either has any.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ESLINT_TARGETS = ['web/src', 'bin', 'scripts', 'tests/js', 'tests/browser', 'bench', 'eslint.config.js'];

// Runs each check; returns [{name, ok, out}].
export function runLint(root) {
  const node = (args) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const checks = [
    { name: 'eslint', args: [path.join(root, 'node_modules/eslint/bin/eslint.js'), ...ESLINT_TARGETS] },
    { name: 'size', args: [path.join(root, 'scripts/lint-size.mjs')] },
  ];
  return checks.map(({ name, args }) => {
    const r = node(args);
    return { name, ok: r.status === 0, out: `${r.stdout || ''}${r.stderr || ''}${r.error ? r.error.message : ''}` };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const results = runLint(root);
  for (const r of results) {
    process.stdout.write(r.out.endsWith('\n') || !r.out ? r.out : `${r.out}\n`);
    console.log(`lint: ${r.name} ${r.ok ? 'clean' : 'FAILED'}`);
  }
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
