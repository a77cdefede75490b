/**
 * GraphQL and websocket limits: each limit passes at its value and refuses one past it, in the bundle `npm start`
 * runs (gateway/dist, production mode; introspection on, as in development, except in the production check). The
 * bundle, not the sources: it once priced every operation 0 while the sources priced correctly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lexer, Source, TokenKind, buildSchema, parse, specifiedRules, validate } from 'graphql';
import type { TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';
import { GRAPHQL_LIMITS, createArmor } from '../../src/graphql/armor.js';
import { WS_INIT_TIMEOUT_MS, WS_MAX_PAYLOAD } from '../../src/graphql/websockets.js';
import { figure, sleep } from '../../src/testing/measure.js';
import { openAckedSocket, openSocket, subscribeFrameOfSize as frame } from '../../src/testing/wsClient.js';
import { startBundleGateway, type BundleGateway } from '../apiTokens/support.js';

let gw: BundleGateway;
let demo: TestClient;
beforeAll(async () => {
  gw = await startBundleGateway({ FULCRUM_INTROSPECTION: '1' });
  demo = await gw.as(0);
}, 120_000);
afterAll(() => gw?.destroy());

const tokens = (q: string) => {
  const lexer = new Lexer(new Source(q));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
};
const messages = (r: { errors?: { message: string }[] }) => (r.errors ?? []).map((e) => e.message).join(' | ');

describe('GraphQL query limits over HTTP', () => {
  it('aliases: 30 pass, 31 are refused', async () => {
    const q = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { id }`).join(' ')} }`;
    const ok = await demo.gql(q(GRAPHQL_LIMITS.maxAliases));
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.data!)).toHaveLength(GRAPHQL_LIMITS.maxAliases);
    const over = await demo.gql(q(GRAPHQL_LIMITS.maxAliases + 1));
    expect(over.status).toBe(400);
    expect(messages(over)).toContain(`Aliases limit of ${GRAPHQL_LIMITS.maxAliases} exceeded, found ${GRAPHQL_LIMITS.maxAliases + 1}`);
  });

  it('directives: 20 pass, 21 are refused', async () => {
    const q = (n: number) => `{ me { ${'... @include(if: true) { id } '.repeat(n)}} }`;
    const ok = await demo.gql(q(GRAPHQL_LIMITS.maxDirectives));
    expect(ok.data?.me.id).toBe(1);
    const over = await demo.gql(q(GRAPHQL_LIMITS.maxDirectives + 1));
    expect(over.status).toBe(400);
    expect(messages(over)).toContain(`Directives limit of ${GRAPHQL_LIMITS.maxDirectives} exceeded, found ${GRAPHQL_LIMITS.maxDirectives + 1}`);
  });

  it('tokens: a 2,000-token query passes, 2,001 is a 400 parse error (never a 500)', async () => {
    const unit =
      'tickets(first: 1) { totalCount pageInfo { endCursor hasNextPage } nodes { id title type priority description assigneeId requesterId macroId createdAt updatedAt image { id ticketId mimeType byteSize width height url } assignee { id username email } requester { id name email ownerId owner { id username email } } macro { id name description ownerId owner { id username email } } } }';
    // 27 aliased one-ticket dashboards, then root __typename selections (one token each) up to exactly the limit.
    const body = Array.from({ length: 27 }, (_, i) => `a${i}: ${unit}`).join(' ');
    const build = (n: number) => `{ ${body} me { id }${' __typename'.repeat(n)} }`;
    const padding = GRAPHQL_LIMITS.maxTokens - tokens(build(0));
    expect(padding).toBeGreaterThanOrEqual(0);
    const at = build(padding);
    expect(tokens(at)).toBe(GRAPHQL_LIMITS.maxTokens);
    const ok = await demo.gql(at);
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.a26.nodes.length).toBeGreaterThan(0);
    const past = build(padding + 1);
    expect(tokens(past)).toBe(GRAPHQL_LIMITS.maxTokens + 1);
    const over = await demo.gql(past);
    expect(over.status).toBe(400);
    expect(over.errors?.[0].extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(messages(over)).toMatch(/more th\w+ 2000 tokens/);
  });

  it('depth: the configured rule passes at the limit and refuses past it', async () => {
    // The product schema has no cycles (its deepest query is 5 levels), so the boundary is shown on a schema with
    // a cycle, through the very rules the gateway installs. The cost limit is the published cost model's
    // (graphql/cost.ts), checked at N and N + 1 on the real schema by apiTokens/publishedLimits.test.ts.
    const fields = Array.from({ length: 3000 }, (_, i) => `f${i}: Int`).join(' ');
    const schema = buildSchema(`type Query { node: Node } type Node { child: Node ${fields} }`);
    const rules = [...specifiedRules, ...createArmor(true).validationRules];
    const chain = (depth: number, leaf = 'f0') => `{ ${'node { '}${'child { '.repeat(depth - 2)}${leaf}${' }'.repeat(depth - 1)} }`;
    expect(validate(schema, parse(chain(GRAPHQL_LIMITS.maxDepth)), rules)).toEqual([]);
    const deep = validate(schema, parse(chain(GRAPHQL_LIMITS.maxDepth + 1)), rules).map((e) => e.message);
    expect(deep.join()).toContain(`Query depth limit of ${GRAPHQL_LIMITS.maxDepth} exceeded, found ${GRAPHQL_LIMITS.maxDepth + 1}`);
    // And over HTTP the depth rule is installed: a 9-deep document is refused with the depth error.
    const http = await demo.gql('{ tickets { nodes { requester { owner { a { b { c { d { e } } } } } } } } }');
    expect(http.status).toBe(400);
    expect(messages(http)).toContain(`Query depth limit of ${GRAPHQL_LIMITS.maxDepth} exceeded, found ${GRAPHQL_LIMITS.maxDepth + 1}`);
    figure(
      'GraphQL limits',
      `aliases 30/31, directives 20/21, tokens 2000/2001, depth ${GRAPHQL_LIMITS.maxDepth}/${GRAPHQL_LIMITS.maxDepth + 1}: pass/refused`,
    );
  });

  it('lists are bounded: a page larger than 100 (or below 1) is refused before it runs, from literals and variables', async () => {
    const c = await gw.as(2);
    for (let i = 0; i < 105; i += 15) await Promise.all(Array.from({ length: 15 }, () => c.post('/api/tickets/create', validTicket(1))));
    const r = await c.gql('{ tickets(first: 100) { totalCount nodes { id } pageInfo { hasNextPage } } }');
    expect(r.data?.tickets.totalCount).toBeGreaterThanOrEqual(105);
    expect(r.data?.tickets.nodes).toHaveLength(100);
    expect(r.data?.tickets.pageInfo.hasNextPage).toBe(true);
    for (const first of [101, 300, 100000, 0, -5]) {
      for (const over of [
        await c.gql(`{ tickets(first: ${first}) { nodes { id } } }`),
        await c.gql('query($n: Int) { tickets(first: $n) { nodes { id } } }', { n: first }),
      ]) {
        expect(over.status).toBe(400);
        expect(over.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
        expect(over.errors?.[0].extensions?.fields?.first).toBeDefined();
      }
    }
    figure(
      'list cap',
      `tickets(first: 100) answered ${r.data?.tickets.nodes.length} of ${r.data?.tickets.totalCount}; first 101, 300, 100000, 0 and -5 refused (literal and variable)`,
    );
  });

  it('batched HTTP requests are refused', async () => {
    const res = await demo.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ me { id } }' }, { query: '{ me { id } }' }]),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/batching disabled/i);
  });
});

describe('introspection and field suggestions', () => {
  it('are on in development and off in production (NODE_ENV=production), over HTTP and websockets', { timeout: 90_000 }, async () => {
    const introspect = '{ __schema { types { name } } }';
    const typo = '{ me { usernam } }';
    const dev = await demo.gql(introspect);
    expect(dev.data?.__schema.types.length).toBeGreaterThan(10);
    expect(messages(await demo.gql(typo))).toContain('Did you mean');

    const prod = await startBundleGateway();
    try {
      const c = await prod.as(0);
      const checks = [
        await c.gql(introspect),
        await c.gql('{ __type(name: "User") { fields { name } } }'),
        await c.gql('query { me { id } ... on Query { __schema { queryType { name } } } }'),
      ];
      for (const r of checks) {
        expect(r.status).toBe(400);
        expect(r.data).toBeUndefined();
        expect(messages(r)).toMatch(/introspection/i);
      }
      const t = await c.gql(typo);
      expect(t.status).toBe(400);
      expect(messages(t)).not.toMatch(/did you mean|username/i);
      const enumHint = await c.gql(
        'mutation { createMacro(input: { name: "ab", descriptio: "x" }) { id } } query Q { tickets { nodes { priority } } } query R { ticket(id: 1) { type } } mutation M { createTicket(input: { title: "x", requesterId: 1, description: "abc", priority: Urgnt }) { id } }',
      );
      expect(messages(enumHint)).toMatch(/Urgnt/);
      expect(messages(enumHint)).not.toMatch(/did you mean|"Urgent"|"description"/i);
      expect((await c.gql('{ me { id __typename } }')).data?.me).toEqual({ id: 1, __typename: 'User' });
      // The websocket transport has no Apollo in front of it: the same rules must apply there.
      const socket = await openAckedSocket(prod.url, c.cookieHeader);
      socket.send({ id: 'a', type: 'subscribe', payload: { query: 'subscription { ticketEvent { id } }' } });
      const suggestion = await socket.next('error');
      expect(JSON.stringify(suggestion.payload)).not.toMatch(/did you mean/i);
      socket.send({ id: 'b', type: 'subscribe', payload: { query: 'subscription { ticketEvents { ticket { __type: id } } __schema { types { name } } }' } });
      expect(JSON.stringify((await socket.next('error')).payload)).toMatch(/introspection|single top level field/i);
      socket.ws.close();
      figure('introspection in production', `refused ${checks.length} of ${checks.length} introspection queries; field suggestions: none`);
    } finally {
      await prod.destroy();
    }
  });
});

describe('graphql-ws', () => {
  it('closes an unauthenticated connection with 4403', async () => {
    const s = openSocket(gw.url);
    s.send({ type: 'connection_init' });
    expect((await s.closed).code).toBe(4403);
    const forged = openSocket(gw.url, { cookie: 'fulcrum.sid=s%3Aforged.signature' });
    forged.send({ type: 'connection_init' });
    expect((await forged.closed).code).toBe(4403);
  });

  it('closes a socket that never sends connection_init after the init timeout (4408)', async () => {
    const started = Date.now();
    const s = openSocket(gw.url, { cookie: demo.cookieHeader });
    const closed = await s.closed;
    const ms = Date.now() - started;
    expect(closed.code).toBe(4408);
    // Not before the limit (how soon after it is a figure, not a bound: the test's timeout is the guard).
    expect(ms).toBeGreaterThanOrEqual(WS_INIT_TIMEOUT_MS - 100);
    figure('websocket init timeout', `closed 4408 after ${ms} ms (limit ${WS_INIT_TIMEOUT_MS} ms)`);
  }, 15_000);

  it('accepts a frame at the size limit and closes one past it with 1009', async () => {
    const s = await openAckedSocket(gw.url, demo.cookieHeader);
    expect(frame(WS_MAX_PAYLOAD).length).toBe(WS_MAX_PAYLOAD);
    s.send(frame(WS_MAX_PAYLOAD));
    await sleep(300);
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    s.send(frame(WS_MAX_PAYLOAD + 1));
    expect((await s.closed).code).toBe(1009);
    figure('websocket max message', `${WS_MAX_PAYLOAD} bytes accepted, ${WS_MAX_PAYLOAD + 1} closed with 1009`);
  });

  it('checks Origin on the upgrade', async () => {
    const evil = openSocket(gw.url, { cookie: demo.cookieHeader, origin: 'https://evil.example' });
    const refused = await evil.closed;
    expect(refused.refused).toBeGreaterThanOrEqual(400);
    const host = new URL(gw.url).host;
    const same = openSocket(gw.url, { cookie: demo.cookieHeader, origin: `http://${host}` });
    same.send({ type: 'connection_init' });
    expect((await same.next('connection_ack')).type).toBe('connection_ack');
    same.ws.close();
    figure('websocket Origin check', `cross-origin upgrade answered HTTP ${refused.refused}; same-origin acknowledged`);
  });

  it('serves subscriptions only, with the same limits as HTTP', async () => {
    const s = await openAckedSocket(gw.url, demo.cookieHeader);
    s.send({ id: 'q', type: 'subscribe', payload: { query: '{ users { nodes { id email } } }' } });
    expect(JSON.stringify((await s.next('error')).payload)).toMatch(/Only subscriptions/);
    s.send({ id: 'm', type: 'subscribe', payload: { query: 'mutation { login(email: "demo@fulcrum.app", password: "x") { id } }' } });
    expect(JSON.stringify((await s.next('error')).payload)).toMatch(/Only subscriptions/);
    s.send({ id: 'd', type: 'subscribe', payload: { query: `subscription { ticketEvents { ticket { ${'... @include(if: true) { id } '.repeat(21)} } } }` } });
    expect(JSON.stringify((await s.next('error')).payload)).toMatch(/Directives limit/);
    s.send({ id: 't', type: 'subscribe', payload: { query: `subscription { ticketEvents { ${'id '.repeat(2100)} } }` } });
    expect(JSON.stringify((await s.next('error')).payload)).toMatch(/2000 tokens/);
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    s.ws.close();
  });
});
