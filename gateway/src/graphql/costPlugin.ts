import { HeaderMap, type ApolloServerPlugin, type GraphQLResponse } from '@apollo/server';
import { GraphQLError, OperationTypeNode } from 'graphql';
import { apiTokens, isAppError, type GraphQLContext } from '@fulcrum/schema';
import type { BudgetState, TokenBudget } from '../apiTokens/budget.js';
import { COST, MAX_OPERATION_COST, PricingFailure, costLimitError, operationCost, queryCost } from './cost.js';
import { appErrorExtensions } from './errors.js';
import type { ErrorLog } from '../logging.js';

/** IETF draft-ietf-httpapi-ratelimit-headers names, on every bearer response. */
export function rateLimitHeaders(state: BudgetState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
    'ratelimit-policy': `${state.limit};w=60`,
  };
}

function refusal(status: number, message: string, extensions: Record<string, unknown>, headers: Record<string, string> = {}): GraphQLResponse {
  return { http: { status, headers: new HeaderMap(Object.entries(headers)) }, body: { kind: 'single', singleResult: { errors: [{ message, extensions }] } } };
}

/** Seconds a client waits before retrying when a limit could not be checked (its store did not answer). */
export const LIMIT_UNAVAILABLE_RETRY_SECONDS = 5;

/** A limit whose store failed refuses the request (fails closed): 503, the published INTERNAL code, Retry-After. */
export function limitUnavailable(): GraphQLResponse {
  return refusal(
    503,
    'This request could not be checked against its limits, so it was not run. Try again shortly.',
    { code: 'INTERNAL', retryAfter: LIMIT_UNAVAILABLE_RETRY_SECONDS },
    { 'retry-after': String(LIMIT_UNAVAILABLE_RETRY_SECONDS) },
  );
}

/**
 * Prices every operation before it runs (cost.ts) and refuses it past the per-operation limit; for a request
 * authenticated by an API token, also checks the token's scope and takes the cost from its budget (429 with
 * Retry-After when it does not fit). Every response carries `extensions.cost`; bearer responses the RateLimit
 * headers. Every step fails closed: an operation that cannot be priced is refused with 500, one whose budget
 * cannot be read with 503 (each logged once, with nothing of the request in it), and neither runs.
 */
export function costPlugin(budget: TokenBudget, log: ErrorLog): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      let cost: number | undefined;
      let state: BudgetState | undefined;
      return {
        async responseForOperation({ schema, document, request, operationName, operation: resolved, contextValue }) {
          // No operation to run (operationName names none in the document): nothing to price or to allow; graphql-js
          // answers "Unknown operation named …" and Apollo sends it with 400. (Apollo types it as present; it is not.)
          const operation = resolved as typeof resolved | undefined;
          if (!operation) return null;
          const service = contextValue.service;
          try {
            apiTokens.assertScopeAllows(service, operation.operation);
          } catch (error) {
            if (isAppError(error)) return refusal(403, error.message, { code: error.code });
            throw error;
          }
          try {
            cost = (operation.operation === OperationTypeNode.QUERY ? queryCost : operationCost)(schema, document, request.variables, operationName);
          } catch (error) {
            if (isAppError(error)) return refusal(400, error.message, appErrorExtensions(error));
            if (error instanceof PricingFailure) {
              log(error.originalError ?? error, 'graphql cost (operation refused)');
              return refusal(500, error.message, error.extensions);
            }
            if (error instanceof GraphQLError) return refusal(400, error.message, error.extensions);
            throw error;
          }
          if (cost > MAX_OPERATION_COST) {
            const error = costLimitError(cost);
            return refusal(400, error.message, error.extensions);
          }
          if (!service.token) return null;
          let decision;
          try {
            decision = await budget.spend(service.token.tokenId, Math.max(COST.minimumPerOperation, cost));
          } catch (error) {
            log(error, 'graphql token budget (operation refused)');
            return limitUnavailable();
          }
          state = { limit: decision.limit, remaining: decision.remaining, resetSeconds: decision.resetSeconds };
          if (decision.allowed) return null;
          return refusal(429, `This token has spent its budget of ${decision.limit} points per minute; try again in ${decision.resetSeconds} seconds.`, {
            code: 'RATE_LIMITED',
            retryAfter: decision.resetSeconds,
          });
        },
        async willSendResponse({ response, contextValue }) {
          const token = contextValue?.service?.token;
          if (token) {
            // Only the headers' figures: a budget that cannot be read leaves them out (the operation was decided).
            state ??= await budget.peek(token.tokenId).catch(() => undefined);
            if (state) for (const [name, value] of Object.entries(rateLimitHeaders(state))) response.http.headers.set(name, value);
          }
          if (cost === undefined || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, cost: { requested: cost, maxPerOperation: MAX_OPERATION_COST, ...(state ? { budget: state } : {}) } };
        },
      };
    },
  };
}
