/**
 * The report facts, folded from the change log's entries. The write's transaction only queues the
 * entries that can change a report (changeLog.appendTicketEvents calls `queueReportEvents`: one insert into
 * `report_rollup_queue`); the fold (./rollupQueue.ts) takes the queue in order, a batch at a time, and keeps the
 * facts, the tickets' report state and the rollups with `foldReportEvents`, set-wise: one read of the batch's
 * states, one of the facts it moves or takes back, and multi-row writes, whatever the batch holds. The definitions
 * (the fold) and the rebuild from the whole record live in migrations/reportFold.ts, below the services, because the
 * migration that creates the tables fills them with the same fold.
 *
 * Why a queue of entries and not the facts in the write (the bench row 12c, "write throughput with the rollups on
 * ≥ 0.9× without"): keeping the facts in the write cost every status change 4 to 5 statements of its own (its
 * state, its final solves, the facts, the state, the queued rollups) and measured 0.88 to 0.93 of the writes without;
 * queued, a write pays one insert, and a fold of a burst's writes reads and writes each ticket once.
 */
import { anyOfIds, type TransactionStatements } from '../../database.js';
import {
  FACT_COLUMNS,
  STATE_COLUMNS,
  factParams,
  foldAll,
  isReportField,
  mattersToReports,
  stateBefore,
  stateOf,
  stateParams,
  type FieldChange,
  type ReportEvent,
  type ReportFact,
  type ReportState,
  type StateRow,
  type TicketRow,
} from '../../migrations/reportFold.js';
import { FACT_READ_COLUMNS, factOfRow, statementParts, type RollupDeltas } from '../../migrations/reportRollups.js';

/**
 * Whether the write path keeps the facts: always, except in the bench's paired "without" run
 * (FULCRUM_REPORT_FACTS=off), which measures what keeping them costs a write.
 */
export function reportFactsOn(): boolean {
  return process.env.FULCRUM_REPORT_FACTS !== 'off';
}

/** A queued entry: kind, time, actor kind, the report fields' changes as [field, from, to], assignee, team. */
type QueuedEvent = [string, number, string, [string, unknown, unknown][], number | null, number | null];

/** A queue row's payload: the ticket and its entries. */
interface QueuedWrite {
  t: number;
  e: QueuedEvent[];
}

const QUEUE_INSERT = 'insert into report_rollup_queue (deltas) values (?)';

/**
 * Queues one ticket's new entries for the fold, in the write's transaction (one statement); nothing when none can
 * change a report (notes, text edits, requester messages).
 */
export async function queueReportEvents(statements: TransactionStatements, ticketId: number, events: readonly ReportEvent[]): Promise<void> {
  const kept = events.filter((e) => e.kind === 'DELETED' || mattersToReports(e.kind, e.actorKind, e.changes));
  if (!kept.length) return;
  const payload: QueuedWrite = {
    t: ticketId,
    e: kept.map((e) => [
      e.kind,
      e.at,
      e.actorKind,
      e.changes.filter((c) => isReportField(c.field)).map((c) => [c.field, c.from, c.to]),
      e.assigneeId,
      e.teamId,
    ]),
  };
  await statements.all('report_queue_events', QUEUE_INSERT, [JSON.stringify(payload)]);
}

/** A queue row's payload read back: a ticket's entries (null: an older row of rollup deltas, RollupDeltas.merge). */
export function queuedWriteOf(serialized: string): { ticketId: number; events: ReportEvent[] } | null {
  const parsed = JSON.parse(serialized) as QueuedWrite | unknown[];
  if (Array.isArray(parsed)) return null;
  return {
    ticketId: parsed.t,
    events: parsed.e.map(([kind, at, actorKind, changes, assigneeId, teamId]) => ({
      kind,
      at,
      actorKind,
      changes: changes.map(([field, from, to]) => ({ field, from, to }) as FieldChange),
      assigneeId,
      teamId,
    })),
  };
}

/** A solve or other fact as kept, with its ticket. */
type FactRowOf = Parameters<typeof factOfRow>[0] & { ticket_id: number | string };

/**
 * Folds a batch of queued writes (in queue order) into the facts and the report state, and gathers their rollup
 * deltas into `deltas` under each ticket's team and assignee after the batch: a reassignment moves the ticket's
 * earlier contributions, a reopen takes back the final solve's resolution time, a deletion takes back all. A
 * ticket's entries of several writes fold in order as one list, which is what folding them one write at a time gives.
 */
