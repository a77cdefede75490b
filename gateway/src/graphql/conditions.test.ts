/**
 * `tickets(where:)` and `ticketFields` through GraphQL on a real gateway (SQLite, or PostgreSQL in the second pass):
 * every malformed tree is BAD_USER_INPUT keyed by the node's path (`where.all.1.any.0`), a tree past the published
 * depth or size is refused on `where` before the cost model prices it (HTTP 400), a tree's comparisons are priced,
 * `ticketFields` is the registry, and a where combines with the filter and the search. Bad input under fast-check
 * never gets anything but BAD_USER_INPUT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CONDITION_LIMITS, TICKET_FIELDS, type ConditionInput } from '@fulcrum/schema/conditions';
import { startSignedIn, type TestGateway } from '../testing/harness.js';
import { dataOf, type GqlResult, type TestClient } from '../testing/client.js';
import { PNG } from '../testing/fixtures.js';

let gw: TestGateway;
let demo: TestClient;
beforeAll(async () => ([gw, demo] = await startSignedIn(0)));
afterAll(() => gw?.destroy());

const LIST = `query List($where: TicketCondition, $filter: TicketFilter, $first: Int) {
  tickets(where: $where, filter: $filter, first: $first) { totalCount nodes { id title channel status } }
}`;
const list = (where: unknown, extra: Record<string, unknown> = {}) =>
  demo.gql<{ tickets: { totalCount: number; nodes: { id: number; title: string; channel: string | null }[] } }>(LIST, { where, first: 100, ...extra });
const requested = (r: GqlResult) => (r as unknown as { extensions?: { cost?: { requested: number } } }).extensions?.cost?.requested;

const cmp = (field: string, op: string, values: string[] = []): ConditionInput => ({ field, op, values });
const OPEN = cmp('status', 'EQ', ['OPEN']);

/** [tree, path, what the message says] */
const BAD: [string, unknown, string, RegExp][] = [
  ['an empty node', {}, 'where', /either a group/],
  ['an empty group', { all: [] }, 'where', /at least one/],
  ['two groups', { all: [OPEN], any: [OPEN] }, 'where', /either a group/],
  ['a group and a comparison', { all: [OPEN], ...OPEN }, 'where', /either a group/],
  ['a comparison without op, deep', { all: [OPEN, { any: [{ field: 'status' }] }] }, 'where.all.1.any.0', /field and an operator/],
  ['a comparison without field', { not: { op: 'EQ', values: ['x'] } }, 'where.not', /field and an operator/],
  ['an unknown field', { any: [OPEN, cmp('nope', 'EQ', ['x'])] }, 'where.any.1', /no ticket field "nope"/],
  ['an operator the field does not take', cmp('title', 'GT', ['x']), 'where', /Title does not take GT/],
  ['an unknown enum value', cmp('status', 'EQ', ['Closed']), 'where', /one of OPEN, PENDING, SOLVED/],
  ['an enum value in the wrong case', cmp('priority', 'IN', ['high']), 'where', /one of Low/],
  ['an id that is not one', cmp('teamId', 'EQ', ['abc']), 'where', /whole number/],
  ['a time that is not ISO 8601', cmp('createdAt', 'GT', ['yesterday']), 'where', /ISO 8601 instant/],
  ['a duration that is not ISO 8601', cmp('createdAt', 'WITHIN_LAST', ['3 days']), 'where', /P3D/],
  ['a month duration', cmp('updatedAt', 'MORE_THAN_AGO', ['P1M']), 'where', /P3D/],
  ['IN without values', cmp('status', 'IN', []), 'where', /one or more/],
  ['IS_SET with a value', cmp('teamId', 'IS_SET', ['1']), 'where', /no values/],
  ['IS_SET on a field never empty', cmp('requesterId', 'IS_SET'), 'where', /does not take IS_SET/],
  ['EQ with two values', cmp('title', 'EQ', ['a', 'b']), 'where', /exactly one/],
];

const nested = (depth: number): ConditionInput => (depth <= 1 ? OPEN : { not: nested(depth - 1) });

