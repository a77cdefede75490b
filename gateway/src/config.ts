import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_AUTH_LIMITS, parseAllowList, type AuthLimits } from '@fulcrum/schema';
import { parseListen } from './mail/smtpListener.js';
import { dnsResolver, parseDnsServer } from './mail/dnsResolver.js';

export interface GatewayOptions {
  port?: number;
  host?: string;
  /** Folder of the SQLite file and the session secret; created if missing. */
  dataDir?: string;
  /** postgres://... switches to PostgreSQL. */
  databaseUrl?: string;
  /** redis://... switches pub/sub and rate-limit counters to Redis. */
  redisUrl?: string;
  /** Seed the demo workspace into an empty database (FULCRUM_DEMO=0 turns it off). */
  demo?: boolean;
  /** The built web app; a placeholder page is served when it is missing. */
  webDist?: string;
  /** Signs session cookies; defaults to a random secret kept in DATA_DIR. */
  sessionSecret?: string;
  /** Mark the session cookie Secure (serve over https). */
  secureCookies?: boolean;
  /** Trust X-Forwarded-* from a reverse proxy (Express "trust proxy"). */
  trustProxy?: boolean | number | string;
  /** Introspection and field suggestions; off in production by default. */
  introspection?: boolean;
  authLimits?: Partial<AuthLimits>;
  /** How often open websockets' sessions are checked again, in ms (default 60 s). */
  sessionRecheckMs?: number;
  /** Presence with Redis: how long an agent of a silent (killed) gateway stays online, and how often a gateway refreshes (ms; 30 s and 10 s). */
  presenceTtlMs?: number;
  presenceHeartbeatMs?: number;
  /** Executions of a query document by graphql-js before graphql-jit compiles it (graphql/jit.ts; default 3, 0: never). */
  jitAfter?: number;
  /** Log each request's errors (default: on, except in tests). */
  logErrors?: boolean;
  /** Cost points each API token may spend per minute (FULCRUM_TOKEN_BUDGET; docs/integrators.md). */
  tokenBudget?: number;
  /** Webhook delivery (docs/webhooks.md): FULCRUM_WEBHOOK_ALLOW_HOSTS, and FULCRUM_WEBHOOK_RETRY_DELAYS / _LEASE_MS / _POLL_MS for tests. */
  webhooks?: { allowHosts?: string; retryDelaysMs?: number[]; leaseMs?: number; pollMs?: number; disableAfterMs?: number; disableAfterFailures?: number };
  /**
   * Mail to requesters (docs/email.md): SMTP_URL (unset: replies are kept as NOT_CONFIGURED), FULCRUM_MAIL_FROM,
   * FULCRUM_PUBLIC_URL (the base of requester links; default: the address the gateway listens on), and
   * FULCRUM_MAIL_RETRY_DELAYS / FULCRUM_MAIL_POLL_MS for tests.
   */
  mail?: { smtpUrl?: string; from?: string; publicUrl?: string; retryDelaysMs?: number[]; pollMs?: number };
  /** Incoming mail (docs/email.md): the SMTP listener, off unless `listen` is set. */
  incomingMail?: {
    /** FULCRUM_SMTP_LISTEN: host:port. */
    listen?: string;
    /** FULCRUM_MAIL_MAX_BYTES (default 25 MB). */
    maxBytes?: number;
    /** FULCRUM_SMTP_TRUSTED_RELAYS: comma-separated addresses of the MTAs that relay to the listener. */
    trustedRelays?: string[];
    /** FULCRUM_MAIL_DEFAULT_AGENT: the email of the agent who owns mail from new addresses. */
    defaultAgent?: string;
    /** FULCRUM_MAIL_DEFAULT_TEAM: the team (name or id) that gets new addresses' tickets instead of an agent. */
    defaultTeam?: string;
    /** FULCRUM_MAIL_NOT_TICKETED_DAYS: how long mail not ticketed is kept (default 30 days). */
    notTicketedDays?: number;
    /** How often old mail not ticketed is removed (default hourly; for tests). */
    notTicketedSweepMs?: number;
    /** FULCRUM_MAIL_DNS: host:port of the DNS server mailauth asks (default the system's); refused when unreadable. */
    dns?: string;
    /** mailauth's DNS (tests give fixed answers; FULCRUM_MAIL_DNS sets it); default the system's with a 2 s timeout. */
    resolver?: (name: string, rrtype: string) => Promise<string[][] | string[]>;
  };
}

