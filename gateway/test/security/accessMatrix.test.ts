/**
 * The ticket-access matrix: one ticket of agent A, and every surface a ticket can be seen or changed
 * through, asked by A and by agent B. Each row of the table says how one surface shows (or changes) the ticket;
 * A must get it, B must not. The surfaces all go through services/ticketAccess.ts, and scripts/ticketAccess.test.ts
 * keeps it that way; this test proves the rule holds at each of them, through a real gateway, on SQLite and on
 * PostgreSQL + Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkEm } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { openLive, openSocket, TICKET_EVENTS, untilLive, type Live, type RawSocket } from '../../src/testing/wsClient.js';
import { bearerGql, createToken } from '../apiTokens/support.js';
import { createWebhook, startReceiver, type Receiver } from '../webhooks/support.js';

interface Agent {
  name: 'A' | 'B';
  client: TestClient;
  /** An API token of this agent's (READ and WRITE). */
  token: string;
  live: Live;
  events: ReturnType<Live['subscribe']>;
  /** A graphql-ws socket authenticated by the agent's API token (connectionParams), subscribed to ticketEvents. */
  tokenSocket: RawSocket;
  webhookId: number;
}

let gw: TestGateway;
let receiver: Receiver;
let A: Agent;
let B: Agent;
/** A's ticket (with an image), its image, a reply's attachment, its requester (a customer of A's, shared like every customer) and a word only it holds. */
const T = { id: 0, image: 0, attachment: 0, requester: 0, word: `matrix${Date.now().toString(36)}` };
/** Each agent's ticket counts before T was created. */
const countsBefore = new Map<string, unknown>();

const COUNTS = '{ tickets(first: 1) { totalCount statusCounts { open pending solved } } }';

async function agent(name: 'A' | 'B', index: 0 | 1): Promise<Agent> {
  const client = await gw.as(index);
  const { secret } = await createToken(client, { name: `matrix ${name}`, scopes: ['READ', 'WRITE'] });
  const { id: webhookId } = await createWebhook(client, `${receiver.url}/${name}`, ['TICKET_CREATED', 'TICKET_UPDATED', 'TICKET_DELETED']);
  const live = openLive(gw.url, client.cookieHeader);
  await live.connected;
  const events = live.subscribe(TICKET_EVENTS);
  // Live end to end (on Redis the gateway's channel subscription has no acknowledgement): the agent's own probe comes back.
  await untilLive(
    events,
    async (probe) => {
      expect((await client.post('/api/tickets/create', { ...validTicket(1), title: probe })).status).toBe(201);
    },
    (data, probe) => data.ticketEvents?.ticket?.title === probe,
  );
  const tokenSocket = openSocket(gw.url);
  tokenSocket.send({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } });
  await tokenSocket.next('connection_ack');
  tokenSocket.send({ id: 'token', type: 'subscribe', payload: { query: TICKET_EVENTS } });
  // Live end to end as above: probes until one comes back on the token's socket.
  for (let attempt = 1; !tokenEvents(tokenSocket).some((e) => e.ticket?.title.startsWith('token probe')); attempt++) {
    if (attempt > 20) throw new Error('the token socket never became live');
    await client.post('/api/tickets/create', { ...validTicket(1), title: `token probe ${attempt}` });
    await untilTokenEvent(tokenSocket, (e) => e.ticket?.title === `token probe ${attempt}`, 500).catch(() => {});
  }
  return { name, client, token: secret, live, events, tokenSocket, webhookId };
}

/** The ticketEvents a raw socket has received so far. */
function tokenEvents(socket: RawSocket): { id: number; ticket?: { title: string } | null }[] {
  return socket.messages.filter((m) => m.type === 'next').map((m) => m.payload.data.ticketEvents);
}

/** Resolves once the socket has received a matching ticket event (checked as frames arrive, never by sleeping long). */
async function untilTokenEvent(socket: RawSocket, match: (e: { id: number; ticket?: { title: string } | null }) => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !tokenEvents(socket).some(match); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > deadline) throw new Error(`no matching event on the token socket within ${timeoutMs} ms`);
}

