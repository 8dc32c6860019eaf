// ESLint (flat config) for the JS half: the extension, the node tests and the
// benches. Only rules that catch bugs (eslint's "recommended" set); formatting
// is not the linter's job here. Pinned in tests/e2e/package.json; run with
// `bash tests/lint.sh`.
import { createRequire } from 'node:module';

// The packages live in tests/e2e/node_modules (installed by its `npm ci`),
// not beside this file, so resolve them from there.
const require = createRequire(new URL('./tests/e2e/package.json', import.meta.url));
const js = require('@eslint/js');
const globals = require('globals');

export default [
  {
    // extension/background.js: the worker's modules in one file, generated (codegen/generate.mjs).
    ignores: ['**/node_modules/**', 'build*/**', 'extension/background.js'],
  },
  js.configs.recommended,
  {
    rules: {
      'no-unused-vars': ['error', {
        args: 'none',
        varsIgnorePattern: '^_',
      }],
    },
  },
  // The extension: service-worker ES modules. Some of their functions are
  // serialised into pages (chrome.scripting.executeScript), so browser
  // globals are valid there too.
  {
    files: ['extension/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.webextensions },
    },
  },
  // No file over 500 lines: past that a module holds more than one concern.
  {
    files: ['extension/**/*.js', 'tests/**/*.mjs', 'bench/**/*.mjs', 'codegen/**/*.mjs'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  // Content scripts (manifest.json "content_scripts") and the page agent
  // (page/agent/, injected as files by tools/stack/agent_runner.js) are classic scripts.
  {
    files: ['extension/page/*_main.js', 'extension/page/*_relay.js', 'extension/page/forms_*.js', 'extension/page/agent/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { ...globals.browser, ...globals.webextensions },
    },
  },
  // Scripts the fixture pages load.
  {
    files: ['tests/e2e/fixtures/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { ...globals.browser },
    },
  },
  // Node: tests, benches and this file.
  {
    files: ['tests/**/*.mjs', 'bench/**/*.mjs', 'codegen/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: {
      sourceType: 'module',
      globals: { ...globals.node },
    },
  },
];
