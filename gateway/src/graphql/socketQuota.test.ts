/**
 * The cross-gateway socket count on a real Redis (socketQuota.ts): places are admitted atomically up to the limit,
 * a gateway's heartbeat keeps its places counted past their expiry, and the places of a gateway that stopped (no
 * heartbeat: killed) free up once they expire. Two quotas stand for two gateways; the whole gateway is tested in
 * gateway/test/security/websocketLimits.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { REDIS_URL } from '../testing/harness.js';
import { createSocketQuota, type SocketPlace } from './socketQuota.js';

describe.skipIf(process.env.FULCRUM_TEST_REDIS !== '1')('socket quota (Redis)', () => {
  let redis: Redis;
  const namespace = `test-${randomBytes(6).toString('hex')}`;
  beforeAll(() => void (redis = new Redis(REDIS_URL)));
  afterAll(() => redis.disconnect());

  it('admits exactly the limit when many ask at once, across quotas, and a released place is free again', async () => {
    const [a, b] = [createSocketQuota({ redis, namespace }), createSocketQuota({ redis, namespace })];
    const places = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? b : a).acquire('session:race', 20)));
    expect(places.filter(Boolean)).toHaveLength(20);
    expect(await b.acquire('session:race', 20)).toBeNull();
    places.find(Boolean)!.release();
    let again: SocketPlace | null = null;
    // The release is sent without waiting for it: ask until it has reached Redis.
    for (let i = 0; i < 100 && !again; i++) again = await a.acquire('session:race', 20);
    expect(again).not.toBeNull();
    expect(await a.acquire('session:race', 20)).toBeNull();
    await Promise.all([a.dispose(), b.dispose()]);
  });

  it("keeps a live gateway's places past their expiry and frees a stopped gateway's once they expire", async () => {
    const live = createSocketQuota({ redis, namespace, ttlMs: 400, heartbeatMs: 100 });
    // A gateway that was killed: its places are never refreshed (nor released).
    const killed = createSocketQuota({ redis, namespace, ttlMs: 400, heartbeatMs: 3_600_000 });
    expect(await live.acquire('token:7', 2)).not.toBeNull();
    expect(await killed.acquire('token:7', 2)).not.toBeNull();
    expect(await live.acquire('token:7', 2)).toBeNull();
    // Wait for the killed gateway's place to expire (400 ms: four heartbeats of the live one)...
    const started = Date.now();
    let freed: SocketPlace | null = null;
    while (!freed && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 50));
      freed = await live.acquire('token:7', 2);
    }
    expect(freed).not.toBeNull();
    // ...while the live one's first place, refreshed all along, still counts.
    expect(await live.acquire('token:7', 2)).toBeNull();
    await live.dispose();
    await killed.dispose();
  });
});
