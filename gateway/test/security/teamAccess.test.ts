/**
 * The shared-queue access matrix, beside the agent-to-agent matrix (accessMatrix.test.ts): role (admin,
 * member, member of another team, agent in no team) x surface x ticket (mine, my team's unassigned, another team's,
 * private to another agent, just reassigned away), through a real gateway, on SQLite and on PostgreSQL + Redis.
 * The table below says who may read which ticket; every surface row must agree with it exactly: 0 leaks, counts
 * and search included. A new surface adds a row to SURFACES.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { openLive, untilLive, type Live } from '../../src/testing/wsClient.js';
import { bearerGql, createToken } from '../apiTokens/support.js';
import { createWebhook, startReceiver, type Receiver } from '../webhooks/support.js';

type Role = 'admin' | 'member' | 'otherMember' | 'noTeam';
type TicketName = 'mine' | 'teamUnassigned' | 'otherTeam' | 'privateOther' | 'reassignedAway';
const ROLES: Role[] = ['admin', 'member', 'otherMember', 'noTeam'];
const TICKETS: TicketName[] = ['mine', 'teamUnassigned', 'otherTeam', 'privateOther', 'reassignedAway'];

/**
 * Who may read each ticket (the rule: assigned to me or of one of my teams; an admin all). "mine" is the member's
 * private ticket; "reassignedAway" was the member's and now belongs to the other team's member.
 */
const MAY_READ: Record<TicketName, Record<Role, boolean>> = {
  mine: { admin: true, member: true, otherMember: false, noTeam: false },
  teamUnassigned: { admin: true, member: true, otherMember: false, noTeam: false },
  otherTeam: { admin: true, member: false, otherMember: true, noTeam: false },
  privateOther: { admin: true, member: false, otherMember: false, noTeam: true },
  reassignedAway: { admin: true, member: false, otherMember: true, noTeam: false },
};
/** The REST facade keeps the spec's rule: only the tickets assigned to the caller, whatever the role. */
const ASSIGNED_TO: Record<TicketName, Role | null> = {
  mine: 'member',
  teamUnassigned: null,
  otherTeam: null,
  privateOther: 'noTeam',
  reassignedAway: 'otherMember',
};

interface Viewer {
  role: Role;
  id: number;
  client: TestClient;
  token: string;
  live: Live;
  events: ReturnType<Live['subscribe']>;
}

let gw: TestGateway;
let receiver: Receiver;
const viewers = {} as Record<Role, Viewer>;
const tickets = {} as Record<TicketName, { id: number; image: number; word: string }>;
const EVENTS = 'subscription { ticketEvents { kind id ticket { id title } } }';
const stamp = Date.now().toString(36);

async function gqlData<T = Record<string, any>>(client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const r = await client.gql<T>(query, variables);
  if (r.errors?.length || !r.data) throw new Error(`${query}: ${JSON.stringify(r.errors)}`);
  return r.data;
}

