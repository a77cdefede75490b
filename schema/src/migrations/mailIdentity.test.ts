/**
 * Migration20261207110000MailIdentity on a database that has tickets and mail: every existing ticket gets its own
 * 128-bit thread token, recorded mail keeps an empty content hash, and the unique key is (message_id, content_hash).
 * SQLite always, PostgreSQL in the PostgreSQL pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Em, type Orm } from '../database.js';
import { seedDemo } from '../seed/demoSeed.js';
import { createPostgresDatabase } from '../testing/postgres.js';

async function check(orm: Orm): Promise<void> {
  await seedDemo(orm);
  const conn = (orm.em as Em).getConnection();
  const mail = (id: string, hash: string | null) =>
    conn.execute(
      `insert into incoming_mails (message_id, ${hash === null ? '' : 'content_hash, '}outcome, from_email, subject, text, raw, created_at)
        values (?, ${hash === null ? '' : '?, '}'LOOP', 'a@b.test', 's', 't', ?, ?)`,
      [id, ...(hash === null ? [] : [hash]), Buffer.from('raw'), new Date()],
    );
  // Back to before the migration: the tickets seeded since have no token, the mail no hash.
  const migrator = orm.getMigrator();
  await migrator.down();
  await mail('<old@client.test>', null);
  await migrator.up();
  const tokens = (await conn.execute<{ thread_token: string | null }[]>('select thread_token from tickets')).map((r) => r.thread_token);
  expect(tokens.length).toBeGreaterThan(1);
  for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(tokens).size).toBe(tokens.length);
  expect(await conn.execute('select content_hash from incoming_mails')).toEqual([{ content_hash: '' }]);
  // The same Message-ID with another content is a row of its own; the same pair twice is refused.
  await mail('<old@client.test>', 'f'.repeat(64));
  await expect(mail('<old@client.test>', 'f'.repeat(64))).rejects.toThrow(/unique/i);
}

describe('the mail identity migration', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('on SQLite: a token for every existing ticket, an empty hash for recorded mail, the new unique key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-mail-identity-'));
    dirs.push(dataDir);
    const orm = await openDatabase({ dataDir });
    try {
      await check(orm);
    } finally {
      await orm.close(true);
    }
  });

  it.skipIf(process.env.FULCRUM_TEST_DATABASE !== 'postgres')('on PostgreSQL: the same', async () => {
    const database = await createPostgresDatabase();
    const orm = await openDatabase({ databaseUrl: database.url });
    try {
      await check(orm);
    } finally {
      await orm.close(true);
      await database.drop();
    }
  });
});
