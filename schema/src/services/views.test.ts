/**
 * Views (services/views.ts and viewCounts.ts) on a real database (SQLite, or PostgreSQL + Redis in the
 * second pass): every scope and the defaults, personal and shared views, counts equal to the paged totals (also
 * after concurrent writes), the access rule (another team's view shows nothing to a non-member, a member who leaves
 * keeps a view that shows nothing), ViewInput under fast-check, and the live counts and views (with Redis: also
 * a subscription on a second gateway).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VIEW_LIMITS, VIEW_MESSAGES, VIEW_SCOPES, TICKET_STATUSES, type TicketStatus } from '../validation/rules.js';
import { openServiceKit, refused, uniqueWord, type ServiceKit } from '../testing/services.js';
import { databaseIdentity } from '../database.js';
import { createEventBus } from '../realtime/events.js';
import type { ServiceContext } from './context.js';
import { createTicket, setTicketStatus } from './tickets.js';
import { takeTicket } from './assignment.js';
import { addTeamMember, createTeam, removeTeamMember } from './teams.js';
import { createView, deleteView, listViewTickets, listViews, updateView, MY_TICKETS_VIEW_ID, type ViewCountRecord, type ViewRecord } from './views.js';
import { watchViewCounts } from './viewCounts.js';
import type { TicketFilter } from './ticketReads.js';

const ADMIN = 1;
let kit: ServiceKit;
beforeAll(async () => {
  kit = await openServiceKit({ admin: true });
});
afterAll(() => kit?.close());

interface World {
  word: string;
  teamId: number;
  otherTeamId: number;
  /** Members of the team. */
  a: number;
  b: number;
  /** A member of the other team only. */
  outsider: number;
}

async function world(): Promise<World> {
  const word = uniqueWord('view');
  const [a, b, outsider] = [await kit.newAgent(), await kit.newAgent(), await kit.newAgent()];
  const { id: teamId } = await createTeam(kit.as(ADMIN), uniqueWord('team'));
  const { id: otherTeamId } = await createTeam(kit.as(ADMIN), uniqueWord('team'));
  for (const agent of [a, b]) await addTeamMember(kit.as(ADMIN), teamId, agent);
  await addTeamMember(kit.as(ADMIN), otherTeamId, outsider);
  return { word, teamId, otherTeamId, a, b, outsider };
}

const ticket = (w: World, creator: number, placement: { teamId?: number; assigneeId?: number }, title = w.word) =>
  createTicket(kit.as(creator), { title: title.slice(0, 40), requesterId: 1, description: `About ${w.word} and more.` }, null, placement);

/** Every ticket of a view, paged 7 at a time; checks each page's totalCount against the view's count. */
async function pageAll(viewer: number, viewId: number, expected?: number, filter?: TicketFilter): Promise<number[]> {
  const ids: number[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await listViewTickets(kit.as(viewer), viewId, { first: 7, after, filter });
    if (expected !== undefined) expect(page.totalCount).toBe(expected);
    ids.push(...page.nodes.map((n) => n.id));
    if (!page.hasNextPage) return ids;
    after = page.endCursor;
  }
}

const byName = (views: ViewRecord[], name: string) => views.find((v) => v.name === name);

/** Every view of the viewer: its count equals its paged total and the number of tickets its pages hold. */
async function countsMatchPages(viewer: number): Promise<ViewRecord[]> {
  const views = await listViews(kit.as(viewer));
  for (const view of views) expect((await pageAll(viewer, view.id, view.count)).length, view.name).toBe(view.count);
  return views;
}

