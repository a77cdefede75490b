/**
 * Live view counts (Subscription.viewCountEvents) over real websockets. With PostgreSQL + Redis, on two
 * gateways sharing the database and the bus: a take on one gateway reaches a colleague's socket on the other, and
 * the counts sent equal `tickets(viewId)`'s totalCount there. On SQLite (one process, the in-memory bus) both sockets
 * are on one gateway. Also: a burst of writes is coalesced (a few batches per second per socket), and the SQL the
 * counts cost per write does not grow with the number of sockets (counted on the gateway's knex client).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { openLive, type Live } from '../../src/testing/wsClient.js';
import { figure, sleep } from '../../src/testing/measure.js';

const VIEW_COUNTS = 'subscription { viewCountEvents { viewId count } }';
const redis = process.env.FULCRUM_TEST_REDIS === '1';
const stamp = Date.now().toString(36);

let one: TestGateway;
let two: TestGateway;
let admin: TestClient;
let teamId: number;
const lives: Live[] = [];
const statements: string[] = [];

async function gqlData<T = Record<string, any>>(client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const r = await client.gql<T>(query, variables);
  if (r.errors?.length || !r.data) throw new Error(`${query}: ${JSON.stringify(r.errors)}`);
  return r.data;
}

/** A new agent in the team, signed in on `gateway`. */
async function member(gateway: TestGateway, i: number): Promise<{ id: number; client: TestClient }> {
  const email = `viewer${i}-${stamp}@views.test`;
  const signup = await one.client().post('/api/auth/signup', { email, username: `viewer${i}${stamp}`.slice(0, 30), password: 'secret-pw' });
  expect(signup.status).toBeLessThan(300);
  await gqlData(admin, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: teamId, u: signup.body.id });
  return { id: signup.body.id, client: await gateway.client().login(email, 'secret-pw') };
}

/** A socket of `client` on `gateway` subscribed to its view counts, once the first batch (every count) came. */
async function watch(gateway: TestGateway, client: TestClient) {
  const live = openLive(gateway.url, client.cookieHeader);
  lives.push(live);
  await live.connected;
  const subscription = live.subscribe(VIEW_COUNTS);
  await subscription.waitFor(() => true, 10_000);
  /** The latest count of each view this socket was sent. */
  const latest = () => {
    const counts = new Map<number, number>();
    for (const event of subscription.events) for (const c of event.data.viewCountEvents as { viewId: number; count: number }[]) counts.set(c.viewId, c.count);
    return counts;
  };
  return { subscription, latest };
}

async function unassignedTicket(creator: TestClient): Promise<{ id: number; version: number }> {
  const r = await creator.gqlUpload<{ createTicket: { id: number; version: number } }>(
    'mutation($i: TicketInput!, $img: Upload, $t: Int) { createTicket(input: $i, image: $img, teamId: $t) { id version } }',
    { i: { title: 'Up for grabs', requesterId: 1, description: 'Somebody take it.' }, t: teamId },
    'img',
    { data: PNG },
  );
  expect(r.errors).toBeUndefined();
  return r.data!.createTicket;
}

const unassignedView = () => -2 * teamId;
const totalOf = async (client: TestClient, viewId: number) =>
  (await gqlData<{ tickets: { totalCount: number } }>(client, 'query($v: Int) { tickets(viewId: $v, first: 1) { totalCount } }', { v: viewId })).tickets
    .totalCount;

beforeAll(async () => {
  one = await startTestGateway({ admin: true });
  // With Redis, a second gateway on the same data (the same PostgreSQL database) and the same bus.
  two = redis ? await startTestGateway({ admin: true, dataDir: one.dataDir, databaseUrl: one.options.databaseUrl }) : one;
  // The reports' rollup folders look at their queue every second and fold the set-up's writes: not the statements
  // counted here.
  await one.reportFolder.stop();
  await two.reportFolder.stop();
  admin = await one.as(0);
  teamId = (await gqlData<{ createTeam: { id: number } }>(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: `Views ${stamp}` })).createTeam
    .id;
  const knex = two.orm.em.fork().getConnection().getKnex() as unknown as { on(event: 'query', fn: (q: { sql: string }) => void): void };
  knex.on('query', (q) => statements.push(q.sql));
}, 120_000);

afterAll(async () => {
  await Promise.all(lives.map((l) => l.dispose().catch(() => {})));
  if (two !== one) await two?.close();
  await one?.destroy();
});

