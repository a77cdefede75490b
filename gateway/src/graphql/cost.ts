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
 * - a `where` condition tree adds 1 point per comparison; one past the published depth (5) or size (50
 *   comparisons) is refused before it is priced (BAD_USER_INPUT on `where`);
 * - introspection (`__schema`, `__type`) costs 1 point, `__typename` nothing;
 * - every operation costs at least 1 point against a token's budget.
 *
 * One operation may cost at most MAX_OPERATION_COST; `first` outside 1..100 is refused before anything runs. Pricing
 * fails closed: an operation that cannot be priced (a malformed cost extension, a library error) is refused.
 * Sessions and tokens share these limits; tokens also have a budget per minute (apiTokens/budget.ts).
 */
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isLeafType,
  isListType,
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
// The CommonJS build, imported like any other module: it requires `graphql`, the one copy the schema's types belong
// to (esbuild inlines graphql's CommonJS files once; Node and the tests load the same files). Its ESM build imports
// graphql's .mjs files, a second copy whose checks refuse the schema's types ("from another module or realm").
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity/cjs';
import { AppError, isAppError, rules, tickets } from '@fulcrum/schema';
import { CONDITION_MESSAGES, measure, withinLimits, type ConditionInput } from '@fulcrum/schema/conditions';

export const COST = {
  object: 1,
  mutation: 10,
  /** A list without `first` counts as this many items. */
  unpagedList: tickets.MAX_PAGE_SIZE,
  /** The least an operation takes from a token's budget. */
  minimumPerOperation: 1,
  /** Each comparison of a `where` condition tree (one more SQL predicate per row read). */
  comparison: 1,
} as const;

/** The most one operation may cost. */
export const MAX_OPERATION_COST = 2000;
/** The most fields the pricing walks, once fragments are expanded; past it the operation is refused, not priced. */
export const MAX_PRICED_FIELDS = 10_000;
export const PAGE_SIZE = { min: 1, max: tickets.MAX_PAGE_SIZE, default: tickets.DEFAULT_PAGE_SIZE } as const;

/** `first` outside 1..100: refused before anything runs, with the one error type (a BAD_USER_INPUT on `first`). */
export function pageSizeError(): AppError {
  return AppError.validation({ first: [rules.PAGE_SIZE_MESSAGE] });
}

const isFrame = (typeName: string) => typeName.endsWith('Connection') || typeName.endsWith('Edge') || typeName === 'PageInfo';

/**
 * The cost model could not price an operation: a bug on our side (a malformed cost extension, a library that throws),
 * never the client's input. The operation is refused rather than run unpriced; its message is safe to send and says
 * nothing of the cause, which is kept for the log.
 */
export class PricingFailure extends GraphQLError {
  constructor(cause: unknown) {
    super('This operation could not be priced, so it was not run. Try again later.', {
      originalError: cause instanceof Error ? cause : undefined,
      extensions: { code: 'INTERNAL' },
    });
  }
}

/** An operation whose fragments expand past MAX_PRICED_FIELDS: refused like one over the cost limit. */
export function tooManyFieldsError(): GraphQLError {
  return new GraphQLError(
    `This operation selects more than ${MAX_PRICED_FIELDS} fields once its fragments are expanded, too many to price; spread fewer fragments or split it.`,
    { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
  );
}

/** A cost extension (`flatCost`, `maxItems`) when the field has one: a whole number of points or items, or a pricing failure. */
function costExtension(typeName: string, field: GraphQLField<unknown, unknown>, name: 'flatCost' | 'maxItems'): number | undefined {
  const value: unknown = field.extensions?.[name];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new Error(`${typeName}.${field.name} has a malformed ${name} extension (${typeof value}); it must be a whole number of at least 0`);
}

const estimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (field.name.startsWith('__')) return field.name === '__typename' ? 0 : COST.object;
  const flat = costExtension(type.name, field, 'flatCost');
  if (flat !== undefined) return flat;
  const named = getNamedType(field.type);
  if (isLeafType(named)) return type.name === 'Mutation' ? COST.mutation : 0;
  const item = (isFrame(named.name) ? 0 : COST.object) + childComplexity;
  let cost = item;
  if (field.args.some((a) => a.name === 'first')) {
    const first = (args.first as number | null | undefined) ?? PAGE_SIZE.default; // an Int, by the schema
    if (!Number.isInteger(first) || first < PAGE_SIZE.min || first > PAGE_SIZE.max) throw pageSizeError();
    cost = first * item;
  } else if (isListType(getNullableType(field.type)) && !type.name.endsWith('Connection')) {
    cost = (costExtension(type.name, field, 'maxItems') ?? COST.unpagedList) * item;
  }
  if (field.args.some((a) => a.name === 'where') && args.where != null) cost += conditionCost(args.where as ConditionInput);
  return type.name === 'Mutation' ? cost + COST.mutation : cost;
};

/**
 * A `where` tree's points: one per comparison. A tree past the published depth or size (conditions/tree.ts
 * CONDITION_LIMITS) is refused here, before the operation is priced or run: BAD_USER_INPUT on `where`.
 */
function conditionCost(where: ConditionInput): number {
  if (!withinLimits(where)) throw AppError.validation({ where: [CONDITION_MESSAGES.tooLarge] });
  return measure(where).comparisons * COST.comparison;
}

/** graphql-query-complexity's own refusal when the walk passes maxQueryNodes (it has no code to tell it by). */
const TOO_MANY_NODES = /maximum allowed number of nodes/;

/**
 * The cost of the operation that will run. Fails closed: whatever cannot be priced is refused, never run at 0 points.
 * Throws pageSizeError() (an AppError) for a `first` out of bounds, tooManyFieldsError() (a GraphQLError) for an
 * operation whose fragments expand past MAX_PRICED_FIELDS, and a PricingFailure for anything else that goes wrong.
 * Variables that do not fit their definitions are the one case priced 0: execution refuses those very variables
 * (graphql-js's getVariableValues, checked here first) before any resolver runs.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string | null,
): number {
  try {
    const operation = getOperationAST(document, operationName);
    if (operation && getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}).errors) return 0;
    return getComplexity({
      schema,
      query: document,
      variables: variables ?? {},
      operationName: operationName ?? undefined,
      estimators: [estimator],
      maxQueryNodes: MAX_PRICED_FIELDS,
    });
  } catch (error) {
    if (isAppError(error)) throw error;
    if (error instanceof GraphQLError && TOO_MANY_NODES.test(error.message)) throw tooManyFieldsError();
    throw new PricingFailure(error);
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
