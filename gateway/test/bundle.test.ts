/**
 * The bundle `npm start` runs serves exactly the committed schema.graphql: every type and field name, read back by
 * introspection from the running process (esbuild once renamed colliding classes, and type-graphql names GraphQL
 * types after classes, so the bundle served `Ticket2` and every fragment of the web app failed).
 *
 * The bundle `npm start` runs (gateway/bundle.mjs: our code and the npm dependencies in one file, native addons
 * and optional packages left external) serves every door on a fresh database: migrations and the demo seed, REST
 * sign-in and lists, GraphQL with a multipart image upload, the image bytes, and a live event over graphql-ws.
 * Inlining CommonJS packages into an ES module can break a package that loads files or modules at run time, and
 * only a started bundle shows it. On SQLite in the first pass of `npm test`, on PostgreSQL + Redis in the second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { ensureGatewayBundle } from '../bundle.mjs';
import { REPORT_INPUT } from './apiTokens/support.js';
import { TestClient } from '../src/testing/client.js';
import { PNG } from '../src/testing/fixtures.js';
import { REDIS_URL, createPostgresDatabase, testDatabaseMode } from '../src/testing/harness.js';
import { startServerProcess, type StartedProcess } from '../src/testing/processes.js';
import { TICKET_EVENTS, openLive, untilLive } from '../src/testing/wsClient.js';

const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-bundle-'));
const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const CREATE = `mutation($input: TicketInput!, $image: Upload) {
  createTicket(input: $input, image: $image) { id title requester { name } image { url mimeType width height } }
}`;

const SCHEMA_FILE = new URL('../../schema/schema.graphql', import.meta.url);

describe('the gateway bundle (npm start)', () => {
  let server: StartedProcess;
  beforeAll(async () => {
    // Introspection on, as `npm start` has it unless NODE_ENV=production (startServerProcess runs in production).
    const env: Record<string, string> = { DATA_DIR: dataDir, SESSION_SECRET: 'bundle-test-secret-bundle-test-secret', FULCRUM_INTROSPECTION: '1' };
    if (testDatabaseMode() === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      Object.assign(env, { DATABASE_URL: database.url, REDIS_URL });
    }
    server = await startServerProcess(env, { bundle: await ensureGatewayBundle(), timeoutMs: 60_000 });
    cleanups.push(() => server.stop());
  }, 120_000);

  it('serves exactly the committed schema.graphql', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    const { data, errors } = (await response.json()) as { data?: IntrospectionQuery; errors?: unknown };
    expect(errors).toBeUndefined();
    const served = printSchema(lexicographicSortSchema(buildClientSchema(data!))) + '\n';
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    // The type names first: a renamed class shows up here as one readable line (Ticket2 instead of Ticket).
    const typeNames = (sdl: string) => [...sdl.matchAll(/^(?:type|input|enum|interface|union|scalar) (\w+)/gm)].map((m) => m[1]).sort();
    expect(typeNames(served)).toEqual(typeNames(committed));
    expect(served).toBe(committed);
  });

  it('prices operations with its one copy of graphql: a page of 100 tickets costs 100 points, report 100 flat', async () => {
    // graphql-query-complexity loaded beside the bundle brought a second graphql, threw on every schema type, and
    // every operation was priced 0 (gateway/test/bundleCopies.test.ts checks the bundle's text for such loads).
    const demo = await new TestClient(server.url).login(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
    const cost = (r: object) => (r as { extensions?: { cost?: { requested?: number } } }).extensions?.cost?.requested;
    const page = await demo.gql('{ tickets(first: 100) { nodes { id requester { name } } } }');
    expect(page.errors).toBeUndefined();
    expect(cost(page)).toBe(200);
    const report = await demo.gql(`{ report(input: ${REPORT_INPUT}) { totals { backlog } series { backlog } } }`);
    expect(report.errors).toBeUndefined();
    expect(cost(report)).toBe(100);
  });

  it('migrates and seeds a fresh database, then answers REST, GraphQL with an upload, images and websockets', async () => {
    const demo = await new TestClient(server.url).login(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
    const list = await demo.get('/api/tickets/');
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0); // the demo seed ran

    const live = openLive(server.url, demo.cookieHeader);
    cleanups.push(() => live.dispose());
    await live.connected;
    const events = live.subscribe(TICKET_EVENTS);
    // Live once a write's event arrives (the subscription reaches the bus a moment after the socket is acknowledged).
    await untilLive(
      events,
      async (probe) => void (await demo.post('/api/tickets/create', { title: probe, requester: 1, description: 'probe' })),
      (data, probe) => data.ticketEvents?.ticket?.title === probe,
    );
    // Demo is an admin in the demo seed: GraphQL lists every ticket, REST only the ones assigned to Demo.
    const before = (await demo.gql<{ tickets: { totalCount: number } }>('{ tickets(first: 1) { totalCount } }')).data!.tickets.totalCount;

    const created = await demo.gqlUpload(CREATE, { input: { title: 'From the bundle', requesterId: 1, description: 'uploaded' } }, 'image', { data: PNG });
    expect(created.errors).toBeUndefined();
    const ticket = created.data!.createTicket;
    expect(ticket).toMatchObject({ title: 'From the bundle', image: { mimeType: 'image/png', width: 40, height: 30 } });
    expect(ticket.requester.name).toEqual(expect.any(String));

    const image = await demo.fetch(ticket.image.url);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

    const event = await events.waitFor((data) => data.ticketEvents?.id === ticket.id, 10_000);
    expect(event.data).toMatchObject({ ticketEvents: { kind: 'CREATED', id: ticket.id, ticket: { title: 'From the bundle' } } });

    const dashboard = await demo.gql<{ tickets: { totalCount: number; nodes: { id: number }[] } }>('{ tickets(first: 50) { totalCount nodes { id } } }');
    expect(dashboard.errors).toBeUndefined();
    expect(dashboard.data!.tickets.nodes.map((n) => n.id)).toContain(ticket.id);
    expect(dashboard.data!.tickets.totalCount).toBe(before + 1);
    expect(server.output()).not.toMatch(/error/i);
  });
});
