/**
 * A fresh, empty PostgreSQL database for one test, on the server at FULCRUM_TEST_PG_URL (default 127.0.0.1:5432,
 * database `test`, trust auth; `npm test` finds or starts one: scripts/withTestServices.sh). The schema package's
 * own, so its tests need no gateway code (dependencies go one way: gateway → schema); exported as
 * `@fulcrum/schema/testing` for the gateway's test harness.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN_URL = process.env.FULCRUM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Creates an empty database (a random name) on PG_ADMIN_URL's server; returns its URL and a dropper. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fulcrum_test_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
