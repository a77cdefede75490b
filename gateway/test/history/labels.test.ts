/**
 * A history a lead can read: each FieldChange gives its values in words (fromLabel / toLabel): the team, agent,
 * customer and macro by name ("#<id>" once deleted), a status as the app shows it, a priority as itself. Through the
 * real gateway over HTTP, on SQLite or PostgreSQL + Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';

let gw: TestGateway;
let admin: TestClient;
let marnie: TestClient;
beforeAll(async () => {
  [gw, admin, marnie] = await startSignedIn(0, 1);
  await gw.orm.em.getConnection().execute(`update users set role = 'ADMIN' where email = 'demo@fulcrum.app'`);
});
afterAll(() => gw.destroy());

const sql = <T>(query: string, params: unknown[] = []) => gw.orm.em.getConnection().execute<T[]>(query, params);
const HISTORY = `query($t: Int!) { ticketHistory(ticketId: $t, first: 100) { nodes { seq changes { field from to fromLabel toLabel } } } }`;
const TICKET = `query($id: Int!) { ticket(id: $id) { version } }`;

describe('FieldChange labels', () => {
  it('names teams, agents, customers and macros, and gives enum words; a deleted macro is #<id>', async () => {
    const ids = async (c: TestClient) => Number(dataOf(await c.gql('{ me { id } }')).me.id);
    const [adminId, marnieId] = [await ids(admin), await ids(marnie)];
    const team = dataOf(await admin.gql('mutation { createTeam(name: "Tier 1") { id } }')).createTeam.id;
    dataOf(await admin.gql(`mutation { addTeamMember(teamId: ${team}, userId: ${marnieId}) { id } }`));
    const macro = dataOf(await admin.gql('mutation { createMacro(input: { name: "Password reset", description: "x" }) { id } }')).createMacro.id;
    const ticket = (await admin.post('/api/tickets/create', { ...validTicket(), apply_macro: macro })).body.id;
    dataOf(
      await admin.gql('mutation($id: Int!, $input: TicketInput!) { updateTicket(id: $id, input: $input) { id } }', {
        id: ticket,
        input: {
          title: 'Printer on fire',
          type: 'Incident',
          priority: 'Urgent',
          requesterId: 2,
          macroId: macro,
          description: 'Smoke from tray 2.',
          status: 'PENDING',
        },
      }),
    );
    const version = dataOf(await admin.gql(TICKET, { id: ticket })).ticket.version;
    dataOf(
      await admin.gql(
        'mutation($id: Int!, $team: Int, $to: Int, $v: Int!) { assignTicket(id: $id, teamId: $team, assigneeId: $to, expectedVersion: $v) { id } }',
        {
          id: ticket,
          team,
          to: marnieId,
          v: version,
        },
      ),
    );
    dataOf(await admin.gql(`mutation { deleteMacro(id: ${macro}) { id } }`));

    const nodes = dataOf(await admin.gql(HISTORY, { t: ticket })).ticketHistory.nodes as { changes: Record<string, string | null>[] }[];
    const changes = nodes.flatMap((n) => n.changes).filter((c) => c.from !== null);
    const byField = (field: string) => changes.filter((c) => c.field === field).map((c) => [c.fromLabel, c.toLabel]);
    const [[c1], [c2]] = [
      await sql<{ name: string }>('select name from customers where id = 1'),
      await sql<{ name: string }>('select name from customers where id = 2'),
    ];
    const names = new Map((await sql<{ id: number; username: string }>('select id, username from users')).map((u) => [Number(u.id), u.username]));
    expect(byField('priority')).toEqual([['High', 'Urgent']]);
    expect(byField('status')).toEqual([['Open', 'Pending']]);
    expect(byField('requesterId')).toEqual([[c1.name, c2.name]]);
    expect(byField('assigneeId')).toEqual([[names.get(adminId), names.get(marnieId)]]);
    expect(byField('macroId')).toEqual([[`#${macro}`, 'No Macro']]);
    const all = nodes.flatMap((n) => n.changes);
    expect(all.filter((c) => c.field === 'teamId').map((c) => [c.fromLabel, c.toLabel])).toEqual([[null, 'Tier 1']]);
    const created = nodes.at(-1)!.changes;
    expect(created.find((c) => c.field === 'status')).toMatchObject({ from: null, to: 'OPEN', fromLabel: null, toLabel: 'Open' });
  });
});
