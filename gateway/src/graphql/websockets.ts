import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import {
  createSourceEventStream,
  execute,
  GraphQLError,
  Kind,
  OperationTypeNode,
  parse,
  validate,
  specifiedRules,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import QuickLRU from 'quick-lru';
import {
  createLoaders,
  forkEm,
  type ApiCredential,
  type ChangeSource,
  type Em,
  type GraphQLContext,
  type ServiceContext,
  type ServiceDeps,
} from '@fulcrum/schema';
import { createTokenBudget, DEFAULT_TOKEN_BUDGET, type TokenBudget } from '../apiTokens/budget.js';
import { createTokenSockets } from './tokenSockets.js';
import type { Sessions } from '../session/sessions.js';
import { PARSE_OPTIONS, stripSuggestions } from './armor.js';
import { createFormatError } from './errors.js';
import { createSocketGroups, type SocketGroup } from './socketGroups.js';
import { createSocketQuota, type SocketPlace, type SocketQuota } from './socketQuota.js';
import { logError, type ErrorLog } from '../logging.js';
import { originMatchesHost } from '../security/sameOrigin.js';

/** Largest websocket frame accepted: subscription documents are small. */
export const WS_MAX_PAYLOAD = 64 * 1024;
export const WS_INIT_TIMEOUT_MS = 5_000;

/**
 * What one caller may hold open (docs/security.md, "Websockets"). The web app opens one socket per tab with eight
 * subscriptions; 100 leaves room for the streams to come and for integrations, while 20,000 on one socket took a
 * gateway from 342 MB to 1.36 GB. 20 sockets: a session is one browser, and 20 tabs of one browser at once is
 * more than anyone works with; a token is one integration, which needs one socket (a few during a deploy).
 */
export const WS_LIMITS = { subscriptionsPerSocket: 100, socketsPerSession: 20, socketsPerToken: 20 } as const;
/** Close code of a socket past its session's or token's limit (like HTTP 429). */
export const TOO_MANY_SOCKETS_CODE = 4429;
export const LIMIT_EXCEEDED = 'LIMIT_EXCEEDED';

/** A socket's caller: a session (sid) or an API token (tokenSockets.ts), and its address (for rate limits). */
interface SocketUser {
  sid?: string;
  userId: number;
  token?: ApiCredential;
  clientIp: string;
}

export interface LiveServer {
  /** Closes every socket of a session (logout), on this gateway. */
  closeSession(sid: string): void;
  /** Closes every socket with 1012 (service restart): clients reconnect and catch up. */
  closeAll(reason: string): void;
  dispose(): Promise<void>;
}

/**
 * A place for one more socket of a session or token: below the limit on this gateway (counted synchronously, so
 * sockets connecting at once cannot overshoot) and on every gateway (the quota, with Redis). Past it the socket is
 * closed with 4429 and null is answered; graphql-ws's own 4403 then finds it closing. Null as well when the socket
 * closed while the place was asked for (its onClose has run: nothing may be registered).
 */
async function admitSocket<K>(quota: SocketQuota, socket: WebSocket, of: 'session' | 'token', key: K, group: SocketGroup<K>): Promise<SocketPlace | null> {
  const limit = of === 'session' ? WS_LIMITS.socketsPerSession : WS_LIMITS.socketsPerToken;
  const place = group.count(key) < limit ? await quota.acquire(`${of}:${String(key)}`, limit) : null;
  if (place && socket.readyState === socket.OPEN && group.count(key) < limit) return place;
  place?.release();
  if (socket.readyState === socket.OPEN) socket.close(TOO_MANY_SOCKETS_CODE, `Too many sockets: this ${of} has ${limit} open; close one first.`);
  return null;
}

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
  /** Counts each session's and token's sockets on every gateway (Redis); default: this gateway's only. */
  quota?: SocketQuota;
}

export const SESSION_RECHECK_MS = 60_000;

/** Parsed and validated subscription documents kept, by their text; longer texts are parsed every time. */
const DOCUMENT_CACHE_ENTRIES = 200;
const DOCUMENT_CACHE_MAX_CHARS = 16 * 1024;

