/**
 * The cost model, the token budget and the token guess budget in the bundle `npm start` runs (gateway/dist), where
 * every operation was once priced 0: the 2,000-point limit never applied, tokens paid 1 point a request and
 * `report` never its 100. The gateway runs with Redis (on SQLite too) so a fault can be planted in the budget's real
 * store: a budget that cannot be read refuses the operation (fails closed) instead of letting it through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { apiTokens } from '@fulcrum/schema';
import type { TestClient } from '../../src/testing/client.js';
import { REDIS_URL } from '../../src/testing/harness.js';
import { figure } from '../../src/testing/measure.js';
import { openSocket } from '../../src/testing/wsClient.js';
import { MAX_OPERATION_COST, MAX_PRICED_FIELDS } from '../../src/graphql/cost.js';
import { DEFAULT_TOKEN_BUDGET } from '../../src/apiTokens/budget.js';
import { REPORT_INPUT, bearerGql, createToken, startBundleGateway, type BundleGateway } from './support.js';

let gw: BundleGateway;
let demo: TestClient;
let redis: Redis;
beforeAll(async () => {
  gw = await startBundleGateway({ REDIS_URL });
  demo = await gw.as(0);
  redis = new Redis(REDIS_URL);
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await gw?.destroy();
});

const requested = (r: object) => (r as { extensions?: { cost?: { requested?: number } } }).extensions?.cost?.requested;
const remaining = (r: { headers: Headers }) => Number(r.headers.get('ratelimit-remaining'));

describe('the cost model in the bundle', () => {
  it('refuses an operation over 2,000 points: 30 aliased ticket pages with their timelines', async () => {
    const [pages, tickets, entries] = [30, 10, 10];
    const doc = Array.from(
      { length: pages },
      (_, i) => `t${i}: tickets(first: ${tickets}) { nodes { id timeline(first: ${entries}) { nodes { __typename } } } }`,
    );
    // Each ticket 1 point and each timeline entry 1 (the connection frames and scalars cost nothing).
    const price = pages * tickets * (1 + entries);
    expect(price).toBeGreaterThan(MAX_OPERATION_COST);
    const over = await demo.gql(`{ ${doc.join(' ')} }`);
    expect(over.status).toBe(400);
    expect(over.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(requested(over)).toBe(price);
    expect(over.data).toBeUndefined();
    // The same pages with timelines of one entry fit.
    const within = await demo.gql(`{ ${doc.join(' ').replaceAll(`timeline(first: ${entries})`, 'timeline(first: 1)')} }`);
    expect(within.errors).toBeUndefined();
    expect(requested(within)).toBe(pages * tickets * 2);
    figure('bundle cost limit', `30 pages of 10 tickets with 10 timeline entries: ${price} points, refused; with 1 entry: ${pages * tickets * 2}, answered`);
  });

  it('refuses an operation whose fragments expand past what can be priced, instead of pricing it 0', async () => {
    const spreads = (name: string) => Array.from({ length: 100 }, () => `...${name}`).join(' ');
    const doc = `query { ...A } fragment A on Query { ${spreads('B')} } fragment B on Query { ${spreads('C')} } fragment C on Query { me { id } }`;
    const r = await demo.gql(doc);
    expect(r.status).toBe(400);
    expect(r.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(r.errors?.[0].message).toContain(`more than ${MAX_PRICED_FIELDS} fields`);
  });

  it("charges a READ token report's flat 100 points, and every operation at least 1", async () => {
    const { secret } = await createToken(demo, { name: 'reports', scopes: ['READ'] });
    const first = await bearerGql(gw.url, secret, '{ me { id } }');
    expect(first.status).toBe(200);
    expect(remaining(first)).toBe(DEFAULT_TOKEN_BUDGET - 1);
    const report = await bearerGql(gw.url, secret, `{ report(input: ${REPORT_INPUT}) { totals { backlog } } }`);
    expect(report.errors).toBeUndefined();
    expect(requested(report)).toBe(100);
    expect(remaining(report)).toBe(DEFAULT_TOKEN_BUDGET - 101);
    const typename = await bearerGql(gw.url, secret, '{ __typename }');
    expect(requested(typename)).toBe(0);
    expect(remaining(typename)).toBe(DEFAULT_TOKEN_BUDGET - 102);
  });
});

describe("a token's refusals answer as docs/integrators.md says", () => {
  it("a READ token's mutation is a 403 before it runs; a field the token may not use is FORBIDDEN in a 200", async () => {
    const read = await createToken(demo, { name: 'reader', scopes: ['READ'] });
    const write = await createToken(demo, { name: 'writer only', scopes: ['WRITE'] });
    const mutation = 'mutation { createTicket(input: { title: "Not run", requesterId: 1, description: "read only" }) { id } }';
    const whole = await bearerGql(gw.url, read.secret, mutation);
    expect(whole.status).toBe(403);
    expect(whole.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(whole.data).toBeUndefined();
    for (const field of [
      'mutation { createWebhook(input: { url: "https://example.com/hook", events: [TICKET_CREATED] }) { secret } }',
      'mutation { createApiToken(input: { name: "more", scopes: [READ] }) { secret } }',
    ]) {
      const r = await bearerGql(gw.url, write.secret, field);
      expect(r.status, field).toBe(200);
      expect(r.errors?.[0].extensions?.code, field).toBe('FORBIDDEN');
    }
  });
});

describe('limits fail closed in the bundle', () => {
  it("refuses a token's operation when its budget cannot be read (a broken key in Redis), and runs nothing", async () => {
    const { secret, id } = await createToken(demo, { name: 'writer', scopes: ['WRITE'] });
    expect((await bearerGql(gw.url, secret, '{ me { id } }')).status).toBe(200);
    // The budget's key in this gateway's namespace (the database's name is part of it), made a hash: every
    // command the limiter sends it fails with WRONGTYPE.
    const [, keys] = await redis.scan(0, 'MATCH', `fulcrum:*${gw.databaseName}*:token-budget:${id}`, 'COUNT', 100_000);
    expect(keys).toHaveLength(1);
    await redis.del(keys[0]);
    await redis.hset(keys[0], 'planted', 'fault');
    try {
      const count = async () => (await demo.gql<{ tickets: { totalCount: number } }>('{ tickets(first: 1) { totalCount } }')).data!.tickets.totalCount;
      const before = await count();
      const refused = await bearerGql(gw.url, secret, 'mutation { createTicket(input: { title: "Not run", requesterId: 1, description: "refused" }) { id } }');
      expect(refused.status).toBe(503);
      expect(refused.errors?.[0].extensions?.code).toBe('INTERNAL');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.data).toBeUndefined();
      expect(refused.text).not.toMatch(/WRONGTYPE|redis|stack/i);
      expect(await count()).toBe(before);
      const logged = gw.process
        .output()
        .split('\n')
        .filter((line) => line.includes('token budget (operation refused)'));
      expect(logged).toHaveLength(1);
      expect(gw.process.output()).not.toContain(secret);
    } finally {
      await redis.del(keys[0]);
    }
    expect((await bearerGql(gw.url, secret, '{ me { id } }')).status).toBe(200);
  });
});

describe('the token guess budget in the bundle', () => {
  // Last in this file: it spends the test address's budget of unknown tokens.
  it('past 50 unknown tokens an unknown one gets 429 with Retry-After, and a valid token still works', async () => {
    const { secret } = await createToken(demo, { name: 'neighbour', scopes: ['READ'] });
    for (let i = 0; i < 50; i++) expect((await bearerGql(gw.url, apiTokens.generateSecret(), '{ me { id } }')).status).toBe(401);
    const unknown = await bearerGql(gw.url, apiTokens.generateSecret(), '{ me { id } }');
    expect(unknown.status).toBe(429);
    expect(unknown.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThan(0);
    const valid = await bearerGql(gw.url, secret, '{ me { id } }');
    expect(valid.status).toBe(200);
    expect(valid.data?.me.id).toBe(1);
    // And over websockets: the valid token's socket is acknowledged, an unknown one closed.
    const socket = openSocket(gw.url);
    socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
    expect((await socket.next('connection_ack')).type).toBe('connection_ack');
    socket.ws.close();
    const guess = openSocket(gw.url);
    guess.send({ type: 'connection_init', payload: { authorization: `Bearer ${apiTokens.generateSecret()}` } });
    expect((await guess.closed).code).toBe(4403);
  });
});
