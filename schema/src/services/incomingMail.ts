/**
 * Incoming mail (issue 26, docs/email.md "Incoming mail"): what one mail the SMTP listener accepted becomes, decided
 * here once, written in one transaction with its event record (the change log) and its original:
 *
 * - LOOP: automatic mail (mail/incoming.ts: Auto-Submitted, Precedence bulk/junk/list, a mailer-daemon, a bounce,
 *   our own Message-ID as its own, our own From address) is recorded and never answered: on its ticket's thread a held message that never
 *   reopens the ticket; outside a thread only the record (incoming_mails).
 * - THREAD: a reply whose In-Reply-To/References name one of our Message-IDs (a reply's `<reply-...@host>`, the
 *   thread root `<ticket-<id>.<token>@host>`, mail/threadRoot.ts) or an earlier incoming mail of the ticket becomes a
 *   RequesterMessage via EMAIL (quoted history and signature stripped); to a SOLVED ticket it reopens it (an UPDATED event).
 *   A mail that names no ticket so is on the thread of the ticket its subject tag `[#<id>]` names (mail/subjectTag.ts).
 * - HELD: on a thread, mail from an address other than the ticket's requester's, failing DMARC, or tied to the
 *   ticket by nothing but its thread root or subject tag while its sender is not authenticated (UNVERIFIED: neither an aligned
 *   DKIM signature nor DMARC passed), is a held RequesterMessage: the ticket's agents see it and accept or discard
 *   it; the requester side never does.
 * - TICKET: anything else makes a new ticket of the sender (a customer created when their address is new).
 * - Refused (BAD_USER_INPUT, the listener's 550): a mail naming more than one From address (RFC 5322 allows one).
 *
 * Each mail is one entry once, on any number of gateways: `(incoming_mails.message_id, content_hash)` is unique,
 * inserted first in the transaction, so a second delivery of the same mail (another gateway, a retrying MTA) is a
 * DUPLICATE, and a different mail reusing its Message-ID an entry of its own (mail/messageId.ts).
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { AppError } from '../errors.js';
import { Customer, IncomingMail, Macro, ReplyAttachment, RequesterMessage, Team, Ticket, TicketImage, User } from '../entities/index.js';
import { messageIdHost } from '../mail/compose.js';
import { clean, cut, isOurMessageId, parseIncoming, strippedText, type ParsedIncoming } from '../mail/incoming.js';
import { derivedMessageId } from '../mail/messageId.js';
import { subjectTag } from '../mail/subjectTag.js';
import { parseThreadRoot, tokenMatches } from '../mail/threadRoot.js';
import { DEFAULT_TICKET_PRIORITY, DEFAULT_TICKET_TYPE, LIMITS, validAttachmentName } from '../validation/rules.js';
import { toDate } from '../records/index.js';
import * as autoAssign from './autoAssign.js';
import { bouncedReply, recordBounce } from './bounces.js';
import { eventAudience, flushWithEvents, recordEvents, webhookEvent, type TicketEventDraft, type WebhookEventDraft } from './changeLog.js';
import { parseId, requireViewer, type ServiceContext, type ServiceDeps } from './context.js';
import type { RequesterMessageRecord } from './requesterReplies.js';
import { storedFileName } from './fileName.js';
import { checkImage, type CheckedImage } from './images.js';
import * as ticketAccess from './ticketAccess.js';
import { facetsOf, publishTicket } from './tickets.js';
import { recordRequesterMessage, reopenForMessage } from './requesterMessage.js';

/** What mailauth judged of a mail (each: pass, fail, none, neutral, softfail, temperror, permerror, policy). */
export interface MailAuthResult {
  spf: string;
  dkim: string;
  dmarc: string;
  /** A DKIM signature of the From address's domain (relaxed alignment) verified. */
  dkimAligned?: boolean;
}

