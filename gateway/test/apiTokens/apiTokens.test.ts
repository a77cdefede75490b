/**
 * API tokens, through a real gateway on SQLite or PostgreSQL + Redis: lifecycle, hashes at rest,
 * scopes, what a token may never do, expiry, one answer for every bad token, the bearer deciding alone, CSRF for
 * cookie requests only, guessing limits, websockets. The properties (fast-check on the input and the Authorization
 * header) are in apiTokenProperties.test.ts; the shared gateway is tokenGateway.ts.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiToken, apiTokens, forkEm, rules } from '@fulcrum/schema';
import { startTestGateway } from '../../src/testing/harness.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { openSocket, type RawSocket } from '../../src/testing/wsClient.js';
import { figure } from '../../src/testing/measure.js';
import { bearerGql, createToken, CREATE_TOKEN, REVOKE_TOKEN } from './support.js';
import { closeTokenGateway, codeOf, demo, gw, marnie, openTokenGateway, rows } from './tokenGateway.js';

beforeAll(openTokenGateway);
afterAll(closeTokenGateway);

const DAY = 24 * 60 * 60 * 1000;

/** A socket that authenticates with a bearer token in connectionParams (and optionally a cookie). */
async function bearerSocket(secret: string, cookie?: string): Promise<RawSocket> {
  const socket = openSocket(gw.url, { cookie });
  socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
  await Promise.race([socket.next('connection_ack'), socket.closed.then((c) => Promise.reject(new Error(`closed ${c.code} ${c.reason}`)))]);
  return socket;
}

describe('token lifecycle', () => {
  it('creates a token shown once, lists it without the secret, authenticates with it, and refuses it once revoked', async () => {
    const created = await createToken(demo, { name: '  Nightly export ', scopes: ['READ'] });
    expect(created.secret).toMatch(apiTokens.SECRET_PATTERN);
    expect(apiTokens.isWellFormedSecret(created.secret)).toBe(true);
    expect(created.token).toMatchObject({ name: 'Nightly export', scopes: ['READ'], hint: created.secret.slice(-4), lastUsedAt: null, revokedAt: null });
    const lifetime = new Date(created.token.expiresAt).getTime() - new Date(created.token.createdAt).getTime();
    expect(lifetime).toBe(90 * DAY);

    const listed = await demo.gql('{ apiTokens { id name scopes hint lastUsedAt } }');
    expect(listed.data?.apiTokens[0]).toMatchObject({ id: created.id, name: 'Nightly export', hint: created.secret.slice(-4) });
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(12, 40));
    // Another agent does not see it.
    expect((await marnie.gql('{ apiTokens { id } }')).data?.apiTokens.map((t: { id: number }) => t.id)).not.toContain(created.id);

    const used = await bearerGql(gw.url, created.secret, '{ me { id username } tickets(first: 5) { totalCount nodes { id } } }');
    expect(used.status).toBe(200);
    expect(used.data?.me).toEqual({ id: 1, username: 'Demo' });
    expect(used.data?.tickets.totalCount).toBeGreaterThan(0);
    expect(used.headers.get('set-cookie')).toBeNull();

    const revoked = await demo.gql(REVOKE_TOKEN, { id: created.id });
    expect(revoked.data?.revokeApiToken.revokedAt).toBeTruthy();
    const after = await bearerGql(gw.url, created.secret, '{ me { id } }');
    expect(after.status).toBe(401);
    expect(codeOf(after)).toBe('UNAUTHENTICATED');
    expect(after.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await demo.gql('{ apiTokens { id } }')).data?.apiTokens.map((t: { id: number }) => t.id)).not.toContain(created.id);
    // Revoking again is harmless; someone else's token is not found.
    expect((await demo.gql(REVOKE_TOKEN, { id: created.id })).data?.revokeApiToken.id).toBe(created.id);
    const other = await createToken(marnie);
    expect(codeOf(await demo.gql(REVOKE_TOKEN, { id: other.id }))).toBe('NOT_FOUND');
    expect((await bearerGql(gw.url, other.secret, '{ me { id } }')).data?.me.id).toBe(2);
  });

  it('keeps only a SHA-256 of the secret at rest', async () => {
    const { secret, id } = await createToken(demo, { name: 'at rest' });
    const [row] = await rows(`where id = ${id}`);
    expect(row.token_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(row.hint).toBe(secret.slice(-4));
    const everything = JSON.stringify(await rows());
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(secret.slice(12, 44));
    figure(
      'token at rest',
      `api_tokens row holds token_hash (sha256 hex, ${String(row.token_hash).length} chars) and hint "${String(row.hint)}"; the secret appears in no column`,
    );
  });

  it('writes lastUsedAt at most once a minute', async () => {
    const { secret, id } = await createToken(demo, { name: 'last used' });
    const lastUsed = async () => (await demo.gql('{ apiTokens { id lastUsedAt } }')).data?.apiTokens.find((t: { id: number }) => t.id === id).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await bearerGql(gw.url, secret, '{ me { id } }');
    const first = await lastUsed();
    expect(first).toBeTruthy();
    for (let i = 0; i < 5; i++) await bearerGql(gw.url, secret, '{ me { id } }');
    expect(await lastUsed()).toBe(first);
    // A minute later (moved back in the database), the next request writes it again.
    await forkEm(gw.orm).nativeUpdate(ApiToken, { id }, { lastUsedAt: new Date(Date.now() - 2 * 60_000) });
    await bearerGql(gw.url, secret, '{ me { id } }');
    expect(new Date(await lastUsed()).getTime()).toBeGreaterThan(Date.now() - 10_000);
  });
});

