/**
 * Requester links (issue 25): each ticket's requester reaches the requester page at `/r/<token>`. The token is
 * HMAC-SHA256 under the server's secret of the ticket id and a per-ticket nonce (256 bits, base64url): the agent
 * can copy it again (it is derived, not stored), only its SHA-256 is stored (to find the ticket of a token), and
 * revoking draws a new nonce, so the old token finds nothing. Who may copy or revoke a ticket's link is decided by
 * services/ticketAccess.ts (another agent's ticket is NOT_FOUND).
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

/** The ticket of a token, or null (unknown, revoked or malformed). */
export async function ticketOfToken(em: Em, token: unknown): Promise<number | null> {
  if (!isTokenShape(token)) return null;
  const [row] = await run<{ ticket_id: number | string }>(em, 'select ticket_id from requester_links where token_hash = ?', [tokenHash(token)]);
  return row ? Number(row.ticket_id) : null;
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