beforeAll(async () => {
  gw = await startTestGateway({ webhooks: { allowHosts: '127.0.0.1', pollMs: 50 } });
  receiver = await startReceiver('/hook');
  A = await agent('A', 0);
  B = await agent('B', 1);
  for (const x of [A, B]) countsBefore.set(x.name, await read(x, COUNTS));
  T.requester = (await A.client.post('/api/customers/create', { name: 'Matrix Requester', email: `${T.word}@fulcrum.test` })).body.id;
  const created = await A.client.post('/api/tickets/create', {
    ...validTicket(T.requester),
    title: `Access ${T.word}`,
    description: `Only A reads ${T.word}.`,
  });
  expect(created.status).toBe(201);
  T.id = created.body.id;
  T.image = (await A.client.upload('POST', `/api/tickets/${T.id}/add-image`, { data: PNG })).body.id;
  const replied = await A.client.gqlUploads(
    'mutation($id: Int!, $files: [Upload!]) { replyToRequester(ticketId: $id, body: "With a file", attachments: $files) { attachments { id } } }',
    { id: T.id },
    'files',
    [{ data: PNG, name: 'matrix.png' }],
  );
  T.attachment = replied.data?.replyToRequester.attachments[0].id;
  for (const id of [T.requester, T.id, T.image, T.attachment]) expect(id).toBeTypeOf('number');
}, 120_000);
afterAll(async () => {
  for (const x of [A, B]) {
    x?.tokenSocket.ws.close();
    await x?.live.dispose();
  }
  await receiver?.close();
  await gw?.destroy();
});

const ids = (nodes: { id: number }[] | undefined) => (nodes ?? []).map((n) => n.id);
/** The data of a GraphQL read that must succeed (a refused or broken query would pass for "B does not see it"). */
async function read(x: Agent, query: string, variables: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const r = await x.client.gql(query, variables);
  expect(r.errors).toBeUndefined();
  return r.data!;
}
const ok = (status: number) => status >= 200 && status < 300;

