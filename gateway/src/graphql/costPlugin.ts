import { HeaderMap, type ApolloServerPlugin, type GraphQLResponse } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import { apiTokens, isAppError, type GraphQLContext } from '@fulcrum/schema';
import type { BudgetState, TokenBudget } from '../apiTokens/budget.js';
import { COST, MAX_OPERATION_COST, costLimitError, operationCost, queryCost } from './cost.js';
import { appErrorExtensions } from './errors.js';

/** IETF draft-ietf-httpapi-ratelimit-headers names, on every bearer response. */
export function rateLimitHeaders(state: BudgetState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
    'ratelimit-policy': `${state.limit};w=60`,
  };
}

function refusal(status: number, message: string, extensions: Record<string, unknown>): GraphQLResponse {
  return { http: { status, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { errors: [{ message, extensions }] } } };
}

/**
 * Prices every operation before it runs (cost.ts) and refuses it past the per-operation limit; for a request
 * authenticated by an API token, also checks the token's scope and takes the cost from its budget (429 with
 * Retry-After when it does not fit). Every response carries `extensions.cost`; bearer responses the RateLimit
 * headers.
 */
export function costPlugin(budget: TokenBudget): ApolloServerPlugin<GraphQLContext> {
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
            throw error;
          }
          if (cost > MAX_OPERATION_COST) {
            const error = costLimitError(cost);
            return refusal(400, error.message, error.extensions);
          }
          if (!service.token) return null;
          const decision = await budget.spend(service.token.tokenId, Math.max(COST.minimumPerOperation, cost));
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
            state ??= await budget.peek(token.tokenId);
            for (const [name, value] of Object.entries(rateLimitHeaders(state))) response.http.headers.set(name, value);
          }
          if (cost === undefined || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, cost: { requested: cost, maxPerOperation: MAX_OPERATION_COST, ...(state ? { budget: state } : {}) } };
        },
      };
    },
  };
}
