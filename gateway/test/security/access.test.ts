/**
 * Access control matrix: two agents x every id-taking REST route, GraphQL field and subscription x
 * read/update/delete, in both directions; then every route and root field without a session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { buildFulcrumSchema, incomingMail } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { createRestRouter } from '../../src/rest/router.js';
import { figure, sleep } from '../../src/testing/measure.js';
import { openAckedSocket, openSocket, type RawSocket } from '../../src/testing/wsClient.js';

let gw: TestGateway;
let agents: TestClient[];
beforeAll(async () => ([gw, ...agents] = await startSignedIn(0, 1, 2)));
afterAll(() => gw.destroy());

/** Every route of the REST router, read from the router itself so a new route cannot be forgotten. */
function restRoutes(): { method: string; path: string }[] {
  const router = createRestRouter(gw.deps, () => {}) as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  const routes: { method: string; path: string }[] = [];
  for (const layer of router.stack) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods))
      if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: `/api${layer.route.path}` });
  }
  return routes;
}

interface Owned {
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
async function createOwned(ownerIndex: number, attackerIndex: number): Promise<Owned> {
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
async function versionOf(o: Owned): Promise<number> {
  return (await agents[o.ownerIndex].gql('query($id: Int!) { ticket(id: $id) { version } }', { id: o.ticket })).data?.ticket.version ?? 1;
}

async function snapshot(owner: TestClient, o: Owned) {
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

/**
 * Reads that are allowed by design: the customer directory is shared (REST-CONTRACT: "all agents see the shared
 * customer directory"); changing a customer is the owner's only, and is in the matrix.
 */
const SHARED_BY_DESIGN = new Set(['GET /api/customers/:id', 'Query.customer']);

type Attempt = { name: string; route?: string; field?: string; run: () => Promise<boolean> };

/** Attempts an agent must not get away with; each returns true when it (wrongly) succeeded. */
function attempts(x: TestClient, o: Owned): Attempt[] {
  const ok = (status: number) => status >= 200 && status < 300;
  const gqlOk = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await x.gql(query, variables);
    return !r.errors?.length && r.data != null && Object.values(r.data).every((v) => v != null);
  };
  const ticketInput = { title: 'hijacked', requesterId: o.customer, description: 'hijacked by another agent' };
  const rest: Attempt[] = [
    { name: 'read ticket', route: 'GET /api/tickets/:id', run: async () => ok((await x.get(`/api/tickets/${o.ticket}`)).status) },
    {
      name: 'edit ticket',
      route: 'PUT /api/tickets/:id/edit',
      run: async () => ok((await x.put(`/api/tickets/${o.ticket}/edit`, validTicket(o.customer))).status),
    },
    {
      name: 'add image',
      route: 'POST /api/tickets/:id/add-image',
      run: async () => ok((await x.upload('POST', `/api/tickets/${o.ticket}/add-image`, { data: PNG })).status),
    },
    {
      name: 'edit image',
      route: 'PUT /api/tickets/:id/edit-image',
      run: async () => ok((await x.upload('PUT', `/api/tickets/${o.ticket}/edit-image`, { data: PNG })).status),
    },
    { name: 'delete ticket', route: 'GET /api/tickets/:id/delete', run: async () => ok((await x.get(`/api/tickets/${o.ticket}/delete`)).status) },
    { name: 'read image', route: 'GET /images/:id', run: async () => ok((await x.fetch(`/images/${o.image}`)).status) },
    {
      name: 'edit customer',
      route: 'PUT /api/customers/edit/:id',
      run: async () => ok((await x.put(`/api/customers/edit/${o.customer}`, { name: 'hijacked', email: 'hijacked@fulcrum.test' })).status),
    },
    { name: 'delete customer', route: 'GET /api/customers/:id/delete', run: async () => ok((await x.get(`/api/customers/${o.customer}/delete`)).status) },
    { name: 'read macro', route: 'GET /api/macro/:id', run: async () => ok((await x.get(`/api/macro/${o.macro}`)).status) },
    {
      name: 'edit macro',
      route: 'PUT /api/macro/edit/:id',
      run: async () => ok((await x.put(`/api/macro/edit/${o.macro}`, { name: 'hijacked', description: 'x' })).status),
    },
    { name: 'delete macro', route: 'GET /api/macro/:id/delete', run: async () => ok((await x.get(`/api/macro/${o.macro}/delete`)).status) },
    {
      name: 'use macro on own ticket',
      route: 'POST /api/tickets/create',
      run: async () => ok((await x.post('/api/tickets/create', { ...validTicket(o.customer), apply_macro: o.macro })).status),
    },
    {
      name: 'assign ticket to owner',
      route: 'POST /api/tickets/create',
      run: async () => ok((await x.post('/api/tickets/create', { ...validTicket(o.customer), assignee: o.ownerIndex + 1 })).status),
    },
    {
      name: 'edit message of others',
      route: 'PUT /api/messages/edit/:id',
      run: async () => ok((await x.put(`/api/messages/edit/${o.sent}`, { message: 'hijacked' })).status),
    },
    {
      name: 'edit received message',
      route: 'PUT /api/messages/edit/:id',
      run: async () => ok((await x.put(`/api/messages/edit/${o.received}`, { message: 'hijacked' })).status),
    },
    { name: 'delete message of others', route: 'GET /api/messages/:id/delete', run: async () => ok((await x.get(`/api/messages/${o.sent}/delete`)).status) },
    { name: 'delete received message', route: 'GET /api/messages/:id/delete', run: async () => ok((await x.get(`/api/messages/${o.received}/delete`)).status) },
    // Writing to any agent is the message center's purpose; writing *as* someone else is not.
    {
      name: 'send message as owner',
      route: 'POST /api/messages/create/too/:receiverId',
      run: async () => {
        const r = await x.post(`/api/messages/create/too/${o.ownerIndex + 1}`, { message: 'impersonation?', sender_id: o.ownerIndex + 1 });
        return ok(r.status) && r.body.sender_id === o.ownerIndex + 1;
      },
    },
    {
      name: 'send message as owner (GraphQL)',
      field: 'Mutation.sendMessage',
      run: async () => {
        const r = await x.gql('mutation($to: Int!) { sendMessage(receiverId: $to, text: "impersonation?") { senderId } }', { to: o.ownerIndex + 1 });
        return r.data?.sendMessage?.senderId === o.ownerIndex + 1;
      },
    },
    { name: 'list tickets', route: 'GET /api/tickets', run: async () => (await x.get('/api/tickets/')).body.some((t: { id: number }) => t.id === o.ticket) },
    { name: 'list macros', route: 'GET /api/macro', run: async () => (await x.get('/api/macro/')).body.some((m: { id: number }) => m.id === o.macro) },
    { name: 'list messages', route: 'GET /api/messages', run: async () => (await x.get('/api/messages/')).body.some((m: { id: number }) => m.id === o.sent) },
  ];
  const graphql: Attempt[] = [
    { name: 'read ticket', field: 'Query.ticket', run: () => gqlOk('query($id: Int!) { ticket(id: $id) { id title } }', { id: o.ticket }) },
    { name: 'read ticket image', field: 'Query.ticket', run: () => gqlOk('query($id: Int!) { ticket(id: $id) { image { url } } }', { id: o.ticket }) },
    {
      name: 'list tickets',
      field: 'Query.tickets',
      run: async () => ((await x.gql('{ tickets(first: 100) { nodes { id } } }')).data?.tickets.nodes ?? []).some((t: { id: number }) => t.id === o.ticket),
    },
    {
      // A condition naming the owner and matching every ticket: still only the tickets the caller may read.
      name: 'list tickets by a where naming them',
      field: 'Query.tickets',
      run: async () => {
        const where = {
          any: [{ field: 'assigneeId', op: 'EQ', values: [String(o.ownerIndex + 1)] }, { not: { field: 'title', op: 'EQ', values: [''] } }],
        };
        const r = await x.gql('query($w: TicketCondition) { tickets(first: 100, where: $w) { nodes { id } } }', { w: where });
        return (r.data?.tickets.nodes ?? []).some((t: { id: number }) => t.id === o.ticket);
      },
    },
    {
      name: 'update ticket',
      field: 'Mutation.updateTicket',
      run: () => gqlOk('mutation($id: Int!, $i: TicketInput!) { updateTicket(id: $id, input: $i) { id } }', { id: o.ticket, i: ticketInput }),
    },
    {
      name: 'update ticket image',
      field: 'Mutation.updateTicket',
      run: async () => {
        const r = await x.gqlUpload(
          'mutation($id: Int!, $i: TicketInput!, $img: Upload) { updateTicket(id: $id, input: $i, image: $img) { id } }',
          { id: o.ticket, i: ticketInput },
          'img',
          { data: PNG },
        );
        return !r.errors?.length && r.data?.updateTicket != null;
      },
    },
    {
      name: 'set ticket status',
      field: 'Mutation.setTicketStatus',
      run: () => gqlOk('mutation($id: Int!) { setTicketStatus(id: $id, status: SOLVED) { id } }', { id: o.ticket }),
    },
    { name: 'delete ticket', field: 'Mutation.deleteTicket', run: () => gqlOk('mutation($id: Int!) { deleteTicket(id: $id) }', { id: o.ticket }) },
    // Assignment: with the ticket's real version (read by its owner), so only the access rule can refuse.
    {
      name: 'assign ticket to self',
      field: 'Mutation.assignTicket',
      run: async () =>
        gqlOk('mutation($id: Int!, $a: Int, $v: Int!) { assignTicket(id: $id, teamId: null, assigneeId: $a, expectedVersion: $v) { id } }', {
          id: o.ticket,
          a: (await x.get('/api/auth/')).body.id,
          v: await versionOf(o),
        }),
    },
    {
      name: 'take ticket',
      field: 'Mutation.takeTicket',
      run: async () => gqlOk('mutation($id: Int!, $v: Int!) { takeTicket(id: $id, expectedVersion: $v) { id } }', { id: o.ticket, v: await versionOf(o) }),
    },
    {
      name: 'read timeline',
      field: 'Query.ticketHistory',
      run: () => gqlOk('query($t: Int!) { ticketHistory(ticketId: $t) { totalCount nodes { seq } } }', { t: o.ticket }),
    },
    {
      name: 'add note',
      field: 'Mutation.addTicketNote',
      run: () => gqlOk('mutation($t: Int!) { addTicketNote(ticketId: $t, body: "planted") { id } }', { t: o.ticket }),
    },
    {
      name: 'edit note',
      field: 'Mutation.editTicketNote',
      run: () => gqlOk('mutation($id: Int!) { editTicketNote(id: $id, body: "hijacked") { id } }', { id: o.note }),
    },
    { name: 'delete note', field: 'Mutation.deleteTicketNote', run: () => gqlOk('mutation($id: Int!) { deleteTicketNote(id: $id) { id } }', { id: o.note }) },
    {
      name: 'reply to the requester',
      field: 'Mutation.replyToRequester',
      run: () => gqlOk('mutation($t: Int!) { replyToRequester(ticketId: $t, body: "planted") { id } }', { t: o.ticket }),
    },
    {
      name: 'accept held mail',
      field: 'Mutation.acceptRequesterMessage',
      run: () => gqlOk('mutation($id: Int!) { acceptRequesterMessage(id: $id) { id } }', { id: o.held }),
    },
    {
      name: 'discard held mail',
      field: 'Mutation.discardRequesterMessage',
      run: () => gqlOk('mutation($id: Int!) { discardRequesterMessage(id: $id) { id } }', { id: o.held }),
    },
    {
      name: "read a mail's original",
      field: 'Query.mailOriginal',
      run: () => gqlOk('query($id: Int!) { mailOriginal(messageId: $id) { text } }', { id: o.held }),
    },
    {
      name: 'revoke the requester link',
      field: 'Mutation.revokeRequesterLink',
      run: () => gqlOk('mutation($t: Int!) { revokeRequesterLink(ticketId: $t) }', { t: o.ticket }),
    },
    {
      name: 'read the requester link',
      field: 'Ticket.requesterLink',
      run: () => gqlOk('query($id: Int!) { ticket(id: $id) { requesterLink } }', { id: o.ticket }),
    },
    {
      name: 'create ticket with owner macro',
      field: 'Mutation.createTicket',
      run: async () => {
        const r = await x.gqlUpload(
          'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
          { i: { ...ticketInput, macroId: o.macro } },
          'img',
          { data: PNG },
        );
        return !r.errors?.length && r.data?.createTicket != null;
      },
    },
    {
      name: 'update customer',
      field: 'Mutation.updateCustomer',
      run: () =>
        gqlOk('mutation($id: Int!) { updateCustomer(id: $id, input: { name: "hijacked", email: "hijacked@fulcrum.test" }) { id } }', { id: o.customer }),
    },
    { name: 'delete customer', field: 'Mutation.deleteCustomer', run: () => gqlOk('mutation($id: Int!) { deleteCustomer(id: $id) }', { id: o.customer }) },
    { name: 'read macro', field: 'Query.macro', run: () => gqlOk('query($id: Int!) { macro(id: $id) { id } }', { id: o.macro }) },
    {
      name: 'list macros',
      field: 'Query.macros',
      run: async () => ((await x.gql('{ macros(first: 100) { nodes { id } } }')).data?.macros.nodes ?? []).some((m: { id: number }) => m.id === o.macro),
    },
    {
      name: 'update macro',
      field: 'Mutation.updateMacro',
      run: () => gqlOk('mutation($id: Int!) { updateMacro(id: $id, input: { name: "hijacked", description: "x" }) { id } }', { id: o.macro }),
    },
    { name: 'delete macro', field: 'Mutation.deleteMacro', run: () => gqlOk('mutation($id: Int!) { deleteMacro(id: $id) { id } }', { id: o.macro }) },
    // Views: another agent's personal view is NOT_FOUND to change, delete, list or page.
    {
      name: 'update view',
      field: 'Mutation.updateView',
      run: () => gqlOk('mutation($id: Int!) { updateView(id: $id, input: { name: "hijacked", scope: ALL, shared: true }) { id } }', { id: o.view }),
    },
    { name: 'delete view', field: 'Mutation.deleteView', run: () => gqlOk('mutation($id: Int!) { deleteView(id: $id) }', { id: o.view }) },
    {
      name: 'list views',
      field: 'Query.views',
      run: async () => ((await x.gql('{ views { id } }')).data?.views ?? []).some((v: { id: number }) => v.id === o.view),
    },
    {
      name: 'page a view',
      field: 'Query.tickets',
      run: () => gqlOk('query($v: Int) { tickets(viewId: $v, first: 1) { totalCount } }', { v: o.view }),
    },
    {
      name: 'read others messages',
      field: 'Query.messages',
      run: async () =>
        ((await x.gql('query($w: Int!) { messages(withUserId: $w, first: 100) { nodes { id } } }', { w: o.ownerIndex + 1 })).data?.messages?.nodes ?? []).some(
          (m: { id: number }) => m.id === o.sent,
        ),
    },
    {
      name: 'read others conversations',
      field: 'Query.conversations',
      run: async () =>
        ((await x.gql('{ conversations(first: 100) { nodes { lastMessage { id } } } }')).data?.conversations?.nodes ?? []).some(
          (c: { lastMessage: { id: number } | null }) => c.lastMessage?.id === o.sent,
        ),
    },
    {
      name: 'edit message of others',
      field: 'Mutation.editMessage',
      run: () => gqlOk('mutation($id: Int!) { editMessage(id: $id, text: "hijacked") { id } }', { id: o.sent }),
    },
    {
      name: 'edit received message',
      field: 'Mutation.editMessage',
      run: () => gqlOk('mutation($id: Int!) { editMessage(id: $id, text: "hijacked") { id } }', { id: o.received }),
    },
    { name: 'delete message of others', field: 'Mutation.deleteMessage', run: () => gqlOk('mutation($id: Int!) { deleteMessage(id: $id) }', { id: o.sent }) },
    {
      name: 'delete received message',
      field: 'Mutation.deleteMessage',
      run: () => gqlOk('mutation($id: Int!) { deleteMessage(id: $id) }', { id: o.received }),
    },
    {
      name: 'read webhook',
      field: 'Query.webhook',
      run: () => gqlOk('query($id: Int!) { webhook(id: $id) { id deliveries { nodes { id } } } }', { id: o.webhook }),
    },
    {
      name: 'list webhooks',
      field: 'Query.webhooks',
      run: async () => ((await x.gql('{ webhooks { id } }')).data?.webhooks ?? []).some((w: { id: number }) => w.id === o.webhook),
    },
    {
      name: 'update webhook',
      field: 'Mutation.updateWebhook',
      run: () => gqlOk('mutation($id: Int!) { updateWebhook(id: $id, input: { enabled: false }) { id } }', { id: o.webhook }),
    },
    {
      name: 'rotate webhook secret',
      field: 'Mutation.rotateWebhookSecret',
      run: () => gqlOk('mutation($id: Int!) { rotateWebhookSecret(id: $id) { secret } }', { id: o.webhook }),
    },
    {
      name: 'send test webhook',
      field: 'Mutation.sendTestWebhook',
      run: () => gqlOk('mutation($id: Int!) { sendTestWebhook(id: $id) { id } }', { id: o.webhook }),
    },
    {
      name: 'redeliver webhook delivery',
      field: 'Mutation.redeliverWebhookDelivery',
      run: () => gqlOk('mutation($id: Int!) { redeliverWebhookDelivery(id: $id) { id } }', { id: o.delivery }),
    },
    {
      name: 'revoke api token',
      field: 'Mutation.revokeApiToken',
      run: () => gqlOk('mutation($id: Int!) { revokeApiToken(id: $id) { id } }', { id: o.apiToken }),
    },
    {
      name: 'list api tokens',
      field: 'Query.apiTokens',
      run: async () => ((await x.gql('{ apiTokens { id } }')).data?.apiTokens ?? []).some((t: { id: number }) => t.id === o.apiToken),
    },
    { name: 'delete webhook', field: 'Mutation.deleteWebhook', run: () => gqlOk('mutation($id: Int!) { deleteWebhook(id: $id) }', { id: o.webhook }) },
    // Mail not ticketed is the admins' (an agent is FORBIDDEN whatever the id): gateway/test/mail/notTicketed.test.ts.
    {
      name: 'turn mail not ticketed into a ticket',
      field: 'Mutation.ticketFromMail',
      run: () => gqlOk('mutation($id: Int!) { ticketFromMail(id: $id) { id } }', { id: 1 }),
    },
  ];
  return [...rest, ...graphql];
}

describe('access control matrix', () => {
  it('two agents x every id-taking route, field and subscription x read/update/delete: 0 unauthorized successes', async () => {
    let total = 0;
    const successes: string[] = [];
    const coveredRoutes = new Set<string>();
    const coveredFields = new Set<string>();
    const liveLeaks: string[] = [];
    let liveEventsChecked = 0;

    for (const [ownerIndex, attackerIndex] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const owner = agents[ownerIndex];
      const attacker = agents[attackerIndex];
      const owned = await createOwned(ownerIndex, attackerIndex);
      const before = await snapshot(owner, owned);

      // The attacker listens to every subscription while the owner works on their own records.
      const socket: RawSocket = await openAckedSocket(gw.url, attacker.cookieHeader);
      const subs = {
        t: 'subscription { ticketEvents { kind id ticket { id } } }',
        m: 'subscription { macroEvents { kind id macro { id } } }',
        g: 'subscription { messageEvents { kind id senderId receiverId message { id text } } }',
        u: 'subscription { unreadCountEvents { reason unreadMessageCount conversation { partnerId } } }',
        y: 'subscription { typingEvents { senderId } }',
        // Another agent's ticket: refused at subscribe (NOT_FOUND), so nothing of it can arrive.
        tl: `subscription { ticketTimelineEvents(ticketId: ${owned.ticket}) { ... on TicketChange { seq } ... on TicketNote { seq } } }`,
        rd: `subscription { replyDeliveryEvents(ticketId: ${owned.ticket}) { id } }`,
        vc: 'subscription { viewCountEvents { viewId count } }',
      };
      for (const [id, query] of Object.entries(subs)) socket.send({ id, type: 'subscribe', payload: { query } });
      await sleep(300);

      for (const attempt of attempts(attacker, owned)) {
        total++;
        if (attempt.route) coveredRoutes.add(attempt.route);
        if (attempt.field) coveredFields.add(attempt.field);
        if (await attempt.run()) successes.push(`${attackerIndex + 1} -> ${ownerIndex + 1}: ${attempt.name}`);
      }
      expect(await snapshot(owner, owned)).toBe(before);

      // The owner changes their own records; none of it may reach the attacker's subscriptions.
      const third = [1, 2, 3].find((id) => id !== ownerIndex + 1 && id !== attackerIndex + 1)!;
      await owner.put(`/api/tickets/${owned.ticket}/edit`, { ...validTicket(owned.customer), title: 'owner edit' });
      await owner.put(`/api/macro/edit/${owned.macro}`, { name: 'owner edit', description: 'still private' });
      await owner.post(`/api/messages/create/too/${third}`, { message: 'private to third' });
      await owner.put(`/api/messages/edit/${owned.sent}`, { message: 'edited privately' });
      const extraTicket = (await owner.post('/api/tickets/create', validTicket(owned.customer))).body.id;
      await owner.get(`/api/tickets/${extraTicket}/delete`);
      await owner.gql('mutation($p: Int!) { notifyTyping(partnerId: $p) }', { p: third });
      // A sentinel of the attacker's own proves the sockets are live: once it arrives, anything leaked would have too.
      const own = (await attacker.post('/api/tickets/create', validTicket(owned.customer))).body.id;
      const ownMacro = (await attacker.post('/api/macro/create', { name: 'sentinel', description: 'mine' })).body.id;
      const ownMessage = (await attacker.post(`/api/messages/create/too/${third}`, { message: 'sentinel' })).body.id;
      // The third agent's message and typing to the attacker: the attacker's own unread and typing events.
      const thirdAgent = agents[third - 1];
      await thirdAgent.post(`/api/messages/create/too/${attackerIndex + 1}`, { message: 'sentinel to the attacker' });
      const typeToAttacker = async () =>
        (await thirdAgent.gql('mutation($p: Int!) { notifyTyping(partnerId: $p) }', { p: attackerIndex + 1 })).data?.notifyTyping;
      if (!(await typeToAttacker())) await sleep(2100).then(typeToAttacker); // at most one typing signal per 2 s per sender
      const deadline = Date.now() + 5000;
      const seen = () => socket.messages.filter((m) => m.type === 'next');
      const has = (sub: string, id: number) => seen().some((m) => m.id === sub && JSON.stringify(m.payload).includes(`"id":${id}`));
      const hasFrom = (sub: string, key: string, id: number) => seen().some((m) => m.id === sub && JSON.stringify(m.payload).includes(`"${key}":${id}`));
      const allLive = () => has('t', own) && has('m', ownMacro) && has('g', ownMessage) && hasFrom('u', 'partnerId', third) && hasFrom('y', 'senderId', third);
      while (!allLive() && Date.now() < deadline) await sleep(20);
      expect(allLive()).toBe(true);
      // The owner's timeline was refused to the attacker, as NOT_FOUND (never FORBIDDEN: the ticket is not theirs to know of).
      expect(JSON.stringify(socket.messages.filter((m) => m.id === 'tl'))).toContain('NOT_FOUND');
      expect(JSON.stringify(socket.messages.filter((m) => m.id === 'rd'))).toContain('NOT_FOUND');
      const me = attackerIndex + 1;
      for (const m of seen()) {
        liveEventsChecked++;
        const data = m.payload?.data ?? {};
        const leaked =
          (m.id === 't' && [owned.ticket, extraTicket].includes(data.ticketEvents?.id)) ||
          (m.id === 'm' && data.macroEvents?.id === owned.macro) ||
          (m.id === 'g' && data.messageEvents?.senderId !== me && data.messageEvents?.receiverId !== me) ||
          (m.id === 'u' && data.unreadCountEvents?.conversation?.partnerId !== third) ||
          (m.id === 'y' && data.typingEvents?.senderId !== third) ||
          (m.id === 'tl' && data.ticketTimelineEvents != null) ||
          (m.id === 'rd' && data.replyDeliveryEvents != null) ||
          (m.id === 'vc' && (data.viewCountEvents ?? []).some((c: { viewId: number }) => c.viewId === owned.view));
        if (leaked) liveLeaks.push(JSON.stringify(m.payload));
      }
      total += 7; // seven owner changes the attacker's five subscriptions must not see
      socket.ws.close();
      for (const f of [
        'Subscription.ticketEvents',
        'Subscription.macroEvents',
        'Subscription.messageEvents',
        'Subscription.unreadCountEvents',
        'Subscription.typingEvents',
        'Subscription.ticketTimelineEvents',
        'Subscription.replyDeliveryEvents',
        'Subscription.viewCountEvents',
      ])
        coveredFields.add(f);
    }

    // Every id-taking REST route and GraphQL field is in the matrix.
    const idRoutes = restRoutes()
      .filter((r) => r.path.includes(':'))
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !r.includes('/validate/'));
    for (const route of idRoutes) if (!SHARED_BY_DESIGN.has(route)) expect(coveredRoutes, `matrix covers ${route}`).toContain(route);
    const schema = await buildFulcrumSchema();
    for (const type of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(type.getFields())) {
        if (SHARED_BY_DESIGN.has(`${type.name}.${field.name}`)) continue;
        if (field.args.some((a) => /^(id|withUserId)$/.test(a.name)))
          expect(coveredFields, `matrix covers ${type.name}.${field.name}`).toContain(`${type.name}.${field.name}`);
      }
    }
    for (const field of Object.keys(schema.getSubscriptionType()!.getFields())) {
      // The customer directory and who is online are shared by design.
      if (field !== 'customerEvents' && field !== 'presenceEvents') expect(coveredFields).toContain(`Subscription.${field}`);
    }

    // The shared reads do answer, and stay read-only (their writes are in the matrix above).
    expect((await agents[1].get('/api/customers/1')).status).toBe(200);
    expect(liveLeaks).toEqual([]);
    expect(successes).toEqual([]);
    figure(
      'access matrix',
      `${successes.length + liveLeaks.length} unauthorized successes out of ${total} attempts (2 agents x ${idRoutes.length} id routes, ${coveredFields.size} GraphQL fields and subscriptions; ${liveEventsChecked} live events checked)`,
    );
  });
});

