/**
 * Reports' rollups and input rules on a real database (SQLite, or PostgreSQL + Redis in the second pass): a deletion
 * and a reassignment move the counts, a write queues its report events in its transaction and concurrent folds fold
 * each exactly once, the kept rows equal the migration's rebuild; and the input rules (time zone, range, dates,
 * search words) with a fast-check property: any input is an answer or BAD_USER_INPUT. The shared set-up is
 * testing/reportStories.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { demoTicketImage } from '../seed/demoImages.js';
import { refused } from '../testing/services.js';
import { REPORT_MESSAGES } from '../validation/rules.js';
import { createTicket, deleteTicket, setTicketStatus } from '../services/tickets.js';
import { replyToRequester } from '../services/requesterReplies.js';
import { assignTicket } from '../services/assignment.js';
import { ROLLUP_COLUMNS, rebuildReportRollups } from '../migrations/reportRollups.js';
import { report, type ReportInput } from '../services/reports/report.js';
import { foldQueuedRollups } from '../services/reports/rollupQueue.js';
import { closeReportKit, input, kit, openReportKit, volume } from '../testing/reportStories.js';

beforeAll(openReportKit);
afterAll(closeReportKit);

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
