/**
 * The fan-out without any endpoint ("the webhook fan-out skipped while no endpoint is registered"): a
 * help desk without integrations drops each write's outbox events in one statement instead of the fan-out
 * transaction, and an endpoint registered or enabled again gets the events written from then on, as before.
 * SQLite, or PostgreSQL + Redis with FULCRUM_TEST_DATABASE=postgres.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';
import { createWebhook } from './support.js';

let gw: TestGateway;
let demo: TestClient;
const statements: string[] = [];

beforeAll(async () => {
  gw = await startTestGateway({ webhooks: { allowHosts: '127.0.0.1', pollMs: 60_000 } });
  // Passes are run by the test itself (fanOut), so what one pass costs is counted alone.
  await gw.deps.webhooks?.stop();
  // The reports' rollup folder too: its folds and looks at its queue are not a pass's statements.
  await gw.reportFolder.stop();
  const knex = gw.orm.em.fork().getConnection().getKnex() as unknown as { on(event: 'query', fn: (q: { sql: string }) => void): void };
  knex.on('query', (q) => statements.push(q.sql));
  demo = await gw.as(0);
});
afterAll(() => gw?.destroy());

const count = async (table: string) => {
  const [row] = await gw.orm.em.fork().getConnection().execute<{ n: number | string }[]>(`select count(*) as n from ${table}`);
  return Number(row.n);
};

async function pass(): Promise<string[]> {
  statements.length = 0;
  await gw.deps.webhooks!.fanOut();
  return statements.slice();
}

it('without an endpoint, a pass drops the new events in one statement after its probe: no transaction, no read of the webhooks', async () => {
  for (let i = 0; i < 3; i++) expect((await demo.post('/api/tickets/create', validTicket(1))).status).toBe(201);
  expect(await count('webhook_events')).toBeGreaterThanOrEqual(3);
  const sql = await pass();
  expect(sql, sql.join('\n')).toHaveLength(2);
  expect(sql.some((s) => /^\s*(begin|savepoint)/i.test(s))).toBe(false);
  expect(await count('webhook_events')).toBe(0);
  expect(await count('webhook_jobs')).toBe(0);
  // Nothing new: the probe alone.
  expect(await pass()).toHaveLength(1);
});

it('with an endpoint, the events written from then on fan out to it; a disabled endpoint counts as none', async () => {
  const hook = await createWebhook(demo, 'http://127.0.0.1:9/hook', ['TICKET_CREATED']);
  expect((await demo.post('/api/tickets/create', validTicket(1))).status).toBe(201);
  await pass();
  expect(await count('webhook_jobs')).toBe(1);
  expect(await count('webhook_events')).toBe(1);

  const disabled = await demo.gql('mutation ($id: Int!) { updateWebhook(id: $id, input: { enabled: false }) { id enabled } }', { id: hook.id });
  expect(disabled.errors, JSON.stringify(disabled.errors)).toBeUndefined();
  expect((await demo.post('/api/tickets/create', validTicket(1))).status).toBe(201);
  expect(await pass()).toHaveLength(2);
  expect(await count('webhook_jobs')).toBe(1);
  expect(await count('webhook_events')).toBe(1);
});
