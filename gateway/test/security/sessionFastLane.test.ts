/**
 * The sessions' fast lane (session/sessions.ts): a request whose cookie names a session the gateway holds
 * in memory is served without express-session. It must answer exactly as express-session would: the same rolling
 * cookie, the session renewed, a sign-in or sign-out on such a request handled by express-session (a new id, the
 * old one destroyed), and a cookie that is not the one the gateway signed never let in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEMO_ACCOUNTS, Session } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { openAckedSocket } from '../../src/testing/wsClient.js';
import { SESSION_IDLE_MS } from '../../src/session/sessions.js';

const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { id } }';
const sessionCookie = (headers: Headers) => headers.getSetCookie().find((line) => line.startsWith('fulcrum.sid='));
const withoutExpiry = (cookie: string | undefined) => cookie?.replace(/;\s*Expires=[^;]+/i, '');
const sidOf = (client: TestClient) =>
  decodeURIComponent(/fulcrum\.sid=([^;]+)/.exec(client.cookieHeader)![1])
    .slice(2)
    .split('.')[0];

describe("the sessions' fast lane", () => {
  let gw: TestGateway;
  beforeAll(async () => void (gw = await startTestGateway()));
  afterAll(() => gw.destroy());

  /** Signed in, with the session read once, so the gateway holds it in memory: the next request takes the fast lane. */
  async function warm(index: 0 | 1 | 2): Promise<TestClient> {
    const client = await gw.as(index);
    expect((await client.get('/api/auth/')).status).toBe(200);
    return client;
  }

  it('sends the rolling cookie express-session sends, with the same value and a renewed expiry', async () => {
    const client = await warm(0);
    gw.sessions.store.forgetAll();
    // Not in memory: express-session answers (and the session is read into memory again).
    const slow = sessionCookie((await client.get('/api/tickets/')).headers);
    const fast = await client.get('/api/tickets/');
    expect(fast.status).toBe(200);
    const rolled = sessionCookie(fast.headers);
    expect(slow).toBeDefined();
    expect(withoutExpiry(rolled)).toBe(withoutExpiry(slow));
    const expires = new Date(/;\s*Expires=([^;]+)/i.exec(rolled!)![1]).getTime();
    expect(Math.abs(expires - Date.now() - SESSION_IDLE_MS)).toBeLessThan(60_000);
    // GraphQL takes the same lane.
    const gql = await client.gql('{ me { username } }');
    expect(gql.data?.me.username).toBe('Demo');
    expect(withoutExpiry(sessionCookie(gql.headers))).toBe(withoutExpiry(slow));
  });

  it('over https a Secure gateway rolls a Secure cookie, and none over plain http', async () => {
    const https = await startTestGateway({ secureCookies: true, trustProxy: 1 });
    try {
      const client = https.client();
      const login = await client.rest(
        'POST',
        '/api/auth/login',
        { email: DEMO_ACCOUNTS[0].email, password: DEMO_ACCOUNTS[0].password },
        { 'x-forwarded-proto': 'https' },
      );
      expect(login.status).toBe(200);
      client.setCookieHeader(`fulcrum.sid=${/fulcrum\.sid=([^;]+)/.exec(sessionCookie(login.headers)!)![1]}`);
      expect((await client.get('/api/auth/', { 'x-forwarded-proto': 'https' })).status).toBe(200);
      const fast = await client.get('/api/auth/', { 'x-forwarded-proto': 'https' });
      expect(fast.status).toBe(200);
      expect(sessionCookie(fast.headers)).toMatch(/;\s*Secure/i);
      const plain = await client.get('/api/auth/');
      expect(plain.status).toBe(200);
      expect(sessionCookie(plain.headers)).toBeUndefined();
    } finally {
      await https.destroy();
    }
  });

  it('renews the stored expiry of a session in use', async () => {
    const client = await warm(1);
    const sid = sidOf(client);
    const soon = new Date(Date.now() + 60 * 60 * 1000);
    await gw.orm.em.fork().nativeUpdate(Session, { sid }, { expiresAt: soon });
    gw.sessions.store.forgetAll();
    expect((await client.get('/api/auth/')).status).toBe(200); // read back with its near expiry
    expect((await client.get('/api/auth/')).status).toBe(200); // the fast lane: renewed
    await expect
      .poll(async () => (await gw.orm.em.fork().findOneOrFail(Session, { sid })).expiresAt.getTime(), { timeout: 5000 })
      .toBeGreaterThan(Date.now() + SESSION_IDLE_MS - 60_000);
  });

  for (const via of ['rest', 'graphql'] as const) {
    it(`a sign-in on a fast request (${via}) issues a new session id and ends the old one`, async () => {
      const client = await warm(2);
      const old = client.cookieHeader;
      const socket = await openAckedSocket(gw.url, old);
      if (via === 'rest')
        expect((await client.post('/api/auth/login', { email: DEMO_ACCOUNTS[1].email, password: DEMO_ACCOUNTS[1].password })).status).toBe(200);
      else expect((await client.gql(LOGIN, { email: DEMO_ACCOUNTS[1].email, password: DEMO_ACCOUNTS[1].password })).data?.login).toBeTruthy();
      expect(client.cookieHeader).not.toBe(old);
      expect((await client.get('/api/auth/')).body.username).toBe('Marnie');
      expect((await socket.closed).code).toBe(4401);
      const replay = gw.client();
      replay.setCookieHeader(old);
      expect((await replay.get('/api/auth/')).status).toBe(401);
      expect((await replay.gql('{ me { id } }')).data?.me).toBeNull();
    });

    it(`a sign-out on a fast request (${via}) clears the cookie and ends the session`, async () => {
      const client = await warm(0);
      const old = client.cookieHeader;
      const answer = via === 'rest' ? await client.get('/api/auth/logout') : await client.gql('mutation { logout }');
      expect(answer.status).toBe(200);
      const cookies = answer.headers.getSetCookie().filter((line) => line.startsWith('fulcrum.sid='));
      // One header for the cookie, the one that clears it: no rolled copy of the ended session beside it.
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatch(/Expires=Thu, 01 Jan 1970/);
      const replay = gw.client();
      replay.setCookieHeader(old);
      expect((await replay.get('/api/tickets/')).status).toBe(401);
    });
  }

  it('lets in no cookie but the one it signed: any change to it is refused, and the real one still works', async () => {
    const client = await warm(1);
    const real = decodeURIComponent(/fulcrum\.sid=([^;]+)/.exec(client.cookieHeader)![1]);
    const stranger = gw.client();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          // One character of the signed value changed, dropped or added.
          fc
            .tuple(fc.nat({ max: real.length - 1 }), fc.string({ minLength: 0, maxLength: 2 }))
            .map(([at, put]) => real.slice(0, at) + put + real.slice(at + 1)),
          // The session id with another signature, or none.
          fc.string({ maxLength: 44 }).map((tail) => `${real.split('.')[0]}.${tail}`),
          fc.constant(real.split('.')[0]),
          fc.string({ unit: 'binary', maxLength: 80 }),
        ),
        async (value) => {
          fc.pre(value !== real);
          stranger.setCookieHeader(`fulcrum.sid=${encodeURIComponent(value)}`);
          const answer = await stranger.get('/api/auth/');
          expect(answer.status).toBe(401);
          expect((await client.get('/api/auth/')).status).toBe(200);
        },
      ),
      { numRuns: 150 },
    );
  });
});
