/**
 * What one caller may hold open over graphql-ws: subscriptions per socket, sockets per session and per
 * API token. Each passes at its limit and is refused one past it, with a graphql-ws `error` (LIMIT_EXCEEDED) for a
 * subscription and close code 4429 for a socket. On SQLite (in-memory bus) and on PostgreSQL + Redis, where two
 * gateways count one session's and one token's sockets together.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import { carry, type TestClient } from '../../src/testing/client.js';
import { LIMIT_EXCEEDED, TOO_MANY_SOCKETS_CODE, WS_LIMITS } from '../../src/graphql/websockets.js';
import { figure } from '../../src/testing/measure.js';
import { openAckedSocket, openSocket, type RawSocket } from '../../src/testing/wsClient.js';
import { createToken } from '../apiTokens/support.js';

let gw: TestGateway;
let demo: TestClient;
let marnie: TestClient;
beforeAll(async () => ([gw, demo, marnie] = await startSignedIn(0, 1)));
afterAll(() => gw.destroy());

const CUSTOMER_EVENTS = 'subscription { customerEvents { kind id } }';
const TICKET_EVENTS = 'subscription { ticketEvents { kind id } }';

/** Resolves with the socket once acknowledged, or with its close code and reason. */
async function connect(socket: RawSocket, init: Record<string, unknown> = {}): Promise<{ acked: true } | { acked: false; code: number; reason: string }> {
  socket.send({ type: 'connection_init', payload: init });
  return Promise.race([
    socket.next('connection_ack', 10_000).then(() => ({ acked: true as const })),
    socket.closed.then((c) => ({ acked: false as const, ...c })),
  ]);
}

/** Opens sockets until one is acknowledged (the server may still be handling a close), at most `tries` of them. */
async function connectOnceFree(open: () => RawSocket, init: Record<string, unknown> = {}, tries = 50): Promise<RawSocket> {
  for (let i = 0; i < tries; i++) {
    const socket = open();
    if ((await connect(socket, init)).acked) return socket;
  }
  throw new Error('no socket was accepted');
}

describe('subscriptions per socket', () => {
  it(`${WS_LIMITS.subscriptionsPerSocket} subscriptions on one socket are served; the next gets a LIMIT_EXCEEDED error`, async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const socket = await openAckedSocket(gw.url, demo.cookieHeader);
    try {
      // Half on the shared directory, half on the agent's own ticket topic (the topic of the reported warning).
      for (let i = 0; i < WS_LIMITS.subscriptionsPerSocket; i++) {
        socket.send({ id: `s${i}`, type: 'subscribe', payload: { query: i % 2 ? TICKET_EVENTS : CUSTOMER_EVENTS } });
      }
      socket.send({ id: 'over', type: 'subscribe', payload: { query: CUSTOMER_EVENTS } });
      const refused = await socket.next('error');
      expect(refused.id).toBe('over');
      expect(refused.payload).toEqual([
        {
          message: `This socket already has ${WS_LIMITS.subscriptionsPerSocket} subscriptions, the most one socket may hold; complete one before starting another.`,
          extensions: { code: LIMIT_EXCEEDED },
        },
      ]);

      // The 100 are live: one customer change reaches each of the 50 customer subscriptions.
      const created = await marnie.gql('mutation { createCustomer(input: { name: "Limits", email: "limits@example.com" }) { id } }');
      expect(created.errors).toBeUndefined();
      const seen = new Set<string>();
      while (seen.size < WS_LIMITS.subscriptionsPerSocket / 2) seen.add((await socket.next('next')).id as string);
      expect([...seen].every((id) => Number(id.slice(1)) % 2 === 0)).toBe(true);

      // A completed subscription frees its place.
      socket.send({ id: 's0', type: 'complete' });
      socket.send({ id: 'again', type: 'subscribe', payload: { query: CUSTOMER_EVENTS } });
      await marnie.gql('mutation($id: Int!) { updateCustomer(id: $id, input: { name: "Limits 2", email: "limits@example.com" }) { id } }', {
        id: created.data!.createCustomer.id,
      });
      const ids = new Set<string>();
      while (!ids.has('again')) ids.add((await socket.next('next')).id as string);
      expect(socket.messages.filter((m) => m.type === 'error')).toEqual([]);
      // 50 subscriptions of one topic on one socket: no MaxListenersExceededWarning (the bus has its own listeners).
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
      figure(
        'subscriptions per socket',
        `${WS_LIMITS.subscriptionsPerSocket} served, the ${WS_LIMITS.subscriptionsPerSocket + 1}st refused (${LIMIT_EXCEEDED})`,
      );
    } finally {
      process.off('warning', onWarning);
      socket.ws.close();
    }
  });
});

