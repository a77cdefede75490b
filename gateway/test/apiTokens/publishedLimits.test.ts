/**
 * The published limits are the enforced ones: this reads the limits table of docs/integrators.md and checks every
 * row against the gateway bundle `npm start` runs (default limits), passing at N and refused at N + 1. A row
 * without a check, or a check without a row, fails the test, so the table cannot drift from the server. The bundle,
 * not the sources: it once priced every operation 0 while the sources priced correctly.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lexer, Source, TokenKind } from 'graphql';
import { apiTokens } from '@fulcrum/schema';
import type { GqlResult, TestClient } from '../../src/testing/client.js';
import { openAckedSocket, openSocket, subscribeFrameOfSize as frame, type RawSocket } from '../../src/testing/wsClient.js';
import { figure } from '../../src/testing/measure.js';
import { bearerGql, createToken, startBundleGateway, type BundleGateway } from './support.js';

const DOC = fileURLToPath(new URL('../../../docs/integrators.md', import.meta.url));

/** The rows of the table under "## Limits": name → N. */
export function publishedLimits(markdown: string): Map<string, number> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Limits'));
  if (!section) throw new Error('docs/integrators.md has no "## Limits" section');
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2);
  return new Map(
    rows.map((row) => {
      const [name, n] = row
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      if (!/^\d+$/.test(n)) throw new Error(`limit "${name}" has no whole number N: "${n}"`);
      return [name, Number(n)];
    }),
  );
}

let gw: BundleGateway;
let session: TestClient;
let secret: string;
beforeAll(async () => {
  // The defaults an installation runs with (the bundle started without FULCRUM_AUTH_LIMITS or FULCRUM_TOKEN_BUDGET).
  gw = await startBundleGateway();
  session = await gw.as(0);
  secret = (await createToken(session, { scopes: ['READ'] })).secret;
}, 120_000);
afterAll(() => gw?.destroy());

const messages = (r: { errors?: { message: string }[] }) => (r.errors ?? []).map((e) => e.message).join(' | ');
const code = (r: GqlResult) => r.errors?.[0]?.extensions?.code;
const tokenCount = (q: string) => {
  const lexer = new Lexer(new Source(q));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
};
/** `n` aliased pages of 100 tickets: 100 points each. */
const pages = (n: number) => Array.from({ length: n }, (_, i) => `p${i}: tickets(first: 100) { nodes { id } }`).join(' ');

/** Opens n + 1 sockets (with connection_init `init`): the first n are acknowledged, the last is closed with 4429. */
async function socketsUpTo(n: number, cookie: string | undefined, init: Record<string, unknown>): Promise<void> {
  const sockets: RawSocket[] = [];
  try {
    for (let i = 0; i <= n; i++) {
      const socket = openSocket(gw.url, { cookie });
      sockets.push(socket);
      socket.send({ type: 'connection_init', payload: init });
      const outcome = await Promise.race([socket.next('connection_ack').then(() => 'ack'), socket.closed.then((c) => c.code)]);
      expect(outcome).toBe(i < n ? 'ack' : 4429);
    }
  } finally {
    for (const socket of sockets) socket.ws.close();
  }
}

