/**
 * Reading one incoming mail (docs/email.md "Incoming mail"): mailparser for the MIME, email-reply-parser
 * for the quoted history and signatures, sanitize-html for the HTML anyone will see. Nothing here writes; the
 * decisions (new ticket, thread, held, loop) are services/incomingMail.ts's. Every string leaving here is safe to
 * store on both databases: no NUL, no lone surrogate.
 */
import { simpleParser, type AddressObject, type HeaderValue } from 'mailparser';
import EmailReplyParser from 'email-reply-parser';
import sanitizeHtml from 'sanitize-html';
import { imageRefs, withoutLeftovers, type ImageRef } from './leftovers.js';
import { contentHash, fromAddressCount, headerFields, messageIdOf } from './messageId.js';
import { parseThreadRoot } from './threadRoot.js';

export interface IncomingAttachment {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface ParsedIncoming {
  /** Its Message-ID with angle brackets, or null (none, or not exactly one `<id>`: mail/messageId.ts). */
  messageId: string | null;
  /** SHA-256 of its From, Subject, Date and body (mail/messageId.ts): with the Message-ID, what makes it one mail. */
  contentHash: string;
  /** How many addresses its From fields name (exactly one for mail that may thread). */
  fromCount: number;
  /** In-Reply-To first, then References newest first: the ids it answers, each with angle brackets. */
  answers: string[];
  fromAddress: string | null;
  fromName: string;
  /** The subject on one line. */
  subject: string;
  /** The whole text (from the HTML when there is no text part). */
  text: string;
  /** The HTML part, sanitised, or null. */
  html: string | null;
  /** The images of the HTML part as it came (their references in the text are not the sender's words). */
  images: ImageRef[];
  attachments: IncomingAttachment[];
  /** Why this is automatic mail (RFC 3834 Auto-Submitted, Precedence, a mailer-daemon...), or null for a person's. */
  automatic: string | null;
}

/** Text fit for a database column: no NUL (PostgreSQL refuses it) and no lone surrogate half. */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u0000/g, '').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** One line: control characters (CR, LF, tab, NUL...) become spaces, runs of blanks one. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u001f\u007f]+/g;
  return clean(text).replace(controls, ' ').replace(/\s+/g, ' ').trim();
}

/** The first `max` UTF-16 units of a text, not cutting a character in two. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The Message-IDs in a header value (`<a@b> <c@d>`), in order; at most `max`, each at most 255 characters. */
function ids(value: unknown, max = 50): string[] {
  const text = Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : '';
  return [...text.matchAll(/<[^<>\s]{1,253}>/g)].slice(0, max).map((m) => m[0]);
}

function headerText(value: HeaderValue | undefined): string {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : '')).join(' ');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && 'value' in value && typeof value.value === 'string') return value.value;
  return '';
}

const MAILER_DAEMON = /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon|noreply-dmarc-support|bounces?)([+@-]|$)/i;

/**
 * Why a mail is automatic (never answered, never reopening a ticket), or null. RFC 3834 `Auto-Submitted` other than
 * `no`; `Precedence: bulk/junk/list`; a bounce (a mailer-daemon or postmaster sender, an empty envelope sender, a
 * delivery report); `X-Autoreply`/`X-Autorespond` (never `X-Auto-Response-Suppress`); mail carrying one of our own Message-IDs as its own (`ours`).
 */
