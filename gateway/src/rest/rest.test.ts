import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../testing/harness.js';
import type { TestClient } from '../testing/client.js';
import { HTML_AS_PNG, JPEG, PNG, validTicket } from '../testing/fixtures.js';

const { MESSAGES } = rules;
let gw: TestGateway;
let demo: TestClient;
let marnie: TestClient;

beforeAll(async () => ([gw, demo, marnie] = await startSignedIn(0, 1)));
afterAll(() => gw.destroy());

describe('REST auth', () => {
  it('GET /api/auth/ answers the user, or 401 signed out', async () => {
    expect((await demo.get('/api/auth/')).body).toEqual({ id: 1, username: 'Demo', email: 'demo@fulcrum.app' });
    const out = await gw.client().get('/api/auth/');
    expect(out.status).toBe(401);
    expect(out.body).toEqual({ errors: { message: 'Unauthorized' } });
  });

  it('login sets an HttpOnly SameSite cookie, renews the session id, and never returns a password', async () => {
    const c = gw.client();
    await c.get('/api/auth/'); // no session yet
    const res = await c.post('/api/auth/login', { email: 'DEMO@fulcrum.app', password: 'fulcrum-demo' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 1, username: 'Demo', email: 'demo@fulcrum.app' });
    const cookie = res.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/fulcrum\.sid=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const before = c.cookieHeader;
    await c.post('/api/auth/login', { email: 'demo@fulcrum.app', password: 'fulcrum-demo' });
    expect(c.cookieHeader).not.toBe(before);
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
  });

  it('login failure is a 401 bare field dict that does not say whether the email exists', async () => {
    const wrongPassword = await gw.client().post('/api/auth/login', { email: 'demo@fulcrum.app', password: 'nope-nope' });
    const unknownEmail = await gw.client().post('/api/auth/login', { email: 'ghost@fulcrum.app', password: 'nope-nope' });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({ password: [MESSAGES.loginFailed] });
    expect(unknownEmail.status).toBe(401);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    const bad = await gw.client().post('/api/auth/login', { email: 'no-at-sign', password: '' });
    expect(bad.status).toBe(401);
    expect(bad.body.email).toEqual([MESSAGES.email]);
  });

  it('signup enforces every section 5 auth rule on the server', async () => {
    const res = await gw.client().post('/api/auth/signup', { email: 'x', username: 'ab', password: '123' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ email: [MESSAGES.email], username: [MESSAGES.username], password: [MESSAGES.password] });
    const long = await gw.client().post('/api/auth/signup', { email: 'a@b.c', username: 'x'.repeat(31), password: 'p'.repeat(21) });
    expect(long.body).toEqual({ username: [MESSAGES.username], password: [MESSAGES.password] });
  });

  it('signup signs in, and refuses a taken email or username', async () => {
    const c = gw.client();
    const res = await c.post('/api/auth/signup', { email: 'New.Agent@fulcrum.app', username: 'newagent', password: 'secret1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'newagent', email: 'new.agent@fulcrum.app' });
    expect((await c.get('/api/auth/')).body.username).toBe('newagent');
    const taken = await gw.client().post('/api/auth/signup', { email: 'new.agent@FULCRUM.app', username: 'NewAgent', password: 'secret1' });
    expect(taken.status).toBe(401);
    expect(taken.body).toEqual({ email: [MESSAGES.emailInUse], username: [MESSAGES.usernameInUse] });
  });

  it('logout destroys the session server-side: a replayed cookie is refused', async () => {
    const c = await gw.as(2);
    const saved = c.cookieHeader;
    expect((await c.get('/api/auth/logout')).body).toEqual({ message: 'User logged out' });
    const replay = gw.client();
    replay.setCookieHeader(saved);
    expect((await replay.get('/api/tickets/')).status).toBe(401);
  });

  it('GET /api/users/ lists every user in id order, without passwords', async () => {
    const res = await demo.get('/api/users/');
    expect(res.body.slice(0, 3).map((u: { username: string }) => u.username)).toEqual(['Demo', 'Marnie', 'Bobbie']);
    expect(Object.keys(res.body[0]).sort()).toEqual(['email', 'id', 'username']);
  });
});

describe('REST tickets', () => {
  it("lists only the caller's tickets, newest first, in the contract shape", async () => {
    const res = await demo.get('/api/tickets/');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.every((t: { assignee: number }) => t.assignee === 1)).toBe(true);
    const ids = res.body.map((t: { id: number }) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(Object.keys(res.body[0]).sort()).toEqual(
      ['apply_macro', 'assignee', 'description', 'id', 'priority', 'requester', 'tickets_images', 'title', 'type'].sort(),
    );
  });

  it('create accepts numeric strings and a null macro (defaults), then add-image, get, edit, edit-image, delete', async () => {
    const created = await demo.post('/api/tickets/create', {
      title: 'Legacy',
      assignee: 1,
      requester: '3',
      apply_macro: null,
      description: 'From the old client',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Legacy', type: 'Question', priority: 'Low', assignee: 1, requester: 3, apply_macro: 1, tickets_images: [] });
    const id = created.body.id;

    const image = await demo.upload('POST', `/api/tickets/${id}/add-image`, { data: PNG });
    expect(image.status).toBe(201);
    expect(image.body).toMatchObject({ ticket_id: id, image: `/images/${image.body.id}` });
    const served = await demo.fetch(image.body.image);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const edited = await demo.put(`/api/tickets/${id}/edit`, { ...validTicket(2), apply_macro: '2' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Printer on fire', requester: 2, apply_macro: 2, type: 'Incident', priority: 'High' });
    expect(edited.body.tickets_images).toEqual([image.body]); // no new image keeps the old one

    const replaced = await demo.upload('PUT', `/api/tickets/${id}/edit-image`, { data: JPEG, name: 'photo.jpg', type: 'image/jpeg' });
    expect(replaced.status).toBe(201);
    const afterReplace = await demo.get(`/api/tickets/${id}`);
    expect(afterReplace.body.tickets_images).toEqual([replaced.body]);
    expect((await demo.fetch(replaced.body.image)).headers.get('content-type')).toBe('image/jpeg');
    expect((await demo.fetch(image.body.image)).status).toBe(404); // the old image is gone

    expect((await demo.get(`/api/tickets/${id}/delete`)).body).toEqual({ message: 'Ticket deleted successfully' });
    expect((await demo.get(`/api/tickets/${id}`)).status).toBe(404);
    expect((await demo.fetch(replaced.body.image)).status).toBe(404);
  });

  it('answers every ticket validation message of section 5, and stores nothing', async () => {
    const before = (await demo.get('/api/tickets/')).body.length;
    const res = await demo.post('/api/tickets/create', { title: '', requester: '', description: 'ab' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: { title: [MESSAGES.ticketTitle], requester: [MESSAGES.ticketRequester], description: [MESSAGES.ticketDescription] } });
    const long = await demo.post('/api/tickets/create', { ...validTicket(), title: 'x'.repeat(41), description: 'y'.repeat(2001) });
    expect(long.body.errors).toEqual({ title: [MESSAGES.ticketTitle], description: [MESSAGES.ticketDescription] });
    const enums = await demo.post('/api/tickets/create', { ...validTicket(), type: 'Incient', priority: 'Huge' });
    expect(enums.body.errors).toEqual({ type: [MESSAGES.ticketType], priority: [MESSAGES.ticketPriority] });
    expect((await demo.get('/api/tickets/')).body.length).toBe(before);
  });

  it("refuses another agent as assignee, an unknown requester, and someone else's macro", async () => {
    const marnieMacro = (await marnie.post('/api/macro/create', { name: 'Marnie only', description: 'mine' })).body.id;
    const res = await demo.post('/api/tickets/create', { ...validTicket(9999), assignee: 2, apply_macro: marnieMacro });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['apply_macro', 'assignee', 'requester']);
  });

  it("an edit's assignee is ignored: the ticket stays the caller's, the other fields change", async () => {
    const created = (await demo.post('/api/tickets/create', validTicket())).body;
    const res = await demo.put(`/api/tickets/${created.id}/edit`, { ...validTicket(), title: 'Edited, same owner', assignee: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, title: 'Edited, same owner', assignee: created.assignee });
    expect((await demo.get(`/api/tickets/${created.id}`)).body.assignee).toBe(created.assignee);
    expect((await marnie.get(`/api/tickets/${created.id}`)).status).toBe(404);
  });

  it("another agent's ticket is not found, for read, edit, images and delete", async () => {
    const marnieTicket = (await marnie.get('/api/tickets/')).body[0];
    expect((await demo.get(`/api/tickets/${marnieTicket.id}`)).status).toBe(404);
    expect((await demo.put(`/api/tickets/${marnieTicket.id}/edit`, validTicket())).status).toBe(404);
    expect((await demo.upload('POST', `/api/tickets/${marnieTicket.id}/add-image`, { data: PNG })).status).toBe(404);
    expect((await demo.get(`/api/tickets/${marnieTicket.id}/delete`)).status).toBe(404);
    expect((await demo.fetch(marnieTicket.tickets_images[0].image)).status).toBe(404);
    expect((await marnie.get(`/api/tickets/${marnieTicket.id}`)).body).toEqual(marnieTicket);
  });

  it('uploads are checked by their bytes and size, and nothing is stored when refused', async () => {
    const id = (await demo.post('/api/tickets/create', validTicket())).body.id;
    const html = await demo.upload('POST', `/api/tickets/${id}/add-image`, { data: HTML_AS_PNG, name: 'cat.png', type: 'image/png' });
    expect(html.status).toBe(400);
    expect(html.body).toEqual({ errors: { image: [MESSAGES.imageType] } });
    const empty = await demo.upload('POST', `/api/tickets/${id}/add-image`, { data: Buffer.alloc(0) });
    expect(empty.status).toBe(400);
    const big = Buffer.concat([PNG, Buffer.alloc(rules.LIMITS.imageBytes)]);
    const tooBig = await demo.upload('POST', `/api/tickets/${id}/add-image`, { data: big });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errors.image).toEqual([MESSAGES.imageSize]);
    const missing = await demo.upload('POST', `/api/tickets/${id}/add-image`, null);
    expect(missing.status).toBe(400);
    expect((await demo.get(`/api/tickets/${id}`)).body.tickets_images).toEqual([]);
  });

  it('bad ids and malformed bodies are 404 and 400, never 500', async () => {
    expect((await demo.get('/api/tickets/abc')).status).toBe(404);
    expect((await demo.get('/api/tickets/99999999999999999999')).status).toBe(404);
    expect((await demo.rest('POST', '/api/tickets/create', '{"title": ')).status).toBe(400);
    expect((await demo.rest('POST', '/api/tickets/create', '[1,2]')).status).toBe(400);
    expect((await demo.put('/api/tickets/424242/edit', validTicket())).status).toBe(404);
  });
});

describe('REST customers', () => {
  it('is a shared directory: everyone lists it, only the owner changes it', async () => {
    const created = await demo.post('/api/customers/create', { name: 'Zed Shaw', email: 'Zed@Example.com' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: created.body.id, user_id: 1, name: 'Zed Shaw', email: 'zed@example.com' });
    const id = created.body.id;
    expect((await marnie.get('/api/customers/')).body[0]).toEqual(created.body);
    expect((await marnie.get(`/api/customers/${id}`)).body).toEqual(created.body);
    expect((await marnie.put(`/api/customers/edit/${id}`, { name: 'Hacked', email: 'h@x.io' })).status).toBe(403);
    expect((await marnie.get(`/api/customers/${id}/delete`)).status).toBe(403);
    const edited = await demo.put(`/api/customers/edit/${id}`, { name: 'Zed A. Shaw', email: 'zed@example.com' });
    expect(edited.body.name).toBe('Zed A. Shaw');
    expect((await demo.get(`/api/customers/${id}/delete`)).body).toEqual({ message: 'Customer deleted successfully' });
    expect((await demo.get(`/api/customers/${id}`)).status).toBe(404);
  });

  it('validates name and email, and refuses a duplicate email without a 500', async () => {
    const bad = await demo.post('/api/customers/create', { name: 'Z', email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ errors: { name: [MESSAGES.customerName], email: [MESSAGES.email] } });
    const dup = await demo.post('/api/customers/create', { name: 'Someone', email: 'ADA.lovelace@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ errors: { email: [MESSAGES.customerUnique] } });
  });

  it('validate/{email}/{name} answers ok or 409 Email Already Exists, URL-decoded, creating nothing', async () => {
    const count = (await demo.get('/api/customers/')).body.length;
    expect((await demo.get('/api/customers/validate/new%2Bperson%40example.com/New%20Person')).body).toEqual({ message: 'ok' });
    const taken = await demo.get('/api/customers/validate/ada.lovelace%40example.com/Ada');
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ errors: { unique: [MESSAGES.customerUnique] } });
    expect((await demo.get('/api/customers/')).body.length).toBe(count);
  });

  it('refuses to delete a customer who still requests tickets, says no count of them, and loses nothing', async () => {
    const customer = (await demo.post('/api/customers/create', { name: 'Has Tickets', email: 'has.tickets@example.com' })).body;
    // Only another agent's ticket names the customer: the owner learns that it is in use, not how many tickets.
    await marnie.post('/api/tickets/create', validTicket(customer.id));
    const res = await demo.get(`/api/customers/${customer.id}/delete`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ errors: { customer: [MESSAGES.customerInUse] } });
    expect(JSON.stringify(res.body)).not.toMatch(/\d/);
    expect((await demo.get(`/api/customers/${customer.id}`)).status).toBe(200);
    const gql = await demo.gql(`mutation { deleteCustomer(id: ${customer.id}) }`);
    expect(gql.errors?.[0]).toMatchObject({
      message: MESSAGES.customerInUse,
      extensions: { code: 'CONFLICT', fields: { customer: [MESSAGES.customerInUse] } },
    });
  });
});

describe('REST macros', () => {
  it('lists own macros plus macro 1; macro 1 is permanent', async () => {
    const list = (await marnie.get('/api/macro/')).body as { id: number; user_id: number | null }[];
    expect(list.some((m) => m.id === 1)).toBe(true);
    expect(list.every((m) => m.id === 1 || m.user_id === 2)).toBe(true);
    expect((await demo.get('/api/macro/1')).body).toMatchObject({ id: 1, name: 'No Macro', user_id: null });
    for (const res of [await demo.put('/api/macro/edit/1', { name: 'Mine now', description: 'x' }), await demo.get('/api/macro/1/delete')]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ errors: { message: MESSAGES.macroPermanent } });
    }
  });

  it('create, edit, delete; validation messages; tickets fall back to macro 1', async () => {
    const bad = await demo.post('/api/macro/create', { name: 'x', description: '' });
    expect(bad.body).toEqual({ errors: { name: [MESSAGES.macroName], description: [MESSAGES.macroDescription] } });
    const macro = (await demo.post('/api/macro/create', { name: 'Greeting', description: 'Hello!' })).body;
    expect(macro).toMatchObject({ user_id: 1, name: 'Greeting', description: 'Hello!' });
    expect((await demo.put(`/api/macro/edit/${macro.id}`, { name: 'Greeting 2', description: 'Hi!' })).body.name).toBe('Greeting 2');
    expect((await marnie.get(`/api/macro/${macro.id}`)).status).toBe(404);
    expect((await marnie.put(`/api/macro/edit/${macro.id}`, { name: 'Nope', description: 'x' })).status).toBe(404);
    const ticket = (await demo.post('/api/tickets/create', { ...validTicket(), apply_macro: macro.id })).body;
    expect(ticket.apply_macro).toBe(macro.id);
    expect((await demo.get(`/api/macro/${macro.id}/delete`)).body).toEqual({ message: 'Macro deleted successfully' });
    expect((await demo.get(`/api/tickets/${ticket.id}`)).body.apply_macro).toBe(1);
  });
});

describe('REST messages', () => {
  it('send, list, edit and delete; only the sender may change a message', async () => {
    const sent = await demo.post('/api/messages/create/too/2', { message: 'Hi Marnie' });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ id: sent.body.id, sender_id: 1, receiver_id: 2, message: 'Hi Marnie' });
    expect((await marnie.get('/api/messages/')).body.some((m: { id: number }) => m.id === sent.body.id)).toBe(true);
    const bobbie = await gw.as(2);
    expect((await bobbie.get('/api/messages/')).body.some((m: { id: number }) => m.id === sent.body.id)).toBe(false);
    expect((await marnie.put(`/api/messages/edit/${sent.body.id}`, { message: 'Forged' })).status).toBe(403);
    expect((await marnie.get(`/api/messages/${sent.body.id}/delete`)).status).toBe(403);
    expect((await bobbie.put(`/api/messages/edit/${sent.body.id}`, { message: 'Forged' })).status).toBe(404);
    const tooLong = await demo.put(`/api/messages/edit/${sent.body.id}`, { message: 'x'.repeat(2001) });
    expect(tooLong.body).toEqual({ errors: { message: [MESSAGES.message] } });
    expect((await demo.put(`/api/messages/edit/${sent.body.id}`, { message: '' })).status).toBe(400);
    expect((await demo.put(`/api/messages/edit/${sent.body.id}`, { message: 'Hi Marnie!' })).body.message).toBe('Hi Marnie!');
    expect((await demo.get(`/api/messages/${sent.body.id}/delete`)).body).toEqual({ message: 'Message successfully deleted' });
    expect((await marnie.get('/api/messages/')).body.some((m: { id: number }) => m.id === sent.body.id)).toBe(false);
  });

  it('an unknown receiver is 404', async () => {
    expect((await demo.post('/api/messages/create/too/9999', { message: 'Anyone?' })).status).toBe(404);
  });
});

