/**
 * The condition tree on a real database (SQLite, or PostgreSQL + Redis in the second pass), against the shared
 * module's in-memory evaluator:
 * - differential: a random set of tickets made through the services (teams, assignees or none, statuses, channels,
 *   texts with `%`, `_`, "Ärger", "straße"), one ticket the viewer may not read, and random trees under fast-check:
 *   `listTickets(where)` over all pages, its totalCount and the in-memory evaluation give the same tickets;
 * - conformance: every registry field with each of its operators runs in SQL and in memory (a field type without
 *   both fails), and the registry's channels are the event record's.
 * The in-memory side is fed what the test made (the requester's email, the door a ticket came through), not what the
 * SQL reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CONDITION_LIMITS,
  MEMORY_EVALUATORS,
  TICKET_CHANNELS,
  TICKET_FIELDS,
  evaluateCondition,
  parseCondition,
  type ConditionInput,
  type TicketFacts,
  type TicketFieldDef,
} from '../../conditions/index.js';
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from '../../validation/rules.js';
import { openServiceKit, uniqueWord, type ServiceKit } from '../../testing/services.js';
import { CHANGE_SOURCES, type ChangeSource } from '../context.js';
import { createTicket, setTicketStatus } from '../tickets.js';
import { createCustomer } from '../customers.js';
import { addTeamMember, createTeam } from '../teams.js';
import { listTickets } from '../ticketReads.js';
import { FIELD_SQL, TYPE_SQL } from './conditionSql.js';

const ADMIN = 1;
let kit: ServiceKit;

/** The world: a viewer in team A, tickets of A (theirs, a colleague's, unassigned), their own private ones. */
interface World {
  viewer: number;
  colleague: number;
  teamA: number;
  teamB: number;
  customers: { id: number; email: string }[];
  /** What the in-memory side knows of each ticket the viewer may read, by id. */
  facts: Map<number, Record<string, string | number | null>>;
  hiddenId: number;
}
let world: World;

const TEXTS = ['Ärger', 'ärger', 'STRASSE', 'straße', '50%', '50_x', 'a%b', 'A_B', 'Σίσυφος', 'plain', 'Mixed Case', '!bang'];
const CHANNELS: ChangeSource[] = ['WEB', 'API_TOKEN', 'REST'];

interface Spec {
  title: [number, number];
  description: number;
  type: number;
  priority: number;
  status: number;
  customer: number;
  placement: 'mine' | 'teamMine' | 'teamColleague' | 'teamUnassigned';
  channel: number;
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  title: fc.tuple(fc.nat(TEXTS.length - 1), fc.nat(TEXTS.length - 1)),
  description: fc.nat(TEXTS.length - 1),
  type: fc.nat(TICKET_TYPES.length - 1),
  priority: fc.nat(TICKET_PRIORITIES.length - 1),
  status: fc.nat(TICKET_STATUSES.length - 1),
  customer: fc.nat(2),
  placement: fc.constantFrom('mine', 'teamMine', 'teamColleague', 'teamUnassigned'),
  channel: fc.nat(CHANNELS.length - 1),
});

