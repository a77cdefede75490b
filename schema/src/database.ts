/**
 * The database seam: the only file that knows which driver runs. SQLite (better-sqlite3) in DATA_DIR is the
 * embedded default; DATABASE_URL=postgres://... switches to PostgreSQL. Same entities, same migrations.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { BetterSqliteDriver } from '@mikro-orm/better-sqlite';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { AbstractSqlDriver, EntityManager } from '@mikro-orm/knex';
import { ENTITIES } from './entities/index.js';
import { MIGRATIONS } from './migrations/index.js';
import { fold } from './conditions/tree.js';

/** Both drivers are SQL drivers: the knex query builder and raw SQL are available on either. */
export type Orm = MikroORM<AbstractSqlDriver>;
export type Em = EntityManager;

export interface DatabaseOptions {
  /** Folder of the SQLite file (created if missing). Ignored when databaseUrl is set. */
  dataDir?: string;
  /** postgres://user@host:port/db switches to PostgreSQL. */
  databaseUrl?: string;
  debug?: boolean;
  /**
   * Runs once the schema is current, under the same startup lock as the migrations (the demo seed): with
   * several gateways starting at once on one PostgreSQL database, exactly one of them migrates and seeds.
   */
  initialize?: (orm: Orm) => Promise<void>;
}

export type DatabaseKind = 'sqlite' | 'postgresql';

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
  sqliteFunctions(db);
}

/**
 * Functions the statements call on SQLite: `fold(text)`, the case folding of conditions (conditions/tree.ts `fold`,
 * JavaScript's toLowerCase, Unicode-aware where SQLite's lower() folds ASCII only); PostgreSQL's lower() does the same.
 */
function sqliteFunctions(db: { pragma: (sql: string) => unknown }): void {
  const conn = db as unknown as import('better-sqlite3').Database;
  conn.function('fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? fold(text) : text));
}

/**
 * Connections per gateway to PostgreSQL (DATABASE_POOL_MAX, default 10). With N gateways the server needs
 * N x this plus a few for operators below its max_connections (100 by default).
 */
export function postgresPoolMax(env: NodeJS.ProcessEnv = process.env): number {
  const max = Number(env.DATABASE_POOL_MAX ?? 10);
  return Number.isInteger(max) && max >= 2 ? max : 10;
}

/**
 * TLS to PostgreSQL from the libpq parameters of DATABASE_URL, which MikroORM would otherwise drop (it keeps
 * only host, port, user, password and database): sslmode=require encrypts; verify-ca and verify-full also check
 * the server certificate (against sslrootcert, a PEM file, when given). Unset or disable: plain TCP.
 */
export function postgresSsl(databaseUrl: string): false | { rejectUnauthorized: boolean; ca?: string; checkServerIdentity?: () => undefined } {
  const params = new URL(databaseUrl).searchParams;
  const mode = params.get('sslmode') ?? (params.get('ssl') === 'true' ? 'require' : 'disable');
  if (mode === 'disable' || mode === 'allow' || mode === 'prefer') return false;
  const rootCert = params.get('sslrootcert');
  const ca = rootCert ? readFileSync(rootCert, 'utf8') : undefined;
  // As libpq: require without a root certificate only encrypts; with one it verifies like verify-ca.
  if (mode === 'require' && !rootCert) return { rejectUnauthorized: false };
  if (mode === 'require' || mode === 'verify-ca') return { rejectUnauthorized: true, ca, checkServerIdentity: () => undefined };
  if (mode === 'verify-full') return { rejectUnauthorized: true, ca };
  throw new Error(`DATABASE_URL: unknown sslmode "${mode}" (use disable, require, verify-ca or verify-full)`);
}

/**
 * Tables the database keeps in step with `tickets` by triggers (migration 20261123140000): the per-agent counters
 * and the full-text index. They are not entities, so the schema diff leaves them alone.
 */
export const DERIVED_TABLES: RegExp[] = [/^ticket_counts$/, /^ticket_search(_\w+)?$/, /^report_(facts|state|rollups|rollup_queue)$/];

/** Which driver an entity manager talks to: the one question the driver-specific SQL asks (services/ticketSearch.ts). */
export function emKind(em: Em): DatabaseKind {
  return em.getDriver() instanceof PostgreSqlDriver ? 'postgresql' : 'sqlite';
}

/** A moment as a query binding: SQLite stores datetimes as epoch milliseconds, PostgreSQL as timestamptz. */
export function dateBinding(kind: DatabaseKind, ms: number): number | Date {
  return kind === 'sqlite' ? ms : new Date(ms);
}

export function ormOptions(options: DatabaseOptions): Options<AbstractSqlDriver> {
  const common: Options<AbstractSqlDriver> = {
    entities: ENTITIES,
    schemaGenerator: { skipTables: DERIVED_TABLES },
    discovery: { requireEntitiesArray: true },
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, tableName: 'mikro_orm_migrations', transactional: true, allOrNothing: true, snapshot: false, silent: true },
    debug: options.debug ?? false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ensureDatabase: false,
  };
  if (options.databaseUrl) {
    return {
      ...common,
      driver: PostgreSqlDriver,
      clientUrl: options.databaseUrl,
      pool: { min: 1, max: postgresPoolMax() },
      driverOptions: { connection: { ssl: postgresSsl(options.databaseUrl), application_name: 'fulcrum' } },
    };
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
    },
  };
}