describe('tickets(where:)', () => {
  it.each(BAD)('%s is BAD_USER_INPUT on its path', async (_name, where, path, message) => {
    const res = await list(where);
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
    expect(Object.keys(res.errors![0].extensions!.fields!)).toEqual([path]);
    expect(res.errors![0].extensions!.fields![path].join(' ')).toMatch(message);
    expect(res.data?.tickets ?? null).toBeNull();
  });

  it(`nests ${CONDITION_LIMITS.depth} deep and holds ${CONDITION_LIMITS.comparisons} comparisons; one more is refused on where before it is priced`, async () => {
    expect(dataOf(await list(nested(CONDITION_LIMITS.depth))).tickets.totalCount).toBeGreaterThanOrEqual(0);
    const deep = await list(nested(CONDITION_LIMITS.depth + 1));
    expect(deep.status).toBe(400);
    expect(deep.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(deep.errors![0].extensions!.fields!)).toEqual(['where']);
    const many = (n: number) => ({ any: Array.from({ length: n }, () => OPEN) });
    const at = await list(many(CONDITION_LIMITS.comparisons));
    expect(at.errors).toBeUndefined();
    const over = await list(many(CONDITION_LIMITS.comparisons + 1));
    expect(over.status).toBe(400);
    expect(over.errors?.[0]?.extensions?.fields?.where?.[0]).toMatch(/at most 50 comparisons/);
  });

  it('prices a tree by its comparisons', async () => {
    const base = requested(await list(null));
    expect(requested(await list(OPEN))).toBe(base! + 1);
    expect(requested(await list({ all: [OPEN, { not: cmp('teamId', 'IS_SET') }] }))).toBe(base! + 2);
  });

  it('combines with the filter and the search; every ticket found holds the tree', async () => {
    const title = `Ärger 50%_x ${Date.now()}`.slice(0, 40);
    const created = dataOf(
      await demo.gqlUpload(
        'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id channel } }',
        { input: { title, description: 'Straße und Ärger', requesterId: 1 } },
        'image',
        { data: PNG },
      ),
    ).createTicket as { id: number; channel: string };
    expect(created.channel).toBe('WEB');
    const where = { all: [cmp('title', 'CONTAINS', ['ärger 50%_X']), cmp('channel', 'EQ', ['WEB']), cmp('assigneeId', 'IS_SET')] };
    expect(dataOf(await list(where)).tickets.nodes.map((n: { id: number }) => n.id)).toEqual([created.id]);
    expect(dataOf(await list(where, { filter: { status: ['SOLVED'] } })).tickets.totalCount).toBe(0);
    expect(dataOf(await list(where, { filter: { search: 'Straße' } })).tickets.nodes.map((n: { id: number }) => n.id)).toEqual([created.id]);
    expect(dataOf(await list({ not: where }, { filter: { search: 'Straße' } })).tickets.nodes.map((n: { id: number }) => n.id)).not.toContain(created.id);
    expect(dataOf(await list(cmp('title', 'CONTAINS', ['ärger 5%']))).tickets.totalCount).toBe(0);
  });

  it('any tree of wrong shapes and values is BAD_USER_INPUT or a page, never another error', async () => {
    const leaf = fc.record(
      {
        field: fc.constantFrom('status', 'title', 'teamId', 'createdAt', 'x', ''),
        op: fc.constantFrom('EQ', 'IN', 'GT', 'IS_SET', 'WITHIN_LAST'),
        values: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    );
    const tree = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ maxDepth: 4 }, leaf, fc.record({ all: fc.array(tie('node'), { maxLength: 3 }) }), fc.record({ not: tie('node') })),
    })).node;
    await fc.assert(
      fc.asyncProperty(tree, async (where) => {
        const res = await list(where);
        if (res.errors) expect(res.errors[0].extensions?.code, JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
        else expect(res.data?.tickets.totalCount).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 60 },
    );
  });
});

describe('ticketFields', () => {
  it('is the registry: every key, type, operator and option', async () => {
    const fields = dataOf(await demo.gql('{ ticketFields { key label type operators options { value label } } }')).ticketFields as {
      key: string;
      type: string;
      operators: string[];
      options: { value: string }[] | null;
    }[];
    expect(fields.map((f) => f.key)).toEqual(TICKET_FIELDS.map((f) => f.key));
    for (const key of [
      'status',
      'priority',
      'type',
      'teamId',
      'assigneeId',
      'requesterId',
      'requester.email',
      'title',
      'subject',
      'description',
      'createdAt',
      'updatedAt',
      'channel',
    ])
      expect(fields.map((f) => f.key)).toContain(key);
    const byKey = new Map(fields.map((f) => [f.key, f]));
    expect(byKey.get('assigneeId')!.operators).toContain('IS_NOT_SET');
    expect(byKey.get('createdAt')!.operators).toEqual(['GT', 'GTE', 'LT', 'LTE', 'WITHIN_LAST', 'MORE_THAN_AGO']);
    expect(byKey.get('channel')!.options!.map((o) => o.value)).toEqual(expect.arrayContaining(['WEB', 'REST', 'API_TOKEN', 'EMAIL']));
    expect(byKey.get('status')!.options!.map((o) => o.value)).toEqual(['OPEN', 'PENDING', 'SOLVED']);
  });
});
