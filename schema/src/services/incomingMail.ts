/**
 * Incoming mail (docs/email.md "Incoming mail"): what one mail the SMTP listener accepted becomes, decided
 * once by services/incomingDecision.ts (THE rule, its comment says it all), written here in one transaction with its
 * event record (the change log) and its original; a new ticket by services/incomingTicket.ts.
 *
 * - LOOP: automatic mail is recorded and never answered: on its ticket's thread a held message that never reopens
 *   the ticket; outside a thread only the record (incoming_mails).
 * - THREAD: a reply that names a ticket becomes a RequesterMessage via EMAIL (quoted history and signature stripped);
 *   to a SOLVED ticket it reopens it (an UPDATED event).
 * - HELD: a held RequesterMessage, on the thread's ticket or on a new ticket (a forged mail from a `p=reject`
 *   domain, an agent's mail that is not authenticated or names no requester): the ticket's agents see it and accept
 *   or discard it (settleHeld below); the requester side never does.
 * - TICKET: a new ticket of the sender, or of the customer an agent's authenticated mail forwards.
 * - Refused (BAD_USER_INPUT, the listener's 550): a mail naming more than one From address (RFC 5322 allows one).
 *
 * Each mail is one entry once, on any number of gateways: `(incoming_mails.message_id, content_hash)` is unique,
 * inserted first in the transaction, so a second delivery of the same mail (another gateway, a retrying MTA) is a
 * DUPLICATE, and a different mail reusing its Message-ID an entry of its own (mail/messageId.ts).
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../database.js';
import { AppError } from '../errors.js';
import { IncomingMail, ReplyAttachment, RequesterMessage, Ticket } from '../entities/index.js';
import { messageIdHost } from '../mail/compose.js';
import { forwardedSender } from '../mail/forwarded.js';
import { clean, cut, isOurMessageId, parseIncoming, strippedText, type ParsedIncoming } from '../mail/incoming.js';
import { derivedMessageId } from '../mail/messageId.js';
import { LIMITS } from '../validation/rules.js';
import { toDate } from '../records/index.js';
import { bouncedReply, recordBounce } from './bounces.js';
import { eventAudience, flushWithEvents, recordEvents, webhookEvent, type TicketEventDraft } from './changeLog.js';
import { parseId, requireViewer, type ServiceContext, type ServiceDeps } from './context.js';
import {
  agentOf,
  decide,
  HELD_REASONS,
  requesterEmail,
  threadTicket,
  type Decision,
  type HeldReason,
  type IncomingOutcome,
  type MailAuthResult,
  type Sender,
} from './incomingDecision.js';
import { customerNameFor, keptFiles, MAX_MAIL_ATTACHMENTS, newTicket, UNKNOWN_REQUESTER } from './incomingTicket.js';
import type { RequesterMessageRecord } from './requesterReplies.js';
import * as ticketAccess from './ticketAccess.js';
import { facetsOf, publishTicket } from './tickets.js';
import { recordRequesterMessage, reopenForMessage } from './requesterMessage.js';

export { HELD_REASONS, type HeldReason, type IncomingOutcome, type MailAuthResult } from './incomingDecision.js';
export { customerNameFor, keptFiles, MAX_MAIL_ATTACHMENTS, newTicket, NoMailOwnerError, ticketDescriptionFor, ticketTitleFor } from './incomingTicket.js';

/** One mail as the listener accepted it. */
export interface AcceptedMail {
  raw: Buffer;
  /** The envelope sender (MAIL FROM; '' for a bounce's `<>`). */
  envelopeFrom?: string | null;
  /** null: not checked. */
  auth: MailAuthResult | null;
}

export interface IncomingResult {
  outcome: IncomingOutcome;
  ticketId: number | null;
  requesterMessageId: number | null;
}

/** A RequesterMessage's body, at most (the rest of a long mail is in the original). */
const MAX_BODY = LIMITS.ticketNote.max;

/**
 * Whether this mail was accepted before: its key and content, or its key on a record from before content hashes
 * (''). A cheap look before the work; the unique key decides.
 */
async function seen(em: Em, messageId: string, hash: string): Promise<boolean> {
  const rows = await em
    .getConnection()
    .execute<{ id: number }[]>("select id from incoming_mails where message_id = ? and content_hash in (?, '') limit 1", [messageId, hash]);
  return rows.length > 0;
}

/**
 * Records one accepted mail: resolves once it is committed (the listener answers 250 only then). DUPLICATE when the
 * same Message-ID was accepted before (by this gateway or another). Throws NoMailOwnerError when a new address has
 * no agent to own its ticket; anything else thrown means nothing was written (the listener answers 451).
 */