/**
 * Key of the PostgreSQL advisory lock that serialises startup (migrations, then `initialize`) between gateways.
 * Session-level and held on its own connection, so a gateway that dies mid-migration releases it with its
 * connection (the migration itself is one transaction and rolls back).
 */
export const STARTUP_LOCK_KEY = 0x46756c6372756dn; // "Fulcrum"

type PgConnection = { query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };

/**
 * Runs `fn` while holding the startup lock. On PostgreSQL that is pg_advisory_lock on a dedicated pool
 * connection: a second gateway starting at the same time waits, then finds no pending migration. Without it,
 * two gateways on an empty database both try to create the tables and one fails to start (and both would seed
 * the demo data). SQLite has one gateway per file (see docs/deployment.md), so there is nothing to serialise.
 */
export async function withStartupLock<T>(orm: Orm, fn: () => Promise<T>): Promise<T> {
  if (!(orm.config.getDriver() instanceof PostgreSqlDriver)) return fn();
  // knex types its client as any; these are the two pool calls used here.
  const client = (orm.em as Em).getConnection().getKnex().client as {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(c: PgConnection): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    const key = STARTUP_LOCK_KEY.toString();
    const { rows } = await connection.query('select pg_try_advisory_lock($1::bigint) as ok', [key]);
    if (!rows[0]?.ok) {
      console.log('[fulcrum] another gateway is migrating this database; waiting for it to finish');
      await connection.query('select pg_advisory_lock($1::bigint)', [key]);
    }
    try {
      return await fn();
    } finally {
      await connection.query('select pg_advisory_unlock($1::bigint)', [key]);
    }
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * Opens the database and brings its schema to the latest committed migration (all pending migrations in one
 * transaction), then runs `initialize`; both under the startup lock. A failure closes the connections.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(options));
  try {
    await withStartupLock(orm, async () => {
      await orm.getMigrator().up();
      await options.initialize?.(orm);
    });
  } catch (error) {
    await orm.close(true).catch(() => {});
    throw error;
  }
  return orm;
}

/**
 * A stable name for "this database", whichever host name or URL a gateway reaches it by: the database name and
 * the moment its first migration ran (recorded by the migrator, so unique per installation). The event bus uses
 * it to keep the Redis channels of different installations (or test databases) sharing one Redis apart.
 */
export async function databaseIdentity(orm: Orm): Promise<string> {
  const em = orm.em.fork() as Em;
  const kind = orm.config.getDriver() instanceof PostgreSqlDriver ? 'postgresql' : 'sqlite';
  const [first] = await em
    .getConnection()
    .execute<{ executed_at: Date | string | number | null }[]>('select executed_at from mikro_orm_migrations order by id limit 1');
  const installedAt = first?.executed_at instanceof Date ? first.executed_at.toISOString() : String(first?.executed_at ?? '');
  const name =
    kind === 'postgresql'
      ? String((await em.getConnection().execute<{ name: string }[]>('select current_database() as name'))[0]?.name)
      : String(orm.config.get('dbName'));
  return `${kind}:${name}:${installedAt}`;
}

export function forkEm(orm: Orm): Em {
  return orm.em.fork();
}