/** A document that parsed and passed validation, shared by every socket that sends the same text. */
interface Prepared {
  query: string;
  document: DocumentNode;
}

type Caller = Pick<ServiceContext, 'viewerId' | 'token' | 'clientIp'>;

/**
 * A subscription's context, or one event's: the caller and the dependencies, with the em.fork() and the
 * DataLoaders made only when a resolver first asks for them. A subscription's `subscribe` reads only the caller,
 * so an idle socket holds no entity manager; each delivered event gets a fresh one (and fresh loaders), so
 * nothing read for one event is served stale to the next.
 *
 * Classes rather than object literals with getters: thousands of idle subscriptions each hold one, and the
 * getters then live once on the prototypes instead of as closures in every context.
 */
class SocketService implements ServiceContext {
  #em: Em | undefined;
  readonly viewerId: number | null;
  readonly token: ApiCredential | undefined;
  readonly clientIp: string;
  /** Websockets serve subscriptions only (no writes); the door is that of the socket's credential. */
  readonly via: ChangeSource;
  constructor(
    readonly deps: ServiceDeps,
    caller: Caller,
  ) {
    this.viewerId = caller.viewerId;
    this.token = caller.token;
    this.clientIp = caller.clientIp;
    this.via = caller.token ? 'API_TOKEN' : 'WEB';
  }
  get em(): Em {
    return (this.#em ??= forkEm(this.deps.orm));
  }
}

class SocketContext implements GraphQLContext {
  readonly service: SocketService;
  #loaders: GraphQLContext['loaders'] | undefined;
  constructor(deps: ServiceDeps, caller: Caller) {
    this.service = new SocketService(deps, caller);
  }
  get loaders(): GraphQLContext['loaders'] {
    return (this.#loaders ??= createLoaders(this.service));
  }
}

/**
 * The results of `sameForEveryone` subscriptions, per event (the bus hands every subscriber the same event
 * object) and per document and variables: executed for the first subscriber, sent as they are to the others.
 */
const sharedResults = new WeakMap<object, Map<DocumentNode, Map<string, Promise<ExecutionResult>>>>();

function executeOnce(args: ExecutionArgs, event: object, contextValue: () => SocketContext): Promise<ExecutionResult> {
  let byDocument = sharedResults.get(event);
  if (!byDocument) sharedResults.set(event, (byDocument = new Map<DocumentNode, Map<string, Promise<ExecutionResult>>>()));
  let byVariables = byDocument.get(args.document);
  if (!byVariables) byDocument.set(args.document, (byVariables = new Map<string, Promise<ExecutionResult>>()));
  const key = `${args.operationName ?? ''}:${JSON.stringify(args.variableValues ?? {})}`;
  let result = byVariables.get(key);
  if (!result) byVariables.set(key, (result = Promise.resolve(execute({ ...args, rootValue: event, contextValue: contextValue() }))));
  return result;
}

/**
 * graphql-js's subscribe(), except that each event is executed with a fresh context (graphql-js reuses the
 * subscription's for its whole life), and a `sameForEveryone` field once per event for all its subscribers.
 * A class rather than an async generator or closures: one object per subscription, no suspended frame.
 */
class EventResults implements AsyncGenerator<ExecutionResult, void, void> {
  readonly #events: AsyncIterator<unknown>;
  constructor(
    stream: AsyncIterable<unknown>,
    readonly args: ExecutionArgs,
    readonly sameForEveryone: boolean,
    readonly deps: ServiceDeps,
    readonly caller: Caller,
  ) {
    this.#events = stream[Symbol.asyncIterator]();
  }

