/**
 * Migrations on both databases, from empty to the latest, run at start by openDatabase. Each test creates its own
 * database (a temp SQLite file, a fresh PostgreSQL database). The SQLite ones run in both passes of `npm test`, the
 * PostgreSQL ones in the PostgreSQL pass (FULCRUM_TEST_DATABASE=postgres), on the server at FULCRUM_TEST_PG_URL
 * (scripts/withTestServices.sh finds or starts it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DERIVED_TABLES, databaseIdentity, openDatabase, ormOptions, withStartupLock, type Em, type Orm } from '../database.js';
import { Customer, Macro, Message, Session, Ticket, TicketImage, User } from '../entities/index.js';
import { seedDemo } from '../seed/demoSeed.js';
import { createPostgresDatabase } from '../testing/postgres.js';
import { MIGRATIONS } from './index.js';

const LATEST = MIGRATIONS.map((m) => m.name);
const TABLES = [
  'api_tokens',
  'conversations',
  'customers',
  'incoming_mails',
  'jobs',
  'macros',
  'mail_outbox',
  'messages',
  'reply_attachments',
  'requester_links',
  'requester_messages',
  'sessions',
  'team_members',
  'teams',
  'ticket_events',
  'ticket_images',
  'ticket_note_revisions',
  'ticket_notes',
  'ticket_replies',
  'ticket_views',
  'tickets',
  'users',
  'webhook_deliveries',
  'webhook_events',
  'webhook_jobs',
  'webhooks',
];
/** Kept by triggers, not entities (database.ts DERIVED_TABLES): on PostgreSQL plain tables (the report facts are kept by the change log). */
const PG_DERIVED = ['report_facts', 'report_rollup_queue', 'report_rollups', 'report_state', 'ticket_counts', 'ticket_search', 'ticket_search_parts'];

/** Row counts of every table and the full content of a few, to prove a second run changes nothing. */
async function snapshot(orm: Orm): Promise<Record<string, unknown>> {
  const em = orm.em.fork();
  const counts = Object.fromEntries(
    await Promise.all([User, Customer, Macro, Ticket, TicketImage, Message, Session].map(async (e) => [e.name, await em.count(e, {})] as const)),
  );
  const conn = (orm.em as Em).getConnection();
  const rows = async (table: string, columns: string) => conn.execute(`select ${columns} from ${table} order by id`);
  return {
    counts,
    users: await rows('users', 'id, username, email, password_hash'),
    macros: await rows('macros', 'id, name, description, owner_id'),
    tickets: await rows('tickets', 'id, title, type, priority, assignee_id, requester_id, macro_id, description'),
    messages: await rows('messages', 'id, sender_id, receiver_id, message'),
  };
}

async function migrationState(orm: Orm) {
  const migrator = orm.getMigrator();
  return {
    executed: (await migrator.getExecutedMigrations()).map((m) => m.name),
    pending: (await migrator.getPendingMigrations()).map((m) => m.name),
  };
}

/** Every table, column (name, not null, primary key, default) and index (columns, unique) of a SQLite database. */
async function sqliteShape(orm: Orm) {
  const conn = (orm.em as Em).getConnection();
  const tables = (
    await conn.execute<{ name: string }[]>(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> 'mikro_orm_migrations' order by name",
    )
  )
    .map((t) => t.name)
    .filter((name) => !DERIVED_TABLES.some((derived) => derived.test(name)));
  const shape: Record<string, { columns: string[]; indexes: string[]; foreignKeys: string[] }> = {};
  for (const table of tables) {
    const columns = await conn.execute<{ name: string; notnull: number; pk: number; dflt_value: string | null }[]>(`pragma table_info(\`${table}\`)`);
    const indexes = await conn.execute<{ name: string; unique: number; origin: string }[]>(`pragma index_list(\`${table}\`)`);
    const foreignKeys = await conn.execute<{ from: string; table: string; to: string; on_delete: string }[]>(`pragma foreign_key_list(\`${table}\`)`);
    shape[table] = {
      columns: columns
        .map((c) => `${c.name}${c.notnull ? ' not null' : ''}${c.pk ? ' pk' : ''}${c.dflt_value === null ? '' : ` default ${c.dflt_value}`}`)
        .sort(),
      indexes: (
        await Promise.all(
          indexes
            .filter((i) => i.origin !== 'pk')
            .map(async (i) => {
              const cols = (await conn.execute<{ name: string }[]>(`pragma index_info(\`${i.name}\`)`)).map((c) => c.name);
              return `${i.unique ? 'unique ' : ''}(${cols.join(', ')})`;
            }),
        )
      ).sort(),
      foreignKeys: foreignKeys.map((f) => `${f.from} -> ${f.table}.${f.to} on delete ${f.on_delete.toLowerCase()}`).sort(),
    };
  }
  return shape;
}

