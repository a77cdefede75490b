/**
 * The requester's side (issue 25): THE one predicate of what a requester may see of a ticket, and their answers.
 *
 * A requester holds a link (services/requesterLinks.ts), not an account. Through it they see the ticket's title
 * and status and its public entries only: the agents' replies (by the agent's name) and their own messages, in
 * order. Everything the requester side shows is read here, by `publicEntries`, into its own types
 * (`RequesterTicketView`), which have no field for anything else: no note, no note count, no seq (which would
 * count the notes between entries), no agent email, no id of another record. The requester page
 * (gateway/src/requester/) renders this view and nothing else; the leak property test
 * (services/requesterLeak.test.ts) checks every page and mail against random timelines of notes and replies.
 *
 * Wrong, revoked or malformed tokens find nothing (NOT_FOUND, the same answer for each) and count as guesses
 * against the client address's budget (the API-token guess limit, services/authLimiter.ts).
 */
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { AppError } from '../errors.js';
import { Ticket } from '../entities/index.js';
import { toDate } from '../records/index.js';
import { hasErrors, validateRequesterMessage, type TicketStatus } from '../validation/rules.js';
import { flushWithEvents } from './changeLog.js';
import { parseId, type ServiceContext } from './context.js';
import { ticketOfToken } from './requesterLinks.js';
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
export async function publicEntries(em: Em, ticketId: number): Promise<RequesterEntry[]> {
  const kinds = PUBLIC_EVENT_KINDS.map(() => '?').join(', ');
  const rows = await em.getConnection().execute<PublicRow[]>(
    `select e.kind, e.at, r.id as reply_id, m.id as message_id, r.body as reply_body, u.username as author_name, m.body as message_body
       from ticket_events e
       left join ticket_replies r on e.kind = 'REPLY_ADDED' and r.id = e.reply_id
       left join users u on u.id = r.author_id
       left join requester_messages m on e.kind = 'MESSAGE_RECEIVED' and m.id = e.requester_message_id and not m.held
      where e.ticket_id = ? and e.kind in (${kinds})
      order by e.seq desc limit ?`,
    [ticketId, ...PUBLIC_EVENT_KINDS, PUBLIC_ENTRIES_SHOWN],
    'all',
    em.getTransactionContext<Knex.Transaction>(),
  );
  const files = await publicFiles(em, ticketId);
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
 * The files of a ticket's public entries (its replies' and its requester's messages' not held), numbered 1, 2, 3...
 * in upload order. Only the attachments' own table and the messages' (for `held`) are read: a note has no file.
 */
async function publicFiles(em: Em, ticketId: number): Promise<PublicFile[]> {
  const rows = await em.getConnection().execute<AttachmentRow[]>(
    `select a.id, a.reply_id, a.requester_message_id, a.filename, a.mime_type, a.byte_size
       from reply_attachments a left join requester_messages m on m.id = a.requester_message_id
      where a.ticket_id = ? and (a.reply_id is not null or (m.id is not null and not m.held))
      order by a.id`,
    [ticketId],
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
  const ticket = await ticketForRequester(ctx, token);
  const n = parseId(rawN);
  const file = n ? (await publicFiles(ctx.em, ticket.id))[n - 1] : undefined;
  if (!file) throw AppError.notFound('File');
  const [row] = await ctx.em
    .getConnection()
    .execute<{ data: Buffer | Uint8Array }[]>('select data from reply_attachments where id = ? and ticket_id = ?', [file.id, ticket.id]);
  if (!row) throw AppError.notFound('File');
  return { filename: file.filename, mimeType: file.mimeType, data: Buffer.from(row.data) };
}

/** The ticket of a requester's token; a wrong one counts as a guess (RATE_LIMITED past the budget) and is NOT_FOUND. */
async function ticketForRequester(ctx: ServiceContext, token: unknown): Promise<Ticket> {
  await ctx.deps.limiter.checkTokenGuesses(ctx.clientIp);
  const ticketId = await ticketOfToken(ctx.em, token);
  const ticket = ticketId ? await ctx.em.findOne(Ticket, ticketId, { populate: ['requester'] }) : null;
  if (!ticket) {
    await ctx.deps.limiter.recordTokenFailure(ctx.clientIp);
    throw AppError.notFound('Ticket');
  }
  return ticket;
}

/** What the requester page shows for a token. */
export async function requesterView(ctx: ServiceContext, token: unknown): Promise<RequesterTicketView> {
  const ticket = await ticketForRequester(ctx, token);
  return { title: ticket.title, status: ticket.status, requesterName: ticket.requester.name, entries: await publicEntries(ctx.em, ticket.id) };
}

/**
 * The requester answers through their link: a RequesterMessage (via REQUESTER_PAGE, actor REQUESTER) on the
 * timeline, live for the ticket's agents; an answer to a SOLVED ticket reopens it (an UPDATED event of its own,
 * with its webhook and live ticket event). It may carry images (`images`: at most LIMITS.replyAttachments.max, each
 * within the ticket images' limits, services/replyAttachments.ts), stored with the message in the same transaction:
 * a refused text or file stores nothing. Every field's refusal is reported at once (`body`, `images`).
 */
export async function postRequesterMessage(ctx: ServiceContext, token: unknown, body: unknown, images?: readonly IncomingFile[] | null): Promise<void> {
  const ticket = await ticketForRequester(ctx, token);
  const fields = validateRequesterMessage({ body });
  let files: CheckedAttachment[] = [];
  try {
    files = await checkAttachments(images, 'images', true);
  } catch (error) {
    if (!(error instanceof AppError) || !error.fields) throw error;
    Object.assign(fields, error.fields);
  }
  if (hasErrors(fields)) throw AppError.validation(fields);
  const asRequester: ServiceContext = { ...ctx, viewerId: null, token: undefined, via: 'REQUESTER_PAGE', requester: { name: ticket.requester.name } };
  const write = recordRequesterMessage(ctx.em, ticket, { fromEmail: ticket.requester.email, body: body as string, via: 'REQUESTER_PAGE', held: false }, files);
  await flushWithEvents(
    asRequester,
    write.drafts,
    // The ticket's agents' lists hear of it (its audience, read by the change log in the transaction): awaiting a
    // reply now; reopened, when it was solved.
    () => publishTicket(asRequester, 'UPDATED', ticket, write.event()?.audience ?? [], write.previous),
  );
}