/**
 * Hot reads: the few statements every request runs (the session, the ticket list) through statements prepared
 * once and reused, returning plain rows. MikroORM inlines parameters into the SQL text, so through it SQLite
 * parses and plans every statement again (a fifth of the dashboard's CPU in the profile); knex's own formatting
 * adds more. Writes keep MikroORM's unit of work and transactions.
 *
 * - SQLite: a second, read-only better-sqlite3 connection to the same file, with a cache of prepared statements.
 *   In WAL mode it reads the last committed state without waiting for the writer, and it never sees another
 *   request's uncommitted transaction (the ORM's single connection may be inside one between awaits).
 * - PostgreSQL: a named prepared statement on a pool connection (pg parses each name once per connection).
 *
 * `sql` uses `?` placeholders (no `?` inside literals); `name` identifies the statement text, so one name must
 * always go with one text. Inside a transaction the read runs on the transaction's own connection instead, so it
 * sees the transaction's writes.
 */
interface PreparedReader {
  all<T>(name: string, sql: string, params: readonly unknown[], raw: boolean): Promise<T[]>;
  close(): void;
}

const preparedReaders = new WeakMap<object, PreparedReader>();
/**
 * Statement texts kept prepared per process. The ticket list's text varies with the filter's shape, so the cache
 * is bounded: SQLite drops the least recently used statement; on PostgreSQL a name is never reused for another
 * text, so past the bound new texts run as unnamed (parsed each time) statements instead.
 */
const MAX_PREPARED = 500;

function sqliteHotReader(file: string): PreparedReader {
  // better-sqlite3 is what MikroORM's SQLite driver runs on; loaded lazily so PostgreSQL gateways never load it.
  const require = createRequire(import.meta.url);
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  sqliteFunctions(db);
  const statements = new Map<string, import('better-sqlite3').Statement>();
  return {
    async all<T>(name: string, sql: string, params: readonly unknown[], raw: boolean) {
      const key = raw ? `${name}:raw` : name;
      let statement = statements.get(key);
      if (statement) statements.delete(key);
      else statement = raw ? db.prepare(sql).raw(true) : db.prepare(sql);
      statements.set(key, statement); // most recently used last
      if (statements.size > MAX_PREPARED) statements.delete(statements.keys().next().value as string);
      return statement.all(...params) as T[];
    },
    close: () => db.close(),
  };
}

function postgresHotReader(em: Em): PreparedReader {
  const client = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<
      PgConnection & { query(q: { name?: string; text: string; values: unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[] }> }
    >;
    releaseConnection(c: unknown): Promise<void>;
  };
  const texts = new Map<string, string>();
  return {
    async all<T>(name: string, sql: string, params: readonly unknown[], raw: boolean) {
      let text = texts.get(name);
      const named = text !== undefined || texts.size < MAX_PREPARED;
      if (text === undefined) {
        let n = 0;
        text = sql.replace(/\?/g, () => `$${++n}`);
        if (named) texts.set(name, text);
      }
      const connection = await client.acquireConnection();
      try {
        const query = { ...(named ? { name: `fulcrum_${name}` } : {}), text, values: [...params], ...(raw ? { rowMode: 'array' as const } : {}) };
        return (await connection.query(query)).rows as T[];
      } finally {
        await client.releaseConnection(connection);
      }
    },
    close: () => {},
  };
}

/**
 * "Any of these ids" as ONE statement text whatever their number, for a hot read (a prepared statement per list
 * length would fill the statement cache): the distinct ids travel as one parameter, a PostgreSQL integer array or,
 * on SQLite, a JSON array read by json_each; the caller writes `<column> ${sql}` and binds `binding`. Null when
 * there is no id to look for. Also for a write's own statements (`transactionStatements`).
 */
export function anyOfIds(on: Em | Pick<TransactionStatements, 'postgres'>, ids: readonly number[]): { sql: string; binding: unknown } | null {
  const wanted = [...new Set(ids.map(Number))].filter(Number.isSafeInteger);
  if (!wanted.length) return null;
  const postgres = 'postgres' in on ? on.postgres : emKind(on) === 'postgresql';
  return postgres ? { sql: '= any(?::int[])', binding: wanted } : { sql: 'in (select value from json_each(?))', binding: JSON.stringify(wanted) };
}

/** Runs a hot read (see above): rows as the driver returns them. */
export function preparedRead<T>(em: Em, name: string, sql: string, params: readonly unknown[]): Promise<T[]> {
  return read<T>(em, name, sql, params, false);
}

/**
 * A hot read whose rows are arrays of the selected values, in select-list order: no object with a key per column
 * is built for each row (better-sqlite3's raw mode, pg's rowMode 'array'), which for a wide page is a large part
 * of the read's cost. Every column of `sql` must have its own name (alias): inside a transaction the ORM's
 * connection returns objects, which are turned into arrays by their keys' order.
 */
