/**
 * Every GraphQL list is a cursor connection (tickets, customers, macros, users): pages walk the whole list in
 * order with the right totals, `first` is bounded with a clear error, a cursor only works on its own list, and
 * the REST facade still answers its bare arrays. Runs on SQLite and PostgreSQL (FULCRUM_TEST_DATABASE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { connection, forkEm, rules } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../testing/harness.js';
import type { GqlResult, TestClient } from '../testing/client.js';

const { MESSAGES } = rules;
let gw: TestGateway;
let demo: TestClient;

type Kind = 'ticket' | 'customer' | 'macro' | 'user';
interface List {
  kind: Kind;
  field: 'tickets' | 'customers' | 'macros' | 'users';
  rest: string;
  /** The ids the demo agent should see, in the list's order, straight from the database. */
  expected(): Promise<number[]>;
}

async function ids(sql: string, bindings: unknown[] = []): Promise<number[]> {
  const em = forkEm(gw.orm);
  const rows: { id: number | string }[] = await em.getConnection().execute(sql, bindings);
  return rows.map((row) => Number(row.id));
}

const LISTS: List[] = [
  { kind: 'ticket', field: 'tickets', rest: '/api/tickets/', expected: () => ids('select id from tickets where assignee_id = 1 order by id desc') },
  { kind: 'customer', field: 'customers', rest: '/api/customers/', expected: () => ids('select id from customers order by id desc') },
  { kind: 'macro', field: 'macros', rest: '/api/macro/', expected: () => ids('select id from macros where id = 1 or owner_id = 1 order by id desc') },
  { kind: 'user', field: 'users', rest: '/api/users/', expected: () => ids('select id from users order by id asc') },
];

interface Connection {
  totalCount: number;
  nodes: { id: number }[];
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
}

async function page(list: List, args: { first?: number; after?: string | null }): Promise<GqlResult<Record<string, Connection>>> {
  return demo.gql(
    `query($first: Int, $after: String) { ${list.field}(first: $first, after: $after) { totalCount nodes { id } pageInfo { endCursor hasNextPage } } }`,
    args,
  );
}

const fieldsOf = (res: GqlResult) => res.errors?.[0]?.extensions?.fields;
const codeOf = (res: GqlResult) => res.errors?.[0]?.extensions?.code;

beforeAll(async () => {
  [gw, demo] = await startSignedIn(0);
  // Enough rows that every list spans several pages: 130 customers, 120 macros (110 the demo agent's),
  // 105 agents, 140 tickets of the demo agent.
  const em = forkEm(gw.orm);
  const knex = em.getKnex();
  const now = new Date();
  const run = (qb: unknown) => em.getConnection().execute(qb as never);
  await run(
    knex
      .insert(Array.from({ length: 130 }, (_, i) => ({ name: `Bulk Customer ${i}`, email: `bulk-${i}@paging.test`, owner_id: 1 + (i % 3), created_at: now })))
      .into('customers'),
  );
  await run(
    knex
      .insert(Array.from({ length: 120 }, (_, i) => ({ name: `Bulk macro ${i}`, description: 'canned', owner_id: i % 12 === 0 ? 2 : 1, created_at: now })))
      .into('macros'),
  );
  await run(
    knex
      .insert(Array.from({ length: 105 }, (_, i) => ({ username: `agent${i}`, email: `agent-${i}@paging.test`, password_hash: 'not-a-hash', created_at: now })))
      .into('users'),
  );
  await run(
    knex
      .insert(
        Array.from({ length: 140 }, (_, i) => ({
          title: `Bulk ${i}`,
          type: 'Task',
          priority: 'Low',
          assignee_id: 1,
          requester_id: 1,
          macro_id: 1,
          description: 'bulk row',
          created_at: now,
          updated_at: now,
        })),
      )
      .into('tickets'),
  );
});
afterAll(() => gw.destroy());