export async function receiveMail(deps: ServiceDeps, mail: AcceptedMail): Promise<IncomingResult> {
  const parsed = await parseIncoming(mail.raw, mail.envelopeFrom);
  // RFC 5322: one From address (a Sender field would be required for more, and DMARC judges none of them).
  if (parsed.fromCount > 1) throw new AppError('BAD_USER_INPUT', 'A mail must name exactly one From address.');
  const messageId = parsed.messageId && parsed.messageId.length <= 255 ? parsed.messageId : derivedMessageId(parsed.contentHash);
  const duplicate: IncomingResult = { outcome: 'DUPLICATE', ticketId: null, requesterMessageId: null };
  if (await seen(deps.orm.em.fork(), messageId, parsed.contentHash)) return duplicate;
  const files = await keptFiles(parsed);
  // A new address's customer may be created by two mails at once (two gateways): the loser tries once more.
  for (let attempt = 0; ; attempt++) {
    try {
      return await record(deps, mail, parsed, messageId, files);
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      if (await seen(deps.orm.em.fork(), messageId, parsed.contentHash)) return duplicate;
      if (attempt >= 1) throw error;
    }
  }
}

/**
 * Who sent a mail (services/incomingDecision.ts Sender): on a thread, the ticket's requester's address to compare;
 * outside one, whether the From is an agent's and, for an agent's, whom the mail forwards (an agent's or our own
 * address is no requester: no customer is made of it).
 */
async function senderOf(em: Em, parsed: ParsedIncoming, fromEmail: string, ours: string, threadId: number | null): Promise<Sender> {
  if (threadId !== null) return { fromEmail, requester: await requesterEmail(em, threadId), agentId: null, forwarded: null };
  const agentId = await agentOf(em, fromEmail);
  let forwarded = agentId === null ? null : await forwardedSender(parsed);
  if (forwarded && (forwarded.address === ours || (await agentOf(em, forwarded.address)) !== null)) forwarded = null;
  return { fromEmail, requester: null, agentId, forwarded };
}

async function record(
  deps: ServiceDeps,
  mail: AcceptedMail,
  parsed: ParsedIncoming,
  messageId: string,
  files: Awaited<ReturnType<typeof keptFiles>>,
): Promise<IncomingResult> {
  const host = messageIdHost(deps.mail?.publicUrl || 'http://127.0.0.1');
  const fromEmail = parsed.fromAddress ?? (mail.envelopeFrom || '').toLowerCase().slice(0, 255);
  const ownAddress = /<([^<>\s]+@[^<>\s]+)>\s*$|^\s*([^<>\s]+@[^<>\s]+)\s*$/.exec(deps.mail?.from ?? '');
  const ours = (ownAddress?.[1] ?? ownAddress?.[2] ?? '').toLowerCase();
  const automatic =
    parsed.automatic ??
    (parsed.messageId && isOurMessageId(parsed.messageId, host) ? 'our own Message-ID' : null) ??
    (ours && fromEmail === ours ? 'from our own address' : null);
  const ctx: ServiceContext = {
    em: deps.orm.em.fork(),
    viewerId: null,
    deps,
    clientIp: 'smtp',
    via: 'EMAIL',
    requester: { name: customerNameFor(parsed.fromName, fromEmail || 'unknown') },
  };
  let publish: (() => void) | undefined;
  // Who is online, for a default team's auto-assignment: read before the transaction (a Redis round trip).
  const online: ReadonlySet<number> = deps.mail?.defaultTeam ? await deps.presence.onlineUserIds() : new Set();
  const result = await ctx.em.transactional(async (em) => {
    const inner: ServiceContext = { ...ctx, em };
    const entry = em.create(IncomingMail, {
      messageId,
      contentHash: parsed.contentHash,
      ticket: null,
      requesterMessage: null,
      outcome: 'LOOP',
      reason: null,
      cause: automatic ? cut(automatic, 200) : null,
      fromEmail: cut(fromEmail, 255),
      subject: parsed.subject,
      auth: mail.auth ? JSON.stringify(mail.auth) : null,
      text: parsed.text,
      html: parsed.html,
      raw: mail.raw,
      createdAt: new Date(),
    });
    // First: the unique key decides at once whether another gateway has this mail (it waits for that commit).
    await em.flush();
    const thread = await threadTicket(em, parsed, host);
    // A bounce of one of our replies is held (LOOP) on that reply's ticket, which it marks BOUNCED (services/bounces.ts).
    const bounce = automatic ? await bouncedReply(em, mail.raw, parsed, mail.envelopeFrom) : null;
    const decision: Decision = bounce
      ? { outcome: 'LOOP', reason: 'LOOP', ticketId: bounce.ticketId }
      : decide(thread, automatic, mail.auth, parsed, await senderOf(em, parsed, fromEmail, ours, thread && !automatic ? thread.ticketId : null));
    entry.outcome = decision.outcome;
    entry.reason = decision.reason;
    if (decision.outcome === 'LOOP' && decision.ticketId === null) {
      await em.flush();
      return { outcome: decision.outcome, ticketId: null, requesterMessageId: null } satisfies IncomingResult;
    }
    // A forward's words are the forwarded mail: it is kept whole (the reply parser would cut it as quoted history).
    const text = decision.requester ? clean(parsed.text) : clean(strippedText(parsed.text, parsed.images));
    const body = cut(text, MAX_BODY).trim() || '(no text)';
    if (decision.ticketId === null) {
      const requester = decision.requester === 'unknown' ? UNKNOWN_REQUESTER : (decision.requester ?? undefined);
      // An agent's authenticated forward is the agent's doing: they are the history's actor (channel EMAIL).
      const by: ServiceContext = decision.author ? { ...inner, viewerId: decision.author, requester: undefined } : inner;
      const made = await newTicket(by, parsed, fromEmail, body, files, entry, online, { requester, held: decision.reason });
      // Rules (automations) run here on a new ticket, and only when made.runRules: never on a held one until it is accepted.
      publish = made.publish;
      const outcome = decision.outcome;
      return { outcome, ticketId: made.ticketId, requesterMessageId: made.messageId } satisfies IncomingResult;
    }
    const ticket = await em.findOneOrFail(Ticket, decision.ticketId, { populate: ['requester'] });
    const held = decision.outcome !== 'THREAD';
    const allFiles = files.image
      ? [{ filename: files.image.filename, mimeType: files.image.mimeType, byteSize: files.image.byteSize, data: files.image.data }, ...files.files]
      : files.files;
    // Only a real reply from the requester reopens a solved ticket: never a held one, never a loop.
    const write = recordRequesterMessage(
      em,
      ticket,
      { fromEmail: cut(fromEmail, 255), body, via: 'EMAIL', held },
      allFiles.slice(0, MAX_MAIL_ATTACHMENTS),
      decision.reason,
    );
    const message = write.message;
    entry.ticket = ticket;
    entry.requesterMessage = message;
    await em.flush();
    await recordEvents(inner, em, write.drafts());
    const bounced = bounce ? await recordBounce(inner, em, ticket, bounce) : undefined;
    publish = () => {
      publishTicket(ctx, 'UPDATED', ticket, write.event()?.audience ?? [], write.previous);
      bounced?.();
    };
    return { outcome: decision.outcome, ticketId: ticket.id, requesterMessageId: message.id } satisfies IncomingResult;
  });
  publish?.();
  return result;
}

