/**
 * Test helpers for API tokens: create one through the session, speak GraphQL with it as a bearer, and start the
 * gateway bundle `npm start` runs, which the limit, cost and token-budget suites test (the sources price
 * correctly even when the bundle does not: the bundle once priced every operation 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureGatewayBundle } from '../../bundle.mjs';
import { clientsOf, type GatewayClients, type GqlResult, type TestClient } from '../../src/testing/client.js';
import { REDIS_URL, createPostgresDatabase, testDatabaseMode } from '../../src/testing/harness.js';
import { startServerProcess, type StartedProcess } from '../../src/testing/processes.js';

export const CREATE_TOKEN =
  'mutation($input: ApiTokenInput!) { createApiToken(input: $input) { secret token { id name scopes hint createdAt expiresAt lastUsedAt revokedAt } } }';
export const REVOKE_TOKEN = 'mutation($id: Int!) { revokeApiToken(id: $id) { id revokedAt } }';

/** A week of daily buckets, as a literal: `report` costs 100 points whatever it selects (its flatCost). */
export const REPORT_INPUT = '{ bucket: DAY, from: "2026-01-05", to: "2026-01-12", timeZone: "UTC" }';

export interface CreatedToken {
  secret: string;
  id: number;
  token: Record<string, any>;
}

/** A token of the client's agent, made through its browser session. */
export async function createToken(client: TestClient, input: { name?: string; scopes?: string[]; expiresInDays?: number | null } = {}): Promise<CreatedToken> {
  const r = await client.gql(CREATE_TOKEN, {
    input: { name: input.name ?? 'test token', scopes: input.scopes ?? ['READ'], expiresInDays: input.expiresInDays },
  });
  if (!r.data?.createApiToken) throw new Error(`createApiToken failed: ${JSON.stringify(r.errors)}`);
  return { secret: r.data.createApiToken.secret, id: r.data.createApiToken.token.id, token: r.data.createApiToken.token };
}

/** POST /graphql with `Authorization: Bearer <secret>` (and any other headers), no cookie unless given. */
export async function bearerGql<T = Record<string, any>>(
  baseUrl: string,
  secret: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GqlResult<T> & { text: string; extensions?: Record<string, any> }> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret === null ? {} : { authorization: `Bearer ${secret}` }), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, headers: res.headers, text, ...(json as object) };
}

export interface BundleGateway extends GatewayClients {
  url: string;
  process: StartedProcess;
  /** The DATA_DIR (SQLite) or database name (PostgreSQL): the part of the Redis key namespace unique to this gateway. */
  databaseName: string;
  /** Stops the process and drops its data. */
  destroy(): Promise<void>;
}

/**
 * The bundle `npm start` runs (gateway/dist/main.mjs, rebuilt when a source changed), in production mode, on a fresh
 * DATA_DIR with the demo seed: on SQLite, or on a fresh PostgreSQL database (and Redis with FULCRUM_TEST_REDIS=1) in
 * the second pass. `env` adds to the environment (e.g. FULCRUM_INTROSPECTION=1, or REDIS_URL on SQLite too).
 */
export async function startBundleGateway(env: Record<string, string> = {}): Promise<BundleGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-bundle-gw-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  const destroy = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const full: Record<string, string> = { DATA_DIR: dataDir, SESSION_SECRET: 'bundle-gateway-secret-bundle-gateway-secret' };
    let databaseName = dataDir;
    if (testDatabaseMode() === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      full.DATABASE_URL = database.url;
      databaseName = new URL(database.url).pathname.slice(1);
      if (process.env.FULCRUM_TEST_REDIS === '1') full.REDIS_URL = REDIS_URL;
    }
    const started = await startServerProcess({ ...full, ...env }, { bundle: await ensureGatewayBundle(), timeoutMs: 60_000 });
    cleanups.push(() => started.stop());
    return { url: started.url, process: started, databaseName, destroy, ...clientsOf(started.url) };
  } catch (error) {
    await destroy();
    throw error;
  }
}
