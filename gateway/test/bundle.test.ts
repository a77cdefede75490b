/**
 * The bundle `npm start` runs (gateway/bundle.mjs: our code and the npm dependencies in one file, native addons
 * and optional packages left external) serves every door on a fresh database: migrations and the demo seed, REST
 * sign-in and lists, GraphQL with a multipart image upload, the image bytes, and a live event over graphql-ws.
 * Inlining CommonJS packages into an ES module can break a package that loads files or modules at run time, and
 * only a started bundle shows it. On SQLite in the first pass of `npm test`, on PostgreSQL + Redis in the second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { ensureGatewayBundle } from '../bundle.mjs';
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

describe('the gateway bundle (npm start)', () => {
  it('migrates and seeds a fresh database, then answers REST, GraphQL with an upload, images and websockets', async () => {
    const env: Record<string, string> = { DATA_DIR: dataDir, SESSION_SECRET: 'bundle-test-secret-bundle-test-secret' };
    if (testDatabaseMode() === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      Object.assign(env, { DATABASE_URL: database.url, REDIS_URL });
    }
    const server: StartedProcess = await startServerProcess(env, { bundle: await ensureGatewayBundle(), timeoutMs: 60_000 });
    cleanups.push(() => server.stop());

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
    const before = (await demo.get('/api/tickets/')).body.length;

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
