/**
 * Reports on a real database (SQLite, or PostgreSQL + Redis in the second pass), the definitions by example: every
 * metric on hand-made timelines (a reopen, notes only, automatic mail, the daylight-saving weeks of Europe/Berlin and
 * America/New_York, a ticket moved between teams), the write path keeping the facts (a reply and a solve through the
 * services are in the report at once), and access (agent, team member, other team, admin; "as it is now"). The
 * rollups and the input rules are in reportRollups.test.ts, the recount property in reportRecount.test.ts; the shared
 * set-up is testing/reportStories.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTicketImage } from '../seed/demoImages.js';
import { createTicket, setTicketStatus } from '../services/tickets.js';
import { replyToRequester } from '../services/requesterReplies.js';
import { assignTicket } from '../services/assignment.js';
import { report } from '../services/reports/report.js';
import { HOUR, Story, UTC_DAY, admin, closeReportKit, figure, input, kit, newTeam, openReportKit, volume, withinBound } from '../testing/reportStories.js';

beforeAll(openReportKit);
afterAll(closeReportKit);

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
