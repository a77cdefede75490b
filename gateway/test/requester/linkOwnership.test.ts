/**
 * A requester link belongs to one requester at one address (services/requesterLinks.ts), through a real gateway
 * over HTTP on 127.0.0.1, SQLite or PostgreSQL + Redis: a change of the ticket's requester draws a new link (the old
 * one is 404, the new one shows only the public entries from the change on and says earlier messages are not
 * shown); a change of the requester's email draws a new link too. A customer's email, which redirects their
 * tickets' mail and links, may be changed only by a caller who may read every ticket of theirs (or an admin), on
 * both doors (GraphQL FORBIDDEN, REST 403), and the change is an UPDATED entry (`requester.email`) in each of their
 * tickets' timeline and history.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';

let gw: TestGateway;
let admin: TestClient;
let marnie: TestClient;
let bobbie: TestClient;
const stamp = Date.now().toString(36);
let n = 0;

beforeAll(async () => {
  gw = await startTestGateway({ admin: true });
  [admin, marnie, bobbie] = [await gw.as(0), await gw.as(1), await gw.as(2)];
}, 60_000);
afterAll(() => gw?.destroy());

async function customer(owner: TestClient, name: string): Promise<{ id: number; email: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${stamp}.${++n}@example.test`;
  const made = dataOf(await owner.gql('mutation ($i: CustomerInput!) { createCustomer(input: $i) { id email } }', { i: { name, email } }));
  return made.createCustomer as { id: number; email: string };
}

async function ticket(client: TestClient, requesterId: number, title: string): Promise<number> {
  const made = await client.gqlUpload(
    'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
    { input: { title, requesterId, description: 'Link ownership.' } },
    'image',
    { data: PNG },
  );
  return dataOf(made).createTicket.id as number;
}

const linkOf = async (client: TestClient, id: number) => dataOf(await client.gql(`{ ticket(id: ${id}) { requesterLink } }`)).ticket.requesterLink as string;
const reply = async (client: TestClient, id: number, body: string) =>
  dataOf(await client.gql('mutation ($id: Int!, $b: String!) { replyToRequester(ticketId: $id, body: $b) { id } }', { id, b: body }));
const answer = (link: string, body: string) => fetch(link, { method: 'POST', body: new URLSearchParams({ body }), redirect: 'manual' });
const setRequester = async (client: TestClient, id: number, requesterId: number, title: string) =>
  dataOf(
    await client.gql('mutation ($id: Int!, $i: TicketInput!) { updateTicket(id: $id, input: $i) { id } }', {
      id,
      i: { title, requesterId, description: 'Link ownership.' },
    }),
  );
const setEmail = (client: TestClient, id: number, name: string, email: string) =>
  client.gql('mutation ($id: Int!, $i: CustomerInput!) { updateCustomer(id: $id, input: $i) { id email } }', { id, i: { name, email } });

/** The `requester.email` changes of a ticket's timeline and of its history. */
async function emailChanges(client: TestClient, id: number): Promise<{ timeline: unknown[]; history: unknown[] }> {
  const CHANGE = '... on TicketChange { kind changes { field from to } }';
  const data = dataOf(
    await client.gql(
      `{ ticket(id: ${id}) { timeline(filter: CHANGES, first: 20) { nodes { ${CHANGE} } } } ticketHistory(ticketId: ${id}, first: 20) { nodes { kind changes { field from to } } } }`,
    ),
  );
  type Change = { kind: string; changes: { field: string; from: string | null; to: string | null }[] };
  const pick = (nodes: Change[]) =>
    nodes.filter((c) => c.changes?.some((f) => f.field === 'requester.email')).map((c) => ({ kind: c.kind, changes: c.changes }));
  return { timeline: pick(data.ticket.timeline.nodes as Change[]), history: pick(data.ticketHistory.nodes as Change[]) };
}

