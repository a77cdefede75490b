/**
 * The requester's side: THE one predicate of what a requester may see of a ticket, and their answers.
 *
 * A requester holds a link (services/requesterLinks.ts), not an account. Through it they see the ticket's title
 * and status and its public entries only: the agents' replies (by the agent's name) and their own messages, in
 * order. Everything the requester side shows is read here, by `publicEntries`, into its own types
 * (`RequesterTicketView`), which have no field for anything else: no note, no note count, no seq (which would
 * count the notes between entries), no agent email, no id of another record. The requester page
 * (gateway/src/requester/) renders this view and nothing else; the leak property test
 * (services/requesterLeak.test.ts) checks every page and mail against random timelines of notes and replies.
 *
 * A link shows the public entries after the seq its view starts at (services/requesterLinks.ts): a link drawn for a
 * new requester shows nothing said to the one before.
 *
 * The token is looked up first: a known link is never refused by the guess budget. Wrong, revoked or malformed
 * tokens find nothing (NOT_FOUND, the same answer for each) and count as guesses against the client address's
 * budget (the API-token guess limit, services/authLimiter.ts): past it, RATE_LIMITED. Answers have budgets of
 * their own (per link and per address, an hour; per ticket, the bytes of files held).
 */
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { AppError } from '../errors.js';
import { Ticket } from '../entities/index.js';
import { toDate } from '../records/index.js';
import { MESSAGES, hasErrors, requesterAnswerLimitMessage, validateRequesterMessage, type TicketStatus } from '../validation/rules.js';
import { REQUESTER_ANSWER_WINDOW_SECONDS } from './authLimiter.js';
import { flushWithEvents } from './changeLog.js';
import { parseId, type ServiceContext } from './context.js';
import { linkOfToken, tokenHash } from './requesterLinks.js';
import { checkAttachments, type AttachmentRow, type CheckedAttachment, type IncomingFile } from './replyAttachments.js';
import { publishTicket } from './tickets.js';
import { recordRequesterMessage } from './requesterMessage.js';

/** The event kinds a requester sees: the public ones. Every other kind (notes, changes) is internal. */
export const PUBLIC_EVENT_KINDS = ['REPLY_ADDED', 'MESSAGE_RECEIVED'] as const;

/**
 * A file of a public entry, as the requester sees it: `n` numbers the ticket's public files 1, 2, 3... in upload
 * order (the page links `?file=<n>` under the requester's own link); no record id.
 */
export interface RequesterFile {
  n: number;
  filename: string;
  mimeType: string;
  byteSize: number;
}

/** One public entry, as the requester sees it. */
export type RequesterEntry =
  { kind: 'reply'; at: Date; authorName: string; body: string; files: RequesterFile[] } | { kind: 'message'; at: Date; body: string; files: RequesterFile[] };

/** Everything the requester side may show of a ticket. */
export interface RequesterTicketView {
  title: string;
  status: TicketStatus;
  /** The requester's own name (the page greets them). */
  requesterName: string;
  /** Oldest first; at most the last PUBLIC_ENTRIES_SHOWN. */
  entries: RequesterEntry[];
  /** The link starts after the ticket's beginning (drawn for a new requester): earlier messages are not shown. */
  startsLater: boolean;
}

export const PUBLIC_ENTRIES_SHOWN = 200;

interface PublicRow {
  kind: string;
  at: unknown;
  reply_id: number | string | null;
  message_id: number | string | null;
  reply_body: string | null;
  author_name: string | null;
  message_body: string | null;
}

/**
 * THE predicate: the public entries of one ticket, oldest first. The statement selects only the public kinds and
 * joins only the replies' and messages' own tables: a note's text is not in any table it reads.
 */
