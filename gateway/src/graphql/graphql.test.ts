import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkEm, rules } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../testing/harness.js';
import type { TestClient } from '../testing/client.js';
import { HTML_AS_PNG, JPEG, PNG } from '../testing/fixtures.js';

const { MESSAGES } = rules;
let gw: TestGateway;
let demo: TestClient;
let marnie: TestClient;

const TICKET_FIELDS =
  'id title type priority description assigneeId requesterId macroId assignee { id username } requester { id name } macro { id name } image { id url mimeType width height }';
const CREATE_TICKET = `mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { ${TICKET_FIELDS} } }`;
const UPDATE_TICKET = `mutation($id: Int!, $input: TicketInput!, $image: Upload) { updateTicket(id: $id, input: $input, image: $image) { ${TICKET_FIELDS} } }`;
const input = (over: Record<string, unknown> = {}) => ({
  title: 'Printer on fire',
  type: 'Incident',
  priority: 'High',
  requesterId: 1,
  description: 'Smoke from tray 2.',
  ...over,
});

beforeAll(async () => ([gw, demo, marnie] = await startSignedIn(0, 1)));
afterAll(() => gw.destroy());

const codeOf = (res: { errors?: { extensions?: { code?: string } }[] }) => res.errors?.[0]?.extensions?.code;
const fieldsOf = (res: { errors?: { extensions?: { fields?: Record<string, string[]> } }[] }) => res.errors?.[0]?.extensions?.fields;

describe('GraphQL auth', () => {
  it('me is null signed out, the agent signed in', async () => {
    expect((await gw.client().gql('{ me { id } }')).data).toEqual({ me: null });
    expect((await demo.gql('{ me { id username email } }')).data).toEqual({ me: { id: 1, username: 'Demo', email: 'demo@fulcrum.app' } });
  });

  it('login, signup and logout work through mutations, with field errors in extensions', async () => {
    const c = gw.client();
    const bad = await c.gql('mutation { login(email: "demo@fulcrum.app", password: "wrong-one") { id } }');
    expect(codeOf(bad)).toBe('LOGIN_FAILED');
    expect(fieldsOf(bad)).toEqual({ password: [MESSAGES.loginFailed] });
    expect((await c.gql('mutation { login(email: "demo@fulcrum.app", password: "fulcrum-demo") { id } }')).data).toEqual({ login: { id: 1 } });
    expect((await c.gql('{ me { id } }')).data).toEqual({ me: { id: 1 } });
    expect((await c.gql('mutation { logout }')).data).toEqual({ logout: true });
    expect((await c.gql('{ me { id } }')).data).toEqual({ me: null });

    const signup = await gw
      .client()
      .gql('mutation($i: SignupInput!) { signup(input: $i) { id username } }', { i: { email: 'bad', username: 'a', password: 'x' } });
    expect(fieldsOf(signup)).toEqual({ email: [MESSAGES.email], username: [MESSAGES.username], password: [MESSAGES.password] });
  });

  const protectedOps = [
    '{ users { nodes { id } } }',
    '{ tickets { totalCount } }',
    '{ ticket(id: 1) { id } }',
    '{ customers { nodes { id } } }',
    '{ customer(id: 1) { id } }',
    '{ customerEmailAvailable(email: "a@b.c") }',
    '{ macros { nodes { id } } }',
    '{ macro(id: 1) { id } }',
    '{ messages(withUserId: 1) { totalCount } }',
    'mutation { createTicket(input: { title: "t", requesterId: 1, description: "abc" }) { id } }',
    'mutation { updateTicket(id: 1, input: { title: "t", requesterId: 1, description: "abc" }) { id } }',
    'mutation { deleteTicket(id: 1) }',
    'mutation { createCustomer(input: { name: "Nm", email: "a@b.c" }) { id } }',
    'mutation { updateCustomer(id: 1, input: { name: "Nm", email: "a@b.c" }) { id } }',
    'mutation { deleteCustomer(id: 1) }',
    'mutation { createMacro(input: { name: "Nm", description: "d" }) { id } }',
    'mutation { updateMacro(id: 2, input: { name: "Nm", description: "d" }) { id } }',
    'mutation { deleteMacro(id: 2) { id } }',
    'mutation { sendMessage(receiverId: 2, text: "hi") { id } }',
    'mutation { editMessage(id: 1, text: "hi") { id } }',
    'mutation { deleteMessage(id: 1) }',
  ];
  it.each(protectedOps)('%s without a session is UNAUTHENTICATED', async (query) => {
    const res = await gw.client().gql(query);
    expect(codeOf(res)).toBe('UNAUTHENTICATED');
    expect(res.data ?? null).toBeNull();
  });
});

