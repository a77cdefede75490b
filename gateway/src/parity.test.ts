/**
 * One service layer, two transports: the same create / edit / delete through REST and through GraphQL must
 * store the same thing. Compared on the stored rows themselves, not on the responses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkEm } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from './testing/harness.js';
import type { TestClient } from './testing/client.js';
import { PNG } from './testing/fixtures.js';

let gw: TestGateway;
let demo: TestClient;

beforeAll(async () => ([gw, demo] = await startSignedIn(0)));
afterAll(() => gw.destroy());

/** A stored row without its id and timestamps. */
async function stored(table: string, id: number): Promise<Record<string, unknown> | undefined> {
  const em = forkEm(gw.orm);
  const [row] = await em.getConnection().execute<Record<string, unknown>[]>(em.getKnex().from(table).where('id', id) as never);
  if (!row) return undefined;
  // event_seq and version count the ticket's writes: the legacy REST flow adds the image with a second call, so a
  // second event and a second version. thread_token is random per ticket (the thread root of its mail): only its form.
  const { id: _id, created_at: _c, updated_at: _u, event_seq: _e, version: _v, thread_token: token, ...rest } = row;
  return token === undefined ? rest : { ...rest, thread_token: typeof token === 'string' && /^[0-9a-f]{32}$/.test(token) ? 'random' : token };
}

async function storedImage(ticketId: number) {
  const em = forkEm(gw.orm);
  const [row] = await em
    .getConnection()
    .execute<Record<string, unknown>[]>(
      em.getKnex().from('ticket_images').where('ticket_id', ticketId).select('mime_type', 'byte_size', 'width', 'height', 'data') as never,
    );
  return row ? { ...row, data: Buffer.from(row.data as Buffer).toString('base64') } : undefined;
}