export async function foldReportEvents(
  statements: TransactionStatements,
  writes: readonly { ticketId: number; events: ReportEvent[] }[],
  deltas: RollupDeltas,
): Promise<void> {
  const byTicket = new Map<number, ReportEvent[]>();
  for (const w of writes) {
    const list = byTicket.get(w.ticketId);
    if (list) list.push(...w.events);
    else byTicket.set(w.ticketId, [...w.events]);
  }
  const batch = anyOfIds(statements, [...byTicket.keys()]);
  if (!batch) return;
  const states = new Map<number, StateRow>();
  for (const row of await statements.all<StateRow & { ticket_id: number | string }>(
    'report_fold_states',
    `select ticket_id, ${STATE_COLUMNS} from report_state where ticket_id ${batch.sql}`,
    [batch.binding],
  ))
    states.set(Number(row.ticket_id), row);

  interface Plan {
    ticketId: number;
    before: ReportState | null;
    now: ReportState | null;
    folded?: ReturnType<typeof foldAll>;
    /** Whether the ticket had a report_state row before this batch. */
    stored: boolean;
    deleted?: boolean;
    moved?: boolean;
  }
  const plans: Plan[] = [];
  const needFacts: number[] = [];
  // Where the ticket's rows are kept (the team and assignee it counts under), compared as one key: a data change, not
  // an access decision (scripts/ticketAccess.test.ts keeps those to services/ticketAccess.ts).
  const cell = (s: ReportState) => `${s.teamId}/${s.assigneeId}`;
  for (const [ticketId, all] of byTicket) {
    const row = states.get(ticketId);
    let state: ReportState | null = row ? stateOf(row) : null;
    if (all.some((e) => e.kind === 'DELETED')) {
      // A deleted ticket leaves every report: its contributions leave the rollups (its facts stay, joined out).
      if (state) {
        plans.push({ ticketId, before: state, now: null, stored: true, deleted: true });
        needFacts.push(ticketId);
      }
      continue;
    }
    if (!state && all[0].kind !== 'CREATED') {
      // A ticket older than the record (no CREATED entry): the state before these entries from its row.
      const [ticket] = await statements.all<TicketRow>(
        'report_ticket_row',
        'select team_id, assignee_id, priority, type, status, created_at from tickets where id = ?',
        [ticketId],
      );
      if (!ticket) continue;
      state = stateBefore(ticket, all);
    }
    const folded = foldAll(state, all);
    const now = folded.state ?? state;
    const moved = !!(state && now && cell(state) !== cell(now));
    plans.push({ ticketId, before: state, now, folded, stored: !!row, moved });
    if (moved || (state && folded.reopened)) needFacts.push(ticketId);
  }

  const factsOf = new Map<number, ReportFact[]>();
  const needed = anyOfIds(statements, needFacts);
  if (needed)
    for (const r of await statements.all<FactRowOf>(
      'report_fold_facts',
      `select f.ticket_id, ${FACT_READ_COLUMNS} from report_facts f where f.ticket_id ${needed.sql}`,
      [needed.binding],
    )) {
      const id = Number(r.ticket_id);
      const list = factsOf.get(id);
      if (list) list.push(factOfRow(r));
      else factsOf.set(id, [factOfRow(r)]);
    }

  const unfinal: number[] = [];
  const newFacts: unknown[][] = [];
  const newStates: unknown[][] = [];
  for (const p of plans) {
    const kept = factsOf.get(p.ticketId) ?? [];
    if (p.deleted) {
      for (const f of kept) deltas.add(f, p.before!, -1);
      continue;
    }
    const { before, now } = p;
    const folded = p.folded!;
    if (before && now && p.moved) {
      // Reports count a ticket under its team and assignee now: a reassignment moves all its contributions.
      for (const f of kept) {
        deltas.add(f, before, -1);
        deltas.add(folded.reopened && f.kind === 'SOLVED' ? { ...f, final: false } : f, now, 1);
      }
    } else if (before && folded.reopened) {
      // A reopen takes back the resolution time of the solve that was final.
      for (const f of kept) if (f.kind === 'SOLVED' && f.final) deltas.add(f, before, -1, true);
    }
    if (now) for (const f of folded.facts) deltas.add(f, now, 1);
    if (folded.reopened) unfinal.push(p.ticketId);
    for (const f of folded.facts) newFacts.push(factParams(p.ticketId, f));
    // A kept state the entries left as it was (foldEvent returns the same object) is not written again.
    if (folded.state && !(p.stored && folded.state === before)) newStates.push([p.ticketId, ...stateParams(folded.state)]);
  }

  // Earlier solves stop being final on a reopen (before this batch's facts go in: theirs are settled by the fold).
  const reopened = anyOfIds(statements, unfinal);
  if (reopened)
    await statements.all('report_fold_unfinal', `update report_facts set final = ? where kind = 'SOLVED' and final = ? and ticket_id ${reopened.sql}`, [
      0,
      1,
      reopened.binding,
    ]);
  await insertRows(statements, 'report_fold_facts_insert', `insert into report_facts (${FACT_COLUMNS}) values`, '', newFacts);
  await insertRows(
    statements,
    'report_fold_states_upsert',
    `insert into report_state (ticket_id, ${STATE_COLUMNS}) values`,
    ` on conflict (ticket_id) do update set created_at = excluded.created_at, team_id = excluded.team_id, assignee_id = excluded.assignee_id,
         priority = excluded.priority, type = excluded.type, status = excluded.status, awaiting_since = excluded.awaiting_since,
         solved_once = excluded.solved_once`,
    newStates,
  );
}

/** A multi-row insert of `rows` in parts (reportRollups.ts statementParts), each part's statement prepared once. */
async function insertRows(statements: TransactionStatements, name: string, head: string, tail: string, rows: unknown[][]): Promise<void> {
  for (const part of statementParts(rows)) {
    const mark = `(${part[0].map(() => '?').join(', ')})`;
    await statements.all(`${name}_${part.length}`, `${head} ${part.map(() => mark).join(', ')}${tail}`, part.flat());
  }
}