describe('scopes and what a token may never do', () => {
  it('READ reads and subscribes but cannot mutate; WRITE mutates', async () => {
    const read = await createToken(demo, { scopes: ['READ'] });
    const write = await createToken(demo, { scopes: ['WRITE'] });
    expect(write.token.scopes).toEqual(['READ', 'WRITE']);
    const mutation = 'mutation($input: MacroInput!) { createMacro(input: $input) { id name } }';
    const before = (await demo.get('/api/macro/')).body.length;
    const refused = await bearerGql(gw.url, read.secret, mutation, { input: { name: 'By READ', description: 'x' } });
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('FORBIDDEN');
    expect(refused.errors?.[0].message).toMatch(/WRITE/);
    expect((await demo.get('/api/macro/')).body.length).toBe(before);
    const done = await bearerGql(gw.url, write.secret, mutation, { input: { name: 'By WRITE', description: 'x' } });
    expect(done.data?.createMacro.name).toBe('By WRITE');
    expect((await bearerGql(gw.url, read.secret, '{ macros { nodes { id } } }')).status).toBe(200);
  });

  it('a token cannot manage tokens, sign in, sign up or sign out, whatever its scopes', async () => {
    const { secret, id } = await createToken(demo, { scopes: ['READ', 'WRITE'] });
    const attempts = [
      ['{ apiTokens { id } }', {}],
      [CREATE_TOKEN, { input: { name: 'minted by a token', scopes: ['WRITE'] } }],
      [REVOKE_TOKEN, { id }],
      ['mutation { login(email: "demo@fulcrum.app", password: "fulcrum-demo") { id } }', {}],
      ['mutation { signup(input: { email: "tok@x.test", username: "tokenuser", password: "secret-pw" }) { id } }', {}],
      ['mutation { logout }', {}],
    ] as const;
    for (const [query, variables] of attempts) {
      const r = await bearerGql(gw.url, secret, query, variables);
      expect(codeOf(r), query).toBe('FORBIDDEN');
    }
    expect((await rows(`where name = 'minted by a token'`)).length).toBe(0);
    expect((await bearerGql(gw.url, secret, '{ me { id } }')).data?.me.id).toBe(1);
  });
});

