/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256>` of
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the bytes of a `whsec_<base64>` secret. A handful of lines
 * over node:crypto; tests check them with the independent `standardwebhooks` package.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new secret: 32 random bytes (the specification asks for 24 to 64). */
export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per live secret, space-separated (rotation signs twice). */
export function signatureHeader(secrets: string[], messageId: string, timestamp: number, body: string): string {
  return secrets.map((s) => sign(s, messageId, timestamp, body)).join(' ');
}
