/**
 * The services on a real database, without a gateway: the schema package's own test kit for its domain tests
 * (schema/src/services/*.test.ts). Each kit opens a fresh database (a temp SQLite file, or with
 * FULCRUM_TEST_DATABASE=postgres a fresh PostgreSQL database from ./postgres.ts), runs every migration and the demo
 * seed as a gateway does at start (openDatabase + seedDemo), and builds the long-lived service parts the gateway
 * builds (gateway/src/app.ts): the event bus (in memory, or Redis pub/sub with FULCRUM_TEST_REDIS=1, namespaced by
 * the database like a gateway's) and presence. `as(viewerId)` is what a REST route or a resolver hands a service:
 * a fresh unit of work and the caller.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseIdentity, emKind, openDatabase, type DatabaseKind, type Orm } from '../database.js';
import { channelPrefixFor, createEventBus, type EventBus, type EventTopics } from '../realtime/events.js';
import { createPresence } from '../realtime/presence.js';
import { seedDemo } from '../seed/demoSeed.js';
import { signup } from '../services/auth.js';
import { createAuthLimiter, DEFAULT_AUTH_LIMITS } from '../services/authLimiter.js';
import type { ChangeSource, ServiceContext, ServiceDeps, SessionPort } from '../services/context.js';
import { AppError } from '../errors.js';
import { createPostgresDatabase } from './postgres.js';

const REDIS_URL = process.env.FULCRUM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Topics addressed to one agent, and what each carries. */
type AgentTopic = { [K in keyof EventTopics]: EventTopics[K] extends [number, unknown] ? K : never }[keyof EventTopics];
type PayloadOf<K extends AgentTopic> = EventTopics[K][1];

/** What the bus delivered on one topic since `listen`, in order. */
export interface Heard<T> {
  readonly events: T[];
  /** Resolves once `count` events have arrived (the test's own timeout bounds it). */
  waitFor(count: number): Promise<T[]>;
  stop(): void;
}

export interface ServiceKit {
  kind: DatabaseKind;
  orm: Orm;
  deps: ServiceDeps;
  /** A fresh unit of work for `viewerId` (null: signed out), as one HTTP request or websocket operation gets (through `via`, default WEB). */
  as(viewerId: number | null, via?: ChangeSource): ServiceContext;
  /** A new agent with nothing of their own, signed up through the auth service; resolves to their id. */
  newAgent(): Promise<number>;
  /** Listens on an agent's topic of the bus the services publish to, from now on. */
  listen<K extends AgentTopic>(topic: K, userId: number): Heard<PayloadOf<K>>;
  /** Raw rows, for checks against the stored state (counters, read positions). */
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** The transport's side of a sign-up: this kit keeps no session, it only needs the user id. */
function sessionPort(): SessionPort {
  return { id: undefined, signIn: async () => false, signOut: async () => false };
}

/**
 * The suites written before roles prove agent-to-agent isolation with Demo as one of the agents, and the
 * seed makes Demo an admin (who reads every ticket): the kit opens with Demo as a plain agent unless `admin` is
 * asked for, as the gateway's test harness does.
 */
export async function openServiceKit(options: { admin?: boolean } = {}): Promise<ServiceKit> {
  const postgres = process.env.FULCRUM_TEST_DATABASE === 'postgres' ? await createPostgresDatabase() : undefined;
  const dataDir = postgres ? undefined : mkdtempSync(join(tmpdir(), 'fulcrum-services-'));
  const orm = await openDatabase({ dataDir, databaseUrl: postgres?.url, initialize: seedDemo });
  if (!options.admin) await orm.em.getConnection().execute(`update users set role = 'AGENT' where email = 'demo@fulcrum.app'`);
  const redisUrl = process.env.FULCRUM_TEST_REDIS === '1' ? REDIS_URL : undefined;
  const namespace = redisUrl ? await databaseIdentity(orm) : undefined;
  const events = await createEventBus({ redisUrl, namespace });
  const presence = await createPresence({ bus: events.bus, redisUrl, prefix: channelPrefixFor(namespace) });
  // The sign-in limits are the auth tests' subject (gateway), not these: generous, in memory.
  const limiter = createAuthLimiter({ ...DEFAULT_AUTH_LIMITS, signupsPerIp: 100_000, loginFailuresPerIp: 100_000 });
  // Mail to requesters: not configured (replies are kept as NOT_CONFIGURED) unless a test sets `configured`.
  const mail = {
    configured: false,
    from: 'Fulcrum Support <support@fulcrum.test>',
    publicUrl: 'http://127.0.0.1:4000',
    linkSecret: randomBytes(32).toString('hex'),
  };
  const deps: ServiceDeps = { orm, bus: events.bus, limiter, presence, mail };
  const listeners = new Set<() => void>();

  const kit: ServiceKit = {
    kind: emKind(orm.em.fork()),
    orm,
    deps,
    as: (viewerId, via = 'WEB') => ({ em: orm.em.fork(), viewerId, deps, clientIp: '127.0.0.1', via }),
    async newAgent() {
      const name = `agent${randomBytes(5).toString('hex')}`;
      const ctx: ServiceContext = { ...kit.as(null), session: sessionPort() };
      return (await signup(ctx, { email: `${name}@services.test`, username: name, password: 'secret12' })).id;
    },
    listen: (topic, userId) => listen(deps.bus, listeners, topic, userId),
    rows: (sql, params = []) => orm.em.fork().getConnection().execute(sql, params),
    async close() {
      for (const stop of [...listeners]) stop();
      await presence.close();
      await events.close();
      await orm.close(true);
      await postgres?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return kit;
}

function listen<K extends AgentTopic>(bus: EventBus, listeners: Set<() => void>, topic: K, userId: number): Heard<PayloadOf<K>> {
  const events: PayloadOf<K>[] = [];
  const waiters = new Set<() => void>();
  // subscribe's overloads are per topic; every agent topic takes the agent id.
  const subscription = (bus.subscribe as unknown as (topic: K, id: number) => AsyncIterableIterator<PayloadOf<K>>)(topic, userId);
  void (async () => {
    for await (const event of subscription) {
      events.push(event);
      for (const waiter of waiters) waiter();
    }
  })();
  const stop = () => {
    if (!listeners.delete(stop)) return;
    void subscription.return?.();
  };
  listeners.add(stop);
  return {
    events,
    waitFor: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (events.length < count) return;
          waiters.delete(check);
          resolve(events.slice(0, count));
        };
        waiters.add(check);
        check();
      }),
    stop,
  };
}

/** The AppError a service call was refused with; fails when it succeeds or throws anything else. */
export async function refused(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the service to refuse the call');
}

/** A word (letters only) that no seed text holds, so a test's records are found by it alone. */
export function uniqueWord(prefix = 'zq'): string {
  return `${prefix}${randomBytes(5)
    .toString('hex')
    .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}`;
}