export async function publicEntries(em: Em, ticketId: number, shownAfterSeq = 0): Promise<RequesterEntry[]> {
  const kinds = PUBLIC_EVENT_KINDS.map(() => '?').join(', ');
  const rows = await em.getConnection().execute<PublicRow[]>(
    `select e.kind, e.at, r.id as reply_id, m.id as message_id, r.body as reply_body, u.username as author_name, m.body as message_body
       from ticket_events e
       left join ticket_replies r on e.kind = 'REPLY_ADDED' and r.id = e.reply_id
       left join users u on u.id = r.author_id
       left join requester_messages m on e.kind = 'MESSAGE_RECEIVED' and m.id = e.requester_message_id and not m.held
      where e.ticket_id = ? and e.kind in (${kinds}) and e.seq > ?
      order by e.seq desc limit ?`,
    [ticketId, ...PUBLIC_EVENT_KINDS, shownAfterSeq, PUBLIC_ENTRIES_SHOWN],
    'all',
    em.getTransactionContext<Knex.Transaction>(),
  );
  const files = await publicFiles(em, ticketId, shownAfterSeq);
  const ofReply = new Map<number, RequesterFile[]>();
  const ofMessage = new Map<number, RequesterFile[]>();
  for (const f of files) {
    const [map, key] = f.replyId != null ? [ofReply, f.replyId] : [ofMessage, f.messageId!];
    map.set(key, [...(map.get(key) ?? []), { n: f.n, filename: f.filename, mimeType: f.mimeType, byteSize: f.byteSize }]);
  }
  const entries: RequesterEntry[] = [];
  for (const r of rows.reverse()) {
    const at = toDate(r.at);
    if (r.kind === 'REPLY_ADDED' && r.reply_body !== null)
      entries.push({ kind: 'reply', at, authorName: r.author_name ?? 'Support', body: r.reply_body, files: ofReply.get(Number(r.reply_id)) ?? [] });
    else if (r.kind === 'MESSAGE_RECEIVED' && r.message_body !== null)
      entries.push({ kind: 'message', at, body: r.message_body, files: ofMessage.get(Number(r.message_id)) ?? [] });
  }
  return entries;
}

interface PublicFile extends RequesterFile {
  id: number;
  replyId: number | null;
  messageId: number | null;
}

/**
 * The files of a ticket's public entries (its replies' and its requester's messages' not held) after `shownAfterSeq`,
 * numbered 1, 2, 3... in upload order. Only the attachments' own table, the messages' (for `held`) and, for a link
 * that starts later, the entries' seqs are read: a note has no file.
 */
async function publicFiles(em: Em, ticketId: number, shownAfterSeq: number): Promise<PublicFile[]> {
  // A link that starts later keeps the files whose entry comes after its start (a reply's REPLY_ADDED, a message's
  // MESSAGE_RECEIVED); a link from the beginning reads no seq.
  const since =
    shownAfterSeq > 0
      ? `and exists (select 1 from ticket_events e where e.ticket_id = a.ticket_id and e.seq > ?
           and ((e.kind = 'REPLY_ADDED' and e.reply_id = a.reply_id) or (e.kind = 'MESSAGE_RECEIVED' and e.requester_message_id = a.requester_message_id)))`
      : '';
  const rows = await em.getConnection().execute<AttachmentRow[]>(
    `select a.id, a.reply_id, a.requester_message_id, a.filename, a.mime_type, a.byte_size
       from reply_attachments a left join requester_messages m on m.id = a.requester_message_id
      where a.ticket_id = ? and (a.reply_id is not null or (m.id is not null and not m.held)) ${since}
      order by a.id`,
    shownAfterSeq > 0 ? [ticketId, shownAfterSeq] : [ticketId],
    'all',
    em.getTransactionContext<Knex.Transaction>(),
  );
  return rows.map((r, i) => ({
    n: i + 1,
    id: Number(r.id),
    replyId: r.reply_id == null ? null : Number(r.reply_id),
    messageId: r.requester_message_id == null ? null : Number(r.requester_message_id),
    filename: r.filename,
    mimeType: r.mime_type,
    byteSize: Number(r.byte_size),
  }));
}

/** A public file of the token's ticket by its number on the page (`?file=<n>`); NOT_FOUND otherwise. */
export async function requesterFile(ctx: ServiceContext, token: unknown, rawN: unknown): Promise<{ filename: string; mimeType: string; data: Buffer }> {
  const { ticket, shownAfterSeq } = await ticketForRequester(ctx, token);
  const n = parseId(rawN);
  const file = n ? (await publicFiles(ctx.em, ticket.id, shownAfterSeq))[n - 1] : undefined;
  if (!file) throw AppError.notFound('File');
  const [row] = await ctx.em
    .getConnection()
    .execute<{ data: Buffer | Uint8Array }[]>('select data from reply_attachments where id = ? and ticket_id = ?', [file.id, ticket.id]);
  if (!row) throw AppError.notFound('File');
  return { filename: file.filename, mimeType: file.mimeType, data: Buffer.from(row.data) };
}

/**
 * The ticket of a requester's token and where its view starts. The token is looked up first: a known link is
 * answered whatever the address's guess budget. A wrong one is RATE_LIMITED once the address has spent its budget of
 * guesses, and otherwise counts as one and is NOT_FOUND.
 */
async function ticketForRequester(ctx: ServiceContext, token: unknown): Promise<{ ticket: Ticket; shownAfterSeq: number }> {
  const link = await linkOfToken(ctx.em, token);
  const ticket = link ? await ctx.em.findOne(Ticket, link.ticketId, { populate: ['requester'] }) : null;
  if (!ticket || !link) {
    await ctx.deps.limiter.checkTokenGuesses(ctx.clientIp);
    await ctx.deps.limiter.recordTokenFailure(ctx.clientIp);
    throw AppError.notFound('Ticket');
  }
  // Opened by a mail held for review (maybe a forgery in the customer's name): no requester side until accepted.
  if (ticket.heldOpeningMessageId != null) throw AppError.notFound('Ticket');
  return { ticket, shownAfterSeq: link.shownAfterSeq };
}