describe('REST facade edges', () => {
  const routes: [string, string][] = [
    ['GET', '/api/users/'],
    ['GET', '/api/tickets/'],
    ['GET', '/api/tickets/1'],
    ['POST', '/api/tickets/create'],
    ['POST', '/api/tickets/1/add-image'],
    ['PUT', '/api/tickets/1/edit'],
    ['PUT', '/api/tickets/1/edit-image'],
    ['GET', '/api/tickets/1/delete'],
    ['GET', '/api/customers/'],
    ['GET', '/api/customers/1'],
    ['POST', '/api/customers/create'],
    ['PUT', '/api/customers/edit/1'],
    ['GET', '/api/customers/1/delete'],
    ['GET', '/api/customers/validate/a%40b.c/n'],
    ['GET', '/api/macro/'],
    ['GET', '/api/macro/2'],
    ['POST', '/api/macro/create'],
    ['PUT', '/api/macro/edit/2'],
    ['GET', '/api/macro/2/delete'],
    ['GET', '/api/messages/'],
    ['POST', '/api/messages/create/too/2'],
    ['PUT', '/api/messages/edit/1'],
    ['GET', '/api/messages/1/delete'],
  ];
  it.each(routes)('%s %s without a session: 401 JSON, nothing changed', async (method, path) => {
    const res = await gw.client().rest(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: { message: 'Unauthorized' } });
  });

  it('unknown /api paths are 404 JSON and wrong methods 405 JSON, never the HTML page', async () => {
    const unknown = await demo.get('/api/nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/json/);
    expect((await demo.rest('DELETE', '/api/tickets/1')).status).toBe(405);
    expect((await demo.rest('POST', '/api/tickets/')).status).toBe(405);
  });

  it('refuses cross-site state-changing GETs, allows same-origin ones', async () => {
    const id = (await demo.post('/api/tickets/create', validTicket())).body.id;
    expect((await demo.get(`/api/tickets/${id}/delete`, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await demo.get(`/api/tickets/${id}/delete`, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await demo.get(`/api/tickets/${id}/delete`, { referer: 'https://evil.example/page' })).status).toBe(403);
    expect((await demo.get('/api/auth/logout', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await demo.get(`/api/tickets/${id}`)).status).toBe(200);
    expect((await demo.get(`/api/tickets/${id}/delete`, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });
});