async function makeWorld(): Promise<World> {
  const word = uniqueWord('cond');
  const [viewer, colleague, outsider] = [await kit.newAgent(), await kit.newAgent(), await kit.newAgent()];
  const { id: teamA } = await createTeam(kit.as(ADMIN), uniqueWord('team'));
  const { id: teamB } = await createTeam(kit.as(ADMIN), uniqueWord('team'));
  for (const agent of [viewer, colleague]) await addTeamMember(kit.as(ADMIN), teamA, agent);
  await addTeamMember(kit.as(ADMIN), teamB, outsider);
  const customers = [];
  for (const email of [`Ärger_50%.${word}@Example.test`, `straße.${word}@example.test`, `plain.${word}@EXAMPLE.test`]) {
    customers.push({ id: (await createCustomer(kit.as(viewer), { name: word, email })).id, email });
  }
  const facts = new Map<number, Record<string, string | number | null>>();
  const specs = fc.sample(specArb, { numRuns: 24, seed: 44 });
  for (const spec of specs) {
    const via = CHANNELS[spec.channel];
    // The REST facade's caller has no teams (the spec's rule): its tickets are its own.
    const creator = spec.placement === 'teamColleague' && via !== 'REST' ? colleague : viewer;
    const placement =
      spec.placement === 'mine' || via === 'REST' ? {} : { teamId: teamA, ...(spec.placement === 'teamUnassigned' ? {} : { assigneeId: creator }) };
    const title = `${TEXTS[spec.title[0]]} ${TEXTS[spec.title[1]]}`.slice(0, 40);
    const customer = customers[spec.customer];
    const created = await createTicket(
      kit.as(creator, via),
      { title, description: TEXTS[spec.description], requesterId: customer.id, type: TICKET_TYPES[spec.type], priority: TICKET_PRIORITIES[spec.priority] },
      null,
      placement,
    );
    if (spec.status) await setTicketStatus(kit.as(creator), created.id, TICKET_STATUSES[spec.status]);
    facts.set(created.id, { channel: via, 'requester.email': customer.email, subject: title });
  }
  const hidden = await createTicket(kit.as(outsider), { title: 'Ärger hidden', description: 'Ärger, hidden', requesterId: customers[0].id }, null, {
    teamId: teamB,
  });
  // The tickets' own fields as the service reads them (the instants the API shows).
  for (const record of await everyPage(viewer, null)) {
    const known = facts.get(record.id);
    if (!known) continue;
    Object.assign(known, {
      status: record.status,
      priority: record.priority,
      type: record.type,
      teamId: record.teamId,
      assigneeId: record.assigneeId,
      requesterId: record.requesterId,
      title: record.title,
      description: record.description,
      createdAt: record.createdAt.getTime(),
      updatedAt: record.updatedAt.getTime(),
    });
  }
  return { viewer, colleague, teamA, teamB, customers, facts, hiddenId: hidden.id };
}

/** Every page of the viewer's tickets under `where` (7 at a time), checking each page's totalCount. */
async function everyPage(viewer: number, where: ConditionInput | null, expected?: number) {
  const found = [];
  let after: string | null = null;
  for (;;) {
    const page = await listTickets(kit.as(viewer), { first: 7, after, where });
    if (expected !== undefined) expect(page.totalCount).toBe(expected);
    found.push(...page.nodes);
    if (!page.hasNextPage) return found;
    after = page.endCursor;
  }
}

/** The world's tickets only (other tests' tickets of the same database do not count). */
const ours = (tree: ConditionInput): ConditionInput => ({ all: [{ field: 'requesterId', op: 'IN', values: world.customers.map((c) => String(c.id)) }, tree] });

function valuesFor(field: TicketFieldDef, op: string): fc.Arbitrary<string[]> {
  if (op === 'IS_SET' || op === 'IS_NOT_SET') return fc.constant([]);
  const facts = [...world.facts.values()];
  let one: fc.Arbitrary<string>;
  if (field.type === 'ENUM') one = fc.constantFrom(...(field.options ?? []).map((o) => o.value));
  else if (field.type === 'REFERENCE') {
    const ids = facts.map((f) => f[field.key]).filter((v): v is number => typeof v === 'number');
    one = fc.constantFrom(...[...new Set(ids)].map(String), '999999');
  } else if (field.type === 'TEXT') {
    const fragments = [...TEXTS, ...TEXTS.map((t) => t.slice(1, 3)), '%', '_', 'ß', 'Ä', 'EXAMPLE.TEST', ''];
    one = fc.oneof(fc.constantFrom(...fragments), fc.constantFrom(...facts.map((f) => String(f[field.key]))));
  } else if (op === 'WITHIN_LAST' || op === 'MORE_THAN_AGO') one = fc.constantFrom('P3D', 'PT4H', 'P1DT2H', 'PT0S');
  else {
    const times = facts.map((f) => Number(f[field.key]));
    one = fc.tuple(fc.constantFrom(...times), fc.constantFrom(-1, 0, 1)).map(([t, d]) => new Date(t + d).toISOString());
  }
  return op === 'IN' || op === 'NOT_IN' ? fc.array(one, { minLength: 1, maxLength: 3 }) : one.map((v) => [v]);
}

const comparisonArb = (): fc.Arbitrary<ConditionInput> =>
  fc
    .constantFrom(...TICKET_FIELDS)
    .chain((field) => fc.constantFrom(...field.operators).chain((op) => valuesFor(field, op).map((values) => ({ field: field.key, op, values }))));

const treeArb = (): fc.Arbitrary<ConditionInput> =>
  fc.letrec<{ node: ConditionInput }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true, maxDepth: CONDITION_LIMITS.depth - 2 },
      comparisonArb(),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((all) => ({ all })),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
      tie('node').map((not) => ({ not })),
    ),
  })).node;

