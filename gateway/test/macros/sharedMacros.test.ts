/**
 * Shared macros through the real gateway: GraphQL's `macros(includeShared: true)` and `renderMacro`, while the REST
 * macro list and its shapes stay what REST-CONTRACT.md fixes (the caller's macros and macro 1, four keys each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';

let gw: TestGateway;
let admin: TestClient;
let author: TestClient;
let mate: TestClient;
let ids: { author: number; mate: number };
beforeAll(async () => {
  [gw, admin, author, mate] = await startSignedIn(0, 1, 2);
  await gw.orm.em.getConnection().execute(`update users set role = 'ADMIN' where email = 'demo@fulcrum.app'`);
  const me = async (c: TestClient) => Number(dataOf(await c.gql('{ me { id } }')).me.id);
  ids = { author: await me(author), mate: await me(mate) };
});
afterAll(() => gw.destroy());

const CREATE = 'mutation($input: MacroInput!) { createMacro(input: $input) { id sharing team { id name } } }';
const LIST = 'query($s: Boolean) { macros(includeShared: $s, first: 100) { nodes { id sharing team { name } } } }';

describe('shared macros over the gateway', () => {
  it('TEAM and EVERYONE macros reach their audience in GraphQL; the REST list and shapes are unchanged', async () => {
    const team = dataOf(await admin.gql('mutation { createTeam(name: "Tier 1") { id } }')).createTeam.id;
    for (const userId of [ids.author, ids.mate]) dataOf(await admin.gql(`mutation { addTeamMember(teamId: ${team}, userId: ${userId}) { id } }`));
    const shared = dataOf(await author.gql(CREATE, { input: { name: 'Password reset', description: 'Hi {{requester.name}}', sharing: 'TEAM', teamId: team } }));
    expect(shared.createMacro).toMatchObject({ sharing: 'TEAM', team: { id: team, name: 'Tier 1' } });
    const everyone = dataOf(await admin.gql(CREATE, { input: { name: 'Greeting', description: 'Hello from {{agent.name}}', sharing: 'EVERYONE' } }));
    const refused = await author.gql(CREATE, { input: { name: 'Wide', description: 'x', sharing: 'EVERYONE' } });
    expect((refused.errors as { extensions: { code: string } }[])[0].extensions.code).toBe('FORBIDDEN');

    const listed = (r: { data?: Record<string, any> | null; errors?: unknown }) => dataOf(r).macros.nodes.map((m: { id: number }) => m.id);
    expect(listed(await mate.gql(LIST, { s: true }))).toEqual(expect.arrayContaining([shared.createMacro.id, everyone.createMacro.id, 1]));
    const plain = listed(await mate.gql(LIST, {}));
    expect(plain).toContain(1);
    expect(plain).not.toContain(shared.createMacro.id);
    expect(plain).not.toContain(everyone.createMacro.id);

    // REST: the caller's own and macro 1, the same list as the default GraphQL one, four keys each.
    const rest = await mate.get('/api/macro/');
    expect(rest.status).toBe(200);
    expect(rest.body.map((m: { id: number }) => m.id)).toEqual(plain);
    expect(rest.body.map((m: object) => Object.keys(m).sort())).toEqual(plain.map(() => ['description', 'id', 'name', 'user_id']));
    expect(rest.body.at(-1)).toEqual({ id: 1, user_id: null, name: 'No Macro', description: expect.any(String) });
    expect((await mate.get(`/api/macro/${everyone.createMacro.id}`)).status).toBe(404);

    const ticket = (await mate.post('/api/tickets/create', validTicket())).body;
    const rendered = await mate.gql('query($m: Int!, $t: Int!) { renderMacro(macroId: $m, ticketId: $t) }', { m: everyone.createMacro.id, t: ticket.id });
    const [{ username }] = await gw.orm.em.getConnection().execute<{ username: string }[]>('select username from users where id = ?', [ids.mate]);
    expect(dataOf(rendered).renderMacro).toBe(`Hello from ${username}`);
  });
});