describe.each(LISTS)('Query.$field', (list) => {
  it('walks the whole list in order, page by page, with the total on every page', async () => {
    const expected = await list.expected();
    expect(expected.length).toBeGreaterThan(100);
    const seen: number[] = [];
    let after: string | null = null;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(10);
      const res = await page(list, { first: 37, after });
      expect(res.errors).toBeUndefined();
      const connection = res.data![list.field];
      expect(connection.totalCount).toBe(expected.length);
      seen.push(...connection.nodes.map((n) => n.id));
      expect(connection.pageInfo.hasNextPage).toBe(seen.length < expected.length);
      if (!connection.pageInfo.hasNextPage) {
        // Past the end: an empty page, no cursor, still the total.
        const past = (await page(list, { first: 37, after: connection.pageInfo.endCursor })).data![list.field];
        expect(past).toEqual({ totalCount: expected.length, nodes: [], pageInfo: { endCursor: null, hasNextPage: false } });
        break;
      }
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
    // The REST facade keeps its bare array of every record.
    const rest = await demo.get(list.rest);
    expect(rest.status).toBe(200);
    expect(Array.isArray(rest.body)).toBe(true);
    expect(rest.body.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b)).toEqual([...expected].sort((a, b) => a - b));
  });

  it('defaults to 50, allows 1 to 100, and refuses anything else on `first` with a clear message', async () => {
    const expected = await list.expected();
    const byDefault = await demo.gql(`{ ${list.field} { nodes { id } pageInfo { hasNextPage } } }`);
    expect(byDefault.data![list.field].nodes.map((n: { id: number }) => n.id)).toEqual(expected.slice(0, 50));
    const one = (await page(list, { first: 1 })).data![list.field];
    expect(one).toEqual({
      totalCount: expected.length,
      nodes: [{ id: expected[0] }],
      pageInfo: { endCursor: connection.encodeCursor(list.kind, expected[0]), hasNextPage: true },
    });
    expect((await page(list, { first: 100 })).data![list.field].nodes).toHaveLength(100);
    for (const first of [101, 0, -1, 2 ** 31 - 1]) {
      const refused = await page(list, { first });
      // Refused before anything runs (the page size is a published limit, checked with the cost).
      expect(refused.status).toBe(400);
      expect(codeOf(refused)).toBe('BAD_USER_INPUT');
      expect(fieldsOf(refused)).toEqual({ first: [MESSAGES.pageSize] });
      expect(refused.data ?? null).toBeNull();
    }
  });

  it("takes only cursors it handed out: garbage and other lists' cursors are refused on `after`", async () => {
    const other: Kind = list.kind === 'customer' ? 'macro' : 'customer';
    const bad = [
      'garbage',
      ' ',
      Buffer.from(`${list.kind}:0`).toString('base64url'),
      Buffer.from(`${list.kind}:-3`).toString('base64url'),
      connection.encodeCursor(other, 5),
      'x'.repeat(5000),
    ];
    for (const after of bad) {
      const refused = await page(list, { first: 5, after });
      expect(codeOf(refused), after.slice(0, 20)).toBe('BAD_USER_INPUT');
      expect(fieldsOf(refused)).toEqual({ after: [MESSAGES.pageCursor] });
    }
    // A bad size is refused before the cursor is even read.
    const both = await page(list, { first: 500, after: 'garbage' });
    expect(fieldsOf(both)).toEqual({ first: [MESSAGES.pageSize] });
  });

  it('any first and any after: the expected slice, or a clear refusal naming the argument (property)', async () => {
    const expected = await list.expected();
    const after = fc.oneof(
      fc.constant(null),
      fc.integer({ min: 0, max: expected.length - 1 }).map((i) => ({ index: i })),
      fc.string({ maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -3, max: 104 }), after, async (first, pick) => {
        const cursor = pick && typeof pick === 'object' ? connection.encodeCursor(list.kind, expected[pick.index]) : pick;
        const res = await page(list, { first, after: cursor });
        const firstOk = first >= 1 && first <= 100;
        const decoded = cursor === null || typeof pick === 'object' ? undefined : safeDecode(list.kind, cursor);
        // A random text that happens to be a valid cursor (all but impossible) is not this property's business.
        if (typeof decoded === 'number') return;
        const afterOk = decoded !== false;
        if (!firstOk || !afterOk) {
          expect(codeOf(res)).toBe('BAD_USER_INPUT');
          // The size is checked first (before anything runs), then the cursor.
          expect(Object.keys(fieldsOf(res) ?? {})).toEqual(firstOk ? ['after'] : ['first']);
          return;
        }
        const start = typeof pick === 'object' && pick ? pick.index + 1 : 0;
        const answer = res.data![list.field];
        expect(answer.nodes.map((n) => n.id)).toEqual(expected.slice(start, start + first));
        expect(answer.totalCount).toBe(expected.length);
        expect(answer.pageInfo.hasNextPage).toBe(start + first < expected.length);
      }),
      { numRuns: 25 },
    );
  });
});

/** What the service makes of this text as a cursor of `kind`: an id, null (no cursor: ''), or false (refused). */
function safeDecode(kind: Kind, cursor: string): number | null | false {
  try {
    return connection.decodeCursor(kind, cursor);
  } catch {
    return false;
  }
}

