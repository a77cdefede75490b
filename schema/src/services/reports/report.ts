/**
 * Reports: volume (created, solved, reopened, backlog) and times (first response, first resolution,
 * resolution) per day, week or month in the viewer's IANA time zone, optionally broken down by team, assignee,
 * priority, type or status. Every number comes from the report facts (./facts.ts, where each metric is defined),
 * which the change log keeps in each write's transaction (their rollups' deltas queued there and folded before a report
 * reads them: ./rollupQueue.ts), so a report is current the moment a write commits.
 *
 * - Buckets: `from`/`to` are local dates in `timeZone` (`to` exclusive). A bucket is a local day, an ISO week
 *   (Monday to Sunday) or a calendar month; its `bucketStart` is the local date it starts on (a week's Monday, a
 *   month's 1st, which may lie before `from`: only facts in [from, to) count). Each bucket's instants are its local
 *   midnights in the zone (the time module's calendar, time/calendar.ts: a day is 23 or 25 hours long across a
 *   daylight-saving change, and a midnight that does not exist is the first instant of that day). Calendar time; business hours would be another duration
 *   function over the same facts.
 * - A fact counts in the bucket its instant falls in; a time counts where it ends (a first response at the reply, a
 *   resolution at the solve). Backlog is the number of unsolved tickets at the end of each bucket (the sum of the
 *   backlog deltas before it); the totals' backlog is the one at the end of the range.
 * - Figures: count, median, p90 (nearest rank: the smallest value with at least 50% / 90% of the values at or
 *   below it) and mean, in seconds; null without values. Read from the rollups (migrations/reportRollups.ts, the
 *   report's usual path: rows per time cell, not per ticket), counts and means are exact and a median or p90 is
 *   within FIGURE_ERROR (2.44 %) of the exact one; read from the facts (a filter on status, priority, type or
 *   requester, which the rollups are not keyed by), every figure is exact.
 * - Who sees what: the facts of the tickets the viewer may read now (ticketAccess.readSql over the tickets table: an
 *   agent their own and their teams' tickets, an admin all), so a reassignment changes whose reports a ticket's
 *   whole history counts in. A deleted ticket leaves every report (as it leaves every list). The filter
 *   (TicketFilter) also applies to the tickets as they are now; a breakdown groups by the value at each fact.
 */
import { AppError } from '../../errors.js';
import { GRAINS } from '../../migrations/reportRollups.js';
import { REPORT_MESSAGES, hasErrors, localDateDays, validateReportInput, type FieldErrors } from '../../validation/rules.js';
import { bucketsOf } from '../../time/index.js';
import { requireViewer, type ServiceContext } from '../context.js';
import { exactReport } from './exactReport.js';
import { rollupReport } from './rollupReport.js';
import type { ReportInput, ReportResult } from './reportTypes.js';

export type { ReportBreakdown, ReportBucket, ReportInput, ReportResult, ReportTotals } from './reportTypes.js';

function checkInput(input: ReportInput): { fromDays: number; toDays: number } {
  const fields: FieldErrors = validateReportInput(input);
  if (input.filter?.search != null && input.filter.search.trim() !== '') (fields['filter.search'] ??= []).push(REPORT_MESSAGES.search);
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { fromDays: localDateDays(input.from)!, toDays: localDateDays(input.to)! };
}

/** The report the viewer asked for (see the module comment for every definition). */
export async function report(ctx: ServiceContext, input: ReportInput): Promise<ReportResult> {
  requireViewer(ctx); // signed out is UNAUTHENTICATED whatever the input
  const { fromDays, toDays } = checkInput(input);
  const { starts, bounds, end } = bucketsOf(fromDays, toDays, input.bucket, input.timeZone);
  // The rollups answer unless the filter asks about what tickets are now beyond the access keys (status, priority,
  // type, requester), or a bound is not on a quarter hour (local mean time before a zone's standard offsets).
  const f = input.filter;
  const byKeysOnly = !f?.status?.length && !f?.priority?.length && !f?.type?.length && f?.requesterId == null;
  if (byKeysOnly && [...bounds, end].every((b) => b % GRAINS.Q === 0)) return rollupReport(ctx, input, starts, bounds, end);
  return exactReport(ctx, input, starts, bounds, end);
}