describe('a change of requester', () => {
  it("draws a new link: Alice's old link is 404, Bob's shows only what comes after the change, and says so", async () => {
    const alice = await customer(marnie, 'Alice');
    const bob = await customer(marnie, 'Bob');
    const id = await ticket(marnie, alice.id, `Moved ${stamp}`);
    await reply(marnie, id, 'FOR-ALICE-reply');
    const aliceLink = await linkOf(marnie, id);
    expect((await answer(aliceLink, 'FOR-ALICE-answer')).status).toBe(303);
    const before = await (await fetch(aliceLink)).text();
    expect(before).toContain('FOR-ALICE-answer');
    expect(before).not.toContain('Earlier messages');

    await setRequester(marnie, id, bob.id, `Moved ${stamp}`);
    const old = await fetch(aliceLink);
    expect(old.status).toBe(404);
    expect(await old.text()).not.toContain('FOR-ALICE');
    expect((await answer(aliceLink, 'ALICE-after-move')).status).toBe(404);

    const bobLink = await linkOf(marnie, id);
    expect(bobLink).not.toBe(aliceLink);
    await reply(marnie, id, 'FOR-BOB-reply');
    expect((await answer(bobLink, 'FROM-BOB-answer')).status).toBe(303);
    const page = await (await fetch(bobLink)).text();
    expect(page).toContain('FOR-BOB-reply');
    expect(page).toContain('FROM-BOB-answer');
    expect(page).not.toContain('FOR-ALICE');
    expect(page).toContain('Earlier messages on this request are not shown here.');
    // Nothing of Alice's reached the store after the move; the agents still see the whole conversation.
    const timeline = JSON.stringify(dataOf(await marnie.gql(`{ ticket(id: ${id}) { timeline(filter: REPLIES) { totalCount } } }`)));
    expect(timeline).toContain('"totalCount":4');
  });

  it("the new link shows no file of the old requester's conversation", async () => {
    const alice = await customer(marnie, 'Alice Files');
    const bob = await customer(marnie, 'Bob Files');
    const id = await ticket(marnie, alice.id, `Files ${stamp}`);
    const aliceLink = await linkOf(marnie, id);
    const form = new FormData();
    form.append('body', 'with an image');
    form.append('images', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'alice.png');
    expect((await fetch(aliceLink, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${aliceLink}?file=1`)).status).toBe(200);
    await setRequester(marnie, id, bob.id, `Files ${stamp}`);
    const bobLink = await linkOf(marnie, id);
    expect((await fetch(`${bobLink}?file=1`)).status).toBe(404);
    expect(await (await fetch(bobLink)).text()).not.toContain('alice.png');
  });

  it('an edit that keeps the requester keeps the link', async () => {
    const carol = await customer(marnie, 'Carol');
    const id = await ticket(marnie, carol.id, `Kept ${stamp}`);
    const link = await linkOf(marnie, id);
    await setRequester(marnie, id, carol.id, `Kept, renamed ${stamp}`);
    expect(await linkOf(marnie, id)).toBe(link);
    expect((await fetch(link)).status).toBe(200);
  });
});

describe("a change of the requester's email", () => {
  it("refused for the customer's owner who cannot read one of the customer's tickets, on both doors; nothing changes", async () => {
    const dora = await customer(marnie, 'Dora');
    const id = await ticket(bobbie, dora.id, `Bobbie's ${stamp}`);
    await reply(bobbie, id, 'BOBBIE-public-reply');
    const link = await linkOf(bobbie, id);
    const gql = await setEmail(marnie, dora.id, 'Dora', `marnie.inbox.${stamp}@example.test`);
    expect(gql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const rest = await marnie.rest('PUT', `/api/customers/edit/${dora.id}`, { name: 'Dora', email: `marnie.inbox2.${stamp}@example.test` });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ errors: { message: 'Forbidden' } });
    expect(dataOf(await marnie.gql(`{ customer(id: ${dora.id}) { email } }`)).customer.email).toBe(dora.email);
    expect((await fetch(link)).status).toBe(200);
    expect(await emailChanges(bobbie, id)).toEqual({ timeline: [], history: [] });
    // Her name is still hers to change: only the address redirects mail.
    const renamed = await marnie.rest('PUT', `/api/customers/edit/${dora.id}`, { name: 'Dora Renamed', email: dora.email });
    expect(renamed.status).toBe(200);
  });

  it('allowed for an owner who reads every ticket of the customer: a history entry in each, the link drawn anew', async () => {
    const erin = await customer(marnie, 'Erin');
    const ids = [await ticket(marnie, erin.id, `Erin one ${stamp}`), await ticket(marnie, erin.id, `Erin two ${stamp}`)];
    const link = await linkOf(marnie, ids[0]);
    const next = `erin.new.${stamp}@example.test`;
    const rest = await marnie.rest('PUT', `/api/customers/edit/${erin.id}`, { name: 'Erin', email: next });
    expect(rest.status).toBe(200);
    const entry = { kind: 'UPDATED', changes: [{ field: 'requester.email', from: erin.email, to: next }] };
    for (const id of ids) expect(await emailChanges(marnie, id)).toEqual({ timeline: [entry], history: [entry] });
    expect((await fetch(link)).status).toBe(404);
    const drawn = await linkOf(marnie, ids[0]);
    expect(drawn).not.toBe(link);
    expect((await fetch(drawn)).status).toBe(200);
  });

  it("allowed for an admin, whatever agent holds the customer's tickets (GraphQL)", async () => {
    const finn = await customer(admin, 'Finn');
    const id = await ticket(bobbie, finn.id, `Finn ${stamp}`);
    const next = `finn.new.${stamp}@example.test`;
    expect(dataOf(await setEmail(admin, finn.id, 'Finn', next)).updateCustomer.email).toBe(next);
    const entry = { kind: 'UPDATED', changes: [{ field: 'requester.email', from: finn.email, to: next }] };
    expect(await emailChanges(bobbie, id)).toEqual({ timeline: [entry], history: [entry] });
  });
});

describe('customer emails', () => {
  it('an address a mail header would read as two (`x>,<y@example.com`) is refused with the email message, on both doors', async () => {
    const bad = `x>,<y.${stamp}@example.test`;
    const rest = await marnie.rest('POST', '/api/customers/create', { name: 'Split', email: bad });
    expect(rest.status).toBe(400);
    expect(JSON.stringify(rest.body)).toContain(rules.MESSAGES.email);
    const gql = await marnie.gql('mutation ($i: CustomerInput!) { createCustomer(input: $i) { id } }', { i: { name: 'Split', email: bad } });
    expect(gql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const mine = await customer(marnie, 'Gus');
    expect((await setEmail(marnie, mine.id, 'Gus', bad)).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('fast-check: an address with a header separator or quote anywhere is refused; plain ones pass', () => {
    const plain = fc.stringMatching(/^[a-z0-9._+-]{1,20}$/);
    const special = fc.constantFrom('<', '>', ',', ';', ':', '"', '(', ')', '[', ']', '\\', '\u0001', '\u007f');
    fc.assert(
      fc.property(plain, plain, special, fc.nat(), fc.boolean(), (local, domain, c, at, inLocal) => {
        const side = inLocal ? local : domain;
        const cut = at % (side.length + 1);
        const spoiled = side.slice(0, cut) + c + side.slice(cut);
        const email = inLocal ? `${spoiled}@${domain}` : `${local}@${spoiled}`;
        expect(rules.validateCustomer({ name: 'N', email }).email).toEqual([rules.MESSAGES.email]);
        expect(rules.validateCustomer({ name: 'N', email: `${local}@${domain}` }).email ?? []).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