/** A minimal value for a GraphQL input type, so every root field can be called without a session. */
function sampleValue(type: GraphQLInputType, within: readonly string[] = []): unknown {
  const t = getNullableType(type);
  if (isListType(t)) return [sampleValue(t.ofType, within)];
  if (isEnumType(t)) return t.getValues()[0].value;
  if (isInputObjectType(t)) {
    // A recursive input (TicketCondition holds TicketConditions): its optional fields of a type being built are left out.
    const fields = Object.values(t.getFields()).filter((f) => isNonNullType(f.type) || !within.includes(getNamedType(f.type).name));
    return Object.fromEntries(fields.map((f) => [f.name, sampleValue(f.type, [...within, t.name])]));
  }
  if (isScalarType(t)) {
    if (t.name === 'Int' || t.name === 'Float') return 1;
    if (t.name === 'Boolean') return true;
    if (t.name === 'Upload') return null;
    return 'someone@fulcrum.test';
  }
  return null;
}

function operationFor(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): { query: string; variables: Record<string, unknown> } {
  const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  const variables = Object.fromEntries(
    field.args.map((a) => [a.name, isNonNullType(a.type) || getNamedType(a.type).name !== 'Upload' ? sampleValue(a.type) : null]),
  );
  return { query: `${kind}${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`, variables };
}

