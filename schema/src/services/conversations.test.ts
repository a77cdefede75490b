/**
 * The message center's read state (services/conversations.ts, kept by services/messages.ts in the same
 * transactions): unread counts per conversation and in all, read positions, what a delete does to them, the list
 * of conversations by cursor, and the unread events. A real database (SQLite, or PostgreSQL + Redis) through the
 * schema package's kit; no gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MESSAGES } from '../validation/rules.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { conversationWithTotal, listConversations, markConversationRead, unreadMessageCount, type ConversationRecord } from './conversations.js';
import { deleteMessage, sendMessage } from './messages.js';

const [DEMO, MARNIE, BOBBIE] = [1, 2, 3];
let kit: ServiceKit;

beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

const send = async (from: number, to: number, text = 'hello') => (await sendMessage(kit.as(from), to, text)).id;
const unread = (viewer: number) => unreadMessageCount(kit.as(viewer));
const read = (viewer: number, partner: unknown, upTo?: unknown) => markConversationRead(kit.as(viewer), partner, upTo);
const conversation = async (viewer: number, partner: number): Promise<ConversationRecord> =>
  (await conversationWithTotal(kit.as(viewer), partner)).conversation;

/** Every stored count equals the messages past its read position, recounted from scratch. */
async function countsAreExact(): Promise<void> {
  const rows = await kit.rows<{ stored: number; actual: number }>(
    `select c.unread_count as stored,
       (select count(*) from messages m where m.sender_id = c.partner_id and m.receiver_id = c.user_id and m.id > c.last_read_message_id) as actual
     from conversations c`,
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(Number(row.stored)).toBe(Number(row.actual));
}

describe('unread counts and read positions', () => {
  it('the demo seed starts read; arrivals count per conversation and in all, never for the sender', async () => {
    for (const agent of [DEMO, MARNIE, BOBBIE]) expect(await unread(agent)).toBe(0);
    const a = await send(DEMO, MARNIE, 'one');
    const b = await send(DEMO, MARNIE, 'two');
    const c = await send(BOBBIE, MARNIE, 'three from Bobbie');
    expect(await unread(MARNIE)).toBe(3);
    const list = await listConversations(kit.as(MARNIE));
    // Newest activity first.
    expect(list.nodes.map((n) => n.partnerId).slice(0, 2)).toEqual([BOBBIE, DEMO]);
    expect(list.nodes[0]).toMatchObject({
      unreadCount: 1,
      partner: { id: BOBBIE, username: 'Bobbie' },
      lastMessage: { id: c, senderId: BOBBIE, receiverId: MARNIE },
    });
    expect(list.nodes[1]).toMatchObject({ unreadCount: 2, lastMessage: { id: b } });
    expect(await conversation(DEMO, MARNIE)).toMatchObject({ unreadCount: 0, lastMessage: { id: b } });

    // Reading up to the first leaves one; the position never moves back; without a position everything is read.
    expect(await read(MARNIE, DEMO, a)).toMatchObject({ partnerId: DEMO, unreadCount: 1, lastReadMessageId: a });
    expect(await read(MARNIE, DEMO, 1)).toMatchObject({ unreadCount: 1, lastReadMessageId: a });
    expect(await read(MARNIE, DEMO)).toMatchObject({ unreadCount: 0, lastReadMessageId: b, lastMessage: { id: b } });
    expect(await unread(MARNIE)).toBe(1);
    await read(MARNIE, BOBBIE);
    expect(await unread(MARNIE)).toBe(0);
  });

  it('a read position past the newest message stops at it: later messages are still unread', async () => {
    const last = await send(DEMO, MARNIE, 'before');
    expect(await read(MARNIE, DEMO, last + 1000)).toMatchObject({ unreadCount: 0, lastReadMessageId: last });
    await send(DEMO, MARNIE, 'after');
    expect((await conversation(MARNIE, DEMO)).unreadCount).toBe(1);
    await read(MARNIE, DEMO);
  });

  it('a deleted unread message stops counting; a deleted read one changes nothing; the newest falls back', async () => {
    const readOne = await send(DEMO, MARNIE, 'will be read');
    await read(MARNIE, DEMO);
    const unreadOne = await send(DEMO, MARNIE, 'deleted before she reads it');
    expect(await unread(MARNIE)).toBe(1);
    await deleteMessage(kit.as(DEMO), unreadOne);
    expect(await unread(MARNIE)).toBe(0);
    expect((await conversation(MARNIE, DEMO)).lastMessage?.id).toBe(readOne);
    await deleteMessage(kit.as(DEMO), readOne);
    expect(await unread(MARNIE)).toBe(0);
    expect((await conversation(DEMO, MARNIE)).lastMessage!.id).toBeLessThan(readOne);
    await countsAreExact();
  });

  it('stays exact under concurrent sends, deletes and reads', async () => {
    await read(MARNIE, DEMO);
    await read(MARNIE, BOBBIE);
    const deletable: Promise<number>[] = [];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i++) {
      const sent = send(i % 2 ? BOBBIE : DEMO, MARNIE, `burst ${i}`);
      work.push(sent);
      if (i % 5 === 0) deletable.push(sent);
      if (i % 4 === 0) work.push(read(MARNIE, i % 8 === 0 ? DEMO : BOBBIE));
    }
    await Promise.all(work);
    const ids = await Promise.all(deletable);
    // Each deleted twice at once by its sender: the second changes nothing (or finds nothing).
    const outcomes = await Promise.allSettled(ids.flatMap((id, i) => [0, 1].map(() => deleteMessage(kit.as(i % 2 ? BOBBIE : DEMO), id))));
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'NOT_FOUND' });
    await countsAreExact();
    const [mine] = await kit.rows<{ n: number }>(
      'select count(*) as n from messages m join conversations c on c.user_id = m.receiver_id and c.partner_id = m.sender_id where m.receiver_id = ? and m.id > c.last_read_message_id',
      [MARNIE],
    );
    expect(await unread(MARNIE)).toBe(Number(mine.n));
  });
});

