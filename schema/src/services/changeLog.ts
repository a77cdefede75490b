/**
 * The change log of the domain: the one seam every write of the service layer passes to record what it changed.
 * A ticket's change is also appended to its event record (`ticket_events`) in that same transaction: every
 * ticket webhook event drafted here (webhookEvent.ticket/ticketData) carries its timeline event, and note writes
 * pass theirs (`ticketEventOnly`). The record's seq comes from the ticket's counter (`tickets.event_seq`), bumped
 * with UPDATE ... RETURNING under the ticket's row lock; once committed, the record's new seqs go out on the live
 * bus (`timeline` topic, to the ticket's audience), from the same write as the webhook events.
 * A change is written with its webhook event (the outbox, webhooks/outbox.ts) in the same database transaction,
 * so the event is committed exactly when the change is and a rolled-back write leaves none; its live bus event
 * (the service's `publish` callback) goes out from here once that transaction has committed, never before. The event's audience
 * comes from the read rules (a ticket's from services/ticketAccess.ts), its data from the plain records.
 */
import type { Customer, Macro, Message, Ticket } from '../entities/index.js';
import { preparedRead, transactionStatements, type Em, type TransactionStatements } from '../database.js';
import { AppError } from '../errors.js';
import { ticketRecordOf, type TicketRecord } from '../records/index.js';
import type { TicketFacets } from '../realtime/events.js';
import { insertEvents, wakeWorkers, type WebhookEventDraft as OutboxDraft } from '../webhooks/outbox.js';
import { actorOf, type ServiceContext } from './context.js';
import * as ticketAccess from './ticketAccess.js';
import { queueReportEvents, reportFactsOn } from './reports/facts.js';
import { wakeRollupFolders } from './reports/rollupQueue.js';

type Kind = 'CREATED' | 'UPDATED' | 'DELETED';
type Data = Record<string, unknown>;

/** The kinds of the event record; NOTE_ADDED is a note's creation (its `TicketNote` timeline entry). */
export type TicketEventKind =
  | 'CREATED'
  | 'UPDATED'
  | 'DELETED'
  | 'NOTE_ADDED'
  | 'NOTE_EDITED'
  | 'NOTE_DELETED'
  // A public reply (its TicketReply entry) and a requester's message (its RequesterMessage entry).
  | 'REPLY_ADDED'
  | 'MESSAGE_RECEIVED'
  // An agent let a held mail join the conversation, or discarded it.
  | 'HELD_ACCEPTED'
  | 'HELD_DISCARDED';

/** One field's change, in GraphQL spelling: the field's GraphQL name, values as the schema writes them. */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

/** A ticket's event before the record gives it a seq, actor, door and time. */
export interface TicketEventDraft {
  ticketId: number;
  kind: TicketEventKind;
  changes: FieldChange[];
  noteId?: number | null;
  replyId?: number | null;
  requesterMessageId?: number | null;
  /** Who may read the ticket at this event (its audience's rule, services/ticketAccess.ts): assignee (0: none)... */
  assigneeId: number;
  /** ...and team. */
  teamId?: number | null;
  /** The agents who may read it, read in the write's transaction (ticketAudiences): the live `timeline` topics. */
  audience?: number[];
  /** When it happened, when not now (the demo seed's tickets were created in the past). */
  at?: Date;
}

/** A webhook event; a ticket's carries its event-record entry (`ticketEvent`). */
export type WebhookEventDraft = OutboxDraft & { ticketEvent?: TicketEventDraft };
/** What a write records: webhook events (a ticket's with its record entry) and record entries without a webhook. */
export type ChangeDraft = WebhookEventDraft | { type?: undefined; ticketEvent: TicketEventDraft };

/** The ticket fields the record follows, by GraphQL name, in this order. */
export const TRACKED_FIELDS = ['title', 'type', 'priority', 'status', 'requesterId', 'macroId', 'teamId', 'assigneeId', 'description', 'image'] as const;

