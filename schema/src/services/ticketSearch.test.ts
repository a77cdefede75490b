/**
 * Ticket search (services/ticketSearch.ts, run by listTickets' `filter.search`): words and word prefixes in title,
 * description, requester name and email, `123` / `#123` for a ticket id, punctuation that only separates words,
 * the 200-character limit, relevance, and only ever the viewer's own tickets. On each database's own engine
 * (SQLite FTS5, PostgreSQL full-text), through the schema package's kit; no gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LIMITS, MESSAGES } from '../validation/rules.js';
import { openServiceKit, refused, uniqueWord, type ServiceKit } from '../testing/services.js';
import { createCustomer, updateCustomer } from './customers.js';
import { createTicket, deleteTicket, listTickets, setTicketStatus, updateTicket } from './tickets.js';

const [DEMO, MARNIE] = [1, 2];
let kit: ServiceKit;

beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

const create = async (viewer: number, fields: { title?: string; description?: string; requesterId?: number }) =>
  (await createTicket(kit.as(viewer), { title: 'Search', requesterId: 1, description: 'search test ticket', ...fields })).id;

/** Every match of a search, following the cursors. */
async function search(viewer: number, text: string, extra: { orderBy?: string; status?: string[] } = {}): Promise<number[]> {
  const ids: number[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await listTickets(kit.as(viewer), { first: 2, after, orderBy: extra.orderBy, filter: { search: text, status: extra.status } });
    ids.push(...page.nodes.map((t) => t.id));
    if (!page.hasNextPage) return ids;
    after = page.endCursor;
  }
}

describe('what matches', () => {
  it('words and word prefixes of title and description, any case; every word must match', async () => {
    const word = uniqueWord();
    const inTitle = await create(DEMO, { title: `Printer ${word}`, description: 'The tray is jammed.' });
    const inDescription = await create(DEMO, { title: 'Another one', description: `Nothing prints: ${word} again` });
    const both = await create(DEMO, { title: `${word} scanner`, description: 'the scanner glass is cracked' });
    expect((await search(DEMO, word)).sort()).toEqual([inTitle, inDescription, both].sort());
    expect((await search(DEMO, word.slice(0, 7).toUpperCase())).sort()).toEqual(expect.arrayContaining([inTitle, inDescription, both]));
    expect(await search(DEMO, `${word} scan`)).toEqual([both]);
    expect(await search(DEMO, `${word} nosuchwordanywhere`)).toEqual([]);
  });

  it("the requester's name and email, and a rename is searchable at once", async () => {
    const word = uniqueWord();
    const customer = await createCustomer(kit.as(DEMO), { name: `Quinn ${word}`, email: `${word}@requester.test` });
    const ticket = await create(DEMO, { requesterId: customer.id });
    expect(await search(DEMO, word)).toEqual([ticket]);
    expect(await search(DEMO, `${word}@requester.test`)).toEqual([ticket]);
    const renamed = uniqueWord('renamed');
    await updateCustomer(kit.as(DEMO), customer.id, { name: `Quinn ${renamed}`, email: customer.email });
    expect(await search(DEMO, renamed)).toEqual([ticket]);
    expect(await search(DEMO, `quinn ${word}`)).toEqual([ticket]); // still the email's word
  });

  it('punctuation and operators only separate words', async () => {
    const word = uniqueWord();
    const id = await create(DEMO, { title: `Router ${word}`, description: 'drops the connection at night' });
    for (const text of [`"${word}"`, `${word}!!!`, `(${word})`, `${word}*`, `-${word}`, `router:${word}`, `(router) "${word}`, `${word}^-night`]) {
      expect(await search(DEMO, text), text).toEqual([id]);
    }
    // Operator names of either engine are plain words, which this ticket does not hold.
    for (const text of [`${word} AND`, `router NEAR ${word}`, `${word} OR nothing`]) expect(await search(DEMO, text), text).toEqual([]);
    // Nothing but punctuation is no search word: nothing matches, and nothing fails.
    expect(await search(DEMO, '"*()-:^')).toEqual([]);
  });

  it('`123`, `#123` and ` #123 ` name a ticket and rank it first; relevance puts a title match before a description match', async () => {
    const word = uniqueWord();
    const inDescription = await create(DEMO, { title: 'Plain title', description: `mentions ${word} once in a longer description of the issue` });
    const inTitle = await create(DEMO, { title: `${word} title`, description: 'nothing else' });
    expect(await search(DEMO, word)).toEqual([inTitle, inDescription]);
    for (const text of [`#${inDescription}`, String(inDescription), ` #${inDescription} `]) {
      expect((await listTickets(kit.as(DEMO), { filter: { search: text } })).nodes[0].id, text).toBe(inDescription);
    }
    // Search combines with the status filter (counts per status under the search) and other orders.
    await setTicketStatus(kit.as(DEMO), inTitle, 'SOLVED');
    const open = await listTickets(kit.as(DEMO), { filter: { search: word, status: ['OPEN', 'PENDING'] } });
    expect(open.nodes.map((t) => t.id)).toEqual([inDescription]);
    expect(open.statusCounts).toEqual({ OPEN: 1, PENDING: 0, SOLVED: 1 });
    expect(await search(DEMO, word, { orderBy: 'OLDEST' })).toEqual([inDescription, inTitle]);
  });

  it('a word planted among any text is found by itself and by each of its prefixes of 2 letters or more (property)', async () => {
    const agent = await kit.newAgent();
    const noise = fc.array(fc.constantFrom('"', '*', '(', ')', '-', ':', ',', '.', '!', '#', ' '), { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z]{3,12}$/), noise, noise, fc.integer({ min: 2, max: 12 }), async (stem, before, after, cut) => {
        const word = `${uniqueWord('w')}${stem}`;
        const id = await create(agent, { title: `${before}${word}${after}`.slice(0, LIMITS.ticketTitle.max) });
        expect(await search(agent, word)).toEqual([id]);
        expect(await search(agent, `${before}${word.slice(0, Math.max(cut, 2))}${after}`)).toContain(id);
        await deleteTicket(kit.as(agent), id);
      }),
      { numRuns: 15 },
    );
  });
});

