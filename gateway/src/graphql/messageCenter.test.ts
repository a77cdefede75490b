/**
 * The message center's server side: read state kept on the server (conversations, unread counts, mark
 * read), a conversation's messages as a cursor connection, unread events on every socket of the agent, presence and
 * typing. Real gateway, real database (SQLite, or PostgreSQL + Redis in the second pass), real websockets.
 * The read-state rules themselves (positions past the newest, deletes, concurrency, conversation paging) are the
 * domain's, tested beside it: schema/src/services/conversations.test.ts and messages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Client } from 'graphql-ws';
import { randomBytes } from 'node:crypto';
import { PRESENCE_BATCH_MS, PRESENCE_HEARTBEAT_MS, PRESENCE_TTL_MS } from '@fulcrum/schema';
import { createPostgresDatabase, REDIS_URL, startSignedIn, startTestGateway, testDatabaseMode, type TestGateway } from '../testing/harness.js';
import { spawnGateway, type GatewayProcess } from '../testing/processes.js';
import type { TestClient } from '../testing/client.js';
import { collect, connected, wsClient } from '../testing/wsClient.js';

const [DEMO, MARNIE, BOBBIE] = [1, 2, 3];
const UNREAD_EVENTS =
  'subscription { unreadCountEvents { reason unreadMessageCount conversation { partnerId unreadCount lastReadMessageId lastMessage { id } } } }';
const PRESENCE_EVENTS = 'subscription { presenceEvents { changes { userId online version } } }';
const TYPING_EVENTS = 'subscription { typingEvents { senderId at } }';
const CONVERSATIONS = `query($first: Int, $after: String) {
  conversations(first: $first, after: $after) {
    totalCount
    nodes { partnerId unreadCount lastReadMessageId partner { id username } lastMessage { id text senderId receiverId sender { username } } }
    pageInfo { endCursor hasNextPage }
  }
}`;
const PAGE =
  'query($with: Int!, $first: Int, $after: String) { messages(withUserId: $with, first: $first, after: $after) { totalCount nodes { id text senderId } pageInfo { endCursor hasNextPage } } }';
const READ =
  'mutation($partner: Int!, $upTo: Int) { markConversationRead(partnerId: $partner, upToMessageId: $upTo) { partnerId unreadCount lastReadMessageId lastMessage { id } } }';
const SEND = 'mutation($to: Int!, $text: String!) { sendMessage(receiverId: $to, text: $text) { id } }';

let gw: TestGateway;
let demo: TestClient;
let marnie: TestClient;
let bobbie: TestClient;
const sockets: Client[] = [];
const socketFor = (c: TestClient, url = gw.url) => {
  const s = wsClient(url, c.cookieHeader);
  sockets.push(s);
  return s;
};
const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));
/**
 * Subscriptions just opened are listening: each socket has its connection acknowledged (graphql-ws has no
 * acknowledgement for a subscribe itself), then a pause for the server to start the subscriptions sent after it.
 * A pause alone lost every event when a busy machine took longer than it to connect.
 */
const listening = async (...clients: Client[]) => {
  await Promise.all(clients.map((client) => connected(client)));
  await settle();
};

async function send(from: TestClient, to: number, text: string): Promise<number> {
  const res = await from.gql<{ sendMessage: { id: number } }>(SEND, { to, text });
  expect(res.errors).toBeUndefined();
  return res.data!.sendMessage.id;
}
const unread = async (c: TestClient) => (await c.gql<{ unreadMessageCount: number }>('{ unreadMessageCount }')).data!.unreadMessageCount;
const conversationWith = async (c: TestClient, partnerId: number) =>
  (
    (await c.gql(CONVERSATIONS, { first: 100 })).data!.conversations.nodes as {
      partnerId: number;
      unreadCount: number;
      lastReadMessageId: number;
      lastMessage: { id: number };
    }[]
  ).find((n) => n.partnerId === partnerId);
const read = (c: TestClient, partner: number, upTo?: number) => c.gql(READ, { partner, upTo });

beforeAll(async () => ([gw, demo, marnie, bobbie] = await startSignedIn(0, 1, 2)));
afterAll(async () => {
  await Promise.all(sockets.map(async (s) => s.dispose()));
  await gw.destroy();
});