/** A field's value as the schema spells it: enums and text as they are, ids as decimal strings, an image as its id. */
function spelled(field: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (field === 'image') return String((value as { id: number }).id);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** The tracked fields whose value differs between two ticket data (ticketData), before → after. */
export function fieldChanges(before: Data | null, after: Data): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of TRACKED_FIELDS) {
    const from = before ? spelled(field, before[field]) : null;
    const to = spelled(field, after[field]);
    if (from !== to) changes.push({ field, from, to });
  }
  return changes;
}

function ticketEventOf(kind: Kind, data: Data, before?: Data): TicketEventDraft {
  return {
    ticketId: Number(data.id),
    kind,
    changes: kind === 'DELETED' ? [] : fieldChanges(kind === 'CREATED' ? null : (before ?? data), data),
    assigneeId: ticketAccess.audienceOwner({ assigneeId: data.assigneeId }),
    teamId: ticketAccess.audienceTeam({ teamId: data.teamId }),
  };
}

/** A record entry without a webhook event (a note's edit or deletion). */
export function ticketEventOnly(event: TicketEventDraft): ChangeDraft {
  return { ticketEvent: event };
}

export function ticketData(t: Ticket): Data {
  // The service's record of the ticket (records/index.ts), its image without the ticket id it sits under.
  const record = ticketRecordOf(t);
  const image = record.image && {
    id: record.image.id,
    mimeType: record.image.mimeType,
    byteSize: record.image.byteSize,
    width: record.image.width,
    height: record.image.height,
  };
  return { ...record, image };
}

export function customerData(c: Customer): Data {
  return { id: c.id, name: c.name, email: c.email, ownerId: c.owner.id, createdAt: c.createdAt };
}

export function macroData(m: Macro): Data {
  return { id: m.id, name: m.name, description: m.description, ownerId: m.owner?.id ?? null, createdAt: m.createdAt };
}

export function messageData(m: Message): Data {
  return { id: m.id, senderId: m.sender.id, receiverId: m.receiver.id, text: m.text, createdAt: m.createdAt, updatedAt: m.updatedAt };
}

const json = (value: unknown) => JSON.stringify(value);

/** The fields whose value differs, each with its value before the change. */
export function previousValues(before: Data, after: Data): Data {
  const previous: Data = {};
  for (const key of Object.keys(after)) if (json(before[key]) !== json(after[key])) previous[key] = before[key] ?? null;
  return previous;
}

function draft(
  entity: 'TICKET' | 'CUSTOMER' | 'MACRO' | 'MESSAGE',
  kind: Kind,
  audience: WebhookEventDraft['audience'],
  data: Data,
  before?: Data,
): WebhookEventDraft {
  const draft: WebhookEventDraft = {
    type: `${entity}_${kind}`,
    audience,
    data,
    ...(kind === 'UPDATED' && before ? { previous: previousValues(before, data) } : {}),
  };
  if (entity === 'TICKET') {
    // One computation for both: TICKET_UPDATED's `changes` are the record's.
    draft.ticketEvent = ticketEventOf(kind, data, before);
    if (kind === 'UPDATED') draft.changes = draft.ticketEvent.changes;
  }
  return draft;
}

/**
 * The event of one change, by record kind. Audiences follow the read rules of the services: a ticket is read by
 * whom services/ticketAccess.ts lets read it, a message by its sender and receiver, a macro by its owner (macro 1, ownerless, by everyone),
 * a customer by every agent.
 */
export const webhookEvent = {
  ticket: (kind: Kind, t: Ticket, before?: Data) => draft('TICKET', kind, ticketAccess.audience(t), ticketData(t), before),
  customer: (kind: Kind, c: Customer, before?: Data) => draft('CUSTOMER', kind, 'all', customerData(c), before),
  macro: (kind: Kind, m: Macro, before?: Data) => draft('MACRO', kind, m.owner ? [m.owner.id] : 'all', macroData(m), before),
  message: (kind: Kind, m: Message, before?: Data) => draft('MESSAGE', kind, [...new Set([m.sender.id, m.receiver.id])], messageData(m), before),
  /** A ticket changed without its entity at hand (macro deletion moves tickets with one UPDATE). */
  ticketData: (kind: Kind, data: Data, before?: Data) => draft('TICKET', kind, ticketAccess.audience({ assigneeId: data.assigneeId }), data, before),
};