/** What the timeline shows of a mailed message: its authentication result, why it is held, its subject. */
export interface MailDetailsRecord {
  auth: MailAuthResult | null;
  heldReason: HeldReason | null;
  subject: string;
}

/**
 * The mail details of these requester messages (ones the caller has read under the access rule: a timeline page),
 * in one statement. Messages from the requester page have none.
 */
export async function mailDetailsOf(em: Em, messageIds: readonly number[]): Promise<Map<number, MailDetailsRecord>> {
  const found = new Map<number, MailDetailsRecord>();
  if (!messageIds.length) return found;
  const rows = await em
    .getConnection()
    .execute<{ requester_message_id: number | string; auth: string | null; reason: string | null; subject: string }[]>(
      `select requester_message_id, auth, reason, subject from incoming_mails where requester_message_id in (${messageIds.map(() => '?').join(', ')})`,
      [...messageIds],
    );
  for (const r of rows)
    found.set(Number(r.requester_message_id), {
      auth: r.auth ? (JSON.parse(r.auth) as MailAuthResult) : null,
      heldReason: (HELD_REASONS as readonly string[]).includes(r.reason ?? '') ? (r.reason as HeldReason) : null,
      subject: r.subject,
    });
  return found;
}

/** The full original of a mailed message: its whole text and its sanitised HTML (mail/incoming.ts). */
export interface MailOriginalRecord {
  subject: string;
  fromEmail: string;
  text: string;
  html: string | null;
}

/** The original of one requester message of a ticket the viewer may read; NOT_FOUND otherwise (or when it has none). */
export async function mailOriginal(ctx: ServiceContext, rawMessageId: unknown): Promise<MailOriginalRecord> {
  requireViewer(ctx);
  const id = parseId(rawMessageId);
  const access = ticketAccess.readSql(await ticketAccess.scopeOf(ctx));
  const rows = id
    ? await ctx.em.getConnection().execute<MailOriginalRecord[]>(
        `select i.subject, i.from_email as "fromEmail", i.text, i.html from incoming_mails i join tickets t on t.id = i.ticket_id
            where i.requester_message_id = ? and ${access.sql}`,
        [id, ...access.bindings],
      )
    : [];
  if (!rows[0]) throw AppError.notFound('Message');
  return rows[0];
}

