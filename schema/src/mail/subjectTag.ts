/**
 * The subject tag of our mail (`Re: <title> [#<ticket id>]`, mail/compose.ts): mail clients keep it in the subject
 * of an answer even when they drop In-Reply-To and References (a new mail typed to the help desk address, a forward,
 * a client that threads by subject only). The last `[#<digits>]` in the subject names the ticket: a tag the
 * requester's client added later, or one the customer typed, comes after ours. The tag is a guessable number, so it
 * proves no more than a thread root does (services/incomingMail.ts decides what the mail becomes).
 */

/** Ticket ids are 32-bit on PostgreSQL: a larger number names no ticket. */
const MAX_TICKET_ID = 2_147_483_647;

/** The ticket id of the last `[#<digits>]` in a subject, or null (none, zero, or beyond any ticket id). */
export function subjectTag(subject: string): number | null {
  let last: string | null = null;
  for (const m of subject.matchAll(/\[#(\d{1,12})\]/g)) last = m[1];
  if (last === null) return null;
  const id = Number(last);
  return id > 0 && id <= MAX_TICKET_ID ? id : null;
}