function automaticReason(headers: Map<string, HeaderValue>, fromAddress: string | null, envelopeFrom: string | null | undefined): string | null {
  const autoSubmitted = headerText(headers.get('auto-submitted')).trim().toLowerCase();
  if (autoSubmitted && !autoSubmitted.startsWith('no')) return `Auto-Submitted: ${autoSubmitted}`;
  const precedence = headerText(headers.get('precedence')).trim().toLowerCase();
  if (/^(bulk|junk|list|auto_reply)\b/.test(precedence)) return `Precedence: ${precedence}`;
  // Not X-Auto-Response-Suppress: Exchange adds it to people's mail sent through a distribution list (and some
  // Outlook set-ups and CRMs to any mail); it asks the receiver not to auto-reply, it does not make a mail automatic.
  if (headers.has('x-autoreply') || headers.has('x-autorespond')) return 'auto-reply header';
  if (fromAddress && MAILER_DAEMON.test(fromAddress)) return 'mailer-daemon';
  if (envelopeFrom === '') return 'empty envelope sender (a bounce)';
  const contentType = headerText(headers.get('content-type')).toLowerCase();
  if (contentType.includes('multipart/report')) return 'delivery report';
  return null;
}

/** Whether a Message-ID is one of ours (a reply's or a thread root's, mail/compose.ts) under `host`. */
export function isOurMessageId(id: string, host: string): boolean {
  const m = /^<reply-[0-9a-f]{24}@([^>]+)>$/.exec(id);
  return (!!m && m[1].toLowerCase() === host.toLowerCase()) || parseThreadRoot(id, host) !== null;
}

const HTML_RULES: sanitizeHtml.IOptions = {
  // The default allow-list (text formatting, lists, tables, links) and images by https only; no script, style,
  // form, frame or event handler survives, and links open nothing of ours.
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img'],
  allowedAttributes: { ...sanitizeHtml.defaults.allowedAttributes, img: ['src', 'alt', 'width', 'height'], '*': ['title'] },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
};

/** An HTML part made safe to show (sanitize-html with the allow-list above). */
export function sanitizeMailHtml(html: string): string {
  return clean(sanitizeHtml(html, HTML_RULES));
}

/**
 * How much of a mail's text the reply parser reads: its regular expressions cost about a microsecond a character on
 * this kind of machine (84 ms for 100 kB of text), on the event loop, so a 25 MB mail would hold the gateway for
 * seconds. Only the first `ticketNote.max` characters of the stripped text are kept (services/incomingMail.ts), and
 * the visible text comes first in a reply, so twice that is read; the whole text stays in the original.
 */
export const STRIP_WINDOW = 20_000;

/**
 * The new text of a reply: quoted history and signatures removed (email-reply-parser), then what mail clients leave
 * that the parser does not know (mail/leftovers.ts: other languages' attribution lines, Outlook's separator rule,
 * image references of `images`), trimmed.
 */
export function strippedText(text: string, images: readonly ImageRef[] = []): string {
  const lineEnd = text.length > STRIP_WINDOW ? text.lastIndexOf('\n', STRIP_WINDOW) : -1;
  const window = text.length > STRIP_WINDOW ? text.slice(0, lineEnd > 0 ? lineEnd : STRIP_WINDOW) : text;
  try {
    return withoutLeftovers(clean(new EmailReplyParser().read(window).getVisibleText()), images);
  } catch {
    return withoutLeftovers(clean(window), images);
  }
}

function firstAddress(from: AddressObject | AddressObject[] | undefined): { address: string | null; name: string } {
  const list = Array.isArray(from) ? from : from ? [from] : [];
  for (const group of list)
    for (const entry of group.value ?? []) {
      const address = (entry.address ?? '').trim().toLowerCase();
      if (/^[^\s@<>",;:]{1,64}@[^\s@<>",;:]{1,190}$/.test(address)) return { address, name: oneLine(entry.name ?? '') };
    }
  return { address: null, name: '' };
}

/**
 * A calendar invite is one file: clients send the event both as a `text/calendar` part (for the mail client's
 * accept/decline buttons) and as a named `.ics` attachment with the same bytes; the named one is kept.
 */
function oneCalendar(attachments: IncomingAttachment[]): IncomingAttachment[] {
  const named = attachments.filter((a) => /\.ics$/i.test(a.filename));
  return attachments.filter(
    (a) => !(a.contentType.toLowerCase().startsWith('text/calendar') && !named.includes(a) && named.some((n) => n.data.equals(a.data))),
  );
}

