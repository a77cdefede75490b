/**
 * The PostgreSQL connection settings an operator sets through DATABASE_URL and DATABASE_POOL_MAX
 * (docs/deployment.md), on a real server.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, postgresPoolMax, postgresSsl } from '@fulcrum/schema';
import { MIGRATIONS } from '../../../schema/src/migrations/index.js';
import { createPostgresDatabase, testDatabaseMode } from '../../src/testing/harness.js';
import { REPO_ROOT } from '../../src/testing/processes.js';

const run = promisify(execFile);

describe('DATABASE_URL TLS parameters (libpq sslmode), which MikroORM alone would drop', () => {
  it("maps sslmode to the driver's TLS options", () => {
    const base = 'postgres://fulcrum:secret@db.internal:5432/fulcrum';
    expect(postgresSsl(base)).toBe(false);
    expect(postgresSsl(`${base}?sslmode=disable`)).toBe(false);
    expect(postgresSsl(`${base}?sslmode=prefer`)).toBe(false);
    expect(postgresSsl(`${base}?sslmode=require`)).toEqual({ rejectUnauthorized: false });
    expect(postgresSsl(`${base}?ssl=true`)).toEqual({ rejectUnauthorized: false });
    expect(postgresSsl(`${base}?sslmode=verify-full`)).toEqual({ rejectUnauthorized: true, ca: undefined });
    expect(postgresSsl(`${base}?sslmode=verify-ca`)).toMatchObject({ rejectUnauthorized: true });
    expect(() => postgresSsl(`${base}?sslmode=sometimes`)).toThrow(/unknown sslmode/);
  });

  it('reads the pool size from DATABASE_POOL_MAX', () => {
    expect(postgresPoolMax({})).toBe(10);
    expect(postgresPoolMax({ DATABASE_POOL_MAX: '25' })).toBe(25);
    expect(postgresPoolMax({ DATABASE_POOL_MAX: 'lots' })).toBe(10);
  });
});

describe.skipIf(testDatabaseMode() !== 'postgres')('DATABASE_URL parameters reach the PostgreSQL driver', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createPostgresDatabase();
  });
  afterAll(() => database?.drop());

  it('sslmode=require is honoured: the test server has TLS off, so the connection is refused instead of silently going plain', async () => {
    const { rows } = await (async () => {
      const { default: pg } = await import('pg');
      const c = new pg.Client({ connectionString: database.url });
      await c.connect();
      try {
        return await c.query<{ ssl: string }>('show ssl');
      } finally {
        await c.end();
      }
    })();
    if (rows[0].ssl === 'on') return; // a server with TLS on would accept it; nothing to prove here
    const url = new URL(database.url);
    url.searchParams.set('sslmode', 'require');
    await expect(openDatabase({ databaseUrl: url.toString() })).rejects.toThrow(/SSL/i);
    url.searchParams.set('sslmode', 'disable');
    const orm = await openDatabase({ databaseUrl: url.toString() });
    const [row] = await orm.em.fork().getConnection().execute<{ application_name: string }[]>("select current_setting('application_name') as application_name");
    expect(row.application_name).toBe('fulcrum');
    await orm.close(true);
  });

  it('deploy/migrate.ts migrates an empty database without serving, and is a no-op the second time', async () => {
    const fresh = await createPostgresDatabase();
    try {
      const migrate = () =>
        run(process.execPath, ['--import', 'tsx', 'deploy/migrate.ts'], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: fresh.url } });
      expect((await migrate()).stdout).toContain(
        `PostgreSQL: ${MIGRATIONS.length} migrations applied, latest ${MIGRATIONS[MIGRATIONS.length - 1].name}; 0 pending`,
      );
      expect((await migrate()).stdout).toMatch(/; 0 pending/);
      const { default: pg } = await import('pg');
      const c = new pg.Client({ connectionString: fresh.url });
      await c.connect();
      const users = await c.query('select count(*)::int as n from users');
      await c.end();
      expect(users.rows[0].n).toBe(0); // no demo seed
    } finally {
      await fresh.drop();
    }
  });
});