/** One mail as the listener accepted it. */
export interface AcceptedMail {
  raw: Buffer;
  /** The envelope sender (MAIL FROM; '' for a bounce's `<>`). */
  envelopeFrom?: string | null;
  /** null: not checked. */
  auth: MailAuthResult | null;
}

export type IncomingOutcome = 'TICKET' | 'THREAD' | 'HELD' | 'LOOP' | 'DUPLICATE';

export interface IncomingResult {
  outcome: IncomingOutcome;
  ticketId: number | null;
  requesterMessageId: number | null;
}

/** The first entry's files and a reply's: how many are kept of one mail (the rest stay in the original). */
export const MAX_MAIL_ATTACHMENTS = 20;
/** A RequesterMessage's body, at most (the rest of a long mail is in the original). */
const MAX_BODY = LIMITS.ticketNote.max;

/** Raised when a mail from a new address has no agent to own it (FULCRUM_MAIL_DEFAULT_AGENT unset or unknown). */
export class NoMailOwnerError extends Error {
  constructor() {
    super('No agent to own mail from a new address: set FULCRUM_MAIL_DEFAULT_AGENT to an agent’s email.');
  }
}

/** A display name fitted to the customer name's 2 to 50 characters, else a name from the address. */
export function customerNameFor(displayName: string, address: string): string {
  const { min, max } = LIMITS.customerName;
  const name = cut(displayName.replace(/["\\]/g, '').trim(), max).trim();
  if (name.length >= min) return name;
  const local = cut(address.split('@')[0] ?? '', max);
  if (local.length >= min) return local;
  return cut(address, max).padEnd(min, '_');
}

/** The ticket title of a subject: cut to the spec's 40 characters; "(no subject)" when empty. */
export function ticketTitleFor(subject: string): string {
  const title = cut(subject.trim(), LIMITS.ticketTitle.max).trim();
  return title || '(no subject)';
}

/** The ticket's whole subject: the mail's, trimmed, at most 998 characters (a header line's limit); null when empty. */
export function ticketSubjectFor(subject: string): string | null {
  return cut(subject.trim(), 998).trim() || null;
}

/** The ticket description: the first 2,000 characters of the stripped text; "(no text)" when shorter than 3. */
export function ticketDescriptionFor(text: string): string {
  const description = cut(text, LIMITS.ticketDescription.max);
  return description.trim().length >= LIMITS.ticketDescription.min ? description : '(no text)';
}

/** A file name that passes the attachment name rule (validation/rules.ts), or a made-up one. */
function fileNameFor(name: string, n: number): string {
  const plain = cut(storedFileName(name).replace(/[/\\]/g, '_'), LIMITS.attachmentName.max).trim();
  return validAttachmentName(plain) ? plain : `attachment-${n}`;
}

/**
 * How a mail names its ticket: REFERENCE, one of our replies' Message-IDs or an earlier mail of the ticket that
 * joined it (both unguessable to a stranger); ROOT, only the ticket's thread root (it travels in every mail of the
 * thread) or a held mail of it; TAG, only the subject tag `[#<id>]` (mail/subjectTag.ts: a number anyone can
 * type, as strong as the root); OLD_ROOT, only the sequential root of a ticket from before thread tokens.
 */
type ThreadProof = 'REFERENCE' | 'ROOT' | 'TAG' | 'OLD_ROOT';

/**
 * The ticket a mail answers and how well it is named, or null: the most recent reference that names one, else
 * the subject tag of an existing ticket (in any status).
 */
async function threadTicket(em: Em, parsed: ParsedIncoming, host: string): Promise<{ ticketId: number; proof: ThreadProof } | null> {
  const referenced = await referencedTicket(em, parsed, host);
  if (referenced) return referenced;
  const tagged = subjectTag(parsed.subject);
  if (tagged === null) return null;
  const [ticket] = await em
    .getConnection()
    .execute<{ id: number }[]>('select id from tickets where id = ?', [tagged], 'all', em.getTransactionContext<Knex.Transaction>());
  return ticket ? { ticketId: tagged, proof: 'TAG' } : null;
}

/** The ticket the mail's In-Reply-To and References name (the most recent that names one), or null. */
async function referencedTicket(em: Em, parsed: ParsedIncoming, host: string): Promise<{ ticketId: number; proof: ThreadProof } | null> {
  if (!parsed.answers.length) return null;
  const marks = parsed.answers.map(() => '?').join(', ');
  const trx = em.getTransactionContext<Knex.Transaction>();
  const replies = await em.getConnection().execute<{ mid: string; ticket_id: number | string; strong: number | string | boolean }[]>(
    `select mail_message_id as mid, ticket_id, 1 as strong from ticket_replies where mail_message_id in (${marks})
       union all select message_id as mid, ticket_id, case when outcome in ('TICKET', 'THREAD') then 1 else 0 end as strong
       from incoming_mails where message_id in (${marks}) and ticket_id is not null`,
    [...parsed.answers, ...parsed.answers],
    'all',
    trx,
  );
  const named: { ticketId: number; proof: ThreadProof }[] = [];
  for (const id of parsed.answers) {
    for (const r of replies) if (r.mid === id) named.push({ ticketId: Number(r.ticket_id), proof: Number(r.strong) ? 'REFERENCE' : 'ROOT' });
    const root = parseThreadRoot(id, host);
    if (!root) continue;
    const [ticket] = await em
      .getConnection()
      .execute<{ thread_token: string | null }[]>('select thread_token from tickets where id = ?', [root.ticketId], 'all', trx);
    if (!ticket) continue;
    if (root.token === null) named.push({ ticketId: root.ticketId, proof: 'OLD_ROOT' });
    else if (tokenMatches(root.token, ticket.thread_token)) named.push({ ticketId: root.ticketId, proof: 'ROOT' });
  }
  const first = named[0];
  if (!first) return null;
  // The strongest proof any reference gives of that ticket.
  const proofs = new Set(named.filter((n) => n.ticketId === first.ticketId).map((n) => n.proof));
  return { ticketId: first.ticketId, proof: proofs.has('REFERENCE') ? 'REFERENCE' : proofs.has('ROOT') ? 'ROOT' : 'OLD_ROOT' };
}

interface KeptFile {
  filename: string;
  mimeType: string;
  byteSize: number;
  data: Buffer;
}

/**
 * The attachments worth keeping: at most MAX_MAIL_ATTACHMENTS, each within the attachment size, typed by their
 * bytes; the first that passes the ticket image check is `image` (a new ticket's image). The rest stay in the original.
 * Every image is checked as an uploaded one is (services/images.ts: its real type, complete with nothing appended,
 * within the pixel limits); one that fails is kept as a download (application/octet-stream), never shown inline.
 */
export async function keptFiles(parsed: ParsedIncoming): Promise<{ image: (CheckedImage & { filename: string }) | null; files: KeptFile[] }> {
  let image: (CheckedImage & { filename: string }) | null = null;
  const files: KeptFile[] = [];
  for (const [i, a] of parsed.attachments.entries()) {
    if (files.length >= MAX_MAIL_ATTACHMENTS) break;
    if (a.data.length > LIMITS.imageBytes) continue;
    const filename = fileNameFor(a.filename, i + 1);
    const detected = await fileTypeFromBuffer(a.data).catch(() => undefined);
    let mimeType = detected?.mime ?? 'application/octet-stream';
    if (mimeType.startsWith('image/')) {
      const checked = await checkImage(a.data).catch(() => null);
      if (checked && !image) {
        image = { ...checked, filename };
        continue;
      }
      mimeType = checked ? checked.mimeType : 'application/octet-stream';
    }
    files.push({ filename, mimeType, byteSize: a.data.length, data: a.data });
  }
  return { image, files };
}

interface Decision {
  outcome: Exclude<IncomingOutcome, 'DUPLICATE'>;
  reason: HeldReason | null;
  ticketId: number | null;
}

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
      : decide(thread, automatic, mail.auth, parsed, fromEmail, thread ? await requesterEmail(em, thread.ticketId) : null);
    entry.outcome = decision.outcome;
    entry.reason = decision.reason;
    if (decision.outcome === 'LOOP' && decision.ticketId === null) {
      await em.flush();
      return { outcome: decision.outcome, ticketId: null, requesterMessageId: null } satisfies IncomingResult;
    }
    const body = cut(clean(strippedText(parsed.text, parsed.images)), MAX_BODY).trim() || '(no text)';
    if (decision.outcome === 'TICKET') {
      const made = await newTicket(inner, parsed, fromEmail, body, files, entry, online);
      publish = made.publish;
      return { outcome: decision.outcome, ticketId: made.ticketId, requesterMessageId: made.messageId } satisfies IncomingResult;
    }
    const ticket = await em.findOneOrFail(Ticket, decision.ticketId!, { populate: ['requester'] });
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

async function requesterEmail(em: Em, ticketId: number): Promise<string | null> {
  const [row] = await em
    .getConnection()
    .execute<{ email: string }[]>(
      'select c.email from tickets t join customers c on c.id = t.requester_id where t.id = ?',
      [ticketId],
      'all',
      em.getTransactionContext(),
    );
  return row ? row.email.toLowerCase() : null;
}

/** Whether the mail's From is authenticated: a DKIM signature aligned with its domain verified, or DMARC passed. */
const authenticated = (auth: MailAuthResult | null) => !!auth && (auth.dkimAligned === true || auth.dmarc === 'pass');

/** THE rule of what a mail becomes (the module's comment). */
function decide(
  thread: { ticketId: number; proof: ThreadProof } | null,
  automatic: string | null,
  auth: MailAuthResult | null,
  parsed: ParsedIncoming,
  fromEmail: string,
  requester: string | null,
): Decision {
  if (thread === null) return automatic ? { outcome: 'LOOP', reason: 'LOOP', ticketId: null } : { outcome: 'TICKET', reason: null, ticketId: null };
  const ticketId = thread.ticketId;
  if (automatic) return { outcome: 'LOOP', reason: 'LOOP', ticketId };
  if (auth?.dmarc === 'fail') return { outcome: 'HELD', reason: 'DMARC', ticketId };
  if (!parsed.fromAddress || parsed.fromCount !== 1 || fromEmail !== requester) return { outcome: 'HELD', reason: 'SENDER', ticketId };
  // A thread root is known to everyone who saw a mail of the thread, a subject tag and the old sequential root to anyone.
  if (thread.proof === 'OLD_ROOT' || (thread.proof !== 'REFERENCE' && !authenticated(auth))) return { outcome: 'HELD', reason: 'UNVERIFIED', ticketId };
  return { outcome: 'THREAD', reason: null, ticketId };
}

/** The team that gets every new ticket from mail (FULCRUM_MAIL_DEFAULT_TEAM: its name or id), or null. */
async function defaultTeam(em: Em, deps: ServiceDeps): Promise<number | null> {
  const given = deps.mail?.defaultTeam?.trim();
  if (!given) return null;
  const [row] = await em
    .getConnection()
    .execute<{ id: number | string }[]>(
      'select id from teams where name = ? or id = ? limit 1',
      [given, parseId(given) ?? 0],
      'all',
      em.getTransactionContext(),
    );
  return row ? Number(row.id) : null;
}

/**
 * The agent who owns new addresses' customers: FULCRUM_MAIL_DEFAULT_AGENT, else (with a default team) the team's
 * first member; NoMailOwnerError when there is none.
 */
async function defaultAgent(em: Em, deps: ServiceDeps, teamId: number | null): Promise<number> {
  const email = deps.mail?.defaultAgent?.trim().toLowerCase();
  const user = email ? await em.findOne(User, { email }, { fields: ['id'] }) : null;
  if (user) return user.id;
  if (teamId !== null) {
    const [member] = await em
      .getConnection()
      .execute<{ id: number | string }[]>(
        'select user_id as id from team_members where team_id = ? order by user_id limit 1',
        [teamId],
        'all',
        em.getTransactionContext(),
      );
    if (member) return Number(member.id);
  }
  throw new NoMailOwnerError();
}

/**
 * A new ticket of the sender: the customer with the sender's address (created, owned by the default agent, when
 * none exists) is its requester, its owner agent its assignee; its first entry is the mail's message (MESSAGE_RECEIVED),
 * with the mail's files but the first image, which is the ticket's image. With a default team set
 * (FULCRUM_MAIL_DEFAULT_TEAM, issue 27) every new ticket goes to that team instead, unassigned in it, or to the member auto-assignment
 * chooses when the team has it on (services/autoAssign.ts: the SYSTEM's assignment event in this transaction).
 */
export async function newTicket(
  ctx: ServiceContext,
  parsed: ParsedIncoming,
  fromEmail: string,
  body: string,
  files: Awaited<ReturnType<typeof keptFiles>>,
  entry: IncomingMail,
  online: ReadonlySet<number>,
): Promise<{ ticketId: number; messageId: number; publish: () => void }> {
  const em = ctx.em;
  if (!fromEmail) throw new AppError('BAD_USER_INPUT', 'A mail without a sender address cannot open a ticket.');
  let customer = await em.findOne(Customer, { email: fromEmail }, { populate: ['owner'] });
  // Issue 27: every ticket that arrives by mail lands in the default team when one is set, a known customer's too.
  const teamId = await defaultTeam(em, ctx.deps);
  if (!customer) {
    const owner = await defaultAgent(em, ctx.deps, teamId);
    customer = em.create(Customer, {
      name: customerNameFor(parsed.fromName, fromEmail),
      email: fromEmail,
      owner: em.getReference(User, owner),
      createdAt: new Date(),
    });
  }
  const at = new Date();
  const ticket = em.create(Ticket, {
    title: ticketTitleFor(parsed.subject),
    subject: ticketSubjectFor(parsed.subject),
    description: ticketDescriptionFor(body === '(no text)' ? '' : body),
    type: DEFAULT_TICKET_TYPE,
    priority: DEFAULT_TICKET_PRIORITY,
    assignee: teamId === null ? em.getReference(User, customer.owner.id) : null,
    team: teamId === null ? null : em.getReference(Team, teamId),
    requester: customer,
    macro: em.getReference(Macro, 1),
    createdAt: at,
    updatedAt: at,
  });
  if (files.image) {
    const { filename: _name, ...image } = files.image;
    ticket.image = em.create(TicketImage, { ticket, ...image, createdAt: at });
  }
  const write = recordRequesterMessage(em, ticket, { fromEmail, body, via: 'EMAIL', held: false }, files.files);
  const message = write.message;
  entry.ticket = ticket;
  entry.requesterMessage = message;
  await em.flush();
  const created = webhookEvent.ticket('CREATED', ticket);
  await recordEvents(ctx, em, [created, ...write.drafts()]);
  const chosen = teamId === null ? null : await autoAssign.chooseAssignee(em, teamId, online);
  let assigned: WebhookEventDraft | undefined;
  if (chosen !== null) await autoAssign.recordAssignment(ctx, em, ticket, chosen, (draft) => (assigned = draft));
  return {
    ticketId: ticket.id,
    messageId: message.id,
    publish: () => void publishTicket(ctx, 'CREATED', ticket, eventAudience(assigned, eventAudience(created))),
  };
}

/** Why a message is held, as its mail's record says. */
export const HELD_REASONS = ['SENDER', 'DMARC', 'LOOP', 'UNVERIFIED'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

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
