/**
 * The change log of the domain: the one seam every write of the service layer passes to record what it changed.
 * A change is written with its webhook event (the outbox, webhooks/outbox.ts) in the same database transaction,
 * so the event is committed exactly when the change is and a rolled-back write leaves none; its live bus event
 * (the service's `publish` callback) goes out from here once that transaction has committed, never before. The event's audience
 * comes from the read rules (a ticket's from services/ticketAccess.ts), its data from the plain records.
 */
import type { Customer, Macro, Message, Ticket } from '../entities/index.js';
import type { Em } from '../database.js';
import { ticketRecordOf } from '../records/index.js';
import { insertEvents, wakeWorkers, type WebhookEventDraft } from '../webhooks/outbox.js';
import type { ServiceContext } from './context.js';
import * as ticketAccess from './ticketAccess.js';

export type { WebhookEventDraft };

type Kind = 'CREATED' | 'UPDATED' | 'DELETED';
type Data = Record<string, unknown>;

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

/**
 * Records a change inside a transaction the caller runs: its webhook events go into the outbox now, and once that
 * transaction commits, `publish` announces it on the live bus and this process's delivery worker is woken (a
 * rolled-back change announces nothing). `em` must be the entity manager an `em.transactional(async (em) => ...)`
 * callback received (its own event manager).
 */
export async function recordEvents(em: Em, events: WebhookEventDraft[], publish?: () => void): Promise<void> {
  await insertEvents(em, events);
  let committed = false;
  em.getEventManager().registerSubscriber({
    afterTransactionCommit: () => {
      if (committed) return;
      committed = true;
      if (events.length) wakeWorkers(em);
      publish?.();
    },
  });
}

/**
 * Flushes the unit of work and writes the webhook events it caused in one transaction; once committed, announces
 * the change on the live bus (`publish`) and wakes this process's delivery worker. `events` runs after the flush
 * (new records have their ids) and before the commit.
 */
export async function flushWithEvents(ctx: ServiceContext, events: () => WebhookEventDraft | WebhookEventDraft[], publish?: () => void): Promise<void> {
  const em = ctx.em;
  const drafts = () => {
    const made = events();
    return Array.isArray(made) ? made : [made];
  };
  if (em.isInTransaction()) {
    await em.flush();
    await recordEvents(em, drafts(), publish);
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
  publish?.();
}
