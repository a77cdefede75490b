/**
 * Who a forwarded mail is from (docs/email.md "Mail from an agent's address"): an agent forwards a customer's mail
 * to the help desk, and the ticket's requester is the customer the forward names, not the agent. Two ways a mail
 * client forwards: inline, a block in the body that starts with a marker line (Gmail's "---------- Forwarded message
 * ---------", Apple Mail's "Begin forwarded message:", Outlook's "-----Original Message-----") followed by header
 * lines; or as an attachment, a message/rfc822 part with its own header block. The attached message is read first
 * (its From is a real header); else the first `From:` line of the body, after the first marker when there is one.
 *
 * Only ever a lower-case address that passes the same shape check as a mail's own From (mail/incoming.ts), or null:
 * what is read here is text anyone can type, so the caller trusts it only when the forwarding agent's own address is
 * authenticated (services/incomingDecision.ts).
 */
import { simpleParser, type AddressObject } from 'mailparser';
import { oneLine, type IncomingAttachment } from './incoming.js';

export interface ForwardedSender {
  address: string;
  name: string;
}

/** An address as a mail's From must look (mail/incoming.ts firstAddress). */
const ADDRESS = /^[^\s@<>",;:[\]]{1,64}@[^\s@<>",;:[\]]{1,190}$/;

/** A forward's marker line: Gmail's, Apple Mail's, Outlook's and Thunderbird's. */
const MARKER =
  /^\s*(?:-{2,}\s*Forwarded message\s*-{2,}|Begin forwarded message:|-{2,}\s*Original Message\s*-{2,}|-{2,}\s*Weitergeleitete Nachricht\s*-{2,}|-{2,}\s*Message transféré\s*-{2,})\s*$/i;

/** A `From:` header line as forwards write it: maybe quoted (`> `), maybe bold (`*From:*`, Outlook's plain text). */
const FROM_LINE = /^[\s>]*\*?(?:From|Von|De)\*?\s*:\s*\*?\s*(.*)$/i;

/** How far into the body a forward is looked for (a forward's header block is near its marker). */
const MAX_LINES = 400;

/** The address and display name of one From value (`Kim <kim@x>`, `"Lee, Kim" [mailto:kim@x]`, `kim@x`), or null. */
export function addressOf(value: string): ForwardedSender | null {
  const line = oneLine(value).slice(0, 500);
  const bracketed = /<\s*(?:mailto:)?([^<>\s]+)\s*>|\[\s*mailto:([^[\]\s]+)\s*\]/i.exec(line);
  let address: string | undefined;
  let name = '';
  if (bracketed) {
    address = bracketed[1] ?? bracketed[2];
    name = line.slice(0, bracketed.index);
  } else {
    address = line.split(/\s+/).find((word) => word.includes('@'));
  }
  address = (address ?? '')
    .replace(/^mailto:/i, '')
    .trim()
    .toLowerCase();
  if (!ADDRESS.test(address)) return null;
  return { address, name: name.replace(/["*]/g, '').trim() };
}

/** The first From of the forwarded block in a mail's text, or null. */
export function forwardedFrom(text: string): ForwardedSender | null {
  if (typeof text !== 'string') return null;
  const lines = text.split(/\r?\n/, MAX_LINES);
  const marker = lines.findIndex((line) => MARKER.test(line));
  for (const line of lines.slice(marker + 1)) {
    const m = FROM_LINE.exec(line);
    if (!m) continue;
    const found = addressOf(m[1]);
    if (found) return found;
  }
  return null;
}

/** The From of the first attached message (message/rfc822) that has a readable one, or null. */
export async function attachedFrom(attachments: readonly IncomingAttachment[]): Promise<ForwardedSender | null> {
  for (const a of attachments) {
    if (!a.contentType.toLowerCase().startsWith('message/rfc822')) continue;
    const parsed = await simpleParser(a.data, { skipImageLinks: true, skipTextToHtml: true }).catch(() => null);
    const from: AddressObject | AddressObject[] | undefined = parsed?.from;
    const groups: AddressObject[] = Array.isArray(from) ? from : from ? [from] : [];
    for (const group of groups)
      for (const entry of group.value ?? []) {
        const found = addressOf(`${entry.name ?? ''} <${entry.address ?? ''}>`);
        if (found) return found;
      }
  }
  return null;
}

/** Who a forwarded mail is from: its attached message's From, else its inline forward's, else null. */
export async function forwardedSender(parsed: { text: string; attachments: readonly IncomingAttachment[] }): Promise<ForwardedSender | null> {
  return (await attachedFrom(parsed.attachments)) ?? forwardedFrom(parsed.text);
}
