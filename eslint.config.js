// The linter of the whole repository (`npm run lint`, run by CI before the tests). Besides the recommended
// JavaScript and TypeScript rules it encodes the architecture (docs/architecture.md, "Rules the linter keeps"):
// no import cycles; web features import neither each other nor the shell; server routes reach no repository,
// Kysely or db/; SQL is written only by repositories, db/ and the named owner modules.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Every web feature folder, read at each run, so a feature added tomorrow is fenced in too. */
const webFeatures = fs
  .readdirSync(path.join(root, 'apps/web/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Server files allowed to write SQL besides `*.repository.ts` and `db/`: the owners of docs/architecture.md
 * "Who writes what" that are not called repositories, and the migration command that copies every table as it is.
 */
const sqlOwners = ['apps/server/src/tasks/task-state.ts', 'apps/server/src/cli/migrate-sqlite-to-postgres.ts'];
const sqlPlaces = ['apps/server/src/**/*.repository.ts', 'apps/server/src/db/**', ...sqlOwners];

/** Which package may import which (docs/architecture.md): web -> contract; server -> contract, ppd; ppd -> contract. */
const packageZones = [
  {
    target: 'packages/contract/src',
    from: ['packages/ppd', 'apps'],
    message: 'The contract depends on nothing of the project.',
  },
  { target: 'packages/ppd/src', from: 'apps', message: 'The engine does not depend on the apps.' },
  {
    target: 'apps/web/src',
    from: ['apps/server', 'packages/ppd'],
    message: 'The web app depends on the contract only.',
  },
  { target: 'apps/server/src', from: 'apps/web', message: 'The server does not import the web app.' },
];

/** Kysely's query-builder entry points: calling one is writing SQL. */
const QUERY_BUILDER_CALL =
  "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]";

export default defineConfig(
  {
    // What .gitignore leaves out (build output, data, scratch folders) is not linted either.
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '**/data/**',
      '**/.tmp/**',
      '**/.bench/**',
      '**/.screenshots/**',
      '**/test-results/**',
      'apps/web/test/screenshots/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          conditionNames: ['source', 'types', 'import', 'node', 'default'],
          noWarnOnMultipleProjects: true,
        }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      // `_name` marks a parameter or binding kept on purpose (a callback's position, a destructured rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Dependencies point one way (docs/architecture.md): web -> contract; server -> contract, ppd; ppd -> contract.
  {
    files: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: packageZones }] },
  },
  // Benchmarks hand functions to page.evaluate: they run in the browser.
  {
    files: ['scripts/bench/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  // Tests read response bodies as `any`: the assertions that follow are the type check. Migrations and the
  // table copy use Kysely<any> on purpose: they must not depend on today's schema types.
  {
    files: [
      '**/test/**/*.ts',
      'apps/server/src/db/migrations/**/*.ts',
      'apps/server/src/cli/migrate-sqlite-to-postgres.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Web: a feature is reached only through the shell; what two features share lives in lib/.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            // The same rule as the packages' block above: this one replaces it for web files, so it repeats its zones.
            ...packageZones,
            ...webFeatures.map((feature) => ({
              target: `apps/web/src/features/${feature}`,
              from: 'apps/web/src/features',
              except: [`./${feature}`],
              message: 'A feature does not import another feature: move what both need to apps/web/src/lib/.',
            })),
            {
              target: 'apps/web/src/features',
              from: 'apps/web/src/app',
              message:
                'A feature does not import the shell (apps/web/src/app/): shared things live in apps/web/src/lib/.',
            },
            {
              target: 'apps/web/src/lib',
              from: ['apps/web/src/features', 'apps/web/src/app'],
              message: 'apps/web/src/lib/ is shared by every feature: it imports no feature and not the shell.',
            },
          ],
        },
      ],
    },
  },
  // Server: SQL (Kysely's `sql` tag, query builders) only in repositories, db/ and the owner modules.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: sqlPlaces,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              allowTypeImports: true,
              message:
                'SQL lives in repositories (*.repository.ts), db/ and the owner modules: ask the owner of the rows.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: QUERY_BUILDER_CALL,
          message: 'SQL lives in repositories (*.repository.ts), db/ and the owner modules: ask the owner of the rows.',
        },
      ],
    },
  },
  // Server: a route is HTTP + zod; it calls services and never reaches rows itself (after the SQL block: it
  // replaces that block's no-restricted-imports for routes, type imports of kysely included).
  {
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: 'Routes do not touch the database: call a service.' }],
          patterns: [
            { regex: '\\.repository(\\.js)?$', message: 'Routes do not import repositories: call a service.' },
            { regex: '(^|/)db/', message: 'Routes do not import the database layer (db/): call a service.' },
          ],
        },
      ],
    },
  },
);
