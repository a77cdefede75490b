/**
 * Input errors name the fields the caller sent: GraphQL by its input's field and argument names (`requesterId`,
 * `macroId`, `text`, `receiverId`), REST by its body's names (`requester`, `apply_macro`, `message`). The same
 * rule says the same thing through both doors; only the names differ, and the service names none of them twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rules } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../testing/harness.js';
import type { GqlResult, TestClient } from '../testing/client.js';
import { PNG } from '../testing/fixtures.js';

const { MESSAGES, TICKET_TYPES, TICKET_PRIORITIES } = rules;
let gw: TestGateway;
let demo: TestClient;
let marnieMacro: number;

const CREATE = 'mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }';
const UPDATE = 'mutation($id: Int!, $input: TicketInput!) { updateTicket(id: $id, input: $input) { id } }';
const fieldsOf = (res: GqlResult) => res.errors?.[0]?.extensions?.fields;

/** TicketInput's fields (and the image argument) / the REST body's fields. */
const GRAPHQL_NAMES = ['title', 'type', 'priority', 'requesterId', 'macroId', 'description', 'image'];
const REST_NAMES = ['title', 'type', 'priority', 'assignee', 'requester', 'apply_macro', 'description'];
/** What each GraphQL name is called on the REST side. */
const REST_NAME_OF: Record<string, string> = { requesterId: 'requester', macroId: 'apply_macro' };

beforeAll(async () => {
  let marnie: TestClient;
  [gw, demo, marnie] = await startSignedIn(0, 1);
  marnieMacro = (await marnie.gql('mutation { createMacro(input: { name: "Marnie only", description: "mine" }) { id } }')).data!.createMacro.id;
});
afterAll(() => gw.destroy());

async function tickets(): Promise<number> {
  return (await demo.gql('{ tickets(first: 1) { totalCount } }')).data!.tickets.totalCount;
}

describe('field names of input errors', () => {
  it('createTicket and updateTicket: requesterId and macroId through GraphQL; requester and apply_macro through REST', async () => {
    const before = await tickets();
    const bad = { title: 'Printer on fire', requesterId: 424242, macroId: marnieMacro, description: 'Smoke from tray 2.' };
    const viaGraphql = await demo.gqlUpload(CREATE, { input: bad }, 'image', { data: PNG });
    expect(viaGraphql.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'requesterId' });
    expect(fieldsOf(viaGraphql)).toEqual({ requesterId: [MESSAGES.ticketRequesterUnknown], macroId: [MESSAGES.ticketMacro] });

    const viaRest = await demo.post('/api/tickets/create', {
      title: 'Printer on fire',
      assignee: 1,
      requester: 424242,
      apply_macro: marnieMacro,
      description: 'Smoke from tray 2.',
    });
    expect(viaRest.status).toBe(400);
    expect(viaRest.body.errors).toEqual({ requester: [MESSAGES.ticketRequesterUnknown], apply_macro: [MESSAGES.ticketMacro] });
    expect(await tickets()).toBe(before);

    const id = (await demo.gqlUpload(CREATE, { input: { ...bad, requesterId: 1, macroId: 1 } }, 'image', { data: PNG })).data!.createTicket.id;
    expect(fieldsOf(await demo.gql(UPDATE, { id, input: { ...bad, requesterId: 0 } }))).toEqual({
      requesterId: [MESSAGES.ticketRequesterUnknown],
      macroId: [MESSAGES.ticketMacro],
    });
    const restEdit = await demo.put(`/api/tickets/${id}/edit`, { title: '', requester: '', apply_macro: 'x', description: 'ok ok' });
    expect(restEdit.body.errors).toEqual({ title: [MESSAGES.ticketTitle], requester: [MESSAGES.ticketRequester], apply_macro: [MESSAGES.ticketMacro] });
  });

  it('sendMessage and editMessage: text and receiverId through GraphQL; message through REST', async () => {
    expect(fieldsOf(await demo.gql('mutation { sendMessage(receiverId: 2, text: "") { id } }'))).toEqual({ text: [MESSAGES.message] });
    expect(fieldsOf(await demo.gql('mutation { sendMessage(receiverId: 1, text: "hello me") { id } }'))).toEqual({
      receiverId: ['You cannot send a message to yourself.'],
    });
    const sent = (await demo.gql('mutation { sendMessage(receiverId: 2, text: "hello") { id } }')).data!.sendMessage.id;
    expect(fieldsOf(await demo.gql(`mutation { editMessage(id: ${sent}, text: "   ") { id } }`))).toEqual({ text: [MESSAGES.message] });
    expect((await demo.post('/api/messages/create/too/2', { message: '' })).body.errors).toEqual({ message: [MESSAGES.message] });
  });

  it('any ticket input: GraphQL names only its input fields, REST only its body fields, with the same messages (property)', async () => {
    const text = fc.oneof(fc.constant(''), fc.constant('   '), fc.string({ maxLength: 50 }), fc.string({ minLength: 2000, maxLength: 2100 }));
    const id = fc.oneof(fc.constant(1), fc.constant(424242), fc.constant(0), fc.integer({ min: -5, max: 3 }));
    const input = fc.record({
      title: text,
      description: text,
      type: fc.constantFrom(...TICKET_TYPES),
      priority: fc.constantFrom(...TICKET_PRIORITIES),
      requesterId: id,
      macroId: fc.oneof(fc.constant(null), fc.constant(marnieMacro), id),
    });
    await fc.assert(
      fc.asyncProperty(input, async (ticket) => {
        const before = await tickets();
        const gql = await demo.gqlUpload(CREATE, { input: ticket }, 'image', { data: PNG });
        const rest = await demo.post('/api/tickets/create', {
          title: ticket.title,
          type: ticket.type,
          priority: ticket.priority,
          assignee: 1,
          requester: ticket.requesterId,
          apply_macro: ticket.macroId,
          description: ticket.description,
        });
        if (!gql.errors) {
          expect(rest.status).toBe(201);
          expect(await tickets()).toBe(before + 2);
          return;
        }
        const gqlFields = fieldsOf(gql) ?? {};
        expect(Object.keys(gqlFields).every((name) => GRAPHQL_NAMES.includes(name))).toBe(true);
        expect(rest.status).toBe(400);
        expect(Object.keys(rest.body.errors).every((name) => REST_NAMES.includes(name))).toBe(true);
        const renamed = Object.fromEntries(Object.entries(gqlFields).map(([name, list]) => [REST_NAME_OF[name] ?? name, list]));
        expect(rest.body.errors).toEqual(renamed);
        expect(await tickets()).toBe(before);
      }),
      { numRuns: 30 },
    );
  });
});
