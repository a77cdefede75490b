/**
 * The architecture rules of eslint.config.js (boundaries/dependencies) catch what they promise: each rule is
 * broken on purpose by a small module linted as if it lived at a given path (ESLint's lintText, nothing written to
 * disk), and the allowed imports next to it pass. Type-aware rules are off here: only the import rules are tested.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import micromatch from 'micromatch';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** An issue number in code: the word, a space and digits (built from parts, so this file does not hold one). */
const ISSUE_NUMBER = new RegExp(['[Ii]ssues?', '#?\\d+'].join(' '));
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: [{ ...tseslint.configs.disableTypeChecked, files: ['**/*.{ts,tsx}'] }],
});

/**
 * An import source, as written in the probe at `from`, for a real module under `dir` (files move; the rules
 * judge resolved files, so the probe imports files that exist).
 */
function real(from: string, dir: string, extension: '.ts' | '.tsx'): string {
  const files = readdirSync(resolve(ROOT, dir), { recursive: true, encoding: 'utf8' });
  const file = files
    .filter((f) => f.endsWith(extension) && !f.includes('.test.'))
    .sort()
    .map((f) => `${dir}/${f}`)[0];
  if (!file) throw new Error(`no ${extension} file under ${dir}`);
  const source = relative(dirname(resolve(ROOT, from)), resolve(ROOT, file)).replace(/\.tsx?$/, '.js');
  return source.startsWith('.') ? source : `./${source}`;
}

/** The `rule` messages for `code` placed at `path`, one `line: message` per import refused. */
async function refused(path: string, code: string, rule = 'boundaries/dependencies'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result.messages.filter((m) => m.ruleId === rule).map((m) => `${m.line}: ${m.message}`);
}