describe('GraphQL tickets', () => {
  it("pages the agent's tickets with a cursor and a total count", async () => {
    const first = await demo.gql('{ tickets(first: 3) { totalCount nodes { id assigneeId } pageInfo { endCursor hasNextPage } } }');
    const page = first.data!.tickets;
    expect(page.nodes).toHaveLength(3);
    expect(page.totalCount).toBeGreaterThan(3);
    expect(page.nodes.every((t: { assigneeId: number }) => t.assigneeId === 1)).toBe(true);
    const next = await demo.gql('query($after: String) { tickets(first: 100, after: $after) { nodes { id } pageInfo { hasNextPage } } }', {
      after: page.pageInfo.endCursor,
    });
    const ids = [...page.nodes, ...next.data!.tickets.nodes].map((t: { id: number }) => t.id);
    expect(ids).toHaveLength(page.totalCount);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(next.data!.tickets.pageInfo.hasNextPage).toBe(false);
    // Give Bobbie 120 tickets, then ask for the largest page (100); a page past it (150) is refused, not cut.
    const rows = Array.from({ length: 120 }, (_, i) => ({
      title: `Bulk ${i}`,
      type: 'Task',
      priority: 'Low',
      assignee_id: 3,
      requester_id: 1,
      macro_id: 1,
      description: 'bulk row',
      created_at: new Date(),
      updated_at: new Date(),
    }));
    await forkEm(gw.orm)
      .getConnection()
      .execute(forkEm(gw.orm).getKnex().insert(rows).into('tickets') as never);
    const bobbie = await gw.as(2);
    expect(codeOf(await bobbie.gql('{ tickets(first: 150) { totalCount } }'))).toBe('BAD_USER_INPUT');
    const capped = (await bobbie.gql('{ tickets(first: 100) { totalCount nodes { id } pageInfo { hasNextPage } } }')).data!.tickets;
    expect(capped.nodes).toHaveLength(100);
    expect(capped.pageInfo.hasNextPage).toBe(true);
    expect(capped.totalCount).toBeGreaterThanOrEqual(120);
    expect(codeOf(await demo.gql('{ tickets(after: "garbage") { totalCount } }'))).toBe('BAD_USER_INPUT');
  });

  it('creates a ticket with its image in one call, with relations as fields', async () => {
    const res = await demo.gqlUpload(CREATE_TICKET, { input: input() }, 'image', { data: PNG });
    const t = res.data!.createTicket;
    expect(t).toMatchObject({
      title: 'Printer on fire',
      type: 'Incident',
      priority: 'High',
      assignee: { id: 1, username: 'Demo' },
      requester: { id: 1, name: 'Ada Lovelace' },
      macro: { id: 1, name: 'No Macro' },
    });
    expect(t.image).toMatchObject({ mimeType: 'image/png', width: 40, height: 30, url: `/images/${t.image.id}` });
    const served = await demo.fetch(t.image.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('requires the image on create ("Image is Required"), and validates every field at once', async () => {
    const before = (await demo.gql('{ tickets { totalCount } }')).data!.tickets.totalCount;
    const noImage = await demo.gql(CREATE_TICKET, { input: input() });
    expect(fieldsOf(noImage)).toEqual({ image: [MESSAGES.ticketImage] });
    // Without an image and with wrong fields: the image first, then every field of the input, in one refusal.
    const neither = await demo.gql(CREATE_TICKET, { input: input({ title: ' ', requesterId: 424242, macroId: 99999 }) });
    expect(neither.errors?.[0]).toMatchObject({ message: MESSAGES.ticketImage, extensions: { code: 'BAD_USER_INPUT', field: 'image' } });
    expect(Object.keys(fieldsOf(neither)!)).toEqual(['image', 'title', 'requesterId', 'macroId']);
    expect(fieldsOf(neither)).toMatchObject({ requesterId: [MESSAGES.ticketRequesterUnknown], macroId: [MESSAGES.ticketMacro] });
    const bad = await demo.gqlUpload(CREATE_TICKET, { input: input({ title: '', description: 'ab', requesterId: 424242 }) }, 'image', {
      data: HTML_AS_PNG,
      name: 'x.png',
    });
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
    expect(fieldsOf(bad)).toEqual({
      image: [MESSAGES.imageType],
      title: [MESSAGES.ticketTitle],
      description: [MESSAGES.ticketDescription],
      requesterId: [MESSAGES.ticketRequesterUnknown],
    });
    expect((await demo.gql('{ tickets { totalCount } }')).data!.tickets.totalCount).toBe(before);
  });

  it('edits without an image keep the old one; with one, replace it', async () => {
    const t = (await demo.gqlUpload(CREATE_TICKET, { input: input() }, 'image', { data: PNG })).data!.createTicket;
    const kept = (await demo.gql(UPDATE_TICKET, { id: t.id, input: input({ title: 'Renamed', macroId: 1 }) })).data!.updateTicket;
    expect(kept.title).toBe('Renamed');
    expect(kept.image.id).toBe(t.image.id);
    const replaced = (await demo.gqlUpload(UPDATE_TICKET, { id: t.id, input: input() }, 'image', { data: JPEG, name: 'a.jpg', type: 'image/jpeg' })).data!
      .updateTicket;
    expect(replaced.image.mimeType).toBe('image/jpeg');
    expect(replaced.image.id).not.toBe(t.image.id);
  });

  it("another agent's ticket is NOT_FOUND for read, edit and delete", async () => {
    const marnieTicket = (await marnie.gql('{ tickets(first: 1) { nodes { id } } }')).data!.tickets.nodes[0].id;
    expect(codeOf(await demo.gql('query($id: Int!) { ticket(id: $id) { id } }', { id: marnieTicket }))).toBe('NOT_FOUND');
    expect(codeOf(await demo.gql(UPDATE_TICKET, { id: marnieTicket, input: input() }))).toBe('NOT_FOUND');
    expect(codeOf(await demo.gql('mutation($id: Int!) { deleteTicket(id: $id) }', { id: marnieTicket }))).toBe('NOT_FOUND');
    expect((await marnie.gql('query($id: Int!) { ticket(id: $id) { id } }', { id: marnieTicket })).data).toEqual({ ticket: { id: marnieTicket } });
  });

  it('deleteTicket returns the id and removes the image', async () => {
    const t = (await demo.gqlUpload(CREATE_TICKET, { input: input() }, 'image', { data: PNG })).data!.createTicket;
    expect((await demo.gql('mutation($id: Int!) { deleteTicket(id: $id) }', { id: t.id })).data).toEqual({ deleteTicket: t.id });
    expect((await demo.fetch(t.image.url)).status).toBe(404);
  });
});

describe('GraphQL customers, macros, messages', () => {
  it('customers: shared directory, owner-only changes, uniqueness check', async () => {
    const created = (
      await demo.gql('mutation { createCustomer(input: { name: "Quinn", email: "quinn@example.com" }) { id name email ownerId owner { username } } }')
    ).data!.createCustomer;
    expect(created).toMatchObject({ name: 'Quinn', email: 'quinn@example.com', ownerId: 1, owner: { username: 'Demo' } });
    expect((await marnie.gql('{ customerEmailAvailable(email: "QUINN@example.com", name: "Quinn") }')).data).toEqual({ customerEmailAvailable: false });
    expect((await marnie.gql('{ customerEmailAvailable(email: "free@example.com") }')).data).toEqual({ customerEmailAvailable: true });
    const dup = await marnie.gql('mutation { createCustomer(input: { name: "Quinn 2", email: "quinn@example.com" }) { id } }');
    expect(codeOf(dup)).toBe('CONFLICT');
    expect(fieldsOf(dup)).toEqual({ email: [MESSAGES.customerUnique] });
    expect(codeOf(await marnie.gql(`mutation { updateCustomer(id: ${created.id}, input: { name: "X Y", email: "x@y.z" }) { id } }`))).toBe('FORBIDDEN');
    expect(codeOf(await marnie.gql(`mutation { deleteCustomer(id: ${created.id}) }`))).toBe('FORBIDDEN');
    const bad = await demo.gql(`mutation { updateCustomer(id: ${created.id}, input: { name: "Q", email: "nope" }) { id } }`);
    expect(fieldsOf(bad)).toEqual({ name: [MESSAGES.customerName], email: [MESSAGES.email] });
    expect((await demo.gql(`mutation { deleteCustomer(id: ${created.id}) }`)).data).toEqual({ deleteCustomer: created.id });
  });

  it('macros: own plus macro 1; macro 1 is permanent; delete moves tickets to macro 1', async () => {
    const list = (await marnie.gql('{ macros { nodes { id ownerId } } }')).data!.macros.nodes as { id: number; ownerId: number | null }[];
    expect(list.every((m) => m.id === 1 || m.ownerId === 2)).toBe(true);
    for (const q of ['mutation { updateMacro(id: 1, input: { name: "Mine", description: "x" }) { id } }', 'mutation { deleteMacro(id: 1) { id } }']) {
      const res = await demo.gql(q);
      expect(codeOf(res)).toBe('FORBIDDEN');
      expect(res.errors![0].message).toBe(MESSAGES.macroPermanent);
    }
    const macro = (await demo.gql('mutation { createMacro(input: { name: "Hello", description: "Hi there" }) { id ownerId } }')).data!.createMacro;
    expect(codeOf(await marnie.gql(`{ macro(id: ${macro.id}) { id } }`))).toBe('NOT_FOUND');
    const bad = await demo.gql(`mutation { updateMacro(id: ${macro.id}, input: { name: "H", description: "" }) { id } }`);
    expect(fieldsOf(bad)).toEqual({ name: [MESSAGES.macroName], description: [MESSAGES.macroDescription] });
    const t = (await demo.gqlUpload(CREATE_TICKET, { input: input({ macroId: macro.id }) }, 'image', { data: PNG })).data!.createTicket;
    expect(t.macro.id).toBe(macro.id);
    expect((await demo.gql(`mutation { deleteMacro(id: ${macro.id}) { id movedTicketIds } }`)).data).toEqual({
      deleteMacro: { id: macro.id, movedTicketIds: [t.id] },
    });
    expect((await demo.gql(`{ ticket(id: ${t.id}) { macro { id name } } }`)).data).toEqual({ ticket: { macro: { id: 1, name: 'No Macro' } } });
  });

  it('messages: conversation filter, sender-only edits, length rule', async () => {
    const sent = (
      await demo.gql('mutation { sendMessage(receiverId: 2, text: "Ping") { id senderId receiverId text sender { username } receiver { username } } }')
    ).data!.sendMessage;
    expect(sent).toMatchObject({ senderId: 1, receiverId: 2, text: 'Ping', sender: { username: 'Demo' }, receiver: { username: 'Marnie' } });
    const convo = (await marnie.gql('{ messages(withUserId: 1) { nodes { id senderId receiverId } } }')).data!.messages.nodes as {
      senderId: number;
      receiverId: number;
    }[];
    expect(convo.every((m) => [m.senderId, m.receiverId].sort().join() === '1,2')).toBe(true);
    expect(codeOf(await marnie.gql(`mutation { editMessage(id: ${sent.id}, text: "Forged") { id } }`))).toBe('FORBIDDEN');
    expect(fieldsOf(await demo.gql(`mutation { editMessage(id: ${sent.id}, text: "") { id } }`))).toEqual({ text: [MESSAGES.message] });
    expect(codeOf(await demo.gql('mutation { sendMessage(receiverId: 1, text: "me") { id } }'))).toBe('BAD_USER_INPUT');
    expect(codeOf(await demo.gql('mutation { sendMessage(receiverId: 4242, text: "hi") { id } }'))).toBe('NOT_FOUND');
    const bobbie = await gw.as(2);
    expect(codeOf(await bobbie.gql(`mutation { deleteMessage(id: ${sent.id}) }`))).toBe('NOT_FOUND');
    expect((await demo.gql(`mutation { deleteMessage(id: ${sent.id}) }`)).data).toEqual({ deleteMessage: sent.id });
  });
});

describe('GraphQL transport', () => {
  it('keeps CSRF prevention on: a simple multipart or text/plain post is refused', async () => {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'mutation { deleteTicket(id: 1) }' }));
    form.append('map', '{}');
    const res = await demo.fetch('/graphql', { method: 'POST', body: form });
    expect(res.status).toBe(400);
    const text = await demo.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query: '{ me { id } }' }) });
    expect(text.status).toBe(400);
  });

  it('never sends a stack trace, and refuses batches', async () => {
    const res = await demo.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ me { id } }' }, { query: '{ me { id } }' }]),
    });
    expect(res.status).toBe(400);
    const bad = await demo.gql('{ ticket(id: "x") { id } }');
    expect(JSON.stringify(bad)).not.toMatch(/stacktrace|at .*\.ts:\d+/);
  });
});