describe('expiry and one answer for every bad token', () => {
  it('validates the input with the shared messages; 1 to 366 days', async () => {
    const bad = async (input: Record<string, unknown>) => (await demo.gql(CREATE_TOKEN, { input })).errors?.[0].extensions;
    expect((await bad({ name: '', scopes: ['READ'] }))?.fields).toEqual({ name: [rules.API_TOKEN_MESSAGES.name] });
    expect((await bad({ name: 'x'.repeat(51), scopes: ['READ'] }))?.fields).toEqual({ name: [rules.API_TOKEN_MESSAGES.name] });
    expect((await bad({ name: 'ok', scopes: [] }))?.fields).toEqual({ scopes: [rules.API_TOKEN_MESSAGES.scopes] });
    for (const days of [0, 367, -1])
      expect((await bad({ name: 'ok', scopes: ['READ'], expiresInDays: days }))?.fields).toEqual({ expiresInDays: [rules.API_TOKEN_MESSAGES.expiresInDays] });
    const longest = await createToken(demo, { expiresInDays: 366 });
    expect(new Date(longest.token.expiresAt).getTime() - new Date(longest.token.createdAt).getTime()).toBe(366 * DAY);
    const shortest = await createToken(demo, { expiresInDays: 1 });
    expect(new Date(shortest.token.expiresAt).getTime() - new Date(shortest.token.createdAt).getTime()).toBe(DAY);
  });

  it('unknown, malformed, expired and revoked tokens get the same 401', async () => {
    const expired = await createToken(demo, { name: 'expires' });
    expect((await bearerGql(gw.url, expired.secret, '{ me { id } }')).status).toBe(200);
    await forkEm(gw.orm).nativeUpdate(ApiToken, { id: expired.id }, { expiresAt: new Date(Date.now() - 1000) });
    const revoked = await createToken(demo, { name: 'revoked' });
    await demo.gql(REVOKE_TOKEN, { id: revoked.id });
    const unknown = apiTokens.generateSecret();
    const badChecksum = expired.secret.slice(0, -1) + (expired.secret.endsWith('0') ? '1' : '0');
    const answers = await Promise.all(
      [expired.secret, revoked.secret, unknown, badChecksum, 'fulcrum_pat_short'].map((s) => bearerGql(gw.url, s, '{ me { id } }')),
    );
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(a.text).toBe(answers[0].text);
    }
    expect(answers[0].errors?.[0]).toEqual({ message: 'The API token is invalid, expired or revoked.', extensions: { code: 'UNAUTHENTICATED' } });
    // The expired token's open socket is refused too.
    const s = openSocket(gw.url);
    s.send({ type: 'connection_init', payload: { authorization: `Bearer ${expired.secret}` } });
    expect((await s.closed).code).toBe(4403);
    // A header that is not "Bearer <token>" is a 401 as well, asking for the right form.
    for (const header of ['Basic ZGVtbzpkZW1v', 'Bearer', 'Bearer a b', 'token abc']) {
      const r = await bearerGql(gw.url, null, '{ me { id } }', {}, { authorization: header });
      expect(r.status, header).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer error="invalid_request"');
    }
    figure('bad tokens', `${answers.length} kinds (expired, revoked, unknown, bad checksum, malformed) answered byte-identical 401s`);
  });
});

