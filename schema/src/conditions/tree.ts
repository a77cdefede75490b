/**
 * The condition tree ("the rules core"): one shape for every place that selects tickets by their fields
 * (`tickets(where:)` now; views and rules later). A node is either a group (`all`, `any` or `not`) or one comparison
 * (`field`, `op`, `values`). Values are strings on the wire: enum values as GraphQL names them, ids in decimal, times
 * and durations in ISO 8601. The parser (parse.ts) turns the wire shape into a checked `Condition`, the SQL compiler
 * (server side, services/rules/conditionSql.ts) and the in-memory evaluator (evaluate.ts) read that same tree.
 *
 * Decorator-free and import-free: shared with web/ as `@fulcrum/schema/conditions`.
 */

/** The operators a comparison may use; which a field takes is the registry's (registry.ts) business. */
export const CONDITION_OPS = [
  'EQ',
  'NEQ',
  'IN',
  'NOT_IN',
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'IS_SET',
  'IS_NOT_SET',
  'WITHIN_LAST',
  'MORE_THAN_AGO',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** The kinds of field the registry knows; a kind used by a field needs an SQL and an in-memory implementation. */
export const TICKET_FIELD_TYPES = ['ENUM', 'REFERENCE', 'TEXT', 'NUMBER', 'TIME', 'DATE', 'BOOLEAN', 'TAG_LIST', 'MULTI_ENUM', 'DURATION'] as const;
export type TicketFieldType = (typeof TICKET_FIELD_TYPES)[number];

/** Published limits of a tree (docs/integrators.md, "Limits"): nesting depth (a lone comparison is 1) and comparisons. */
export const CONDITION_LIMITS = { depth: 5, comparisons: 50 } as const;

/** The wire shape, as GraphQL's `TicketCondition` input (and the `Condition` output) carries it. */
export interface ConditionInput {
  all?: readonly ConditionInput[] | null;
  any?: readonly ConditionInput[] | null;
  not?: ConditionInput | null;
  field?: string | null;
  op?: string | null;
  values?: readonly string[] | null;
}

/** A comparison's value once parsed: a string (enum value, folded text), a number (id, instant or duration in ms). */
export type ConditionValue = string | number;

/** A checked comparison: a known field, an operator it takes, values parsed by the field's type. */
export interface Comparison {
  field: string;
  op: ConditionOp;
  /** As given (what a stored tree keeps and shows). */
  values: string[];
  /** Parsed: enum values as given, ids and instants and durations (ms) as numbers, texts folded. */
  parsed: ConditionValue[];
}

/** A checked tree. */
export type Condition = { all: Condition[] } | { any: Condition[] } | { not: Condition } | { comparison: Comparison };

/** The number of nodes on the longest path from `node` down to a comparison, and its comparisons (unchecked input). */
export function measure(node: ConditionInput | null | undefined, depth = 1): { depth: number; comparisons: number } {
  if (!node || typeof node !== 'object') return { depth, comparisons: 0 };
  let deepest = depth;
  let comparisons = node.field != null || node.op != null ? 1 : 0;
  const list = (group: unknown): readonly ConditionInput[] => (Array.isArray(group) ? (group as ConditionInput[]) : []);
  const children: readonly ConditionInput[] = [...list(node.all), ...list(node.any), ...(node.not ? [node.not] : [])];
  for (const child of children) {
    const m = measure(child, depth + 1);
    deepest = Math.max(deepest, m.depth);
    comparisons += m.comparisons;
    // Stop walking a tree already past the limits: its cost is bounded by the limit, not by its size.
    if (deepest > CONDITION_LIMITS.depth || comparisons > CONDITION_LIMITS.comparisons) break;
  }
  return { depth: deepest, comparisons };
}

/** Case folding of texts, the same in SQL (SQLite's registered `fold`, PostgreSQL's lower()) and in memory. */
export function fold(text: string): string {
  return text.toLowerCase();
}
