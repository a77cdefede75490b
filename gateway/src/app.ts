import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expressMiddleware } from '@as-integrations/express5';
import { graphqlUploadExpress } from 'graphql-upload-minimal';
import {
  buildFulcrumSchema,
  closeHotReads,
  createAuthLimiter,
  createEventBus,
  createPresence,
  channelPrefixFor,
  databaseIdentity,
  DEFAULT_AUTH_LIMITS,
  JobRunner,
  MailSender,
  ReportFolder,
  openDatabase,
  requesterReplies,
  parseAllowList,
  rules,
  seedDemo,
  WebhookEngine,
  type Orm,
  type ServiceDeps,
} from '@fulcrum/schema';
import { DEFAULT_MAIL_FROM, DEFAULT_WEB_DIST, type GatewayOptions } from './config.js';
import { createApollo } from './graphql/apollo.js';
import { jitGateway, type JitStats } from './graphql/jit.js';
import { websocketValidationRules } from './graphql/armor.js';
import { createLiveServer } from './graphql/websockets.js';
import { createSocketQuota } from './graphql/socketQuota.js';
import { createImageRouter } from './http/images.js';
import { afterBody, dropBodyAfterAnswer } from './http/afterBody.js';
import { createDrainableServer } from './http/drain.js';
import { refuseCutShortUploads, refuseUndeclaredUploads } from './http/uploadGuard.js';
import { bodyRefusal, readsBody } from './http/appErrors.js';
import { createExplorerRouter } from './http/explorer.js';
import { securityHeaders } from './security/headers.js';
import { graphqlContextFor, serviceContextFor } from './http/serviceContext.js';
import { createWebAppRouter } from './http/webApp.js';
import { createRequesterRouter } from './http/requesterPage.js';
import { createRestRouter } from './rest/router.js';
import { startSmtpListener } from './mail/smtpListener.js';
import { scheduleNotTicketedSweep } from './mail/notTicketedSweep.js';
import { refuseCrossSiteWrites } from './security/sameOrigin.js';
import { logError } from './logging.js';
import { createSessions, loadSessionSecret, type Sessions } from './session/sessions.js';
import { bearerOrSession } from './apiTokens/bearer.js';
import { createTokenBudget, DEFAULT_TOKEN_BUDGET } from './apiTokens/budget.js';

export interface Gateway {
  url: string;
  port: number;
  server: Server;
  orm: Orm;
  deps: ServiceDeps;
  /** The session middleware and its store (with the in-memory session cache). */
  sessions: Sessions;
  /** The SMTP listener's address, when FULCRUM_SMTP_LISTEN is set. */
  smtp: { host: string; port: number } | null;
  /** This gateway's background fold of the reports' rollup queue (schema/src/services/reports/rollupQueue.ts). */
  reportFolder: ReportFolder;
  /** How many answers came from compiled queries (graphql/jit.ts). */
  jit: JitStats;
  /** Drains in-flight requests, closes websockets, the bus and the database. */
  close(): Promise<void>;
}

/**
 * Builds and starts one gateway: database (migrated, demo-seeded when empty), event bus, sessions, REST under
 * /api, GraphQL over HTTP and websockets on /graphql, images under /images, and the web app at /.
 */
