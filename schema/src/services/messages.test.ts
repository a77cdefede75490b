/**
 * Messages between agents (services/messages.ts): sending, editing and deleting with their rules, who hears of
 * it, the REST list (every message of the caller, oldest first) and a conversation as a cursor connection (newest
 * first). A real database (SQLite, or PostgreSQL + Redis) through the schema package's kit; no gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LIMITS, MESSAGES, PAGE_SIZE } from '../validation/rules.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { deleteMessage, editMessage, listConversationMessages, listMessages, sendMessage } from './messages.js';

const [DEMO, MARNIE, BOBBIE] = [1, 2, 3];
let kit: ServiceKit;

beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

/** Every page of a conversation, following the cursors. */
async function walk(viewer: number, partner: number, first?: number): Promise<{ ids: number[]; pages: number; totalCount: number }> {
  const ids: number[] = [];
  let after: string | null = null;
  let pages = 0;
  let totalCount = 0;
  for (;;) {
    const page = await listConversationMessages(kit.as(viewer), partner, { first, after });
    totalCount = page.totalCount;
    ids.push(...page.nodes.map((m) => m.id));
    pages += 1;
    if (!page.hasNextPage) return { ids, pages, totalCount };
    after = page.endCursor;
  }
}

describe('writes', () => {
  it('sends, edits and deletes; only the sender may change a message; strangers do not find it', async () => {
    const sent = await sendMessage(kit.as(DEMO), MARNIE, 'Morning!');
    expect(sent).toMatchObject({ senderId: DEMO, receiverId: MARNIE, text: 'Morning!' });
    expect((await refused(editMessage(kit.as(MARNIE), sent.id, 'mine now'))).code).toBe('FORBIDDEN');
    expect((await refused(deleteMessage(kit.as(MARNIE), sent.id))).code).toBe('FORBIDDEN');
    expect((await refused(editMessage(kit.as(BOBBIE), sent.id, 'hi'))).code).toBe('NOT_FOUND');
    expect((await refused(deleteMessage(kit.as(BOBBIE), sent.id))).code).toBe('NOT_FOUND');
    const edited = await editMessage(kit.as(DEMO), sent.id, 'Good morning!');
    expect(edited).toMatchObject({ id: sent.id, text: 'Good morning!' });
    expect((await listMessages(kit.as(MARNIE), DEMO)).find((m) => m.id === sent.id)?.text).toBe('Good morning!');
    expect(await deleteMessage(kit.as(DEMO), sent.id)).toBe(sent.id);
    expect((await listMessages(kit.as(MARNIE), DEMO)).map((m) => m.id)).not.toContain(sent.id);
    expect((await refused(deleteMessage(kit.as(DEMO), sent.id))).code).toBe('NOT_FOUND');
  });

  it('refuses an unknown receiver, yourself and a text outside 1..2000 characters (shared message)', async () => {
    expect((await refused(sendMessage(kit.as(DEMO), 99999, 'hi'))).code).toBe('NOT_FOUND');
    expect((await refused(sendMessage(kit.as(DEMO), 'abc', 'hi'))).code).toBe('NOT_FOUND');
    expect(Object.keys((await refused(sendMessage(kit.as(DEMO), DEMO, 'hi'))).fields!)).toEqual(['receiver']);
    for (const text of ['', '   ', 'x'.repeat(LIMITS.message.max + 1), null, 42]) {
      expect((await refused(sendMessage(kit.as(DEMO), MARNIE, text))).fields, JSON.stringify(text)).toEqual({ message: [MESSAGES.message] });
    }
    const sent = await sendMessage(kit.as(DEMO), MARNIE, 'x'.repeat(LIMITS.message.max));
    expect((await refused(editMessage(kit.as(DEMO), sent.id, ''))).fields).toEqual({ message: [MESSAGES.message] });
    expect((await refused(sendMessage(kit.as(null), MARNIE, 'hi'))).code).toBe('UNAUTHENTICATED');
  });

  it('any text is stored as sent or refused with the shared message (property)', async () => {
    const agent = await kit.newAgent();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 })), async (text) => {
        try {
          const sent = await sendMessage(kit.as(agent), DEMO, text);
          expect((await listConversationMessages(kit.as(DEMO), agent, { first: 1 })).nodes[0]).toMatchObject({ id: sent.id, text });
        } catch (error) {
          expect(error).toMatchObject({ code: 'BAD_USER_INPUT', fields: { message: [MESSAGES.message] } });
          expect(text.trim() === '' || text.includes('\u0000')).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("the sender's and receiver's topics hear of each change, nobody else's", async () => {
    const agent = await kit.newAgent();
    const [sender, receiver, stranger] = [kit.listen('message', DEMO), kit.listen('message', agent), kit.listen('message', BOBBIE)];
    const sent = await sendMessage(kit.as(DEMO), agent, 'for you');
    await editMessage(kit.as(DEMO), sent.id, 'for you, edited');
    await deleteMessage(kit.as(DEMO), sent.id);
    const marker = await sendMessage(kit.as(MARNIE), BOBBIE, 'marker');
    for (const heard of [sender, receiver]) {
      expect((await heard.waitFor(3)).map((e) => [e.kind, e.id, e.record?.text])).toEqual([
        ['CREATED', sent.id, 'for you'],
        ['UPDATED', sent.id, 'for you, edited'],
        ['DELETED', sent.id, undefined],
      ]);
    }
    expect((await stranger.waitFor(1)).map((e) => e.id)).toEqual([marker.id]);
    for (const heard of [sender, receiver, stranger]) heard.stop();
  });
});

describe('lists', () => {
  it('a conversation pages newest first, 50 by default, older pages by cursor, only the two agents’ messages', async () => {
    const agent = await kit.newAgent();
    for (let i = 0; i < 60; i++) await sendMessage(kit.as(i % 3 ? DEMO : agent), i % 3 ? agent : DEMO, `page ${i}`);
    await sendMessage(kit.as(MARNIE), agent, 'not in this conversation');
    const { ids, pages, totalCount } = await walk(agent, DEMO);
    expect(totalCount).toBe(60);
    expect(ids).toHaveLength(60);
    expect(pages).toBe(Math.ceil(60 / PAGE_SIZE.default));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    // The same conversation from the other side, in pages of any size.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 100 }), async (first) => {
        expect((await walk(DEMO, agent, first)).ids).toEqual(ids);
      }),
      { numRuns: 6 },
    );
    // The REST list: every message of the caller, oldest first.
    const everything = await listMessages(kit.as(agent));
    expect(everything).toHaveLength(61);
    expect(everything.map((m) => m.id)).toEqual([...everything.map((m) => m.id)].sort((x, y) => x - y));
    expect((await listMessages(kit.as(agent), MARNIE)).map((m) => m.text)).toEqual(['not in this conversation']);
  });

  it('refuses bad partners, page sizes and cursors with the shared messages', async () => {
    expect((await refused(listConversationMessages(kit.as(DEMO), 'x'))).fields).toEqual({ withUserId: [MESSAGES.invalidUserId] });
    expect((await refused(listMessages(kit.as(DEMO), -3))).fields).toEqual({ withUserId: [MESSAGES.invalidUserId] });
    expect((await refused(listConversationMessages(kit.as(DEMO), MARNIE, { first: 101 }))).fields).toEqual({ first: [MESSAGES.pageSize] });
    for (const after of ['bWVzc2FnZTp4', 'garbage', Buffer.from('conversation:3').toString('base64url')]) {
      expect((await refused(listConversationMessages(kit.as(DEMO), MARNIE, { after }))).fields, after).toEqual({ after: [MESSAGES.pageCursor] });
    }
  });
});