/** An entry the record has appended: its ticket, seq and audience (for the live `timeline` topic). */
export interface AppendedTicketEvent {
  ticketId: number;
  seq: number;
  at: Date;
  assigneeId: number;
  audience?: number[];
}

// Usernames never change: the actor's name is read once per process and user.
const actorNames = new WeakMap<object, Map<number, string>>();

async function actorName(em: Em, userId: number | null): Promise<string> {
  if (userId == null) return 'System';
  let names = actorNames.get(em.config);
  if (!names) actorNames.set(em.config, (names = new Map<number, string>()));
  let name = names.get(userId);
  if (name === undefined) {
    const [row] = await preparedRead<{ username: string }>(em, 'actor_name', 'select username from users where id = ?', [userId]);
    name = row?.username ?? `#${userId}`;
    names.set(userId, name);
  }
  return name;
}

/** Who writes: the caller's viewer, token and door (a ServiceContext is one; the demo seed is the system). */
export type ChangeActor = Pick<ServiceContext, 'viewerId' | 'token' | 'via' | 'requester'>;

const EVENT_COLUMNS = 'ticket_id, seq, at, actor_kind, actor_id, actor_name, via, kind, changes, note_id, reply_id, requester_message_id, assignee_id, team_id';

/**
 * PostgreSQL: a ticket's counter bump and its entries in one round trip. The bump takes the ticket's row lock (a
 * concurrent writer of the same ticket waits, so seqs have no gap); the entries come as one JSON array (`i`: the
 * entry's place, from 1). No row when the ticket is gone.
 */
const POSTGRES_APPEND = `with bumped as (update tickets set event_seq = event_seq + ? where id = ? returning event_seq)
insert into ticket_events (${EVENT_COLUMNS})
select ?, bumped.event_seq - ? + r.i, r.at, ?, ?, ?, ?, r.kind, r.changes, r.note_id, r.reply_id, r.requester_message_id, r.assignee_id, r.team_id
from bumped, json_to_recordset(?::json) as r(i int, at timestamptz, kind text, changes text, note_id int, reply_id int, requester_message_id int, assignee_id int, team_id int)
returning seq`;
const POSTGRES_APPEND_AFTER_DELETE = `insert into ticket_events (${EVENT_COLUMNS})
select ?, coalesce((select max(seq) from ticket_events where ticket_id = ?), 0) + r.i, r.at, ?, ?, ?, ?, r.kind, r.changes, r.note_id, r.reply_id, r.requester_message_id, r.assignee_id, r.team_id
from json_to_recordset(?::json) as r(i int, at timestamptz, kind text, changes text, note_id int, reply_id int, requester_message_id int, assignee_id int, team_id int)
returning seq`;

/**
 * Appends the entries to the event record in `em`'s transaction (which must be open): per ticket, the counter is
 * bumped by the number of its entries (UPDATE ... RETURNING, so a concurrent writer of the same ticket waits on
 * its row lock, and seqs have no gap), and its rows go in. A deleted ticket's row is gone (deleted in this
 * transaction, which holds its lock): its last seq is read from the record itself. A ticket that is gone for any
 * other entry (deleted meanwhile) is NOT_FOUND and the write rolls back. The statements are fixed and prepared once
 * per connection (database.ts transactionStatements): PostgreSQL one round trip per ticket, SQLite the bump and a
 * prepared insert per entry.
 */
