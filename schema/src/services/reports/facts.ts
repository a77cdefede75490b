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
import { FACT_READ_COLUMNS, RollupEntries, factOfRow } from '../../migrations/reportRollups.js';
import { queueRollups, rollupQueueInsert } from './rollupQueue.js';

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
 * clears earlier solves' `final` on a reopen, writes the facts and the state, and queues the facts' rollup deltas
 * (migrations/reportRollups.ts, folded by ./rollupQueue.ts) under the ticket's team and assignee now: a reassignment
 * moves the ticket's earlier contributions, a reopen takes back the final solve's resolution time, a deletion takes
 * back all. Nothing at all for entries that cannot change a report (notes, text edits, requester messages).
 */
export async function applyReportFacts(
  statements: TransactionStatements,
  ticketId: number,
  read: ReportRead | undefined,
  events: readonly ReportEvent[],
): Promise<void> {
  const deletion = events.some((e) => e.kind === 'DELETED');
  const relevant = events.filter((e) => mattersToReports(e.kind, e.actorKind, e.changes));
  if (!relevant.length && !deletion) return;
  // The state and the final solves (which a reopen takes back below) as the record's statement read them on
  // PostgreSQL (`read`), or read here: with a status change, both in one statement.
  const row: (StateRow & { finals?: FinalRow[] }) | undefined = read
    ? read.state
      ? { ...read.state, finals: read.finals }
      : undefined
    : await readState(statements, ticketId, relevant);
  let state: ReportState | null = row ? stateOf(row) : null;
  const deltas = new RollupEntries();
  if (deletion) {
    // A deleted ticket leaves every report: its contributions leave the rollups (its facts stay, joined out).
    if (state) for (const f of await factsOf(statements, ticketId)) deltas.add(f, state, -1);
    return queueRollups(statements, deltas);
  }
  if (!state && relevant[0].kind !== 'CREATED') {
    const [ticket] = await statements.all<TicketRow>(
      'report_ticket_row',
      'select team_id, assignee_id, priority, type, status, created_at from tickets where id = ?',
      [ticketId],
    );
    if (!ticket) return;
    state = stateBefore(ticket, relevant);
  }
  const before = state;
  const folded = foldAll(state, relevant);
  const now = folded.state ?? before;
  // Where the ticket's rows are kept (the team and assignee it counts under), compared as one key: a data change, not
  // an access decision (scripts/ticketAccess.test.ts keeps those to services/ticketAccess.ts).
  const cell = (s: NonNullable<typeof now>) => `${s.teamId}/${s.assigneeId}`;
  if (before && now && cell(before) !== cell(now)) {
    // Reports count a ticket under its team and assignee now: a reassignment moves all its contributions.
    for (const f of await factsOf(statements, ticketId)) {
      deltas.add(f, before, -1);
      deltas.add(folded.reopened && f.kind === 'SOLVED' ? { ...f, final: false } : f, now, 1);
    }
  } else if (before && folded.reopened) {
    // A reopen takes back the resolution time of the solve that was final.
    const finals: FinalRow[] = row?.finals
      ? row.finals
      : await statements.all<FinalRow>(
          'report_facts_finals',
          `select ${FACT_READ_COLUMNS} from report_facts f where f.ticket_id = ? and f.kind = 'SOLVED' and f.final = ?`,
          [ticketId, 1],
        );
    for (const r of finals) deltas.add(factOfRow(r), before, -1, true);
  }
  if (now) for (const f of folded.facts) deltas.add(f, now, 1);
  const writes: Write[] = [];
  if (folded.reopened)
    writes.push({ name: 'unfinal', sql: `update report_facts set final = ? where ticket_id = ? and kind = 'SOLVED' and final = ?`, params: [0, ticketId, 1] });
  // The entries' facts in one statement (a created ticket has two): one round trip on PostgreSQL, not one per fact.
  if (folded.facts.length)
    writes.push({
      name: `facts${folded.facts.length}`,
      sql: `insert into report_facts (${FACT_COLUMNS}) values ${folded.facts.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      params: folded.facts.flatMap((f) => factParams(ticketId, f)),
    });
  // A kept state the entries left as it was (foldEvent returns the same object: a reply on a ticket already answered,
  // an update that changes nothing reports count) is not written again.
  if (folded.state && !(row && folded.state === before))
    writes.push({
      name: 'state',
      sql: `insert into report_state (ticket_id, ${STATE_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (ticket_id) do update set created_at = excluded.created_at, team_id = excluded.team_id, assignee_id = excluded.assignee_id,
         priority = excluded.priority, type = excluded.type, status = excluded.status, awaiting_since = excluded.awaiting_since,
         solved_once = excluded.solved_once`,
      params: [ticketId, ...stateParams(folded.state)],
    });
  const queued = rollupQueueInsert(deltas);
  if (queued) writes.push({ ...queued, name: 'queue' });
  await runWrites(statements, writes);
}

/** A solve that is final, as the rollups read it. */
type FinalRow = Parameters<typeof factOfRow>[0];

/** What the facts of a ticket's write start from, read by the event record's own statement on PostgreSQL. */
export interface ReportRead {
  state: StateRow | null;
  finals: FinalRow[];
}

/** The columns REPORT_READ_RETURNING adds to the record's RETURNING. */
export interface ReportReadRow {
  report_state: StateRow | null;
  report_finals: FinalRow[];
}

/** A final solve's columns as a JSON object's entries (FACT_READ_COLUMNS' names). */
const FINAL_OBJECT_ENTRIES = FACT_READ_COLUMNS.split(', ')
  .map((c) => {
    const [column, alias] = c.split(' as ');
    return `'${alias ?? column.slice(2)}', ${column}`;
  })
  .join(', ');

/**
 * The ticket's report state and its final solves (FACT_READ_COLUMNS' names), as JSON columns of the RETURNING of the
 * record's insert into ticket_events (changeLog.ts): one round trip less for every write the reports count.
 */
export const REPORT_READ_RETURNING = `(select row_to_json(s) from (select ${STATE_COLUMNS} from report_state where ticket_id = ticket_events.ticket_id) s) as report_state,
  (select coalesce(json_agg(json_build_object(${FINAL_OBJECT_ENTRIES})), '[]'::json) from report_facts f where f.ticket_id = ticket_events.ticket_id and f.kind = 'SOLVED' and f.final) as report_finals`;

/** SQLite: the state, with the final solves as a JSON array when the write changes a status (a reopen needs them). */
const SQLITE_STATE_WITH_FINALS = `select ${STATE_COLUMNS}, (select json_group_array(json_object(${FINAL_OBJECT_ENTRIES})) from report_facts f
  where f.ticket_id = report_state.ticket_id and f.kind = 'SOLVED' and f.final = 1) as finals from report_state where ticket_id = ?`;

async function readState(
  statements: TransactionStatements,
  ticketId: number,
  events: readonly ReportEvent[],
): Promise<(StateRow & { finals?: FinalRow[] }) | undefined> {
  if (statements.postgres || !events.some((e) => e.changes.some((c) => c.field === 'status')))
    return (await statements.all<StateRow>('report_state_read', `select ${STATE_COLUMNS} from report_state where ticket_id = ?`, [ticketId]))[0];
  const [row] = await statements.all<StateRow & { finals: string }>('report_state_read_finals', SQLITE_STATE_WITH_FINALS, [ticketId]);
  return row && { ...row, finals: JSON.parse(row.finals) as FinalRow[] };
}

/** The read in a record's returned row (undefined: the statement did not read it). */
export function reportReadOf(row: Partial<ReportReadRow> | undefined): ReportRead | undefined {
  if (!row || !('report_state' in row)) return undefined;
  return { state: row.report_state ?? null, finals: row.report_finals ?? [] };
}

interface Write {
  name: string;
  sql: string;
  params: unknown[];
}

/**
 * The facts' writes of one ticket (clearing `final`, the facts, the state, the queued rollups): on SQLite one
 * statement each, in process; on PostgreSQL one statement of data-modifying CTEs, so one round trip instead of up to
 * four. The parts touch different rows (the update only solves kept before this write, which the insert adds none of),
 * so running them against one snapshot changes nothing.
 */
async function runWrites(statements: TransactionStatements, writes: Write[]): Promise<void> {
  if (!statements.postgres || writes.length < 2) {
    for (const w of writes) await statements.all(`report_fact_write_${w.name}`, w.sql, w.params);
    return;
  }
  const last = writes[writes.length - 1];
  const sql = `with ${writes
    .slice(0, -1)
    .map((w, i) => `w${i} as (${w.sql})`)
    .join(', ')} ${last.sql}`;
  await statements.all(
    `report_fact_writes_${writes.map((w) => w.name).join('_')}`,
    sql,
    writes.flatMap((w) => w.params),
  );
}

/** Every fact of a ticket, as kept. */
async function factsOf(statements: TransactionStatements, ticketId: number) {
  const rows = await statements.all<Parameters<typeof factOfRow>[0]>(
    'report_facts_of_ticket',
    `select ${FACT_READ_COLUMNS} from report_facts f where f.ticket_id = ?`,
    [ticketId],
  );
  return rows.map(factOfRow);
}
