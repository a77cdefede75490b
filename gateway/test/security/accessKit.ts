/**
 * What the access tests (access.test.ts, accessAnonymous.test.ts, accessAttempts.ts) share: every route of the REST
 * router, read from the router itself, and the records one agent owns for another to attack (a ticket with an image,
 * a customer, a macro, messages, a webhook and its delivery, an API token, a note, a view, a held mail), with the
 * snapshot that proves an attack changed nothing.
 */
import { expect } from 'vitest';
import { incomingMail } from '@fulcrum/schema';
import type { TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { createRestRouter } from '../../src/rest/router.js';

/** Every route of the REST router, read from the router itself so a new route cannot be forgotten. */
export function restRoutes(gw: TestGateway): { method: string; path: string }[] {
  const router = createRestRouter(gw.deps, () => {}) as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  const routes: { method: string; path: string }[] = [];
  for (const layer of router.stack) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods))
      if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: `/api${layer.route.path}` });
  }
  return routes;
}

export interface Owned {
  ticket: number;
  image: number;
  customer: number;
  macro: number;
  sent: number;
  received: number;
  ownerIndex: number;
  webhook: number;
  delivery: number;
  apiToken: number;
  note: number;
  /** A personal view. */
  view: number;
  /** A held mail on the owner's ticket. */
  held: number;
}

/** What one agent owns: a ticket with an image, a customer, a macro, a message to a third agent, and one to the attacker. */
export async function createOwned(gw: TestGateway, agents: TestClient[], ownerIndex: number, attackerIndex: number): Promise<Owned> {
  const owner = agents[ownerIndex];
  const third = [0, 1, 2].find((i) => i !== ownerIndex && i !== attackerIndex)! + 1;
  const customer = (await owner.post('/api/customers/create', { name: `Owned by ${ownerIndex}`, email: `owned-${ownerIndex}-${Date.now()}@fulcrum.test` })).body
    .id;
  const macro = (await owner.post('/api/macro/create', { name: `Macro of ${ownerIndex}`, description: 'private' })).body.id;
  const ticket = (await owner.post('/api/tickets/create', { ...validTicket(customer), apply_macro: macro })).body.id;
  const image = (await owner.upload('POST', `/api/tickets/${ticket}/add-image`, { data: PNG })).body.id;
  const sent = (await owner.post(`/api/messages/create/too/${third}`, { message: 'between owner and third' })).body.id;
  const received = (await owner.post(`/api/messages/create/too/${attackerIndex + 1}`, { message: 'owner to attacker' })).body.id;
  // A webhook endpoint (a public address: registration passes) and one logged attempt (a test send).
  const webhook = (await owner.gql('mutation { createWebhook(input: { url: "https://93.184.216.34/hook", events: [TICKET_CREATED] }) { webhook { id } } }'))
    .data?.createWebhook.webhook.id;
  const delivery = (await owner.gql('mutation($id: Int!) { sendTestWebhook(id: $id) { id } }', { id: webhook })).data?.sendTestWebhook.id;
  // An API token of the owner's (made in the owner's browser session).
  const apiToken = (await owner.gql('mutation { createApiToken(input: { name: "matrix", scopes: [READ] }) { token { id } } }')).data?.createApiToken.token.id;
  // An internal note on the owner's ticket.
  const note = (await owner.gql('mutation($t: Int!) { addTicketNote(ticketId: $t, body: "private note") { id } }', { t: ticket })).data?.addTicketNote.id;
  // A personal view of the owner's.
  const view = (await owner.gql('mutation { createView(input: { name: "private view", scope: ALL }) { id } }')).data?.createView.id;
  // A mail on the ticket's thread from another address: held for the ticket's agents.
  const raw = Buffer.from(
    `From: stranger@fulcrum.test\r\nSubject: Re: yours\r\nMessage-ID: <held-${ticket}-${Date.now()}@client.test>\r\nReferences: <ticket-${ticket}@127.0.0.1>\r\n\r\nheld mail\r\n`,
  );
  const held = (await incomingMail.receiveMail(gw.deps, { raw, auth: null })).requesterMessageId!;
  for (const id of [customer, macro, ticket, image, sent, received, webhook, delivery, apiToken, note, view, held]) expect(id).toBeTypeOf('number');
  return { ticket, image, customer, macro, sent, received, ownerIndex, webhook, delivery, apiToken, note, view, held };
}

/** The owned ticket's current version, as its owner reads it. */
export async function versionOf(owner: TestClient, o: Owned): Promise<number> {
  return (await owner.gql('query($id: Int!) { ticket(id: $id) { version } }', { id: o.ticket })).data?.ticket.version ?? 1;
}

export async function snapshot(owner: TestClient, o: Owned) {
  return JSON.stringify([
    (await owner.get(`/api/tickets/${o.ticket}`)).body,
    (await owner.get(`/api/customers/${o.customer}`)).body,
    (await owner.get(`/api/macro/${o.macro}`)).body,
    (await owner.get('/api/messages/')).body.filter((m: { id: number }) => m.id === o.sent || m.id === o.received),
    (await owner.fetch(`/images/${o.image}`)).status,
    (
      await owner.gql(
        'query($t: Int!) { ticket(id: $t) { requesterLink timeline { totalCount nodes { ... on TicketNote { id body } ... on RequesterMessage { id held body } } } } }',
        { t: o.ticket },
      )
    ).data,
    (await owner.gql('{ views { id name scope shared } }')).data,
  ]);
}
