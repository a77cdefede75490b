/**
 * Reports (issue 29) on a real database (SQLite, or PostgreSQL + Redis in the second pass): every metric on
 * hand-made timelines (a reopen, notes only, automatic mail, the daylight-saving weeks of Europe/Berlin and
 * America/New_York, a ticket moved between teams), the write path keeping the facts (a reply and a solve through
 * the services are in the report at once), access (agent, team member, other team, admin; "as it is now"), the
 * input rules, and the property: for random timelines, filters, buckets and time zones, the GraphQL answer equals a
 * plain recount written here from the raw events (a second, naive implementation of every definition).
 *
 * The hand-made timelines are appended to the event record with chosen instants (appendTicketEvents, as the demo
 * seed writes its past), on tickets made through the services whose own "now" creation is left out of the facts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { graphql, type GraphQLSchema } from 'graphql';
import { demoTicketImage } from '../seed/demoImages.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { buildFulcrumSchema } from './buildSchema.js';
import { createLoaders } from './context.js';
import { REPORT_MESSAGES } from '../validation/rules.js';
import { appendTicketEvents, type FieldChange, type TicketEventDraft } from '../services/changeLog.js';
import { createTicket, deleteTicket, setTicketStatus } from '../services/tickets.js';
import { replyToRequester } from '../services/requesterReplies.js';
import { assignTicket } from '../services/assignment.js';
import { addTeamMember, createTeam } from '../services/teams.js';
import type { ServiceContext } from '../services/context.js';
import { FIGURE_ERROR, ROLLUP_COLUMNS, RollupDeltas, factOfRow, FACT_READ_COLUMNS, rebuildReportRollups, writeRollups } from '../migrations/reportRollups.js';
import { report, type ReportInput, type ReportResult, type ReportTotals } from '../services/reports/report.js';
import { foldQueuedRollups } from '../services/reports/rollupQueue.js';

let kit: ServiceKit;
let schema: GraphQLSchema;
let admin: number;
beforeAll(async () => {
  kit = await openServiceKit();
  schema = await buildFulcrumSchema();
  admin = await kit.newAgent();
  await kit.rows(`update users set role = 'ADMIN' where id = ?`, [admin]);
});
afterAll(() => kit?.close());

const HOUR = 3_600_000;
const MINUTE = 60_000;

async function newTeam(...members: number[]): Promise<number> {
  const team = await createTeam(kit.as(admin), `team ${Math.random().toString(36).slice(2, 10)}`);
  for (const m of members) await addTeamMember(kit.as(admin), team.id, m);
  return team.id;
}

interface Attrs {
  status: string;
  priority: string;
  type: string;
  teamId: number | null;
  assigneeId: number | null;
}

/** Takes a ticket's facts back out of the rollups (as a deletion does), before the story drops them. */
async function forgetRollups(ticketId: number): Promise<void> {
  const rows = await kit.rows<Parameters<typeof factOfRow>[0] & { t_team: number | null; t_assignee: number | null }>(
    `select ${FACT_READ_COLUMNS}, t.team_id as t_team, t.assignee_id as t_assignee from report_facts f join tickets t on t.id = f.ticket_id where f.ticket_id = ?`,
    [ticketId],
  );
  const deltas = new RollupDeltas();
  for (const r of rows) deltas.add(factOfRow(r), { teamId: r.t_team || null, assigneeId: r.t_assignee || null }, -1);
  await writeRollups((_, sql, params) => kit.rows(sql, [...params]), deltas, kit.kind === 'postgresql');
}

/** A ticket whose record is written by hand at chosen instants (the model the recount reads, too). */
class Story {
  readonly events: { at: number; kind: string; actor: 'AGENT' | 'SYSTEM'; attrs: Attrs }[] = [];
  attrs: Attrs;
  private constructor(
    readonly id: number,
    attrs: Attrs,
  ) {
    this.attrs = attrs;
  }

