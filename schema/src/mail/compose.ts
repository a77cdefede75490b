import { threadRootId } from './threadRoot.js';

/**
 * The mail of one public reply (docs/email.md): built from the reply alone (its text, its author's name,
 * the ticket's title and the requester's link), never from the rest of the timeline, so no internal note can reach
 * it. Text and HTML versions; a Message-ID of ours and In-Reply-To/References to the ticket's thread.
 */

/** What nodemailer is given for one mail (stored as JSON in the mail outbox). */
export interface OutboundMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  inReplyTo: string;
  references: string[];
}

export interface ReplyMailInput {
  from: string;
  toEmail: string;
  toName: string;
  ticketId: number;
  /** The ticket's thread token (mail/threadRoot.ts); null for a ticket without one (the old root). */
  threadToken: string | null;
  ticketTitle: string;
  /** Who wrote the reply (an agent's username). */
  authorName: string;
  body: string;
  /** The requester page's address (/r/<token>). */
  link: string;
  /** This mail's Message-ID, with angle brackets. */
  messageId: string;
  /** The Message-IDs of the ticket's earlier replies, oldest first. */
  earlier: string[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside HTML: every markup character escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The host our Message-IDs end with: the public address's host. */
export function messageIdHost(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'fulcrum.invalid';
  } catch {
    return 'fulcrum.invalid';
  }
}

/** A display name without line breaks or quotes (it goes into a header). */
const headerName = (name: string) => name.replace(/[\r\n"\\]/g, ' ').trim();

export function composeReplyMail(input: ReplyMailInput, host: string): OutboundMail {
  const root = threadRootId(input.ticketId, input.threadToken, host);
  const references = [root, ...input.earlier.slice(-20)];
  const subject = `Re: ${input.ticketTitle} [#${input.ticketId}]`.replace(/[\r\n]+/g, ' ');
  const text = `${input.body}\n\n-- \n${input.authorName}\n\nSee the whole conversation and answer here: ${input.link}\n`;
  const paragraphs = input.body
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #1a1a1a">
${paragraphs}
<p style="color: #555">— ${escapeHtml(input.authorName)}</p>
<p><a href="${escapeHtml(input.link)}">See the whole conversation and answer</a></p>
</body></html>
`;
  return {
    from: input.from,
    to: input.toName ? `"${headerName(input.toName)}" <${input.toEmail}>` : input.toEmail,
    subject,
    text,
    html,
    messageId: input.messageId,
    inReplyTo: references[references.length - 1],
    references,
  };
}
