// ESLint flat config. Layers: typescript-eslint's recommended set for everything, a few rules
// that matter for a wallet (no code from strings, no HTML injection sinks), and a boundary for
// src/core/**, which must stay a pure library that runs the same in Node and in any extension
// context (no extension APIs, no DOM).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const readonlyGlobals = (names) => Object.fromEntries(names.map((name) => [name, 'readonly']));

// Declared for every file so that no-implied-eval can see string arguments to the timers.
const timerGlobals = readonlyGlobals([
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval',
  'queueMicrotask',
]);

// Plain JS files are Node scripts or configs; TypeScript itself checks globals in .ts files.
const nodeGlobals = readonlyGlobals([
  'AbortController',
  'Buffer',
  'URL',
  'URLSearchParams',
  'TextDecoder',
  'TextEncoder',
  'console',
  'fetch',
  'performance',
  'process',
  'structuredClone',
]);

const CORE_FORBIDDEN_GLOBALS = ['chrome', 'browser', 'window', 'document', 'self', 'localStorage', 'sessionStorage'];

export default defineConfig([
  globalIgnores([
    'node_modules/',
    'dist/',
    'dist-*/',
    'release/',
    'coverage/',
    'test-artifacts/',
    'bench/.tmp/',
    '.cache/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    name: 'xpc/all',
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: timerGlobals },
    rules: {
      // No code from strings, anywhere (the extension CSP forbids it too).
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-script-url': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-throw-literal': 'error',
      'prefer-const': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  {
    name: 'xpc/node-scripts',
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },

  {
    name: 'xpc/src-no-html-sinks',
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]',
          message: 'Build DOM nodes or render with Preact; never assign HTML strings.',
        },
        {
          selector: 'CallExpression[callee.property.name="insertAdjacentHTML"]',
          message: 'Build DOM nodes or render with Preact; never insert HTML strings.',
        },
        {
          selector: 'CallExpression[callee.object.name="document"][callee.property.name=/^(write|writeln)$/]',
          message: 'document.write is not allowed.',
        },
        {
          selector: 'JSXAttribute[name.name="dangerouslySetInnerHTML"]',
          message: 'Never render raw HTML.',
        },
      ],
    },
  },

  {
    name: 'xpc/core-boundary',
    files: ['src/core/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...CORE_FORBIDDEN_GLOBALS.map((name) => ({
          name,
          message: 'src/core is a pure library: no extension or DOM globals. Pass what you need in.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...CORE_FORBIDDEN_GLOBALS.map((property) => ({
          object: 'globalThis',
          property,
          message: 'src/core is a pure library: no extension or DOM globals. Pass what you need in.',
        })),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'webextension-polyfill',
              message: 'src/core must not use extension APIs; keep that in src/background.',
            },
          ],
          patterns: [
            {
              group: ['preact', 'preact/*'],
              message: 'src/core has no UI.',
            },
            {
              group: ['**/background/**', '**/popup/**', '**/content/**', '**/inpage/**'],
              message: 'src/core must not depend on the extension layers.',
            },
          ],
        },
      ],
    },
  },
]);