export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const dataDir = options.dataDir ?? './data';
  // The demo seed runs under the startup lock with the migrations: gateways starting together seed once.
  const orm = await openDatabase({ dataDir, databaseUrl: options.databaseUrl, initialize: (options.demo ?? true) ? seedDemo : undefined });
  const log = options.logErrors === false ? () => {} : logError;
  // Redis channels and rate-limit keys are namespaced by the database, so installations sharing one Redis stay apart.
  const namespace = options.redisUrl ? await databaseIdentity(orm) : undefined;
  const events = await createEventBus({ redisUrl: options.redisUrl, namespace, onError: log });
  let redisForLimits: { disconnect(): void } | undefined;
  if (options.redisUrl) {
    const { Redis } = await import('ioredis');
    const client = new Redis(options.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 3 });
    await client.connect();
    redisForLimits = client;
  }
  const presence = await createPresence({
    bus: events.bus,
    redisUrl: options.redisUrl,
    prefix: channelPrefixFor(namespace),
    ttlMs: options.presenceTtlMs,
    heartbeatMs: options.presenceHeartbeatMs,
    onError: log,
  });
  const { allowHosts, ...webhookTuning } = options.webhooks ?? {};
  const webhooks = new WebhookEngine(orm, { allowList: parseAllowList(allowHosts), ...webhookTuning, log });
  const sessionSecret = loadSessionSecret(dataDir, options.sessionSecret);
  const mailOptions = options.mail ?? {};
  const deps: ServiceDeps = {
    orm,
    bus: events.bus,
    limiter: createAuthLimiter({ ...DEFAULT_AUTH_LIMITS, ...options.authLimits }, redisForLimits, namespace),
    presence,
    webhooks,
    // publicUrl defaults to the listen address, known once listening (below).
    mail: {
      configured: !!mailOptions.smtpUrl,
      from: mailOptions.from ?? DEFAULT_MAIL_FROM,
      publicUrl: mailOptions.publicUrl ?? '',
      linkSecret: sessionSecret,
      defaultAgent: options.incomingMail?.defaultAgent,
      defaultTeam: options.incomingMail?.defaultTeam,
    },
  };
  // The mail sender (docs/email.md): drains the mail outbox over SMTP; a delivery's new state goes out live.
  const mailSender = mailOptions.smtpUrl
    ? new MailSender(orm, {
        smtpUrl: mailOptions.smtpUrl,
        retryDelaysMs: mailOptions.retryDelaysMs,
        pollMs: mailOptions.pollMs,
        log,
        onDelivery: (changes) => void requesterReplies.announceDelivery(deps, changes).catch((e) => log(e, 'mail: announcing a delivery')),
      })
    : null;
  if (mailSender && deps.mail) deps.mail.wake = () => mailSender.wake();
  // The reports' rollups (services/reports/rollupQueue.ts): folds the deltas writes queue, woken by this process's commits.
  const reportFolder = new ReportFolder(orm, { log });
  // The job table's runner (schema/src/jobs): background work registered per kind, claimed with a lease.
  const jobRunner = new JobRunner(orm, { log });
  const introspection = options.introspection ?? process.env.NODE_ENV !== 'production';
  const budget = createTokenBudget(options.tokenBudget ?? DEFAULT_TOKEN_BUDGET, redisForLimits, namespace);

  const app = express();
  app.disable('x-powered-by');
  // Paths are matched case-sensitively: the bearer check (apiTokens/bearer.ts) knows `/graphql` exactly, so a case
  // variant such as `/GraphQL` must not reach GraphQL either, or the cookie would answer beside the bearer.
  app.set('case sensitive routing', true);
  app.set('trust proxy', options.trustProxy ?? false);
  app.set('etag', false);
  app.use(securityHeaders(options.secureCookies ?? false));
  // Sessions are cached in memory; an ended session leaves every gateway's cache through the bus (session/ormSessionStore.ts).
  // The requester page needs no session and sets no cookie: it is served before the session middleware.
  app.use(createRequesterRouter(deps));
  const sessions = createSessions(
    orm,
    sessionSecret,
    options.secureCookies ?? false,
    {
      bus: events.bus,
      shared: !!options.redisUrl,
    },
    log,
  );
  // GraphQL requests with a bearer token skip the session (apiTokens/bearer.ts).
  app.use(bearerOrSession(sessions.middleware, deps));

  const { server: httpServer, drain: drainHttp } = createDrainableServer(app);
  // Keep idle connections longer than the clients and proxies that reuse them (Node's default is 5 s, shorter than
  // most): otherwise a client may send on a socket the server is closing at that moment and get ECONNRESET.
  // Shutdown still closes idle sockets at once (http/drain.ts).
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  const schema = await buildFulcrumSchema();
  const live = createLiveServer(httpServer, schema, deps, sessions, websocketValidationRules(introspection), {
    blockFieldSuggestions: !introspection,
    log,
    sessionRecheckMs: options.sessionRecheckMs,
    budget,
    // Sockets per session and per token, counted across the gateways that share this Redis.
    quota: createSocketQuota({ redis: redisForLimits, namespace, onError: log }),
  });
  // Live events published while Redis was unreachable are lost: make every client reconnect and catch up.
  events.onReconnected(() => {
    sessions.store.forgetAll();
    live.closeAll('Event bus reconnected: catch up');
  });
  const executor = jitGateway(schema, { after: options.jitAfter });
  const apollo = createApollo({ executor, drainHttp, introspection, log, disposeWebSockets: () => live.dispose(), budget });
  await apollo.start();

  app.use('/api', refuseCrossSiteWrites, createRestRouter(deps, log));
  app.use(
    '/graphql',
    readsBody(express.json({ limit: '1mb' })),
    dropBodyAfterAnswer,
    readsBody(graphqlUploadExpress({ maxFileSize: rules.LIMITS.imageBytes + 1, maxFiles: rules.LIMITS.replyAttachments.max, maxFieldSize: 1_000_000 })),
    refuseUndeclaredUploads,
    refuseCutShortUploads,
    expressMiddleware(apollo, { context: async ({ req }) => graphqlContextFor(serviceContextFor(req, deps, 'graphql')) }),
  );
  app.use(createImageRouter(deps));
  app.use(createExplorerRouter(options.webDist ?? DEFAULT_WEB_DIST));
  app.use(createWebAppRouter(options.webDist ?? DEFAULT_WEB_DIST));
  app.use(((error: unknown, req, res, _next) => {
    // Outside /api (which has its own handler): a body its parser could not read (http/appErrors.ts bodyRefusal:
    // 400, 413 past a limit, not logged), another client error, and anything unexpected (logged, 500).
    const e = (error ?? {}) as { status?: unknown; expose?: unknown; message?: unknown };
    const refused = bodyRefusal(error);
    const status = refused?.status ?? (typeof e.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : 500);
    if (status === 500) log(error, `${req.method} ${req.originalUrl}`);
    if (res.headersSent) return;
    const message = refused?.message ?? (status === 500 ? 'Internal server error' : String(e.expose ? e.message : 'Bad request'));
    // A refusal before the body has all arrived (graphql-upload past its limits) is sent once the body is read.
    afterBody(req, res, () => {
      if (res.headersSent) return;
      res.status(status).json({
        errors: [{ message, extensions: { code: status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 500 ? 'INTERNAL' : 'BAD_REQUEST' } }],
      });
    });
  }) as express.ErrorRequestHandler);

  const pruneTimer = setInterval(() => void sessions.store.prune().catch((e) => log(e, 'session prune')), 60 * 60 * 1000);
  pruneTimer.unref();

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 4000, options.host ?? '127.0.0.1', () => resolve());
  });
  await webhooks.start();
  await mailSender?.start();
  reportFolder.start();
  await jobRunner.start();
  const { port, address } = httpServer.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  if (deps.mail && !deps.mail.publicUrl) deps.mail.publicUrl = `http://${host}:${port}`;
  // Incoming mail (docs/email.md): the SMTP listener, once everything it writes through is ready.
  const incoming = options.incomingMail;
  const smtpListener = incoming?.listen
    ? await startSmtpListener(deps, {
        listen: incoming.listen,
        maxBytes: incoming.maxBytes,
        trustedRelays: incoming.trustedRelays,
        resolver: incoming.resolver,
        log,
      })
    : null;
  if (smtpListener) await scheduleNotTicketedSweep(deps, jobRunner, { days: incoming?.notTicketedDays, everyMs: incoming?.notTicketedSweepMs, log });

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    smtp: smtpListener ? { host: smtpListener.host, port: smtpListener.port } : null,
    server: httpServer,
    orm,
    deps,
    reportFolder,
    jit: executor.stats,
    sessions,
    close: () =>
      (closing ??= (async () => {
        clearInterval(pruneTimer);
        await smtpListener?.close();
        await apollo.stop();
        await webhooks.stop();
        await mailSender?.stop();
        await reportFolder.stop();
        await jobRunner.stop();
        await presence.close();
        await sessions.store.dispose();
        await events.close();
        redisForLimits?.disconnect();
        closeHotReads(orm);
        await orm.close(true);
      })()),
  };
}
