/**
 * The ticket rules, called as the REST routes and resolvers call them (services/tickets.ts): validation with the
 * shared messages, create, edit, status, image and delete, the requester and macro rules, the page order and its
 * cursors, and "an agent sees and changes only their own tickets" as behaviour. A real database (SQLite, or
 * PostgreSQL + Redis in the second pass) through the schema package's kit; no gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MESSAGES, LIMITS, NO_MACRO_ID } from '../validation/rules.js';
import { demoTicketImage } from '../seed/demoImages.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import {
  checkTicketInput,
  createTicket,
  deleteTicket,
  getTicket,
  getTicketImageData,
  listAllTickets,
  listTickets,
  setTicketImage,
  setTicketStatus,
  updateTicket,
} from './tickets.js';

const [DEMO, MARNIE] = [1, 2];
const IMAGE = demoTicketImage(7);
let kit: ServiceKit;

beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

const body = (overrides: Record<string, unknown> = {}) => ({ title: 'Printer jam', requesterId: 1, description: 'The tray is stuck.', ...overrides });
const create = (viewer: number, overrides: Record<string, unknown> = {}) => createTicket(kit.as(viewer), body(overrides), IMAGE);

describe('validation', () => {
  it('reports every wrong field at once, with the shared messages, and stores nothing', async () => {
    const before = (await listAllTickets(kit.as(DEMO))).length;
    const wrong = { title: '  ', requesterId: '', description: 'ab', type: 'Bug', priority: 'Now', status: 'CLOSED' };
    const error = await refused(createTicket(kit.as(DEMO), wrong, Buffer.from('<html>not an image</html>')));
    expect(error.code).toBe('BAD_USER_INPUT');
    const bodyFields = {
      title: [MESSAGES.ticketTitle],
      requesterId: [MESSAGES.ticketRequester],
      description: [MESSAGES.ticketDescription],
      type: [MESSAGES.ticketType],
      priority: [MESSAGES.ticketPriority],
      status: [MESSAGES.ticketStatus],
    };
    // The image's errors first, then the body's, in the order of the form.
    expect(Object.keys(error.fields!)).toEqual(['image', ...Object.keys(bodyFields)]);
    expect(error.fields).toMatchObject(bodyFields);
    // The same body's errors without a write, for a transport with a rule of its own (GraphQL: the image).
    expect(await checkTicketInput(kit.as(DEMO), wrong)).toEqual(bodyFields);
    expect(await checkTicketInput(kit.as(DEMO), body())).toEqual({});
    expect((await refused(checkTicketInput(kit.as(null), body()))).code).toBe('UNAUTHENTICATED');
    expect(await listAllTickets(kit.as(DEMO))).toHaveLength(before);
  });

  it('checkTicketInput names exactly the fields createTicket refuses, and writes nothing (property)', async () => {
    const agent = await kit.newAgent();
    const [other] = await kit.rows<{ id: number }>('select id from macros where owner_id = ? order by id limit 1', [MARNIE]);
    const id = fc.oneof(
      fc.constant(1),
      fc.constant('1'),
      fc.constant(''),
      fc.constant(null),
      fc.constant(99999),
      fc.constant('x'),
      fc.integer({ min: -2, max: 2 }),
    );
    const input = fc.record(
      {
        title: fc.oneof(fc.constant('Printer jam'), fc.constant(' '), fc.string({ maxLength: 45 })),
        description: fc.oneof(fc.constant('The tray is stuck.'), fc.string({ maxLength: 5 })),
        type: fc.constantFrom(undefined, 'Task', 'Bug'),
        priority: fc.constantFrom(undefined, 'High', 'Now'),
        status: fc.constantFrom(undefined, null, 'PENDING', 'CLOSED'),
        requesterId: id,
        macroId: fc.oneof(id, fc.constant(other.id)),
        assigneeId: fc.constantFrom(undefined, null, agent, String(agent), DEMO),
      },
      { requiredKeys: ['title', 'description', 'requesterId'] },
    );
    await fc.assert(
      fc.asyncProperty(input, async (ticket) => {
        const before = (await listAllTickets(kit.as(agent))).length;
        const fields = await checkTicketInput(kit.as(agent), ticket);
        expect((await listAllTickets(kit.as(agent))).length).toBe(before);
        const created = await createTicket(kit.as(agent), ticket).then(
          (record) => record,
          (error: unknown) => error,
        );
        if (Object.keys(fields).length === 0) expect(created).toMatchObject({ assigneeId: agent, image: null });
        else expect(created).toMatchObject({ code: 'BAD_USER_INPUT', fields });
      }),
      { numRuns: 60 },
    );
  });

  it('a title is accepted exactly when it has 1 to 40 characters and is not blank (property)', async () => {
    const agent = await kit.newAgent();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: LIMITS.ticketTitle.max + 10 }), async (title) => {
        const valid = title.length >= 1 && title.length <= LIMITS.ticketTitle.max && title.trim().length > 0 && !title.includes('\u0000');
        if (valid) {
          const ticket = await createTicket(kit.as(agent), body({ title }));
          expect((await getTicket(kit.as(agent), ticket.id)).title).toBe(title);
        } else {
          expect((await refused(createTicket(kit.as(agent), body({ title }), IMAGE))).fields).toEqual({ title: [MESSAGES.ticketTitle] });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('refuses an unknown requester, a macro of another agent and an assignee other than the caller', async () => {
    const [other] = await kit.rows<{ id: number }>('select id from macros where owner_id = ? order by id limit 1', [MARNIE]);
    for (const requester of [99999, 'abc', -1]) {
      expect((await refused(create(DEMO, { requesterId: requester }))).fields, String(requester)).toEqual({ requesterId: [MESSAGES.ticketRequesterUnknown] });
    }
    expect((await refused(create(DEMO, { macroId: other.id }))).fields).toEqual({ macroId: [MESSAGES.ticketMacro] });
    expect((await refused(create(DEMO, { macroId: 99999 }))).fields).toEqual({ macroId: [MESSAGES.ticketMacro] });
    expect(Object.keys((await refused(create(DEMO, { assigneeId: MARNIE }))).fields!)).toEqual(['assigneeId']);
    // The macro owner may apply it; the caller as assignee, by number or string, is the default spelled out.
    const own = await create(MARNIE, { macroId: other.id, assigneeId: String(MARNIE) });
    expect(own).toMatchObject({ macroId: other.id, assigneeId: MARNIE });
    // An edit is held to the same rules.
    const demos = await create(DEMO);
    expect((await refused(updateTicket(kit.as(DEMO), demos.id, body({ macroId: other.id, requesterId: 99999 })))).fields).toEqual({
      requesterId: [MESSAGES.ticketRequesterUnknown],
      macroId: [MESSAGES.ticketMacro],
    });
    expect((await getTicket(kit.as(DEMO), demos.id)).macroId).toBe(NO_MACRO_ID);
  });

  it("customers are a shared directory: any agent's customer may request a ticket", async () => {
    const [marnies] = await kit.rows<{ id: number }>('select id from customers where owner_id = ? order by id limit 1', [MARNIE]);
    expect(await create(DEMO, { requesterId: String(marnies.id) })).toMatchObject({ requesterId: marnies.id, assigneeId: DEMO });
  });
});

describe('writes', () => {
  it('creates with the defaults (Question, Low, OPEN, no macro) assigned to the caller, with its image', async () => {
    const ticket = await create(DEMO, { macroId: null });
    expect(ticket).toMatchObject({ type: 'Question', priority: 'Low', status: 'OPEN', macroId: NO_MACRO_ID, assigneeId: DEMO, requesterId: 1 });
    expect(ticket.image).toMatchObject({ ticketId: ticket.id, mimeType: 'image/png' });
    expect(await getTicket(kit.as(DEMO), ticket.id)).toEqual(ticket);
    const image = await getTicketImageData(kit.as(DEMO), ticket.image!.id);
    expect(image).toMatchObject({ mimeType: 'image/png', ticketId: ticket.id });
    expect(image.data.equals(IMAGE)).toBe(true);
  });

  it('a status given on create is kept; the ids arrive as numbers or numeric strings', async () => {
    expect(await create(DEMO, { status: 'PENDING', requesterId: '1', macroId: '1' })).toMatchObject({
      status: 'PENDING',
      requesterId: 1,
      macroId: NO_MACRO_ID,
    });
  });

  it("the legacy REST flow creates without an image, then adds one; a non-image is refused with the image's message", async () => {
    const ticket = await createTicket(kit.as(DEMO), body());
    expect(ticket.image).toBeNull();
    const bad = await refused(setTicketImage(kit.as(DEMO), ticket.id, Buffer.from('not an image')));
    expect(bad.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(bad.fields!)).toEqual(['image']);
    const image = await setTicketImage(kit.as(DEMO), ticket.id, IMAGE);
    expect((await getTicket(kit.as(DEMO), ticket.id)).image).toEqual(image);
  });

  it('an edit keeps the status and the image unless it sets them; the one-click status change moves the update time', async () => {
    const ticket = await create(DEMO, { type: 'Task', priority: 'High' });
    const pending = await setTicketStatus(kit.as(DEMO), ticket.id, 'PENDING');
    expect(pending.status).toBe('PENDING');
    expect(pending.updatedAt.getTime()).toBeGreaterThanOrEqual(ticket.updatedAt.getTime());
    const edited = await updateTicket(kit.as(DEMO), ticket.id, body({ title: 'Edited', type: 'Incident', priority: 'Urgent' }));
    expect(edited).toMatchObject({ title: 'Edited', type: 'Incident', priority: 'Urgent', status: 'PENDING', image: ticket.image });
    expect((await updateTicket(kit.as(DEMO), ticket.id, body({ status: 'SOLVED' }))).status).toBe('SOLVED');
    // A new image replaces the old one (one image per ticket).
    const replaced = await updateTicket(kit.as(DEMO), ticket.id, body(), demoTicketImage(8));
    expect(replaced.image!.id).not.toBe(ticket.image!.id);
    expect((await refused(getTicketImageData(kit.as(DEMO), ticket.image!.id))).code).toBe('NOT_FOUND');
    expect((await refused(setTicketStatus(kit.as(DEMO), ticket.id, 'CLOSED'))).fields).toEqual({ status: [MESSAGES.ticketStatus] });
    expect((await getTicket(kit.as(DEMO), ticket.id)).status).toBe('SOLVED');
  });

  it('deletes the ticket and its image', async () => {
    const ticket = await create(DEMO);
    expect(await deleteTicket(kit.as(DEMO), ticket.id)).toBe(ticket.id);
    expect((await refused(getTicket(kit.as(DEMO), ticket.id))).code).toBe('NOT_FOUND');
    expect((await refused(getTicketImageData(kit.as(DEMO), ticket.image!.id))).code).toBe('NOT_FOUND');
    expect((await refused(deleteTicket(kit.as(DEMO), ticket.id))).code).toBe('NOT_FOUND');
  });
});

describe("an agent's own tickets", () => {
  it("another agent's ticket is not found for every read and write; nothing changes", async () => {
    const ticket = await create(DEMO, { title: 'Only Demo' });
    // Each a fresh request, as the transports make them.
    const attempts: [string, () => Promise<unknown>][] = [
      ['get', () => getTicket(kit.as(MARNIE), ticket.id)],
      ['update', () => updateTicket(kit.as(MARNIE), ticket.id, body({ title: 'Taken over' }))],
      ['status', () => setTicketStatus(kit.as(MARNIE), ticket.id, 'SOLVED')],
      ['image', () => setTicketImage(kit.as(MARNIE), ticket.id, IMAGE)],
      ['image data', () => getTicketImageData(kit.as(MARNIE), ticket.image!.id)],
      ['delete', () => deleteTicket(kit.as(MARNIE), ticket.id)],
    ];
    for (const [name, attempt] of attempts) expect((await refused(attempt())).code, name).toBe('NOT_FOUND');
    expect((await listAllTickets(kit.as(MARNIE))).map((t) => t.id)).not.toContain(ticket.id);
    expect((await listTickets(kit.as(MARNIE), { first: 100 })).nodes.map((t) => t.id)).not.toContain(ticket.id);
    expect(await getTicket(kit.as(DEMO), ticket.id)).toEqual(ticket);
  });

  it('signed out, every ticket service refuses', async () => {
    const out = () => kit.as(null);
    const calls = [
      () => listTickets(out()),
      () => listAllTickets(out()),
      () => getTicket(out(), 1),
      () => createTicket(out(), body(), IMAGE),
      () => deleteTicket(out(), 1),
    ];
    for (const call of calls) expect((await refused(call())).code).toBe('UNAUTHENTICATED');
  });

  it("a ticket's events go to its assignee's topic only, with the facets before the change", async () => {
    const agent = await kit.newAgent();
    const mine = kit.listen('ticket', agent);
    const others = kit.listen('ticket', DEMO);
    const ticket = await create(agent);
    await setTicketStatus(kit.as(agent), ticket.id, 'PENDING');
    await deleteTicket(kit.as(agent), ticket.id);
    // Demo's own write after them: once it has arrived, anything published to Demo before it has too.
    const marker = await create(DEMO);
    const [created, updated, deleted] = await mine.waitFor(3);
    expect(created).toMatchObject({ kind: 'CREATED', id: ticket.id, record: { assigneeId: agent } });
    expect(updated).toMatchObject({ kind: 'UPDATED', id: ticket.id, record: { status: 'PENDING' }, previous: { status: 'OPEN', priority: 'Low' } });
    expect(deleted).toEqual({ kind: 'DELETED', id: ticket.id, previous: { status: 'PENDING', priority: 'Low', type: 'Question', requesterId: 1 } });
    expect((await others.waitFor(1)).map((e) => e.id)).toEqual([marker.id]);
    expect(others.events.map((e) => e.id)).not.toContain(ticket.id);
    mine.stop();
    others.stop();
  });
});

describe('pages', () => {
  it('newest first; every page size walks the same set once, by cursor, with the total on every page (property)', async () => {
    const agent = await kit.newAgent();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await create(agent, { title: `Page ${i}` })).id);
    expect((await listAllTickets(kit.as(agent))).map((t) => t.id)).toEqual([...ids].reverse());
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), async (first) => {
        const seen: number[] = [];
        let after: string | null = null;
        for (;;) {
          const page = await listTickets(kit.as(agent), { first, after });
          expect(page.totalCount).toBe(ids.length);
          expect(page.nodes.length).toBeLessThanOrEqual(first);
          seen.push(...page.nodes.map((t) => t.id));
          if (!page.hasNextPage) break;
          after = page.endCursor;
        }
        expect(seen).toEqual([...ids].reverse());
      }),
      { numRuns: 8 },
    );
  });

  it('refuses a page size outside 1..100 and a cursor of another list or order, with the shared messages', async () => {
    for (const first of [0, 101, 1.5, -1]) {
      expect((await refused(listTickets(kit.as(DEMO), { first }))).fields, String(first)).toEqual({ first: [MESSAGES.pageSize] });
    }
    const priority = await listTickets(kit.as(DEMO), { first: 2, orderBy: 'PRIORITY' });
    for (const after of [priority.endCursor, 'garbage', Buffer.from('customer:3').toString('base64url')]) {
      expect((await refused(listTickets(kit.as(DEMO), { after }))).fields, after!).toEqual({ after: [MESSAGES.pageCursor] });
    }
    expect(Object.keys((await refused(listTickets(kit.as(DEMO), { orderBy: 'SIDEWAYS' }))).fields!)).toEqual(['orderBy']);
  });
});
