// ESLint for the whole repository (`npm run lint`, run by `npm test` right after the type check, with
// --max-warnings 0: a warning fails like an error). Formatting is Prettier's alone (prettier.config.js), so no
// stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import boundaries from 'eslint-plugin-boundaries';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { readFileSync } from 'node:fs';

// The MikroORM entity classes, read from the entities barrel so a new entity is covered without editing this file.
// REST routes and resolvers reach data only through the service layer, so importing one of these names (from the
// barrel `@fulcrum/schema` or from schema/src/entities/ directly) is an architecture error below.
const ENTITY_NAMES = [...readFileSync(new URL('./schema/src/entities/index.ts', import.meta.url), 'utf8').matchAll(/^export \{ (\w+) \} from/gm)].map(
  (m) => m[1],
);

// Where the architecture rules look. Patterns name layers, not files, so they survive files moving inside a layer.
const REST_ROUTES = 'gateway/src/rest/**';
const RESOLVERS = 'schema/src/graphql/**';
const GRAPHQL_CODE = ['schema/src/graphql/**', 'gateway/src/**/graphql/**'];
// What web/ may import from schema/: the validation rules (messages and checks shared by forms and services), the
// demo accounts (the Demo Login button's credentials; plain data shared with the seed, importing nothing, so the web
// bundle gets no server code through it), and the emitted schema.graphql (the GraphQL contract as text, which the
// explorer bundles to document the API where the gateway answers no introspection).
const SHARED_WITH_WEB = ['schema/src/validation/**', 'schema/src/conditions/**', 'schema/src/seed/demoAccounts.ts', 'schema/schema.graphql'];

// ── Rules inside the layers: services and GraphQL; SQL and the ORM ──────────────────────────────────────
const SERVICES = 'schema/src/services/**';
const GATEWAY_CODE = 'gateway/src/**';
// Tests of the gateway set up and read stored state directly (rows written by another gateway, statement counts).
const GATEWAY_TESTS = ['gateway/src/**/*.test.ts'];
/** The raw-SQL helpers of schema/src/database.ts (prepared reads that bypass the ORM). */
const SQL_HELPERS = ['preparedRead', 'preparedReadArrays'];
/**
 * SQL and the ORM: the database drivers, knex, MikroORM, the entities and the raw-SQL helpers. They belong to the
 * schema package's service and database modules (services/, database.ts, entities/, migrations/, seed/, testing/).
 */
