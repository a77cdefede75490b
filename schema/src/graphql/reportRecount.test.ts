/**
 * Reports' property on a real database (SQLite, or PostgreSQL + Redis in the second pass): for random timelines,
 * filters, buckets and time zones, the GraphQL answer equals a plain recount written here from the raw events (a
 * second, naive implementation of every definition). The shared set-up is testing/reportStories.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { graphql } from 'graphql';
import { createLoaders } from './context.js';
import type { ServiceContext } from '../services/context.js';
import type { ReportInput, ReportResult } from '../services/reports/report.js';
import { MINUTE, Story, closeReportKit, figure, kit, newTeam, openReportKit, schema, withinBound, type Attrs } from '../testing/reportStories.js';

beforeAll(openReportKit);
afterAll(closeReportKit);

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Santiago'];

/** The local date of an instant in a zone, by Intl (not the library the service uses). */
const localDate = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
function bucketOf(date: string, bucket: string): string {
  if (bucket === 'DAY') return date;
  if (bucket === 'MONTH') return `${date.slice(0, 8)}01`;
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 Sunday
  return addDays(date, -((weekday + 6) % 7));
}

interface Expected {
  created: number;
  solved: number;
  reopened: number;
  backlog: number;
  firstResponse: number[];
  firstResolution: number[];
  resolution: number[];
}
const empty = (): Expected => ({ created: 0, solved: 0, reopened: 0, backlog: 0, firstResponse: [], firstResolution: [], resolution: [] });

/** The naive recount: walk every story's events, one by one, by the words of the issue. */
function recount(stories: Story[], q: ReportInput, groupOf: (a: Attrs) => string | null) {
  const starts: string[] = [];
  for (let d = bucketOf(q.from, q.bucket); d < q.to;) {
    starts.push(d);
    d = q.bucket === 'DAY' ? addDays(d, 1) : q.bucket === 'WEEK' ? addDays(d, 7) : bucketOf(addDays(d, 32), 'MONTH');
  }
  const ends = starts.map((_, i) => (i + 1 < starts.length ? (starts[i + 1] < q.to ? starts[i + 1] : q.to) : q.to));
  const cells = new Map<string, Expected[]>();
  const totals = new Map<string, Expected>();
  const cell = (g: string, i: number) => {
    if (!cells.has(g)) cells.set(g, starts.map(empty));
    return cells.get(g)![i];
  };
  const total = (g: string) => {
    if (!totals.has(g)) totals.set(g, empty());
    return totals.get(g)!;
  };
  const ALL = '*';
  const count = (g: string | null, at: number, apply: (e: Expected) => void) => {
    const date = localDate(at, q.timeZone);
    if (date < q.from || date >= q.to) return;
    const i = starts.findLastIndex((s) => s <= date);
    for (const key of [ALL, ...(g === null ? [] : [g])]) {
      apply(cell(key, i));
      apply(total(key));
    }
  };
  const f = q.filter ?? {};
  for (const s of stories) {
    const now = s.attrs;
    if (f.status?.length && !f.status.includes(now.status)) continue;
    if (f.priority?.length && !f.priority.includes(now.priority)) continue;
    if (f.type?.length && !f.type.includes(now.type)) continue;
    let createdAt = 0;
    let waitingSince: number | null = null;
    let solvedOnce = false;
    let lastSolve: { at: number; g: string | null } | null = null;
    let previous: Attrs | null = null;
    for (const e of s.events) {
      const a = e.attrs;
      const g = groupOf(a);
      if (e.kind === 'CREATED') {
        createdAt = e.at;
        count(g, e.at, (x) => x.created++);
        if (a.status === 'SOLVED') {
          count(g, e.at, (x) => x.solved++);
          count(g, e.at, (x) => x.firstResolution.push(0));
          solvedOnce = true;
          lastSolve = { at: e.at, g };
        } else waitingSince = e.at;
      } else if (e.kind === 'REPLY_ADDED' && e.actor === 'AGENT' && waitingSince !== null) {
        const since = waitingSince;
        count(g, e.at, (x) => x.firstResponse.push((e.at - since) / 1000));
        waitingSince = null;
      } else if (e.kind === 'UPDATED' && previous) {
        if (previous.status !== 'SOLVED' && a.status === 'SOLVED') {
          count(g, e.at, (x) => x.solved++);
          if (!solvedOnce) count(g, e.at, (x) => x.firstResolution.push((e.at - createdAt) / 1000));
          solvedOnce = true;
          waitingSince = null;
          lastSolve = { at: e.at, g };
        } else if (previous.status === 'SOLVED' && a.status !== 'SOLVED') {
          count(g, e.at, (x) => x.reopened++);
          waitingSince = e.at;
          lastSolve = null;
        }
      }
      previous = a;
    }
    if (lastSolve) {
      const { at, g } = lastSolve;
      count(g, at, (x) => x.resolution.push((at - createdAt) / 1000));
    }
    // Backlog: the story's state after every event dated (locally) before the bucket's end.
    ends.forEach((end, i) => {
      let state: Attrs | null = null;
      for (const e of s.events) if (localDate(e.at, q.timeZone) < end && e.kind !== 'REPLY_ADDED' && e.kind !== 'NOTE_ADDED') state = e.attrs;
      if (!state || state.status === 'SOLVED') return;
      const g = groupOf(state);
      for (const key of [ALL, ...(g === null ? [] : [g])]) {
        cell(key, i).backlog++;
        if (i === ends.length - 1) total(key).backlog++;
      }
    });
  }
  const shape = (e: Expected) => ({
    created: e.created,
    solved: e.solved,
    reopened: e.reopened,
    backlog: e.backlog,
    firstResponse: figure(e.firstResponse),
    firstResolution: figure(e.firstResolution),
    resolution: figure(e.resolution),
  });
  const seriesOf = (key: string) => starts.map((bucketStart, i) => ({ bucketStart, ...shape(cells.get(key)?.[i] ?? empty()) }));
  return {
    totals: shape(totals.get(ALL) ?? empty()),
    series: seriesOf(ALL),
    groups: Object.fromEntries([...cells.keys()].filter((k) => k !== ALL).map((k) => [k, { totals: shape(total(k)), series: seriesOf(k) }])),
  };
}

