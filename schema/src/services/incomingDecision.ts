/**
 * THE rule of what one incoming mail becomes (docs/email.md "Incoming mail", "Held mail"), read by
 * services/incomingMail.ts, which writes it. Nothing here writes; it reads which ticket a mail names and who sent it.
 *
 * On a thread (the mail names a ticket, below): automatic mail is LOOP; a DMARC failure is held DMARC; another
 * sender than the requester is held SENDER; a mail named only by the thread root or subject tag whose sender is not
 * authenticated (neither an aligned DKIM signature nor DMARC passed) is held UNVERIFIED; anything else joins (THREAD).
 *
 * Outside a thread a mail opens a new ticket, of its sender, unless:
 * - it is automatic: only recorded (LOOP);
 * - its From is an agent's (a User's email): an agent forwarding a customer's mail (docs/email.md "Mail from an agent's address"). With
 *   the agent's address authenticated and a forwarded sender read (mail/forwarded.ts), the ticket is the agent's
 *   (they are its history's actor) and the forwarded customer its requester; without either, it is HELD on a new
 *   ticket (UNVERIFIED, or DMARC on a DMARC failure, or SENDER when no requester can be read). No customer is ever made
 *   of an agent's address: a forwarded address that is an agent's counts as none;
 * - it fails DMARC of a domain that publishes `p=reject` (its owner asks that such mail be refused): HELD DMARC on a
 *   new ticket. A failure under `p=none` or `p=quarantine` still opens the ticket as before (the red DMARC line shows
 *   it): the domain's owner asked for no more.
 */
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { User } from '../entities/index.js';
import type { ForwardedSender } from '../mail/forwarded.js';
import type { ParsedIncoming } from '../mail/incoming.js';
import { subjectTag } from '../mail/subjectTag.js';
import { parseThreadRoot, tokenMatches } from '../mail/threadRoot.js';

/** What mailauth judged of a mail (each: pass, fail, none, neutral, softfail, temperror, permerror, policy). */
export interface MailAuthResult {
  spf: string;
  dkim: string;
  dmarc: string;
  /** A DKIM signature of the From address's domain (relaxed alignment) verified. */
  dkimAligned?: boolean;
  /** The DMARC policy the From domain publishes for it (`none`, `quarantine`, `reject`; `sp` for a subdomain). */
  dmarcPolicy?: string;
}

/** Why a message is held, as its mail's record says. */
export const HELD_REASONS = ['SENDER', 'DMARC', 'LOOP', 'UNVERIFIED'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

export type IncomingOutcome = 'TICKET' | 'THREAD' | 'HELD' | 'LOOP' | 'DUPLICATE';

/**
 * What a mail becomes. `ticketId` null with TICKET or HELD: a new ticket, for `requester` (null: the mail's own
 * sender; `unknown` when an agent's mail names none), by `author` (an agent's id; null: the sender, as a requester).
 */
export interface Decision {
  outcome: Exclude<IncomingOutcome, 'DUPLICATE'>;
  reason: HeldReason | null;
  ticketId: number | null;
  requester?: ForwardedSender | 'unknown' | null;
  author?: number | null;
}

/**
 * How a mail names its ticket: REFERENCE, one of our replies' Message-IDs or an earlier mail of the ticket that
 * joined it (both unguessable to a stranger); ROOT, only the ticket's thread root (it travels in every mail of the
 * thread) or a held mail of it; TAG, only the subject tag `[#<id>]` (mail/subjectTag.ts: a number anyone can
 * type, as strong as the root); OLD_ROOT, only the sequential root of a ticket from before thread tokens.
 */
export type ThreadProof = 'REFERENCE' | 'ROOT' | 'TAG' | 'OLD_ROOT';
export type Thread = { ticketId: number; proof: ThreadProof };

/**
 * The ticket a mail answers and how well it is named, or null: the most recent reference that names one, else
 * the subject tag of an existing ticket (in any status).
 */
export async function threadTicket(em: Em, parsed: ParsedIncoming, host: string): Promise<Thread | null> {
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
async function referencedTicket(em: Em, parsed: ParsedIncoming, host: string): Promise<Thread | null> {
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
  const named: Thread[] = [];
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

/** The email of a ticket's requester, lower case, or null. */
export async function requesterEmail(em: Em, ticketId: number): Promise<string | null> {
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

/** The id of the agent (User) with this address, or null. */
export async function agentOf(em: Em, email: string): Promise<number | null> {
  if (!email) return null;
  const user = await em.findOne(User, { email: email.toLowerCase() }, { fields: ['id'] });
  return user ? user.id : null;
}

/** Whether the mail's From is authenticated: a DKIM signature aligned with its domain verified, or DMARC passed. */
export const authenticated = (auth: MailAuthResult | null) => !!auth && (auth.dkimAligned === true || auth.dmarc === 'pass');

/** A DMARC failure of a domain that asks receivers to reject such mail. */
export const rejectedByDmarc = (auth: MailAuthResult | null) => !!auth && auth.dmarc === 'fail' && auth.dmarcPolicy?.toLowerCase() === 'reject';

/** Who sent a mail, as far as the decision needs: on a thread the ticket's requester; outside one the agent and forward. */
export interface Sender {
  fromEmail: string;
  /** The ticket's requester's email (a mail on a thread), else null. */
  requester: string | null;
  /** The agent whose address the From is, or null. */
  agentId: number | null;
  /** What an agent's mail forwards (mail/forwarded.ts), an agent's or our own address already dropped; else null. */
  forwarded: ForwardedSender | null;
}

/** THE rule of what a mail becomes (the module's comment). */
export function decide(thread: Thread | null, automatic: string | null, auth: MailAuthResult | null, parsed: ParsedIncoming, sender: Sender): Decision {
  if (thread === null) return decideNew(automatic, auth, sender);
  const ticketId = thread.ticketId;
  if (automatic) return { outcome: 'LOOP', reason: 'LOOP', ticketId };
  if (auth?.dmarc === 'fail') return { outcome: 'HELD', reason: 'DMARC', ticketId };
  if (!parsed.fromAddress || parsed.fromCount !== 1 || sender.fromEmail !== sender.requester) return { outcome: 'HELD', reason: 'SENDER', ticketId };
  // A thread root is known to everyone who saw a mail of the thread, a subject tag and the old sequential root to anyone.
  if (thread.proof === 'OLD_ROOT' || (thread.proof !== 'REFERENCE' && !authenticated(auth))) return { outcome: 'HELD', reason: 'UNVERIFIED', ticketId };
  return { outcome: 'THREAD', reason: null, ticketId };
}

/** A mail outside any thread: a new ticket, held or not, or only the record. */
function decideNew(automatic: string | null, auth: MailAuthResult | null, sender: Sender): Decision {
  if (automatic) return { outcome: 'LOOP', reason: 'LOOP', ticketId: null };
  if (sender.agentId !== null) {
    const requester = sender.forwarded ?? 'unknown';
    if (!authenticated(auth)) return { outcome: 'HELD', reason: auth?.dmarc === 'fail' ? 'DMARC' : 'UNVERIFIED', ticketId: null, requester };
    if (!sender.forwarded) return { outcome: 'HELD', reason: 'SENDER', ticketId: null, requester, author: sender.agentId };
    return { outcome: 'TICKET', reason: null, ticketId: null, requester, author: sender.agentId };
  }
  if (rejectedByDmarc(auth)) return { outcome: 'HELD', reason: 'DMARC', ticketId: null };
  return { outcome: 'TICKET', reason: null, ticketId: null };
}
