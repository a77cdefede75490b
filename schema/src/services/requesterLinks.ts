/**
 * Requester links: each ticket's requester reaches the requester page at `/r/<token>`. The token is
 * HMAC-SHA256 under the server's secret of the ticket id and a per-ticket nonce (256 bits, base64url): the agent
 * can copy it again (it is derived, not stored), only its SHA-256 is stored (to find the ticket of a token), and
 * revoking draws a new nonce, so the old token finds nothing. Who may copy or revoke a ticket's link is decided by
 * services/ticketAccess.ts (another agent's ticket is NOT_FOUND).
 *
 * A link belongs to one requester at one address: it is drawn anew (`redrawLinks`, in the change's own transaction)
 * when the ticket's requester changes, and when the requester's email changes. A link drawn for a new requester
 * starts at the change (`shown_after_seq`, the ticket's event counter then): its page shows only the public entries
 * after it, so the new requester reads nothing that was said to the old one. Links do not expire otherwise: one
 * stays valid while its ticket exists and its requester and their address stay the same, as the mail thread does.
 */
import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { emKind, type Em } from '../database.js';
import type { ServiceContext } from './context.js';
import * as ticketAccess from './ticketAccess.js';

/** Each server secret's link key, derived once (a reply derives its link's token: bench row 11b's write path). */
const linkKeys = new Map<string, KeyObject>();

/** The secret the tokens are derived from, separated from the secret's other uses. */
function linkKey(ctx: ServiceContext): KeyObject {
  const secret = ctx.deps.mail?.linkSecret;
  if (!secret) throw new Error('Requester links need the server secret (deps.mail.linkSecret).');
  let key = linkKeys.get(secret);
  if (!key) linkKeys.set(secret, (key = createSecretKey(createHmac('sha256', secret).update('fulcrum requester link v1').digest())));
  return key;
}

export function tokenOf(ctx: ServiceContext, ticketId: number, nonce: string): string {
  return createHmac('sha256', linkKey(ctx)).update(`${ticketId}:${nonce}`).digest('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token's shape: 43 base64url characters (32 bytes). Anything else is refused before any lookup. */
export function isTokenShape(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** The requester page's address for a token. */
export function linkUrl(ctx: ServiceContext, token: string): string {
  const base = (ctx.deps.mail?.publicUrl ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
  return `${base}/r/${token}`;
}

const run = async <T>(em: Em, sql: string, params: unknown[]) =>
  em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext<Knex.Transaction>());

/**
 * The ticket's link token, its row made on first use (in `em`'s transaction when one is open). A caller that has
 * already read the row's nonce with its own statement (a reply: services/requesterReplies.ts) passes it (`null`:
 * read, and no row yet), so no second read is made.
 */
export async function ensureToken(ctx: ServiceContext, em: Em, ticketId: number, known?: string | null): Promise<string> {
  const [row] =
    known !== undefined
      ? known === null
        ? []
        : [{ nonce: known }]
      : await run<{ nonce: string }>(em, 'select nonce from requester_links where ticket_id = ?', [ticketId]);
  if (row) return tokenOf(ctx, ticketId, row.nonce);
  const nonce = randomBytes(16).toString('base64url');
  const token = tokenOf(ctx, ticketId, nonce);
  await run(em, 'insert into requester_links (ticket_id, nonce, token_hash, created_at) values (?, ?, ?, ?) on conflict (ticket_id) do nothing', [
    ticketId,
    nonce,
    tokenHash(token),
    emKind(em) === 'sqlite' ? Date.now() : new Date(),
  ]);
  const [made] = await run<{ nonce: string }>(em, 'select nonce from requester_links where ticket_id = ?', [ticketId]);
  return tokenOf(ctx, ticketId, made.nonce);
}

/** A link found by its token: its ticket and where its view starts (the seq its page shows entries after). */
export interface FoundLink {
  ticketId: number;
  shownAfterSeq: number;
}

/** The link of a token, or null (unknown, revoked or malformed). */
export async function linkOfToken(em: Em, token: unknown): Promise<FoundLink | null> {
  if (!isTokenShape(token)) return null;
  const [row] = await run<{ ticket_id: number | string; shown_after_seq: number | string }>(
    em,
    'select ticket_id, shown_after_seq from requester_links where token_hash = ?',
    [tokenHash(token)],
  );
  return row ? { ticketId: Number(row.ticket_id), shownAfterSeq: Number(row.shown_after_seq) } : null;
}

/**
 * Draws the links of these tickets anew, in `em`'s transaction (the change that calls for it: the old tokens find
 * nothing once it commits). `startHere` (a change of requester): each link is made if the ticket has none yet, and
 * its view starts after the ticket's event counter now, so the change's own entry and everything after it are
 * shown and nothing before. Otherwise (the requester's address changed) only existing links get a new token and
 * keep where their view starts.
 */
export async function redrawLinks(ctx: ServiceContext, em: Em, ticketIds: readonly number[], startHere: boolean): Promise<void> {
  const now = emKind(em) === 'sqlite' ? Date.now() : new Date();
  for (const ticketId of ticketIds) {
    const nonce = randomBytes(16).toString('base64url');
    const hash = tokenHash(tokenOf(ctx, ticketId, nonce));
    if (startHere)
      await run(
        em,
        `insert into requester_links (ticket_id, nonce, token_hash, created_at, shown_after_seq)
         select id, ?, ?, ?, event_seq from tickets where id = ?
         on conflict (ticket_id) do update set nonce = excluded.nonce, token_hash = excluded.token_hash, shown_after_seq = excluded.shown_after_seq`,
        [nonce, hash, now, ticketId],
      );
    else await run(em, 'update requester_links set nonce = ?, token_hash = ? where ticket_id = ?', [nonce, hash, ticketId]);
  }
}

/** The requester page's address of one of the viewer's tickets (`Ticket.requesterLink`). */
export async function requesterLink(ctx: ServiceContext, rawTicketId: unknown): Promise<string> {
  const { id: ticketId } = await ticketAccess.readableTicket(ctx, rawTicketId);
  return linkUrl(ctx, await ensureToken(ctx, ctx.em, ticketId));
}

/** Revokes the ticket's link: a new nonce, so the old address shows nothing; returns the new address. */
export async function revokeRequesterLink(ctx: ServiceContext, rawTicketId: unknown): Promise<string> {
  const ticket = await ticketAccess.findForChange(ctx, rawTicketId);
  const nonce = randomBytes(16).toString('base64url');
  const token = tokenOf(ctx, ticket.id, nonce);
  await ensureToken(ctx, ctx.em, ticket.id);
  await ctx.em.getConnection().execute('update requester_links set nonce = ?, token_hash = ? where ticket_id = ?', [nonce, tokenHash(token), ticket.id]);
  return linkUrl(ctx, token);
}
