/**
 * Public replies to the requester: an agent's reply is a timeline entry (REPLY_ADDED) and one mail,
 * written with its mail-outbox row in one transaction (the change log's); mail/sender.ts sends it. Without a mail
 * server the reply is kept as NOT_CONFIGURED. The mail is composed from the reply alone (mail/compose.ts).
 * Who may reply is decided by services/ticketAccess.ts.
 */
import { randomBytes } from 'node:crypto';
import { raw } from '@mikro-orm/core';
import { dateBinding, preparedRead } from '../database.js';
import { AppError } from '../errors.js';
import { ReplyAttachment, TicketReply, User } from '../entities/index.js';
import { composeReplyMail, messageIdHost } from '../mail/compose.js';
import { earlierIds } from '../mail/references.js';
import { toDate } from '../records/index.js';
import { MESSAGES, hasErrors, isTicketStatus, validateTicketReply } from '../validation/rules.js';
import { flushWithEvents, ticketData, webhookEvent, type ChangeDraft, type TicketEventDraft } from './changeLog.js';
import { parseId, requireViewer, type ServiceContext, type ServiceDeps } from './context.js';
import { checkAttachments, type IncomingFile } from './replyAttachments.js';
import { ensureToken, linkUrl } from './requesterLinks.js';
import * as ticketAccess from './ticketAccess.js';
import { facetsOf, publishTicket } from './tickets.js';

/** A reply's mail into the outbox (the MailOutboxEntry entity's table and columns). */
const OUTBOX_INSERT = 'insert into mail_outbox (reply_id, message, state, attempts, next_attempt_at, created_at) values (?, ?, ?, ?, ?, ?)';