describe('the bearer decides alone; CSRF stays for cookies', () => {
  it('with a bearer and a cookie, the bearer decides, and the session is neither read nor renewed', async () => {
    const marnies = await createToken(marnie);
    const both = await bearerGql(gw.url, marnies.secret, '{ me { id } }', {}, { cookie: demo.cookieHeader });
    expect(both.data?.me.id).toBe(2);
    expect(both.headers.get('set-cookie')).toBeNull();
    const badBearer = await bearerGql(gw.url, apiTokens.generateSecret(), '{ me { id } }', {}, { cookie: demo.cookieHeader });
    expect(badBearer.status).toBe(401);
    // A token never logs out the session it travels with.
    await bearerGql(gw.url, marnies.secret, 'mutation { logout }', {}, { cookie: demo.cookieHeader });
    expect((await demo.gql('{ me { id } }')).data?.me.id).toBe(1);
    // Over websockets too: the bearer in connectionParams decides, not the cookie.
    const socket = await bearerSocket(marnies.secret, demo.cookieHeader);
    socket.send({ id: 'm', type: 'subscribe', payload: { query: 'subscription { messageEvents { kind senderId receiverId } }' } });
    await new Promise((r) => setTimeout(r, 200));
    await demo.post('/api/messages/create/too/2', { message: 'to Marnie' });
    expect((await socket.next('next')).payload.data.messageEvents).toMatchObject({ kind: 'CREATED', senderId: 1, receiverId: 2 });
    socket.ws.close();
  });

  it('only the exact path /graphql serves GraphQL: a case variant never answers with the cookie beside a bearer', async () => {
    const marnies = await createToken(marnie);
    for (const path of ['/GraphQL', '/GRAPHQL', '/Graphql/', '/graphQL?x=1', '/%67raphql', '/GraphQL/%2e']) {
      const res = await fetch(`${gw.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${marnies.secret}`, cookie: demo.cookieHeader },
        body: JSON.stringify({ query: '{ me { id username } }' }),
      });
      const text = await res.text();
      expect(res.status, `${path}: ${text}`).toBe(404);
      expect(text).not.toMatch(/"me"|Demo|Marnie/);
    }
    // The exact path with both: the bearer's agent.
    expect((await bearerGql(gw.url, marnies.secret, '{ me { id } }', {}, { cookie: demo.cookieHeader })).data?.me.id).toBe(2);
  });

  it('cookie requests keep CSRF prevention; bearer requests are exempt', async () => {
    const { secret } = await createToken(demo, { scopes: ['WRITE'] });
    const get = (headers: Record<string, string>) => fetch(`${gw.url}/graphql?query=${encodeURIComponent('{ me { id } }')}`, { headers });
    const cookieGet = await get({ cookie: demo.cookieHeader });
    expect(cookieGet.status).toBe(400);
    expect(await cookieGet.text()).toMatch(/Cross-Site Request Forgery/);
    const bearerGet = await get({ authorization: `Bearer ${secret}` });
    expect(bearerGet.status).toBe(200);
    expect(((await bearerGet.json()) as { data: { me: { id: number } } }).data.me.id).toBe(1);
    // A multipart upload (a "simple" request a form could send): refused with only a cookie, served with a bearer.
    const upload = (headers: Record<string, string>) => {
      const form = new FormData();
      form.append(
        'operations',
        JSON.stringify({
          query: 'mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
          variables: { input: { title: 'By token', requesterId: 1, description: 'Uploaded by a token.' }, image: null },
        }),
      );
      form.append('map', JSON.stringify({ 0: ['variables.image'] }));
      form.append('0', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
      return fetch(`${gw.url}/graphql`, { method: 'POST', headers, body: form });
    };
    const cookieUpload = await upload({ cookie: demo.cookieHeader });
    expect(cookieUpload.status).toBe(400);
    expect(await cookieUpload.text()).toMatch(/Cross-Site Request Forgery/);
    const bearerUpload = await upload({ authorization: `Bearer ${secret}` });
    expect(bearerUpload.status).toBe(200);
    expect(((await bearerUpload.json()) as { data: { createTicket: { id: number } } }).data.createTicket.id).toBeGreaterThan(0);
  });

  it('/api ignores Authorization: the REST contract stays cookie-only', async () => {
    const { secret } = await createToken(demo);
    const bearerOnly = await fetch(`${gw.url}/api/tickets/`, { headers: { authorization: `Bearer ${secret}` } });
    expect(bearerOnly.status).toBe(401);
    const withCookie = await demo.get('/api/tickets/', { authorization: 'Bearer not-a-token' });
    expect(withCookie.status).toBe(200);
  });
});

describe('limits', () => {
  it('guessing is rate-limited per client address, like logins; a valid token is never refused by it', async () => {
    const limited = await startTestGateway({
      authLimits: { loginFailuresPerAccount: 1000, loginFailuresPerIp: 1000, signupsPerIp: 1000, tokenFailuresPerIp: 5, windowSeconds: 60 },
    });
    try {
      const { secret } = await createToken(await limited.as(0));
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await bearerGql(limited.url, apiTokens.generateSecret(), '{ me { id } }')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      const blocked = await bearerGql(limited.url, apiTokens.generateSecret(), '{ me { id } }');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(codeOf(blocked)).toBe('RATE_LIMITED');
      // The valid token from the same address: looked up first, answered, over HTTP and websockets.
      const valid = await bearerGql(limited.url, secret, '{ me { id } }');
      expect(valid.status).toBe(200);
      expect(valid.data?.me.id).toBe(1);
      const s = openSocket(limited.url);
      s.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
      expect((await s.next('connection_ack')).type).toBe('connection_ack');
      s.ws.close();
      const guess = openSocket(limited.url);
      guess.send({ type: 'connection_init', payload: { authorization: `Bearer ${apiTokens.generateSecret()}` } });
      expect((await guess.closed).code).toBe(4403);
      figure('token guessing', '5 bad tokens answered 401, the 6th 429 with Retry-After; the valid token answered 200 and its socket acknowledged');
    } finally {
      await limited.destroy();
    }
  });

  it('every bearer response carries the cost and RateLimit headers; past the budget, 429 with Retry-After', async () => {
    const small = await startTestGateway({ tokenBudget: 300 });
    try {
      const session = await small.as(0);
      const { secret } = await createToken(session);
      const query = '{ tickets(first: 50) { nodes { id requester { name } } } }'; // 50 × (1 ticket + 1 requester) = 100 points
      const first = await bearerGql(small.url, secret, query);
      expect(first.status).toBe(200);
      expect(first.extensions?.cost).toEqual({
        requested: 100,
        maxPerOperation: 2000,
        budget: { limit: 300, remaining: 200, resetSeconds: expect.any(Number) },
      });
      expect(first.headers.get('ratelimit-limit')).toBe('300');
      expect(first.headers.get('ratelimit-remaining')).toBe('200');
      expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      await bearerGql(small.url, secret, query);
      const third = await bearerGql(small.url, secret, query);
      expect(third.headers.get('ratelimit-remaining')).toBe('0');
      const over = await bearerGql(small.url, secret, query);
      expect(over.status).toBe(429);
      expect(codeOf(over)).toBe('RATE_LIMITED');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.headers.get('ratelimit-remaining')).toBe('0');
      expect(over.data).toBeUndefined();
      // Even a refused document (a syntax error) carries the headers; a session has no budget at all.
      const broken = await bearerGql(small.url, secret, '{ me { id }');
      expect(broken.headers.get('ratelimit-limit')).toBe('300');
      for (let i = 0; i < 5; i++) expect((await session.gql(query)).status).toBe(200);
      const viaSession = await session.gql(query);
      expect(viaSession.headers.get('ratelimit-limit')).toBeNull();
      expect((viaSession as unknown as { extensions: { cost: unknown } }).extensions.cost).toEqual({ requested: 100, maxPerOperation: 2000 });
      // A subscription is priced when it starts, from the same budget.
      const s = openSocket(small.url);
      s.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
      await s.next('connection_ack');
      s.send({ id: 't', type: 'subscribe', payload: { query: 'subscription { ticketEvents { id } }' } });
      expect(JSON.stringify((await s.next('error')).payload)).toMatch(/RATE_LIMITED|budget/);
      s.ws.close();
      figure(
        'token budget',
        `budget 300/min: three 100-point queries answered 200 (RateLimit-Remaining 200, 100, 0), the fourth 429 with Retry-After ${over.headers.get('retry-after')} s; sessions unlimited`,
      );
    } finally {
      await small.destroy();
    }
  });
});