describe('views', () => {
  it('every scope: My tickets, Unassigned and unsolved of each of my teams, and saved MINE, TEAM_UNASSIGNED, TEAM, ALL views', async () => {
    const w = await world();
    const unassigned = [await ticket(w, w.a, { teamId: w.teamId }), await ticket(w, w.b, { teamId: w.teamId })];
    const ofA = await ticket(w, w.a, { teamId: w.teamId, assigneeId: w.a });
    const ofB = await ticket(w, w.b, { teamId: w.teamId, assigneeId: w.b });
    const privateOfA = await ticket(w, w.a, { assigneeId: w.a });
    const solved = await ticket(w, w.a, { teamId: w.teamId });
    await setTicketStatus(kit.as(w.a), solved.id, 'SOLVED');
    await ticket(w, w.outsider, { teamId: w.otherTeamId });

    const views = await countsMatchPages(w.a);
    const teamName = (await listViews(kit.as(w.a))).find((v) => v.scope === 'TEAM')!.name.replace(' (unsolved)', '');
    expect(views.slice(0, 3).map((v) => [v.id, v.name, v.scope, v.teamId, v.count])).toEqual([
      [MY_TICKETS_VIEW_ID, 'My tickets', 'MINE', null, 2],
      [-2 * w.teamId, `Unassigned in ${teamName}`, 'TEAM_UNASSIGNED', w.teamId, 2],
      [-(2 * w.teamId + 1), `${teamName} (unsolved)`, 'TEAM', w.teamId, 4],
    ]);
    expect(new Set(await pageAll(w.a, -2 * w.teamId))).toEqual(new Set(unassigned.map((t) => t.id)));

    const filter = { search: w.word };
    const mine = await createView(kit.as(w.a), { name: 'Mine, all statuses', scope: 'MINE', filter });
    const teamUnassigned = await createView(kit.as(w.a), { name: 'Up for grabs', scope: 'TEAM_UNASSIGNED', teamId: w.teamId, filter });
    const team = await createView(kit.as(w.a), { name: 'Whole team', scope: 'TEAM', teamId: w.teamId, filter });
    const all = await createView(kit.as(w.a), { name: 'Everything', scope: 'ALL', filter });
    expect([mine.count, teamUnassigned.count, team.count, all.count]).toEqual([2, 3, 5, 6]);
    expect(new Set(await pageAll(w.a, all.id, 6))).toEqual(new Set([...unassigned, ofA, ofB, privateOfA, solved].map((t) => t.id)));
    // Without search (the counters' path) the same numbers, minus the solved ticket for unsolved statuses.
    const status: TicketStatus[] = ['OPEN', 'PENDING'];
    const plain = await createView(kit.as(w.a), { name: 'Team, unsolved', scope: 'TEAM', teamId: w.teamId, filter: { status } });
    expect(plain.count).toBe(4);
    await countsMatchPages(w.a);
    // An admin's ALL reads every ticket: the outsider's too.
    const adminAll = await createView(kit.as(ADMIN), { name: 'All of it', scope: 'ALL', filter });
    expect(adminAll.count).toBe(7);
    await deleteView(kit.as(ADMIN), adminAll.id);
  });

  it("personal views are their owner's; shared team views reach the members; a shared ALL view (admins only) everyone, counted through each one's access", async () => {
    const w = await world();
    await ticket(w, w.a, { teamId: w.teamId });
    await ticket(w, w.outsider, { teamId: w.otherTeamId });
    const personal = await createView(kit.as(w.a), { name: 'Just mine', scope: 'TEAM', teamId: w.teamId, filter: { search: w.word } });
    const shared = await createView(kit.as(w.a), { name: 'For the team', scope: 'TEAM', teamId: w.teamId, shared: true, filter: { search: w.word } });
    expect((await listViews(kit.as(w.b))).map((v) => v.id)).toEqual(expect.arrayContaining([shared.id]));
    expect((await listViews(kit.as(w.b))).map((v) => v.id)).not.toContain(personal.id);
    expect((await listViews(kit.as(w.outsider))).map((v) => v.id)).not.toContain(shared.id);
    expect((await refused(listViewTickets(kit.as(w.b), personal.id, {}))).code).toBe('NOT_FOUND');
    expect((await refused(listViewTickets(kit.as(w.outsider), shared.id, {}))).code).toBe('NOT_FOUND');
    // A member may not change another's shared view; an admin may.
    expect((await refused(updateView(kit.as(w.b), shared.id, { name: 'Mine now', scope: 'TEAM', teamId: w.teamId, shared: true }))).code).toBe('FORBIDDEN');
    expect(
      (await updateView(kit.as(ADMIN), shared.id, { name: 'Renamed', scope: 'TEAM', teamId: w.teamId, shared: true, filter: { search: w.word } })).name,
    ).toBe('Renamed');

    const refusal = await refused(createView(kit.as(w.a), { name: 'Everyone', scope: 'ALL', shared: true }));
    expect(refusal.fields).toEqual({ shared: [VIEW_MESSAGES.sharedAll] });
    const everyone = await createView(kit.as(ADMIN), { name: 'Everyone', scope: 'ALL', shared: true, filter: { search: w.word } });
    expect(everyone.count).toBe(2);
    const seen = (viewer: number) => listViews(kit.as(viewer)).then((views) => views.find((v) => v.id === everyone.id)?.count);
    expect(await seen(w.a)).toBe(1);
    expect(await seen(w.outsider)).toBe(1);
    expect(new Set(await pageAll(w.outsider, everyone.id, 1))).toHaveLength(1);
    await deleteView(kit.as(ADMIN), everyone.id);
    // Defaults are not rows.
    expect((await refused(deleteView(kit.as(w.a), MY_TICKETS_VIEW_ID))).fields).toEqual({ id: [VIEW_MESSAGES.builtIn] });
  });

  it("another team's scope shows nothing to a non-member: refused to make, and empty once the member has left", async () => {
    const w = await world();
    await ticket(w, w.a, { teamId: w.teamId });
    await ticket(w, w.a, { teamId: w.teamId, assigneeId: w.a });
    for (const scope of ['TEAM', 'TEAM_UNASSIGNED'] as const) {
      const refusal = await refused(createView(kit.as(w.outsider), { name: 'Peek', scope, teamId: w.teamId }));
      expect(refusal.fields).toEqual({ teamId: [VIEW_MESSAGES.teamNotMine] });
    }
    // The outsider has no default of the team either.
    expect((await refused(listViewTickets(kit.as(w.outsider), -2 * w.teamId, {}))).code).toBe('NOT_FOUND');
    const team = await createView(kit.as(w.b), { name: 'Team', scope: 'TEAM', teamId: w.teamId, filter: { search: w.word } });
    const grabs = await createView(kit.as(w.b), { name: 'Grabs', scope: 'TEAM_UNASSIGNED', teamId: w.teamId });
    expect([team.count, grabs.count]).toEqual([2, 1]);
    await removeTeamMember(kit.as(ADMIN), w.teamId, w.b);
    const after = await countsMatchPages(w.b);
    expect([byName(after, 'Team')?.count, byName(after, 'Grabs')?.count]).toEqual([0, 0]);
    expect(await pageAll(w.b, team.id, 0, { search: null })).toEqual([]);
    expect(await pageAll(w.b, team.id, 0, { search: w.word, status: [...TICKET_STATUSES] })).toEqual([]);
  });

  it('counts equal the paged totals after concurrent takes, creates and status changes', async () => {
    const w = await world();
    const tickets = [];
    for (let i = 0; i < 12; i++) tickets.push(await ticket(w, w.a, { teamId: w.teamId }));
    const grab = await createView(kit.as(w.a), { name: 'Grab', scope: 'TEAM_UNASSIGNED', teamId: w.teamId, filter: { search: w.word } });
    expect(grab.count).toBe(12);
    const writes = [
      ...tickets.slice(0, 8).map((t, i) => takeTicket(kit.as(i % 2 ? w.a : w.b), t.id, t.version).catch(() => null)),
      ...tickets.slice(0, 4).map((t) => takeTicket(kit.as(w.b), t.id, t.version).catch(() => null)),
      ...tickets.slice(8, 10).map((t) => setTicketStatus(kit.as(w.a), t.id, 'SOLVED')),
      ...[1, 2, 3].map(() => ticket(w, w.b, { teamId: w.teamId })),
      // Counts read while the writes run.
      ...[1, 2, 3].map(() => listViews(kit.as(w.b))),
    ];
    await Promise.all(writes);
    for (const viewer of [w.a, w.b]) await countsMatchPages(viewer);
    const views = await listViews(kit.as(w.a));
    expect(byName(views, 'Grab')?.count).toBe(12 - 8 + 3);
    const unsolvedUnassigned = views.find((v) => v.id === -2 * w.teamId)?.count;
    expect(unsolvedUnassigned).toBe(12 - 8 - 2 + 3);
  });

  it('ViewInput: any input is a saved view or a VALIDATION refusal (fast-check), and a valid one reads back as saved', async () => {
    const w = await world();
    const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constant(''), fc.constant(' \u0000 '), fc.string({ minLength: 1, maxLength: 50 }));
    const input = fc.record(
      {
        name: fc.oneof(text, fc.integer(), fc.constant(null)),
        scope: fc.oneof(fc.constantFrom(...VIEW_SCOPES), fc.string({ maxLength: 10 })),
        teamId: fc.oneof(fc.constant(w.teamId), fc.constant(w.otherTeamId), fc.integer({ min: -5, max: 1e9 }), fc.constant(null)),
        shared: fc.oneof(fc.boolean(), fc.constant(null)),
        filter: fc.oneof(
          fc.constant(null),
          fc.record(
            {
              search: fc.oneof(fc.string({ maxLength: 220 }), fc.constant(null)),
              status: fc.oneof(fc.array(fc.constantFrom('OPEN', 'PENDING', 'SOLVED', 'LATER')), fc.constant(null)),
              priority: fc.oneof(fc.array(fc.constantFrom('Low', 'Urgent', 'Whenever')), fc.constant(null)),
              requesterId: fc.oneof(fc.constant(1), fc.integer({ min: -3, max: 1e6 }), fc.constant(null)),
              assignedToMe: fc.oneof(fc.boolean(), fc.constant(null)),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    // Inputs that pass every rule, half of the runs (so the property is about saved views too, not only refusals).
    const valid = fc
      .record({
        name: fc.stringMatching(/^[A-Za-z0-9 ]{0,48}[A-Za-z]$/),
        scope: fc.constantFrom(...VIEW_SCOPES),
        shared: fc.boolean(),
        filter: fc.record({
          search: fc.oneof(fc.constant(null), fc.stringMatching(/^[a-z ]{0,30}$/)),
          status: fc.oneof(fc.constant(null), fc.subarray([...TICKET_STATUSES])),
          priority: fc.oneof(fc.constant(null), fc.subarray(['Low', 'Medium', 'High', 'Urgent'])),
        }),
      })
      .map((v) => {
        const team = v.scope === 'TEAM' || v.scope === 'TEAM_UNASSIGNED';
        return { ...v, teamId: team ? w.teamId : null, shared: team && v.shared };
      });
    let saved = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(input, valid), async (raw) => {
        try {
          const view = await createView(kit.as(w.a), raw);
          saved++;
          expect(view.name).toBe(String(raw.name).trim());
          expect(view.scope).toBe(raw.scope);
          const listed = (await listViews(kit.as(w.a))).find((v) => v.id === view.id);
          expect(listed).toEqual(view);
          expect((await listViewTickets(kit.as(w.a), view.id, { first: 1 })).totalCount).toBe(view.count);
          await deleteView(kit.as(w.a), view.id);
        } catch (error) {
          expect((error as { code?: string }).code).toBe('BAD_USER_INPUT');
        }
      }),
      { numRuns: 80 },
    );
    // Valid inputs were among them (the property is not only about refusals).
    expect(saved).toBeGreaterThan(0);
  });
});

describe('the views an agent may keep', () => {
  it(`${VIEW_LIMITS.viewsPerAgent} per agent, also when the last ones are created at once; deleting one makes room`, async () => {
    const agent = await kit.newAgent();
    const make = (n: number) => createView(kit.as(agent), { name: `Kept ${n}`, scope: 'MINE' });
    for (let n = 1; n <= VIEW_LIMITS.viewsPerAgent - 2; n++) await make(n);
    // Five creates at once with room for two: two are saved, three refused with the limit's message.
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map((n) => make(100 + n)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
      expect(r.reason).toMatchObject({ code: 'BAD_USER_INPUT', fields: { name: [VIEW_MESSAGES.limit] } });
    const mine = () => listViews(kit.as(agent)).then((views) => views.filter((v) => v.ownerId === agent));
    expect(await mine()).toHaveLength(VIEW_LIMITS.viewsPerAgent);
    expect((await refused(make(200))).fields).toEqual({ name: [VIEW_MESSAGES.limit] });
    await deleteView(kit.as(agent), (await mine())[0].id);
    expect((await make(201)).name).toBe('Kept 201');
  });
});

describe('live view counts', () => {
  it("first every count, then the changed ones after a take (the wait is bounded by the test's timeout)", async () => {
    const w = await world();
    const t = await ticket(w, w.a, { teamId: w.teamId });
    const iterator = watchViewCounts(kit.as(w.b))[Symbol.asyncIterator]();
    const first = (await iterator.next()).value as { viewId: number; count: number }[];
    const counts = new Map(first.map((c) => [c.viewId, c.count]));
    expect(counts.get(-2 * w.teamId)).toBe(1);
    expect(counts.get(MY_TICKETS_VIEW_ID)).toBe(0);
    await takeTicket(kit.as(w.a), t.id, t.version);
    const next = (await iterator.next()).value as { viewId: number; count: number }[];
    // The unassigned view lost it; the team's unsolved view and b's own tickets did not change, so are not sent.
    expect(next).toEqual([{ viewId: -2 * w.teamId, count: 0 }]);
    await iterator.return?.();
  });

  it("a change of the agent's set of views: gained views come with their counts, lost ones as removed", async () => {
    const w = await world();
    const newcomer = await kit.newAgent();
    const iterator = watchViewCounts(kit.as(newcomer))[Symbol.asyncIterator]();
    type Batch = { viewId: number; count: number; removed?: boolean }[];
    const next = async () => (await iterator.next()).value as Batch;
    // In no team: My tickets only.
    expect((await next()).map((c) => c.viewId)).toEqual([MY_TICKETS_VIEW_ID]);
    await ticket(w, w.a, { teamId: w.teamId });
    // Joining the team brings its Unassigned (1 ticket) and unsolved views, whole.
    await addTeamMember(kit.as(ADMIN), w.teamId, newcomer);
    const joined = await next();
    expect(joined).toHaveLength(2);
    expect(joined).toEqual(
      expect.arrayContaining([
        { viewId: -2 * w.teamId, count: 1, view: expect.objectContaining({ id: -2 * w.teamId, scope: 'TEAM_UNASSIGNED', teamId: w.teamId, count: 1 }) },
        { viewId: -(2 * w.teamId + 1), count: 1, view: expect.objectContaining({ id: -(2 * w.teamId + 1), scope: 'TEAM', teamId: w.teamId, count: 1 }) },
      ]),
    );
    // A colleague shares a team view: it arrives whole; unshared, it leaves.
    const shared = await createView(kit.as(w.a), { name: 'Team queue', scope: 'TEAM', teamId: w.teamId, shared: true });
    expect(await next()).toEqual([
      {
        viewId: shared.id,
        count: 1,
        view: expect.objectContaining({ id: shared.id, name: 'Team queue', shared: true, team: expect.objectContaining({ id: w.teamId }) }),
      },
    ]);
    await updateView(kit.as(w.a), shared.id, { name: 'Team queue', scope: 'TEAM', teamId: w.teamId, shared: false });
    expect(await next()).toEqual([{ viewId: shared.id, count: 0, removed: true }]);
    // Leaving the team takes its views away.
    await removeTeamMember(kit.as(ADMIN), w.teamId, newcomer);
    expect(await next()).toEqual(
      expect.arrayContaining([
        { viewId: -2 * w.teamId, count: 0, removed: true },
        { viewId: -(2 * w.teamId + 1), count: 0, removed: true },
      ]),
    );
    await iterator.return?.();
  });

  it("a colleague renames a shared team view: a member's subscription (with Redis: on another gateway) gets it whole with the new name", async () => {
    const w = await world();
    await ticket(w, w.a, { teamId: w.teamId });
    const shared = await createView(kit.as(w.a), { name: 'Queue', scope: 'TEAM', teamId: w.teamId, shared: true });
    const gateway = await otherGateway();
    const iterator = watchViewCounts({ ...kit.as(w.b), deps: gateway.deps })[Symbol.asyncIterator]();
    const next = async () => (await iterator.next()).value as ViewCountRecord[];
    try {
      // The first event carries every view whole: a client that loaded its views before subscribing misses nothing.
      const first = await next();
      expect(first.every((c) => c.view?.id === c.viewId)).toBe(true);
      expect(first.find((c) => c.viewId === shared.id)).toMatchObject({ count: 1, view: { name: 'Queue', shared: true, team: { id: w.teamId } } });
      const input = { name: 'Renamed queue', scope: 'TEAM', teamId: w.teamId, shared: true };
      await updateView(kit.as(w.a), shared.id, input);
      expect(await next()).toEqual([
        {
          viewId: shared.id,
          count: 1,
          view: expect.objectContaining({ id: shared.id, name: 'Renamed queue', scope: 'TEAM', teamId: w.teamId, shared: true, ownerId: w.a, count: 1 }),
        },
      ]);
      // Another filter: the view comes whole with its new count.
      await updateView(kit.as(w.a), shared.id, { ...input, filter: { status: ['SOLVED'] } });
      expect(await next()).toEqual([
        {
          viewId: shared.id,
          count: 0,
          view: expect.objectContaining({ name: 'Renamed queue', count: 0, filter: expect.objectContaining({ status: ['SOLVED'] }) }),
        },
      ]);
      // A save that changes nothing sends nothing: what b hears next is a new ticket of the team, as counts only.
      await updateView(kit.as(w.a), shared.id, { ...input, filter: { status: ['SOLVED'] } });
      await ticket(w, w.a, { teamId: w.teamId });
      const counts = await next();
      expect(counts).toHaveLength(2);
      expect(counts).toEqual(
        expect.arrayContaining([
          { viewId: -2 * w.teamId, count: 2 },
          { viewId: -(2 * w.teamId + 1), count: 2 },
        ]),
      );
    } finally {
      await iterator.return?.();
      await gateway.close();
    }
  });

  it("a personal view's rename reaches only its owner", async () => {
    const w = await world();
    const personal = await createView(kit.as(w.a), { name: 'Mine only', scope: 'TEAM', teamId: w.teamId });
    const [ofA, ofB] = [w.a, w.b].map((viewer) => watchViewCounts(kit.as(viewer))[Symbol.asyncIterator]());
    const next = async (iterator: AsyncIterator<unknown>) => (await iterator.next()).value as ViewCountRecord[];
    try {
      expect((await next(ofA)).map((c) => c.viewId)).toContain(personal.id);
      expect((await next(ofB)).map((c) => c.viewId)).not.toContain(personal.id);
      await updateView(kit.as(w.a), personal.id, { name: 'Still mine', scope: 'TEAM', teamId: w.teamId });
      expect(await next(ofA)).toEqual([{ viewId: personal.id, count: 0, view: expect.objectContaining({ name: 'Still mine', shared: false, ownerId: w.a }) }]);
      // b hears nothing of it: the next thing b hears is a new ticket of the team, as counts only.
      await ticket(w, w.a, { teamId: w.teamId });
      const counts = await next(ofB);
      expect(counts).toHaveLength(2);
      expect(counts).toEqual(
        expect.arrayContaining([
          { viewId: -2 * w.teamId, count: 1 },
          { viewId: -(2 * w.teamId + 1), count: 1 },
        ]),
      );
    } finally {
      await Promise.all([ofA.return?.(), ofB.return?.()]);
    }
  });
});

/**
 * With Redis (FULCRUM_TEST_REDIS=1): a second gateway's event bus on the same installation (its own view-count hub,
 * events crossing Redis as between two gateways). In memory there is one gateway: this kit's.
 */
async function otherGateway(): Promise<{ deps: ServiceContext['deps']; close(): Promise<void> }> {
  if (process.env.FULCRUM_TEST_REDIS !== '1') return { deps: kit.deps, close: async () => {} };
  const events = await createEventBus({
    redisUrl: process.env.FULCRUM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    namespace: await databaseIdentity(kit.orm),
  });
  return { deps: { ...kit.deps, bus: events.bus }, close: () => events.close() };
}
