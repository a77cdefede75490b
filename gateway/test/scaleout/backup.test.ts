/**
 * The backup recipes of docs/deployment.md, run against a live gateway that keeps writing while the backup is
 * taken: SQLite's online backup (`sqlite3 ... ".backup"`, and VACUUM INTO) in the SQLite pass, pg_dump and
 * pg_restore in the PostgreSQL pass. A backup must be consistent, hold every write acknowledged before it
 * started, and open as a current database (no pending migration).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, User } from '@fulcrum/schema';
import { createPostgresDatabase, startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { figure } from '../../src/testing/measure.js';

const run = promisify(execFile);
const mode = testDatabaseMode();
const SQLITE_CLI = ['/usr/bin/sqlite3', '/usr/local/bin/sqlite3'].find((p) => existsSync(p));

/** Sends messages until stopped; `acked` holds the ids the gateway acknowledged, in order. */
function writeLoop(client: TestClient) {
  const acked: number[] = [];
  let stop = false;
  const done = (async () => {
    for (let i = 0; !stop; i++) {
      const res = await client.post('/api/messages/create/too/2', { message: `backup load ${i}` });
      if (res.status !== 200 && res.status !== 201) throw new Error(`write failed: ${res.status}`);
      acked.push(res.body.id);
    }
  })();
  return { acked, stop: async () => ((stop = true), await done) };
}

async function waitForAcks(acked: number[], n: number) {
  while (acked.length < n) await new Promise((r) => setTimeout(r, 10));
}

describe.skipIf(mode !== 'sqlite')('SQLite backups while the gateway is writing', () => {
  let gw: TestGateway;
  let out: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    out = mkdtempSync(join(tmpdir(), 'fulcrum-backup-'));
  });
  afterAll(async () => {
    await gw?.destroy();
    rmSync(out, { recursive: true, force: true });
  });

  const checkCopy = async (file: string, ackedBefore: number[]) => {
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set((db.prepare('select id from messages').all() as { id: number }[]).map((r) => r.id));
      expect(ackedBefore.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      db.close();
    }
    // The copy is a complete installation: it opens, nothing is pending, the agents are there.
    const dir = join(out, `restored-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    const { copyFileSync } = await import('node:fs');
    copyFileSync(file, join(dir, 'fulcrum.sqlite'));
    const orm = await openDatabase({ dataDir: dir });
    try {
      expect((await orm.getMigrator().getPendingMigrations()).length).toBe(0);
      expect(await orm.em.fork().count(User, {})).toBe(3);
    } finally {
      await orm.close(true);
    }
  };

  it.skipIf(!SQLITE_CLI)('sqlite3 ".backup" (the online backup API) takes a consistent copy mid-write', async () => {
    const writer = writeLoop(await gw.as(0));
    await waitForAcks(writer.acked, 30);
    const ackedBefore = [...writer.acked];
    const file = join(out, 'online.sqlite');
    const started = performance.now();
    await run(SQLITE_CLI!, [join(gw.dataDir, 'fulcrum.sqlite'), `.backup '${file}'`]);
    const took = performance.now() - started;
    await waitForAcks(writer.acked, ackedBefore.length + 10); // the gateway kept writing
    await writer.stop();
    await checkCopy(file, ackedBefore);
    figure('SQLite online .backup of the demo database under write load', `${took.toFixed(0)} ms`);
  });

  it('VACUUM INTO takes a consistent, compacted copy mid-write', async () => {
    const writer = writeLoop(await gw.as(0));
    await waitForAcks(writer.acked, 30);
    const ackedBefore = [...writer.acked];
    const file = join(out, 'vacuumed.sqlite');
    const db = new Database(join(gw.dataDir, 'fulcrum.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare('vacuum into ?').run(file);
    } finally {
      db.close();
    }
    await waitForAcks(writer.acked, ackedBefore.length + 10);
    await writer.stop();
    await checkCopy(file, ackedBefore);
  });
});

describe.skipIf(mode !== 'postgres')('PostgreSQL backup with pg_dump while the gateway is writing', () => {
  let gw: TestGateway;
  let restored: { url: string; drop(): Promise<void> } | undefined;
  let out: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    out = mkdtempSync(join(tmpdir(), 'fulcrum-pgdump-'));
  });
  afterAll(async () => {
    await gw?.destroy();
    await restored?.drop();
    rmSync(out, { recursive: true, force: true });
  });

  it('pg_dump -Fc mid-write, pg_restore into an empty database: consistent, complete, current', async () => {
    const writer = writeLoop(await gw.as(0));
    await waitForAcks(writer.acked, 30);
    const ackedBefore = [...writer.acked];
    const dump = join(out, 'fulcrum.dump');
    const started = performance.now();
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, gw.options.databaseUrl!]);
    const took = performance.now() - started;
    await waitForAcks(writer.acked, ackedBefore.length + 10);
    await writer.stop();

    restored = await createPostgresDatabase();
    await run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restored.url}`, dump]);
    const c = new pg.Client({ connectionString: restored.url });
    await c.connect();
    try {
      const ids = new Set((await c.query<{ id: number }>('select id from messages')).rows.map((r) => r.id));
      expect(ackedBefore.filter((id) => !ids.has(id))).toEqual([]);
      // Sequences come back too: the next insert does not collide with a restored id.
      const { rows } = await c.query<{ last: string }>('select last_value::text as last from messages_id_seq');
      expect(Number(rows[0].last)).toBeGreaterThanOrEqual(Math.max(...ids));
    } finally {
      await c.end();
    }
    const orm = await openDatabase({ databaseUrl: restored.url });
    try {
      const names = async (o: typeof orm) => (await o.getMigrator().getExecutedMigrations()).map((m) => m.name);
      expect(await names(orm)).toEqual(await names(gw.orm));
      expect((await orm.getMigrator().getPendingMigrations()).length).toBe(0);
    } finally {
      await orm.close(true);
    }
    figure('pg_dump -Fc of the demo database under write load', `${took.toFixed(0)} ms`);
  });
});
