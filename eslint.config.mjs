// ESLint for the whole repository (every workspace follows it as it lands): typescript-eslint's
// recommended rules, no `any`, and eslint-config-prettier last so formatting is Prettier's alone.
// Import cycles (type-only ones included, which eslint-plugin-import-x's no-cycle skips) are
// caught by scripts/check-cycles.mjs, which `npm run lint` runs too. Not type-aware: on the shared
// 2-core machine the type-aware presets cost a full TypeScript program per run, and tsc already
// type-checks every workspace in `npm test`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.ocikit/**',
      // @ocikit/oci's sources are generated from schema.json (their first line says so); its
      // hand-written code generator (packages/sdk/codegen) and tests are linted like everything else.
      'packages/sdk/src/**',
    ],
  },
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // CommonJS throughout: a lazy `require` keeps start-up fast (the Pulumi plugin, the SQLite
      // drivers) and loads untyped generated protobuf modules, so it is allowed.
      '@typescript-eslint/no-require-imports': 'off',
      // A `let` read by a closure before its one assignment (a signal handler set up before start) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