async function signUp(name: string): Promise<{ client: TestClient; id: number }> {
  const client = gw.client();
  const res = await client.post('/api/auth/signup', { email: `${name}-${stamp}@teams.test`, username: `${name}${stamp}`.slice(0, 30), password: 'secret-pw' });
  if (res.status !== 200 && res.status !== 201) throw new Error(`signup ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return { client, id: res.body.id };
}

const CREATE =
  'mutation($i: TicketInput!, $img: Upload, $t: Int, $a: Int) { createTicket(input: $i, image: $img, teamId: $t, assigneeId: $a) { id version image { id } } }';

async function createTicket(client: TestClient, name: TicketName, placement: { t?: number; a?: number } = {}) {
  const word = `q${name.toLowerCase()}${stamp}`;
  const r = await client.gqlUpload(CREATE, { i: { title: `Queue ${name}`, requesterId: 1, description: `holds ${word}` }, ...placement }, 'img', { data: PNG });
  if (r.errors?.length) throw new Error(`create ${name}: ${JSON.stringify(r.errors)}`);
  const created = r.data?.createTicket as { id: number; version: number; image: { id: number } };
  return { id: created.id, image: created.image.id, word, version: created.version };
}

/** One surface: whether `viewer` gets ticket `t` through it (true: the ticket, or a success, came back). */
interface Surface {
  name: string;
  /** The rule this surface follows: the access rule, or the REST facade's. */
  rule: 'access' | 'rest';
  sees(viewer: Viewer, t: { id: number; image: number; word: string }): Promise<boolean>;
}

const listed = async (v: Viewer, filter: Record<string, unknown>) =>
  (
    await gqlData<{ tickets: { totalCount: number; nodes: { id: number }[] } }>(
      v.client,
      'query($f: TicketFilter) { tickets(first: 100, filter: $f) { totalCount nodes { id } } }',
      { f: filter },
    )
  ).tickets;

const SURFACES: Surface[] = [
  {
    name: 'ticket(id)',
    rule: 'access',
    sees: async (v, t) => (await v.client.gql('query($id: Int!) { ticket(id: $id) { id title } }', { id: t.id })).data?.ticket?.id === t.id,
  },
  { name: 'tickets list', rule: 'access', sees: async (v, t) => (await listed(v, {})).nodes.some((n) => n.id === t.id) },
  {
    name: 'search (its own word)',
    rule: 'access',
    sees: async (v, t) => {
      const page = await listed(v, { search: t.word });
      // The count and the nodes must agree: a count that leaks is a leak.
      expect(page.totalCount).toBe(page.nodes.length);
      return page.nodes.some((n) => n.id === t.id);
    },
  },
  {
    name: 'search count (its own word)',
    rule: 'access',
    sees: async (v, t) => {
      const r = await gqlData<{ tickets: { totalCount: number; statusCounts: { open: number; pending: number; solved: number } } }>(
        v.client,
        'query($f: TicketFilter) { tickets(first: 1, filter: $f) { totalCount statusCounts { open pending solved } } }',
        { f: { search: t.word, status: ['OPEN', 'PENDING', 'SOLVED'] } },
      );
      const c = r.tickets.statusCounts;
      expect(c.open + c.pending + c.solved).toBe(r.tickets.totalCount);
      return r.tickets.totalCount > 0;
    },
  },
  {
    name: 'search by #id',
    rule: 'access',
    sees: async (v, t) => (await listed(v, { search: `#${t.id}` })).nodes.some((n) => n.id === t.id),
  },
  {
    name: 'ticketHistory',
    rule: 'access',
    sees: async (v, t) => (await v.client.gql('query($t: Int!) { ticketHistory(ticketId: $t) { totalCount } }', { t: t.id })).data?.ticketHistory != null,
  },
  {
    name: 'ticket timeline',
    rule: 'access',
    sees: async (v, t) => (await v.client.gql('query($id: Int!) { ticket(id: $id) { timeline(first: 5) { totalCount } } }', { id: t.id })).data?.ticket != null,
  },
  { name: 'image', rule: 'access', sees: async (v, t) => (await v.client.fetch(`/images/${t.image}`)).status === 200 },
  {
    name: 'API token: ticket(id)',
    rule: 'access',
    sees: async (v, t) => (await bearerGql(gw.url, v.token, 'query($id: Int!) { ticket(id: $id) { id } }', { id: t.id })).data?.ticket?.id === t.id,
  },
  {
    name: 'setTicketStatus (change)',
    rule: 'access',
    sees: async (v, t) =>
      (await v.client.gql('mutation($id: Int!) { setTicketStatus(id: $id, status: OPEN) { id } }', { id: t.id })).data?.setTicketStatus?.id === t.id,
  },
  { name: 'REST GET /api/tickets/:id', rule: 'rest', sees: async (v, t) => (await v.client.get(`/api/tickets/${t.id}`)).status === 200 },
  {
    name: 'REST list',
    rule: 'rest',
    sees: async (v, t) => ((await v.client.get('/api/tickets/')).body as { id: number }[]).some((r) => r.id === t.id),
  },
];

beforeAll(async () => {
  gw = await startTestGateway({ admin: true, webhooks: { allowHosts: '127.0.0.1', pollMs: 50 } });
  receiver = await startReceiver('/queues');
  const admin = await gw.as(0);
  const member = await signUp('member');
  const otherMember = await signUp('other');
  const noTeam = await signUp('noteam');
  const team = (await gqlData<{ createTeam: { id: number } }>(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: `Billing ${stamp}` }))
    .createTeam.id;
  const otherTeam = (await gqlData<{ createTeam: { id: number } }>(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: `Returns ${stamp}` }))
    .createTeam.id;
  const add = (t: number, u: number) => gqlData(admin, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t, u });
  await add(team, member.id);
  await add(otherTeam, otherMember.id);
  const ids: Record<Role, { client: TestClient; id: number }> = { admin: { client: admin, id: 1 }, member, otherMember, noTeam };
  for (const role of ROLES) {
    const { client, id } = ids[role];
    const { secret } = await createToken(client, { name: `queues ${role}`, scopes: ['READ', 'WRITE'] });
    await createWebhook(client, `${receiver.url}/${role}`, ['TICKET_CREATED', 'TICKET_UPDATED']);
    const live = openLive(gw.url, client.cookieHeader);
    await live.connected;
    const events = live.subscribe(EVENTS);
    viewers[role] = { role, id, client, token: secret, live, events };
  }
  // Live end to end: each viewer's own probe comes back on their socket.
  for (const role of ROLES) {
    const v = viewers[role];
    await untilLive(
      v.events,
      async (probe) => {
        await v.client.gqlUpload(CREATE, { i: { title: probe, requesterId: 1, description: 'probe' } }, 'img', { data: PNG });
      },
      (data, probe) => data.ticketEvents?.ticket?.title === probe,
    );
  }
  tickets.mine = await createTicket(member.client, 'mine');
  tickets.teamUnassigned = await createTicket(member.client, 'teamUnassigned', { t: team });
  tickets.otherTeam = await createTicket(otherMember.client, 'otherTeam', { t: otherTeam });
  tickets.privateOther = await createTicket(noTeam.client, 'privateOther');
  const away = await createTicket(member.client, 'reassignedAway');
  // Reassigned away by the admin: to the other team's member, in the other team.
  await gqlData(admin, 'mutation($id: Int!, $t: Int, $a: Int, $v: Int!) { assignTicket(id: $id, teamId: $t, assigneeId: $a, expectedVersion: $v) { id } }', {
    id: away.id,
    t: otherTeam,
    a: otherMember.id,
    v: away.version,
  });
  tickets.reassignedAway = away;
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(Object.values(viewers).map((v) => v.live.dispose()));
  await receiver?.close();
  await gw?.destroy();
});

