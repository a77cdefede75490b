/**
 * Starts a real gateway on 127.0.0.1 (random port) on a fresh temp DATA_DIR, with the demo seed. With
 * FULCRUM_TEST_DATABASE=postgres (and FULCRUM_TEST_REDIS=1) the same suite runs on a fresh PostgreSQL database
 * and Redis pub/sub instead: see scripts/test.sh.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { startGateway, type Gateway } from '../app.js';
import type { GatewayOptions } from '../config.js';
import { clientsOf, type GatewayClients, type TestClient } from './client.js';

export const REDIS_URL = process.env.FULCRUM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testDatabaseMode(): 'sqlite' | 'postgres' {
  return process.env.FULCRUM_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
}

/** An empty PostgreSQL database for one test gateway: the schema package's (one copy; SQL stays in schema/). */
export { createPostgresDatabase };

export interface TestGateway extends Gateway, GatewayClients {
  dataDir: string;
  options: GatewayOptions;
  /** Stops the gateway and starts a new one on the same data (restart). */
  restart(): Promise<TestGateway>;
  /** Stops and deletes the data. */
  destroy(): Promise<void>;
}

/** Generous limits so a test suite's many logins from 127.0.0.1 are not throttled; limit tests pass their own. */
export const TEST_AUTH_LIMITS = {
  loginFailuresPerAccount: 1000,
  loginFailuresPerIp: 10000,
  signupsPerIp: 10000,
  tokenFailuresPerIp: 10000,
  windowSeconds: 60,
  // Every test's answers come from 127.0.0.1, many on one link (the property tests): the requester page's budgets are
  // tested at their published values by gateway/test/requester/budgets.test.ts.
  requesterAnswersPerLink: 100_000,
  requesterAnswersPerIp: 100_000,
  requesterBytesPerLink: 1024 ** 4,
  requesterBytesPerIp: 1024 ** 4,
};

/**
 * The suites written before roles prove agent-to-agent isolation with Demo as one of the agents; the
 * demo seed makes Demo an admin, who may read every ticket. So a test gateway starts with Demo as a plain agent
 * (no admin at all), unless the test asks for the seed's roles (`admin: true`); the seed's own roles are checked
 * by gateway/test/security/teams.test.ts.
 */
export interface TestGatewayOptions extends GatewayOptions {
  admin?: boolean;
}

export async function startTestGateway(testOverrides: TestGatewayOptions = {}): Promise<TestGateway> {
  const { admin, ...overrides } = testOverrides;
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'fulcrum-test-'));
  let pgDb: { url: string; drop(): Promise<void> } | undefined;
  const mode = testDatabaseMode();
  if (mode === 'postgres' && !overrides.databaseUrl) pgDb = await createPostgresDatabase();
  const options: GatewayOptions = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    demo: true,
    logErrors: process.env.FULCRUM_TEST_LOG === '1',
    authLimits: TEST_AUTH_LIMITS,
    databaseUrl: pgDb?.url,
    redisUrl: process.env.FULCRUM_TEST_REDIS === '1' ? REDIS_URL : undefined,
    // One gateway per test database unless a test starts more (and then sets its own): its own writes wake its
    // webhook engine, so it need not poll the outbox, which would add statements to the statement-count tests.
    webhooks: { pollMs: 60_000 },
    ...overrides,
  };
  const gateway = await startGateway(options);
  if (!admin && options.demo) await gateway.orm.em.getConnection().execute(`update users set role = 'AGENT' where email = 'demo@fulcrum.app'`);
  return wrap(gateway, options, dataDir, pgDb);
}

/**
 * The usual set-up of a test file: one gateway and a client signed in as each demo account asked for, in that
 * order: `beforeAll(async () => ([gw, demo, marnie] = await startSignedIn(0, 1)));` with
 * `afterAll(() => gw.destroy());`.
 */
export async function startSignedIn(...accounts: (0 | 1 | 2)[]): Promise<[TestGateway, ...TestClient[]]> {
  const gw = await startTestGateway();
  const clients: TestClient[] = [];
  for (const index of accounts) clients.push(await gw.as(index));
  return [gw, ...clients];
}

function wrap(gateway: Gateway, options: GatewayOptions, dataDir: string, pgDb?: { drop(): Promise<void> }): TestGateway {
  const self: TestGateway = {
    ...gateway,
    dataDir,
    options,
    ...clientsOf(gateway.url),
    async restart() {
      await gateway.close();
      return wrap(await startGateway({ ...options, port: gateway.port }), options, dataDir, pgDb);
    },
    async destroy() {
      await gateway.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return self;
}
