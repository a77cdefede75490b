/** Restarting on the same DATA_DIR keeps every record, every image and the sessions; migrations do not re-run. */
import { afterAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing/harness.js';
import { PNG } from './testing/fixtures.js';

let gw: TestGateway;
afterAll(() => gw.destroy());

describe('restart', () => {
  it('keeps every record and the signed-in session', async () => {
    gw = await startTestGateway();
    const demo = await gw.as(0);
    const ticket = (await demo.post('/api/tickets/create', { title: 'Survives', requester: 2, description: 'a restart' })).body;
    const image = (await demo.upload('POST', `/api/tickets/${ticket.id}/add-image`, { data: PNG })).body;
    const customer = (await demo.post('/api/customers/create', { name: 'Kept', email: 'kept@example.com' })).body;
    const macro = (await demo.post('/api/macro/create', { name: 'Kept', description: 'kept' })).body;
    const message = (await demo.post('/api/messages/create/too/2', { message: 'still here' })).body;
    const snapshot = async () => ({
      tickets: (await demo.get('/api/tickets/')).body,
      customers: (await demo.get('/api/customers/')).body,
      macros: (await demo.get('/api/macro/')).body,
      messages: (await demo.get('/api/messages/')).body,
      users: (await demo.get('/api/users/')).body,
    });
    const before = await snapshot();

    gw = await gw.restart();
    const after = await snapshot(); // same cookie: the session survived too
    expect(after).toEqual(before);
    expect(after.tickets.some((t: { id: number }) => t.id === ticket.id)).toBe(true);
    expect(after.customers[0].id).toBe(customer.id);
    expect(after.macros[0].id).toBe(macro.id);
    expect(after.messages.at(-1).id).toBe(message.id);
    const served = await demo.fetch(image.image);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    // The demo seed ran once: still three agents, and the demo tickets were not duplicated.
    expect(after.users).toHaveLength(3);
  });
});