  static async create(owner: number, at: number, attrs: Partial<Attrs> = {}): Promise<Story> {
    const full: Attrs = { status: 'OPEN', priority: 'Low', type: 'Question', teamId: null, assigneeId: owner, ...attrs };
    const ticket = await createTicket(
      kit.as(owner),
      { title: 'Report story', requesterId: 1, description: 'A hand-made timeline.' },
      demoTicketImage(1),
      full.teamId == null ? {} : { teamId: full.teamId, assigneeId: full.assigneeId },
    );
    // The services' own creation happened now: left out (once folded from the queue), the story's creation is the
    // chosen instant.
    await foldQueuedRollups(kit.orm.em.fork());
    await forgetRollups(ticket.id);
    await kit.rows('delete from report_facts where ticket_id = ?', [ticket.id]);
    await kit.rows('delete from report_state where ticket_id = ?', [ticket.id]);
    const story = new Story(ticket.id, full);
    const changes: FieldChange[] = (['status', 'priority', 'type'] as const).map((field) => ({ field, from: null, to: full[field] }));
    await story.append('CREATED', at, changes, 'AGENT', owner);
    await story.settle();
    return story;
  }

  private async append(kind: TicketEventDraft['kind'], at: number, changes: FieldChange[], actor: 'AGENT' | 'SYSTEM', viewer: number | null) {
    const draft: TicketEventDraft = {
      ticketId: this.id,
      kind,
      changes,
      assigneeId: this.attrs.assigneeId ?? 0,
      teamId: this.attrs.teamId,
      at: new Date(at),
    };
    const em = kit.orm.em.fork();
    await em.transactional((trx) =>
      appendTicketEvents({ viewerId: actor === 'AGENT' ? viewer : null, via: actor === 'AGENT' ? 'WEB' : 'SYSTEM' }, trx, [draft]),
    );
    this.events.push({ at, kind, actor, attrs: { ...this.attrs } });
  }

  /** A change of fields (status, priority, type, team, assignee) by an agent. */
  async change(at: number, next: Partial<Attrs>, by: number) {
    const changes: FieldChange[] = [];
    for (const field of ['status', 'priority', 'type', 'teamId', 'assigneeId'] as const) {
      if (!(field in next) || next[field] === this.attrs[field]) continue;
      changes.push({ field, from: this.attrs[field] == null ? null : String(this.attrs[field]), to: next[field] == null ? null : String(next[field]) });
    }
    this.attrs = { ...this.attrs, ...next };
    await this.append('UPDATED', at, changes, 'AGENT', by);
    await this.settle();
  }

  reply = (at: number, by: number) => this.append('REPLY_ADDED', at, [], 'AGENT', by);
  /** Mail the help desk sent by itself (an automatic reply: the SYSTEM actor). */
  automaticMail = (at: number) => this.append('REPLY_ADDED', at, [], 'SYSTEM', null);
  note = (at: number, by: number) => this.append('NOTE_ADDED', at, [], 'AGENT', by);

  /** The ticket row as the story left it: the access rule and the filter read the ticket as it is now. */
  private async settle() {
    const a = this.attrs;
    await kit.rows('update tickets set status = ?, priority = ?, type = ?, team_id = ?, assignee_id = ? where id = ?', [
      a.status,
      a.priority,
      a.type,
      a.teamId,
      a.assigneeId,
      this.id,
    ]);
  }
}