describe('limits and safety', () => {
  it('200 characters are searched; 201 are refused with the shared message, before any engine sees them', async () => {
    expect((await listTickets(kit.as(DEMO), { filter: { search: 'a '.repeat(100) } })).nodes).toBeDefined();
    for (const text of ['x'.repeat(LIMITS.search.max + 1), '"('.repeat(3000), '\u0000'.repeat(300)]) {
      const error = await refused(listTickets(kit.as(DEMO), { filter: { search: text } }));
      expect(error.code).toBe('BAD_USER_INPUT');
      expect(error.fields).toEqual({ search: [MESSAGES.searchLength] });
    }
  });

  it('any input up to the limit is data, never an engine error (property)', async () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: LIMITS.search.max }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc
        .array(
          fc.constantFrom('"', "'", '*', '-', '(', ')', ':', '^', 'NEAR', 'AND', 'OR', 'NOT', '<->', '\\', '\u0000', '🙂', 'שלום', '#', '12', 'ab', '%', ';'),
          {
            maxLength: 30,
          },
        )
        .map((parts) => parts.join(' ').slice(0, LIMITS.search.max)),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (text) => {
        const page = await listTickets(kit.as(DEMO), { first: 5, filter: { search: text } });
        expect(page.nodes.length).toBeLessThanOrEqual(5);
        expect(page.nodes.every((t) => t.assigneeId === DEMO)).toBe(true);
      }),
      { numRuns: 100, seed: 20261126 },
    );
  });
});

describe("only the viewer's own tickets", () => {
  it("another agent's words and ids find nothing, and count nothing", async () => {
    const secret = uniqueWord('secret');
    const marnies = await create(MARNIE, { title: `Marnie ${secret}`, description: `only ${secret}` });
    expect(await search(MARNIE, secret)).toEqual([marnies]);
    expect(await search(DEMO, secret)).toEqual([]);
    expect(await search(DEMO, `#${marnies}`)).toEqual([]);
    expect((await listTickets(kit.as(DEMO), { filter: { search: secret } })).statusCounts).toEqual({ OPEN: 0, PENDING: 0, SOLVED: 0 });
  });

  it('the index follows every write at once: edit, delete', async () => {
    const before = uniqueWord('before');
    const after = uniqueWord('after');
    const id = await create(DEMO, { title: before });
    expect(await search(DEMO, before)).toEqual([id]);
    await updateTicket(kit.as(DEMO), id, { title: after, requesterId: 1, description: 'moved on' });
    expect(await search(DEMO, before)).toEqual([]);
    expect(await search(DEMO, after)).toEqual([id]);
    await deleteTicket(kit.as(DEMO), id);
    expect(await search(DEMO, after)).toEqual([]);
    expect(await search(DEMO, `#${id}`)).toEqual([]);
  });
});
