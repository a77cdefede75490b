/**
 * The webhook outbox. Every write of the service layer records the events it causes here, in the same database
 * transaction as the change: the event is committed exactly when the change is, so a gateway killed right after
 * acknowledging a write still has the event on disk, and a rolled-back write leaves none. The delivery worker
 * (worker.ts) fans events out to the endpoints whose owner may read the record and delivers them.
 */
import type { Knex } from '@mikro-orm/knex';
import { randomBytes } from 'node:crypto';
import type { Customer, Macro, Message, Ticket } from '../entities/index.js';
import type { Em } from '../database.js';
import type { ServiceContext } from '../services/context.js';
import { ticketRecordOf } from '../services/records.js';
import * as ticketAccess from '../services/ticketAccess.js';
import type { WebhookEventTypeName } from '../validation/rules.js';

type Kind = 'CREATED' | 'UPDATED' | 'DELETED';
type Data = Record<string, unknown>;

export interface WebhookEventDraft {
  type: WebhookEventTypeName;
  /** Who may read the record: everyone (the shared customer directory) or these agents. */
  audience: 'all' | number[];
  /** The record after the change (before it, for a deletion). */
  data: Data;
  /** On updates: each changed field with its previous value. */
  previous?: Data;
}

/** The JSON body every endpoint receives for an event (Standard Webhooks: type, timestamp, data). */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Data;
  previous?: Data;
}

export function ticketData(t: Ticket): Data {
  // The service's record of the ticket (services/records.ts), its image without the ticket id it sits under.
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
  return {
    type: `${entity}_${kind}`,
    audience,
    data,
    ...(kind === 'UPDATED' && before ? { previous: previousValues(before, data) } : {}),
  };
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

export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

export function audienceColumn(audience: WebhookEventDraft['audience']): string {
  return audience === 'all' ? '*' : audience.join(',');
}

export function parseAudience(column: string): 'all' | number[] {
  return column === '*' ? 'all' : column.split(',').filter(Boolean).map(Number);
}

export function payloadOf(event: WebhookEventDraft, at: Date): string {
  const payload: WebhookPayload = { type: event.type, timestamp: at.toISOString(), data: event.data, ...(event.previous ? { previous: event.previous } : {}) };
  return JSON.stringify(payload);
}

async function insertEvents(em: Em, events: WebhookEventDraft[]): Promise<void> {
  if (!events.length) return;
  const now = new Date();
  const rows = events.map((e) => ({
    message_id: newMessageId(),
    type: e.type,
    audience: audienceColumn(e.audience),
    payload: payloadOf(e, now),
    fanned_out: false,
    created_at: now,
  }));
  const trx = em.getTransactionContext<Knex.Transaction>();
  const insert = em.getKnex().insert(rows).into('webhook_events');
  await (trx ? insert.transacting(trx) : insert);
}

/**
 * Writes the events into the outbox inside a transaction the caller runs: `em` must be the entity manager an
 * `em.transactional(async (em) => ...)` callback received (its own event manager), so this process's delivery
 * worker can be woken once that transaction commits.
 */
export async function recordEvents(em: Em, events: WebhookEventDraft[]): Promise<void> {
  if (!events.length) return;
  await insertEvents(em, events);
  let woken = false;
  em.getEventManager().registerSubscriber({
    afterTransactionCommit: () => {
      if (woken) return;
      woken = true;
      wakeWorkers(em);
    },
  });
}

/**
 * Flushes the unit of work and writes the events it caused in one transaction, then wakes this process's
 * delivery worker. `events` runs after the flush (new records have their ids) and before the commit.
 */
export async function flushWithEvents(ctx: ServiceContext, events: () => WebhookEventDraft | WebhookEventDraft[]): Promise<void> {
  const em = ctx.em;
  const drafts = () => {
    const made = events();
    return Array.isArray(made) ? made : [made];
  };
  if (em.isInTransaction()) {
    await em.flush();
    await insertEvents(em, drafts());
    return;
  }
  await em.begin();
  try {
    await em.flush();
    await insertEvents(em, drafts());
    await em.commit();
  } catch (error) {
    await em.rollback();
    throw error;
  }
  wakeWorkers(em);
}

// The workers of this process, per database (keyed by the ORM's configuration, which every fork shares).
const workers = new WeakMap<object, Set<() => void>>();

export function onOutboxWrite(em: Em, wake: () => void): () => void {
  const key = em.config;
  let set = workers.get(key);
  if (!set) workers.set(key, (set = new Set()));
  set.add(wake);
  return () => set.delete(wake);
}

/**
 * How long a commit's wake-up waits for the commits after it. Each pass of the delivery worker costs about ten
 * statements (probe, fan-out transaction, claim probe, idle check) whatever the number of new events, and woken once
 * per commit it ran a pass per write: more statements than the write itself. Batched, a pass per window handles
 * every event committed meanwhile, and a delivery waits at most this much longer (the promise is "within a second").
 */
const WAKE_BATCH_MS = 10;
const wakeScheduled = new WeakSet<object>();

function wakeWorkers(em: Em): void {
  const key = em.config;
  if (wakeScheduled.has(key)) return;
  wakeScheduled.add(key);
  setTimeout(() => {
    wakeScheduled.delete(key);
    for (const wake of workers.get(key) ?? []) wake();
  }, WAKE_BATCH_MS);
}