describe('read state on the server', () => {
  it('counts what arrives, per conversation and in all, through GraphQL and REST; the demo seed starts read', async () => {
    expect(await unread(marnie)).toBe(0);
    const seeded = (await marnie.gql(CONVERSATIONS)).data!.conversations;
    expect(seeded.nodes.every((n: { unreadCount: number }) => n.unreadCount === 0)).toBe(true);
    const a = await send(demo, MARNIE, 'one');
    const b = (await demo.post(`/api/messages/create/too/${MARNIE}`, { message: 'two over REST' })).body.id as number;
    const c = await send(bobbie, MARNIE, 'three from Bobbie');
    expect(await unread(marnie)).toBe(3);
    const list = (await marnie.gql(CONVERSATIONS)).data!.conversations;
    // Newest activity first: Bobbie's message is the newest.
    expect(list.nodes.map((n: { partnerId: number }) => n.partnerId).slice(0, 2)).toEqual([BOBBIE, DEMO]);
    expect(list.nodes[0]).toMatchObject({
      unreadCount: 1,
      partner: { id: BOBBIE, username: 'Bobbie' },
      lastMessage: { id: c, text: 'three from Bobbie', senderId: BOBBIE, receiverId: MARNIE, sender: { username: 'Bobbie' } },
    });
    expect(list.nodes[1]).toMatchObject({ unreadCount: 2, lastMessage: { id: b } });
    // The sender has nothing unread from it.
    expect((await conversationWith(demo, MARNIE))!.unreadCount).toBe(0);
    expect((await conversationWith(demo, MARNIE))!.lastMessage.id).toBe(b);

    // Read up to the first: one left; the position never moves back; the default reads everything.
    expect((await read(marnie, DEMO, a)).data!.markConversationRead).toMatchObject({ partnerId: DEMO, unreadCount: 1, lastReadMessageId: a });
    expect((await read(marnie, DEMO, 1)).data!.markConversationRead).toMatchObject({ unreadCount: 1, lastReadMessageId: a });
    expect((await read(marnie, DEMO)).data!.markConversationRead).toMatchObject({ unreadCount: 0, lastReadMessageId: b, lastMessage: { id: b } });
    expect(await unread(marnie)).toBe(1);
    await read(marnie, BOBBIE);
    expect(await unread(marnie)).toBe(0);
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const before = await conversationWith(marnie, DEMO);
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ partner: MARNIE }, 'BAD_USER_INPUT', 'partnerId'],
      [{ partner: 0 }, 'BAD_USER_INPUT', 'partnerId'],
      [{ partner: -5 }, 'BAD_USER_INPUT', 'partnerId'],
      [{ partner: 99999 }, 'NOT_FOUND'],
      [{ partner: DEMO, upTo: 0 }, 'BAD_USER_INPUT', 'upToMessageId'],
      [{ partner: DEMO, upTo: -1 }, 'BAD_USER_INPUT', 'upToMessageId'],
    ];
    for (const [variables, code, field] of cases) {
      const res = await marnie.gql(READ, variables);
      expect(res.errors?.[0].extensions?.code, JSON.stringify(variables)).toBe(code);
      if (field) expect(res.errors?.[0].extensions?.field).toBe(field);
    }
    expect(await conversationWith(marnie, DEMO)).toEqual(before);
    for (const query of [
      '{ unreadMessageCount }',
      '{ conversations { totalCount } }',
      '{ messages(withUserId: 1) { totalCount } }',
      'mutation { markConversationRead(partnerId: 1) { unreadCount } }',
      'mutation { notifyTyping(partnerId: 1) }',
    ]) {
      expect((await gw.client().gql(query)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect((await marnie.gql(CONVERSATIONS, { after: 'garbage' })).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    expect((await marnie.gql(PAGE, { with: DEMO, after: 'bWVzc2FnZTp4' })).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
  });
});

describe('a conversation as a cursor connection', () => {
  it("pages newest first, 50 by default, older pages by cursor, only the two agents' messages", async () => {
    for (let i = 0; i < 60; i++) await send(i % 3 ? demo : bobbie, i % 3 ? BOBBIE : DEMO, `page ${i}`);
    const all: { id: number; text: string; senderId: number }[] = [];
    let after: string | null = null;
    let pages = 0;
    let totalCount = 0;
    do {
      const res: { errors?: unknown; data?: Record<string, any> | null } = await bobbie.gql(PAGE, { with: DEMO, after });
      expect(res.errors).toBeUndefined();
      const page: { totalCount: number; nodes: { id: number; text: string; senderId: number }[]; pageInfo: { endCursor: string; hasNextPage: boolean } } =
        res.data!.messages;
      totalCount = page.totalCount;
      expect(page.nodes.length).toBeLessThanOrEqual(50);
      all.push(...page.nodes);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      pages += 1;
    } while (after);
    expect(all.length).toBe(totalCount);
    expect(pages).toBe(Math.ceil(totalCount / 50));
    const ids = all.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(new Set(all.map((m) => m.senderId))).toEqual(new Set([DEMO, BOBBIE]));
    // Same conversation from the other side.
    expect((await demo.gql(PAGE, { with: BOBBIE, first: 100 })).data!.messages.nodes.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 100));
    // Nobody else's messages: Marnie's conversation with Bobbie does not contain these.
    const marnieView = (await marnie.gql(PAGE, { with: BOBBIE, first: 100 })).data!.messages.nodes.map((m: { id: number }) => m.id);
    expect(marnieView.filter((id: number) => ids.includes(id))).toEqual([]);
    // first is at most 100: more is refused, not cut.
    expect((await bobbie.gql(PAGE, { with: DEMO, first: 100 })).data!.messages.nodes.length).toBe(Math.min(100, totalCount));
    expect((await bobbie.gql(PAGE, { with: DEMO, first: 1000 })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('the REST list keeps its contract: every message of the caller, oldest first, snake_case', async () => {
    const res = await marnie.get('/api/messages/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body[0]).sort()).toEqual(['id', 'message', 'receiver_id', 'sender_id']);
    const ids = res.body.map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
  });
});

describe('unread events', () => {
  it('reach every socket of the receiver with the new counts; reading on one clears the others; nobody else hears', async () => {
    await read(marnie, DEMO);
    await read(marnie, BOBBIE);
    const clients = [socketFor(marnie), socketFor(marnie), socketFor(bobbie)];
    const [tabA, tabB, other] = clients.map((client) => collect(client, UNREAD_EVENTS));
    await listening(...clients);
    const ids = [await send(demo, MARNIE, 'u1'), await send(demo, MARNIE, 'u2'), await send(demo, MARNIE, 'u3')];
    await tabA.waitFor(3);
    await tabB.waitFor(3);
    for (const tab of [tabA, tabB]) {
      // Each event carries the count as it is when the event is delivered ("now"): the n-th comes after the n-th
      // send committed, so it counts at least n, and a later send may already be in it when the machine is busy.
      const counts = tab.events.map((e) => e.unreadCountEvents.unreadMessageCount as number);
      counts.forEach((count, n) => expect(count).toBeGreaterThanOrEqual(n + 1));
      expect(counts.every((count) => count <= 3)).toBe(true);
      expect(counts[2]).toBe(3);
      expect(tab.events[2].unreadCountEvents).toMatchObject({
        reason: 'MESSAGE_ARRIVED',
        conversation: { partnerId: DEMO, unreadCount: 3, lastMessage: { id: ids[2] } },
      });
    }
    await demo.gql(`mutation { deleteMessage(id: ${ids[1]}) }`);
    await tabB.waitFor(4);
    expect(tabB.events[3].unreadCountEvents).toMatchObject({ reason: 'MESSAGE_DELETED', unreadMessageCount: 2 });
    await read(marnie, DEMO);
    await tabA.waitFor(5);
    await tabB.waitFor(5);
    expect(tabB.events[4].unreadCountEvents).toMatchObject({
      reason: 'READ',
      unreadMessageCount: 0,
      conversation: { partnerId: DEMO, unreadCount: 0, lastReadMessageId: ids[2] },
    });
    // Reading what is already read changes nothing and says nothing.
    await read(marnie, DEMO);
    await settle();
    expect(tabA.events).toHaveLength(5);
    expect(other.events).toEqual([]);
  });
});

describe('presence and typing', () => {
  it('an agent is online while any socket is open; everyone hears the change, in version order', async () => {
    await Promise.all(sockets.splice(0).map(async (s) => s.dispose()));
    const watcher = collect(socketFor(demo), PRESENCE_EVENTS);
    await settle();
    const online = async () =>
      ((await demo.gql('{ users { nodes { id online } } }')).data!.users.nodes as { id: number; online: boolean }[]).find((u) => u.id === BOBBIE)!.online;
    expect(await online()).toBe(false);
    const first = wsClient(gw.url, bobbie.cookieHeader, { lazy: false });
    const second = wsClient(gw.url, bobbie.cookieHeader, { lazy: false });
    sockets.push(first, second);
    await Promise.all([connected(first), connected(second)]);
    // From Bobbie's going online on: the offline change of the sockets disposed above is batched and may reach the
    // watcher after it subscribed (a loaded run saw it first); it carries an older version, so it comes before.
    const bobbieEvents = () => {
      const all = watcher.events
        .flatMap((e) => e.presenceEvents.changes as { userId: number; online: boolean; version: number }[])
        .filter((e) => e.userId === BOBBIE);
      const start = all.findIndex((e) => e.online);
      return start < 0 ? [] : all.slice(start);
    };
    await expect.poll(bobbieEvents, { timeout: 5_000 }).toHaveLength(1);
    expect(await online()).toBe(true);
    await first.dispose();
    await settle();
    expect(bobbieEvents()).toHaveLength(1);
    expect(await online()).toBe(true);
    await second.dispose();
    await expect.poll(bobbieEvents, { timeout: 5_000 }).toHaveLength(2);
    expect(bobbieEvents()[1]).toMatchObject({ online: false });
    expect(bobbieEvents()[1].version).toBeGreaterThan(bobbieEvents()[0].version);
    expect(await online()).toBe(false);
  });

  it('typing reaches only the partner, at most once per 2 s per sender, and is refused for yourself or nobody', async () => {
    const [marnieSocket, bobbieSocket] = [socketFor(marnie), socketFor(bobbie)];
    const toMarnie = collect(marnieSocket, TYPING_EVENTS);
    const toBobbie = collect(bobbieSocket, TYPING_EVENTS);
    await listening(marnieSocket, bobbieSocket);
    const typing = (c: TestClient, partnerId: unknown) => c.gql('mutation($p: Int!) { notifyTyping(partnerId: $p) }', { p: partnerId });
    expect((await typing(demo, MARNIE)).data!.notifyTyping).toBe(true);
    expect((await typing(demo, MARNIE)).data!.notifyTyping).toBe(false);
    expect((await typing(demo, BOBBIE)).data!.notifyTyping).toBe(false);
    await toMarnie.waitFor(1);
    expect(toMarnie.events[0].typingEvents.senderId).toBe(DEMO);
    expect((await typing(demo, DEMO)).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await typing(demo, 4242)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    await settle(2100);
    expect((await typing(demo, MARNIE)).data!.notifyTyping).toBe(true);
    await toMarnie.waitFor(2);
    await settle();
    expect(toBobbie.events).toEqual([]);
    const stored = await gw.orm.em.fork().getConnection().execute<{ n: number }[]>("select count(*) as n from messages where message like '%typing%'");
    expect(Number(stored[0].n)).toBe(0);
  }, 15_000);
});

describe('fast-check: the new inputs never break the server', () => {
  const anyInt = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 2, 3, 2 ** 31 - 1, -(2 ** 31)));
  const anyCursor = fc.oneof(
    fc.constant(null),
    fc.string({ maxLength: 80 }),
    fc.constantFrom('', 'Y29udmVyc2F0aW9uOjE', 'bWVzc2FnZTox', 'bWVzc2FnZTotMQ', 'bWVzc2FnZTo5OTk5OTk5OTk5OTk5OTk5OTk5'),
  );
  const ok = (res: { status: number; errors?: { extensions?: { code?: string } }[] }) => {
    expect(res.status).toBeLessThan(500);
    for (const e of res.errors ?? []) expect(['BAD_USER_INPUT', 'NOT_FOUND', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST']).toContain(e.extensions?.code);
  };

  it('markConversationRead, messages, conversations, notifyTyping: data or a clear error, counts intact', async () => {
    await fc.assert(
      fc.asyncProperty(anyInt, fc.option(anyInt), anyInt, anyCursor, async (partner, upTo, first, after) => {
        const before = await unread(bobbie);
        const res = await bobbie.gql(READ, { partner, upTo });
        ok(res);
        if (!res.errors) expect(res.data!.markConversationRead.unreadCount).toBeGreaterThanOrEqual(0);
        else expect(await unread(bobbie)).toBe(before);
        ok(await bobbie.gql(PAGE, { with: partner, first, after }));
        ok(await bobbie.gql(CONVERSATIONS, { first, after }));
        ok(await bobbie.gql('mutation($p: Int!) { notifyTyping(partnerId: $p) }', { p: partner }));
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

describe.skipIf(testDatabaseMode() !== 'postgres' || process.env.FULCRUM_TEST_REDIS !== '1')('two gateways on one PostgreSQL and Redis', () => {
  let other: TestGateway;
  beforeAll(async () => {
    other = await startTestGateway({ databaseUrl: gw.options.databaseUrl });
  });
  afterAll(async () => {
    await other?.destroy();
  });

  it('reading on gateway A clears the badge of a socket on gateway B; presence is seen across them', async () => {
    await Promise.all(sockets.splice(0).map(async (s) => s.dispose()));
    const marnieOnB = await other.as(1);
    await read(marnie, DEMO);
    const onB = collect(socketFor(marnieOnB, other.url), UNREAD_EVENTS);
    const presenceOnA = collect(socketFor(demo), PRESENCE_EVENTS);
    await settle(300);
    await send(demo, MARNIE, 'to B');
    await onB.waitFor(1);
    expect(onB.events[0].unreadCountEvents.unreadMessageCount).toBe(1);
    await read(marnie, DEMO); // on A
    await onB.waitFor(2);
    expect(onB.events[1].unreadCountEvents).toMatchObject({ reason: 'READ', unreadMessageCount: 0 });
    // Bobbie connects on B: A's users list and A's socket see it.
    const bobbieOnB = await other.as(2);
    const s = wsClient(other.url, bobbieOnB.cookieHeader, { lazy: false });
    sockets.push(s);
    await connected(s);
    await expect
      .poll(() => presenceOnA.events.some((e) => e.presenceEvents.changes.some((c: { userId: number; online: boolean }) => c.userId === BOBBIE && c.online)), {
        timeout: 5_000,
      })
      .toBe(true);
    expect(
      ((await demo.gql('{ users { nodes { id online } } }')).data!.users.nodes as { id: number; online: boolean }[]).find((u) => u.id === BOBBIE)!.online,
    ).toBe(true);
    await s.dispose();
    await expect
      .poll(() => presenceOnA.events.some((e) => e.presenceEvents.changes.some((c: { userId: number; online: boolean }) => c.userId === BOBBIE && !c.online)), {
        timeout: 5_000,
      })
      .toBe(true);
  });
});

describe.skipIf(testDatabaseMode() !== 'postgres' || process.env.FULCRUM_TEST_REDIS !== '1')('presence when a gateway is killed', () => {
  it('the agents of a SIGKILLed gateway go offline on the others within the expiry (30 s + 10 s by default, here 3 s + 1 s; plus the 1 s batch)', async () => {
    // The defaults: offline within the 60 s.
    expect(PRESENCE_TTL_MS + PRESENCE_HEARTBEAT_MS + PRESENCE_BATCH_MS).toBeLessThanOrEqual(60_000);
    const database = await createPostgresDatabase();
    const sessionSecret = randomBytes(32).toString('base64url');
    let a: TestGateway | undefined;
    let b: GatewayProcess | undefined;
    try {
      a = await startTestGateway({ databaseUrl: database.url, redisUrl: REDIS_URL, sessionSecret, presenceTtlMs: 3000, presenceHeartbeatMs: 1000 });
      b = await spawnGateway({
        name: 'victim',
        databaseUrl: database.url,
        redisUrl: REDIS_URL,
        sessionSecret,
        env: { FULCRUM_PRESENCE_TTL_MS: '3000', FULCRUM_PRESENCE_HEARTBEAT_MS: '1000' },
      });
      const demoOnA = await a.as(0);
      const watcher = collect(socketFor(demoOnA, a.url), PRESENCE_EVENTS);
      const bobbieOnB = await b.as(2);
      // Lazy, opened by a subscription: the kill then ends up in that subscription's errors, not on the console.
      const socket = wsClient(b.url, bobbieOnB.cookieHeader);
      sockets.push(socket);
      const opened = connected(socket);
      collect(socket, TYPING_EVENTS);
      await opened;
      const bobbie = () =>
        watcher.events.flatMap((e) => e.presenceEvents.changes as { userId: number; online: boolean; version: number }[]).filter((e) => e.userId === BOBBIE);
      await expect.poll(bobbie, { timeout: 5_000 }).toHaveLength(1);
      b.child.kill('SIGKILL');
      await b.exited;
      // Only the presence TTL can mark Bobbie offline now (the gateway that held the socket is dead); the guard is
      // generous, not a figure.
      await expect.poll(bobbie, { timeout: 30_000, interval: 100 }).toHaveLength(2);
      expect(bobbie()[1].online).toBe(false);
      expect(
        ((await demoOnA.gql('{ users { nodes { id online } } }')).data!.users.nodes as { id: number; online: boolean }[]).find((u) => u.id === BOBBIE)!.online,
      ).toBe(false);
    } finally {
      await b?.stop();
      await a?.destroy();
      await database.drop();
    }
  }, 90_000);
});
