/**
 * A ticket's notes reach its whole audience (services/ticketAccess.ts): a member of the ticket's team who is not
 * its assignee gets the note live over a real graphql-ws socket (ticketTimelineEvents) as it is added, edited and
 * deleted, and a webhook endpoint of theirs gets TICKET_NOTE_ADDED, while an agent outside the team gets neither.
 * Through a real gateway; SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { collect, wsClient } from '../../src/testing/wsClient.js';
import { createWebhook, startReceiver, type Receiver } from './support.js';

type Data = Record<string, any>;
let gw: TestGateway;
let admin: TestClient;
let assignee: TestClient;
let teammate: TestClient;
let outsider: TestClient;
let receiver: Receiver;
const ids: Record<string, number> = {};

const data = async (client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<Data> => dataOf(await client.gql(query, variables));

beforeAll(async () => {
  gw = await startTestGateway({ admin: true, webhooks: { allowHosts: '127.0.0.1', pollMs: 200 } });
  [admin, assignee, teammate] = [await gw.as(0), await gw.as(1), await gw.as(2)];
  const stamp = Date.now().toString(36);
  outsider = new TestClient(gw.url);
  const signup = await outsider.post('/api/auth/signup', { email: `outsider${stamp}@example.test`, username: `out${stamp}`, password: 'secret123' });
  expect(signup.status, JSON.stringify(signup.body)).toBe(200);
  for (const [name, client] of Object.entries({ assignee, teammate })) ids[name] = (await data(client, '{ me { id } }')).me.id;
  ids.team = (await data(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: `Notes ${stamp}` })).createTeam.id;
  for (const u of [ids.assignee, ids.teammate])
    await data(admin, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: ids.team, u });
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await gw?.destroy();
});

describe("a ticket's notes reach its team", () => {
  it('a teammate who is not the assignee gets the note live and as TICKET_NOTE_ADDED on their webhook; an agent outside the team gets neither', async () => {
    const ticketId = dataOf(
      await assignee.gqlUpload(
        'mutation($i: TicketInput!, $image: Upload, $t: Int, $a: Int) { createTicket(input: $i, image: $image, teamId: $t, assigneeId: $a) { id } }',
        { i: { title: 'Team notes', requesterId: 1, description: 'The printer jams.' }, t: ids.team, a: ids.assignee },
        'image',
        { data: PNG },
      ),
    ).createTicket.id as number;
    const base = receiver.url.replace(/\/hook$/, '');
    await createWebhook(teammate, `${base}/teammate`, ['TICKET_NOTE_ADDED']);
    await createWebhook(outsider, `${base}/outsider`, ['TICKET_NOTE_ADDED']);

    const timeline = `subscription { ticketTimelineEvents(ticketId: ${ticketId}, afterSeq: 0) { __typename ... on TicketNote { id body } ... on TicketChange { kind } } }`;
    const teammateSocket = wsClient(gw.url, teammate.cookieHeader, { lazy: false });
    const outsiderSocket = wsClient(gw.url, outsider.cookieHeader, { lazy: false });
    try {
      const live = collect(teammateSocket, timeline);
      const outside = collect(outsiderSocket, timeline);
      // The subscription is in place once the ticket's creation (the entry after seq 0) has reached the teammate.
      await expect.poll(() => live.events.map((e) => e?.ticketTimelineEvents?.kind), { timeout: 10_000 }).toContain('CREATED');
      const note = (await data(assignee, 'mutation($t: Int!) { addTicketNote(ticketId: $t, body: "Checked the tray.") { id } }', { t: ticketId }))
        .addTicketNote;
      await expect.poll(() => live.events.some((e) => e?.ticketTimelineEvents?.id === note.id), { timeout: 10_000 }).toBe(true);
      expect(live.events.find((e) => e?.ticketTimelineEvents?.id === note.id)?.ticketTimelineEvents).toEqual({
        __typename: 'TicketNote',
        id: note.id,
        body: 'Checked the tray.',
      });
      // Its edit and deletion are entries of the teammate's timeline too.
      await data(assignee, 'mutation($id: Int!) { editTicketNote(id: $id, body: "Checked the tray twice.") { id } }', { id: note.id });
      await data(assignee, 'mutation($id: Int!) { deleteTicketNote(id: $id) { id } }', { id: note.id });
      const kinds = () => live.events.map((e) => e?.ticketTimelineEvents?.kind).filter(Boolean);
      await expect.poll(kinds, { timeout: 10_000 }).toEqual(expect.arrayContaining(['NOTE_EDITED', 'NOTE_DELETED']));

      const [hook] = await receiver.waitFor(1, (r) => r.path === '/teammate');
      expect(hook.json.type).toBe('TICKET_NOTE_ADDED');
      expect(hook.json.data).toMatchObject({ id: note.id, ticketId, authorId: ids.assignee });
      expect(JSON.stringify(hook.json)).not.toContain('Checked the tray');
      // The outsider's socket was refused the ticket, and their endpoint heard nothing of it.
      expect(outside.events.filter((e) => e?.ticketTimelineEvents != null)).toEqual([]);
      expect(receiver.received.filter((r) => r.path === '/outsider')).toEqual([]);
    } finally {
      await teammateSocket.dispose();
      await outsiderSocket.dispose();
    }
  }, 60_000);
});
