// Flat config: typescript-eslint's recommended rules over src/, test/, bench/ and scripts/, no line over 160 characters,
// and the store's one door over src/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const STORE_DOOR = 'import the store through src/store/index.js, its one door (export a name there to make it public)';
const CONSOLE_STORE = 'the browser console may import only the pure store/validation/schema-errors.js from the store';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/fixtures/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The mocha reporter is CommonJS (mocha loads reporters with require).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      // Prettier wraps code at 120 but leaves long strings and comments alone; 160 is the hard limit for those.
      // max-len is deprecated in ESLint core but kept until ESLint 11 (then @stylistic/max-len takes its place).
      'max-len': ['error', { code: 160, tabWidth: 2 }],
    },
  },
  {
    // The store's one door: outside src/store, the store is reached through src/store/index.js only, so its
    // insides can change without the rest of netcfg noticing. Inside src/store its files import each other freely.
    // test/ is left out because tests test the store's insides; bench/ and scripts/ are left out as tools, not netcfg.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/store/**', '!**/store/index.js'], message: STORE_DOOR }] },
      ],
    },
  },
  {
    // The console is bundled for the browser: the door would pull the node-only store into the bundle, so the console
    // imports the one pure module it needs (schema-errors.ts, also in src/console/tsconfig.json) and nothing else.
    files: ['src/console/**/*.ts', 'src/console/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        // A regex, as a group's '!' cannot re-include a file below a folder its own pattern already excluded.
        { patterns: [{ regex: '(^|/)store/(?!validation/schema-errors\\.js$)', message: CONSOLE_STORE }] },
      ],
    },
  },
);
