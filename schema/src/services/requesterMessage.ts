/**
 * A requester's message on a ticket, whichever door it came through (the requester page, or mail through the SMTP
 * listener, on a thread or as a new ticket's first entry): the one place that writes the message with its files and
 * decides the reopen. A message that is not
 * held, on a SOLVED or PENDING ticket, reopens it (status OPEN, an UPDATED webhook event of its own); a held one never does.
 * The caller flushes and hands `drafts()` to the change log in its transaction, then publishes with `previous`.
 */
import type { Em } from '../database.js';
import { ReplyAttachment, RequesterMessage, type Ticket } from '../entities/index.js';
import { ticketData, webhookEvent, type ChangeDraft, type TicketEventDraft } from './changeLog.js';
import type { CheckedAttachment } from './replyAttachments.js';
import * as ticketAccess from './ticketAccess.js';
import { facetsOf } from './tickets.js';

export interface RequesterMessageInput {
  fromEmail: string;
  body: string;
  via: 'EMAIL' | 'REQUESTER_PAGE';
  held: boolean;
}

export interface RequesterMessageWrite {
  message: RequesterMessage;
  reopened: boolean;
  /** The ticket's facets before the message, for the live ticket event. */
  previous: ReturnType<typeof facetsOf>;
  /** The MESSAGE_RECEIVED event (once `drafts()` made it: the change log sets its audience in the transaction). */
  event: () => TicketEventDraft | undefined;
  /** The change log's drafts, made after the flush (the message has its id). */
  drafts: () => ChangeDraft[];
}

/**
 * A requester's message joins the conversation (sent, or a held one accepted: services/incomingMail.ts): a SOLVED
 * or PENDING ticket reopens. Returns the ticket's data before the reopen (for its UPDATED change), or null when it stays as it is.
 */
export function reopenForMessage(ticket: Ticket): ReturnType<typeof ticketData> | null {
  // PENDING waits for the requester: their answer ends the wait (as Zendesk, Freshdesk and Help Scout do), or the
  // list would read "Pending" beside "Awaiting reply".
  if (ticket.status !== 'SOLVED' && ticket.status !== 'PENDING') return null;
  const before = ticketData(ticket);
  ticket.status = 'OPEN';
  ticket.updatedAt = new Date();
  return before;
}

export function recordRequesterMessage(
  em: Em,
  ticket: Ticket,
  input: RequesterMessageInput,
  files: readonly CheckedAttachment[],
  heldReason: string | null = null,
): RequesterMessageWrite {
  const createdAt = new Date();
  const message = em.create(RequesterMessage, { ticket, ...input, createdAt });
  for (const file of files) em.create(ReplyAttachment, { ticket, reply: null, requesterMessage: message, ...file, createdAt });
  const previous = facetsOf(ticket);
  const before = input.held ? null : reopenForMessage(ticket);
  const reopened = before !== null;
  let event: TicketEventDraft | undefined;
  return {
    message,
    reopened,
    previous,
    event: () => event,
    drafts: () => [
      {
        // Names the message, never its text or files (as TICKET_NOTE_ADDED): read them with the ticket's timeline.
        type: 'TICKET_REQUESTER_MESSAGE_ADDED',
        audience: [],
        data: {
          id: message.id,
          ticketId: ticket.id,
          via: input.via,
          held: input.held,
          heldReason: input.held ? (heldReason ?? 'SENDER') : null,
          createdAt,
        },
        ticketEvent: (event = {
          ticketId: ticket.id,
          kind: 'MESSAGE_RECEIVED',
          changes: [],
          requesterMessageId: message.id,
          assigneeId: ticketAccess.audienceOwner(ticket),
          teamId: ticketAccess.audienceTeam(ticket),
        }),
      },
      ...(before ? [webhookEvent.ticket('UPDATED', ticket, before)] : []),
    ],
  };
}
