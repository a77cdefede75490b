/**
 * Two gateways on one PostgreSQL database share the outbox: every event is delivered once (no failures, so
 * exactly one request per event), and with a receiver that fails every first attempt, exactly two attempts per
 * event (claims are FOR UPDATE SKIP LOCKED, so no attempt is made twice). PostgreSQL only: SQLite has one
 * gateway per file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { figure } from '../../src/testing/measure.js';
import { createWebhook, startReceiver, type Receiver } from './support.js';

describe.skipIf(testDatabaseMode() !== 'postgres')('webhooks with two gateways on one PostgreSQL', () => {
  let a: TestGateway;
  let b: TestGateway;
  let clients: TestClient[];
  let receiver: Receiver;
  const tuning = { allowHosts: '127.0.0.1', retryDelaysMs: [100, 100, 100], pollMs: 50 };

  beforeAll(async () => {
    a = await startTestGateway({ webhooks: tuning });
    b = await startTestGateway({ webhooks: tuning, databaseUrl: a.options.databaseUrl, dataDir: mkdtempSync(join(tmpdir(), 'fulcrum-test-')) });
    clients = [await a.as(0), await b.as(0)];
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await b?.close();
    await a?.destroy();
  });

  const write = async (count: number, tag: string) => {
    const ids: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = w; i < count; i += 4) {
          const res = await clients[i % 2].post('/api/messages/create/too/2', { message: `${tag}-${i}` });
          expect(res.status).toBe(201);
          ids.push(res.body.id);
        }
      }),
    );
    return ids;
  };

  it('each event is delivered once, whichever gateway took the write', async () => {
    const hook = await createWebhook(clients[0], `${receiver.url}/once`, ['MESSAGE_CREATED']);
    const ids = await write(300, 'once');
    await receiver.waitFor(300, (r) => r.path === '/hook/once', 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    const got = receiver.received.filter((r) => r.path === '/hook/once');
    const perId = new Map<number, number>();
    for (const r of got) perId.set(r.json.data.id, (perId.get(r.json.data.id) ?? 0) + 1);
    figure(
      'webhooks, two gateways',
      `${ids.length} writes over 2 gateways: ${got.length} deliveries, ${new Set(got.map((r) => r.headers['webhook-id'])).size} distinct webhook-ids`,
    );
    expect(got).toHaveLength(300);
    expect([...perId.keys()].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    expect([...perId.values()].every((n) => n === 1)).toBe(true);
    await clients[0].gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id: hook.id });
  }, 120_000);

  it('with every first attempt failing, each event gets exactly two attempts (each attempt made once)', async () => {
    const hook = await createWebhook(clients[1], `${receiver.url}/twice`, ['MESSAGE_CREATED']);
    const seen = new Set<string>();
    receiver.respond = (r) => {
      if (r.path !== '/hook/twice') return 200;
      const id = String(r.headers['webhook-id']);
      if (seen.has(id)) return 200;
      seen.add(id);
      return 500;
    };
    await write(100, 'twice');
    await receiver.waitFor(200, (r) => r.path === '/hook/twice', 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    const got = receiver.received.filter((r) => r.path === '/hook/twice');
    const perId = new Map<string, number>();
    for (const r of got) perId.set(String(r.headers['webhook-id']), (perId.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    expect(got).toHaveLength(200);
    expect(perId.size).toBe(100);
    expect([...perId.values()].every((n) => n === 2)).toBe(true);
    await clients[1].gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id: hook.id });
  }, 120_000);
});
