/**
 * The condition tree (`@fulcrum/schema/conditions`) compiled to one SQL condition over the tickets table aliased
 * `t`, for SQLite and PostgreSQL, with `?` bindings in order. It reads the same registry as the in-memory evaluator:
 * FIELD_SQL gives each field key its column expression, TYPE_SQL each field type its comparisons; a field or type
 * without one fails the conformance test (conditions.test.ts) before it can reach a query.
 *
 * The semantics are the evaluator's (conditions/evaluate.ts), so no SQL NULL logic leaks out: every expression is
 * coalesced (no team is 0, no text is ''), so each comparison is true or false and `not` inverts exactly. Texts are
 * folded on both sides, by the `fold` function registered on every SQLite connection (database.ts: JavaScript's
 * toLowerCase, which SQLite's ASCII-only lower() is not) and by PostgreSQL's lower(), and matched with LIKE whose
 * wildcards in the value are escaped, so `%` and `_` are taken literally. Times compare to the millisecond, the
 * instant the API shows (PostgreSQL keeps microseconds: truncated).
 */
import { parseCondition, ticketField, type Comparison, type Condition, type ConditionInput, type TicketFieldType } from '../../conditions/index.js';
import { AppError } from '../../errors.js';
import { dateBinding, type DatabaseKind } from '../../database.js';

export interface ConditionSql {
  sql: string;
  bindings: unknown[];
}

/** The column expression of each registry field over `tickets t` (may be null only where the field is optional). */
export const FIELD_SQL: Readonly<Record<string, string>> = {
  status: 't.status',
  priority: 't.priority',
  type: 't.type',
  teamId: 't.team_id',
  assigneeId: 't.assignee_id',
  requesterId: 't.requester_id',
  'requester.email': '(select rc.email from customers rc where rc.id = t.requester_id)',
  title: 't.title',
  subject: 'coalesce(t.subject, t.title)',
  description: 't.description',
  createdAt: 't.created_at',
  updatedAt: 't.updated_at',
  // The door of the ticket's first event (its creation), ticket_events' unique (ticket_id, seq) reads it.
  channel: '(select ce.via from ticket_events ce where ce.ticket_id = t.id and ce.seq = 1)',
};

type Compile = (kind: DatabaseKind, column: string, c: Comparison, now: number) => ConditionSql;

const list = (n: number) => `(${Array.from({ length: n }, () => '?').join(', ')})`;

/** EQ, NEQ, IN, NOT_IN, IS_SET, IS_NOT_SET over a value coalesced to `none` (a value no comparison names). */
function equality(none: string): Compile {
  return (_kind, column, c) => {
    const v = `coalesce(${column}, ${none})`;
    switch (c.op) {
      case 'EQ':
        return { sql: `${v} = ?`, bindings: [c.parsed[0]] };
      case 'NEQ':
        return { sql: `${v} <> ?`, bindings: [c.parsed[0]] };
      case 'IN':
        return { sql: `${v} in ${list(c.parsed.length)}`, bindings: [...c.parsed] };
      case 'NOT_IN':
        return { sql: `${v} not in ${list(c.parsed.length)}`, bindings: [...c.parsed] };
      case 'IS_SET':
        return { sql: `${column} is not null`, bindings: [] };
      case 'IS_NOT_SET':
        return { sql: `${column} is null`, bindings: [] };
      default:
        throw new Error(`No SQL ${c.op} for ${c.field}`);
    }
  };
}

/** A LIKE pattern matching `text` literally (escape character `!`). */
const literal = (text: string) => text.replace(/[!%_]/g, (ch) => `!${ch}`);

const text: Compile = (kind, column, c, now) => {
  const folded = `${kind === 'sqlite' ? 'fold' : 'lower'}(coalesce(${column}, ''))`;
  const x = String(c.parsed[0]);
  const like = (pattern: string, negate = false) => ({ sql: `${folded} ${negate ? 'not like' : 'like'} ? escape '!'`, bindings: [pattern] });
  switch (c.op) {
    case 'CONTAINS':
      return like(`%${literal(x)}%`);
    case 'NOT_CONTAINS':
      return like(`%${literal(x)}%`, true);
    case 'STARTS_WITH':
      return like(`${literal(x)}%`);
    case 'ENDS_WITH':
      return like(`%${literal(x)}`);
    default:
      // Folded texts, compared as they are ('' for none, as in memory).
      return equality("''")(kind, folded, c, now);
  }
};

const time: Compile = (kind, column, c, now) => {
  const v = kind === 'postgresql' ? `date_trunc('milliseconds', ${column})` : column;
  const at = (ms: number) => dateBinding(kind, ms);
  const x = Number(c.parsed[0]);
  switch (c.op) {
    case 'GT':
      return { sql: `${v} > ?`, bindings: [at(x)] };
    case 'GTE':
      return { sql: `${v} >= ?`, bindings: [at(x)] };
    case 'LT':
      return { sql: `${v} < ?`, bindings: [at(x)] };
    case 'LTE':
      return { sql: `${v} <= ?`, bindings: [at(x)] };
    case 'WITHIN_LAST':
      return { sql: `${v} >= ?`, bindings: [at(now - x)] };
    case 'MORE_THAN_AGO':
      return { sql: `${v} < ?`, bindings: [at(now - x)] };
    default:
      throw new Error(`No SQL ${c.op} for ${c.field}`);
  }
};

/** The SQL of each field type (ids coalesce to 0 and enum values to '': values no comparison may name). */
export const TYPE_SQL: Partial<Record<TicketFieldType, Compile>> = { ENUM: equality("''"), REFERENCE: equality('0'), TEXT: text, TIME: time };

/** The tree as one parenthesised condition over `tickets t`; `now` (ms) is the instant WITHIN_LAST and MORE_THAN_AGO count from. */
export function conditionSql(kind: DatabaseKind, condition: Condition, now: number): ConditionSql {
  const group = (parts: Condition[], joiner: string): ConditionSql => {
    const compiled = parts.map((p) => conditionSql(kind, p, now));
    return { sql: `(${compiled.map((p) => p.sql).join(` ${joiner} `)})`, bindings: compiled.flatMap((p) => p.bindings) };
  };
  if ('all' in condition) return group(condition.all, 'and');
  if ('any' in condition) return group(condition.any, 'or');
  if ('not' in condition) {
    const inner = conditionSql(kind, condition.not, now);
    return { sql: `(not ${inner.sql})`, bindings: inner.bindings };
  }
  const c = condition.comparison;
  const field = ticketField(c.field);
  const compile = field && TYPE_SQL[field.type];
  const column = FIELD_SQL[c.field];
  if (!compile || !column) throw new Error(`No SQL for ${c.field}`);
  const compiled = compile(kind, column, c, now);
  return { sql: `(${compiled.sql})`, bindings: compiled.bindings };
}

/**
 * A `where` argument as it came, checked (parse.ts: errors keyed by the node's path, BAD_USER_INPUT) and compiled;
 * null for none. `now` defaults to this moment.
 */
export function whereSql(kind: DatabaseKind, input: ConditionInput | null | undefined, name = 'where', now = Date.now()): ConditionSql | null {
  if (input == null) return null;
  const parsed = parseCondition(input, name);
  if ('errors' in parsed) throw AppError.validation(parsed.errors);
  return conditionSql(kind, parsed.condition, now);
}
