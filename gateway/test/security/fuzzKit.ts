/**
 * What the fuzzing files (fuzz.test.ts, fuzzServer.test.ts) share: the run count and seed, the tally of requests
 * and of what no answer may hold (a 5xx, a stack trace or internals, a non-JSON answer from /api or /graphql), the
 * check each answer goes through, the nasty strings every input is tried with, and the REST routes that take a body.
 */
import fc from 'fast-check';
/** Runs per route or field; the whole file stays well under a minute. */
export const RUNS = Number(process.env.FULCRUM_FUZZ_RUNS ?? 24);
export const SEED = Number(process.env.FULCRUM_FUZZ_SEED ?? 20261122);
export const stats = { requests: 0, fiveHundreds: 0, leaks: 0, nonJson: 0 };
export const failures: string[] = [];

/** A stack frame, a source path, or a database error: never in a response, whatever the input echoed back. */
const INTERNALS =
  /\n\s+at \S.*:\d+:\d+|node_modules\/|\/src\/[\w/]+\.ts\b|SQLITE_[A-Z]+|duplicate key value|violates [\w ]*constraint|syntax error at or near|MikroORM|knex/i;

export function check(what: string, status: number, text: string, contentType: string | null) {
  stats.requests++;
  if (status >= 500) {
    stats.fiveHundreds++;
    failures.push(`${what} -> ${status} ${text.slice(0, 200)}`);
  }
  if (INTERNALS.test(text)) {
    stats.leaks++;
    failures.push(`${what} leaked: ${text.slice(0, 300)}`);
  }
  // /api and /graphql always answer JSON; /images answers image bytes, the requester page (/r/) HTML.
  if (!what.includes('/images/') && !what.includes(' /r/') && !contentType?.includes('application/json')) {
    stats.nonJson++;
    failures.push(`${what} answered ${contentType}`);
  }
}

export const MEGABYTE = 'x'.repeat(1024 * 1024);
/** The strings every input gets tried with, beside fast-check's own. */
export const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b@c.d',
      "'",
      '"',
      '\\',
      "' OR 1=1 --",
      '"; DROP TABLE tickets; --',
      '`${process.exit()}`',
      '<script>alert(1)</script>',
      '💥🧨👩‍👩‍👧‍👦',
      '\u202e\u200b\ufeff',
      'ab',
      'x@y',
      'someone@fulcrum.test',
      '%00',
      '../../etc/passwd',
      '__proto__',
      'constructor',
      'NaN',
      '-1',
      '0',
      '1e309',
      '99999999999999999999',
      '1.5',
      ' 1 ',
      'Question',
      'Urgent',
      '\ud800',
      'a'.repeat(41),
      'b'.repeat(2001),
      'c'.repeat(70_000),
    ),
  },
  { weight: 1, arbitrary: fc.constant(MEGABYTE) },
);
export const REST_BODIES: [method: string, path: string, keys: string[]][] = [
  ['POST', '/api/auth/login', ['email', 'password']],
  ['POST', '/api/auth/signup', ['email', 'username', 'password']],
  ['POST', '/api/tickets/create', ['title', 'type', 'priority', 'assignee', 'requester', 'apply_macro', 'description']],
  ['PUT', '/api/tickets/:id/edit', ['title', 'type', 'priority', 'assignee', 'requester', 'apply_macro', 'description']],
  ['POST', '/api/customers/create', ['name', 'email']],
  ['PUT', '/api/customers/edit/:id', ['name', 'email']],
  ['POST', '/api/macro/create', ['name', 'description']],
  ['PUT', '/api/macro/edit/:id', ['name', 'description']],
  ['POST', '/api/messages/create/too/:id', ['message']],
  ['PUT', '/api/messages/edit/:id', ['message']],
];
