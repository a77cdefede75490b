/**
 * The fold of the event record into the report facts, here below the services so that the migration
 * that creates the tables (20261126180000) can fill them from the events already recorded. The report facts: what the reports count and measure, derived from the event record one event at a
 * time by one pure fold (`foldEvent`), kept in the change log's write transaction (`applyReportFacts`, called by
 * changeLog.appendTicketEvents for every entry it appends) and rebuilt from the whole record by the same fold
 * (`rebuildReportFacts`: the migration's backfill, the bench's bulk seed). Tables: migration 20261126180000.
 *
 * Definitions (each once, here; docs/reports.md says them in words):
 * - CREATED: a ticket's creation. SOLVED: the ticket enters SOLVED (a status change, or a creation as SOLVED);
 *   REOPENED: it leaves SOLVED. Each is an event: solved, reopened and solved again counts two solves.
 * - BACKLOG: +1 when a ticket becomes unsolved (created unsolved, reopened) and -1 when it stops being unsolved
 *   (solved); a change of team, assignee, priority, type or status of an unsolved ticket moves it (-1 under the
 *   attributes before, +1 under those after), so the backlog of a group at an instant is the sum of its deltas
 *   before that instant.
 * - RESPONSE: a cycle starts at the creation of an unsolved ticket or at a reopen; its first reply (the time module's
 *   isFirstReply, time/firstReply.ts, shared with SLA: a public reply by an AGENT or an API_TOKEN) ends the wait and
 *   is the first response time (value_ms); a cycle solved before any reply has no first response.
 * - SOLVED carries creation → this solve (value_ms); `first_solve` marks the ticket's first solve (firstResolution)
 *   and `final` the solve not followed by a reopen (resolution: creation → final SOLVED; a reopen clears it).
 * - Attribution: each fact carries the team, assignee, priority, type and status the ticket had when it happened
 *   (after the event: a solve's status is SOLVED, a move's +1 the new team).
 *
 * Why facts kept in the write transaction rather than folding the record at read time or a periodic rollup: a
 * report then reads only the facts in its range (an index range scan on `at`) and a write is in every report the
 * moment it commits (no lag, no job). Only the events that change what a report sees cost anything (a creation,
 * a status/priority/type/team/assignee change, an agent's reply): notes, edits of text and requester messages add
 * no statement. Durations are kept exactly (one row per measurement); the rollups (./reportRollups.ts) sum the
 * facts per time cell for reports at scale. Measured in bench/scenarios/reports.ts; see docs/reports.md.
 */
import { isFirstReply } from '../time/firstReply.js';

/** One field's change as the event record stores it (services/changeLog.ts FieldChange). */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