/** What the requester page shows for a token. */
export async function requesterView(ctx: ServiceContext, token: unknown): Promise<RequesterTicketView> {
  const { ticket, shownAfterSeq } = await ticketForRequester(ctx, token);
  return {
    title: ticket.title,
    status: ticket.status,
    requesterName: ticket.requester.name,
    entries: await publicEntries(ctx.em, ticket.id, shownAfterSeq),
    startsLater: shownAfterSeq > 0,
  };
}

/** The bytes of files the ticket's requester messages hold (the per-ticket budget of the requester page). */
async function requesterBytesOf(ctx: ServiceContext, ticketId: number): Promise<number> {
  const [row] = await ctx.em
    .getConnection()
    .execute<{ n: number | string | null }[]>('select sum(byte_size) as n from reply_attachments where ticket_id = ? and requester_message_id is not null', [
      ticketId,
    ]);
  return Number(row?.n ?? 0);
}

/**
 * The answer's budgets, before anything is stored: the ticket's files in all (its requester messages' bytes), then
 * the hourly answers and bytes per link and per address (services/authLimiter.ts, counters shared by every gateway
 * with Redis). Past any of them RATE_LIMITED with the page's message and when to try again. Returns the key the
 * link's budgets count under (a digest of its token: the token itself is never a counter's key).
 */
async function takeAnswerBudget(ctx: ServiceContext, ticketId: number, token: string, bytes: number): Promise<string> {
  const limiter = ctx.deps.limiter;
  if (bytes > 0 && (await requesterBytesOf(ctx, ticketId)) + bytes > limiter.requesterTicketBytes)
    throw new AppError('RATE_LIMITED', MESSAGES.requesterTicketFull, { retryAfter: REQUESTER_ANSWER_WINDOW_SECONDS });
  const link = tokenHash(token);
  try {
    await limiter.consumeRequesterAnswer(link, ctx.clientIp, bytes);
  } catch (error) {
    if (error instanceof AppError && error.code === 'RATE_LIMITED')
      throw new AppError('RATE_LIMITED', requesterAnswerLimitMessage(error.retryAfter ?? REQUESTER_ANSWER_WINDOW_SECONDS), { retryAfter: error.retryAfter });
    throw error;
  }
  return link;
}

/**
 * The requester answers through their link: a RequesterMessage (via REQUESTER_PAGE, actor REQUESTER) on the
 * timeline, live for the ticket's agents; an answer to a SOLVED ticket reopens it (an UPDATED event of its own,
 * with its webhook and live ticket event). It may carry images (`images`: at most LIMITS.replyAttachments.max, each
 * within the ticket images' limits, services/replyAttachments.ts), stored with the message in the same transaction:
 * a refused text or file stores nothing. Every field's refusal is reported at once (`body`, `images`).
 */
export async function postRequesterMessage(ctx: ServiceContext, token: unknown, body: unknown, images?: readonly IncomingFile[] | null): Promise<void> {
  const { ticket } = await ticketForRequester(ctx, token);
  const fields = validateRequesterMessage({ body });
  let files: CheckedAttachment[] = [];
  try {
    files = await checkAttachments(images, 'images', true);
  } catch (error) {
    if (!(error instanceof AppError) || !error.fields) throw error;
    Object.assign(fields, error.fields);
  }
  if (hasErrors(fields)) throw AppError.validation(fields);
  const bytes = files.reduce((sum, f) => sum + f.byteSize, 0);
  const link = await takeAnswerBudget(ctx, ticket.id, token as string, bytes);
  const asRequester: ServiceContext = { ...ctx, viewerId: null, token: undefined, via: 'REQUESTER_PAGE', requester: { name: ticket.requester.name } };
  const write = recordRequesterMessage(ctx.em, ticket, { fromEmail: ticket.requester.email, body: body as string, via: 'REQUESTER_PAGE', held: false }, files);
  try {
    await flushWithEvents(
      asRequester,
      write.drafts,
      // The ticket's agents' lists hear of it (its audience, read by the change log in the transaction): awaiting a
      // reply now; reopened, when it was solved.
      () => publishTicket(asRequester, 'UPDATED', ticket, write.event()?.audience ?? [], write.previous),
    );
  } catch (error) {
    // Not stored: the budgets get back what the answer took.
    await ctx.deps.limiter.refundRequesterAnswer(link, ctx.clientIp, bytes);
    throw error;
  }
}
