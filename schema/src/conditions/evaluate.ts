/**
 * The condition tree evaluated on one ticket in memory (the web app's live lists; the tests' oracle for the SQL).
 * The semantics are fixed and the SQL compiler (services/rules/conditionSql.ts) implements the same: every comparison
 * is true or false; a ticket without a value (no team, unassigned) equals no value, so NEQ, NOT_IN and NOT_CONTAINS
 * hold for it and `not` inverts exactly; texts compare case-folded (tree.fold) and literally; times compare to the
 * millisecond, WITHIN_LAST d holds at or after now − d and MORE_THAN_AGO d before it. Shared with web/.
 */
import { ticketField, type TicketFacts } from './registry.js';
import { fold, type Comparison, type Condition, type TicketFieldType } from './tree.js';

type Evaluator = (value: string | number | null | undefined, c: Comparison, now: number) => boolean;

const equality: Evaluator = (value, c) => {
  const v = value ?? null;
  switch (c.op) {
    case 'EQ':
      return v === c.parsed[0];
    case 'NEQ':
      return v !== c.parsed[0];
    case 'IN':
      return c.parsed.includes(v as string | number);
    case 'NOT_IN':
      return !c.parsed.includes(v as string | number);
    case 'IS_SET':
      return v != null;
    case 'IS_NOT_SET':
      return v == null;
    default:
      throw new Error(`No in-memory ${c.op} for ${c.field}`);
  }
};

const text: Evaluator = (value, c, now) => {
  const v = fold(value == null ? '' : String(value));
  const x = String(c.parsed[0]);
  switch (c.op) {
    case 'CONTAINS':
      return v.includes(x);
    case 'NOT_CONTAINS':
      return !v.includes(x);
    case 'STARTS_WITH':
      return v.startsWith(x);
    case 'ENDS_WITH':
      return v.endsWith(x);
    default:
      return equality(v, c, now);
  }
};

const time: Evaluator = (value, c, now) => {
  const v = Number(value);
  const x = Number(c.parsed[0]);
  switch (c.op) {
    case 'GT':
      return v > x;
    case 'GTE':
      return v >= x;
    case 'LT':
      return v < x;
    case 'LTE':
      return v <= x;
    case 'WITHIN_LAST':
      return v >= now - x;
    case 'MORE_THAN_AGO':
      return v < now - x;
    default:
      throw new Error(`No in-memory ${c.op} for ${c.field}`);
  }
};

/** The in-memory evaluator of each field type (a type a field uses and this lacks fails the conformance test). */
export const MEMORY_EVALUATORS: Partial<Record<TicketFieldType, Evaluator>> = { ENUM: equality, REFERENCE: equality, TEXT: text, TIME: time };

/** Whether the ticket satisfies the tree, at `now` (ms since the epoch) for WITHIN_LAST and MORE_THAN_AGO. */
export function evaluateCondition(condition: Condition, ticket: TicketFacts, now: number = Date.now()): boolean {
  if ('all' in condition) return condition.all.every((c) => evaluateCondition(c, ticket, now));
  if ('any' in condition) return condition.any.some((c) => evaluateCondition(c, ticket, now));
  if ('not' in condition) return !evaluateCondition(condition.not, ticket, now);
  const c = condition.comparison;
  const field = ticketField(c.field);
  const evaluate = field && MEMORY_EVALUATORS[field.type];
  if (!evaluate) throw new Error(`No in-memory evaluation of ${c.field}`);
  return evaluate(ticket[c.field], c, now);
}
