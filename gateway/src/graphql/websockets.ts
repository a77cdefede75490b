import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { GraphQLError, OperationTypeNode, parse, validate, specifiedRules, type GraphQLFormattedError, type GraphQLSchema, type ValidationRule } from 'graphql';
import { forkEm, type ApiCredential, type ServiceDeps } from '@fulcrum/schema';
import { createTokenBudget, DEFAULT_TOKEN_BUDGET, type TokenBudget } from '../apiTokens/budget.js';
import { createTokenSockets } from '../apiTokens/sockets.js';
import { graphqlContextFor } from '../http/serviceContext.js';
import type { Sessions } from '../session/sessions.js';
import { PARSE_OPTIONS, stripSuggestions } from './armor.js';
import { createFormatError } from './errors.js';
import { logError, type ErrorLog } from '../logging.js';
import { originMatchesHost } from '../security/sameOrigin.js';

/** Largest websocket frame accepted: subscription documents are small. */
export const WS_MAX_PAYLOAD = 64 * 1024;
export const WS_INIT_TIMEOUT_MS = 5_000;

/** A socket's caller: a session (sid) or an API token (apiTokens/sockets.ts). */
interface SocketUser {
  sid?: string;
  userId: number;
  token?: ApiCredential;
}

export interface LiveServer {
  /** Closes every socket of a session (logout), on this gateway. */
  closeSession(sid: string): void;
  /** Closes every socket with 1012 (service restart): clients reconnect and catch up. */
  closeAll(reason: string): void;
  dispose(): Promise<void>;
}

/** A browser's Origin must match the Host it connects to; clients without Origin are not browsers. */

/**
 * Websockets carry subscriptions only. Queries and mutations go over HTTP, where CSRF prevention, the session
 * port (login, logout) and the HTTP status codes live; over a socket a login would check a password without
 * being able to sign anyone in.
 */
const SubscriptionsOnly: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation !== OperationTypeNode.SUBSCRIPTION) {
      context.reportError(new GraphQLError('Only subscriptions are served over websockets; send queries and mutations over HTTP.', { nodes: [node] }));
    }
  },
});

export interface LiveServerOptions {
  /** Remove "Did you mean ...?" hints from every error (production, with introspection off). */
  blockFieldSuggestions?: boolean;
  /** Where unexpected resolver errors are logged (they reach the client as INTERNAL, without detail). */
  log?: ErrorLog;
  /** How often open sockets' sessions are checked again (ms). */
  sessionRecheckMs?: number;
  /** API tokens' budget of cost points per minute (subscriptions are priced when they start). */
  budget?: TokenBudget;
}

export const SESSION_RECHECK_MS = 60_000;

/**
 * graphql-ws on /graphql, beside Apollo on the same port. A socket is authenticated from the session cookie at
 * connection (no session: closed with 4403); every operation gets its own em.fork(); logout closes the
 * session's sockets on every gateway (sessionEnded travels over the event bus).
 */

