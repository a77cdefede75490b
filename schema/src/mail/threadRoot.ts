/**
 * A ticket's thread root: the first id of the References of every mail we send about a ticket (mail/compose.ts),
 * `<ticket-<id>.<token>@<public host>>`, where the token is 128 random bits drawn when the ticket is created and
 * kept on it (`tickets.thread_token`). The ticket id alone was a guess away: anyone could write "In-Reply-To" a
 * ticket's root. A root is still weak proof (it travels in every mail of the thread, quoted and forwarded), so a mail
 * that names nothing else of ours is held unless its sender is authenticated (services/incomingMail.ts).
 *
 * Tickets from before the token (and rows inserted without one) keep the old form `<ticket-<id>@host>`: it is read,
 * but as a guessable name it only ever files a mail as held (docs/email.md "Threading").
 */
import { timingSafeEqual } from 'node:crypto';

/** A new ticket's token (drawn by the Ticket entity when it is created): 128 random bits, 32 lower-case hex digits. */
export { newThreadToken } from '../entities/Ticket.js';

/** The ticket's thread root; the old sequential form when it has no token. */
export function threadRootId(ticketId: number, token: string | null | undefined, host: string): string {
  return token ? `<ticket-${ticketId}.${token}@${host}>` : `<ticket-${ticketId}@${host}>`;
}

export interface ThreadRoot {
  ticketId: number;
  /** null: the old sequential form. */
  token: string | null;
}

/** The ticket id and token named by a thread root of ours under `host`, or null when it is not one. */
export function parseThreadRoot(id: string, host: string): ThreadRoot | null {
  const m = /^<ticket-(\d{1,15})(?:\.([0-9a-f]{32}))?@([^>]+)>$/.exec(id);
  if (!m || m[3].toLowerCase() !== host.toLowerCase()) return null;
  return { ticketId: Number(m[1]), token: m[2] ?? null };
}

/** Whether a root's token is the ticket's (in constant time). */
export function tokenMatches(given: string, stored: string | null | undefined): boolean {
  if (!stored || given.length !== stored.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(stored));
}
