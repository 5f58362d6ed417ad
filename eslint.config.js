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

/**
 * The server's floors (docs/architecture.md, "Floors"), bottom up: infrastructure <- owners <- flows <- app.
 * Every folder of apps/server/src is read at each run and put on a floor: a folder not named below is a
 * feature, fenced in at once. A feature holds owners (`*.repository.ts` and the owner modules below), flows
 * (`*.service.ts` and the flow modules below), its routes and private helpers; another feature may import only
 * its owners and flows.
 */
const serverSrc = 'apps/server/src';
const serverInfrastructure = ['config', 'db', 'storage', 'http', 'names', 'util', 'engine', 'security', 'openapi'];
const serverFlowFolders = ['maintenance'];
const serverAppFolders = ['cli'];
/** Root files: logger.ts is infrastructure; the rest build and start the app (context.ts: see its zone). */
const serverInfraRootFiles = ['logger.ts'];
const serverAppRootFiles = ['app.ts', 'main.ts', 'worker-main.ts', 'context.ts'];
const serverFolders = fs
  .readdirSync(path.join(root, serverSrc), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverFeatures = serverFolders.filter(
  (name) => ![...serverInfrastructure, ...serverFlowFolders, ...serverAppFolders].includes(name),
);
/** Owners besides `*.repository.ts` and tasks/task-state.ts (also a leaf, below): modules that own rows' columns or a stored layout without being a table's repository. */
const serverOwnerModules = [
  'tasks/task-parameters.ts',
  'predictions/result-files.ts',
  'predictions/stored-specimens.ts',
  'images/image-view.ts',
];
/** Flows besides `*.service.ts`: what a job, a deletion or a training does across owners. */
const serverFlowModules = [
  'scoring/run-job.ts',
  'scoring/record-outcome.ts',
  'scoring/job-runner.ts',
  'queue/create-queue.ts',
  'labels/image-labels-cleanup.ts',
  'predictions/image-results-cleanup.ts',
  'models/model-training.ts',
  'models/lab-model-files.ts',
  'storage-check/check-storage.ts',
];
/**
 * Globs under apps/server/src (a zone's paths must all be globs or none: a single file is written `name.@(ts)`,
 * which matches that file alone).
 */
const serverGlobs = (names, suffix = '/**') =>
  names.map((name) => `${serverSrc}/${name}${suffix}`.replace(/\.ts$/, '.@(ts)'));
const serverAbsolute = (globs) => globs.map((glob) => path.join(root, glob));
const serverRepositories = [`${serverSrc}/*/*.repository.ts`, ...serverGlobs(['tasks/task-state.ts'], '')];
const serverFace = [
  ...serverRepositories,
  ...serverGlobs(serverOwnerModules, ''),
  `${serverSrc}/*/*.service.ts`,
  ...serverGlobs(serverFlowModules, ''),
];
const serverAppFiles = [...serverGlobs(serverAppFolders), ...serverGlobs(serverAppRootFiles, '')];
const serverZones = [
  {
    target: [...serverGlobs(serverInfrastructure), ...serverGlobs(serverInfraRootFiles, '')],
    from: [...serverGlobs([...serverFeatures, ...serverFlowFolders]), ...serverAppFiles],
    message: 'Infrastructure imports only infrastructure (docs/architecture.md, "Floors").',
  },
  // Owners are leaves: no other repository, no flow, no route, nothing of the app.
  ...serverRepositories.map((owner) => ({
    target: owner,
    from: [
      ...serverRepositories,
      `${serverSrc}/*/*.service.ts`,
      ...serverGlobs(serverFlowModules, ''),
      ...serverGlobs(serverFlowFolders),
    ],
    message: 'An owner is a leaf: it calls no other repository and no flow; shared SQL helpers live in db/.',
  })),
  ...serverFeatures.map((feature) => ({
    target: `${serverSrc}/${feature}/**`,
    from: serverGlobs(serverFeatures.filter((other) => other !== feature)),
    except: serverAbsolute(serverFace),
    message:
      'A feature imports another feature only through its owners (repositories) and flows (services), never its routes (app.ts registers them): move what both need down to infrastructure.',
  })),
  {
    target: serverGlobs(serverFlowFolders),
    from: serverGlobs(serverFeatures),
    except: serverAbsolute(serverFace),
    message: 'A flow reaches a feature through its owners (repositories) and flows (services) only.',
  },
  {
    target: [
      ...serverGlobs(serverAppFolders),
      ...serverGlobs(
        serverAppRootFiles.filter((file) => file !== 'app.ts'),
        '',
      ),
    ],
    from: [`${serverSrc}/**/*.routes.ts`],
    message: 'Routes are registered by app.ts alone.',
  },
  // Nothing imports the app but the app; context.ts is the one exception, for its AppContext type only (below).
  {
    target: [
      ...serverGlobs([...serverInfrastructure, ...serverFeatures, ...serverFlowFolders]),
      ...serverGlobs(serverInfraRootFiles, ''),
    ],
    from: [
      ...serverGlobs(serverAppFolders),
      ...serverGlobs(
        serverAppRootFiles.filter((file) => file !== 'context.ts'),
        '',
      ),
    ],
    message: 'Only the app (app.ts, main.ts, worker-main.ts, cli/) imports the app.',
  },
];

/** A value import of context.ts from below the app: the features take its AppContext type, never its builders. */
const CONTEXT_VALUE_IMPORT = {
  selector: "ImportDeclaration[importKind!='type'][source.value=/(^|\\/)context\\.js$/]",
  message: 'Below the app, context.ts is imported for its AppContext type only (`import type`).',
};

/** Kysely's query-builder entry points: calling one is writing SQL. */
const SQL_MESSAGE =
  'SQL lives in repositories (*.repository.ts), db/ and the owner modules: ask the owner of the rows.';
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
  // Server: the floors (docs/architecture.md, "Floors"); this replaces the block above for server files, so it
  // repeats the package zones.
  {
    files: ['apps/server/src/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...packageZones, ...serverZones] }] },
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
  // Server: below the app, context.ts gives its AppContext type only (both blocks replace the SQL block's rule).
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [...serverAppFiles, ...sqlPlaces],
    rules: {
      'no-restricted-syntax': ['error', { selector: QUERY_BUILDER_CALL, message: SQL_MESSAGE }, CONTEXT_VALUE_IMPORT],
    },
  },
  {
    files: sqlPlaces,
    ignores: serverAppFiles,
    rules: { 'no-restricted-syntax': ['error', CONTEXT_VALUE_IMPORT] },
  },
  // Server: an owner opens no transaction of its own: the flow that calls it does, and hands it the transaction.
  {
    files: ['apps/server/src/**/*.repository.ts', 'apps/server/src/tasks/task-state.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        CONTEXT_VALUE_IMPORT,
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction']",
          message: 'An owner opens no transaction: the service that calls it does, and passes it the transaction.',
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