const UTC_DAY = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const input = (from: string, to: string, extra: Partial<ReportInput> = {}): ReportInput => ({ from, to, bucket: 'DAY', timeZone: 'UTC', ...extra });
const figure = (values: number[]) => {
  if (!values.length) return { count: 0, median: null, p90: null, mean: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  return { count: sorted.length, median: rank(0.5), p90: rank(0.9), mean: sorted.reduce((s, v) => s + v, 0) / sorted.length };
};
/**
 * The answer with each median and p90 replaced by the expected one when within FIGURE_ERROR of it (the rollups' stated
 * bound, docs/reports.md), and each mean when equal but for float rounding; every count must be equal as it is.
 */
function withinBound<T>(answer: T, expected: unknown): T {
  if (Array.isArray(answer)) return answer.map((a, i) => withinBound(a, (expected as unknown[] | undefined)?.[i])) as T;
  if (!answer || typeof answer !== 'object') return answer;
  const want = (expected ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(answer)) {
    const w = want[k];
    const close =
      typeof v === 'number' &&
      typeof w === 'number' &&
      ((k === 'median' || k === 'p90') && Math.abs(v - w) <= FIGURE_ERROR * w + 1e-9 ? true : k === 'mean' && Math.abs(v - w) <= 1e-9 * Math.max(1, w));
    out[k] = close ? w : withinBound(v, w);
  }
  return out as T;
}
const volume = (t: ReportTotals) => ({ created: t.created, solved: t.solved, reopened: t.reopened, backlog: t.backlog });

describe('metrics on hand-made timelines', () => {
  it('a reopen: two solves, one reopen, a first response per cycle, first resolution and the final resolution', async () => {
    const agent = await kit.newAgent();
    const t0 = UTC_DAY('2025-02-03') + 9 * HOUR;
    const s = await Story.create(agent, t0);
    await s.reply(t0 + HOUR, agent);
    await s.change(t0 + 2 * HOUR, { status: 'SOLVED' }, agent);
    await s.change(t0 + 5 * HOUR, { status: 'OPEN' }, agent);
    await s.note(t0 + 6 * HOUR, agent);
    await s.automaticMail(t0 + 6.5 * HOUR);
    await s.reply(t0 + 7 * HOUR, agent);
    await s.reply(t0 + 8 * HOUR, agent);
    await s.change(t0 + 9 * HOUR, { status: 'SOLVED' }, agent);
    const r = await report(kit.as(agent), input('2025-02-03', '2025-02-05'));
    expect(volume(r.totals)).toEqual({ created: 1, solved: 2, reopened: 1, backlog: 0 });
    expect(withinBound(r.totals.firstResponse, figure([3600, 7200]))).toEqual(figure([3600, 7200]));
    expect(withinBound(r.totals.firstResolution, figure([7200]))).toEqual(figure([7200]));
    expect(withinBound(r.totals.resolution, figure([9 * 3600]))).toEqual(figure([9 * 3600]));
    expect(r.series.map((p) => [p.bucketStart, p.created, p.solved, p.backlog])).toEqual([
      ['2025-02-03', 1, 2, 0],
      ['2025-02-04', 0, 0, 0],
    ]);
    // Reopened again later: the solve at 9h is no longer final, so no resolution is counted any more.
    await s.change(t0 + 30 * HOUR, { status: 'PENDING' }, agent);
    const after = await report(kit.as(agent), input('2025-02-03', '2025-02-05'));
    expect(after.totals.resolution.count).toBe(0);
    expect(withinBound(after.totals.firstResolution, figure([7200]))).toEqual(figure([7200]));
    expect(after.series.map((p) => p.backlog)).toEqual([0, 1]);
    expect(after.totals.reopened).toBe(2);
  });

  it('notes only and automatic mail: no first response, the ticket stays in the backlog', async () => {
    const agent = await kit.newAgent();
    const t0 = UTC_DAY('2025-02-10') + 9 * HOUR;
    const s = await Story.create(agent, t0);
    await s.note(t0 + HOUR, agent);
    await s.automaticMail(t0 + 2 * HOUR);
    await s.change(t0 + 3 * HOUR, { priority: 'High' }, agent);
    const r = await report(kit.as(agent), input('2025-02-10', '2025-02-12', { breakdown: 'PRIORITY' }));
    expect(withinBound(r.totals.firstResponse, figure([]))).toEqual(figure([]));
    expect(volume(r.totals)).toEqual({ created: 1, solved: 0, reopened: 0, backlog: 1 });
    // The backlog moved from Low to High with the priority change.
    expect(r.groups.map((g) => [g.key, g.totals.created, g.totals.backlog])).toEqual([
      ['Low', 1, 0],
      ['High', 0, 1],
    ]);
  });

  it('Europe/Berlin, the week daylight saving starts (2026-03-29 is 23 hours): local days, not UTC days', async () => {
    const agent = await kit.newAgent();
    // 00:30 on the 29th in Berlin is 23:30Z on the 28th; 23:30 on the 29th (CEST) is 21:30Z; 00:30 on the 30th is 22:30Z on the 29th.
    for (const at of ['2026-03-28T23:30:00Z', '2026-03-29T21:30:00Z', '2026-03-29T22:30:00Z']) await Story.create(agent, Date.parse(at));
    const berlin = await report(kit.as(agent), input('2026-03-28', '2026-03-31', { timeZone: 'Europe/Berlin' }));
    expect(berlin.series.map((p) => [p.bucketStart, p.created])).toEqual([
      ['2026-03-28', 0],
      ['2026-03-29', 2],
      ['2026-03-30', 1],
    ]);
    const utc = await report(kit.as(agent), input('2026-03-28', '2026-03-31'));
    expect(utc.series.map((p) => p.created)).toEqual([1, 2, 0]);
    const week = await report(kit.as(agent), input('2026-03-23', '2026-04-06', { timeZone: 'Europe/Berlin', bucket: 'WEEK' }));
    expect(week.series.map((p) => [p.bucketStart, p.created, p.backlog])).toEqual([
      ['2026-03-23', 2, 2],
      ['2026-03-30', 1, 3],
    ]);
  });

  it('America/New_York, the day daylight saving ends (2026-11-01 is 25 hours)', async () => {
    const agent = await kit.newAgent();
    // 00:30 EDT on the 1st = 04:30Z; 23:30 EST on the 1st = 04:30Z on the 2nd; 00:30 EST on the 2nd = 05:30Z.
    for (const at of ['2026-11-01T04:30:00Z', '2026-11-02T04:30:00Z', '2026-11-02T05:30:00Z']) await Story.create(agent, Date.parse(at));
    const r = await report(kit.as(agent), input('2026-10-31', '2026-11-03', { timeZone: 'America/New_York' }));
    expect(r.series.map((p) => [p.bucketStart, p.created])).toEqual([
      ['2026-10-31', 0],
      ['2026-11-01', 2],
      ['2026-11-02', 1],
    ]);
    const month = await report(kit.as(agent), input('2026-10-15', '2026-12-01', { timeZone: 'America/New_York', bucket: 'MONTH' }));
    expect(month.series.map((p) => [p.bucketStart, p.created])).toEqual([
      ['2026-10-01', 0],
      ['2026-11-01', 3],
    ]);
  });

  it('a ticket moved between teams: its creation counts for the first team, its solve for the second', async () => {
    const agent = await kit.newAgent();
    const first = await newTeam(agent);
    const second = await newTeam(agent);
    const t0 = UTC_DAY('2025-03-03') + 10 * HOUR;
    const s = await Story.create(agent, t0, { teamId: first, assigneeId: null });
    await s.change(t0 + 24 * HOUR, { teamId: second }, agent);
    await s.reply(t0 + 25 * HOUR, agent);
    await s.change(t0 + 48 * HOUR, { status: 'SOLVED' }, agent);
    const r = await report(kit.as(agent), input('2025-03-03', '2025-03-06', { breakdown: 'TEAM' }));
    const byTeam = Object.fromEntries(r.groups.map((g) => [g.key, g]));
    expect(Object.keys(byTeam).sort()).toEqual([String(first), String(second)].sort());
    expect(volume(byTeam[first].totals)).toEqual({ created: 1, solved: 0, reopened: 0, backlog: 0 });
    expect(byTeam[first].series.map((p) => p.backlog)).toEqual([1, 0, 0]);
    expect(volume(byTeam[second].totals)).toEqual({ created: 0, solved: 1, reopened: 0, backlog: 0 });
    expect(byTeam[second].series.map((p) => p.backlog)).toEqual([0, 1, 0]);
    expect(withinBound(byTeam[second].totals.firstResponse, figure([25 * 3600]))).toEqual(figure([25 * 3600]));
    expect(withinBound(byTeam[second].totals.resolution, figure([48 * 3600]))).toEqual(figure([48 * 3600]));
    expect(byTeam[first].label).toMatch(/^team /);
  });
});

describe('kept in the write transaction', () => {
  it('a creation, a reply and a solve through the services are in the report at once', async () => {
    const agent = await kit.newAgent();
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const range = input(today, tomorrow);
    const before = await report(kit.as(agent), range);
    expect(before.totals.created).toBe(0);
    const ticket = await createTicket(kit.as(agent), { title: 'Live', requesterId: 1, description: 'Counts at once.' }, demoTicketImage(1));
    await replyToRequester(kit.as(agent), ticket.id, 'On it.');
    await setTicketStatus(kit.as(agent), ticket.id, 'SOLVED');
    const after = await report(kit.as(agent), range);
    expect(volume(after.totals)).toEqual({ created: 1, solved: 1, reopened: 0, backlog: 0 });
    expect(after.totals.firstResponse.count).toBe(1);
    expect(after.totals.resolution.count).toBe(1);
  });
});

describe('the rollups (migrations/reportRollups.ts)', () => {
  it('a deleted ticket leaves the report; a reassignment through the services moves its counts to its new readers', async () => {
    const agent = await kit.newAgent();
    const other = await kit.newAgent();
    const today = new Date().toISOString().slice(0, 10);
    const range = input(today, new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    const kept = await createTicket(kit.as(agent), { title: 'Kept', requesterId: 1, description: 'Stays.' }, demoTicketImage(1));
    const gone = await createTicket(kit.as(agent), { title: 'Gone', requesterId: 1, description: 'Deleted.' }, demoTicketImage(1));
    await replyToRequester(kit.as(agent), gone.id, 'Soon deleted.');
    expect((await report(kit.as(agent), range)).totals.created).toBe(2);
    await deleteTicket(kit.as(agent), gone.id);
    const after = await report(kit.as(agent), range);
    expect(volume(after.totals)).toEqual({ created: 1, solved: 0, reopened: 0, backlog: 1 });
    expect(after.totals.firstResponse.count).toBe(0);
    await assignTicket(kit.as(agent), kept.id, { assigneeId: other, expectedVersion: kept.version });
    expect((await report(kit.as(agent), range)).totals.created).toBe(0);
    expect(volume((await report(kit.as(other), range)).totals)).toEqual({ created: 1, solved: 0, reopened: 0, backlog: 1 });
  });

  it("a write queues its report events in its transaction; folds running at once fold each write's exactly once", async () => {
    await foldQueuedRollups(kit.orm.em.fork());
    const agent = await kit.newAgent();
    const today = new Date().toISOString().slice(0, 10);
    const range = input(today, new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    const tickets = [];
    for (let i = 0; i < 6; i++)
      tickets.push(await createTicket(kit.as(agent), { title: `Queued ${i}`, requesterId: 1, description: 'Folded later.' }, demoTicketImage(1)));
    for (const t of tickets.slice(0, 4)) await setTicketStatus(kit.as(agent), t.id, 'SOLVED');
    // Each creation and each solve queued one row, and nothing was added to the facts or the rollups yet.
    expect((await kit.rows('select id from report_rollup_queue')).length).toBe(10);
    const cells = `select count(*) as n from report_rollups where assignee_id = ?`;
    expect(Number((await kit.rows<{ n: number }>(cells, [agent]))[0].n)).toBe(0);
    const facts = `select count(*) as n from report_facts where ticket_id in (${tickets.map((t) => t.id).join(', ')})`;
    expect(Number((await kit.rows<{ n: number }>(facts))[0].n)).toBe(0);
    // Three folds at once (on PostgreSQL three connections, one at a time under the fold's advisory lock): ten rows
    // folded in all.
    const folded = await Promise.all([1, 2, 3].map(() => foldQueuedRollups(kit.orm.em.fork())));
    expect(folded.reduce((a, b) => a + b, 0)).toBe(10);
    expect(await kit.rows('select id from report_rollup_queue')).toEqual([]);
    expect(volume((await report(kit.as(agent), range)).totals)).toEqual({ created: 6, solved: 4, reopened: 0, backlog: 2 });
    // A report folds what is queued before it reads: a reopen is counted at once.
    await setTicketStatus(kit.as(agent), tickets[0].id, 'OPEN');
    expect((await kit.rows('select id from report_rollup_queue')).length).toBe(1);
    expect(volume((await report(kit.as(agent), range)).totals)).toEqual({ created: 6, solved: 4, reopened: 1, backlog: 3 });
    expect(await kit.rows('select id from report_rollup_queue')).toEqual([]);
  });

  it('the rows the write path kept equal the fold of the facts (the rebuild the migration runs)', async () => {
    const snapshot = async () => {
      const rows = await kit.rows<Record<string, unknown>>(`select ${ROLLUP_COLUMNS} from report_rollups`);
      const keep = new Map<string, string>();
      for (const r of rows) {
        const bins = (v: unknown) =>
          Object.entries(typeof v === 'string' ? (JSON.parse(v) as Record<string, number>) : (v as Record<string, number>))
            .filter(([, n]) => Number(n) !== 0)
            .sort(([a], [b]) => Number(a) - Number(b));
        const values = [r.created, r.solved, r.reopened, r.backlog, r.fr_n, r.fr_sum, r.fs_n, r.fs_sum, r.rs_n, r.rs_sum].map(Number);
        const histograms = [bins(r.fr_bins), bins(r.fs_bins), bins(r.rs_bins)];
        if (values.every((v) => v === 0) && histograms.every((h) => !h.length)) continue;
        keep.set([r.grain, Number(r.cell), r.team_id, r.assignee_id, r.dim, r.value].join('|'), JSON.stringify([values, histograms]));
      }
      return keep;
    };
    await foldQueuedRollups(kit.orm.em.fork());
    expect(await kit.rows('select id from report_rollup_queue')).toEqual([]);
    const kept = await snapshot();
    expect(kept.size).toBeGreaterThan(0);
    await rebuildReportRollups((sql, params) => kit.rows(sql, params), kit.kind === 'postgresql');
    expect(await snapshot()).toEqual(kept);
  });
});

describe('access: the tickets the viewer may read now', () => {
  it('agent, team member, another team, an admin; a reassignment moves the whole history', async () => {
    const member = await kit.newAgent();
    const colleague = await kit.newAgent();
    const outsider = await kit.newAgent();
    const teamA = await newTeam(member, colleague);
    const teamB = await newTeam(outsider);
    const t0 = UTC_DAY('2024-06-03') + 8 * HOUR;
    const s = await Story.create(member, t0, { teamId: teamA, assigneeId: member });
    await s.change(t0 + HOUR, { status: 'SOLVED' }, member);
    const range = input('2024-06-03', '2024-06-04');
    const created = async (viewer: number) => (await report(kit.as(viewer), range)).totals.created;
    expect(await created(member)).toBe(1);
    expect(await created(colleague)).toBe(1);
    expect(await created(outsider)).toBe(0);
    expect(await created(admin)).toBeGreaterThanOrEqual(1);
    // "Assigned to me": the assignee's own tickets only, not the team's.
    const mineOnly = { ...range, filter: { assignedToMe: true } };
    expect((await report(kit.as(member), mineOnly)).totals.created).toBe(1);
    expect((await report(kit.as(colleague), mineOnly)).totals.created).toBe(0);
    const adminBefore = await created(admin);
    // Reassigned through the service to the other team: its history now counts there, not in team A.
    const current = (await kit.rows<{ version: number }>('select version from tickets where id = ?', [s.id]))[0];
    await assignTicket(kit.as(admin), s.id, { teamId: teamB, assigneeId: null, expectedVersion: Number(current.version) });
    expect(await created(member)).toBe(0);
    expect(await created(colleague)).toBe(0);
    expect(await created(outsider)).toBe(1);
    expect(await created(admin)).toBe(adminBefore);
  });
});

describe('input', () => {
  it('an unknown time zone, a range over 731 days, a bad date, search words: BAD_USER_INPUT with the field', async () => {
    const agent = await kit.newAgent();
    const cases: [Partial<ReportInput>, string, string][] = [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', REPORT_MESSAGES.timeZone],
      [{ timeZone: '+01:00' }, 'timeZone', REPORT_MESSAGES.timeZone],
      [{ from: '2024-01-01', to: '2026-01-02' }, 'to', REPORT_MESSAGES.range],
      [{ from: '2024-01-02', to: '2024-01-02' }, 'to', REPORT_MESSAGES.range],
      [{ from: '2024-02-30' }, 'from', REPORT_MESSAGES.date],
      [{ filter: { search: 'printer' } }, 'filter.search', REPORT_MESSAGES.search],
    ];
    for (const [change, field, message] of cases) {
      const error = await refused(report(kit.as(agent), { ...input('2024-01-01', '2024-01-08'), ...change }));
      expect(error.code, JSON.stringify(change)).toBe('BAD_USER_INPUT');
      expect(error.fields?.[field]).toContain(message);
    }
    const longest = await report(kit.as(agent), input('2024-01-01', '2026-01-01'));
    expect(longest.series).toHaveLength(731);
  });

  it('any input: an answer or BAD_USER_INPUT, never another error (fast-check)', async () => {
    const agent = await kit.newAgent();
    const date = fc.oneof(
      fc.string(),
      fc.date({ min: new Date('1960-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    );
    await fc.assert(
      fc.asyncProperty(
        date,
        date,
        fc.constantFrom('DAY', 'WEEK', 'MONTH', 'YEAR'),
        fc.oneof(fc.string(), fc.constantFrom('UTC', 'Asia/Kathmandu', 'America/St_Johns', 'Europe/Berlin', 'Etc/GMT+12')),
        async (from, to, bucket, timeZone) => {
          try {
            const r = await report(kit.as(agent), { from, to, bucket: bucket as 'DAY', timeZone });
            expect(r.series.length).toBeGreaterThan(0);
          } catch (error) {
            expect((error as { code?: string }).code).toBe('BAD_USER_INPUT');
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The property: the GraphQL answer equals a plain recount of the raw timelines.

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