/** The in-memory answer: the world's readable tickets the tree holds for. */
function expectedIds(tree: ConditionInput, now: number): number[] {
  const parsed = parseCondition(tree);
  if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
  return [...world.facts.entries()]
    .filter(([, facts]) => evaluateCondition(parsed.condition, facts as TicketFacts, now))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

beforeAll(async () => {
  kit = await openServiceKit({ admin: true });
  world = await makeWorld();
}, 120_000);
afterAll(() => kit?.close());

describe('conditions: SQL and memory agree', () => {
  it('random trees over a random set of tickets: every page, totalCount and the in-memory evaluation give the same tickets', async () => {
    expect(world.facts.size).toBe(24);
    await fc.assert(
      fc.asyncProperty(treeArb(), async (tree) => {
        const expected = expectedIds(tree, Date.now());
        const found = await everyPage(world.viewer, ours(tree), expected.length);
        expect(found.map((t) => t.id).sort((a, b) => a - b)).toEqual(expected);
        expect(found.map((t) => t.id)).not.toContain(world.hiddenId);
      }),
      { numRuns: 120 },
    );
  }, 300_000);

  it('case folding is Unicode on both sides, and % and _ are literal', async () => {
    const cases: [ConditionInput, (f: Record<string, unknown>) => boolean][] = [
      [{ field: 'title', op: 'CONTAINS', values: ['ärger'] }, (f) => String(f.title).toLowerCase().includes('ärger')],
      [{ field: 'title', op: 'CONTAINS', values: ['%'] }, (f) => String(f.title).includes('%')],
      [{ field: 'description', op: 'EQ', values: ['a_b'] }, (f) => String(f.description).toLowerCase() === 'a_b'],
      [{ field: 'requester.email', op: 'STARTS_WITH', values: ['ÄRGER_50%'] }, (f) => String(f['requester.email']).startsWith('Ärger_50%')],
    ];
    for (const [tree, holds] of cases) {
      const want = [...world.facts.entries()]
        .filter(([, f]) => holds(f))
        .map(([id]) => id)
        .sort((a, b) => a - b);
      const found = (await everyPage(world.viewer, ours(tree))).map((t) => t.id).sort((a, b) => a - b);
      expect(found, JSON.stringify(tree)).toEqual(want);
    }
  });

  it('a where naming a ticket the viewer may not read never reveals it', async () => {
    const tree = {
      any: [
        { field: 'teamId', op: 'EQ', values: [String(world.teamB)] },
        { field: 'title', op: 'CONTAINS', values: ['hidden'] },
      ],
    };
    expect(await everyPage(world.viewer, tree, 0)).toEqual([]);
  });
});

describe('conditions: the registry is implemented everywhere', () => {
  it('every field with each of its operators runs in SQL and in memory', async () => {
    const now = Date.now();
    for (const field of TICKET_FIELDS) {
      expect(TYPE_SQL[field.type], `SQL of type ${field.type}`).toBeDefined();
      expect(MEMORY_EVALUATORS[field.type], `memory of type ${field.type}`).toBeDefined();
      expect(FIELD_SQL[field.key], `SQL of field ${field.key}`).toBeDefined();
      expect(field.operators.length, field.key).toBeGreaterThan(0);
      for (const op of field.operators) {
        const [values] = fc.sample(valuesFor(field, op), { numRuns: 1, seed: 1 });
        const tree = { field: field.key, op, values };
        const found = (await everyPage(world.viewer, ours(tree))).map((t) => t.id).sort((a, b) => a - b);
        expect(found, JSON.stringify(tree)).toEqual(expectedIds(tree, now));
        const negated = (await everyPage(world.viewer, ours({ not: tree }))).length;
        expect(found.length + negated, `not ${JSON.stringify(tree)}`).toBe(world.facts.size);
      }
    }
  }, 120_000);

  it("the registry's channels are the event record's doors, and each is an option of `channel`", () => {
    expect([...TICKET_CHANNELS]).toEqual([...CHANGE_SOURCES]);
    const channel = TICKET_FIELDS.find((f) => f.key === 'channel');
    expect(channel?.options?.map((o) => o.value)).toEqual(expect.arrayContaining(['WEB', 'REST', 'API_TOKEN', 'EMAIL']));
  });
});
