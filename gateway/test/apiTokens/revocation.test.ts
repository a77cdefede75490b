/**
 * Revocation reaches every gateway: two gateways on one PostgreSQL database and Redis (in the PostgreSQL pass),
 * a token used on both over HTTP and websockets, revoked through the session on the first. The next request on
 * either is a 401 and both sockets close within a second. In the SQLite pass there is one gateway (the embedded
 * setup runs one), and the same test runs against it twice.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';
import { openSocket, type RawSocket } from '../../src/testing/wsClient.js';
import { figure } from '../../src/testing/measure.js';
import { bearerGql, createToken, REVOKE_TOKEN } from './support.js';

const scaleOut = testDatabaseMode() === 'postgres' && process.env.FULCRUM_TEST_REDIS === '1';

let A: TestGateway;
let B: TestGateway;
let demo: TestClient;
beforeAll(async () => {
  const sessionSecret = randomBytes(32).toString('base64url');
  A = await startTestGateway({ sessionSecret });
  B = scaleOut ? await startTestGateway({ sessionSecret, databaseUrl: A.options.databaseUrl }) : A;
  demo = await A.as(0);
});
afterAll(async () => {
  if (B !== A) await B.destroy();
  await A.destroy();
});

async function tokenSocket(url: string, secret: string): Promise<RawSocket> {
  const socket = openSocket(url);
  socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
  await socket.next('connection_ack');
  socket.send({ id: 't', type: 'subscribe', payload: { query: 'subscription { ticketEvents { kind id } }' } });
  return socket;
}

describe(scaleOut ? 'two gateways on PostgreSQL + Redis' : 'one gateway on SQLite', () => {
  it('a revoked token is refused on every gateway from the next request, and its sockets close within a second', async () => {
    const { secret, id } = await createToken(demo, { scopes: ['READ'] });
    const other = await createToken(demo, { name: 'unrelated', scopes: ['READ'] });
    for (const g of [A, B]) expect((await bearerGql(g.url, secret, '{ me { id } }')).data?.me.id).toBe(1);
    const [onA, onB, unrelated] = await Promise.all([tokenSocket(A.url, secret), tokenSocket(B.url, secret), tokenSocket(B.url, other.secret)]);
    // Both sockets are live end to end: a ticket created on A reaches the socket on B (through Redis).
    await new Promise((r) => setTimeout(r, 300));
    const ticket = (await demo.post('/api/tickets/create', validTicket(1))).body.id;
    for (const s of [onA, onB]) expect((await s.next('next')).payload.data.ticketEvents).toMatchObject({ kind: 'CREATED', id: ticket });

    const revokedAt = performance.now();
    expect((await demo.gql(REVOKE_TOKEN, { id })).data?.revokeApiToken.revokedAt).toBeTruthy();
    const [httpA, httpB] = await Promise.all([A, B].map((g) => bearerGql(g.url, secret, '{ me { id } }')));
    for (const r of [httpA, httpB]) {
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    // Closed by the revocation's event (the gateways' periodic check runs once a minute, past the test's timeout).
    const closes = await Promise.all([onA, onB].map(async (s) => ({ code: (await s.closed).code, ms: performance.now() - revokedAt })));
    for (const c of closes) expect(c.code).toBe(4401);
    // The same agent's other token, and its socket, are untouched.
    expect(unrelated.ws.readyState).toBe(unrelated.ws.OPEN);
    expect((await bearerGql(B.url, other.secret, '{ me { id } }')).status).toBe(200);
    // A new socket with the revoked token is refused on either gateway.
    for (const g of [A, B]) {
      const s = openSocket(g.url);
      s.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
      expect((await s.closed).code).toBe(4403);
    }
    unrelated.ws.close();
    figure(
      'revocation',
      `${scaleOut ? 'two gateways (PostgreSQL + Redis)' : 'one gateway (SQLite)'}: next HTTP request 401 on each; sockets closed 4401 after ${closes.map((c) => `${Math.round(c.ms)} ms`).join(' and ')}`,
    );
  });
});
