/**
 * The set-up the report tests share (graphql/report*.test.ts): a database of their own per test file with an admin,
 * the built schema, and hand-made tickets (`Story`) whose event record is appended at chosen instants
 * (appendTicketEvents, as the demo seed writes its past), on tickets made through the services whose own "now"
 * creation is left out of the facts; and the helpers that compare a report's figures with expected ones within the
 * rollups' stated bound. The state is exported as live bindings, set by `openReportKit` in each file's beforeAll.
 */
import type { GraphQLSchema } from 'graphql';
import { demoTicketImage } from '../seed/demoImages.js';
import { openServiceKit, type ServiceKit } from './services.js';
import { buildFulcrumSchema } from '../graphql/buildSchema.js';
import { appendTicketEvents, type FieldChange, type TicketEventDraft } from '../services/changeLog.js';
import { createTicket } from '../services/tickets.js';
import { addTeamMember, createTeam } from '../services/teams.js';
import { FIGURE_ERROR, RollupDeltas, factOfRow, FACT_READ_COLUMNS, writeRollups } from '../migrations/reportRollups.js';
import type { ReportInput, ReportTotals } from '../services/reports/report.js';
import { foldQueuedRollups } from '../services/reports/rollupQueue.js';

export let kit: ServiceKit;
export let schema: GraphQLSchema;
export let admin: number;

/** Opens the database (one per test file), builds the schema and makes an admin; a test file's beforeAll. */
export async function openReportKit(): Promise<void> {
  kit = await openServiceKit();
  schema = await buildFulcrumSchema();
  admin = await kit.newAgent();
  await kit.rows(`update users set role = 'ADMIN' where id = ?`, [admin]);
}

/** A test file's afterAll. */
export const closeReportKit = () => kit?.close();

export const HOUR = 3_600_000;
export const MINUTE = 60_000;

export async function newTeam(...members: number[]): Promise<number> {
  const team = await createTeam(kit.as(admin), `team ${Math.random().toString(36).slice(2, 10)}`);
  for (const m of members) await addTeamMember(kit.as(admin), team.id, m);
  return team.id;
}

export interface Attrs {
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
export class Story {
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

export const UTC_DAY = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
export const input = (from: string, to: string, extra: Partial<ReportInput> = {}): ReportInput => ({ from, to, bucket: 'DAY', timeZone: 'UTC', ...extra });
export const figure = (values: number[]) => {
  if (!values.length) return { count: 0, median: null, p90: null, mean: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  return { count: sorted.length, median: rank(0.5), p90: rank(0.9), mean: sorted.reduce((s, v) => s + v, 0) / sorted.length };
};
/**
 * The answer with each median and p90 replaced by the expected one when within FIGURE_ERROR of it (the rollups' stated
 * bound, docs/reports.md), and each mean when equal but for float rounding; every count must be equal as it is.
 */
export function withinBound<T>(answer: T, expected: unknown): T {
  if (Array.isArray(answer)) return (answer as unknown[]).map((a, i) => withinBound(a, (expected as unknown[] | undefined)?.[i])) as T;
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
export const volume = (t: ReportTotals) => ({ created: t.created, solved: t.solved, reopened: t.reopened, backlog: t.backlog });
