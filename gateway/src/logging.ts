/** Error logging for the whole gateway (HTTP, REST, GraphQL, websockets, the event bus, start-up): nothing secret reaches a log. */
export interface ErrorLog {
  (error: unknown, where: string): void;
}

/** Where the gateway logs an unexpected error: stderr, with password hashes redacted. */
export const logError: ErrorLog = (error, where) => console.error(`[fulcrum] ${where}:`, redactSecrets(error));

/**
 * Password hashes never reach a log: a database error's message carries its SQL with the values inlined (an
 * insert into users holds the argon2 hash), so every logged error goes through this first.
 */
export function redactSecrets(value: unknown): unknown {
  const scrub = (text: string) => text.replace(/\$argon2(?:id|i|d)\$[^\s'",)`]*/g, '[redacted hash]');
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