/** The From of replies when FULCRUM_MAIL_FROM is unset. */
export const DEFAULT_MAIL_FROM = 'Fulcrum Support <support@fulcrum.invalid>';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Reads the documented environment variables (README): PORT, HOST, DATA_DIR, DATABASE_URL, REDIS_URL, ... */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayOptions {
  return {
    port: env.PORT ? Number(env.PORT) : 4000,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    demo: env.FULCRUM_DEMO !== '0',
    sessionSecret: env.SESSION_SECRET || undefined,
    secureCookies: env.COOKIE_SECURE === '1' || env.COOKIE_SECURE === 'true',
    trustProxy: env.TRUST_PROXY ? (/^\d+$/.test(env.TRUST_PROXY) ? Number(env.TRUST_PROXY) : env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY) : false,
    introspection: env.FULCRUM_INTROSPECTION ? env.FULCRUM_INTROSPECTION === '1' : env.NODE_ENV !== 'production',
    presenceTtlMs: env.FULCRUM_PRESENCE_TTL_MS ? Number(env.FULCRUM_PRESENCE_TTL_MS) : undefined,
    presenceHeartbeatMs: env.FULCRUM_PRESENCE_HEARTBEAT_MS ? Number(env.FULCRUM_PRESENCE_HEARTBEAT_MS) : undefined,
    tokenBudget: env.FULCRUM_TOKEN_BUDGET ? Number(env.FULCRUM_TOKEN_BUDGET) : undefined,
    authLimits: authLimitsFromEnv(env.FULCRUM_AUTH_LIMITS),
    webhooks: webhookOptionsFromEnv(env),
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      from: env.FULCRUM_MAIL_FROM || undefined,
      publicUrl: env.FULCRUM_PUBLIC_URL || undefined,
      retryDelaysMs: numberList(env.FULCRUM_MAIL_RETRY_DELAYS),
      pollMs: number(env.FULCRUM_MAIL_POLL_MS),
    },
    incomingMail: {
      listen: env.FULCRUM_SMTP_LISTEN || undefined,
      maxBytes: number(env.FULCRUM_MAIL_MAX_BYTES),
      trustedRelays: env.FULCRUM_SMTP_TRUSTED_RELAYS ? env.FULCRUM_SMTP_TRUSTED_RELAYS.split(',').map((a) => a.trim()) : undefined,
      defaultAgent: env.FULCRUM_MAIL_DEFAULT_AGENT || undefined,
      defaultTeam: env.FULCRUM_MAIL_DEFAULT_TEAM || undefined,
      notTicketedDays: number(env.FULCRUM_MAIL_NOT_TICKETED_DAYS),
      dns: env.FULCRUM_MAIL_DNS || undefined,
      resolver: env.FULCRUM_MAIL_DNS && parseDnsServer(env.FULCRUM_MAIL_DNS) ? dnsResolver(env.FULCRUM_MAIL_DNS) : undefined,
    },
  };
}

const AUTH_LIMIT_NAMES = Object.keys(DEFAULT_AUTH_LIMITS) as (keyof AuthLimits)[];

/**
 * FULCRUM_AUTH_LIMITS, e.g. `signupsPerIp=100,windowSeconds=600`: overrides of the login, signup and token-guess
 * limits (docs/security.md). Unset keeps the published defaults. A name or value it cannot read is kept as NaN so
 * configurationProblems() refuses to start with a message instead of silently using a default.
 */
function authLimitsFromEnv(value: string | undefined): Partial<AuthLimits> | undefined {
  if (!value) return undefined;
  // No prototype: a name such as __proto__ or constructor is a key like any other, and refused as unknown.
  const limits: Partial<Record<string, number>> = Object.create(null) as Partial<Record<string, number>>;
  for (const pair of value.split(',')) {
    const [name = '', amount = ''] = pair.split('=').map((part) => part.trim());
    limits[name] = /^\d+$/.test(amount) ? Number(amount) : Number.NaN;
  }
  return limits;
}

const numberList = (value: string | undefined) => (value ? value.split(',').map((v) => Number(v.trim())) : undefined);
const number = (value: string | undefined) => (value ? Number(value) : undefined);

function webhookOptionsFromEnv(env: NodeJS.ProcessEnv): GatewayOptions['webhooks'] {
  return {
    allowHosts: env.FULCRUM_WEBHOOK_ALLOW_HOSTS || undefined,
    retryDelaysMs: numberList(env.FULCRUM_WEBHOOK_RETRY_DELAYS),
    leaseMs: number(env.FULCRUM_WEBHOOK_LEASE_MS),
    pollMs: number(env.FULCRUM_WEBHOOK_POLL_MS),
  };
}