  async next(): Promise<IteratorResult<ExecutionResult, void>> {
    const step = await this.#events.next();
    if (step.done) return { done: true, value: undefined };
    try {
      return { done: false, value: await this.#execute(step.value) };
    } catch (error) {
      await this.return();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult, void>> {
    await this.#events.return?.();
    return { done: true, value: undefined };
  }

  async throw(error: unknown): Promise<IteratorResult<ExecutionResult, void>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  #execute(event: unknown): Promise<ExecutionResult> | ExecutionResult {
    const contextValue = () => new SocketContext(this.deps, this.caller);
    if (!this.sameForEveryone || typeof event !== 'object' || event === null) return execute({ ...this.args, rootValue: event, contextValue: contextValue() });
    // Each subscriber's own holder of the shared result, which onNext empties once it is sent.
    return executeOnce(this.args, event, contextValue).then((result) => ({ ...result }));
  }
}

/**
 * graphql-ws on /graphql, beside Apollo on the same port. A socket is authenticated from the session cookie at
 * connection (no session: closed with 4403); every delivered event gets its own em.fork(); logout closes the
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
  const { bySession, byToken } = createSocketGroups();
  const tokens = createTokenSockets(deps, options.budget ?? createTokenBudget(DEFAULT_TOKEN_BUDGET), sessionRecheckMs, byToken);
  const rules = [...specifiedRules, SubscriptionsOnly, ...extraRules];
  const formatError = createFormatError(options.log ?? logError);
  const format = (error: GraphQLError): GraphQLFormattedError => {
    const formatted = formatError(error.toJSON(), error);
    return options.blockFieldSuggestions ? { ...formatted, message: stripSuggestions(formatted.message) } : formatted;
  };
  const subscriptionFields = schema.getSubscriptionType()?.getFields() ?? {};
  // Documents whose root field has the `sameForEveryone` extension (schema/src/graphql/conversations.ts).
  const sameForEveryone = new WeakSet<DocumentNode>();

  // 1,000 tabs send the same few subscription documents: each text is parsed (with the token limit) and
  // validated once, and every socket that sends it shares the one document.
  // (quick-lru, not lru-cache: the root node_modules holds lru-cache 5 for babel, and the test bundles written
  // under it would import that one.)
  const documents = new QuickLRU<string, Prepared>({ maxSize: DOCUMENT_CACHE_ENTRIES });
  const prepare = (query: string): Prepared | readonly GraphQLError[] => {
    const cached = documents.get(query);
    if (cached) return cached;
    let document: DocumentNode;
    try {
      document = parse(query, PARSE_OPTIONS);
    } catch (error) {
      return [error instanceof GraphQLError ? error : new GraphQLError('Syntax Error')];
    }
    const errors = validate(schema, document, rules);
    if (errors.length > 0) return errors;
    // One operation per document is the usual case; a root field named directly (not through a fragment) is
    // the only one whose extension is read here. Anything else is executed per subscriber.
    const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    const root = operations.length === 1 ? operations[0].selectionSet.selections : [];
    const isSameForEveryone = root.length === 1 && root[0].kind === Kind.FIELD && subscriptionFields[root[0].name.value]?.extensions?.sameForEveryone === true;
    if (isSameForEveryone) sameForEveryone.add(document);
    const prepared: Prepared = { query, document };
    if (query.length <= DOCUMENT_CACHE_MAX_CHARS) documents.set(query, prepared);
    return prepared;
  };

  const quota = options.quota ?? createSocketQuota();
  const server = useServer<Record<string, unknown>, { user?: SocketUser; place?: SocketPlace }>(
    {
      schema,
      connectionInitWaitTimeout: WS_INIT_TIMEOUT_MS,
      onSubscribe: async (ctx, _id, payload) => {
        // graphql-ws has registered this id already, so the new subscription is among those counted.
        if (Object.keys(ctx.subscriptions).length > WS_LIMITS.subscriptionsPerSocket) {
          return [
            new GraphQLError(
              `This socket already has ${WS_LIMITS.subscriptionsPerSocket} subscriptions, the most one socket may hold; complete one before starting another.`,
              { extensions: { code: LIMIT_EXCEEDED } },
            ),
          ];
        }
        const prepared = prepare(payload.query);
        if (!('document' in prepared)) return [...prepared];
        // The socket's message keeps the text for the subscription's life: keep the shared copy instead.
        (payload as { query: string }).query = prepared.query;
        const variables = payload.variables ?? undefined;
        // The published cost model and page size, and a token's budget (the same as over HTTP).
        const refused = await tokens.admit(schema, ctx.extra.user?.token, prepared.document, variables, payload.operationName);
        if (refused) return refused;
        const user = ctx.extra.user;
        return {
          schema,
          document: prepared.document,
          variableValues: variables,
          operationName: payload.operationName,
          contextValue: new SocketContext(deps, { viewerId: user?.userId ?? null, token: user?.token, clientIp: user?.clientIp ?? 'unknown' }),
        };
      },
      subscribe: async (args) => {
        const stream = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in stream)) return stream;
        // The subscription's context served its `subscribe`; each event gets its own, for the same caller.
        const { viewerId, token, clientIp } = (args.contextValue as SocketContext).service;
        const caller: Caller = { viewerId, token, clientIp };
        const perEvent = { ...args, contextValue: undefined };
        return new EventResults(stream, perEvent, sameForEveryone.has(args.document), deps, caller);
      },
      onError: (_ctx, _id, _payload, errors) => errors.map(format),
      // The same error shapes as HTTP: AppErrors with their code, anything unexpected logged and sent as INTERNAL.
      // graphql-ws keeps the last result of every subscription referenced until the next one: once its message is
      // built, the result (our own holder) is emptied, so an idle subscription does not hold its last event.
      onNext: (_ctx, _id, _payload, _args, result) => {
        const message = result.errors ? { ...result, errors: result.errors.map(format) } : { ...result };
        const released = result as { data?: unknown; errors?: unknown; extensions?: unknown };
        released.data = released.errors = released.extensions = undefined;
        return message;
      },
      onConnect: async (ctx) => {
        const clientIp = ctx.extra.request.socket.remoteAddress ?? 'unknown';
        // A bearer token in connectionParams decides alone; otherwise the session cookie.
        const bearer = await tokens.authenticate(ctx.connectionParams, clientIp);
        if (bearer.kind === 'refused') return false;
        if (bearer.kind === 'token') {
          const place = await admitSocket(quota, ctx.extra.socket, 'token', bearer.credential.tokenId, byToken);
          if (!place) return false;
          ctx.extra.place = place;
          ctx.extra.user = { userId: bearer.credential.userId, token: bearer.credential, clientIp };
          byToken.add(bearer.credential.tokenId, ctx.extra.socket);
          return true;
        }
        const user = await sessions.fromCookieHeader(ctx.extra.request.headers.cookie);
        if (!user) return false;
        // Closed while the session was looked up: onClose has run already, so nothing may be registered now.
        if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) return false;
        const place = await admitSocket(quota, ctx.extra.socket, 'session', user.sid, bySession);
        if (!place) return false;
        ctx.extra.place = place;
        ctx.extra.user = { sid: user.sid, userId: user.userId, clientIp };
        // Presence: an agent is online while any socket of theirs is open, on any gateway.
        deps.presence.connect(user.userId);
        bySession.add(user.sid, ctx.extra.socket);
        return true;
      },
      onClose: (ctx) => {
        ctx.extra.place?.release();
        const user = ctx.extra.user;
        if (!user) return;
        // Token sockets are integrations, not an agent at a screen: they are not presence.
        if (user.token) return byToken.remove(user.token.tokenId, ctx.extra.socket);
        deps.presence.disconnect(user.userId);
        if (user.sid) bySession.remove(user.sid, ctx.extra.socket);
      },
    },
    wss,
  );

  const closeSession = (sid: string) => bySession.close(sid, 4401, 'Session ended');
  const ended = deps.bus.subscribe('sessionEnded');
  void (async () => {
    for await (const { sid } of ended) closeSession(sid);
  })();
  // A socket is authenticated once, at connection. This sweep closes the sockets of sessions that ended without
  // an event reaching this gateway: idle or absolute expiry, or a logout published while Redis was unreachable.
  const sweep = setInterval(() => {
    const sids = bySession.keys();
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
      // The close frames go out first: anything awaited before them (the quota's Redis round trip) leaves time for
      // the HTTP drain to cut the connections, and clients would see 1006 instead of 1001.
      for (const client of wss.clients) client.close(1001, 'Server shutting down');
      await ended.return?.();
      await tokens.dispose();
      await quota.dispose();
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