export async function preparedReadArrays(em: Em, name: string, sql: string, params: readonly unknown[]): Promise<unknown[][]> {
  if (em.getTransactionContext()) return (await read<Record<string, unknown>>(em, name, sql, params, false)).map((row) => Object.values(row));
  return read<unknown[]>(em, name, sql, params, true);
}

async function read<T>(em: Em, name: string, sql: string, params: readonly unknown[], raw: boolean): Promise<T[]> {
  const transaction: unknown = em.getTransactionContext();
  if (transaction) return em.getConnection().execute<T[]>(sql, [...params], 'all', transaction);
  // Counted like every other statement: the statement-count test and the bench listen for knex's 'query' event.
  const knex = em.getConnection().getKnex() as unknown as { listenerCount(event: string): number; emit(event: string, query: object): void };
  if (knex.listenerCount('query') > 0) knex.emit('query', { sql, bindings: params, method: 'select' });
  const driver = em.getDriver();
  let reader = preparedReaders.get(driver);
  if (!reader) {
    reader = driver instanceof PostgreSqlDriver ? postgresHotReader(em) : sqliteHotReader(String(em.config.get('dbName')));
    preparedReaders.set(driver, reader);
  }
  return reader.all<T>(name, sql, params, raw);
}

/** Closes what preparedRead opened for this ORM (the SQLite read connection); the gateway calls it before orm.close(). */
export function closeHotReads(orm: Orm): void {
  const driver = orm.em.getDriver();
  preparedReaders.get(driver)?.close();
  preparedReaders.delete(driver);
}

/** Fixed statements of a write, run on its open transaction's own connection (see `transactionStatements`). */
export interface TransactionStatements {
  /** Runs the statement `name` (always the same `sql` for one name) and returns its rows (none for a plain write). */
  all<T>(name: string, sql: string, params: readonly unknown[]): Promise<T[]>;
  postgres: boolean;
}

type SqliteStatement = import('better-sqlite3').Statement;
type PgClient = { query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> };
const preparedWrites = new WeakMap<object, Map<string, SqliteStatement | string>>();

/**
 * The fixed statements of the write path (the event record's counter and rows), prepared once per connection and
 * run straight on the connection of `em`'s open transaction: below the ORM and knex, whose per-statement work
 * (building, formatting, preparing again) costs more than SQLite's own run of such a statement. Hand-written
 * because neither MikroORM nor knex keeps a statement prepared. Counted like every other statement (the statement
 * counts listen for knex's 'query' event). Errors are the driver's own: callers run statements that cannot fail on
 * valid input (the write's transaction rolls back on any error).
 */
export async function transactionStatements(em: Em): Promise<TransactionStatements> {
  const trx = em.getTransactionContext<{ client: { acquireConnection(): Promise<object> } }>();
  if (!trx) throw new Error('transactionStatements needs an open transaction');
  const connection = await trx.client.acquireConnection();
  let prepared = preparedWrites.get(connection);
  if (!prepared) preparedWrites.set(connection, (prepared = new Map<string, SqliteStatement | string>()));
  const cache = prepared;
  const knex = em.getConnection().getKnex() as unknown as { listenerCount(event: string): number; emit(event: string, query: object): void };
  const counted = (sql: string, params: readonly unknown[]) => knex.listenerCount('query') > 0 && knex.emit('query', { sql, bindings: params, method: 'raw' });
  if (em.getDriver() instanceof PostgreSqlDriver) {
    const client = connection as PgClient;
    return {
      postgres: true,
      async all<T>(name: string, sql: string, params: readonly unknown[]) {
        counted(sql, params);
        let text = cache.get(name) as string | undefined;
        if (text === undefined) {
          let n = 0;
          cache.set(name, (text = sql.replace(/\?/g, () => `$${++n}`)));
        }
        return (await client.query({ name: `fulcrum_write_${name}`, text, values: [...params] })).rows as T[];
      },
    };
  }
  const db = connection as import('better-sqlite3').Database;
  return {
    postgres: false,
    async all<T>(name: string, sql: string, params: readonly unknown[]) {
      counted(sql, params);
      let statement = cache.get(name) as SqliteStatement | undefined;
      if (!statement) cache.set(name, (statement = db.prepare(sql)));
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    },
  };
}