describe('migrations on SQLite (temp DATA_DIR)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-migrations-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('brings an empty database to the latest migration, with macro 1 in place', async () => {
    const orm = await openDatabase({ dataDir });
    try {
      expect(await migrationState(orm)).toEqual({ executed: LATEST, pending: [] });
      const macro1 = await orm.em.fork().findOneOrFail(Macro, 1);
      expect(macro1.name).toBe('No Macro');
      await seedDemo(orm);
    } finally {
      await orm.close(true);
    }
  });

  it('has exactly the tables, columns, indexes and foreign keys the entities describe', async () => {
    // What MikroORM would create from the entities, in a scratch file, against what the migration made.
    // (Its diff on SQLite wants to rebuild tables for enum CHECK constraints and text primary keys even when
    // nothing differs, so the comparison is structural here; on PostgreSQL the diff itself must be empty.)
    const scratchDir = mkdtempSync(join(tmpdir(), 'fulcrum-entities-'));
    const fromEntities = await MikroORM.init(ormOptions({ dataDir: scratchDir }));
    const migrated = await openDatabase({ dataDir });
    try {
      await fromEntities.getSchemaGenerator().createSchema();
      const expected = await sqliteShape(fromEntities);
      const actual = await sqliteShape(migrated);
      expect(Object.keys(actual)).toEqual(TABLES);
      expect(actual).toEqual(expected);
    } finally {
      await Promise.all([fromEntities.close(true), migrated.close(true)]);
      rmSync(scratchDir, { recursive: true, force: true });
    }
  });

  it('a second run is a no-op: nothing pending, nothing executed, data unchanged', async () => {
    const first = await openDatabase({ dataDir });
    const before = { state: await migrationState(first), data: await snapshot(first) };
    await first.close(true);
    const orm = await MikroORM.init(ormOptions({ dataDir }));
    try {
      expect(await orm.getMigrator().up()).toEqual([]);
      expect({ state: await migrationState(orm), data: await snapshot(orm) }).toEqual(before);
      expect((before.data as { counts: Record<string, number> }).counts.User).toBe(3);
    } finally {
      await orm.close(true);
    }
  });
});

describe.skipIf(process.env.FULCRUM_TEST_DATABASE !== 'postgres')('migrations on PostgreSQL (fresh database)', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createPostgresDatabase();
  });
  afterAll(() => database?.drop());

  it('brings an empty database to the latest migration; the entities match it exactly (empty schema diff)', async () => {
    const orm = await openDatabase({ databaseUrl: database.url });
    try {
      expect(await migrationState(orm)).toEqual({ executed: LATEST, pending: [] });
      expect((await orm.em.fork().findOneOrFail(Macro, 1)).name).toBe('No Macro');
      expect(await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false })).toBe('');
      const tables = await (orm.em as Em)
        .getConnection()
        .execute<{ table_name: string }[]>(
          "select table_name from information_schema.tables where table_schema = 'public' and table_name <> 'mikro_orm_migrations' order by table_name",
        );
      expect(tables.map((t) => t.table_name)).toEqual([...TABLES, ...PG_DERIVED].sort());
      await seedDemo(orm);
    } finally {
      await orm.close(true);
    }
  });

  it('a second run is a no-op: nothing pending, nothing executed, data unchanged', async () => {
    const first = await openDatabase({ databaseUrl: database.url });
    const before = { state: await migrationState(first), data: await snapshot(first) };
    await first.close(true);
    const orm = await MikroORM.init(ormOptions({ databaseUrl: database.url }));
    try {
      expect(await orm.getMigrator().up()).toEqual([]);
      expect({ state: await migrationState(orm), data: await snapshot(orm) }).toEqual(before);
      expect(await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false })).toBe('');
    } finally {
      await orm.close(true);
    }
  });

  it('several gateways opening one empty database at once: one migrates and seeds, the others wait, none fails', async () => {
    const fresh = await createPostgresDatabase();
    const opened: Orm[] = [];
    try {
      const results = await Promise.allSettled([0, 1, 2].map(() => openDatabase({ databaseUrl: fresh.url, initialize: seedDemo })));
      for (const r of results) if (r.status === 'fulfilled') opened.push(r.value);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      const em = opened[0].em.fork();
      expect(await em.count(User, {})).toBe(3);
      expect(await migrationState(opened[0])).toEqual({ executed: LATEST, pending: [] });
      // Same database, same identity (the event bus namespace), from every gateway.
      expect(new Set(await Promise.all(opened.map(databaseIdentity))).size).toBe(1);
    } finally {
      await Promise.all(opened.map((o) => o.close(true)));
      await fresh.drop();
    }
  });

  it('the startup lock is held across the whole migrate-and-seed step and released afterwards', async () => {
    const fresh = await createPostgresDatabase();
    const a = await MikroORM.init(ormOptions({ databaseUrl: fresh.url }));
    const b = await MikroORM.init(ormOptions({ databaseUrl: fresh.url }));
    try {
      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = withStartupLock(a, async () => {
        order.push('a in');
        await gate;
        order.push('a out');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = withStartupLock(b, () => Promise.resolve(void order.push('b in')));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(order).toEqual(['a in']);
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(['a in', 'a out', 'b in']);
      const held = await (a.em as Em)
        .getConnection()
        .execute(
          "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
        );
      expect(held[0].n).toBe(0);
    } finally {
      await Promise.all([a.close(true), b.close(true)]);
      await fresh.drop();
    }
  });
});