/**
 * Accepts or discards a held message of one of the viewer's tickets (the access rule's change check), with its
 * event (HELD_ACCEPTED / HELD_DISCARDED) in the same transaction. Accepted, it joins the public conversation
 * (the requester page shows it) and, as any requester's message that is not held, reopens a SOLVED ticket (an
 * UPDATED change of its own, by the accepting agent: requesterMessage.reopenForMessage, applied when the message
 * joins); discarded, its text, files and original are removed and it stays as a tombstone.
 * A message that is not held is NOT_FOUND for either.
 */
async function settleHeld(ctx: ServiceContext, rawMessageId: unknown, accept: boolean): Promise<RequesterMessageRecord> {
  requireViewer(ctx);
  const id = parseId(rawMessageId);
  const found = id ? await ctx.em.findOne(RequesterMessage, { id, held: true, discardedAt: null }, { fields: ['id', 'ticket'] }) : null;
  if (!found) throw AppError.notFound('Message');
  const ticketId = found.ticket.id;
  await ctx.em.transactional(async (em) => {
    const inner: ServiceContext = { ...ctx, em };
    const ticket = await ticketAccess.findForChange(inner, ticketId);
    const message = await em.findOneOrFail(RequesterMessage, { id: found.id, held: true, discardedAt: null });
    const previous = facetsOf(ticket);
    let reopenedFrom: ReturnType<typeof reopenForMessage> = null;
    if (accept) {
      message.held = false;
      // The mail that opened the ticket, accepted: the ticket has its requester side (page, replies) from now on.
      if (ticket.heldOpeningMessageId === message.id) ticket.heldOpeningMessageId = null;
      reopenedFrom = reopenForMessage(ticket);
    } else {
      message.body = '';
      message.discardedAt = new Date();
      await em.nativeDelete(ReplyAttachment, { requesterMessage: message.id });
      await em.nativeUpdate(IncomingMail, { requesterMessage: message.id }, { text: '', html: null, raw: Buffer.alloc(0) });
    }
    const event: TicketEventDraft = {
      ticketId: ticket.id,
      kind: accept ? 'HELD_ACCEPTED' : 'HELD_DISCARDED',
      changes: [],
      requesterMessageId: message.id,
      assigneeId: ticketAccess.audienceOwner(ticket),
      teamId: ticketAccess.audienceTeam(ticket),
    };
    const reopen = reopenedFrom ? webhookEvent.ticket('UPDATED', ticket, reopenedFrom) : null;
    await flushWithEvents(
      inner,
      () => [{ ticketEvent: event }, ...(reopen ? [reopen] : [])],
      // The reopened ticket's agents' lists hear of its status (its audience, read by the change log in the transaction).
      reopen ? () => publishTicket(inner, 'UPDATED', ticket, eventAudience(reopen), previous) : undefined,
    );
  });
  return requesterMessageRecord(ctx, found.id);
}

export const acceptRequesterMessage = (ctx: ServiceContext, rawMessageId: unknown) => settleHeld(ctx, rawMessageId, true);
export const discardRequesterMessage = (ctx: ServiceContext, rawMessageId: unknown) => settleHeld(ctx, rawMessageId, false);

/** One requester message as the timeline shows it (its MESSAGE_RECEIVED entry), read under the access rule. */
async function requesterMessageRecord(ctx: ServiceContext, id: number): Promise<RequesterMessageRecord> {
  const access = ticketAccess.readSql(await ticketAccess.scopeOf(ctx));
  const [r] = await ctx.em.getConnection().execute<
    {
      id: number | string;
      ticket_id: number | string;
      from_email: string;
      body: string;
      via: string;
      held: boolean | number;
      discarded_at: unknown;
      seq: number | string | null;
      at: unknown;
    }[]
  >(
    `select m.id, m.ticket_id, m.from_email, m.body, m.via, m.held, m.discarded_at, e.seq, e.at
       from requester_messages m join tickets t on t.id = m.ticket_id
       left join ticket_events e on e.ticket_id = m.ticket_id and e.kind = 'MESSAGE_RECEIVED' and e.requester_message_id = m.id
      where m.id = ? and ${access.sql}`,
    [id, ...access.bindings],
  );
  if (!r) throw AppError.notFound('Message');
  return {
    entry: 'requesterMessage',
    id: Number(r.id),
    ticketId: Number(r.ticket_id),
    seq: Number(r.seq ?? 0),
    at: r.at == null ? new Date(0) : toDate(r.at),
    fromEmail: r.from_email,
    body: r.body,
    via: r.via as RequesterMessageRecord['via'],
    held: !!r.held,
    discardedAt: r.discarded_at == null ? null : toDate(r.discarded_at),
  };
}