export const FACT_KINDS = ['CREATED', 'SOLVED', 'REOPENED', 'RESPONSE', 'BACKLOG'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/** The attributes a fact is attributed to (the ticket's, when it happened). */
export interface FactAttributes {
  teamId: number | null;
  assigneeId: number | null;
  priority: string;
  type: string;
  status: string;
}

export interface ReportFact extends FactAttributes {
  kind: FactKind;
  /** Epoch milliseconds. */
  at: number;
  delta: number;
  valueMs: number | null;
  firstSolve: boolean;
  final: boolean;
}

/** What the fold keeps per ticket to go on from its last event. */
export interface ReportState extends FactAttributes {
  createdAt: number;
  /** The start of a cycle (creation or reopen) still waiting for its first agent response; null when none is. */
  awaitingSince: number | null;
  solvedOnce: boolean;
}

/** One entry of the event record, as the fold reads it. */
export interface ReportEvent {
  kind: string;
  at: number;
  actorKind: string;
  changes: readonly FieldChange[];
  /** The assignee and team after the event (the record's columns; assignee 0 = none). */
  assigneeId: number | null;
  teamId: number | null;
}

const SOLVED = 'SOLVED';
const ATTRIBUTE_FIELDS: Record<string, keyof FactAttributes> = {
  status: 'status',
  priority: 'priority',
  type: 'type',
  teamId: 'teamId',
  assigneeId: 'assigneeId',
};

const idOrNull = (value: unknown): number | null => {
  const n = Number(value);
  return value == null || !Number.isSafeInteger(n) || n <= 0 ? null : n;
};

/** Whether a changed field is one the fold reads (the others, texts, never change a report). */
export const isReportField = (field: string): boolean => field in ATTRIBUTE_FIELDS;

/** Whether an event can change what a report sees (the others cost the write nothing). */
export function mattersToReports(kind: string, actorKind: string, changes: readonly FieldChange[]): boolean {
  if (kind === 'CREATED') return true;
  if (kind === 'REPLY_ADDED') return isFirstReply(kind, actorKind);
  if (kind === 'UPDATED') return changes.some((c) => isReportField(c.field));
  return false;
}

const attributesOf = (s: FactAttributes): FactAttributes => ({
  teamId: s.teamId,
  assigneeId: s.assigneeId,
  priority: s.priority,
  type: s.type,
  status: s.status,
});

const fact = (kind: FactKind, at: number, attributes: FactAttributes, extra: Partial<ReportFact> = {}): ReportFact => ({
  kind,
  at,
  delta: 0,
  valueMs: null,
  firstSolve: false,
  final: false,
  ...attributes,
  ...extra,
});

/** The result of folding one event: the ticket's state after it, its facts, and whether earlier solves stop being final. */
export interface Folded {
  state: ReportState | null;
  facts: ReportFact[];
  reopened: boolean;
}

/** The attributes after an event: the changed fields' new values over the state's, team and assignee from the record. */
function after(state: FactAttributes, e: ReportEvent): FactAttributes {
  const next = attributesOf(state);
  for (const c of e.changes) {
    const key = ATTRIBUTE_FIELDS[c.field];
    if (!key || key === 'teamId' || key === 'assigneeId') continue;
    if (c.to != null) next[key] = c.to;
  }
  next.teamId = idOrNull(e.teamId);
  next.assigneeId = idOrNull(e.assigneeId);
  return next;
}

const sameAttributes = (a: FactAttributes, b: FactAttributes) =>
  a.teamId === b.teamId && a.assigneeId === b.assigneeId && a.priority === b.priority && a.type === b.type && a.status === b.status;

/** The one definition of every report fact: one event folded into a ticket's state. */
export function foldEvent(state: ReportState | null, e: ReportEvent): Folded {
  if (e.kind === 'CREATED') {
    const attributes = after({ teamId: null, assigneeId: null, priority: 'Low', type: 'Question', status: 'OPEN' }, e);
    const solved = attributes.status === SOLVED;
    const facts = [fact('CREATED', e.at, attributes)];
    if (solved) facts.push(fact('SOLVED', e.at, attributes, { valueMs: 0, firstSolve: true, final: true }));
    else facts.push(fact('BACKLOG', e.at, attributes, { delta: 1 }));
    return { state: { ...attributes, createdAt: e.at, awaitingSince: solved ? null : e.at, solvedOnce: solved }, facts, reopened: false };
  }
  if (!state) return { state, facts: [], reopened: false };
  if (e.kind === 'REPLY_ADDED') {
    if (!isFirstReply(e.kind, e.actorKind) || state.awaitingSince == null) return { state, facts: [], reopened: false };
    const attributes = attributesOf(state);
    return {
      state: { ...state, awaitingSince: null },
      facts: [fact('RESPONSE', e.at, attributes, { valueMs: Math.max(0, e.at - state.awaitingSince) })],
      reopened: false,
    };
  }
  if (e.kind !== 'UPDATED') return { state, facts: [], reopened: false };
  const before = attributesOf(state);
  const next = after(state, e);
  if (sameAttributes(before, next)) return { state, facts: [], reopened: false };
  const wasOpen = before.status !== SOLVED;
  const isOpen = next.status !== SOLVED;
  const facts: ReportFact[] = [];
  const nextState: ReportState = { ...state, ...next };
  let reopened = false;
  if (wasOpen && !isOpen) {
    facts.push(fact('SOLVED', e.at, next, { valueMs: Math.max(0, e.at - state.createdAt), firstSolve: !state.solvedOnce, final: true }));
    nextState.solvedOnce = true;
    nextState.awaitingSince = null;
  } else if (!wasOpen && isOpen) {
    facts.push(fact('REOPENED', e.at, next));
    nextState.awaitingSince = e.at;
    reopened = true;
  }
  if (wasOpen) facts.push(fact('BACKLOG', e.at, before, { delta: -1 }));
  if (isOpen) facts.push(fact('BACKLOG', e.at, next, { delta: 1 }));
  return { state: nextState, facts, reopened };
}

/**
 * The state of a ticket whose record began after its creation (tickets older than the event record): its row now,
 * with the changes of the events about to be folded undone, so the fold starts from the state before them.
 */
export function stateBefore(row: TicketRow, pending: readonly ReportEvent[]): ReportState {
  const s: FactAttributes = {
    teamId: idOrNull(row.team_id),
    assigneeId: idOrNull(row.assignee_id),
    priority: String(row.priority),
    type: String(row.type),
    status: String(row.status),
  };
  for (const e of [...pending].reverse())
    for (const c of e.changes) {
      const key = ATTRIBUTE_FIELDS[c.field];
      if (!key) continue;
      if (key === 'teamId' || key === 'assigneeId') s[key] = idOrNull(c.from);
      else if (c.from != null) s[key] = c.from;
    }
  return { ...s, createdAt: toMs(row.created_at), awaitingSince: null, solvedOnce: s.status === SOLVED };
}

export interface TicketRow {
  team_id: unknown;
  assignee_id: unknown;
  priority: unknown;
  type: unknown;
  status: unknown;
  created_at: unknown;
}

const toMs = (value: unknown): number =>
  value instanceof Date ? value.getTime() : typeof value === 'string' && !/^\d+$/.test(value) ? Date.parse(value) : Number(value);
const bool = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';

export interface StateRow {
  created_at: unknown;
  team_id: unknown;
  assignee_id: unknown;
  priority: string;
  type: string;
  status: string;
  awaiting_since: unknown;
  solved_once: unknown;
}

export const stateOf = (r: StateRow): ReportState => ({
  createdAt: toMs(r.created_at),
  teamId: idOrNull(r.team_id),
  assigneeId: idOrNull(r.assignee_id),
  priority: r.priority,
  type: r.type,
  status: r.status,
  awaitingSince: r.awaiting_since == null ? null : Number(r.awaiting_since),
  solvedOnce: bool(r.solved_once),
});

export const STATE_COLUMNS = 'created_at, team_id, assignee_id, priority, type, status, awaiting_since, solved_once';
export const FACT_COLUMNS = 'ticket_id, kind, at, delta, value_ms, first_solve, final, team_id, assignee_id, priority, type, status';
export const stateParams = (s: ReportState) => [s.createdAt, s.teamId, s.assigneeId, s.priority, s.type, s.status, s.awaitingSince, s.solvedOnce ? 1 : 0];
export const factParams = (ticketId: number, f: ReportFact) => [
  ticketId,
  f.kind,
  f.at,
  f.delta,
  f.valueMs,
  f.firstSolve ? 1 : 0,
  f.final ? 1 : 0,
  f.teamId,
  f.assigneeId,
  f.priority,
  f.type,
  f.status,
];

/** Folds a ticket's events (in seq order) from a state: the state after them and every fact, final flags settled. */
export function foldAll(state: ReportState | null, events: readonly ReportEvent[]): { state: ReportState | null; facts: ReportFact[]; reopened: boolean } {
  const facts: ReportFact[] = [];
  let reopened = false;
  for (const e of events) {
    const folded = foldEvent(state, e);
    state = folded.state;
    if (folded.reopened) {
      reopened = true;
      for (const f of facts) if (f.kind === 'SOLVED') f.final = false;
    }
    facts.push(...folded.facts);
  }
  return { state, facts, reopened };
}

interface EventRow {
  ticket_id: number;
  kind: string;
  at: unknown;
  actor_kind: string;
  changes: string;
  assignee_id: unknown;
  team_id: unknown;
}

/** A stored event as the fold reads it. */
export function reportEventOf(r: Omit<EventRow, 'ticket_id'>): ReportEvent {
  return {
    kind: r.kind,
    at: toMs(r.at),
    actorKind: r.actor_kind,
    changes: JSON.parse(r.changes) as FieldChange[],
    assigneeId: idOrNull(r.assignee_id),
    teamId: idOrNull(r.team_id),
  };
}

/** Runs one statement and returns its rows (a transaction's, a migration's). */
export type Execute = (sql: string, params: unknown[]) => Promise<unknown[]>;

/**
 * Rebuilds both tables from the whole event record with the same fold (the migration's backfill of the events
 * recorded before it, the bench's bulk seed). Tickets whose record does not start with their creation start from
 * their row (stateBefore). Returns how many facts it wrote.
 */
export async function rebuildReportFacts(execute: Execute, ticketIds?: readonly number[]): Promise<number> {
  const ids = [...(ticketIds ?? [])];
  const where = (column: string) => (ticketIds ? `where ${column} in (${ids.map(() => '?').join(', ') || 'null'})` : '');
  await execute(`delete from report_facts ${where('ticket_id')}`, ids);
  await execute(`delete from report_state ${where('ticket_id')}`, ids);
  const rows = (await execute(
    `select ticket_id, kind, at, actor_kind, changes, assignee_id, team_id from ticket_events ${where('ticket_id')} order by ticket_id, seq`,
    ids,
  )) as EventRow[];
  const tickets = (await execute(`select id, team_id, assignee_id, priority, type, status, created_at from tickets ${where('id')}`, ids)) as (TicketRow & {
    id: number;
  })[];
  const recordColumns = new Map(tickets.map((t) => [Number(t.id), t]));
  const byTicket = new Map<number, ReportEvent[]>();
  for (const r of rows) {
    const e = reportEventOf(r);
    if (!mattersToReports(e.kind, e.actorKind, e.changes)) continue;
    const id = Number(r.ticket_id);
    let list = byTicket.get(id);
    if (!list) byTicket.set(id, (list = []));
    list.push(e);
  }
  const factRows: unknown[][] = [];
  const stateRows: unknown[][] = [];
  for (const [ticketId, events] of byTicket) {
    let state: ReportState | null = null;
    if (events[0].kind !== 'CREATED') {
      const row = recordColumns.get(ticketId);
      if (!row) continue;
      state = stateBefore(row, events);
    }
    const folded = foldAll(state, events);
    for (const f of folded.facts) factRows.push(factParams(ticketId, f));
    if (folded.state) stateRows.push([ticketId, ...stateParams(folded.state)]);
  }
  await insertRows(execute, 'report_facts', FACT_COLUMNS, factRows);
  await insertRows(execute, 'report_state', `ticket_id, ${STATE_COLUMNS}`, stateRows);
  return factRows.length;
}

/** Multi-row inserts, in chunks under SQLite's bound-parameter limit. */
async function insertRows(execute: Execute, table: string, columns: string, list: unknown[][]): Promise<void> {
  if (!list.length) return;
  const width = list[0].length;
  const chunk = Math.floor(900 / width);
  for (let i = 0; i < list.length; i += chunk) {
    const part = list.slice(i, i + chunk);
    const marks = part.map(() => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');
    await execute(`insert into ${table} (${columns}) values ${marks}`, part.flat());
  }
}
