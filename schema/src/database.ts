/**
 * The database seam: the only file that knows which driver runs. SQLite (better-sqlite3) in DATA_DIR is the
 * embedded default; DATABASE_URL=postgres://... switches to PostgreSQL. Same entities, same migrations.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { BetterSqliteDriver } from '@mikro-orm/better-sqlite';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { EntityManager } from '@mikro-orm/knex';
import { ENTITIES } from './entities/index.js';
import { MIGRATIONS } from './migrations/index.js';

export type Orm = MikroORM;
export type Em = EntityManager;

export interface DatabaseOptions {
  /** Folder of the SQLite file (created if missing). Ignored when databaseUrl is set. */
  dataDir?: string;
  /** postgres://user@host:port/db switches to PostgreSQL. */
  databaseUrl?: string;
  debug?: boolean;
}

export type DatabaseKind = 'sqlite' | 'postgresql';

export function databaseKind(options: DatabaseOptions): DatabaseKind {
  return options.databaseUrl ? 'postgresql' : 'sqlite';
}

/**
 * WAL lets readers run beside the single writer. synchronous=NORMAL in WAL mode keeps every committed
 * transaction across a process crash (SIGKILL): the WAL is in the OS page cache and replayed on open. Only an
 * OS crash or power cut can lose the last transactions; set FULCRUM_SQLITE_SYNC=FULL to trade speed for that.
 */
const SQLITE_SYNCHRONOUS = process.env.FULCRUM_SQLITE_SYNC === 'FULL' ? 'FULL' : 'NORMAL';

function sqlitePragmas(db: { pragma: (sql: string) => unknown }): void {
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}

export function ormOptions(options: DatabaseOptions): Options {
  const common: Options = {
    entities: ENTITIES,
    discovery: { requireEntitiesArray: true },
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, tableName: 'mikro_orm_migrations', transactional: true, allOrNothing: true, snapshot: false, silent: true },
    debug: options.debug ?? false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ensureDatabase: false,
  };
  if (options.databaseUrl) {
    return { ...common, driver: PostgreSqlDriver, clientUrl: options.databaseUrl, pool: { min: 1, max: 10 } };
  }
  const dataDir = resolve(options.dataDir ?? './data');
  mkdirSync(dataDir, { recursive: true });
  return {
    ...common,
    driver: BetterSqliteDriver,
    dbName: join(dataDir, 'fulcrum.sqlite'),
    // One connection: SQLite has one writer anyway, and better-sqlite3 is synchronous.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: { pragma: (sql: string) => unknown }, done: (err: Error | null, conn: unknown) => void) => {
        sqlitePragmas(conn);
        done(null, conn);
      },
    } as Options['pool'],
  };
}

/** Opens the database and brings its schema to the latest committed migration. */
export async function openDatabase(options: DatabaseOptions): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(options));
  await orm.getMigrator().up();
  return orm;
}

export function forkEm(orm: Orm): Em {
  return orm.em.fork() as Em;
}
