/**
 * Durable delivery: 1,000 acknowledged writes through the real server (`main.ts` as a child process),
 * with a SIGKILL in the middle, right after a write was acknowledged; after the restart every event reaches the
 * receiver (at least once; the receiver deduplicates by webhook-id). On SQLite and on PostgreSQL.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { TestClient } from '../../src/testing/client.js';
import { createPostgresDatabase, testDatabaseMode } from '../../src/testing/harness.js';
import { figure } from '../../src/testing/measure.js';
import { bundleServer, startServerProcess, type StartedProcess as ServerProcess } from '../../src/testing/processes.js';
import { createWebhook, startReceiver } from './support.js';

const WRITES = 1000;
const WRITERS = 4;

const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-webhook-crash-'));
let bundle: string | undefined;
let pg: { url: string; drop(): Promise<void> } | undefined;
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  if (bundle) rmSync(dirname(bundle), { recursive: true, force: true });
  await pg?.drop();
});

describe('webhook outbox across a SIGKILL', () => {
  it(`${WRITES} acknowledged writes with a SIGKILL in the middle: 0 events undelivered`, async () => {
    bundle = await bundleServer();
    if (testDatabaseMode() === 'postgres') pg = await createPostgresDatabase();
    const receiver = await startReceiver();
    const env = {
      DATA_DIR: dataDir,
      FULCRUM_DEMO: '1',
      REDIS_URL: undefined,
      DATABASE_URL: pg?.url,
      SESSION_SECRET: pg ? 'crash-test-secret-crash-test-secret' : undefined,
      FULCRUM_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      FULCRUM_WEBHOOK_RETRY_DELAYS: '200,200,400,800,1600',
      FULCRUM_WEBHOOK_LEASE_MS: '3000',
      FULCRUM_WEBHOOK_POLL_MS: '200',
    };
    let server: ServerProcess = await startServerProcess(env, { bundle });
    children.push(server.child);
    let client = await new TestClient(server.url).login(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
    const cookie = client.cookieHeader;
    const hook = await createWebhook(client, receiver.url, ['MESSAGE_CREATED']);

    const acked = new Set<number>();
    let killedAfter = -1;
    let undeliveredAtKill = -1;
    let restarting: Promise<void> | null = null;
    const delivered = () => new Set(receiver.received.filter((r) => r.json.type === 'MESSAGE_CREATED').map((r) => r.json.data.id as number));
    let seq = 0;
    const writer = async () => {
      while (acked.size < WRITES) {
        if (restarting) await restarting;
        const c = client;
        const n = ++seq;
        const res = await c.post('/api/messages/create/too/2', { message: `hook-${n}` }).catch(() => null);
        if (res?.status !== 201) continue; // cut off by the kill: not acknowledged
        acked.add(res.body.id);
        if (killedAfter < 0 && acked.size >= WRITES / 2) {
          // Right after this acknowledgement, while the other writers are mid-request.
          killedAfter = acked.size;
          undeliveredAtKill = [...acked].filter((id) => !delivered().has(id)).length;
          const old = server;
          old.child.kill('SIGKILL');
          restarting = (async () => {
            await old.exited;
            server = await startServerProcess(env, { bundle });
            children.push(server.child);
            client = new TestClient(server.url);
            client.setCookieHeader(cookie);
          })();
          await restarting;
          restarting = null;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    const started = Date.now();
    const missing = () => [...acked].filter((id) => !delivered().has(id));
    while (missing().length && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 200));
    const duplicates = receiver.received.filter((r) => r.json.type === 'MESSAGE_CREATED').length - delivered().size;
    figure(
      'webhook crash test',
      `${testDatabaseMode()}: ${acked.size} acknowledged writes, SIGKILL after #${killedAfter} with ${undeliveredAtKill} of them not yet delivered; after restart ${missing().length} undelivered, ${duplicates} duplicate deliveries (same webhook-id), drained in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(killedAfter).toBeGreaterThan(0);
    expect(missing()).toEqual([]);
    // Every delivery verifies, and duplicates (at least once) carry the same webhook-id as the original.
    const ids = new Map<number, string>();
    for (const r of receiver.received) {
      new StandardWebhook(hook.secret).verify(r.body, r.headers as Record<string, string>);
      const previous = ids.get(r.json.data.id);
      if (previous) expect(r.headers['webhook-id']).toBe(previous);
      ids.set(r.json.data.id, String(r.headers['webhook-id']));
    }
    server.child.kill('SIGKILL');
    await server.exited;
    await receiver.close();
  }, 400_000);
});