describe('shared queues: role x surface x ticket', () => {
  const cases = SURFACES.flatMap((surface) => ROLES.map((role) => [surface.name, role] as const));
  it.each(cases)('%s as %s: exactly the tickets the rule allows', async (surfaceName, role) => {
    const surface = SURFACES.find((s) => s.name === surfaceName)!;
    const viewer = viewers[role];
    const got: Record<string, boolean> = {};
    const expected: Record<string, boolean> = {};
    for (const name of TICKETS) {
      got[name] = await surface.sees(viewer, tickets[name]);
      expected[name] = surface.rule === 'rest' ? ASSIGNED_TO[name] === role : MAY_READ[name][role];
    }
    expect(got).toEqual(expected);
  });

  it('totals and per-status counts count exactly the readable tickets', async () => {
    for (const role of ROLES) {
      const v = viewers[role];
      const all = await gqlData<{ tickets: { totalCount: number; statusCounts: { open: number; pending: number; solved: number }; nodes: { id: number }[] } }>(
        v.client,
        '{ tickets(first: 100, filter: { status: [OPEN, PENDING, SOLVED] }) { totalCount statusCounts { open pending solved } nodes { id } } }',
      );
      const c = all.tickets.statusCounts;
      expect(c.open + c.pending + c.solved, role).toBe(all.tickets.totalCount);
      if (all.tickets.totalCount <= 100) expect(all.tickets.nodes.length, role).toBe(all.tickets.totalCount);
      const mine = await listed(v, { assignedToMe: true });
      expect(mine.totalCount, `${role}: my tickets`).toBe(mine.nodes.length);
      for (const name of TICKETS)
        expect(
          mine.nodes.some((n) => n.id === tickets[name].id),
          `${role} ${name} in My tickets`,
        ).toBe(ASSIGNED_TO[name] === role);
    }
  });

  it('live events and webhooks: a change reaches exactly the viewers who may read the ticket', async () => {
    const admin = viewers.admin.client;
    const mark = performance.now();
    for (const name of TICKETS) await gqlData(admin, 'mutation($id: Int!) { setTicketStatus(id: $id, status: PENDING) { id } }', { id: tickets[name].id });
    // A sentinel of each viewer's own after the changes: once it has arrived, anything sent before it has too.
    for (const role of ROLES) {
      const v = viewers[role];
      const sentinel = `sentinel ${role} ${stamp}`;
      await v.client.gqlUpload(CREATE, { i: { title: sentinel, requesterId: 1, description: 'sentinel' } }, 'img', { data: PNG });
      await v.events.waitFor((d) => d.ticketEvents?.ticket?.title === sentinel, 15_000);
      await receiver.waitFor(1, (r) => r.path.endsWith(`/${role}`) && r.json.data?.title === sentinel, 15_000);
    }
    for (const role of ROLES) {
      const v = viewers[role];
      for (const name of TICKETS) {
        const id = tickets[name].id;
        const live = v.events.events.some((e) => e.at >= mark && e.data.ticketEvents?.id === id && e.data.ticketEvents?.ticket != null);
        const hooked = receiver.received.some(
          (r) => r.path.endsWith(`/${role}`) && r.json.type === 'TICKET_UPDATED' && r.json.data?.id === id && r.json.data?.status === 'PENDING',
        );
        expect({ role, name, live, hooked }).toEqual({ role, name, live: MAY_READ[name][role], hooked: MAY_READ[name][role] });
      }
    }
  });
});
