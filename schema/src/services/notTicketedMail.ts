/**
 * Mail not ticketed (docs/email.md "Mail not ticketed"): no accepted mail ends where no agent can see it. Mail the
 * listener records without a ticket (automatic mail outside a thread: a list, an auto-reply, a bounce, our own) is
 * listed for admins, with its automatic cause and its original; an admin turns one into a ticket by hand, exactly
 * as the listener would have opened it for a person's mail (services/incomingMail.ts newTicket). Such mail is kept
 * FULCRUM_MAIL_NOT_TICKETED_DAYS days (default 30): `purgeNotTicketed` removes older ones.
 */
import { AppError } from '../errors.js';
import { IncomingMail } from '../entities/index.js';
import { clean, cut, parseIncoming, strippedText } from '../mail/incoming.js';
import { MESSAGES, LIMITS } from '../validation/rules.js';
import { toDate, type TicketRecord } from '../records/index.js';
import { keysetPage, type Page, type PageArgs } from './connection.js';
import { parseId, requireViewer, type ServiceContext, type ServiceDeps } from './context.js';
import { likeContaining, searchText } from './customers.js';
import { customerNameFor, keptFiles, newTicket } from './incomingMail.js';
import * as ticketAccess from './ticketAccess.js';
import { getTicket } from './tickets.js';

/** How long mail not ticketed is kept when FULCRUM_MAIL_NOT_TICKETED_DAYS is unset. */
export const DEFAULT_NOT_TICKETED_DAYS = 30;

export interface NotTicketedMailRecord {
  id: number;
  receivedAt: Date;
  fromEmail: string;
  subject: string;
  /** The automatic cause (`Precedence: list`, `Auto-Submitted: auto-replied`, `mailer-daemon`...). */
  reason: string;
}

interface Row {
  id: number | string;
  created_at: unknown;
  from_email: string;
  subject: string;
  cause: string | null;
}

/** FORBIDDEN unless the caller is an admin now. */
async function requireAdmin(ctx: ServiceContext): Promise<void> {
  requireViewer(ctx);
  if (!(await ticketAccess.isAdmin(ctx))) throw AppError.forbidden(MESSAGES.adminOnly);
}

/** The one filter of mail not ticketed: recorded as automatic, on no ticket. */
const NOT_TICKETED = { outcome: 'LOOP', ticket_id: null } as const;

/**
 * One page of the mail not ticketed, newest first (admins only); `search` keeps those whose sender or subject
 * contains it (case-insensitive, at most 200 characters).
 */
export async function listNotTicketedMail(ctx: ServiceContext, args: PageArgs & { search?: string | null } = {}): Promise<Page<NotTicketedMailRecord>> {
  await requireAdmin(ctx);
  const search = searchText(args.search);
  const knex = ctx.em.getKnex();
  return keysetPage<Row, NotTicketedMailRecord>(
    ctx,
    {
      kind: 'notTicketedMail',
      idColumn: 'id',
      order: 'desc',
      query: () => {
        const qb = knex.from('incoming_mails').select('id', 'created_at', 'from_email', 'subject', 'cause').where(NOT_TICKETED);
        if (search) {
          const pattern = likeContaining(search);
          qb.andWhere((w) => {
            w.whereRaw("lower(from_email) like lower(?) escape '\\'", [pattern]).orWhereRaw("lower(subject) like lower(?) escape '\\'", [pattern]);
          });
        }
        return qb;
      },
      toRecord: (r) => ({
        id: Number(r.id),
        receivedAt: toDate(r.created_at),
        fromEmail: r.from_email,
        subject: r.subject,
        reason: r.cause ?? 'automatic mail',
      }),
    },
    args,
  );
}

/** The original (whole text, sanitised HTML) of one mail not ticketed; admins only; NOT_FOUND otherwise. */
export async function notTicketedOriginal(
  ctx: ServiceContext,
  rawId: unknown,
): Promise<{ subject: string; fromEmail: string; text: string; html: string | null }> {
  await requireAdmin(ctx);
  const id = parseId(rawId);
  type Original = { subject: string; fromEmail: string; text: string; html: string | null };
  const rows = id
    ? await ctx.em
        .getConnection()
        .execute<Original[]>(
          `select subject, from_email as "fromEmail", text, html from incoming_mails where id = ? and outcome = 'LOOP' and ticket_id is null`,
          [id],
        )
    : [];
  const row = rows[0];
  if (!row) throw AppError.notFound('Mail');
  return row;
}

/**
 * Turns one mail not ticketed into a ticket (admins only), as the listener opens one for a person's mail: its
 * sender is the requester (a customer created when new), its first entry the mail, in one transaction with its
 * events; the mail leaves the list. NOT_FOUND when it is not (or no longer) such a mail.
 */
export async function ticketFromMail(ctx: ServiceContext, rawId: unknown): Promise<TicketRecord> {
  await requireAdmin(ctx);
  const id = parseId(rawId);
  const found = id ? await ctx.em.findOne(IncomingMail, { id, outcome: 'LOOP', ticket: null }, { populate: ['raw'] }) : null;
  if (!found) throw AppError.notFound('Mail');
  const parsed = await parseIncoming(found.raw);
  const files = await keptFiles(parsed);
  const fromEmail = found.fromEmail;
  const body = cut(clean(strippedText(parsed.text, parsed.images)), LIMITS.ticketNote.max).trim() || '(no text)';
  const mailCtx: ServiceContext = {
    ...ctx,
    viewerId: null,
    via: 'EMAIL',
    requester: { name: customerNameFor(parsed.fromName, fromEmail || 'unknown') },
  };
  const online: ReadonlySet<number> = ctx.deps.mail?.defaultTeam ? await ctx.deps.presence.onlineUserIds() : new Set();
  let publish: (() => void) | undefined;
  const ticketId = await ctx.em.fork().transactional(async (em) => {
    // Locked by the state change: a second admin's click on the same mail finds it ticketed and gets NOT_FOUND.
    const claimed = await em.nativeUpdate(IncomingMail, { id: found.id, outcome: 'LOOP', ticket: null }, { outcome: 'TICKET' });
    if (claimed !== 1) throw AppError.notFound('Mail');
    const entry = await em.findOneOrFail(IncomingMail, found.id);
    const made = await newTicket({ ...mailCtx, em }, parsed, fromEmail, body, files, entry, online);
    publish = made.publish;
    return made.ticketId;
  });
  publish?.();
  return getTicket(ctx, ticketId);
}

/** Removes mail not ticketed older than `days` days; returns how many. */
export async function purgeNotTicketed(deps: ServiceDeps, days: number, now = Date.now()): Promise<number> {
  const before = new Date(now - days * 24 * 60 * 60 * 1000);
  return deps.orm.em.fork().nativeDelete(IncomingMail, { outcome: 'LOOP', ticket: null, createdAt: { $lt: before } });
}
