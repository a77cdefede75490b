/**
 * A bounce of one of our replies (docs/email.md "Bounces"): services/incomingMail.ts records the bounce itself as a
 * held LOOP message on the reply's ticket (never public, never reopening, never answered); here the reply's
 * `delivery` becomes BOUNCED with the bounce's Diagnostic-Code (else its Status) as `lastResponse`, in the same
 * transaction, with one TICKET_REPLY_BOUNCED webhook event (to the ticket's audience, the access rule); once
 * committed the reply's agents hear of the new delivery state live (replyDeliveryEvents).
 */
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { TicketReply, type Ticket } from '../entities/index.js';
import { isBounce, readBounce } from '../mail/bounces.js';
import type { ParsedIncoming } from '../mail/incoming.js';
import { recordEvents } from './changeLog.js';
import type { ServiceContext } from './context.js';
import * as ticketAccess from './ticketAccess.js';
import { announceDelivery } from './requesterReplies.js';

export interface BouncedReply {
  replyId: number;
  ticketId: number;
  diagnostic: string;
}

/**
 * The reply of ours a bounce returns (the newest of the Message-IDs it quotes that is one of our replies'), or null:
 * not a bounce (an auto-reply, a list), or one of mail that is not ours.
 */
export async function bouncedReply(em: Em, raw: Buffer, parsed: ParsedIncoming, envelopeFrom: string | null | undefined): Promise<BouncedReply | null> {
  if (!isBounce(raw, parsed, envelopeFrom)) return null;
  const report = readBounce(raw, parsed);
  const ids = (report?.returnedIds ?? []).filter((id) => id.startsWith('<reply-')).slice(0, 20);
  if (!report || !ids.length) return null;
  const [row] = await em
    .getConnection()
    .execute<{ id: number | string; ticket_id: number | string }[]>(
      `select id, ticket_id from ticket_replies where mail_message_id in (${ids.map(() => '?').join(', ')}) order by id desc limit 1`,
      ids,
      'all',
      em.getTransactionContext<Knex.Transaction>(),
    );
  return row ? { replyId: Number(row.id), ticketId: Number(row.ticket_id), diagnostic: report.diagnostic } : null;
}

/**
 * Marks the reply BOUNCED in the caller's transaction, with its TICKET_REPLY_BOUNCED event the first time only (a
 * second bounce of the same reply changes nothing). Returns what to announce once committed.
 */
export async function recordBounce(ctx: ServiceContext, em: Em, ticket: Ticket, bounce: BouncedReply): Promise<(() => void) | undefined> {
  const changed = await em.nativeUpdate(
    TicketReply,
    { id: bounce.replyId, deliveryState: { $ne: 'BOUNCED' } },
    { deliveryState: 'BOUNCED', deliveryLastResponse: bounce.diagnostic },
  );
  if (!changed) return undefined;
  const audience = await ticketAccess.audienceOf(em, ticket);
  await recordEvents(ctx, em, [
    {
      type: 'TICKET_REPLY_BOUNCED',
      audience,
      data: { id: bounce.replyId, ticketId: ticket.id, delivery: { state: 'BOUNCED', lastResponse: bounce.diagnostic } },
    },
  ]);
  return () => void announceDelivery(ctx.deps, [{ ticketId: ticket.id, replyId: bounce.replyId }]).catch(() => undefined);
}
