import { unescape } from 'node:querystring';

/** Error logging for the whole gateway (HTTP, REST, GraphQL, websockets, the event bus, start-up): nothing secret reaches a log. */
export interface ErrorLog {
  (error: unknown, where: string): void;
}

/**
 * A request's URL is logged as the client sent it, so a secret may arrive percent-encoded (`%66ulcrum_pat_…`,
 * `fulcrum%5Fpat%5F…`), even twice (`%2566…`): the text is decoded until it no longer changes (Node's tolerant
 * querystring decoder, which leaves malformed escapes alone) and redacted in that form.
 */
function decodePercents(text: string): string {
  for (let round = 0; round < 8 && /%[0-9a-f]{2}/i.test(text); round++) {
    const decoded = unescape(text);
    if (decoded === text) break;
    text = decoded;
  }
  return text;
}

/** Where the gateway logs an unexpected error: stderr, with secrets redacted (the place too: a URL may hold a token). */
export const logError: ErrorLog = (error, where) => console.error(`[fulcrum] ${redactSecrets(where) as string}:`, redactSecrets(error));

/**
 * Password hashes, API token secrets and token hashes never reach a log: a database error's message carries its
 * SQL with the values inlined (an insert into users holds the argon2 hash, a token lookup the token's SHA-256),
 * so every logged error goes through this first.
 */
export function redactSecrets(value: unknown): unknown {
  const scrub = (text: string) =>
    decodePercents(text)
      .replace(/\$argon2(?:id|i|d)\$[^\s'",)`]*/g, '[redacted hash]')
      // API tokens (docs/integrators.md): a secret, or the SHA-256 hex the api_tokens table keeps of one.
      .replace(/fulcrum_pat_[0-9A-Za-z]*/g, '[redacted token]')
      .replace(/\b[0-9a-f]{64}\b/gi, '[redacted token hash]')
      .replace(/\b(Bearer\s+)[^\s'",)`]+/gi, '$1[redacted token]')
      // Webhook signing secrets (docs/webhooks.md).
      .replace(/whsec_[A-Za-z0-9+/=]+/g, '[redacted webhook secret]');
  if (value instanceof Error) {
    const copy = new Error(scrub(value.message));
    copy.name = value.name;
    copy.stack = value.stack ? scrub(value.stack) : undefined;
    return copy;
  }
  if (typeof value === 'string') return scrub(value);
  if (value && typeof value === 'object') {
    try {
      return JSON.parse(scrub(JSON.stringify(value)));
    } catch {
      return '[unprintable]';
    }
  }
  return value;
}
