/**
 * Checking a condition tree as it came (GraphQL's `TicketCondition`): every node is a group or a comparison, every
 * comparison names a known field, an operator it takes and as many values as the operator needs, each a value of
 * the field's type. Errors are keyed by the node's path from the argument's name (`where.all.1.any.0`), so a form can
 * point at the very row; the tree's depth and size are checked first, as one error on the argument itself.
 * Shared with web/ (no imports beyond the shared modules).
 */
import { parseDuration, parseInstant } from './duration.js';
import { ticketField, type TicketFieldDef } from './registry.js';
import {
  CONDITION_LIMITS,
  CONDITION_OPS,
  fold,
  measure,
  type Comparison,
  type Condition,
  type ConditionInput,
  type ConditionOp,
  type ConditionValue,
} from './tree.js';

export const CONDITION_MESSAGES = {
  tooLarge: `A condition may nest at most ${CONDITION_LIMITS.depth} levels deep and hold at most ${CONDITION_LIMITS.comparisons} comparisons.`,
  shape: 'A condition is either a group (all, any or not) or one comparison (field, op and values), not both and not neither.',
  emptyGroup: 'A group needs at least one condition.',
  missing: 'A comparison needs a field and an operator.',
  unknownField: (key: string) => `There is no ticket field "${key}".`,
  unknownOp: (op: string) => `There is no operator "${op}".`,
  operator: (op: string, field: TicketFieldDef) => `${field.label} does not take ${op}; it takes ${field.operators.join(', ')}.`,
  noValues: (op: string) => `${op} takes no values.`,
  someValues: (op: string) => `${op} takes one or more values.`,
  oneValue: (op: string) => `${op} takes exactly one value.`,
  option: (field: TicketFieldDef) => `${field.label} is one of ${(field.options ?? []).map((o) => o.value).join(', ')}.`,
  id: (field: TicketFieldDef) => `${field.label} is an id: a whole number of at least 1.`,
  instant: 'A time is an ISO 8601 instant with its offset, e.g. 2026-12-01T09:00:00Z.',
  duration: 'A duration is ISO 8601 days, hours, minutes and seconds, e.g. P3D, PT4H, P1DT2H or PT90S (at most 100 years).',
} as const;

/** Errors by path, as the one error type's `fields` carries them. */
export type ConditionErrors = Record<string, string[]>;

const DURATION_OPS: readonly ConditionOp[] = ['WITHIN_LAST', 'MORE_THAN_AGO'];

/** One value of a field's type, parsed, or the message saying why not. */
function parseValue(field: TicketFieldDef, op: ConditionOp, value: string): ConditionValue | { error: string } {
  switch (field.type) {
    case 'ENUM':
      return field.options?.some((o) => o.value === value) ? value : { error: CONDITION_MESSAGES.option(field) };
    case 'REFERENCE': {
      const id = /^[1-9]\d{0,15}$/.test(value) ? Number(value) : NaN;
      return Number.isSafeInteger(id) ? id : { error: CONDITION_MESSAGES.id(field) };
    }
    case 'TEXT':
      return fold(value);
    case 'TIME': {
      const ms = DURATION_OPS.includes(op) ? parseDuration(value) : parseInstant(value);
      return ms ?? { error: DURATION_OPS.includes(op) ? CONDITION_MESSAGES.duration : CONDITION_MESSAGES.instant };
    }
    default:
      return { error: `${field.label} cannot be compared yet.` };
  }
}

function comparison(node: ConditionInput, path: string, errors: ConditionErrors): Comparison | null {
  const fail = (message: string) => {
    (errors[path] ??= []).push(message);
    return null;
  };
  if (typeof node.field !== 'string' || typeof node.op !== 'string') return fail(CONDITION_MESSAGES.missing);
  const field = ticketField(node.field);
  if (!field) return fail(CONDITION_MESSAGES.unknownField(node.field));
  if (!(CONDITION_OPS as readonly string[]).includes(node.op)) return fail(CONDITION_MESSAGES.unknownOp(node.op));
  const op = node.op as ConditionOp;
  if (!field.operators.includes(op)) return fail(CONDITION_MESSAGES.operator(op, field));
  const values = Array.isArray(node.values) ? node.values.map(String) : [];
  if (op === 'IS_SET' || op === 'IS_NOT_SET') {
    if (values.length) return fail(CONDITION_MESSAGES.noValues(op));
  } else if (op === 'IN' || op === 'NOT_IN') {
    if (!values.length) return fail(CONDITION_MESSAGES.someValues(op));
  } else if (values.length !== 1) return fail(CONDITION_MESSAGES.oneValue(op));
  const parsed: ConditionValue[] = [];
  for (const value of values) {
    const result = parseValue(field, op, value);
    if (typeof result === 'object') return fail(result.error);
    parsed.push(result);
  }
  return { field: field.key, op, values, parsed };
}

function node(input: ConditionInput | null | undefined, path: string, errors: ConditionErrors): Condition | null {
  if (!input || typeof input !== 'object') {
    (errors[path] ??= []).push(CONDITION_MESSAGES.shape);
    return null;
  }
  const groups = (['all', 'any', 'not'] as const).filter((g) => input[g] != null);
  const compares = input.field != null || input.op != null || input.values != null;
  if (groups.length + (compares ? 1 : 0) !== 1) {
    (errors[path] ??= []).push(CONDITION_MESSAGES.shape);
    return null;
  }
  if (compares) {
    const c = comparison(input, path, errors);
    return c && { comparison: c };
  }
  const group = groups[0];
  if (group === 'not') {
    const inner = node(input.not, `${path}.not`, errors);
    return inner && { not: inner };
  }
  const children = input[group] ?? [];
  if (!Array.isArray(children) || !children.length) {
    (errors[path] ??= []).push(CONDITION_MESSAGES.emptyGroup);
    return null;
  }
  const parsed = children.map((child: ConditionInput, i: number) => node(child, `${path}.${group}.${i}`, errors));
  if (parsed.some((p) => p == null)) return null;
  return group === 'all' ? { all: parsed as Condition[] } : { any: parsed as Condition[] };
}

/** Whether a tree as it came is within the published depth and size (checked before anything else, also by the cost model). */
export function withinLimits(input: ConditionInput | null | undefined): boolean {
  const { depth, comparisons } = measure(input);
  return depth <= CONDITION_LIMITS.depth && comparisons <= CONDITION_LIMITS.comparisons;
}

/** The checked tree, or the errors by path (`name` is the argument's name: the root's path). */
export function parseCondition(input: ConditionInput | null | undefined, name = 'where'): { condition: Condition } | { errors: ConditionErrors } {
  if (!withinLimits(input)) return { errors: { [name]: [CONDITION_MESSAGES.tooLarge] } };
  const errors: ConditionErrors = {};
  const condition = node(input, name, errors);
  return condition && !Object.keys(errors).length ? { condition } : { errors };
}
