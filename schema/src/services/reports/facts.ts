/**
 * The report facts (issue 29) kept in the change log's write transaction: changeLog.appendTicketEvents calls
 * `applyReportFacts` for every ticket's new entries. The definitions (the fold) and the rebuild from the whole
 * record live in migrations/reportFold.ts, below the services, because the migration that creates the tables fills
 * them with the same fold.
 */
import type { TransactionStatements } from '../../database.js';
import {
  FACT_COLUMNS,
  STATE_COLUMNS,
  factParams,
  foldAll,
  mattersToReports,
  stateBefore,
  stateOf,
  stateParams,
  type ReportEvent,
  type ReportState,
  type StateRow,
  type TicketRow,
} from '../../migrations/reportFold.js';

/**
 * Whether the write path keeps the facts: always, except in the bench's paired "without" run
 * (FULCRUM_REPORT_FACTS=off), which measures what keeping them costs a write.
 */
export function reportFactsOn(): boolean {
  return process.env.FULCRUM_REPORT_FACTS !== 'off';
}

/**
 * Keeps the facts of one ticket's new entries in the write's transaction (changeLog.appendTicketEvents): reads the
 * ticket's state (one statement by primary key; for a ticket older than the record, its row), folds the entries,
 * clears earlier solves' `final` on a reopen, writes the facts and the state. Nothing at all for entries that
 * cannot change a report (notes, text edits, requester messages, deletion).
 */
export async function applyReportFacts(statements: TransactionStatements, ticketId: number, events: readonly ReportEvent[]): Promise<void> {
  const relevant = events.filter((e) => mattersToReports(e.kind, e.actorKind, e.changes));
  if (!relevant.length) return;
  const [row] = await statements.all<StateRow>('report_state_read', `select ${STATE_COLUMNS} from report_state where ticket_id = ?`, [ticketId]);
  let state: ReportState | null = row ? stateOf(row) : null;
  if (!state && relevant[0].kind !== 'CREATED') {
    const [ticket] = await statements.all<TicketRow>(
      'report_ticket_row',
      'select team_id, assignee_id, priority, type, status, created_at from tickets where id = ?',
      [ticketId],
    );
    if (!ticket) return;
    state = stateBefore(ticket, relevant);
  }
  const folded = foldAll(state, relevant);
  if (folded.reopened)
    await statements.all('report_facts_unfinal', `update report_facts set final = ? where ticket_id = ? and kind = 'SOLVED' and final = ?`, [0, ticketId, 1]);
  for (const f of folded.facts)
    await statements.all(
      'report_facts_insert',
      `insert into report_facts (${FACT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      factParams(ticketId, f),
    );
  if (folded.state)
    await statements.all(
      'report_state_upsert',
      `insert into report_state (ticket_id, ${STATE_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (ticket_id) do update set created_at = excluded.created_at, team_id = excluded.team_id, assignee_id = excluded.assignee_id,
         priority = excluded.priority, type = excluded.type, status = excluded.status, awaiting_since = excluded.awaiting_since,
         solved_once = excluded.solved_once`,
      [ticketId, ...stateParams(folded.state)],
    );
}
