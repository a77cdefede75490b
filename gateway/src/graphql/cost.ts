/**
 * The cost model (docs/integrators.md, "Limits"), computed by graphql-query-complexity with one estimator:
 *
 * - an object costs 1 point, a scalar or enum field 0;
 * - a field with `first` (a connection) costs `first` times one item's cost; an omitted `first` counts at its
 *   default (50). The frame of a list (…Connection, …Edge, PageInfo) costs nothing itself;
 * - a list without `first` counts as 100 items (the largest page), unless the schema bounds it (the field's
 *   `maxItems` extension: `TicketChange.changes` holds at most one change per tracked field, 10;
 *   `RequesterMessage.attachments` at most 20, a mailed message's files);
 * - a field with a `flatCost` extension costs that, whatever it selects (`report`: one statement pair over the
 *   report facts whatever its buckets and groups, 100 points);
 * - each mutation field adds 10 points;
 * - introspection (`__schema`, `__type`) costs 1 point, `__typename` nothing;
 * - every operation costs at least 1 point against a token's budget.
 *
 * One operation may cost at most MAX_OPERATION_COST; `first` outside 1..100 is refused before anything runs.
 * Sessions and tokens share these limits; tokens also have a budget per minute (apiTokens/budget.ts).
 */
import { createRequire } from 'node:module';
import { GraphQLError, getNamedType, getNullableType, isLeafType, isListType, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { ComplexityEstimator } from 'graphql-query-complexity';
import { AppError, isAppError, rules, tickets } from '@fulcrum/schema';

// The CommonJS build, through require: its ESM build imports graphql's .mjs files, a second copy of graphql
// that the schema's types do not belong to ("from another module or realm").
const { getComplexity } = createRequire(import.meta.url)('graphql-query-complexity') as typeof import('graphql-query-complexity');

export const COST = {
  object: 1,
  mutation: 10,
  /** A list without `first` counts as this many items. */
  unpagedList: tickets.MAX_PAGE_SIZE,
  /** The least an operation takes from a token's budget. */
  minimumPerOperation: 1,
} as const;

/** The most one operation may cost. */
export const MAX_OPERATION_COST = 2000;
export const PAGE_SIZE = { min: 1, max: tickets.MAX_PAGE_SIZE, default: tickets.DEFAULT_PAGE_SIZE } as const;

/** `first` outside 1..100: refused before anything runs, with the one error type (a BAD_USER_INPUT on `first`). */
export function pageSizeError(): AppError {
  return AppError.validation({ first: [rules.PAGE_SIZE_MESSAGE] });
}

const isFrame = (typeName: string) => typeName.endsWith('Connection') || typeName.endsWith('Edge') || typeName === 'PageInfo';

const estimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (field.name.startsWith('__')) return field.name === '__typename' ? 0 : COST.object;
  const flat = field.extensions?.flatCost;
  if (typeof flat === 'number') return flat;
  const named = getNamedType(field.type);
  if (isLeafType(named)) return type.name === 'Mutation' ? COST.mutation : 0;
  const item = (isFrame(named.name) ? 0 : COST.object) + childComplexity;
  let cost = item;
  if (field.args.some((a) => a.name === 'first')) {
    const first = (args.first as number | null | undefined) ?? PAGE_SIZE.default; // an Int, by the schema
    if (!Number.isInteger(first) || first < PAGE_SIZE.min || first > PAGE_SIZE.max) throw pageSizeError();
    cost = first * item;
  } else if (isListType(getNullableType(field.type)) && !type.name.endsWith('Connection')) {
    const bound = field.extensions?.maxItems;
    cost = (typeof bound === 'number' ? bound : COST.unpagedList) * item;
  }
  return type.name === 'Mutation' ? cost + COST.mutation : cost;
};

/**
 * The cost of the operation that will run. Throws pageSizeError() (an AppError) for a `first` out of bounds. Variables that do not
 * fit their definitions make graphql-query-complexity throw; execution refuses those same variables before any
 * resolver runs, so such an operation costs nothing.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string | null,
): number {
  try {
    return getComplexity({ schema, query: document, variables: variables ?? {}, operationName: operationName ?? undefined, estimators: [estimator] });
  } catch (error) {
    if (isAppError(error)) throw error;
    return 0;
  }
}

const queryCosts = new WeakMap<DocumentNode, Map<string, number>>();
/** Distinct operation name + variables remembered per document; past it the document's entries start over. */
const MAX_COSTS_PER_DOCUMENT = 100;

/**
 * operationCost of a query, remembered per parsed document (Apollo's document store hands back the same
 * DocumentNode for the same query text) and per operation name and variables, which are all the cost depends on:
 * the dashboard's repeated query is priced once, not walked again on every request. Mutations are not
 * remembered (their variables are new each time).
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string | null,
): number {
  let costs = queryCosts.get(document);
  if (!costs) queryCosts.set(document, (costs = new Map<string, number>()));
  const key = `${operationName ?? ''}\n${JSON.stringify(variables ?? {})}`;
  let cost = costs.get(key);
  if (cost === undefined) {
    cost = operationCost(schema, document, variables, operationName); // a page-size AppError is thrown, never remembered
    if (costs.size >= MAX_COSTS_PER_DOCUMENT) costs.clear();
    costs.set(key, cost);
  }
  return cost;
}

export function costLimitError(cost: number): GraphQLError {
  return new GraphQLError(
    `This operation costs ${cost} points; one operation may cost at most ${MAX_OPERATION_COST}. Ask for fewer objects (a smaller \`first\`) or split it.`,
    {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', cost: { requested: cost, maxPerOperation: MAX_OPERATION_COST } },
    },
  );
}