export function createLiveServer(
  httpServer: Server,
  schema: GraphQLSchema,
  deps: ServiceDeps,
  sessions: Sessions,
  extraRules: readonly ValidationRule[],
  options: LiveServerOptions = {},
): LiveServer {
  const sessionRecheckMs = options.sessionRecheckMs ?? SESSION_RECHECK_MS;
  const wss = new WebSocketServer({
    server: httpServer,
    path: '/graphql',
    maxPayload: WS_MAX_PAYLOAD,
    verifyClient: ({ origin, req }: { origin: string; req: { headers: Record<string, string | string[] | undefined> } }) =>
      originMatchesHost(origin, req.headers.host as string | undefined),
  });
  const bySession = new Map<string, Set<WebSocket>>();
  const tokens = createTokenSockets(deps, options.budget ?? createTokenBudget(DEFAULT_TOKEN_BUDGET), sessionRecheckMs);
  const rules = [...specifiedRules, SubscriptionsOnly, ...extraRules];
  const formatError = createFormatError(options.log ?? logError);
  const format = (error: GraphQLError): GraphQLFormattedError => {
    const formatted = formatError(error.toJSON(), error);
    return options.blockFieldSuggestions ? { ...formatted, message: stripSuggestions(formatted.message) } : formatted;
  };

  const server = useServer<Record<string, unknown>, { user?: SocketUser }>(
    {
      schema,
      connectionInitWaitTimeout: WS_INIT_TIMEOUT_MS,
      validate: (s, document) => validate(s, document, rules),
      // The token limit first (graphql-ws's own parse has none): a refused document is an error message, not a 4500 close.
      onSubscribe: async (ctx, _id, payload) => {
        try {
          parse(payload.query, PARSE_OPTIONS);
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError('Syntax Error')];
        }
        // The published cost model and page size, and a token's budget (the same as over HTTP).
        return tokens.admit(schema, ctx.extra.user?.token, payload.query, payload.variables ?? undefined, payload.operationName);
      },
      onError: (_ctx, _id, _payload, errors) => errors.map(format),
      // The same error shapes as HTTP: AppErrors with their code, anything unexpected logged and sent as INTERNAL.
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(format) } : undefined),
      onConnect: async (ctx) => {
        // A bearer token in connectionParams decides alone; otherwise the session cookie.
        const bearer = await tokens.authenticate(ctx.connectionParams, ctx.extra.request.socket.remoteAddress ?? 'unknown');
        if (bearer.kind === 'refused') return false;
        if (bearer.kind === 'token') {
          ctx.extra.user = { userId: bearer.credential.userId, token: bearer.credential };
          tokens.add(bearer.credential.tokenId, ctx.extra.socket);
          return true;
        }
        const user = await sessions.fromCookieHeader(ctx.extra.request.headers.cookie);
        if (!user) return false;
        // Closed while the session was looked up: onClose has run already, so nothing may be registered now.
        if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) return false;
        ctx.extra.user = user;
        // Presence: an agent is online while any socket of theirs is open, on any gateway.
        deps.presence.connect(user.userId);
        const sockets = bySession.get(user.sid) ?? new Set();
        sockets.add(ctx.extra.socket);
        bySession.set(user.sid, sockets);
        return true;
      },
      onClose: (ctx) => {
        const user = ctx.extra.user;
        if (!user) return;
        // Token sockets are integrations, not an agent at a screen: they are not presence.
        if (user.token) return tokens.remove(user.token.tokenId, ctx.extra.socket);
        deps.presence.disconnect(user.userId);
        if (!user.sid) return;
        const sockets = bySession.get(user.sid);
        sockets?.delete(ctx.extra.socket);
        if (sockets && sockets.size === 0) bySession.delete(user.sid);
      },
      context: (ctx) =>
        graphqlContextFor({
          em: forkEm(deps.orm),
          viewerId: ctx.extra.user?.userId ?? null,
          deps,
          token: ctx.extra.user?.token,
          clientIp: ctx.extra.request.socket.remoteAddress ?? 'unknown',
        }),
    },
    wss,
  );

  const closeSession = (sid: string) => {
    for (const socket of bySession.get(sid) ?? []) socket.close(4401, 'Session ended');
    bySession.delete(sid);
  };
  const ended = deps.bus.subscribe('sessionEnded');
  void (async () => {
    for await (const { sid } of ended) closeSession(sid);
  })();
  // A socket is authenticated once, at connection. This sweep closes the sockets of sessions that ended without
  // an event reaching this gateway: idle or absolute expiry, or a logout published while Redis was unreachable.
  const sweep = setInterval(() => {
    const sids = [...bySession.keys()];
    if (sids.length === 0) return;
    sessions.stillSignedIn(sids).then(
      (live) => sids.filter((sid) => !live.has(sid)).forEach(closeSession),
      () => {}, // the database is briefly unreachable: keep the sockets, try again next time
    );
  }, sessionRecheckMs);
  sweep.unref();

  return {
    closeSession,
    closeAll(reason) {
      for (const client of wss.clients) client.close(1012, reason);
    },
    async dispose() {
      clearInterval(sweep);
      await ended.return?.();
      await tokens.dispose();
      for (const client of wss.clients) client.close(1001, 'Server shutting down');
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
