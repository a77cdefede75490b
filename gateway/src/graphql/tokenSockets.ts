/**
 * API tokens on graphql-ws: a socket authenticates with `connectionParams: { authorization: "Bearer <secret>" }`
 * (the bearer alone decides; the cookie is not read). Revoking a token closes its sockets on every gateway
 * (apiTokenRevoked travels over the event bus) within a second; a periodic sweep closes those whose token
 * expired. Each subscription is priced like an HTTP operation and taken from the token's budget when it starts.
 */
import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import { apiTokens, isAppError, type ApiCredential, type ServiceDeps } from '@fulcrum/schema';
import { parseAuthorization } from '../apiTokens/bearer.js';
import type { TokenBudget } from '../apiTokens/budget.js';
import { COST, MAX_OPERATION_COST, costLimitError, operationCost } from './cost.js';
import type { SocketGroup } from './socketGroups.js';
import { appErrorExtensions } from './errors.js';

/** Close code for a socket whose token is revoked or expired (like 4401 for an ended session). */
export const TOKEN_CLOSE_CODE = 4401;

export type SocketAuthentication = { kind: 'none' } | { kind: 'token'; credential: ApiCredential } | { kind: 'refused' };

export interface TokenSockets {
  /** What connectionParams.authorization says: no token, a valid one, or a refusal (close the socket). */
  authenticate(connectionParams: Record<string, unknown> | undefined, clientIp: string): Promise<SocketAuthentication>;
  /** Errors for a subscription that may not start (page size, cost; a token's budget), or undefined. */
  admit(
    schema: GraphQLSchema,
    credential: ApiCredential | undefined,
    document: DocumentNode,
    variables: Record<string, unknown> | undefined,
    operationName: string | null | undefined,
  ): Promise<GraphQLError[] | undefined>;
  dispose(): Promise<void>;
}

/** `byToken`: the gateway's bearer sockets by token id (socketGroups.ts); websockets.ts adds and removes them. */
export function createTokenSockets(deps: ServiceDeps, budget: TokenBudget, recheckMs: number, byToken: SocketGroup<number>): TokenSockets {
  const closeToken = (tokenId: number) => byToken.close(tokenId, TOKEN_CLOSE_CODE, 'Unauthorized');
  const revoked = deps.bus.subscribe('apiTokenRevoked');
  void (async () => {
    for await (const { tokenId } of revoked) closeToken(tokenId);
  })();
  const sweep = setInterval(() => {
    const ids = [...byToken.keys()];
    if (ids.length === 0) return;
    apiTokens.stillValidTokens(deps, ids).then(
      (valid) => ids.filter((id) => !valid.has(id)).forEach(closeToken),
      () => {}, // the database is briefly unreachable: keep the sockets, try again next time
    );
  }, recheckMs);
  sweep.unref();

  return {
    async authenticate(connectionParams, clientIp) {
      const header = connectionParams?.authorization ?? connectionParams?.Authorization;
      if (header === undefined || header === null) return { kind: 'none' };
      const parsed = parseAuthorization(typeof header === 'string' ? header : []); // not a string: malformed
      if (parsed.kind !== 'bearer') return { kind: 'refused' };
      try {
        return { kind: 'token', credential: await apiTokens.authenticateToken(deps, parsed.secret, clientIp) };
      } catch (error) {
        if (isAppError(error)) return { kind: 'refused' };
        throw error;
      }
    },
    async admit(schema, credential, document, variables, operationName) {
      let cost: number;
      try {
        cost = operationCost(schema, document, variables, operationName);
      } catch (error) {
        if (isAppError(error)) return [new GraphQLError(error.message, { extensions: appErrorExtensions(error) })];
        // Too many fields to price, or a pricing failure (cost.ts): refused with its safe message, never started.
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
      if (cost > MAX_OPERATION_COST) return [costLimitError(cost)];
      if (!credential) return undefined;
      const decision = await budget.spend(credential.tokenId, Math.max(COST.minimumPerOperation, cost));
      if (decision.allowed) return undefined;
      return [
        new GraphQLError(`This token has spent its budget of ${decision.limit} points per minute; try again in ${decision.resetSeconds} seconds.`, {
          extensions: { code: 'RATE_LIMITED', retryAfter: decision.resetSeconds },
        }),
      ];
    },
    async dispose() {
      clearInterval(sweep);
      await revoked.return?.();
    },
  };
}