const SQL_AND_ORM = [
  { to: { file: { path: 'schema/src/entities/**' } } },
  { to: { file: { path: 'schema/src/index.ts' } }, dependency: { specifiers: [...ENTITY_NAMES, ...SQL_HELPERS] } },
  { to: { file: { path: 'schema/src/database.ts' } }, dependency: { specifiers: SQL_HELPERS } },
  { to: { module: { source: ['knex', '@mikro-orm/*', 'pg', 'better-sqlite3'] } } },
];
// ── end of the rules inside the layers ───────────────────────────────────────────────────────────────────────────
// ---- web/ inside: layers, features, no import circles ----------------------------------------------
// web/src's folders form layers, bottom to top; a file imports only from its own folder and the layers below it, so
// no two folders import each other. `app/` is the shell's state (session, auth, the Apollo client, the modal
// controls); `ui/` the shared components; the features sit above them and never import one another; `layout/`
// renders the shell (and lazily loads the features' modals), and the router and entry point sit on top.
const WEB_FEATURES = ['tickets', 'customers', 'macros', 'messages', 'webhooks', 'apiTokens', 'admin', 'landing', 'session', 'reports'];
// `types/` holds declarations for untyped packages and `styles/` the global stylesheet: both sit at the bottom.
const WEB_LAYERS = [['types', 'styles', 'gql'], ['apollo'], ['live'], ['app'], ['ui'], WEB_FEATURES, ['layout'], ['router.tsx', 'main.tsx']];
const webPath = (entry) => (entry.includes('.') ? `web/src/${entry}` : `web/src/${entry}/**`);
const WEB_POLICIES = [
  ...WEB_LAYERS.flatMap((layer, index) =>
    index === WEB_LAYERS.length - 1
      ? []
      : [
          {
            from: { file: { path: layer.map(webPath) } },
            disallow: {
              to: {
                file: {
                  path: WEB_LAYERS.slice(index + 1)
                    .flat()
                    .map(webPath),
                },
              },
            },
            message: `web/src/{${layer.join(',')}} imports only the layers below it (${WEB_LAYERS.slice(0, index + 1)
              .map((l) => l.join('|'))
              .join(' < ')}): move what both need down a layer (e.g. app/ or ui/).`,
          },
        ],
  ),
  ...WEB_FEATURES.map((feature) => ({
    from: { file: { path: webPath(feature) } },
    disallow: { to: { file: { path: WEB_FEATURES.filter((other) => other !== feature).map(webPath) } } },
    message: 'A web feature never imports another feature: share through ui/ (components) or app/ (the shell).',
  })),
];
// No import circle between web files (the layers above rule out circles between folders). import-x's no-cycle
// because eslint-plugin-boundaries judges one import at a time and cannot see a circle.
const WEB_NO_CYCLE = {
  files: ['web/src/**/*.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: {
    'import-x/extensions': ['.ts', '.tsx'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
  },
  rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
};
// ---- end of web/ inside ---------------------------------------------------------------------------------------

// ---- schema/src inside: folders in layers, no circles ----------------------------------------------
// schema/src's folders (and its root files) form layers, bottom to top; a file imports only from its own folder and
// the layers below it, and never from another folder of its own layer, so no two folders import each other (type
// imports count). The plain records (records/) sit below the bus (realtime/) and the webhook outbox and delivery
// (webhooks/), which sit below the services: the services' change log (services/changeLog.ts) writes the outbox,
// never the other way round. Tests sit above every layer (they use the kit in testing/).
const SCHEMA_LAYERS = [
  ['validation'],
  ['conditions'],
  ['errors.ts', 'text', 'time'],
  ['entities'],
  ['records', 'migrations'],
  ['database.ts', 'workerLoop.ts'],
  ['jobs'],
  ['realtime', 'webhooks', 'mail'],
  ['services'],
  ['graphql', 'seed'],
  ['testing', 'index.ts', 'emitSchema.ts'],
];
const schemaPath = (entry) => (entry.endsWith('.ts') ? `schema/src/${entry}` : `schema/src/${entry}/**`);
const SCHEMA_POLICIES = [
  ...SCHEMA_LAYERS.flatMap((layer, index) =>
    layer.flatMap((entry) => {
      const above = [...layer.filter((other) => other !== entry), ...SCHEMA_LAYERS.slice(index + 1).flat()];
      if (!above.length) return [];
      return [
        {
          from: { file: { path: schemaPath(entry) } },
          disallow: { to: { file: { path: above.map(schemaPath) } } },
          message: `schema/src/${entry} imports only its own folder and the layers below it (${SCHEMA_LAYERS.map((l) => l.join('|')).join(' < ')}): move what both need down a layer (e.g. records/).`,
        },
      ];
    }),
  ),
  { from: { file: { path: 'schema/src/**/*.test.ts' } }, allow: { to: { file: { path: 'schema/src/**' } } } },
];
// ---- end of schema/src inside ---------------------------------------------------------------------------------

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', 'web/dist/**', 'gateway/dist/**', 'web/src/gql/**', 'examples/*/src/gql/**', 'data/**', 'coverage/**', '.tmp/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore marks a parameter kept for its position (an Express handler's request, a service
      // signature shared by both transports) but deliberately unused.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Async functions without an await are how this code satisfies Promise-returning interfaces (Apollo plugin
      // hooks, MikroORM migrations, stores): rewriting them as `return Promise.resolve(...)` would say less. A
      // forgotten await is caught where it matters by no-floating-promises and no-misused-promises.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests and their kit read what the product sends back (REST and GraphQL JSON, websocket frames, page state)
    // as `any` on purpose and check its shape with expect(): the assertion is the type check there, so the rules
    // that forbid using `any` would only push casts into every line. Everything else applies to tests as well.
    // The bench is a test of the same kind: it checks each answer it times (bench/context.ts check()).
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'gateway/src/testing/**', 'gateway/test/**', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['schema/**', 'gateway/**', 'e2e/**', 'bench/**', 'scripts/**', '*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      // React ignores what an event handler returns, so `onSubmit={save}` with an async `save` is the usual form;
      // every such handler reports its own errors (mutation error state). Promises elsewhere are still checked.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },

  // Architecture rules. eslint-plugin-boundaries rather than dependency-cruiser: it runs inside this ESLint pass
  // (one command, errors shown in the editor at the import), it checks the resolved file of every import (so
  // `@fulcrum/schema/...` and relative paths are judged alike), and dependency-cruiser's current release needs
  // Node 22 while this project runs on Node 20.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' }, node: true },
      'boundaries/root-path': import.meta.dirname,
      // One element per top-level folder (the plugin judges only imports between known elements); the policies
      // below then select files by path inside them.
      'boundaries/elements': ['schema', 'gateway', 'web', 'e2e', 'bench', 'scripts', 'deploy'].map((folder) => ({
        type: folder,
        pattern: folder,
        partialMatch: false,
      })),
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-warnings': false,
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // Every import is checked: between files of one folder, and of packages too.
          checkAllOrigins: true,
          checkUnknownLocals: true,
          checkInternals: true,
          // Later policies override earlier ones for the same dependency.
          policies: [
            // schema/src's layers first: the rules below say more where they apply to the same import.
            ...SCHEMA_POLICIES,
            {
              from: { file: { path: 'schema/**' } },
              disallow: { to: { file: { path: ['gateway/**', 'web/**'] } } },
              message:
                'schema/ depends on nothing of ours (tests included): gateway → schema, never back. Give schema its own helper (e.g. schema/src/testing/).',
            },
            {
              from: { file: { path: 'web/**' } },
              disallow: { to: { file: { path: ['gateway/**', 'schema/**'] } } },
              message:
                'web/ talks to the server over GraphQL only: no gateway code, and from schema/ only @fulcrum/schema/validation and @fulcrum/schema/demo.',
            },
            { from: { file: { path: 'web/**' } }, allow: { to: { file: { path: SHARED_WITH_WEB } } } },
            {
              from: { file: { path: SHARED_WITH_WEB } },
              disallow: { to: { module: { origin: ['local', 'external'] } } },
              message: 'Modules shared with web/ import nothing (they would pull it into the browser bundle).',
            },
            { from: { file: { path: SHARED_WITH_WEB } }, allow: { to: { file: { path: SHARED_WITH_WEB } } } },
            {
              from: { file: { path: GRAPHQL_CODE } },
              disallow: { to: { file: { path: REST_ROUTES } } },
              message: 'GraphQL code never imports the REST facade: share through the service layer or a module of its own.',
            },
            // ── Rules inside the layers ──
            {
              from: { file: { path: SERVICES } },
              disallow: { to: { file: { path: GRAPHQL_CODE } } },
              message: 'Services never import GraphQL code: the GraphQL layer adapts the services, never the other way round.',
            },
            {
              from: { file: { path: GATEWAY_CODE } },
              disallow: SQL_AND_ORM,
              message:
                "SQL and the ORM stay in the schema package's services and database modules: call a service (e.g. schema/src/services/sessions.ts), not MikroORM, knex, an entity or preparedRead.",
            },
            { from: { file: { path: GATEWAY_TESTS } }, allow: SQL_AND_ORM },
            // ── end of the rules inside the layers ──
            {
              from: { file: { path: [REST_ROUTES, RESOLVERS] } },
              disallow: SQL_AND_ORM,
              message: 'REST routes and resolvers are thin adapters over schema/src/services: no MikroORM entities, EntityManager or knex here.',
            },
            ...WEB_POLICIES,
          ],
        },
      ],
    },
  },
  WEB_NO_CYCLE,
);