/** A ticket of the agent's own, made after T: once its event arrived, T's (earlier) event would have too. */
async function ownTicketAfterT(x: Agent): Promise<number> {
  const res = await x.client.post('/api/tickets/create', { ...validTicket(1), title: `Own of ${x.name} ${Date.now()}` });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/**
 * The surfaces: `sees` answers whether the agent got T (or, for a change, got to change it). A row changing T
 * comes after every row reading it; the last one deletes it.
 */
const SURFACES: { surface: string; sees: (x: Agent) => Promise<boolean> }[] = [
  {
    surface: 'list: GraphQL tickets (every status)',
    sees: async (x) => ids((await read(x, '{ tickets(first: 100, filter: { status: [] }) { nodes { id } } }')).tickets.nodes).includes(T.id),
  },
  {
    surface: 'list: GraphQL tickets ordered by priority and by last update',
    sees: async (x) => {
      const q = 'query($o: TicketOrder!) { tickets(first: 100, orderBy: $o, filter: { priority: [High] }) { nodes { id } } }';
      const seen = await Promise.all(['PRIORITY', 'UPDATED'].map(async (o) => ids((await read(x, q, { o })).tickets.nodes).includes(T.id)));
      expect(new Set(seen).size).toBe(1);
      return seen[0];
    },
  },
  { surface: 'list: REST GET /api/tickets', sees: async (x) => ids((await x.client.get('/api/tickets/')).body).includes(T.id) },
  {
    surface: 'counts: totalCount and statusCounts (the counters)',
    sees: async (x) => {
      const before = countsBefore.get(x.name) as { tickets: { totalCount: number; statusCounts: { open: number } } };
      const after = (await read(x, COUNTS)).tickets;
      // T is the only ticket made since: its owner counts one more (open), anyone else the same.
      if (after.totalCount === before.tickets.totalCount) {
        expect(after).toEqual(before.tickets);
        return false;
      }
      expect([after.totalCount, after.statusCounts.open]).toEqual([before.tickets.totalCount + 1, before.tickets.statusCounts.open + 1]);
      return true;
    },
  },
  {
    surface: 'counts: filtered by requester',
    sees: async (x) => {
      const { tickets: page } = await read(
        x,
        'query($r: Int!) { tickets(first: 10, filter: { requesterId: $r }) { totalCount statusCounts { open } nodes { id } } }',
        {
          r: T.requester,
        },
      );
      expect(page.statusCounts.open).toBe(page.totalCount);
      expect(page.totalCount).toBe(page.nodes.length);
      return page.totalCount === 1 && ids(page.nodes).includes(T.id);
    },
  },
  {
    surface: 'search: words (page and counts)',
    sees: async (x) => {
      const page = (await read(x, 'query($s: String!) { tickets(first: 10, filter: { search: $s }) { totalCount nodes { id } } }', { s: T.word })).tickets;
      expect(page.totalCount).toBe(page.nodes.length);
      return ids(page.nodes).includes(T.id);
    },
  },
  {
    surface: 'search: the ticket by #id',
    sees: async (x) =>
      ids((await read(x, 'query($s: String!) { tickets(first: 10, filter: { search: $s }) { nodes { id } } }', { s: `#${T.id}` })).tickets.nodes).includes(
        T.id,
      ),
  },
  {
    surface: 'one ticket: GraphQL ticket(id)',
    sees: async (x) => {
      const r = await x.client.gql('query($id: Int!) { ticket(id: $id) { id image { url } } }', { id: T.id });
      if (r.data?.ticket) return r.data.ticket.id === T.id;
      expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      return false;
    },
  },
  {
    surface: "one ticket: GraphQL Ticket.requesterLink (the requester page's address)",
    sees: async (x) => {
      const r = await x.client.gql('query($id: Int!) { ticket(id: $id) { requesterLink } }', { id: T.id });
      if (r.data?.ticket) return /\/r\/[A-Za-z0-9_-]{43}$/.test(r.data.ticket.requesterLink as string);
      expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      return false;
    },
  },
  {
    surface: 'one ticket: REST GET /api/tickets/:id',
    sees: async (x) => {
      const res = await x.client.get(`/api/tickets/${T.id}`);
      if (!ok(res.status)) expect(res.status).toBe(404);
      return ok(res.status) && res.body.id === T.id;
    },
  },
  {
    surface: 'images: GET /images/:id',
    sees: async (x) => {
      const res = await x.client.fetch(`/images/${T.image}`);
      if (!ok(res.status)) expect(res.status).toBe(404);
      return ok(res.status) && (await res.arrayBuffer()).byteLength === PNG.length;
    },
  },
  {
    surface: "reply attachments: GET /attachments/:id (a reply's file)",
    sees: async (x) => {
      const res = await x.client.fetch(`/attachments/${T.attachment}`);
      if (!ok(res.status)) expect(res.status).toBe(404);
      return ok(res.status) && (await res.arrayBuffer()).byteLength === PNG.length;
    },
  },
  {
    surface: 'live events: ticketEvents',
    sees: async (x) => {
      const own = await ownTicketAfterT(x);
      await x.events.waitFor((d) => d.ticketEvents?.id === own, 10_000);
      return x.events.events.some((e) => e.data.ticketEvents?.id === T.id);
    },
  },
  {
    surface: "live events: replyDeliveryEvents (a reply's mail state)",
    sees: async (x) => {
      const sub = x.live.subscribe(`subscription { replyDeliveryEvents(ticketId: ${T.id}) { id } }`);
      // A's subscription starts (no error); B's is refused NOT_FOUND before it starts.
      const deadline = Date.now() + 2_000;
      while (!sub.errors.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      sub.stop();
      if (sub.errors.length) expect(JSON.stringify(sub.errors)).toContain('NOT_FOUND');
      return sub.errors.length === 0;
    },
  },
  {
    surface: "webhooks: the agent's endpoint (and its jobs)",
    sees: async (x) => {
      const own = await ownTicketAfterT(x);
      const mine = (r: { path: string }) => r.path === `/hook/${x.name}`;
      // Fan-out takes events in id order: once the later ticket's event arrived, T's was fanned out too.
      await receiver.waitFor(1, (r) => mine(r) && r.json.type === 'TICKET_CREATED' && r.json.data.id === own);
      const received = receiver.received.some((r) => mine(r) && r.json.data.id === T.id);
      const jobs: { payload: string }[] = await forkEm(gw.orm)
        .getKnex()('webhook_jobs as j')
        .join('webhook_events as e', 'e.id', 'j.event_id')
        .where('j.webhook_id', x.webhookId)
        .select('e.payload');
      const queued = jobs.some((j) => (JSON.parse(j.payload) as { data: { id: number } }).data.id === T.id);
      expect(queued).toBe(received);
      return received;
    },
  },
  {
    surface: "API token: the agent's bearer token (ticket, list, search)",
    sees: async (x) => {
      const r = await bearerGql(
        gw.url,
        x.token,
        'query($s: String!) { all: tickets(first: 100, filter: { status: [] }) { nodes { id } } found: tickets(first: 10, filter: { search: $s }) { nodes { id } } }',
        { s: T.word },
      );
      expect(r.errors).toBeUndefined();
      const one = await bearerGql(gw.url, x.token, 'query($id: Int!) { ticket(id: $id) { id } }', { id: T.id });
      if (!one.data?.ticket) expect(one.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      const seen = [ids(r.data?.all.nodes).includes(T.id), ids(r.data?.found.nodes).includes(T.id), one.data?.ticket?.id === T.id];
      expect(new Set(seen).size).toBe(1);
      return seen[0];
    },
  },
  {
    surface: "API token: ticketEvents on the agent's token socket",
    sees: async (x) => {
      const own = await ownTicketAfterT(x);
      await untilTokenEvent(x.tokenSocket, (e) => e.id === own);
      return tokenEvents(x.tokenSocket).some((e) => e.id === T.id);
    },
  },
  {
    surface: 'change: GraphQL setTicketStatus',
    sees: async (x) => {
      const r = await x.client.gql('mutation($id: Int!) { setTicketStatus(id: $id, status: PENDING) { id status } }', { id: T.id });
      if (!r.data?.setTicketStatus) expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      return r.data?.setTicketStatus?.status === 'PENDING';
    },
  },
  {
    surface: "change: API token's updateTicket",
    sees: async (x) => {
      const r = await bearerGql(gw.url, x.token, 'mutation($id: Int!, $i: TicketInput!) { updateTicket(id: $id, input: $i) { id title } }', {
        id: T.id,
        i: { title: `Access ${T.word} by ${x.name}`, requesterId: T.requester, description: `Only A reads ${T.word}.` },
      });
      if (!r.data?.updateTicket) expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      return r.data?.updateTicket?.title === `Access ${T.word} by ${x.name}`;
    },
  },
  {
    surface: 'change: REST PUT /api/tickets/:id/edit and /edit-image',
    sees: async (x) => {
      const edit = await x.client.put(`/api/tickets/${T.id}/edit`, { ...validTicket(T.requester), title: `Access ${T.word} via REST by ${x.name}` });
      const image = await x.client.upload('PUT', `/api/tickets/${T.id}/edit-image`, { data: PNG });
      expect(ok(image.status)).toBe(ok(edit.status));
      if (!ok(edit.status)) expect([edit.status, image.status]).toEqual([404, 404]);
      else T.image = image.body.id;
      return ok(edit.status);
    },
  },
  {
    surface: 'change: GraphQL replyToRequester',
    sees: async (x) => {
      const r = await x.client.gql('mutation($id: Int!) { replyToRequester(ticketId: $id, body: "Public answer") { id } }', { id: T.id });
      if (!r.data?.replyToRequester) expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      return !!r.data?.replyToRequester;
    },
  },
  {
    surface: 'change: GraphQL replyToRequester with attachments',
    sees: async (x) => {
      const r = await x.client.gqlUploads(
        'mutation($id: Int!, $files: [Upload!]) { replyToRequester(ticketId: $id, body: "Files", attachments: $files) { attachments { id } } }',
        { id: T.id },
        'files',
        [{ data: PNG, name: 'answer.png' }],
      );
      if (!r.data?.replyToRequester) expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      return r.data?.replyToRequester.attachments.length === 1;
    },
  },
  {
    surface: 'change: GraphQL revokeRequesterLink',
    sees: async (x) => {
      const r = await x.client.gql('mutation($id: Int!) { revokeRequesterLink(ticketId: $id) }', { id: T.id });
      if (!r.data?.revokeRequesterLink) expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      return !!r.data?.revokeRequesterLink;
    },
  },
  {
    surface: 'change: REST GET /api/tickets/:id/delete',
    sees: async (x) => {
      const res = await x.client.get(`/api/tickets/${T.id}/delete`);
      if (!ok(res.status)) expect(res.status).toBe(404);
      return ok(res.status);
    },
  },
];

describe('ticket access, agent A vs agent B, on every surface', () => {
  it('covers every surface the issue names', () => {
    const names = SURFACES.map((s) => s.surface.split(':')[0]);
    for (const surface of ['list', 'counts', 'search', 'one ticket', 'images', 'live events', 'webhooks', 'API token', 'change'])
      expect(names, surface).toContain(surface);
    expect(SURFACES.some((s) => s.surface.includes('REST'))).toBe(true);
  });

  it.each(SURFACES.map((s) => [s.surface, s] as const))('%s: A gets the ticket, B does not', async (_name, { sees }) => {
    // B first: a refused change must leave the ticket as A's next look finds it.
    expect(await sees(B)).toBe(false);
    expect(await sees(A)).toBe(true);
  });

  it("B's attempts changed nothing, and no event of the ticket reached B's endpoint", async () => {
    // A deleted T last: once that event arrived, every earlier event of T was fanned out (in id order).
    await receiver.waitFor(1, (r) => r.path === '/hook/A' && r.json.type === 'TICKET_DELETED' && r.json.data.id === T.id);
    const titles = receiver.received.filter((r) => r.path === '/hook/A' && r.json.data.id === T.id).map((r) => r.json.data.title as string);
    expect(titles.length).toBeGreaterThanOrEqual(4);
    for (const title of titles) expect(title).not.toMatch(/by B$/);
    const jobsOfB: { payload: string }[] = await forkEm(gw.orm)
      .getKnex()('webhook_jobs as j')
      .join('webhook_events as e', 'e.id', 'j.event_id')
      .where('j.webhook_id', B.webhookId)
      .select('e.payload');
    expect(jobsOfB.length).toBeGreaterThan(0);
    expect(jobsOfB.filter((j) => (JSON.parse(j.payload) as { data: { id: number } }).data.id === T.id)).toEqual([]);
  });
});