describe('REST and GraphQL store the same thing', () => {
  it('tickets: create (with image), edit, delete', async () => {
    const viaRest = (
      await demo.post('/api/tickets/create', {
        title: 'Same',
        type: 'Problem',
        priority: 'Urgent',
        assignee: 1,
        requester: '4',
        apply_macro: '2',
        description: 'Identical body',
      })
    ).body.id;
    await demo.upload('POST', `/api/tickets/${viaRest}/add-image`, { data: PNG });
    const viaGql = (
      await demo.gqlUpload(
        'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
        { i: { title: 'Same', type: 'Problem', priority: 'Urgent', requesterId: 4, macroId: 2, description: 'Identical body' } },
        'img',
        { data: PNG },
      )
    ).data!.createTicket.id;
    expect(await stored('tickets', viaGql)).toEqual(await stored('tickets', viaRest));
    expect(await storedImage(viaGql)).toEqual(await storedImage(viaRest));

    await demo.put(`/api/tickets/${viaRest}/edit`, {
      title: 'Edited',
      type: 'Task',
      priority: 'Low',
      requester: 5,
      apply_macro: null,
      description: 'Edited body',
    });
    await demo.gql('mutation($id: Int!, $i: TicketInput!) { updateTicket(id: $id, input: $i) { id } }', {
      id: viaGql,
      i: { title: 'Edited', type: 'Task', priority: 'Low', requesterId: 5, macroId: null, description: 'Edited body' },
    });
    expect(await stored('tickets', viaGql)).toEqual(await stored('tickets', viaRest));
    expect(await storedImage(viaGql)).toEqual(await storedImage(viaRest));

    await demo.get(`/api/tickets/${viaRest}/delete`);
    await demo.gql('mutation($id: Int!) { deleteTicket(id: $id) }', { id: viaGql });
    expect(await stored('tickets', viaRest)).toBeUndefined();
    expect(await stored('tickets', viaGql)).toBeUndefined();
    expect(await storedImage(viaRest)).toBeUndefined();
    expect(await storedImage(viaGql)).toBeUndefined();
  });

  it('customers: create, edit, delete (emails differ, so they are compared without them)', async () => {
    const viaRest = (await demo.post('/api/customers/create', { name: '  Pat Lee ', email: ' PAT@Example.com ' })).body.id;
    const viaGql = (await demo.gql('mutation { createCustomer(input: { name: "  Pat Lee ", email: " PAT2@Example.com " }) { id } }')).data!.createCustomer.id;
    const strip = async (id: number) => ({ ...(await stored('customers', id)), email: undefined });
    expect(await stored('customers', viaRest)).toMatchObject({ name: 'Pat Lee', email: 'pat@example.com', owner_id: 1 });
    expect(await strip(viaGql)).toEqual(await strip(viaRest));
    await demo.put(`/api/customers/edit/${viaRest}`, { name: 'Pat Q. Lee', email: 'pat@example.com' });
    await demo.gql(`mutation { updateCustomer(id: ${viaGql}, input: { name: "Pat Q. Lee", email: "pat2@example.com" }) { id } }`);
    expect(await strip(viaGql)).toEqual(await strip(viaRest));
    await demo.get(`/api/customers/${viaRest}/delete`);
    await demo.gql(`mutation { deleteCustomer(id: ${viaGql}) }`);
    expect(await stored('customers', viaRest)).toBeUndefined();
    expect(await stored('customers', viaGql)).toBeUndefined();
  });

  it('macros and messages: create, edit, delete', async () => {
    const mRest = (await demo.post('/api/macro/create', { name: ' Thanks ', description: 'Thank you!' })).body.id;
    const mGql = (await demo.gql('mutation { createMacro(input: { name: " Thanks ", description: "Thank you!" }) { id } }')).data!.createMacro.id;
    expect(await stored('macros', mGql)).toEqual(await stored('macros', mRest));
    await demo.put(`/api/macro/edit/${mRest}`, { name: 'Thanks!', description: 'Many thanks' });
    await demo.gql(`mutation { updateMacro(id: ${mGql}, input: { name: "Thanks!", description: "Many thanks" }) { id } }`);
    expect(await stored('macros', mGql)).toEqual(await stored('macros', mRest));

    const sRest = (await demo.post('/api/messages/create/too/3', { message: 'Same words' })).body.id;
    const sGql = (await demo.gql('mutation { sendMessage(receiverId: 3, text: "Same words") { id } }')).data!.sendMessage.id;
    expect(await stored('messages', sGql)).toEqual(await stored('messages', sRest));
    await demo.put(`/api/messages/edit/${sRest}`, { message: 'Edited words' });
    await demo.gql(`mutation { editMessage(id: ${sGql}, text: "Edited words") { id } }`);
    expect(await stored('messages', sGql)).toEqual(await stored('messages', sRest));

    await demo.get(`/api/macro/${mRest}/delete`);
    await demo.gql(`mutation { deleteMacro(id: ${mGql}) { id } }`);
    await demo.get(`/api/messages/${sRest}/delete`);
    await demo.gql(`mutation { deleteMessage(id: ${sGql}) }`);
    for (const [table, id] of [
      ['macros', mRest],
      ['macros', mGql],
      ['messages', sRest],
      ['messages', sGql],
    ] as const)
      expect(await stored(table, id)).toBeUndefined();
  });

  it('refusals agree too: the same bad input gets the same field messages on both', async () => {
    const rest = await demo.post('/api/tickets/create', { title: 'x'.repeat(41), requester: 1, description: 'ab' });
    const gql = await demo.gql('mutation { updateTicket(id: 1, input: { title: "' + 'x'.repeat(41) + '", requesterId: 1, description: "ab" }) { id } }');
    expect(gql.errors![0].extensions!.fields).toEqual(rest.body.errors);
    const restMacro = await demo.put('/api/macro/edit/1', { name: 'No', description: 'x' });
    const gqlMacro = await demo.gql('mutation { updateMacro(id: 1, input: { name: "No", description: "x" }) { id } }');
    expect(gqlMacro.errors![0].message).toBe(restMacro.body.errors.message);
  });
});
