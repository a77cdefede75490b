/**
 * The thread our reply names (docs/email.md "What is sent"): In-Reply-To is the latest requester mail that joined
 * the conversation (not held), and References the thread root, then the requester's first mail and the
 * conversation's later mails (theirs and our replies) in time order, ending with that In-Reply-To, at most 20 in all
 * (RFC 5322 §3.6.4), so Thunderbird, Apple Mail, Gmail and Outlook put our answer under the customer's question.
 * mail/compose.ts puts the root first and answers the last id given; this chooses those ids.
 */

/** One mail of a ticket's conversation, oldest first. */
export interface ConversationMail {
  messageId: string;
  /** The requester's mail (joined the conversation), else one of our replies. */
  requester: boolean;
}

/** At most this many ids after the thread root (References holds at most 20). */
export const MAX_EARLIER = 19;

/** The ids after the thread root, oldest first, ending with the one our reply answers. */
export function earlierIds(conversation: readonly ConversationMail[], max = MAX_EARLIER): string[] {
  // Not the key of a mail that came without a Message-ID (mail/incoming.ts derivedMessageId): no client knows it.
  const mails = conversation.filter((m) => /^<[^<>\s]{1,253}>$/.test(m.messageId) && !m.messageId.endsWith('@fulcrum.invalid>'));
  const first = mails.findIndex((m) => m.requester);
  if (first < 0) return unique(mails.map((m) => m.messageId)).slice(-max);
  let last = mails.length - 1;
  while (!mails[last].requester) last--;
  const span = unique(mails.slice(first, last + 1).map((m) => m.messageId));
  return span.length <= max ? span : [span[0], ...span.slice(-(max - 1))];
}

function unique(ids: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = ids.length - 1; i >= 0; i--) if (!seen.has(ids[i]) && seen.add(ids[i])) out.unshift(ids[i]);
  return out;
}
