// ESLint 9 flat config: the recommended rules over the project's JavaScript, with the globals of where each part
// runs. Sizes (files, functions) are checked by scripts/lint-size.mjs, not here.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', 'build/', 'dist/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2025, sourceType: 'module' },
    rules: {
      // An unused argument often documents a callback's shape; unused locals and imports are still errors.
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // The page, the widget and the engine worker (web/src also runs in node for the JS tests).
    files: ['web/src/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ['bin/**', 'scripts/**', 'bench/**', 'tests/js/**', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Browser tests, the page benchmark and the build's prerender run in node and hand functions to the page
    // (page.evaluate), which run there.
    files: ['tests/browser/**', 'bench/run.mjs', 'bench/page.mjs', 'bench/longtasks.mjs', 'scripts/prerender.mjs', 'scripts/first-table.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
];