describe('websockets', () => {
  // Closed by the revocation's event: this gateway's periodic check runs once a minute, past the test's timeout.
  it('a READ token subscribes with connectionParams; revoking it closes the socket', async () => {
    const { secret, id } = await createToken(demo, { scopes: ['READ'] });
    const socket = await bearerSocket(secret);
    socket.send({ id: 't', type: 'subscribe', payload: { query: 'subscription { ticketEvents { kind id ticket { title } } }' } });
    await new Promise((r) => setTimeout(r, 200));
    const created = (await demo.post('/api/tickets/create', { ...validTicket(1), title: 'Seen by token' })).body;
    expect((await socket.next('next')).payload.data.ticketEvents).toMatchObject({ kind: 'CREATED', id: created.id, ticket: { title: 'Seen by token' } });
    const startedAt = performance.now();
    await demo.gql(REVOKE_TOKEN, { id });
    const closed = await socket.closed;
    const ms = performance.now() - startedAt;
    expect(closed.code).toBe(4401);
    figure('revocation (one gateway)', `socket closed 4401 ${Math.round(ms)} ms after revokeApiToken`);
  });
});

describe('a token never outlives its agent or its expiry', () => {
  it('deleting the agent deletes their tokens: the next request is a 401', async () => {
    const signup = await gw.client().post('/api/auth/signup', { email: 'short-lived@x.test', username: 'shortlived', password: 'secret-pw' });
    expect(signup.status).toBe(200);
    const agent = gw.client();
    await agent.login('short-lived@x.test', 'secret-pw');
    const { secret, id } = await createToken(agent);
    expect((await bearerGql(gw.url, secret, '{ me { username } }')).data?.me.username).toBe('shortlived');
    await forkEm(gw.orm).getConnection().execute(`delete from users where id = ${signup.body.id}`);
    expect(await rows(`where id = ${id}`)).toEqual([]);
    expect((await bearerGql(gw.url, secret, '{ me { id } }')).status).toBe(401);
  });

  it('an open socket closes when its token expires (the periodic check)', async () => {
    const quick = await startTestGateway({ sessionRecheckMs: 200 });
    try {
      const { secret, id } = await createToken(await quick.as(0));
      const socket = openSocket(quick.url);
      socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
      await socket.next('connection_ack');
      await forkEm(quick.orm).nativeUpdate(ApiToken, { id }, { expiresAt: new Date(Date.now() - 1000) });
      expect((await socket.closed).code).toBe(4401);
    } finally {
      await quick.destroy();
    }
  });
});