const FIGURE = 'count median p90 mean';
const TOTALS = `created solved reopened backlog firstResponse { ${FIGURE} } firstResolution { ${FIGURE} } resolution { ${FIGURE} }`;
const QUERY = `query Report($input: ReportInput!) { report(input: $input) {
  totals { ${TOTALS} } series { bucketStart ${TOTALS} } groups { key label totals { ${TOTALS} } series { bucketStart ${TOTALS} } } } }`;

async function viaGraphQL(ctx: ServiceContext, q: ReportInput): Promise<ReportResult> {
  const result = await graphql({ schema, source: QUERY, variableValues: { input: q }, contextValue: { service: ctx, loaders: createLoaders(ctx) } });
  if (result.errors?.length) throw result.errors[0];
  return (result.data as { report: ReportResult }).report;
}

const step = fc.record({
  minutes: fc.integer({ min: 1, max: 3 * 24 * 60 }),
  action: fc.constantFrom('solve', 'reopen', 'pending', 'reply', 'note', 'automatic', 'move', 'priority', 'type'),
  value: fc.integer({ min: 0, max: 3 }),
});
const storySpec = fc.record({
  offsetMinutes: fc.integer({ min: 0, max: 20 * 24 * 60 }),
  created: fc.record({
    status: fc.constantFrom('OPEN', 'OPEN', 'PENDING', 'SOLVED'),
    priority: fc.constantFrom('Low', 'High'),
    team: fc.integer({ min: 0, max: 1 }),
  }),
  steps: fc.array(step, { maxLength: 6 }),
});
const BREAKDOWNS = [null, 'TEAM', 'ASSIGNEE', 'PRIORITY', 'TYPE', 'STATUS'] as const;

describe('the property: GraphQL = a plain recount of the raw events', () => {
  it('random timelines, filters, buckets and time zones (fast-check)', async () => {
    // Days around the daylight-saving changes of the zones above (northern spring and autumn, southern April).
    const bases = ['2025-03-20', '2025-10-20', '2025-03-30'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(storySpec, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...bases),
        fc.constantFrom(...ZONES),
        fc.constantFrom('DAY', 'WEEK', 'MONTH'),
        fc.constantFrom(...BREAKDOWNS),
        fc.record({
          status: fc.option(fc.subarray(['OPEN', 'PENDING', 'SOLVED'], { minLength: 1 }), { nil: undefined }),
          priority: fc.option(fc.subarray(['Low', 'Medium', 'High', 'Urgent'], { minLength: 1 }), { nil: undefined }),
        }),
        fc.integer({ min: 3, max: 40 }),
        async (specs, base, timeZone, bucket, breakdown, filter, days) => {
          const agent = await kit.newAgent();
          const other = await kit.newAgent();
          const teams = [await newTeam(agent, other), await newTeam(agent, other)];
          const start = Date.parse(`${base}T00:00:00Z`);
          const stories: Story[] = [];
          for (const spec of specs) {
            let at = start + spec.offsetMinutes * MINUTE;
            const s = await Story.create(agent, at, {
              status: spec.created.status,
              priority: spec.created.priority,
              teamId: teams[spec.created.team],
              assigneeId: null,
            });
            for (const st of spec.steps) {
              at += st.minutes * MINUTE;
              const by = st.value % 2 ? agent : other;
              if (st.action === 'solve') await s.change(at, { status: 'SOLVED' }, by);
              else if (st.action === 'reopen') await s.change(at, { status: 'OPEN' }, by);
              else if (st.action === 'pending') await s.change(at, { status: 'PENDING' }, by);
              else if (st.action === 'reply') await s.reply(at, by);
              else if (st.action === 'note') await s.note(at, by);
              else if (st.action === 'automatic') await s.automaticMail(at);
              else if (st.action === 'move') await s.change(at, { teamId: teams[st.value % 2], assigneeId: st.value > 1 ? by : null }, by);
              else if (st.action === 'priority') await s.change(at, { priority: ['Low', 'Medium', 'High', 'Urgent'][st.value] }, by);
              else await s.change(at, { type: ['Question', 'Incident', 'Problem', 'Task'][st.value] }, by);
            }
            stories.push(s);
          }
          const from = addDays(base, -2);
          const q: ReportInput = { from, to: addDays(from, days), bucket, timeZone, breakdown, filter };
          const groupOf = (a: Attrs): string | null => {
            if (!breakdown) return null;
            const value = { TEAM: a.teamId, ASSIGNEE: a.assigneeId, PRIORITY: a.priority, TYPE: a.type, STATUS: a.status }[breakdown];
            return value == null ? 'none' : String(value);
          };
          const expected = recount(stories, q, groupOf);
          const answer = await viaGraphQL(kit.as(agent), q);
          expect(withinBound(answer.totals, expected.totals)).toEqual(expected.totals);
          expect(withinBound(answer.series, expected.series)).toEqual(expected.series);
          const groups = Object.fromEntries(answer.groups.map((g) => [g.key, { totals: g.totals, series: g.series }]));
          expect(withinBound(groups, expected.groups)).toEqual(expected.groups);
        },
      ),
      { numRuns: 25 },
    );
  }, 240_000);
});
