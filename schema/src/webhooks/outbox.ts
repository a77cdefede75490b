/**
 * The webhook outbox: the table of events the delivery engine (engine.ts) fans out to the endpoints whose owner
 * may read the record and delivers. The services write it through their change log (services/changeLog.ts), in
 * the same database transaction as the change: the event is committed exactly when the change is, so a gateway
 * killed right after acknowledging a write still has the event on disk, and a rolled-back write leaves none.
 */
import type { Knex } from '@mikro-orm/knex';
import { randomBytes } from 'node:crypto';
import type { Em } from '../database.js';
import type { WebhookEventTypeName } from '../validation/rules.js';

type Data = Record<string, unknown>;

export interface WebhookEventDraft {
  type: WebhookEventTypeName;
  /** Who may read the record: everyone (the shared customer directory) or these agents. */
  audience: 'all' | number[];
  /** The record after the change (before it, for a deletion). */
  data: Data;
  /** On updates: each changed field with its previous value. */
  previous?: Data;
  /** On TICKET_UPDATED: the field changes of the ticket's event record ({field, from, to}, GraphQL spelling). */
  changes?: { field: string; from: string | null; to: string | null }[];
}

/** The JSON body every endpoint receives for an event (Standard Webhooks: type, timestamp, data). */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Data;
  previous?: Data;
  changes?: WebhookEventDraft['changes'];
}

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
  const payload: WebhookPayload = {
    type: event.type,
    timestamp: at.toISOString(),
    data: event.data,
    ...(event.previous ? { previous: event.previous } : {}),
    ...(event.changes ? { changes: event.changes } : {}),
  };
  return JSON.stringify(payload);
}

/** Inserts the events' outbox rows in the entity manager's current transaction (if any). */
export async function insertEvents(em: Em, events: WebhookEventDraft[]): Promise<void> {
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

/** Wakes this process's delivery workers (batched): call once the transaction that wrote events has committed. */
export function wakeWorkers(em: Em): void {
  const key = em.config;
  if (wakeScheduled.has(key)) return;
  wakeScheduled.add(key);
  setTimeout(() => {
    wakeScheduled.delete(key);
    for (const wake of workers.get(key) ?? []) wake();
  }, WAKE_BATCH_MS);
}
