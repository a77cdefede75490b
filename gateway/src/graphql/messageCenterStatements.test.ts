/**
 * The message center's cost in SQL statements: `conversations` and `unreadMessageCount` read the same few statements
 * for 3 partners as for 150 (no statement per conversation). A gateway of its own on a real database (SQLite, or
 * PostgreSQL + Redis in the second pass), its statements counted at the driver; the rest of the message center's
 * server side is tested in messageCenter.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { conversations as conversationService, type Em } from '@fulcrum/schema';
import { startTestGateway } from '../testing/harness.js';

describe('SQL statements of the message center', () => {
  it('conversations and unreadMessageCount cost the same few statements for 3 partners or 150', async () => {
    const extra = await startTestGateway();
    // The reports' rollup folder looks at its queue every second: not the message center's statements.
    await extra.reportFolder.stop();
    try {
      const em = extra.orm.em.fork() as Em;
      const statements: string[] = [];
      const knex = em.getConnection().getKnex() as unknown as { on(event: 'query', fn: (q: { sql: string }) => void): void };
      knex.on('query', (q) => statements.push(q.sql));
      const demoOnExtra = await extra.as(0);
      const QUERY =
        '{ unreadMessageCount conversations(first: 100) { totalCount nodes { partnerId unreadCount partner { username } lastMessage { text sender { username } } } pageInfo { endCursor } } }';
      const count = async () => {
        await demoOnExtra.gql(QUERY); // warm
        statements.length = 0;
        const res = await demoOnExtra.gql(QUERY);
        expect(res.errors).toBeUndefined();
        return { n: statements.length, conversations: res.data!.conversations.nodes.length as number };
      };
      const few = await count();
      // 150 more agents, each with a message to Demo and one back.
      const now = new Date();
      const connection = em.getConnection();
      const kb = connection.getKnex();
      await connection.execute(
        kb
          .insert(Array.from({ length: 150 }, (_, i) => ({ username: `load${i}`, email: `load${i}@example.com`, password_hash: 'x', created_at: now })))
          .into('users') as never,
      );
      const ids = (await connection.execute<{ id: number }[]>(kb.from('users').where('username', 'like', 'load%').select('id') as never)).map((r) =>
        Number(r.id),
      );
      await connection.execute(
        kb
          .insert(
            ids.flatMap((id) => [
              { sender_id: id, receiver_id: 1, message: 'hello', created_at: now, updated_at: now },
              { sender_id: 1, receiver_id: id, message: 'hi back', created_at: now, updated_at: now },
            ]),
          )
          .into('messages') as never,
      );
      await em.transactional((tx) => conversationService.rebuildConversations(tx));
      const many = await count();
      expect(many.conversations).toBe(100);
      expect(many.conversations).toBeGreaterThan(few.conversations);
      expect(many.n).toBe(few.n);
      expect(many.n).toBeLessThanOrEqual(5);
    } finally {
      await extra.destroy();
    }
  }, 60_000);
});