describe('architecture rules (npm run lint)', { timeout: 60_000 }, () => {
  it('schema/ never imports gateway/ or web/, tests included', async () => {
    const at = 'schema/src/services/probe.test.ts';
    const errors = await refused(
      at,
      [
        `import * as gateway from '${real(at, 'gateway/src', '.ts')}';`,
        `import * as web from '${real(at, 'web/src', '.tsx')}';`,
        "import { createPostgresDatabase } from '../testing/postgres.js';",
        'export const all = [gateway, web, createPostgresDatabase];',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringMatching(/^1: schema\/ depends on nothing of ours/),
      expect.stringMatching(/^2: schema\/ depends on nothing of ours/),
    ]);
  });

  it('web/ never imports gateway/, and from schema/ only the validation rules and the demo accounts', async () => {
    const at = 'web/src/probe.tsx';
    const errors = await refused(
      at,
      [
        `import * as gateway from '${real(at, 'gateway/src', '.ts')}';`,
        "import { tickets } from '@fulcrum/schema';",
        "import { User } from '../../schema/src/entities/User.js';",
        "import { MESSAGES } from '@fulcrum/schema/validation';",
        "import { DEMO_ACCOUNTS } from '@fulcrum/schema/demo';",
        'export const all = [gateway, tickets, User, MESSAGES, DEMO_ACCOUNTS];',
      ].join('\n'),
    );
    expect(errors.map((e) => e.split(':')[0])).toEqual(['1', '2', '3']);
    expect(errors[0]).toMatch(/web\/ talks to the server over GraphQL only/);
  });

  it('the modules shared with web/ import nothing else of ours', async () => {
    const errors = await refused(
      'schema/src/validation/probe.ts',
      "import { AppError } from '../errors.js';\nimport { LIMITS } from './rules.js';\nexport const all = [AppError, LIMITS];",
    );
    expect(errors).toEqual([expect.stringMatching(/^1: Modules shared with web\/ import nothing/)]);
  });

  it('GraphQL code never imports the REST facade (gateway/src/rest/)', async () => {
    for (const path of ['gateway/src/graphql/probe.ts', 'schema/src/graphql/probe.ts']) {
      const errors = await refused(path, `import * as rest from '${real(path, 'gateway/src/rest', '.ts')}';\nexport const all = [rest];`);
      expect(errors, path).toEqual([expect.stringMatching(/^1: GraphQL code never imports the REST facade/)]);
    }
  });

  it('REST routes and resolvers never import MikroORM entities, MikroORM or knex; services are fine', async () => {
    const rest = await refused(
      'gateway/src/rest/probe.ts',
      [
        "import { Ticket } from '@fulcrum/schema';",
        "import { User } from '../../../schema/src/entities/User.js';",
        "import knex from 'knex';",
        "import type { EntityManager } from '@mikro-orm/core';",
        "import { tickets, AppError } from '@fulcrum/schema';",
        'export const all = [Ticket, User, knex, tickets, AppError];',
        'export type Em = EntityManager;',
      ].join('\n'),
    );
    expect(rest.map((e) => e.split(':')[0])).toEqual(['1', '2', '3', '4']);
    expect(rest[0]).toMatch(/REST routes and resolvers are thin adapters/);
    const resolvers = await refused(
      'schema/src/graphql/probe.ts',
      "import { Macro } from '../entities/index.js';\nimport { raw } from '@mikro-orm/knex';\nimport { macros } from '../services/index.js';\nexport const all = [Macro, raw, macros];",
    );
    expect(resolvers.map((e) => e.split(':')[0])).toEqual(['1', '2']);
  });

  // ---- web/ inside ----
  it('web/src folders import only the layers below them (gql < apollo < live < app < ui < features < layout)', async () => {
    const ui = 'web/src/ui/probe.tsx';
    const uiErrors = await refused(
      ui,
      [
        `import * as layout from '${real(ui, 'web/src/layout', '.tsx')}';`,
        `import * as tickets from '${real(ui, 'web/src/tickets', '.tsx')}';`,
        "import { useSession } from '../app/session.js';",
        "import { describeError } from '../apollo/errors.js';",
        'export const all = [layout, tickets, useSession, describeError];',
      ].join('\n'),
    );
    expect(uiErrors.map((e) => e.split(':')[0])).toEqual(['1', '2']);
    expect(uiErrors[0]).toMatch(/web\/src\/\{ui\} imports only the layers below it/);
    const apollo = 'web/src/apollo/probe.ts';
    const apolloErrors = await refused(apollo, `import * as live from '${real(apollo, 'web/src/live', '.ts')}';\nexport const all = [live];`);
    expect(apolloErrors).toEqual([expect.stringMatching(/^1: web\/src\/\{apollo\} imports only the layers below it/)]);
  });

  it('a web feature never imports another feature (nor the layout); ui/ and app/ are shared', async () => {
    const at = 'web/src/customers/probe.tsx';
    const errors = await refused(
      at,
      [
        `import * as tickets from '${real(at, 'web/src/tickets', '.tsx')}';`,
        `import * as layout from '${real(at, 'web/src/layout', '.tsx')}';`,
        "import { Modal } from '../ui/Modal.js';",
        "import { useModals } from '../app/modals.js';",
        'export const all = [tickets, layout, Modal, useModals];',
      ].join('\n'),
    );
    expect(errors.map((e) => e.split(':')[0])).toEqual(['1', '2']);
    expect(errors[0]).toMatch(/A web feature never imports another feature/);
  });

  it('no import circle between web files, inside a folder as well', async () => {
    // ui/ConfirmModal.tsx imports ui/Modal.tsx: Modal importing it back closes a circle within one folder.
    const inFolder = await refused(
      'web/src/ui/Modal.tsx',
      "import { ConfirmModal } from './ConfirmModal.js';\nexport const all = [ConfirmModal];",
      'import-x/no-cycle',
    );
    expect(inFolder).toEqual([expect.stringMatching(/^1: Dependency cycle detected/)]);
    // A circle the layers once had: layout/ModalHost lazily loads the session forms, which imported useModals from it.
    const back = await refused(
      'web/src/session/LoginForm.tsx',
      "import { ModalHost } from '../layout/ModalHost.js';\nexport const all = [ModalHost];",
      'import-x/no-cycle',
    );
    expect(back).toEqual([expect.stringMatching(/^1: Dependency cycle detected/)]);
  });
});

