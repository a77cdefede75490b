/**
 * The gateway the API-token tests share (apiTokens*.test.ts): one real gateway per test file with Demo and Marnie
 * signed in, exported as live bindings set by `openTokenGateway` in each file's beforeAll; and two readers of what
 * it answered: the api_tokens rows as stored, and an answer's first error code.
 */
import { forkEm } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';

export let gw: TestGateway;
export let demo: TestClient;
export let marnie: TestClient;

/** A test file's beforeAll. */
export async function openTokenGateway(): Promise<void> {
  [gw, demo, marnie] = await startSignedIn(0, 1);
}

/** A test file's afterAll. */
export const closeTokenGateway = () => gw.destroy();

export const rows = (where = '') => forkEm(gw.orm).getConnection().execute<Record<string, unknown>[]>(`select * from api_tokens ${where}`);
export const codeOf = (r: { errors?: { extensions?: { code?: string } }[] }) => r.errors?.[0]?.extensions?.code;
