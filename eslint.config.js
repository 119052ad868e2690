import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The folders right under a directory of the repository. */
const foldersIn = (dir) =>
  readdirSync(`${import.meta.dirname}/${dir}`, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

const WEB = 'apps/web/src';
/** Every folder under the portal's features/ is a feature: a new one is fenced in without editing this file. */
const FEATURES = foldersIn(`${WEB}/features`);

const SERVER = 'apps/server/src';
/** Every folder under the server's modules/ is a module, met only through its face (index.ts): fenced in without editing this file. */
const MODULES = foldersIn(`${SERVER}/modules`);
const FACES = MODULES.map((m) => `./${m}/index.ts`);
/** Each module's repositories (its SQL), by module: the composition root builds ports from them; no face offers one. */
const REPOSITORIES = Object.fromEntries(
  MODULES.map((m) => [m, readdirSync(`${import.meta.dirname}/${SERVER}/modules/${m}`).filter((f) => f.endsWith('.repository.ts'))]),
);

/** A role compared with a role's name: who may do what is the contract's permission table (permissions.ts `can`). */
const ROLE_COMPARISON = {
  selector: "BinaryExpression[operator=/^[!=]==?$/][right.value=/^(admin|treasury|view)$/]:matches([left.name='role'], [left.property.name='role'])",
  message: "who may do what is the permission table: can(role, action) from '@portal/contract/permissions'",
};

const TSCONFIGS = ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'];
// import-x's TypeScript preset (extensions, parsers), with the resolver of eslint-import-resolver-typescript 4
const importSettings = { ...importX.flatConfigs.typescript.settings };
delete importSettings['import-x/resolver'];

export default tseslint.config(
  // packages/client/src/api.ts: generated from the OpenAPI document by openapi-typescript
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', 'coverage/**', 'packages/client/src/api.ts'] },
  js.configs.recommended,
  // type-aware rules for TypeScript; JS files keep the rules that need no type information (last block)
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // no import cycles anywhere (type-only imports are erased and do not count)
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importSettings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: TSCONFIGS, noWarnOnMultipleProjects: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // the portal's boundaries, as bulletproof-react draws them: app -> features -> shared (components, lib), never back
    files: [`${WEB}/**/*.{ts,tsx}`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...FEATURES.map((f) => ({
              target: `${WEB}/features/${f}`,
              from: `${WEB}/features`,
              except: [`./${f}`],
              message: 'a feature does not import another feature: move what both need to src/lib or src/components',
            })),
            { target: `${WEB}/features`, from: `${WEB}/app`, message: 'features do not import from src/app' },
            {
              target: [`${WEB}/components`, `${WEB}/lib`],
              from: [`${WEB}/features`, `${WEB}/app`],
              message: 'shared code (src/components, src/lib) imports no feature and nothing of src/app',
            },
          ],
        },
      ],
    },
  },
  {
    // the server's modules meet through their faces: another module, the composition root, plugins and jobs import a
    // module only through its index.ts; db/ and lib/ (below the modules) import none
    files: [`${SERVER}/**/*.ts`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...MODULES.map((m) => ({
              target: `${SERVER}/modules/${m}`,
              from: `${SERVER}/modules`,
              except: [`./${m}`, ...FACES.filter((f) => f !== `./${m}/index.ts`)],
              message: `modules meet through their faces: import another module only from its index.ts (add what ${m} needs there)`,
            })),
            {
              target: [`${SERVER}/!(composition).ts`, `${SERVER}/jobs`, `${SERVER}/plugins`, `${SERVER}/types`],
              from: `${SERVER}/modules`,
              except: FACES,
              message: 'modules meet through their faces: import a module only from its index.ts',
            },
            {
              // the composition root builds the ports the services are handed (their repositories), and only it
              target: `${SERVER}/composition.ts`,
              from: `${SERVER}/modules`,
              except: [...FACES, ...MODULES.flatMap((m) => REPOSITORIES[m].map((f) => `./${m}/${f}`))],
              message: 'the composition root imports a module through its face, or one of its repositories to build a port',
            },
            // a face says what its module does, not where its SQL is: it offers no repository (the composition root
            // builds those into ports)
            ...MODULES.filter((m) => REPOSITORIES[m].length > 0).map((m) => ({
              target: `${SERVER}/modules/${m}/index.ts`,
              from: REPOSITORIES[m].map((f) => `${SERVER}/modules/${m}/${f}`),
              message: `a face offers no repository: build the port in the composition root, or offer a service of ${m} that does the work`,
            })),
            {
              target: [`${SERVER}/db`, `${SERVER}/lib`],
              from: [
                `${SERVER}/modules`,
                `${SERVER}/jobs`,
                `${SERVER}/plugins`,
                `${SERVER}/types`,
                `${SERVER}/app.ts`,
                `${SERVER}/composition.ts`,
                `${SERVER}/server.ts`,
                `${SERVER}/cli.ts`,
              ],
              message: 'src/db and src/lib are below the modules: they import no module, plugin, job or the app',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/server/**', '@portal/server', '@portal/server/**'], message: 'the portal and contract never import server code' }] },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ROLE_COMPARISON] },
  },
  {
    // SQL lives in repositories (and in the database layer: connection, migrations, seed); services, routes, jobs and
    // plugins call repositories. Type-only imports of Kysely (a transaction passed through) are allowed.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/db/**', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'kysely', allowTypeImports: true, message: 'SQL lives in *.repository.ts files' },
            { name: 'pg', message: 'database connections live in src/db' },
            { name: '@electric-sql/pglite', message: 'database connections live in src/db' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|executeQuery)$/]',
          message: 'SQL lives in *.repository.ts files: call a repository function',
        },
        {
          // pg-boss's own workers record a job's outcome once, unawaited: one lost to a connection cut stays active
          selector:
            "CallExpression[callee.property.name='work'][callee.object.name='boss'], CallExpression[callee.property.name='work'][callee.object.property.name='boss']",
          message: 'work a queue with workQueue (jobs/queue-worker.ts): it records each outcome across database outages',
        },
        ROLE_COMPARISON,
        {
          // a message written in place has no key the French catalogue's test walks: it would silently lose its French
          selector: ['0.type', '0.consequent.type', '0.alternate.type', '2.type', '2.consequent.type', '2.alternate.type']
            .map((field) =>
              field.startsWith('0')
                ? `CallExpression[callee.name=/^(badRequest|unauthorized|forbidden|notFound|conflict)$/][arguments.${field}=/^(Literal|TemplateLiteral|BinaryExpression)$/]`
                : `NewExpression[callee.name='AppError'][arguments.${field}=/^(Literal|TemplateLiteral|BinaryExpression)$/]`,
            )
            .join(', '),
          message: "a message the server sends is a key of a contract's *_MESSAGES object (its French is tested there), not written in place",
        },
      ],
    },
  },
  {
    // Fastify's contracts are async: a route plugin returns the promise Fastify awaits before the next plugin
    // (FastifyPluginAsync), an async hook settles when Fastify may go on, an async handler sends what it returns.
    // None needs an await to be right, and dropping `async` would change when Fastify goes on.
    files: ['apps/server/src/**/*.routes.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // test doubles stand in for promise-returning APIs (fetch, refresh, queues, Fastify handlers): `async` keeps their
    // contract, a throw included (it rejects, as the real call would)
    files: ['**/*.test.{ts,tsx}', 'apps/server/test/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // the portal's plain scripts, served as they are (public/): they run in the browser
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    // scripts and their declaration files belong to no tsconfig: linted without type information
    files: ['**/*.{js,mjs}', '**/*.d.mts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