describe('refusals', () => {
  it('bad partners and positions are refused with the shared messages, and change nothing', async () => {
    const before = await conversation(MARNIE, DEMO);
    const cases: [unknown, unknown, string, Record<string, string[]>?][] = [
      [MARNIE, undefined, 'BAD_USER_INPUT', { partnerId: [MESSAGES.conversationWithSelf] }],
      [0, undefined, 'BAD_USER_INPUT', { partnerId: [MESSAGES.invalidUserId] }],
      [-5, undefined, 'BAD_USER_INPUT', { partnerId: [MESSAGES.invalidUserId] }],
      ['x', undefined, 'BAD_USER_INPUT', { partnerId: [MESSAGES.invalidUserId] }],
      [99999, undefined, 'NOT_FOUND'],
      [DEMO, 0, 'BAD_USER_INPUT', { upToMessageId: [MESSAGES.invalidMessageId] }],
      [DEMO, -1, 'BAD_USER_INPUT', { upToMessageId: [MESSAGES.invalidMessageId] }],
    ];
    for (const [partner, upTo, code, fields] of cases) {
      const error = await refused(read(MARNIE, partner, upTo));
      expect(error.code, JSON.stringify([partner, upTo])).toBe(code);
      if (fields) expect(error.fields).toEqual(fields);
    }
    expect(await conversation(MARNIE, DEMO)).toEqual(before);
    expect((await refused(unreadMessageCount(kit.as(null)))).code).toBe('UNAUTHENTICATED');
    expect((await refused(listConversations(kit.as(null)))).code).toBe('UNAUTHENTICATED');
    expect((await refused(listConversations(kit.as(MARNIE), { after: 'garbage' }))).fields).toEqual({ after: [MESSAGES.pageCursor] });
  });

  it('any partner and position: a conversation or a clear refusal, and the counts stay exact (property)', async () => {
    const anyId = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 2, 3, 2 ** 31 - 1), fc.string({ maxLength: 12 }));
    await fc.assert(
      fc.asyncProperty(anyId, fc.option(anyId), async (partner, upTo) => {
        const before = await unread(BOBBIE);
        try {
          expect((await read(BOBBIE, partner, upTo)).unreadCount).toBeGreaterThanOrEqual(0);
        } catch (error) {
          expect(['BAD_USER_INPUT', 'NOT_FOUND']).toContain((error as { code?: string }).code);
          expect(await unread(BOBBIE)).toBe(before);
        }
      }),
      { numRuns: 60 },
    );
    await countsAreExact();
  });
});

describe('the list of conversations', () => {
  it('pages by cursor, newest activity first, with the total on every page', async () => {
    const agent = await kit.newAgent();
    for (const partner of [DEMO, MARNIE, BOBBIE]) await send(partner, agent, `hi from ${partner}`);
    const first = await listConversations(kit.as(agent), { first: 2 });
    expect(first).toMatchObject({ totalCount: 3, hasNextPage: true });
    expect(first.nodes.map((n) => n.partnerId)).toEqual([BOBBIE, MARNIE]);
    const second = await listConversations(kit.as(agent), { first: 2, after: first.endCursor });
    expect(second).toMatchObject({ totalCount: 3, hasNextPage: false });
    expect(second.nodes.map((n) => n.partnerId)).toEqual([DEMO]);
    const past = await listConversations(kit.as(agent), { first: 5, after: second.endCursor });
    expect(past).toMatchObject({ nodes: [], totalCount: 3, hasNextPage: false, endCursor: null });
    // A reply moves the conversation to the top.
    await send(agent, DEMO, 'answer');
    expect((await listConversations(kit.as(agent))).nodes.map((n) => n.partnerId)).toEqual([DEMO, BOBBIE, MARNIE]);
  });
});

describe('unread events', () => {
  it("go to the receiver's topic on arrival, on a delete of an unread message and on a read that changed something", async () => {
    const agent = await kit.newAgent();
    const heard = kit.listen('unread', agent);
    const a = await send(DEMO, agent, 'first');
    const b = await send(DEMO, agent, 'second');
    await deleteMessage(kit.as(DEMO), b);
    await read(agent, DEMO, a);
    // Nothing left to read: no event for this one. The next arrival is the marker that it would have come before.
    await read(agent, DEMO, a);
    await send(MARNIE, agent, 'marker');
    expect(await heard.waitFor(5)).toEqual([
      { partnerId: DEMO, reason: 'MESSAGE_ARRIVED' },
      { partnerId: DEMO, reason: 'MESSAGE_ARRIVED' },
      { partnerId: DEMO, reason: 'MESSAGE_DELETED' },
      { partnerId: DEMO, reason: 'READ' },
      { partnerId: MARNIE, reason: 'MESSAGE_ARRIVED' },
    ]);
    heard.stop();
  });
});
