/**
 * A new ticket from mail (docs/email.md "Incoming mail", "Held mail"): what services/incomingDecision.ts decided a
 * mail outside any thread becomes, written in the caller's transaction with its change log. The requester is the
 * customer with the sender's address, or with the forwarded customer's when an agent forwarded the mail (found,
 * or created owned by the default agent); never a customer with an agent's address. Its first entry is the mail's
 * message; the first image that passes the image check is the ticket's image, the other files the message's.
 *
 * Where it goes: with FULCRUM_MAIL_DEFAULT_TEAM to that team, unassigned, or to the member auto-assignment chooses;
 * without, to the requester's owner agent. A HELD new ticket (a forged mail from a `p=reject` domain, an agent's
 * mail that cannot be trusted or names no requester) has its first message held: it goes to the default team
 * unassigned, or to the default agent, no auto-assignment runs and `runRules` is false (the hook for rules: nothing
 * runs on a ticket until an agent accepts its mail; services/incomingMail.ts settleHeld).
 */
import { fileTypeFromBuffer } from 'file-type';
import type { Em } from '../database.js';
import { AppError } from '../errors.js';
import { Customer, IncomingMail, Macro, Team, Ticket, TicketImage, User } from '../entities/index.js';
import { cut, type ParsedIncoming } from '../mail/incoming.js';
import { DEFAULT_TICKET_PRIORITY, DEFAULT_TICKET_TYPE, LIMITS, validAttachmentName } from '../validation/rules.js';
import * as autoAssign from './autoAssign.js';
import { eventAudience, recordEvents, webhookEvent, type WebhookEventDraft } from './changeLog.js';
import { parseId, type ServiceContext, type ServiceDeps } from './context.js';
import { storedFileName } from './fileName.js';
import { checkImage, type CheckedImage } from './images.js';
import { agentOf, type HeldReason } from './incomingDecision.js';
import { publishTicket } from './tickets.js';
import { recordRequesterMessage } from './requesterMessage.js';

/**
 * The requester of an agent's mail that names none (docs/email.md "Mail from an agent's address"): `.invalid`
 * (RFC 2606) is never delivered; the agent who accepts the mail sets the real requester.
 */
export const UNKNOWN_REQUESTER = { address: 'unknown-requester@fulcrum.invalid', name: 'Unknown requester' } as const;

/** The first entry's files and a reply's: how many are kept of one mail (the rest stay in the original). */
export const MAX_MAIL_ATTACHMENTS = 20;

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

/** Whose ticket a new ticket from mail is, and whether its first message is held. */
export interface NewTicketOptions {
  /** The requester's address and display name; default: the mail's sender. */
  requester?: { address: string; name: string };
  /**
   * Held: the first message is held for this reason; the ticket goes to the default team unassigned, or to the
   * default agent, with no auto-assignment, and no rule may run on it (`runRules` false) until an agent accepts it.
   */
  held?: HeldReason | null;
}

/**
 * A new ticket of the sender, or of `options.requester`: the customer with that address (created, owned by the
 * default agent, when none exists) is its requester, its owner agent its assignee; its first entry is the mail's
 * message (MESSAGE_RECEIVED), with the mail's files but the first image, which is the ticket's image. With a default
 * team set (FULCRUM_MAIL_DEFAULT_TEAM) every new ticket goes to that team instead, unassigned in it, or to
 * the member auto-assignment chooses when the team has it on (services/autoAssign.ts: the SYSTEM's assignment event
 * in this transaction). A held one (the module's comment) is never auto-assigned. `runRules` says whether rules may
 * run on the new ticket now: never on a held one.
 */
export async function newTicket(
  ctx: ServiceContext,
  parsed: ParsedIncoming,
  fromEmail: string,
  body: string,
  files: Awaited<ReturnType<typeof keptFiles>>,
  entry: IncomingMail,
  online: ReadonlySet<number>,
  options: NewTicketOptions = {},
): Promise<{ ticketId: number; messageId: number; runRules: boolean; publish: () => void }> {
  const em = ctx.em;
  if (!fromEmail) throw new AppError('BAD_USER_INPUT', 'A mail without a sender address cannot open a ticket.');
  const held = options.held ?? null;
  let requester = options.requester ?? { address: fromEmail, name: parsed.fromName };
  // Never a customer of an agent's address (an admin ticketing an agent's mail not ticketed, too): the unknown requester.
  if (await agentOf(em, requester.address)) requester = UNKNOWN_REQUESTER;
  const address = requester.address;
  let customer = await em.findOne(Customer, { email: address }, { populate: ['owner'] });
  // Every ticket that arrives by mail lands in the default team when one is set, a known customer's too.
  const teamId = await defaultTeam(em, ctx.deps);
  if (!customer) {
    const owner = await defaultAgent(em, ctx.deps, teamId);
    customer = em.create(Customer, {
      name: customerNameFor(requester.name, address),
      email: address,
      owner: em.getReference(User, owner),
      createdAt: new Date(),
    });
  }
  // A held ticket is no one's yet: not the (claimed) customer's owner's, but the default agent's who triages mail.
  const ownerId = customer.owner.id;
  const assigneeId = teamId !== null ? null : held ? await defaultAgent(em, ctx.deps, null).catch(() => ownerId) : ownerId;
  const at = new Date();
  const ticket = em.create(Ticket, {
    title: ticketTitleFor(parsed.subject),
    subject: ticketSubjectFor(parsed.subject),
    description: ticketDescriptionFor(body === '(no text)' ? '' : body),
    type: DEFAULT_TICKET_TYPE,
    priority: DEFAULT_TICKET_PRIORITY,
    assignee: userReference(em, assigneeId),
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
  const write = recordRequesterMessage(em, ticket, { fromEmail, body, via: 'EMAIL', held: held !== null }, files.files, held);
  const message = write.message;
  entry.ticket = ticket;
  entry.requesterMessage = message;
  await em.flush();
  // Held, the message that opened it is named on the ticket until accepted: no requester side meanwhile.
  if (held) {
    ticket.heldOpeningMessageId = message.id;
    await em.flush();
  }
  const created = webhookEvent.ticket('CREATED', ticket);
  await recordEvents(ctx, em, [created, ...write.drafts()]);
  const chosen = teamId === null || held ? null : await autoAssign.chooseAssignee(em, teamId, online);
  let assigned: WebhookEventDraft | undefined;
  if (chosen !== null) await autoAssign.recordAssignment(ctx, em, ticket, chosen, (draft) => (assigned = draft));
  return {
    ticketId: ticket.id,
    messageId: message.id,
    runRules: held === null,
    publish: () => void publishTicket(ctx, 'CREATED', ticket, eventAudience(assigned, eventAudience(created))),
  };
}

/** The agent by id as a reference for a new row, or none. */
function userReference(em: Em, id: number | null): User | null {
  return id === null ? null : em.getReference(User, id);
}
