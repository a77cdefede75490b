/**
 * Take and assign under contention: many agents of one team, signed in on two gateways that share one
 * database (one SQLite file; or one PostgreSQL database and Redis), take the same unassigned ticket at the same
 * moment. Exactly one wins; every other gets CONFLICT naming the version and assignee the winner left, and the
 * ticket's history holds exactly one assignment. Then the same race with assignTicket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';

const AGENTS = 12;
const ROUNDS = 4;
let one: TestGateway;
let two: TestGateway;
let admin: TestClient;
let teamId: number;
const agents: { id: number; client: TestClient }[] = [];
const stamp = Date.now().toString(36);

async function gqlData<T = Record<string, any>>(client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const r = await client.gql<T>(query, variables);
  if (r.errors?.length || !r.data) throw new Error(`${query}: ${JSON.stringify(r.errors)}`);
  return r.data;
}

beforeAll(async () => {
  one = await startTestGateway({ admin: true });
  // The second gateway on the same data: the same SQLite file, or the same PostgreSQL database (and Redis).
  two = await startTestGateway({ admin: true, dataDir: one.dataDir, databaseUrl: one.options.databaseUrl });
  admin = await one.as(0);
  teamId = (await gqlData<{ createTeam: { id: number } }>(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: `Race ${stamp}` })).createTeam
    .id;
  for (let i = 0; i < AGENTS; i++) {
    const email = `racer${i}-${stamp}@race.test`;
    const signup = await one.client().post('/api/auth/signup', { email, username: `racer${i}${stamp}`.slice(0, 30), password: 'secret-pw' });
    expect(signup.status).toBeLessThan(300);
    await gqlData(admin, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: teamId, u: signup.body.id });
    // Half of them on each gateway.
    const client = await (i % 2 ? two : one).client().login(email, 'secret-pw');
    agents.push({ id: signup.body.id, client });
  }
}, 120_000);

afterAll(async () => {
  // The second shares the first's data: closed, not destroyed; the first deletes the data.
  await two?.close();
  await one?.destroy();
});

async function unassignedTicket(): Promise<{ id: number; version: number }> {
  const r = await admin.gqlUpload<{ createTicket: { id: number; version: number } }>(
    'mutation($i: TicketInput!, $img: Upload, $t: Int) { createTicket(input: $i, image: $img, teamId: $t) { id version } }',
    { i: { title: 'Contended', requesterId: 1, description: 'Everyone wants it.' }, t: teamId },
    'img',
    { data: PNG },
  );
  expect(r.errors).toBeUndefined();
  return r.data!.createTicket;
}

/** Runs `call` for every agent at once; the winners and the losers' CONFLICT extensions. */
async function race(
  call: (agent: { id: number; client: TestClient }) => Promise<{ data?: Record<string, any> | null; errors?: { extensions?: Record<string, any> }[] }>,
) {
  const results = await Promise.all(agents.map(async (agent) => ({ agent, result: await call(agent) })));
  const winners = results.filter((r) => !r.result.errors?.length);
  const losers = results.filter((r) => r.result.errors?.length).map((r) => r.result.errors![0].extensions);
  return { winners, losers };
}

const historyAssignments = async (id: number) =>
  (
    await gqlData<{ ticketHistory: { nodes: { changes: { field: string }[] }[] } }>(
      admin,
      'query($id: Int!) { ticketHistory(ticketId: $id, first: 100) { nodes { changes { field } } } }',
      { id },
    )
  ).ticketHistory.nodes.filter((e) => e.changes.some((c) => c.field === 'assigneeId')).length;

describe('take and assign under contention, on two gateways', () => {
  it(`${AGENTS} agents take the same ticket at once: exactly one wins, every other gets CONFLICT`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const ticket = await unassignedTicket();
      const { winners, losers } = await race(({ client }) =>
        client.gql('mutation($id: Int!, $v: Int!) { takeTicket(id: $id, expectedVersion: $v) { id version assigneeId } }', {
          id: ticket.id,
          v: ticket.version,
        }),
      );
      expect(winners).toHaveLength(1);
      const winner = winners[0].agent.id;
      expect(winners[0].result.data?.takeTicket).toEqual({ id: ticket.id, version: ticket.version + 1, assigneeId: winner });
      expect(losers).toHaveLength(AGENTS - 1);
      for (const loser of losers) expect(loser).toMatchObject({ code: 'CONFLICT', currentVersion: ticket.version + 1, assigneeId: winner });
      const now = await gqlData<{ ticket: { version: number; assigneeId: number } }>(admin, 'query($id: Int!) { ticket(id: $id) { version assigneeId } }', {
        id: ticket.id,
      });
      expect(now.ticket).toEqual({ version: ticket.version + 1, assigneeId: winner });
      expect(await historyAssignments(ticket.id)).toBe(1);
    }
  });

  it(`${AGENTS} agents assign the same ticket to themselves at once: exactly one wins`, async () => {
    const ticket = await unassignedTicket();
    const { winners, losers } = await race(({ client, id }) =>
      client.gql('mutation($id: Int!, $t: Int, $a: Int, $v: Int!) { assignTicket(id: $id, teamId: $t, assigneeId: $a, expectedVersion: $v) { assigneeId } }', {
        id: ticket.id,
        t: teamId,
        a: id,
        v: ticket.version,
      }),
    );
    expect(winners).toHaveLength(1);
    const winner = winners[0].agent.id;
    for (const loser of losers) expect(loser).toMatchObject({ code: 'CONFLICT', currentVersion: ticket.version + 1, assigneeId: winner });
    expect(await historyAssignments(ticket.id)).toBe(1);
  });
});
