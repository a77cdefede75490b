/**
 * Migration20261207160000ConversationSearch on a database that already has a conversation: the rows written before
 * it (a reply, its attachment, a requester message, a note, a deleted note's tombstone) are in the conversation index
 * afterwards, each under its ticket, and a deleted note's tombstone is not; down() removes the index and its
 * triggers. SQLite always, PostgreSQL in the PostgreSQL pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Em, type Orm } from '../database.js';
import { seedDemo } from '../seed/demoSeed.js';
import { createPostgresDatabase } from '../testing/postgres.js';

/** Reverting to this one (umzug: inclusive) undoes it and any later migration. */
const THIS = 'Migration20261207160000ConversationSearch';

async function check(orm: Orm, postgres: boolean): Promise<void> {
  await seedDemo(orm);
  const conn = (orm.em as Em).getConnection();
  const migrator = orm.getMigrator();
  await migrator.down({ to: THIS });
  const [{ id: ticketId }] = await conn.execute<{ id: number }[]>('select min(id) as id from tickets');
  const [{ id: authorId }] = await conn.execute<{ id: number }[]>('select min(id) as id from users');
  const now = new Date();
  await conn.execute(
    `insert into ticket_replies (ticket_id, author_id, body, to_email, mail_message_id, delivery_state, delivery_attempts, created_at) values (?, ?, 'Try the zqreplyword fix.', 'a@b.test', '<r@x>', 'SENT', 1, ?)`,
    [ticketId, authorId, now],
  );
  const [{ id: replyId }] = await conn.execute<{ id: number }[]>('select max(id) as id from ticket_replies');
  await conn.execute(
    `insert into reply_attachments (ticket_id, reply_id, filename, mime_type, byte_size, data, created_at) values (?, ?, 'zqfileword_log.txt', 'text/plain', 1, ?, ?)`,
    [ticketId, replyId, Buffer.from('x'), now],
  );
  await conn.execute(
    `insert into requester_messages (ticket_id, from_email, body, via, held, created_at) values (?, 'a@b.test', 'Still zqmailword here.', 'EMAIL', ?, ?)`,
    [ticketId, postgres ? false : 0, now],
  );
  await conn.execute(`insert into ticket_notes (ticket_id, author_id, body, created_at) values (?, ?, 'Internal zqnoteword.', ?)`, [ticketId, authorId, now]);
  await conn.execute(`insert into ticket_notes (ticket_id, author_id, body, created_at, deleted_at) values (?, ?, null, ?, ?)`, [ticketId, authorId, now, now]);
  await migrator.up();

  const found = async (word: string) =>
    (
      await conn.execute<{ ticket_id: number | string }[]>(
        postgres
          ? `select ticket_id from ticket_search_parts where document @@ to_tsquery('simple', ?)`
          : `select ticket_id from ticket_search_parts where ticket_search_parts match ?`,
        [postgres ? `'${word}'` : `"${word}"`],
      )
    ).map((r) => Number(r.ticket_id));
  for (const word of ['zqreplyword', 'zqfileword', 'zqmailword', 'zqnoteword']) expect(await found(word), word).toEqual([ticketId]);
  // Only the texts there are: the tombstone has none.
  const [{ n: notes }] = await conn.execute<{ n: number | string }[]>(
    postgres ? 'select count(*) as n from ticket_search_parts where kind = 2' : 'select count(*) as n from ticket_search_parts where rowid % 8 = 2',
  );
  const [{ n: written }] = await conn.execute<{ n: number | string }[]>('select count(*) as n from ticket_notes where body is not null');
  expect(Number(notes)).toBe(Number(written));

  await migrator.down({ to: THIS });
  const left = await conn.execute<{ name: string }[]>(
    postgres
      ? `select tgname as name from pg_trigger where tgname like '%_search_sync' and tgname <> 'tickets_search_sync' and tgname <> 'customers_search_sync' union all select tablename from pg_tables where tablename = 'ticket_search_parts'`
      : `select name from sqlite_master where name like 'ticket_search_parts%' or name like '%_search_insert' and name <> 'tickets_search_insert'`,
  );
  expect(left).toEqual([]);
  await migrator.up();
}

describe('the conversation search migration', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('on SQLite: indexes the conversation already written, and down() removes the index', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-conversation-search-'));
    dirs.push(dataDir);
    const orm = await openDatabase({ dataDir });
    try {
      await check(orm, false);
    } finally {
      await orm.close(true);
    }
  });

  it.skipIf(process.env.FULCRUM_TEST_DATABASE !== 'postgres')('on PostgreSQL: the same', async () => {
    const database = await createPostgresDatabase();
    const orm = await openDatabase({ databaseUrl: database.url });
    try {
      await check(orm, true);
    } finally {
      await orm.close(true);
      await database.drop();
    }
  });
});
