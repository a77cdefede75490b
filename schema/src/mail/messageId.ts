/**
 * What identifies an incoming mail (docs/email.md "One entry per mail"), read from its own header block:
 *
 * - Its Message-ID: only when the mail has exactly one `Message-ID` field and its whole value is one `<id>`; a
 *   malformed one (text around the brackets, two ids, a second field) gives no usable id rather than an inner
 *   `<...>` that a different mail could share.
 * - Its content hash: SHA-256 of its From, Subject and Date fields and its body bytes; not of the trace fields a
 *   relay adds or changes (Received, DKIM-Signature, Return-Path, Authentication-Results...), so the same mail
 *   delivered again, by another route, hashes the same, and a different mail reusing a Message-ID does not.
 * - How many From addresses it names: RFC 5322 allows exactly one for mail like this (no Sender field is read).
 */
import { createHash } from 'node:crypto';
import addressparser from 'nodemailer/lib/addressparser';

export interface HeaderField {
  /** Lower case. */
  key: string;
  /** Unfolded, trimmed. */
  value: string;
}

/** Where the header block ends (its blank line), or -1 when the mail is all header. */
function headerEnd(raw: Buffer): { end: number; bodyStart: number } {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { end: crlf, bodyStart: crlf + 4 };
  if (lf >= 0) return { end: lf, bodyStart: lf + 2 };
  return { end: raw.length, bodyStart: raw.length };
}

/** The header block's fields, in order (a header block beyond 1 MB is read to there). */
export function headerFields(raw: Buffer): HeaderField[] {
  const { end } = headerEnd(raw);
  const head = raw.subarray(0, Math.min(end, 1024 * 1024)).toString('utf8');
  const fields: HeaderField[] = [];
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.push({ key: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  return fields;
}

// eslint-disable-next-line no-control-regex
const ONE_ID = /^<[^<>\s\u0000-\u001f\u007f]{1,253}>$/;

/** The mail's Message-ID (with angle brackets) when exactly one field holds exactly one `<id>`, else null. */
export function messageIdOf(fields: readonly HeaderField[]): string | null {
  const found = fields.filter((f) => f.key === 'message-id');
  return found.length === 1 && ONE_ID.test(found[0].value) ? found[0].value : null;
}

/** SHA-256 (hex) of the From, Subject and Date fields and the body bytes. */
export function contentHash(raw: Buffer, fields: readonly HeaderField[]): string {
  const hash = createHash('sha256');
  for (const key of ['from', 'subject', 'date']) for (const f of fields) if (f.key === key) hash.update(`${key}:${f.value}\n`);
  hash.update('\n');
  hash.update(raw.subarray(headerEnd(raw).bodyStart));
  return hash.digest('hex');
}

/** How many addresses the mail's From fields name, over all of them (groups' members counted). */
export function fromAddressCount(fields: readonly HeaderField[]): number {
  let count = 0;
  for (const f of fields) {
    if (f.key !== 'from') continue;
    try {
      count += addressparser(f.value, { flatten: true }).filter((a) => !!a.address).length;
    } catch {
      count += 2; // unreadable: not one From address
    }
  }
  return count;
}

/** The key of a mail without a usable Message-ID: its content hash, so the same mail twice is still one entry. */
export function derivedMessageId(hash: string): string {
  return `<sha256-${hash}@fulcrum.invalid>`;
}
