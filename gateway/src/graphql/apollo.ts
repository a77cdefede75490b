import { ApolloServer, HeaderMap, type ApolloServerOptions, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginUsageReportingDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { OperationTypeNode } from 'graphql';
import type { GraphQLContext } from '@fulcrum/schema';
import type { ErrorLog } from '../logging.js';
import { createArmor, PARSE_OPTIONS } from './armor.js';
import { createFormatError } from './errors.js';
import { costPlugin } from './costPlugin.js';
import type { TokenBudget } from '../apiTokens/budget.js';
import type { JitGateway } from './jit.js';

/** Rate-limited answers carry HTTP 429 and Retry-After on GraphQL too, like REST. */
const rateLimitStatus: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const limited = response.body.singleResult.errors?.find((e) => e.extensions?.code === 'RATE_LIMITED');
        if (!limited) return;
        response.http.status = 429;
        const retryAfter = limited.extensions?.retryAfter;
        response.http.headers.set('retry-after', String(typeof retryAfter === 'number' ? retryAfter : 60));
      },
    };
  },
};

export const SUBSCRIPTION_OVER_HTTP =
  'Subscriptions are served over websockets (graphql-transport-ws on /graphql), not over HTTP: send queries and mutations here.';

/** A subscription over HTTP is the client's mistake: refused with 400 before it is priced or runs (nothing to log). */
const subscriptionsOverWebsocketsOnly: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async responseForOperation({ operation }) {
        if ((operation as typeof operation | undefined)?.operation !== OperationTypeNode.SUBSCRIPTION) return null;
        return {
          http: { status: 400, headers: new HeaderMap() },
          body: { kind: 'single', singleResult: { errors: [{ message: SUBSCRIPTION_OVER_HTTP, extensions: { code: 'BAD_REQUEST' } }] } },
        };
      },
    };
  },
};

/** Apollo's own log lines (e.g. an error it did not expect) go to the gateway's log, redacted like every other. */
function apolloLogger(log: ErrorLog): NonNullable<ApolloServerOptions<GraphQLContext>['logger']> {
  const quiet = () => {};
  return { debug: quiet, info: quiet, warn: (...args) => log(args.join(' '), 'graphql (apollo)'), error: (...args) => log(args.join(' '), 'graphql (apollo)') };
}

export interface ApolloOptions {
  /** The schema with its executor (jitGateway). */
  executor: JitGateway;
  /** Drains the HTTP server when Apollo stops (http/drain.ts). */
  drainHttp: () => Promise<void>;
  introspection: boolean;
  log: ErrorLog;
  /** Disposes the websocket server when Apollo stops. */
  disposeWebSockets: () => Promise<void>;
  /** Each API token's budget of cost points per minute. */
  budget: TokenBudget;
}

export function createApollo(options: ApolloOptions): ApolloServer<GraphQLContext> {
  const armor = createArmor(!options.introspection);
  return new ApolloServer<GraphQLContext>({
    // The built schema, executed by graphql-js, and repeated queries by graphql-jit (graphql/jit.ts).
    gateway: options.executor,
    introspection: options.introspection,
    // A request with an Authorization header was authenticated by its token (apiTokens/bearer.ts), which no
    // browser attaches by itself: it is exempt, like one with Apollo's preflight headers. Cookie requests are not.
    csrfPrevention: { requestHeaders: ['x-apollo-operation-name', 'apollo-require-preflight', 'authorization'] },
    // gateway/src/main.ts owns shutdown (SIGTERM drains, then closes the database); Apollo's own signal
    // handler would race it and hang the drain.
    stopOnTerminationSignals: false,
    // Automatic persisted queries would keep a per-process cache that other gateways do not share; the web app
    // does not use them.
    persistedQueries: false,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    validationRules: armor.validationRules,
    parseOptions: PARSE_OPTIONS,
    formatError: createFormatError(options.log),
    logger: apolloLogger(options.log),
    plugins: [
      ...armor.plugins,
      subscriptionsOverWebsocketsOnly,
      costPlugin(options.budget, options.log),
      rateLimitStatus,
      {
        async serverWillStart() {
          return { drainServer: () => Promise.all([options.drainHttp(), options.disposeWebSockets()]).then(() => undefined) };
        },
      },
      // Only what we use: no landing page (it loads scripts from a CDN), no cache-control or reporting work.
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
    ],
  });
}
