/**
 * FULCRUM_MAIL_DEFAULT_TEAM: every ticket that arrives by mail, from a
 * new address or a known customer, goes to a team instead of an agent, unassigned in it, or to the member
 * auto-assignment chooses (a member with the app open) when the team has it on; a reply stays on its ticket. Real mail through the SMTP
 * listener; SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { openLive } from '../../src/testing/wsClient.js';
import { fixedResolver, freshId, sendTo, ticketIn } from './support.js';

const TEAM = `Mail queue ${Date.now().toString(36)}`;
let gw: TestGateway;
let admin: TestClient;
let marnie: TestClient;
let bobbie: TestClient;
let teamId: number;
const ids: Record<string, number> = {};

type Data = Record<string, any>;
async function data(client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<Data> {
  return dataOf(await client.gql(query, variables));
}

beforeAll(async () => {
  gw = await startTestGateway({ admin: true, incomingMail: { listen: '127.0.0.1:0', defaultTeam: TEAM, resolver: fixedResolver } });
  [admin, marnie, bobbie] = [await gw.as(0), await gw.as(1), await gw.as(2)];
  for (const [name, client] of [
    ['marnie', marnie],
    ['bobbie', bobbie],
  ] as const)
    ids[name] = (await data(client, '{ me { id } }')).me.id;
  teamId = (await data(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: TEAM })).createTeam.id;
  for (const u of [ids.marnie, ids.bobbie])
    await data(admin, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: teamId, u });
}, 60_000);
afterAll(() => gw?.destroy());

const placement = async (id: number) =>
  (await data(admin, 'query($id: Int!) { ticket(id: $id) { teamId assigneeId requester { email } } }', { id })).ticket as Data;
let n = 0;
const mailFrom = async (from: string) => {
  const sent = await sendTo(gw.smtp!.port, { from, subject: `Queue ${++n}`, text: 'Please help.', messageId: freshId('team') });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  return ticketIn(sent)!;
};

describe('FULCRUM_MAIL_DEFAULT_TEAM', () => {
  it("a new address's ticket and a known customer's both go to the team, unassigned (auto-assign off)", async () => {
    const id = await mailFrom(`new${Date.now()}@good.test`);
    expect(await placement(id)).toMatchObject({ teamId, assigneeId: null });
    // The new customer belongs to the team's first member (no FULCRUM_MAIL_DEFAULT_AGENT).
    const customer = (await data(admin, 'query($id: Int!) { ticket(id: $id) { requester { ownerId } } }', { id })).ticket.requester;
    expect(customer.ownerId).toBe(Math.min(ids.marnie, ids.bobbie));
    const known = (await data(admin, '{ customer(id: 1) { email ownerId } }')).customer;
    expect(known.ownerId).not.toBeNull();
    expect(await placement(await mailFrom(known.email))).toMatchObject({ teamId, assigneeId: null });
  });

  it('with auto-assign on, the member with the app open gets it; nobody online leaves it unassigned in the team', async () => {
    await data(admin, 'mutation($t: Int!) { setTeamAutoAssign(teamId: $t, enabled: true) { id } }', { t: teamId });
    const live = openLive(gw.url, bobbie.cookieHeader);
    try {
      await live.connected;
      // Presence may reach Redis a moment after the socket opens (bounded wait).
      await expect.poll(async () => (await placement(await mailFrom(`auto${Date.now()}-${n}@good.test`))).assigneeId, { timeout: 10_000 }).toBe(ids.bobbie);
    } finally {
      await live.dispose();
    }
    await expect.poll(async () => (await placement(await mailFrom(`alone${Date.now()}-${n}@good.test`))).assigneeId, { timeout: 10_000 }).toBeNull();
  });
});
