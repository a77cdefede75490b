/** Live events over graphql-ws: delivered to the right agents only, for REST and GraphQL writes alike. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { forkEm, Session } from '@fulcrum/schema';
import { startSignedIn, startTestGateway, type TestGateway } from '../testing/harness.js';
import type { TestClient } from '../testing/client.js';
import { CUSTOMER_EVENTS, MACRO_EVENTS, MESSAGE_EVENTS, TICKET_EVENTS, collect, connected, wsClient } from '../testing/wsClient.js';

let gw: TestGateway;
let demo: TestClient;
let marnie: TestClient;
let bobbie: TestClient;
const sockets: Client[] = [];
const socketFor = (c: TestClient) => {
  const s = wsClient(gw.url, c.cookieHeader);
  sockets.push(s);
  return s;
};
const settle = () => new Promise((r) => setTimeout(r, 150));

beforeAll(async () => ([gw, demo, marnie, bobbie] = await startSignedIn(0, 1, 2)));
afterAll(async () => {
  await Promise.all(sockets.map(async (s) => s.dispose()));
  await gw.destroy();
});

describe('message events', () => {
  it('reach sender and receiver (REST and GraphQL writes), and nobody else', async () => {
    const toMarnie = collect(socketFor(marnie), MESSAGE_EVENTS);
    const toDemo = collect(socketFor(demo), MESSAGE_EVENTS);
    const toBobbie = collect(socketFor(bobbie), MESSAGE_EVENTS);
    await settle();
    const viaRest = (await demo.post('/api/messages/create/too/2', { message: 'Over REST' })).body;
    await toMarnie.waitFor(1);
    expect(toMarnie.events[0]).toEqual({
      messageEvents: { kind: 'CREATED', id: viaRest.id, senderId: 1, receiverId: 2, message: { id: viaRest.id, text: 'Over REST' } },
    });
    await demo.gql(`mutation { editMessage(id: ${viaRest.id}, text: "Edited over GraphQL") { id } }`);
    await demo.get(`/api/messages/${viaRest.id}/delete`);
    await toMarnie.waitFor(3);
    await toDemo.waitFor(3);
    expect(toMarnie.events.map((e) => e.messageEvents.kind)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    expect(toMarnie.events[1].messageEvents.message.text).toBe('Edited over GraphQL');
    expect(toMarnie.events[2].messageEvents.message).toBeNull();
    await settle();
    expect(toBobbie.events).toEqual([]);
  });
});

describe('list events', () => {
  it('tickets go to their agent only; customers to everyone; macros to their owner', async () => {
    const demoTickets = collect(socketFor(demo), TICKET_EVENTS);
    const marnieTickets = collect(socketFor(marnie), TICKET_EVENTS);
    const marnieCustomers = collect(socketFor(marnie), CUSTOMER_EVENTS);
    const marnieMacros = collect(socketFor(marnie), MACRO_EVENTS);
    const demoMacros = collect(socketFor(demo), MACRO_EVENTS);
    await settle();
    const ticket = (await demo.post('/api/tickets/create', { title: 'Live', requester: 1, description: 'Seen live' })).body;
    await demoTickets.waitFor(1);
    expect(demoTickets.events[0]).toEqual({ ticketEvents: { kind: 'CREATED', id: ticket.id, ticket: { id: ticket.id, title: 'Live' } } });
    await demo.gql(`mutation { deleteTicket(id: ${ticket.id}) }`);
    await demoTickets.waitFor(2);
    expect(demoTickets.events[1]).toEqual({ ticketEvents: { kind: 'DELETED', id: ticket.id, ticket: null } });

    const customer = (await demo.gql('mutation { createCustomer(input: { name: "Live Customer", email: "live@example.com" }) { id } }')).data!.createCustomer;
    await marnieCustomers.waitFor(1);
    expect(marnieCustomers.events[0]).toEqual({ customerEvents: { kind: 'CREATED', id: customer.id, customer: { id: customer.id, name: 'Live Customer' } } });

    const macro = (await demo.post('/api/macro/create', { name: 'Live macro', description: 'x' })).body;
    await demoMacros.waitFor(1);
    expect(demoMacros.events[0].macroEvents).toMatchObject({ kind: 'CREATED', id: macro.id });
    await settle();
    expect(marnieTickets.events).toEqual([]);
    expect(marnieMacros.events).toEqual([]);
  });
});

describe('each event is executed afresh', () => {
  it('a record edited between two events is delivered as it is now (no loader kept for the socket)', async () => {
    const events = collect(socketFor(demo), 'subscription { ticketEvents { kind id ticket { id status requester { id name } } } }');
    await settle();
    const customer = (await demo.gql('mutation { createCustomer(input: { name: "Before Rename", email: "fresh@example.com" }) { id } }')).data!.createCustomer;
    const ticket = (await demo.post('/api/tickets/create', { title: 'Fresh', requester: customer.id, description: 'Read afresh' })).body;
    await events.waitFor(1);
    expect(events.events[0].ticketEvents.ticket.requester).toEqual({ id: customer.id, name: 'Before Rename' });
    await demo.gql(`mutation { updateCustomer(id: ${customer.id}, input: { name: "After Rename", email: "fresh@example.com" }) { id } }`);
    await demo.gql(`mutation { setTicketStatus(id: ${ticket.id}, status: PENDING) { id } }`);
    await events.waitFor(2);
    expect(events.events[1].ticketEvents).toMatchObject({
      kind: 'UPDATED',
      ticket: { status: 'PENDING', requester: { id: customer.id, name: 'After Rename' } },
    });
    await demo.gql(`mutation { deleteTicket(id: ${ticket.id}) }`);
    await events.waitFor(3);
  });
});

describe('connection', () => {
  it('refuses a socket without a session (4403)', async () => {
    const anonymous = wsClient(gw.url, '');
    sockets.push(anonymous);
    const closed = new Promise<{ code: number }>((resolve) => anonymous.on('closed', (e) => resolve(e as { code: number })));
    collect(anonymous, MESSAGE_EVENTS);
    expect((await closed).code).toBe(4403);
  });

  it('closes the sockets of a session that logged out', async () => {
    const c = await gw.as(2);
    const socket = socketFor(c);
    const events = collect(socket, MESSAGE_EVENTS);
    await connected(socket);
    const closed = new Promise<{ code: number }>((resolve) => socket.on('closed', (e) => resolve(e as { code: number })));
    await c.get('/api/auth/logout');
    expect((await closed).code).toBe(4401);
    expect(events.events).toEqual([]);
  });
});

describe('switching agents in one browser', () => {
  it("closes the previous session's sockets when the browser signs in again", async () => {
    const browser = await gw.as(0);
    const socket = socketFor(browser);
    const events = collect(socket, MESSAGE_EVENTS);
    await connected(socket);
    const closed = new Promise<{ code: number }>((resolve) => socket.on('closed', (e) => resolve(e as { code: number })));
    await browser.login('marnie@fulcrum.app', 'fulcrum-marnie'); // same cookie jar: a new session replaces Demo's
    expect((await closed).code).toBe(4401);
    await marnie.post('/api/messages/create/too/1', { message: 'for Demo only' });
    await settle();
    expect(events.events).toEqual([]);
  });
});

describe('sessions that end without an event', () => {
  it('a socket whose session expired (or whose logout event was lost) is closed by the periodic check', async () => {
    const quick = await startTestGateway({ sessionRecheckMs: 100 });
    try {
      const c = await quick.as(0);
      const socket = wsClient(quick.url, c.cookieHeader);
      sockets.push(socket);
      collect(socket, MESSAGE_EVENTS);
      await connected(socket);
      const closed = new Promise<{ code: number }>((resolve) => socket.on('closed', (e) => resolve(e as { code: number })));
      // Expire the session in the database directly: no logout, so no sessionEnded event is published.
      await forkEm(quick.orm).nativeUpdate(Session, {}, { expiresAt: new Date(Date.now() - 1000) });
      expect((await closed).code).toBe(4401);
    } finally {
      await quick.destroy();
    }
  });
});