describe('without a session', () => {
  const PUBLIC_REST = new Set(['POST /api/auth/login', 'POST /api/auth/signup', 'GET /api/auth/logout']);
  const PUBLIC_FIELDS = new Set(['Query.me', 'Mutation.login', 'Mutation.signup', 'Mutation.logout']);

  it('every REST route, image and GraphQL root field answers 401 / UNAUTHENTICATED, every subscription 4403', async () => {
    const anon = gw.client();
    let total = 0;
    const refused: string[] = [];
    const allowed: string[] = [];
    const routes = restRoutes().filter((r) => !PUBLIC_REST.has(`${r.method} ${r.path}`));
    routes.push({ method: 'GET', path: '/images/:id' }, { method: 'GET', path: '/attachments/:id' });
    for (const r of routes) {
      const path = r.path.replace(/:(\w+)/g, (_m, name) => (name === 'email' ? 'someone%40fulcrum.test' : name === 'name' ? 'Someone' : '1'));
      const res = r.method === 'GET' ? await anon.get(path) : await anon.rest(r.method, path, {});
      total++;
      (res.status === 401 && (/^\/(images|attachments)\//.test(r.path) || res.body?.errors?.message === 'Unauthorized') ? refused : allowed).push(
        `${r.method} ${r.path} -> ${res.status}`,
      );
    }
    const schema = await buildFulcrumSchema();
    for (const [kind, type] of [
      ['query', schema.getQueryType()!],
      ['mutation', schema.getMutationType()!],
    ] as const) {
      for (const field of Object.values(type.getFields())) {
        if (PUBLIC_FIELDS.has(`${type.name}.${field.name}`)) continue;
        const { query, variables } = operationFor(kind, field);
        const res = await anon.gql(query, variables);
        total++;
        (res.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED' ? refused : allowed).push(
          `${type.name}.${field.name} -> ${res.errors?.[0]?.extensions?.code ?? 'data'}`,
        );
      }
    }
    for (const field of Object.keys(schema.getSubscriptionType()!.getFields())) {
      const s = openSocket(gw.url);
      s.send({ type: 'connection_init' });
      s.send({ id: '1', type: 'subscribe', payload: { query: `subscription { ${field} { __typename } }` } });
      const closed = await s.closed;
      total++;
      // 4403 when the init is refused; 4401 when the subscribe frame arrives before any acknowledgement.
      ([4401, 4403].includes(closed.code) && !s.messages.some((m) => m.type === 'next') ? refused : allowed).push(`Subscription.${field} -> ${closed.code}`);
    }
    // me answers null without a session (SPEC: the shell loads the session first).
    expect((await anon.gql('{ me { id } }')).data).toEqual({ me: null });
    expect(allowed).toEqual([]);
    figure(
      'without a session',
      `${refused.length} of ${total} routes, root fields and subscriptions refused (${((100 * refused.length) / total).toFixed(0)} %)`,
    );
  });
});