describe('Query.customers(search:)', () => {
  const SEARCH = `query($search: String, $first: Int, $after: String) { customers(search: $search, first: $first, after: $after) { totalCount nodes { id name email } pageInfo { endCursor hasNextPage } } }`;

  it('finds customers by name or email, case-insensitively, and counts the matches', async () => {
    const alice = await demo.gql('mutation { createCustomer(input: { name: "Alice Zebrafinch", email: "alice@ZEBRA.example" }) { id } }');
    const bob = await demo.gql('mutation { createCustomer(input: { name: "Bob Builder", email: "bob@zebrafinch.example" }) { id } }');
    const ids = [bob.data!.createCustomer.id, alice.data!.createCustomer.id];
    const found = (await demo.gql(SEARCH, { search: 'zEbRaFiNcH' })).data!.customers;
    expect(found.totalCount).toBe(2);
    expect(found.nodes.map((c: { id: number }) => c.id)).toEqual(ids);
    // Paging inside a search: one at a time.
    const first = (await demo.gql(SEARCH, { search: 'zebrafinch', first: 1 })).data!.customers;
    expect(first).toMatchObject({ totalCount: 2, nodes: [{ id: ids[0] }], pageInfo: { hasNextPage: true } });
    const second = (await demo.gql(SEARCH, { search: 'zebrafinch', first: 1, after: first.pageInfo.endCursor })).data!.customers;
    expect(second).toMatchObject({ totalCount: 2, nodes: [{ id: ids[1] }], pageInfo: { hasNextPage: false } });
    // Surrounding spaces are ignored; empty means everyone.
    expect((await demo.gql(SEARCH, { search: '  builder ' })).data!.customers.totalCount).toBe(1);
    const everyone = (await demo.gql('{ customers(first: 1) { totalCount } }')).data!.customers.totalCount;
    expect((await demo.gql(SEARCH, { search: '   ', first: 1 })).data!.customers.totalCount).toBe(everyone);
  });

  it('treats %, _ and \\ as plain text, and refuses an over-long search on `search`', async () => {
    await demo.gql('mutation { createCustomer(input: { name: "Save 100% Ltd", email: "percent@paging.test" }) { id } }');
    await demo.gql('mutation { createCustomer(input: { name: "Under_score", email: "under@paging.test" }) { id } }');
    expect((await demo.gql(SEARCH, { search: '100%' })).data!.customers.nodes.map((c: { name: string }) => c.name)).toEqual(['Save 100% Ltd']);
    expect((await demo.gql(SEARCH, { search: '%' })).data!.customers.totalCount).toBe(1);
    expect((await demo.gql(SEARCH, { search: '_' })).data!.customers.totalCount).toBe(1);
    expect((await demo.gql(SEARCH, { search: 'R_S' })).data!.customers.nodes.map((c: { name: string }) => c.name)).toEqual(['Under_score']);
    expect((await demo.gql(SEARCH, { search: '\\' })).data!.customers.totalCount).toBe(0);
    const long = await demo.gql(SEARCH, { search: 'x'.repeat(201) });
    expect(codeOf(long)).toBe('BAD_USER_INPUT');
    expect(fieldsOf(long)).toEqual({ search: [MESSAGES.searchLength] });
    expect(fieldsOf(await demo.gql(SEARCH, { search: 'a\u0000b' }))).toEqual({ search: [MESSAGES.searchLength] });
  });

  it('any search text: matches, or a clear refusal, never a server error (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 220 }), async (search) => {
        const res = await demo.gql(SEARCH, { search, first: 5 });
        if (search.length > 200 || search.includes('\u0000')) {
          expect(fieldsOf(res)).toEqual({ search: [MESSAGES.searchLength] });
          return;
        }
        expect(res.errors).toBeUndefined();
        // The database folds case (PostgreSQL by its collation, e.g. İ as i): compare without case or accents.
        const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
        const needle = fold(search.trim());
        for (const c of res.data!.customers.nodes as { name: string; email: string }[]) {
          expect(fold(`${c.name}\n${c.email}`)).toContain(needle);
        }
      }),
      { numRuns: Number(process.env.RUNS ?? 25) },
    );
  });
});

describe('Query.macros', () => {
  it("counts and pages only the caller's macros and macro 1, never another agent's", async () => {
    const marnie = await gw.as(1);
    const all = (await marnie.gql('{ macros(first: 100) { totalCount nodes { id ownerId } } }')).data!.macros;
    expect(all.nodes.every((m: { id: number; ownerId: number | null }) => m.id === 1 || m.ownerId === 2)).toBe(true);
    expect(all.totalCount).toBe((await ids('select id from macros where id = 1 or owner_id = 2')).length);
    expect(all.nodes.at(-1).id).toBe(1);
  });
});
