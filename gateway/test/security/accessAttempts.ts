/**
 * The access matrix's attempts (access.test.ts runs them): everything an agent must not get away with on another
 * agent's records, over every id-taking REST route, GraphQL field and subscription, read, update and delete; each
 * attempt names the route or field it covers, so the matrix can prove that none is left out.
 */
import type { TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { versionOf, type Owned } from './accessKit.js';

/**
 * Reads that are allowed by design: the customer directory is shared (REST-CONTRACT: "all agents see the shared
 * customer directory"); changing a customer is the owner's only, and is in the matrix.
 */
export const SHARED_BY_DESIGN = new Set(['GET /api/customers/:id', 'Query.customer']);

export type Attempt = { name: string; route?: string; field?: string; run: () => Promise<boolean> };

/** Attempts an agent must not get away with; each returns true when it (wrongly) succeeded. */
export function attempts(x: TestClient, o: Owned, owner: TestClient): Attempt[] {
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
          v: await versionOf(owner, o),
        }),
    },
    {
      name: 'take ticket',
      field: 'Mutation.takeTicket',
      run: async () =>
        gqlOk('mutation($id: Int!, $v: Int!) { takeTicket(id: $id, expectedVersion: $v) { id } }', { id: o.ticket, v: await versionOf(owner, o) }),
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