describe(`live view counts (${redis ? 'two gateways, Redis' : 'one gateway'})`, () => {
  it("a take on one gateway changes a colleague's counts on the other, equal to tickets(viewId) there", async () => {
    const a = await member(one, 1);
    const b = await member(two, 2);
    const sidebar = await watch(two, b.client);
    expect(sidebar.latest().get(unassignedView())).toBe(0);
    const ticket = await unassignedTicket(a.client);
    await expect.poll(() => sidebar.latest().get(unassignedView()), { timeout: 5_000, interval: 20 }).toBe(1);
    expect(await totalOf(b.client, unassignedView())).toBe(1);
    await gqlData(a.client, 'mutation($id: Int!, $v: Int!) { takeTicket(id: $id, expectedVersion: $v) { id } }', { id: ticket.id, v: ticket.version });
    await expect.poll(() => sidebar.latest().get(unassignedView()), { timeout: 5_000, interval: 20 }).toBe(0);
    expect(await totalOf(b.client, unassignedView())).toBe(0);
    // Every count the socket holds now is the view's paged total.
    for (const [viewId, count] of sidebar.latest()) expect([viewId, await totalOf(b.client, viewId)]).toEqual([viewId, count]);
    // a's own tickets are not b's: b's "My tickets" stayed 0 and was never re-sent.
    expect(sidebar.latest().get(-1)).toBe(0);
  });

  it('a burst of writes reaches a socket coalesced: a few batches a second, ending on the exact counts', async () => {
    const a = await member(one, 3);
    const b = await member(two, 4);
    const sidebar = await watch(two, b.client);
    const before = sidebar.subscription.events.length;
    const started = performance.now();
    const created = await Promise.all(Array.from({ length: 12 }, () => unassignedTicket(a.client)));
    const expected = await totalOf(b.client, unassignedView());
    await expect.poll(() => sidebar.latest().get(unassignedView()), { timeout: 10_000, interval: 20 }).toBe(expected);
    const elapsed = performance.now() - started;
    const batches = sidebar.subscription.events.length - before;
    // At most one batch per 250 ms window (plus the one in flight when the burst began).
    expect(batches).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
    expect(batches).toBeLessThan(created.length);
  });

  it('the SQL of one write does not grow with the sockets watching (the counts are read once per window, shared)', async () => {
    const sockets = await Promise.all([5, 6].map((i) => member(two, i)));
    const writer = await member(one, 7);
    const few = await Promise.all(sockets.map((s) => watch(two, s.client)));
    const costOfOneWrite = async (watching: typeof few) => {
      await sleep(600); // nothing left in flight
      statements.length = 0;
      const target = (await totalOf(writer.client, unassignedView())) + 1;
      const mark = statements.length;
      await unassignedTicket(writer.client);
      for (const w of watching) await expect.poll(() => w.latest().get(unassignedView()), { timeout: 10_000, interval: 20 }).toBe(target);
      await sleep(300);
      // On the gateway of the sockets: without the write's own statements when both are one gateway.
      return statements.slice(mark).filter((sql) => !/^\s*(insert|update|delete|begin|commit|savepoint|release)/i.test(sql) && !/returning/i.test(sql)).length;
    };
    const small = await costOfOneWrite(few);
    const more = await Promise.all(Array.from({ length: 6 }, (_, i) => member(two, 10 + i).then((m) => watch(two, m.client))));
    const large = await costOfOneWrite([...few, ...more]);
    figure("view counts, statements read on the sockets' gateway for one write", `${small} with 2 sockets, ${large} with 8`);
    expect(small).toBeGreaterThan(0);
    // Eight sockets cost what two did, give or take the statements of the write's own request (one gateway).
    expect(large).toBeLessThanOrEqual(small + 2);
  });

  it("a view's page reads its tickets' teams and assignees in statements that do not grow with the page", async () => {
    const reader = await member(two, 20);
    const page = 'query($v: Int, $n: Int!) { tickets(viewId: $v, first: $n) { totalCount nodes { id assignee { id } team { id name memberIds } } } }';
    const cost = async (first: number) => {
      await gqlData(reader.client, page, { v: -(2 * teamId + 1), n: first }); // warm
      statements.length = 0;
      const data = await gqlData<{ tickets: { nodes: unknown[] } }>(reader.client, page, { v: -(2 * teamId + 1), n: first });
      return { count: statements.length, rows: data.tickets.nodes.length };
    };
    const small = await cost(2);
    const large = await cost(20);
    expect(large.rows).toBeGreaterThan(small.rows);
    expect(large.count).toBe(small.count);
  });
});
