/**
 * Roles, teams and assignment, through a real gateway on SQLite and on PostgreSQL + Redis: the seed's
 * roles, admin-only mutations, the last admin, role and membership changes taking effect at the next request,
 * ticket placement on create, the compare-and-set of assignTicket/takeTicket, the history of assignments, and a
 * removal from a team unassigning the member's tickets, auto-assignment to a member online (a signed-in socket).
 * fast-check over team names (setTeamAutoAssign's arguments: schema/src/services/autoAssign.test.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { openLive } from '../../src/testing/wsClient.js';

let gw: TestGateway;
let admin: TestClient;
const stamp = Date.now().toString(36);
let n = 0;
const { MESSAGES } = rules;

async function gqlData<T = Record<string, any>>(client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const r = await client.gql<T>(query, variables);
  if (r.errors?.length || !r.data) throw new Error(`${query}: ${JSON.stringify(r.errors)}`);
  return r.data;
}

async function signUp(): Promise<{ client: TestClient; id: number }> {
  const client = gw.client();
  const name = `agent${++n}${stamp}`.slice(0, 30);
  const res = await client.post('/api/auth/signup', { email: `${name}@teams.test`, username: name, password: 'secret-pw' });
  expect(res.status).toBeLessThan(300);
  return { client, id: res.body.id };
}

const team = async (name: string, ...members: number[]) => {
  const id = (await gqlData<{ createTeam: { id: number } }>(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: name })).createTeam.id;
  for (const u of members) await gqlData(admin, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: id, u });
  return id;
};

const CREATE =
  'mutation($i: TicketInput!, $img: Upload, $t: Int, $a: Int) { createTicket(input: $i, image: $img, teamId: $t, assigneeId: $a) { id version teamId assigneeId team { id name } assignee { id } } }';
async function create(client: TestClient, placement: { t?: number | null; a?: number | null } = {}) {
  return client.gqlUpload<{ createTicket: Record<string, any> }>(
    CREATE,
    { i: { title: 'Queue ticket', requesterId: 1, description: 'A shared queue ticket.' }, ...placement },
    'img',
    { data: PNG },
  );
}
const ASSIGN =
  'mutation($id: Int!, $t: Int, $a: Int, $v: Int!) { assignTicket(id: $id, teamId: $t, assigneeId: $a, expectedVersion: $v) { id version teamId assigneeId } }';
const TAKE = 'mutation($id: Int!, $v: Int!) { takeTicket(id: $id, expectedVersion: $v) { id version assigneeId } }';

beforeAll(async () => {
  gw = await startTestGateway({ admin: true });
  admin = await gw.as(0);
});
afterAll(() => gw?.destroy());

describe('roles', () => {
  it('the seed: Demo is the admin, Marnie and Bobbie agents in no common team', async () => {
    const users = await gqlData<{ users: { nodes: { username: string; role: string }[] } }>(admin, '{ users(first: 3) { nodes { username role } } }');
    expect(users.users.nodes).toEqual([
      { username: 'Demo', role: 'ADMIN' },
      { username: 'Marnie', role: 'AGENT' },
      { username: 'Bobbie', role: 'AGENT' },
    ]);
    const marnie = await gw.as(1);
    expect((await gqlData<{ teams: unknown[] }>(marnie, '{ teams { id } }')).teams).toEqual([]);
  });

  it('sign-up makes agents; an agent calling an admin mutation is FORBIDDEN and nothing changes', async () => {
    const agent = await signUp();
    expect((await gqlData<{ me: { role: string } }>(agent.client, '{ me { role } }')).me.role).toBe('AGENT');
    const teamId = await team(`Forbidden ${stamp}`);
    for (const [query, variables] of [
      ['mutation { createTeam(name: "Mine now") { id } }', {}],
      ['mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: teamId, u: agent.id }],
      ['mutation($t: Int!, $u: Int!) { removeTeamMember(teamId: $t, userId: $u) { id } }', { t: teamId, u: agent.id }],
      ['mutation($u: Int!) { setUserRole(userId: $u, role: ADMIN) { id } }', { u: agent.id }],
    ] as const) {
      const r = await agent.client.gql(query, variables);
      expect(r.errors?.[0].extensions?.code, query).toBe('FORBIDDEN');
    }
    expect((await gqlData<{ me: { role: string } }>(agent.client, '{ me { role } }')).me.role).toBe('AGENT');
    expect((await gqlData<{ teams: { name: string; memberIds: number[] }[] }>(admin, '{ teams { name memberIds } }')).teams).toContainEqual({
      name: `Forbidden ${stamp}`,
      memberIds: [],
    });
  });

  it('a role change takes effect at the next request; the last admin cannot be demoted', async () => {
    const agent = await signUp();
    const other = await signUp();
    const private_ = (await create(other.client)).data!.createTicket.id;
    expect((await agent.client.gql('query($id: Int!) { ticket(id: $id) { id } }', { id: private_ })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    await gqlData(admin, 'mutation($u: Int!) { setUserRole(userId: $u, role: ADMIN) { role } }', { u: agent.id });
    expect((await gqlData<{ ticket: { id: number } }>(agent.client, 'query($id: Int!) { ticket(id: $id) { id } }', { id: private_ })).ticket.id).toBe(private_);
    await gqlData(agent.client, 'mutation($u: Int!) { setUserRole(userId: $u, role: AGENT) { role } }', { u: agent.id });
    expect((await agent.client.gql('query($id: Int!) { ticket(id: $id) { id } }', { id: private_ })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    // Demo is now the only admin.
    const last = await admin.gql('mutation { setUserRole(userId: 1, role: AGENT) { role } }');
    expect(last.errors?.[0].extensions?.fields).toEqual({ role: [MESSAGES.lastAdmin] });
    expect((await gqlData<{ me: { role: string } }>(admin, '{ me { role } }')).me.role).toBe('ADMIN');
  });

  it('the first account of an empty database without the demo seed is the admin', async () => {
    const empty = await startTestGateway({ demo: false, admin: true });
    try {
      const roles: string[] = [];
      for (const name of ['first', 'second']) {
        const client = empty.client();
        expect((await client.post('/api/auth/signup', { email: `${name}@empty.test`, username: name, password: 'secret-pw' })).status).toBeLessThan(300);
        roles.push((await gqlData<{ me: { role: string } }>(client, '{ me { role } }')).me.role);
      }
      expect(roles).toEqual(['ADMIN', 'AGENT']);
    } finally {
      await empty.destroy();
    }
  });
});

describe('teams', () => {
  it('team names: accepted exactly when 1 to 50 characters after trimming, without control characters, and unique (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (raw) => {
        const name = `${raw}`;
        const r = await admin.gql('mutation($n: String!) { createTeam(name: $n) { id name } }', { n: name });
        const trimmed = name.trim();
        const valid = trimmed.length >= 1 && [...trimmed].length <= 50 && ![...trimmed].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
        if (!valid) {
          expect(r.errors?.[0].extensions?.fields).toEqual({ name: [MESSAGES.teamName] });
          return;
        }
        // Taken (by an earlier run of the property) or new: either way the name is stored trimmed, once.
        if (r.errors?.length) expect(r.errors[0].extensions?.fields).toEqual({ name: [MESSAGES.teamNameTaken] });
        else expect(r.data?.createTeam.name).toBe(trimmed);
        const again = await admin.gql('mutation($n: String!) { createTeam(name: $n) { id } }', { n: trimmed });
        expect(again.errors?.[0].extensions?.fields).toEqual({ name: [MESSAGES.teamNameTaken] });
      }),
      { numRuns: 40 },
    );
  });

  it('teams lists the viewer\u2019s teams (an admin every team); adding twice keeps one membership', async () => {
    const a = await signUp();
    const mine = await team(`Listed ${stamp}`, a.id, a.id);
    await team(`Not listed ${stamp}`);
    expect((await gqlData<{ teams: { id: number; memberIds: number[] }[] }>(a.client, '{ teams { id memberIds } }')).teams).toEqual([
      { id: mine, memberIds: [a.id] },
    ]);
    const all = (await gqlData<{ teams: { id: number }[] }>(admin, '{ teams { id } }')).teams.map((t) => t.id);
    expect(all).toContain(mine);
    expect(all.length).toBeGreaterThan(1);
  });
});

describe('placement and assignment', () => {
  it('createTicket: no placement is private to the caller; a team without assignee is unassigned; outsiders and non-members are refused', async () => {
    const a = await signUp();
    const b = await signUp();
    const outsider = await signUp();
    const t = await team(`Placement ${stamp}`, a.id, b.id);
    expect((await create(a.client)).data!.createTicket).toMatchObject({ teamId: null, assigneeId: a.id, team: null, version: 1 });
    expect((await create(a.client, { t })).data!.createTicket).toMatchObject({ teamId: t, assigneeId: null, assignee: null, team: { id: t } });
    expect((await create(a.client, { t, a: b.id })).data!.createTicket).toMatchObject({ teamId: t, assigneeId: b.id });
    expect((await create(outsider.client, { t })).errors?.[0].extensions?.fields).toEqual({ teamId: [MESSAGES.teamUnknown] });
    expect((await create(a.client, { t, a: outsider.id })).errors?.[0].extensions?.fields).toEqual({ assigneeId: [MESSAGES.assigneeNotMember] });
    expect((await create(a.client, { a: b.id })).errors?.[0].extensions?.fields).toEqual({ assigneeId: [MESSAGES.ticketAssignee] });
  });

  it('take and assign compare and set: a stale version is CONFLICT with the current version and assignee, and changes nothing', async () => {
    const a = await signUp();
    const b = await signUp();
    const t = await team(`Cas ${stamp}`, a.id, b.id);
    const ticket = (await create(a.client, { t })).data!.createTicket;
    const taken = await gqlData<{ takeTicket: { version: number; assigneeId: number } }>(b.client, TAKE, { id: ticket.id, v: ticket.version });
    expect(taken.takeTicket).toEqual({ id: ticket.id, version: ticket.version + 1, assigneeId: b.id });
    const stale = await a.client.gql(TAKE, { id: ticket.id, v: ticket.version });
    expect(stale.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', currentVersion: ticket.version + 1, assigneeId: b.id });
    const staleAssign = await a.client.gql(ASSIGN, { id: ticket.id, t, a: a.id, v: ticket.version });
    expect(staleAssign.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', currentVersion: ticket.version + 1, assigneeId: b.id });
    // An edit of the ticket's own fields moves the version; a note does not.
    await gqlData(a.client, 'mutation($id: Int!) { addTicketNote(ticketId: $id, body: "n") { id } }', { id: ticket.id });
    const v2 = (await gqlData<{ ticket: { version: number } }>(a.client, 'query($id: Int!) { ticket(id: $id) { version } }', { id: ticket.id })).ticket.version;
    expect(v2).toBe(ticket.version + 1);
    await gqlData(a.client, 'mutation($id: Int!) { setTicketStatus(id: $id, status: PENDING) { id } }', { id: ticket.id });
    const v3 = (await gqlData<{ ticket: { version: number } }>(a.client, 'query($id: Int!) { ticket(id: $id) { version } }', { id: ticket.id })).ticket.version;
    expect(v3).toBe(v2 + 1);
    // The assignee must be a member; without a team an assignee is required.
    const outsider = await signUp();
    expect((await a.client.gql(ASSIGN, { id: ticket.id, t, a: outsider.id, v: v3 })).errors?.[0].extensions?.fields).toEqual({
      assigneeId: [MESSAGES.assigneeNotMember],
    });
    expect((await a.client.gql(ASSIGN, { id: ticket.id, t: null, a: null, v: v3 })).errors?.[0].extensions?.fields).toEqual({
      assigneeId: [MESSAGES.assignmentNeedsOwner],
    });
    // Every assignment is an event of the ticket's history, with the assignee's change.
    const history = await gqlData<{ ticketHistory: { nodes: { kind: string; changes: { field: string; from: string | null; to: string | null }[] }[] } }>(
      a.client,
      'query($id: Int!) { ticketHistory(ticketId: $id) { nodes { kind changes { field from to } } } }',
      { id: ticket.id },
    );
    expect(history.ticketHistory.nodes.flatMap((e) => e.changes.filter((c) => c.field === 'assigneeId'))).toContainEqual({
      field: 'assigneeId',
      from: null,
      to: String(b.id),
    });
  });

  it('removing a member unassigns their tickets of that team, each an event, and they lose access at once', async () => {
    const a = await signUp();
    const b = await signUp();
    const t = await team(`Leaving ${stamp}`, a.id, b.id);
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) ids.push((await create(a.client, { t, a: b.id })).data!.createTicket.id);
    const privateOfB = (await create(b.client)).data!.createTicket.id;
    await gqlData(admin, 'mutation($t: Int!, $u: Int!) { removeTeamMember(teamId: $t, userId: $u) { id memberIds } }', { t, u: b.id });
    for (const id of ids) {
      const ticket = await gqlData<{ ticket: { assigneeId: number | null; teamId: number } }>(
        a.client,
        'query($id: Int!) { ticket(id: $id) { assigneeId teamId } }',
        {
          id,
        },
      );
      expect(ticket.ticket).toEqual({ assigneeId: null, teamId: t });
      const history = await gqlData<{ ticketHistory: { nodes: { changes: { field: string; from: string | null; to: string | null }[] }[] } }>(
        a.client,
        'query($id: Int!) { ticketHistory(ticketId: $id) { nodes { changes { field from to } } } }',
        { id },
      );
      expect(history.ticketHistory.nodes[0].changes).toContainEqual({ field: 'assigneeId', from: String(b.id), to: null });
      expect((await b.client.gql('query($id: Int!) { ticket(id: $id) { id } }', { id })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    // Their private ticket stays theirs.
    expect((await gqlData<{ ticket: { id: number } }>(b.client, 'query($id: Int!) { ticket(id: $id) { id } }', { id: privateOfB })).ticket.id).toBe(privateOfB);
  });
});

describe('auto-assignment', () => {
  const SET = 'mutation($t: Int!, $on: Boolean!) { setTeamAutoAssign(teamId: $t, enabled: $on) { id autoAssign } }';

  it('setTeamAutoAssign: admins only (an agent is FORBIDDEN); Team.autoAssign is off by default', async () => {
    const a = await signUp();
    const t = await team(`Auto forbidden ${stamp}`, a.id);
    const teamsOf = async (client: TestClient) =>
      (await gqlData<{ teams: { id: number; autoAssign: boolean }[] }>(client, '{ teams { id autoAssign } }')).teams;
    expect(await teamsOf(a.client)).toEqual([{ id: t, autoAssign: false }]);
    expect((await a.client.gql(SET, { t, on: true })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(await teamsOf(a.client)).toEqual([{ id: t, autoAssign: false }]);
    expect((await gqlData(admin, SET, { t, on: true })).setTeamAutoAssign).toEqual({ id: t, autoAssign: true });
    expect((await admin.gql(SET, { t: 999_999, on: true })).errors?.[0].extensions?.fields).toEqual({ teamId: [MESSAGES.teamUnknown] });
  });

  it('a new unassigned ticket of the team goes to the member with the app open (a signed-in socket), none when nobody is', async () => {
    const a = await signUp();
    const b = await signUp();
    const t = await team(`Auto online ${stamp}`, a.id, b.id);
    await gqlData(admin, SET, { t, on: true });
    expect((await create(a.client, { t })).data!.createTicket).toMatchObject({ assigneeId: null });
    const live = openLive(gw.url, b.client.cookieHeader);
    try {
      await live.connected;
      // Presence may reach Redis a moment after the socket opens (bounded wait).
      await expect.poll(async () => (await create(a.client, { t })).data!.createTicket.assigneeId, { timeout: 5_000 }).toBe(b.id);
    } finally {
      await live.dispose();
    }
    await expect.poll(async () => (await create(a.client, { t })).data!.createTicket.assigneeId, { timeout: 5_000 }).toBeNull();
  });
});