describe('sockets per session and per token', () => {
  it(`a session opens ${WS_LIMITS.socketsPerSession} sockets; the next is closed with ${TOO_MANY_SOCKETS_CODE}; another session is not affected`, async () => {
    const sockets: RawSocket[] = [];
    try {
      for (let i = 0; i < WS_LIMITS.socketsPerSession; i++) sockets.push(await openAckedSocket(gw.url, demo.cookieHeader));
      const over = openSocket(gw.url, { cookie: demo.cookieHeader });
      expect(await connect(over)).toEqual({
        acked: false,
        code: TOO_MANY_SOCKETS_CODE,
        reason: `Too many sockets: this session has ${WS_LIMITS.socketsPerSession} open; close one first.`,
      });
      // The 20 still work.
      sockets[0].send({ id: 'a', type: 'subscribe', payload: { query: CUSTOMER_EVENTS } });
      await marnie.gql('mutation { createCustomer(input: { name: "Sockets", email: "sockets@example.com" }) { id } }');
      expect((await sockets[0].next('next')).payload.data.customerEvents.kind).toBe('CREATED');
      // Another session of the same agent has its own 20.
      const elsewhere = await gw.as(0);
      const other = await openAckedSocket(gw.url, elsewhere.cookieHeader);
      sockets.push(other);
      // Closing one lets one more in.
      sockets[0].ws.close();
      await sockets[0].closed;
      sockets.push(await connectOnceFree(() => openSocket(gw.url, { cookie: demo.cookieHeader })));
      figure('sockets per session', `${WS_LIMITS.socketsPerSession} accepted, the ${WS_LIMITS.socketsPerSession + 1}st closed with ${TOO_MANY_SOCKETS_CODE}`);
    } finally {
      for (const s of sockets) s.ws.close();
    }
  });

  it(`a token opens ${WS_LIMITS.socketsPerToken} sockets; the next is closed with ${TOO_MANY_SOCKETS_CODE}; another token is not affected`, async () => {
    const { secret } = await createToken(demo, { scopes: ['READ'] });
    const other = await createToken(demo, { name: 'other', scopes: ['READ'] });
    const init = { authorization: `Bearer ${secret}` };
    const sockets: RawSocket[] = [];
    try {
      for (let i = 0; i < WS_LIMITS.socketsPerToken; i++) {
        const s = openSocket(gw.url);
        sockets.push(s);
        expect(await connect(s, init)).toEqual({ acked: true });
      }
      const over = openSocket(gw.url);
      expect(await connect(over, init)).toEqual({
        acked: false,
        code: TOO_MANY_SOCKETS_CODE,
        reason: `Too many sockets: this token has ${WS_LIMITS.socketsPerToken} open; close one first.`,
      });
      const s = openSocket(gw.url);
      sockets.push(s);
      expect(await connect(s, { authorization: `Bearer ${other.secret}` })).toEqual({ acked: true });
      // The token's sockets and the session's are counted apart: the agent's cookie socket still connects.
      sockets.push(await openAckedSocket(gw.url, demo.cookieHeader));
      sockets[0].ws.close();
      await sockets[0].closed;
      sockets.push(await connectOnceFree(() => openSocket(gw.url), init));
      figure('sockets per token', `${WS_LIMITS.socketsPerToken} accepted, the ${WS_LIMITS.socketsPerToken + 1}st closed with ${TOO_MANY_SOCKETS_CODE}`);
    } finally {
      for (const x of sockets) x.ws.close();
    }
  });
});

describe.skipIf(testDatabaseMode() !== 'postgres' || process.env.FULCRUM_TEST_REDIS !== '1')('sockets counted across two gateways (Redis)', () => {
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    const sessionSecret = randomBytes(32).toString('base64url');
    a = await startTestGateway({ sessionSecret });
    b = await startTestGateway({ sessionSecret, databaseUrl: a.options.databaseUrl, dataDir: mkdtempSync(join(tmpdir(), 'fulcrum-test-')) });
  });
  afterAll(async () => {
    await b?.destroy();
    await a?.destroy();
  });

  it(`one session's ${WS_LIMITS.socketsPerSession} sockets may be spread over both gateways; the next, on either, is closed with ${TOO_MANY_SOCKETS_CODE}`, async () => {
    const onA = await a.as(0);
    const onB = carry(onA, b);
    const sockets: RawSocket[] = [];
    try {
      for (let i = 0; i < WS_LIMITS.socketsPerSession; i++) sockets.push(await openAckedSocket((i % 2 ? b : a).url, (i % 2 ? onB : onA).cookieHeader));
      for (const [g, c] of [
        [a, onA],
        [b, onB],
      ] as const) {
        expect(await connect(openSocket(g.url, { cookie: c.cookieHeader }))).toMatchObject({ acked: false, code: TOO_MANY_SOCKETS_CODE });
      }
      // A socket closed on A frees a place for B.
      sockets[0].ws.close();
      await sockets[0].closed;
      sockets.push(await connectOnceFree(() => openSocket(b.url, { cookie: onB.cookieHeader })));
      figure(
        'sockets per session, two gateways',
        `${WS_LIMITS.socketsPerSession} accepted over A and B, the next closed with ${TOO_MANY_SOCKETS_CODE} on both`,
      );
    } finally {
      for (const s of sockets) s.ws.close();
    }
  });

  it(`one token's ${WS_LIMITS.socketsPerToken} sockets are counted over both gateways`, async () => {
    const { secret } = await createToken(await a.as(1), { scopes: ['READ'] });
    const init = { authorization: `Bearer ${secret}` };
    const sockets: RawSocket[] = [];
    try {
      for (let i = 0; i < WS_LIMITS.socketsPerToken; i++) {
        const s = openSocket((i % 2 ? b : a).url);
        sockets.push(s);
        expect(await connect(s, init)).toEqual({ acked: true });
      }
      for (const g of [a, b]) expect(await connect(openSocket(g.url), init)).toMatchObject({ acked: false, code: TOO_MANY_SOCKETS_CODE });
    } finally {
      for (const s of sockets) s.ws.close();
    }
  });
});
