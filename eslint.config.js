import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * typescript-eslint's strict type-checked rules, with types from the project service (each file's
 * own tsconfig). The few choices below are deliberate:
 * - `no-unnecessary-condition` and `no-unnecessary-type-conversion` are off: the public API checks
 *   and converts at run time what its types already exclude (plain-JavaScript callers, values that
 *   crossed a worker or a tab as structured clones; `String(x)` where a Symbol in a template literal
 *   would throw), and those checks are the point, not dead code.
 * - `require-await` is off: `async` marks functions whose synchronous throws must become
 *   rejections (validation inside the write path's plans), with or without an `await`.
 * - a rejection may carry a caught `unknown` as it is (`prefer-promise-reject-errors`).
 * - tests, benchmarks and build scripts may use `any` (JSON fixtures, `expect` matchers, mocks that
 *   stand in for an `Engine`): the `no-unsafe-*` rules apply to the packages' and apps' sources.
 * - numbers and booleans may appear in template literals (messages); `undefined`, `null`, objects
 *   and `any` may not.
 * - a void call may be an arrow function's shorthand body (`() => void f()` is noise).
 */
export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-onnx/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-unnecessary-type-conversion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // the apps' build configs and Node-side files have their own tsconfig beside the app's
    files: [
      'apps/*/vite.config.ts',
      'apps/*/vitest.config.ts',
      'apps/notes/pwa.ts',
      'apps/notes/sw-files.ts',
      'apps/notes/test/**',
    ],
    ignores: ['apps/bench/**'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['apps/*/tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/test/**', 'e2e/**', 'apps/bench/**', 'packages/*/scripts/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    },
  },
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
);