export const DELIVERY_STATES = ['QUEUED', 'SENT', 'FAILED', 'NOT_CONFIGURED', 'BOUNCED'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface TicketReplyRecord {
  entry: 'reply';
  id: number;
  ticketId: number;
  seq: number;
  at: Date;
  authorId: number;
  body: string;
  delivery: { state: DeliveryState; attempts: number; lastResponse: string | null };
}

export interface RequesterMessageRecord {
  entry: 'requesterMessage';
  id: number;
  ticketId: number;
  seq: number;
  at: Date;
  fromEmail: string;
  body: string;
  via: 'EMAIL' | 'REQUESTER_PAGE';
  held: boolean;
  /** A held message an agent discarded (its text is gone). */
  discardedAt: Date | null;
}

/**
 * Sends a public reply to the requester of one of the viewer's tickets, with its files (services/replyAttachments.ts:
 * checked before anything is written, stored in the reply's transaction, attached to its mail by mail/sender.ts).
 * With `setStatus` ("Send and set Pending/Solved") the ticket's status changes in the reply's transaction: one
 * history entry each (the reply's, then the status change's when the status differs); a refused status writes nothing.
 */
export async function replyToRequester(
  ctx: ServiceContext,
  rawTicketId: unknown,
  body: unknown,
  files?: readonly IncomingFile[] | null,
  setStatus?: unknown,
): Promise<TicketReplyRecord> {
  const viewerId = requireViewer(ctx);
  const fields = validateTicketReply({ body });
  if (setStatus !== undefined && setStatus !== null && !isTicketStatus(setStatus)) fields.setStatus = [MESSAGES.ticketStatus];
  if (hasErrors(fields)) throw AppError.validation(fields);
  const attachments = await checkAttachments(files);
  const text = body as string;
  const settings = ctx.deps.mail;
  const host = messageIdHost(settings?.publicUrl ?? 'http://127.0.0.1');
  const configured = !!settings?.configured;
  const at = new Date();
  const em = ctx.em;
  // The reads come before the write's transaction, as a note's do (services/ticketTimeline.ts): the transaction holds
  // only the writes and the change log's statements (on PostgreSQL each statement is a round trip inside it, and on
  // SQLite the writer's lock is held for its length).
  const ticket = await ticketAccess.findForChange(ctx, rawTicketId);
  // Opened by a mail held for review: its requester may never have written; nothing is mailed until it is accepted.
  if (ticket.heldOpeningMessageId != null) throw AppError.validation({ body: [MESSAGES.heldOpening] });
  // One statement reads what the reply and its mail need besides the ticket: the requester's address and name, the
  // author's name, the link's nonce, and the Message-IDs of the ticket's conversation for the mail's threading
  // headers (mail/references.ts): the last 60 of our replies and the requester's mails that joined it (not held),
  // and the requester's first such mail however old (one row each, newest first; one row of nulls when none).
  // A statement prepared once per process (database.preparedRead): a reply's own reads cost what a note's do.
  const rows = await preparedRead<{
    email: string;
    name: string;
    username: string;
    nonce: string | null;
    mail_message_id: string | null;
    requester: number | string | null;
  }>(
    em,
    'reply_context',
    `select c.email, c.name, u.username, l.nonce, r.mid as mail_message_id, r.requester
       from customers c
       cross join users u
       left join requester_links l on l.ticket_id = ?
       left join (select at, mid, requester, head from (
           select created_at as at, mail_message_id as mid, 0 as requester, 0 as head from ticket_replies where ticket_id = ?
           union all
           select i.created_at, i.message_id, 1, case when i.id = (select min(f.id) from incoming_mails f join requester_messages fm
                    on fm.id = f.requester_message_id where f.ticket_id = ? and not fm.held and fm.discarded_at is null) then 1 else 0 end
             from incoming_mails i join requester_messages m on m.id = i.requester_message_id
            where i.ticket_id = ? and not m.held and m.discarded_at is null
         ) x order by head desc, at desc limit 61) r on 1 = 1
      where c.id = ? and u.id = ?
      order by r.at desc`,
    [ticket.id, ticket.id, ticket.id, ticket.id, ticket.requester.id, viewerId],
  );
  const who = rows[0];
  if (!who) throw AppError.notFound('Ticket');
  // The link's row is made on the ticket's first reply, before the reply's transaction: a link is the ticket's, not
  // the reply's (Ticket.requesterLink makes it on first read too), so a reply that fails after it loses nothing.
  const token = configured ? await ensureToken(ctx, em, ticket.id, who.nonce) : null;
  const reply = em.create(TicketReply, {
    ticket,
    author: em.getReference(User, viewerId),
    body: text,
    toEmail: who.email,
    mailMessageId: `<reply-${randomBytes(12).toString('hex')}@${host}>`,
    deliveryState: configured ? 'QUEUED' : 'NOT_CONFIGURED',
    deliveryAttempts: 0,
    deliveryLastResponse: null,
    createdAt: at,
  });
  for (const file of attachments) em.create(ReplyAttachment, { ticket, reply, requesterMessage: null, ...file, createdAt: at });
  // The reply's mail (mail_outbox, drained by mail/sender.ts), written after the flush in the reply's transaction by a
  // statement prepared once per connection: the unit of work's insert of a second entity cost the reply as much as
  // its record entry (bench row 11b).
  let outbox: string | null = null;
  if (configured && token !== null) {
    const mail = composeReplyMail(
      {
        from: settings.from,
        toEmail: who.email,
        toName: who.name,
        ticketId: ticket.id,
        threadToken: ticket.threadToken ?? null,
        // The mail's whole subject for a ticket that came by mail (Ticket.subject), else the title.
        ticketTitle: ticket.subject ?? ticket.title,
        authorName: who.username,
        body: text,
        link: linkUrl(ctx, token),
        messageId: reply.mailMessageId,
        earlier: earlierIds(rows.flatMap((r) => (r.mail_message_id ? [{ messageId: r.mail_message_id, requester: Number(r.requester) === 1 }] : [])).reverse()),
      },
      host,
    );
    outbox = JSON.stringify(mail);
  }
  const previous = facetsOf(ticket);
  // The status change rides in the same unit of work: the ticket's row, its version and its TICKET_UPDATED event.
  const before = isTicketStatus(setStatus) && setStatus !== ticket.status ? ticketData(ticket) : null;
  if (before) {
    ticket.status = setStatus as typeof ticket.status;
    ticket.updatedAt = at;
    ticket.version = raw('version + 1');
  }
  // Drafted after the flush (the reply has its id); the change log sets its audience in the transaction. The reply,
  // its files, its outbox row and its event commit together (changeLog.flushWithEvents).
  let event: TicketEventDraft | undefined;
  const appended = await flushWithEvents(
    ctx,
    () => {
      const drafts: ChangeDraft[] = [
        {
          // Once, when the reply commits, with its delivery state then; delivery changes are replyDeliveryEvents'.
          type: 'TICKET_REPLY_ADDED',
          audience: [],
          data: { id: reply.id, ticketId: ticket.id, authorId: viewerId, createdAt: at, delivery: { state: reply.deliveryState } },
          ticketEvent: (event = {
            ticketId: ticket.id,
            kind: 'REPLY_ADDED',
            changes: [],
            replyId: reply.id,
            assigneeId: ticketAccess.audienceOwner(ticket),
            teamId: ticketAccess.audienceTeam(ticket),
          }),
        },
      ];
      if (before) drafts.push(webhookEvent.ticket('UPDATED', ticket, before));
      return drafts;
    },
    // The ticket's agents' lists hear of it (its audience, read by the change log in the transaction): it is no
    // longer awaiting a reply.
    () => publishTicket(ctx, 'UPDATED', ticket, event?.audience ?? [], previous),
    async (statements) => {
      if (outbox === null) return;
      const when = dateBinding(statements.postgres ? 'postgresql' : 'sqlite', at.getTime());
      await statements.all('mail_outbox_insert', OUTBOX_INSERT, [reply.id, outbox, 'pending', 0, when, when]);
    },
  );
  if (configured) settings.wake?.();
  return {
    entry: 'reply',
    id: reply.id,
    ticketId: ticket.id,
    seq: appended[0].seq,
    at: appended[0].at,
    authorId: viewerId,
    body: text,
    delivery: { state: reply.deliveryState as DeliveryState, attempts: 0, lastResponse: null },
  };
}

/**
 * Replies' mails changed state (mail/sender.ts, one batch): each ticket's agents hear of its replies on their
 * `replyDelivery` topic (the ticket's audience now, services/ticketAccess.ts; one read of the batch's tickets and one
 * audience read per distinct owner); the subscription re-reads each reply under the listener's rights.
 */
export async function announceDelivery(deps: ServiceDeps, changes: readonly { ticketId: number; replyId: number }[]): Promise<void> {
  if (!changes.length) return;
  const em = deps.orm.em.fork();
  const ticketIds = [...new Set(changes.map((c) => c.ticketId))];
  const rows = await em
    .getConnection()
    .execute<{ id: number | string; assignee_id: number | string | null; team_id: number | string | null }[]>(
      `select id, assignee_id, team_id from tickets where id in (${ticketIds.map(() => '?').join(', ')})`,
      ticketIds,
    );
  const audiences = new Map<string, Promise<number[]>>();
  const owners = new Map(
    rows.map((row) => {
      const owner = { assigneeId: row.assignee_id, teamId: row.team_id };
      const key = `${row.assignee_id}:${row.team_id}`;
      if (!audiences.has(key)) audiences.set(key, ticketAccess.audienceOf(em, owner));
      return [Number(row.id), key];
    }),
  );
  for (const change of changes) {
    const key = owners.get(change.ticketId);
    if (key) ticketAccess.publishReplyDelivery(deps.bus, await audiences.get(key)!, change);
  }
}

/** One reply of a ticket the viewer may read, with its delivery state now; NOT_FOUND otherwise. */
export async function replyRecord(ctx: ServiceContext, rawReplyId: unknown): Promise<TicketReplyRecord> {
  const scope = await ticketAccess.scopeOf(ctx);
  const id = parseId(rawReplyId);
  const access = ticketAccess.readSql(scope);
  const rows = id
    ? await ctx.em.getConnection().execute<
        {
          id: number | string;
          ticket_id: number | string;
          author_id: number | string;
          body: string;
          delivery_state: string;
          delivery_attempts: number | string;
          delivery_last_response: string | null;
          seq: number | string | null;
          at: unknown;
        }[]
      >(
        `select r.id, r.ticket_id, r.author_id, r.body, r.delivery_state, r.delivery_attempts, r.delivery_last_response, e.seq, e.at
           from ticket_replies r join tickets t on t.id = r.ticket_id
           left join ticket_events e on e.ticket_id = r.ticket_id and e.kind = 'REPLY_ADDED' and e.reply_id = r.id
          where r.id = ? and ${access.sql}`,
        [id, ...access.bindings],
      )
    : [];
  const r = rows[0];
  if (!r) throw AppError.notFound('Reply');
  return {
    entry: 'reply',
    id: Number(r.id),
    ticketId: Number(r.ticket_id),
    seq: Number(r.seq ?? 0),
    at: r.at == null ? new Date(0) : toDate(r.at),
    authorId: Number(r.author_id),
    body: r.body,
    delivery: { state: r.delivery_state as DeliveryState, attempts: Number(r.delivery_attempts), lastResponse: r.delivery_last_response },
  };
}

/**
 * Of these tickets (ones the caller has read), which have an unanswered requester message: their last public entry
 * is the requester's (a held message is no one's word yet). One statement for a page of tickets (the dashboard's `Ticket.awaitingReply`).
 */
export async function awaitingReply(ctx: ServiceContext, ticketIds: readonly number[]): Promise<Map<number, boolean>> {
  const result = new Map<number, boolean>(ticketIds.map((id) => [id, false]));
  if (!ticketIds.length) return result;
  const marks = ticketIds.map(() => '?').join(', ');
  const rows = await ctx.em.getConnection().execute<{ ticket_id: number | string; kind: string }[]>(
    `select e.ticket_id, e.kind from ticket_events e
      where e.ticket_id in (${marks}) and e.kind in ('REPLY_ADDED', 'MESSAGE_RECEIVED')
        and e.seq = (select max(f.seq) from ticket_events f where f.ticket_id = e.ticket_id and f.kind in ('REPLY_ADDED', 'MESSAGE_RECEIVED')
          and not exists (select 1 from requester_messages h where h.id = f.requester_message_id and h.held))`,
    [...ticketIds],
  );
  for (const r of rows) result.set(Number(r.ticket_id), r.kind === 'MESSAGE_RECEIVED');
  return result;
}
