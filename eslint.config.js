import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // sdk/src/generated/ is openapi-typescript's output from docs/openapi.json: not ours to
    // style, and test/sdk/generated.test.ts keeps it identical to what the generator writes.
    ignores: ['node_modules/', 'data/', 'docs/openapi.json', 'coverage/', 'sdk/src/generated/', 'web/dist/', 'sdk/dist/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: ['src/cli/**', 'bench/**', 'test/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // The dashboard (web/, docs/architecture/dashboard.md): TSX with the rules of hooks, in a browser.
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } }, globals: { window: 'readonly', document: 'readonly', localStorage: 'readonly' } },
  },
);
