/**
 * Reading a bounce (docs/email.md "Bounces"): a delivery status notification (RFC 3464 `multipart/report`, whose
 * `message/rfc822` or `text/rfc822-headers` part holds the returned mail's headers) or a plain one that quotes the
 * returned mail. What it says: the Message-IDs of the returned mail (services/bounces.ts keeps ours) and why it was
 * not delivered (the Diagnostic-Code, else the Status). Nothing here writes.
 */
import type { ParsedIncoming } from './incoming.js';
import { cut, oneLine } from './incoming.js';

export interface BounceReport {
  /** The Message-IDs the bounce quotes as a returned mail's own, in order, each with angle brackets. */
  returnedIds: string[];
  /** The Diagnostic-Code (without its `smtp;` type), else `Status <code>`, else a plain sentence. */
  diagnostic: string;
}

/** How much of a bounce is searched: a DSN is small; one quoting a whole 25 MB mail needs only its head. */
const SEARCH_BYTES = 256 * 1024;

const MAILER_DAEMON = /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon)([+@-]|$)/i;

/**
 * Whether a mail is a bounce rather than an auto-reply or a list mail: the empty envelope sender (`MAIL FROM:<>`), a
 * mailer-daemon or postmaster sender, or a `multipart/report` delivery report. Not its Auto-Submitted header:
 * Postfix's DSNs say `auto-replied` as out-of-office replies do.
 */
export function isBounce(raw: Buffer, parsed: ParsedIncoming, envelopeFrom: string | null | undefined): boolean {
  if (envelopeFrom === '') return true;
  if (parsed.fromAddress && MAILER_DAEMON.test(parsed.fromAddress)) return true;
  const head = raw
    .subarray(0, 64 * 1024)
    .toString('latin1')
    .replace(/\r\n/g, '\n')
    .split('\n\n')[0];
  return /^content-type:[ \t]*multipart\/report/im.test(head);
}

/** The text a bounce's quoted headers may be in: its raw body (7-bit report parts) and its decoded parts. */
function haystack(raw: Buffer, parsed: ParsedIncoming): string {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const bodyStart = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
  const body = bodyStart >= 0 ? raw.subarray(bodyStart, bodyStart + SEARCH_BYTES).toString('latin1') : '';
  const parts = parsed.attachments
    .filter((a) => /^(message\/(rfc822|delivery-status|global-headers|global-delivery-status)|text\/rfc822-headers)/i.test(a.contentType))
    .map((a) => a.data.subarray(0, SEARCH_BYTES).toString('utf8'));
  return [body, ...parts, parsed.text.slice(0, SEARCH_BYTES)].join('\n');
}

/** Reads what a bounce says; null when it quotes no Message-ID at all. */
export function readBounce(raw: Buffer, parsed: ParsedIncoming): BounceReport | null {
  const text = haystack(raw, parsed);
  const returnedIds = [...new Set([...text.matchAll(/^[ \t>]*Message-ID:\s{0,10}(<[^<>\s]{1,253}>)/gim)].map((m) => m[1]))];
  if (!returnedIds.length) return null;
  const code = /^Diagnostic-Code:[ \t]*(?:[A-Za-z0-9-]{1,20};)?[ \t]*([^\r\n]*(?:\r?\n[ \t]+[^\r\n]*)*)/im.exec(text);
  const status = /^Status:[ \t]*([245]\.\d{1,3}\.\d{1,3})/im.exec(text);
  const diagnostic = code && oneLine(code[1]) ? oneLine(code[1]) : status ? `Status ${status[1]}` : 'Returned by a mail server (no reason given)';
  return { returnedIds, diagnostic: cut(diagnostic, 500) };
}
