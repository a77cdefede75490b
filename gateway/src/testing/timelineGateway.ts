/**
 * The gateway the timeline tests share (graphql/timeline*.test.ts): one real gateway per test file (SQLite, or
 * PostgreSQL + Redis in the second pass) with Demo and Marnie signed in and an API token of Demo's with the WRITE
 * scope; the state is exported as live bindings, set by `openTimelineGateway` in each file's beforeAll.
 */
import { expect } from 'vitest';
import { startTestGateway, type TestGateway } from './harness.js';
import type { TestClient, GqlResult } from './client.js';

export let gw: TestGateway;
export let demo: TestClient;
export let marnie: TestClient;
export let bearer: string;
export const DEMO = 1;

/** A test file's beforeAll: the gateway, the two agents and the token. */
export async function openTimelineGateway(): Promise<void> {
  gw = await startTestGateway();
  demo = await gw.as(0);
  marnie = await gw.as(1);
  const created = await demo.gql('mutation { createApiToken(input: { name: "timeline walk", scopes: [WRITE] }) { secret } }');
  bearer = created.data!.createApiToken.secret;
}

/** A test file's afterAll. */
export const closeTimelineGateway = () => gw?.destroy();

/** The data of a GraphQL answer that has no errors. */
export function ok<T>(result: GqlResult<T>): T {
  expect(result.errors).toBeUndefined();
  return result.data!;
}

export const TICKET_INPUT = { title: 'Walk', requesterId: 1, description: 'Through every door.' };