// ── Rules inside the layers: services and GraphQL; SQL and the ORM; patterns that match something ──────

/** The file patterns of the boundaries policies in eslint.config.js (`from` and `to`, allow and disallow). */
async function policyPatterns(): Promise<string[]> {
  const { default: config } = (await import(pathToFileURL(resolve(ROOT, 'eslint.config.js')).href)) as { default: any[] };
  const policies: any[] = config.flatMap((entry) => entry.rules?.['boundaries/dependencies']?.[1]?.policies ?? []);
  expect(policies.length).toBeGreaterThan(0);
  const patterns = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'file' && value && typeof value === 'object' && 'path' in value) [value.path].flat().forEach((p) => patterns.add(p as string));
      else visit(value);
    }
  };
  visit(policies);
  return [...patterns];
}

/** The patterns that match no file of the repository (tracked or new, ignored ones aside), by the plugin's matcher. */
function unmatched(patterns: string[]): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  return patterns.filter((pattern) => micromatch(files, pattern).length === 0);
}

describe('architecture rules inside the layers (npm run lint)', { timeout: 60_000 }, () => {
  it('services never import GraphQL code; other services and the validation rules are fine', async () => {
    const at = 'schema/src/services/probe.ts';
    const errors = await refused(
      at,
      [
        `import * as resolvers from '${real(at, 'schema/src/graphql', '.ts')}';`,
        "import { requireViewer } from './context.js';",
        "import { MESSAGES } from '../validation/rules.js';",
        'export const all = [resolvers, requireViewer, MESSAGES];',
      ].join('\n'),
    );
    expect(errors).toEqual([expect.stringMatching(/^1: Services never import GraphQL code/)]);
  });

  it('gateway code never imports SQL or the ORM (MikroORM, knex, drivers, entities, preparedRead); services and forkEm are fine; its tests may', async () => {
    const code = (at: string) =>
      [
        "import { Session } from '@fulcrum/schema';",
        "import { preparedRead } from '@fulcrum/schema';",
        `import { Ticket } from '${relative(dirname(resolve(ROOT, at)), resolve(ROOT, 'schema/src/entities/Ticket.js'))}';`,
        "import { MikroORM } from '@mikro-orm/core';",
        "import knex from 'knex';",
        "import pg from 'pg';",
        "import { sessions, forkEm, AppError } from '@fulcrum/schema';",
        'export const all = [Session, preparedRead, Ticket, MikroORM, knex, pg, sessions, forkEm, AppError];',
      ].join('\n');
    for (const at of ['gateway/src/session/probe.ts', 'gateway/src/app.probe.ts', 'gateway/src/testing/probe.ts']) {
      const errors = await refused(at, code(at));
      expect(
        errors.map((e) => e.split(':')[0]),
        at,
      ).toEqual(['1', '2', '3', '4', '5', '6']);
      expect(errors[0]).toMatch(/SQL and the ORM stay in the schema package's services and database modules/);
    }
    expect(await refused('gateway/src/session/probe.test.ts', code('gateway/src/session/probe.test.ts'))).toEqual([]);
  });

  it('the resolvers never import the raw-SQL helpers either', async () => {
    const errors = await refused(
      'schema/src/graphql/probe.ts',
      "import { preparedRead } from '../database.js';\nimport { forkEm } from '../database.js';\nexport const all = [preparedRead, forkEm];",
    );
    expect(errors).toEqual([expect.stringMatching(/^1: REST routes and resolvers are thin adapters/)]);
  });

  it('schema/src folders import only the layers below them, never a folder of their own layer; tests may import any', async () => {
    // A circle the layers once had: the webhook outbox imported the services that write it.
    const webhooks = 'schema/src/webhooks/probe.ts';
    const errors = await refused(
      webhooks,
      [
        "import { requireViewer } from '../services/context.js';",
        `import * as bus from '${real(webhooks, 'schema/src/realtime', '.ts')}';`,
        "import { toDate } from '../records/index.js';",
        "import { forkEm } from '../database.js';",
        "import { WEBHOOK_LIMITS } from '../validation/rules.js';",
        'export const all = [requireViewer, bus, toDate, forkEm, WEBHOOK_LIMITS];',
      ].join('\n'),
    );
    expect(errors.map((e) => e.split(':')[0])).toEqual(['1', '2']);
    expect(errors[0]).toMatch(/schema\/src\/webhooks imports only its own folder and the layers below it/);
    // A root file is a layer of its own: database.ts never imports the services (the migrations sit below it).
    const database = await refused('schema/src/database.ts', "import { sessions } from './services/index.js';\nexport const all = [sessions];");
    expect(database).toEqual([expect.stringMatching(/^1: schema\/src\/database.ts imports only its own folder/)]);
    const records = await refused('schema/src/records/probe.ts', `import * as bus from '../realtime/events.js';\nexport const all = [bus];`);
    expect(records).toEqual([expect.stringMatching(/^1: schema\/src\/records imports only/)]);
    const test = 'schema/src/records/probe.test.ts';
    expect(await refused(test, "import { openServiceKit } from '../testing/services.js';\nexport const all = [openServiceKit];")).toEqual([]);
  });

  it('every folder of web/src and schema/src is in a lint zone (a policy governs what its files import)', async () => {
    const { default: config } = (await import(pathToFileURL(resolve(ROOT, 'eslint.config.js')).href)) as { default: any[] };
    const policies: any[] = config.flatMap((entry) => entry.rules?.['boundaries/dependencies']?.[1]?.policies ?? []);
    // The layer policies only: a rule over a whole package (schema/ never imports web/) puts no folder in a zone.
    const layered = policies.filter((policy) => /imports only (its own folder and )?the layers below/.test(policy.message ?? ''));
    const fromPatterns = layered.flatMap((policy) => [policy.from?.file?.path ?? []].flat() as string[]);
    const outside = ['web/src', 'schema/src'].flatMap((root) =>
      readdirSync(resolve(ROOT, root), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${root}/${entry.name}/probe.ts`)
        .filter((probe) => !fromPatterns.some((pattern) => micromatch.isMatch(probe, pattern))),
    );
    expect(outside).toEqual([]);
    // The folder this check found outside every zone: reports/ imported another feature unnoticed.
    const at = 'web/src/reports/probe.tsx';
    const errors = await refused(at, `import * as tickets from '${real(at, 'web/src/tickets', '.tsx')}';\nexport const all = [tickets];`);
    expect(errors).toEqual([expect.stringMatching(/^1: A web feature never imports another feature/)]);
  });

  it('no code names an issue number: history belongs in commits and docs, a comment says what the code does', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /^(schema\/src|gateway\/(src|test)|web\/src|e2e|bench|scripts)\/.*\.(ts|tsx|mjs|css|sh)$/.test(file) && !file.includes('/gql/'));
    expect(files.length).toBeGreaterThan(100);
    const named = files.flatMap((file) =>
      readFileSync(resolve(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (ISSUE_NUMBER.test(line) ? [`${file}:${index + 1}`] : [])),
    );
    expect(named).toEqual([]);
  });

  it('every file pattern of the boundary policies matches at least one file', async () => {
    const patterns = await policyPatterns();
    expect(patterns).toContain('schema/src/services/**');
    expect(unmatched(patterns)).toEqual([]);
    // The check itself: a pattern that matches nothing (the one this config had, a gateway/src/graphql*.ts) is named.
    expect(unmatched(['gateway/src/graphql*.ts', 'gateway/src/**'])).toEqual(['gateway/src/graphql*.ts']);
  });
});