export async function appendTicketEvents(ctx: ChangeActor, em: Em, drafts: TicketEventDraft[]): Promise<AppendedTicketEvent[]> {
  if (!drafts.length) return [];
  const statements = await transactionStatements(em);
  const actor = actorOf(ctx);
  const name = actor.name ?? (await actorName(em, actor.userId));
  const at = new Date();
  const byTicket = new Map<number, TicketEventDraft[]>();
  for (const d of drafts) byTicket.set(d.ticketId, [...(byTicket.get(d.ticketId) ?? []), d]);
  const appended: AppendedTicketEvent[] = [];
  for (const [ticketId, list] of byTicket) {
    const deletion = list.every((d) => d.kind === 'DELETED');
    let first: number;
    if (statements.postgres) {
      const entries = JSON.stringify(
        list.map((d, i) => ({
          i: i + 1,
          at: d.at ?? at,
          kind: d.kind,
          changes: JSON.stringify(d.changes),
          note_id: d.noteId ?? null,
          reply_id: d.replyId ?? null,
          requester_message_id: d.requesterMessageId ?? null,
          assignee_id: d.assigneeId,
          team_id: d.teamId ?? null,
        })),
      );
      const who = [actor.kind, actor.userId, name, ctx.via];
      let rows = await statements.all<{ seq: number }>('ticket_events_append', POSTGRES_APPEND, [
        list.length,
        ticketId,
        ticketId,
        list.length,
        ...who,
        entries,
      ]);
      if (!rows.length && deletion)
        rows = await statements.all<{ seq: number }>('ticket_events_append_deleted', POSTGRES_APPEND_AFTER_DELETE, [ticketId, ticketId, ...who, entries]);
      if (!rows.length) throw AppError.notFound('Ticket');
      first = Math.min(...rows.map((r) => Number(r.seq)));
    } else {
      const [bumped] = await statements.all<{ event_seq: number }>(
        'ticket_events_bump',
        'update tickets set event_seq = event_seq + ? where id = ? returning event_seq',
        [list.length, ticketId],
      );
      let last: number;
      if (bumped) last = Number(bumped.event_seq);
      else if (deletion) {
        const [row] = await statements.all<{ n: number | null }>('ticket_events_last', 'select max(seq) as n from ticket_events where ticket_id = ?', [
          ticketId,
        ]);
        last = Number(row?.n ?? 0) + list.length;
      } else throw AppError.notFound('Ticket');
      first = last - list.length + 1;
      for (const [i, d] of list.entries())
        await statements.all('ticket_events_insert', `insert into ticket_events (${EVENT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
          ticketId,
          first + i,
          (d.at ?? at).getTime(),
          actor.kind,
          actor.userId,
          name,
          ctx.via,
          d.kind,
          JSON.stringify(d.changes),
          d.noteId ?? null,
          d.replyId ?? null,
          d.requesterMessageId ?? null,
          d.assigneeId,
          d.teamId ?? null,
        ]);
    }
    // The entries that can change a report, queued in this same transaction for the reports' fold
    // (services/reports/facts.ts, rollupQueue.ts): every report folds the queue before it reads, so a write is in every
    // report once it commits.
    if (reportFactsOn())
      await queueReportEvents(
        statements,
        ticketId,
        list.map((d) => ({
          kind: d.kind,
          at: (d.at ?? at).getTime(),
          actorKind: actor.kind,
          changes: d.changes,
          assigneeId: d.assigneeId,
          teamId: d.teamId ?? null,
        })),
      );
    list.forEach((d, i) => appended.push({ ticketId, seq: first + i, at: d.at ?? at, assigneeId: d.assigneeId, audience: d.audience }));
  }
  return appended;
}

/** Once a write has committed: its record entries go out live, and this process's rollup folder looks at its queue. */
function publishTimeline(ctx: ServiceContext, appended: AppendedTicketEvent[]): void {
  if (appended.length) wakeRollupFolders(ctx.em);
  for (const e of appended) ticketAccess.publishTimeline(ctx.deps.bus, e.audience ?? { assigneeId: e.assigneeId }, { ticketId: e.ticketId, seq: e.seq });
}

/**
 * Each ticket draft's audience, read in the write's transaction (ticketAccess.audienceOf: the assignee, the team's
 * members, the admins), for its webhook event and its record entry's live signal.
 */
async function ticketAudiences(em: Em, drafts: ChangeDraft[]): Promise<void> {
  const known = new Map<string, number[]>();
  for (const d of drafts) {
    if (!d.ticketEvent) continue;
    const owner = { assigneeId: d.ticketEvent.assigneeId, teamId: d.ticketEvent.teamId };
    const key = `${owner.assigneeId}:${owner.teamId ?? 0}`;
    let agents = known.get(key);
    if (!agents) known.set(key, (agents = await ticketAccess.audienceOf(em, owner)));
    d.ticketEvent.audience = agents;
    if (d.type !== undefined) d.audience = agents;
  }
}

const webhookDrafts = (drafts: ChangeDraft[]) => drafts.filter((d): d is WebhookEventDraft => d.type !== undefined);
const ticketEventDrafts = (drafts: ChangeDraft[]) => drafts.flatMap((d) => (d.ticketEvent ? [d.ticketEvent] : []));

/**
 * Records a change inside a transaction the caller runs: its webhook events go into the outbox now (a ticket's with
 * its record entries, appended for the caller `ctx`), and once that transaction commits, `publish` announces it on
 * the live bus, the record's new seqs go out, and this process's delivery worker is woken (a rolled-back change
 * announces nothing). `em` must be the entity manager an `em.transactional(async (em) => ...)` callback received
 * (its own event manager).
 */
export async function recordEvents(ctx: ServiceContext, em: Em, events: ChangeDraft[], publish?: () => void): Promise<AppendedTicketEvent[]> {
  await ticketAudiences(em, events);
  const appended = await appendTicketEvents(ctx, em, ticketEventDrafts(events));
  const webhooks = webhookDrafts(events);
  await insertEvents(em, webhooks);
  let committed = false;
  em.getEventManager().registerSubscriber({
    afterTransactionCommit: () => {
      if (committed) return;
      committed = true;
      if (webhooks.length) wakeWorkers(em);
      publish?.();
      publishTimeline(ctx, appended);
    },
  });
  return appended;
}

/**
 * Flushes the unit of work and writes the webhook events it caused in one transaction; once committed, announces
 * the change on the live bus (`publish`) and wakes this process's delivery worker. `events` runs after the flush
 * (new records have their ids) and before the commit; so does `afterFlush`, the caller's own fixed statements in the
 * same transaction (prepared once per connection: database.ts transactionStatements).
 */
export async function flushWithEvents(
  ctx: ServiceContext,
  events: () => ChangeDraft | ChangeDraft[],
  publish?: () => void,
  afterFlush?: (statements: TransactionStatements) => Promise<void>,
): Promise<AppendedTicketEvent[]> {
  const em = ctx.em;
  const drafts = () => {
    const made = events();
    return Array.isArray(made) ? made : [made];
  };
  if (em.isInTransaction()) {
    await em.flush();
    if (afterFlush) await afterFlush(await transactionStatements(em));
    return recordEvents(ctx, em, drafts(), publish);
  }
  let appended: AppendedTicketEvent[];
  let webhooks: WebhookEventDraft[];
  await em.begin();
  try {
    await em.flush();
    if (afterFlush) await afterFlush(await transactionStatements(em));
    const made = drafts();
    await ticketAudiences(em, made);
    appended = await appendTicketEvents(ctx, em, ticketEventDrafts(made));
    webhooks = webhookDrafts(made);
    await insertEvents(em, webhooks);
    await em.commit();
  } catch (error) {
    await em.rollback();
    throw error;
  }
  if (webhooks.length) wakeWorkers(em);
  publish?.();
  publishTimeline(ctx, appended);
  return appended;
}

/** The filterable fields of a ticket (entity or record), for the `previous` of a ticket event. */
export function facetsOf(ticket: Ticket | TicketRecord): TicketFacets {
  const requesterId = 'requesterId' in ticket ? ticket.requesterId : ticket.requester.id;
  return { status: ticket.status, priority: ticket.priority, type: ticket.type, requesterId };
}

/** The draft's audience (set by the change log in the transaction) and the agents before (`before`), once each. */
export function eventAudience(draft: WebhookEventDraft | undefined, before: readonly number[] = []): number[] {
  const after = draft && Array.isArray(draft.audience) ? draft.audience : [];
  return [...new Set([...before, ...after])];
}