type Check = (n: number) => Promise<void>;
const CHECKS: Record<string, Check> = {
  'Query depth': async (n) => {
    const chain = ['tickets', 'nodes', 'requester', 'owner', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const doc = (depth: number) => `{ ${chain.slice(0, depth).join(' { ')}${' }'.repeat(depth - 1)} }`;
    // The product schema is at most 5 levels deep, so the documents past that name unknown fields: at N the depth
    // rule says nothing (only the unknown fields are refused), at N + 1 it refuses.
    expect(messages(await session.gql(doc(n)))).not.toMatch(/depth limit/i);
    const over = await session.gql(doc(n + 1));
    expect(over.status).toBe(400);
    expect(messages(over)).toContain(`Query depth limit of ${n} exceeded, found ${n + 1}`);
  },
  Aliases: async (n) => {
    const doc = (k: number) => `{ ${Array.from({ length: k }, (_, i) => `a${i}: me { id }`).join(' ')} }`;
    expect(Object.keys((await session.gql(doc(n))).data ?? {})).toHaveLength(n);
    const over = await session.gql(doc(n + 1));
    expect(over.status).toBe(400);
    expect(code(over)).toBe('GRAPHQL_VALIDATION_FAILED');
  },
  Directives: async (n) => {
    const doc = (k: number) => `{ me { ${'... @include(if: true) { id } '.repeat(k)}} }`;
    expect((await session.gql(doc(n))).data?.me.id).toBe(1);
    const over = await session.gql(doc(n + 1));
    expect(over.status).toBe(400);
    expect(code(over)).toBe('GRAPHQL_VALIDATION_FAILED');
  },
  Tokens: async (n) => {
    // Aliased one-ticket dashboards, then root __typename selections (one token each) up to exactly k tokens.
    // (graphql-js aborts validation of a selection set with a thousand identical fields, hence the dashboards.)
    const unit =
      'tickets(first: 1) { totalCount pageInfo { endCursor hasNextPage } nodes { id title type priority description assigneeId requesterId macroId createdAt updatedAt image { id ticketId mimeType byteSize width height url } assignee { id username email } requester { id name email ownerId owner { id username email } } macro { id name description ownerId owner { id username email } } } }';
    const body = Array.from({ length: 25 }, (_, i) => `a${i}: ${unit}`).join(' ');
    const doc = (k: number) => `{ ${body} me { id }${' __typename'.repeat(k - tokenCount(`{ ${body} me { id } }`))} }`;
    expect(tokenCount(doc(n))).toBe(n);
    expect((await session.gql(doc(n))).data?.me.id).toBe(1);
    const over = await session.gql(doc(n + 1));
    expect(over.status).toBe(400);
    expect(code(over)).toBe('GRAPHQL_PARSE_FAILED');
  },
  'Cost per operation': async (n) => {
    // n / 100 pages of 100 tickets, then one more object (me) for n + 1.
    expect(n % 100).toBe(0);
    const at = await session.gql(`{ ${pages(n / 100)} }`);
    expect(at.errors).toBeUndefined();
    expect((at as unknown as { extensions: { cost: { requested: number } } }).extensions.cost.requested).toBe(n);
    const over = await session.gql(`{ ${pages(n / 100)} me { id } }`);
    expect(over.status).toBe(400);
    expect(code(over)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(messages(over)).toContain(`costs ${n + 1} points`);
  },
  'Page size': async (n) => {
    expect((await session.gql(`{ tickets(first: ${n}) { totalCount } }`)).status).toBe(200);
    const over = await session.gql(`{ tickets(first: ${n + 1}) { totalCount } }`);
    expect(over.status).toBe(400);
    expect(code(over)).toBe('BAD_USER_INPUT');
  },
  'Websocket message': async (n) => {
    const socket = await openAckedSocket(gw.url, session.cookieHeader);
    expect(frame(n).length).toBe(n);
    socket.send(frame(n));
    await new Promise((r) => setTimeout(r, 300));
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    socket.send(frame(n + 1));
    expect((await socket.closed).code).toBe(1009);
  },
  'Subscriptions per socket': async (n) => {
    const socket = await openAckedSocket(gw.url, session.cookieHeader);
    try {
      for (let i = 0; i <= n; i++) socket.send({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { customerEvents { id } }' } });
      const refused = await socket.next('error');
      expect(refused.id).toBe(`s${n}`);
      expect(refused.payload[0].extensions.code).toBe('LIMIT_EXCEEDED');
      expect(socket.messages.filter((m) => m.type === 'error')).toEqual([]);
    } finally {
      socket.ws.close();
    }
  },
  'Sockets per session': (n) => socketsUpTo(n, session.cookieHeader, {}),
  'Sockets per token': (n) => socketsUpTo(n, undefined, { authorization: `Bearer ${secret}` }),
  'Token budget': async (n) => {
    // Operations of at most 2,000 points (the per-operation limit) that add up to exactly N, then 1 point more.
    const budgetToken = (await createToken(session, { name: 'budget' })).secret;
    let spent = 0;
    while (spent < n) {
      const points = Math.min(2000, n - spent);
      expect(points % 100).toBe(0);
      const r = await bearerGql(gw.url, budgetToken, `{ ${pages(points / 100)} }`);
      expect(r.status).toBe(200);
      spent += points;
      expect(r.headers.get('ratelimit-remaining')).toBe(String(n - spent));
    }
    const over = await bearerGql(gw.url, budgetToken, '{ me { id } }');
    expect(over.status).toBe(429);
    expect(code(over)).toBe('RATE_LIMITED');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  },
  'Bad tokens': async (n) => {
    // Refused tokens only: past N an unknown token is 429, and the valid token from the same address still works.
    for (let i = 0; i < n; i++) expect((await bearerGql(gw.url, apiTokens.generateSecret(), '{ me { id } }')).status).toBe(401);
    const over = await bearerGql(gw.url, apiTokens.generateSecret(), '{ me { id } }');
    expect(over.status).toBe(429);
    expect(code(over)).toBe('RATE_LIMITED');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const valid = await bearerGql(gw.url, secret, '{ me { id } }');
    expect(valid.status).toBe(200);
    expect(valid.data?.me.id).toBe(1);
  },
};
/** Checks that spend a shared budget run last: after them the client address cannot try unknown tokens for a while. */
const LAST = ['Token budget', 'Bad tokens'];

describe('docs/integrators.md limits table', () => {
  it('publishes exactly the limits that are checked', () => {
    expect([...publishedLimits(readFileSync(DOC, 'utf8')).keys()].sort()).toEqual(Object.keys(CHECKS).sort());
  });

  it('every published limit passes at N and is refused at N + 1', async () => {
    const limits = publishedLimits(readFileSync(DOC, 'utf8'));
    const order = [...limits.keys()].sort((a, b) => Number(LAST.includes(a)) - Number(LAST.includes(b)) || LAST.indexOf(a) - LAST.indexOf(b));
    for (const name of order) {
      const check = CHECKS[name];
      if (!check) throw new Error(`no check for the published limit "${name}"`);
      try {
        await check(limits.get(name)!);
      } catch (error) {
        throw new Error(`published limit "${name}" (N = ${limits.get(name)}): ${(error as Error).message}`);
      }
    }
    figure('published limits', [...limits].map(([name, n]) => `${name} ${n}/${n + 1}`).join(', ') + ': pass/refused');
  }, 60_000);
});