/** Longest text kept of a mail (its parts beyond are in the original). */
const MAX_TEXT = 1_000_000;

const PARSER_OPTIONS = { skipImageLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: MAX_TEXT } as const;

/** The header block of a mail parsed alone (its first blank line ends it), or null. */
async function headersOnly(raw: Buffer): Promise<Awaited<ReturnType<typeof simpleParser>> | null> {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
  const head = raw.subarray(0, end >= 0 ? end : Math.min(raw.length, 64 * 1024));
  try {
    return await simpleParser(Buffer.concat([head, Buffer.from('\r\n\r\n')]), PARSER_OPTIONS);
  } catch {
    return null;
  }
}

/**
 * The text of an HTML part, as mailparser gives it for a mail that is that part alone. mailparser converts HTML to
 * text only for a single-part HTML mail (or beside a text part outside an alternative), so HTML-only mail nested in
 * a multipart (Outlook on the web's inline image in multipart/related, an attachment in multipart/mixed) would have
 * no text at all; reading the part as such a mail gives it the same text, with mailparser's own limits.
 */
async function textOfHtml(html: string): Promise<string> {
  try {
    const alone = await simpleParser(Buffer.from(`Content-Type: text/html; charset=utf-8\r\n\r\n${html}`), PARSER_OPTIONS);
    return alone.text ?? '';
  } catch {
    return '';
  }
}

/**
 * Parses one raw mail. Malformed MIME, broken encodings and odd headers give what mailparser can read; a mail it
 * cannot read at all gives an empty one (still recorded by the caller, with its original).
 */
export async function parseIncoming(raw: Buffer, envelopeFrom?: string | null): Promise<ParsedIncoming> {
  let parsed: Awaited<ReturnType<typeof simpleParser>> | null = null;
  let unreadable: string | null = null;
  try {
    parsed = await simpleParser(raw, PARSER_OPTIONS);
  } catch (error) {
    // Beyond mailparser's limits (more than 1,000 MIME parts, a header block over its cap) or not MIME at all: the
    // headers alone still say who wrote and what it answers; the body stays in the original.
    unreadable = oneLine(String((error as Error)?.message ?? error)).slice(0, 200);
    parsed = await headersOnly(raw);
  }
  const headers = parsed?.headers ?? new Map<string, HeaderValue>();
  const from = firstAddress(parsed?.from);
  const fields = headerFields(raw);
  const messageId = messageIdOf(fields);
  const answers = [...ids(parsed?.inReplyTo, 5), ...ids(parsed?.references).reverse()];
  const html = typeof parsed?.html === 'string' ? sanitizeMailHtml(cut(parsed.html, MAX_TEXT)) : null;
  const text = parsed?.text || (typeof parsed?.html === 'string' ? await textOfHtml(cut(parsed.html, MAX_TEXT)) : '');
  const attachments = oneCalendar(
    (parsed?.attachments ?? [])
      .filter((a) => Buffer.isBuffer(a.content) && a.content.length > 0)
      .map((a) => ({ filename: oneLine(a.filename ?? ''), contentType: oneLine(a.contentType ?? ''), data: a.content })),
  );
  return {
    messageId: messageId ? clean(messageId) : null,
    contentHash: contentHash(raw, fields),
    fromCount: fromAddressCount(fields),
    answers: [...new Set(answers.map(clean))],
    fromAddress: from.address,
    fromName: from.name,
    subject: oneLine(parsed?.subject ?? ''),
    text: unreadable ? `(This mail could not be read in full: ${unreadable}. Its original is kept.)` : cut(clean(text), MAX_TEXT),
    html,
    images: typeof parsed?.html === 'string' ? imageRefs(parsed.html) : [],
    attachments,
    automatic: automaticReason(headers, from.address, envelopeFrom),
  };
}