/**
 * Settings that would start a gateway that misbehaves later, each with what to do about it. On PostgreSQL several
 * gateways share the sessions, so they must share the secret that signs the cookies: a secret made up per
 * gateway would sign agents out whenever their requests land on another gateway.
 */
export function configurationProblems(options: GatewayOptions): string[] {
  const problems: string[] = [];
  if (options.databaseUrl && !options.sessionSecret) {
    problems.push(
      'DATABASE_URL is set but SESSION_SECRET is not. Every gateway on one database must sign cookies with the same secret: set SESSION_SECRET to a long random string (e.g. `openssl rand -base64 32`), the same on every gateway.',
    );
  }
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)) {
    problems.push(`PORT must be a whole number from 0 to 65535, not "${process.env.PORT}".`);
  }
  if (options.tokenBudget !== undefined && (!Number.isInteger(options.tokenBudget) || options.tokenBudget < 1)) {
    problems.push(`FULCRUM_TOKEN_BUDGET must be a whole number of points per minute, at least 1, not "${process.env.FULCRUM_TOKEN_BUDGET}".`);
  }
  for (const [name, amount] of Object.entries(options.authLimits ?? {})) {
    if (!AUTH_LIMIT_NAMES.includes(name as keyof AuthLimits) || !Number.isInteger(amount) || amount < 1)
      problems.push(
        `FULCRUM_AUTH_LIMITS must be comma-separated name=number pairs, each number at least 1, with names from ${AUTH_LIMIT_NAMES.join(', ')}: "${name}" is not one of them, or its value is not a whole number.`,
      );
  }
  try {
    parseAllowList(options.webhooks?.allowHosts);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const smtpUrl = options.mail?.smtpUrl;
  if (smtpUrl && !/^smtps?:\/\/[^/\s]+/i.test(smtpUrl))
    problems.push('SMTP_URL must be smtp://[user:password@]host[:port] or smtps://..., e.g. smtp://127.0.0.1:2525.');
  const publicUrl = options.mail?.publicUrl;
  if (publicUrl && !/^https?:\/\/[^/\s]+/i.test(publicUrl))
    problems.push('FULCRUM_PUBLIC_URL must be the http(s) address requesters reach this server at, e.g. https://help.example.com.');
  const mailDelays = options.mail?.retryDelaysMs;
  if (mailDelays && !mailDelays.every((d) => Number.isFinite(d) && d >= 0))
    problems.push('FULCRUM_MAIL_RETRY_DELAYS must be comma-separated milliseconds, e.g. 10000,60000.');
  const incoming = options.incomingMail;
  if (incoming?.listen && !parseListen(incoming.listen)) problems.push(`FULCRUM_SMTP_LISTEN must be host:port, e.g. 127.0.0.1:2525, not "${incoming.listen}".`);
  if (incoming?.maxBytes !== undefined && (!Number.isInteger(incoming.maxBytes) || incoming.maxBytes < 1024))
    problems.push('FULCRUM_MAIL_MAX_BYTES must be a whole number of bytes, at least 1024 (default 26214400, 25 MB).');
  if (incoming?.listen && !incoming.defaultAgent && !incoming.defaultTeam)
    problems.push(
      'FULCRUM_SMTP_LISTEN is set but neither FULCRUM_MAIL_DEFAULT_AGENT nor FULCRUM_MAIL_DEFAULT_TEAM is: set one to the agent (email) or team (name) that gets mail from new addresses.',
    );
  if (incoming?.notTicketedDays !== undefined && (!Number.isInteger(incoming.notTicketedDays) || incoming.notTicketedDays < 1))
    problems.push('FULCRUM_MAIL_NOT_TICKETED_DAYS must be a whole number of days, at least 1 (default 30).');
  if (incoming?.dns && !parseDnsServer(incoming.dns))
    problems.push(`FULCRUM_MAIL_DNS must be host:port of a DNS server (an IP address; IPv6 in brackets), e.g. 127.0.0.1:53, not "${incoming.dns}".`);
  for (const relay of incoming?.trustedRelays ?? [])
    if (!isIP(relay)) problems.push(`FULCRUM_SMTP_TRUSTED_RELAYS must be comma-separated IP addresses, not "${relay}".`);
  const delays = options.webhooks?.retryDelaysMs;
  if (delays && !delays.every((d) => Number.isFinite(d) && d >= 0))
    problems.push('FULCRUM_WEBHOOK_RETRY_DELAYS must be comma-separated milliseconds, e.g. 5000,300000.');
  return problems;
}
