/**
 * When the gateway's Redis subscriber loses its connection, events published meanwhile are gone. On reconnect the
 * gateway closes its websockets with 1012, so clients reconnect and catch up (the web app refetches once).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { channelPrefixFor, databaseIdentity, subscriberConnectionName } from '@fulcrum/schema';
import { REDIS_URL, startTestGateway, type TestGateway } from '../testing/harness.js';
import { MESSAGE_EVENTS, collect, connected, wsClient } from '../testing/wsClient.js';

let gw: TestGateway | undefined;
afterAll(() => gw?.destroy());

describe.skipIf(process.env.FULCRUM_TEST_REDIS !== '1')('event bus reconnect (Redis)', () => {
  it('closes sockets with 1012 after the subscriber reconnects, and live events flow again', async () => {
    gw = await startTestGateway();
    const marnie = await gw.as(1);
    const socket = wsClient(gw.url, marnie.cookieHeader);
    collect(socket, MESSAGE_EVENTS);
    await connected(socket);
    const closed = new Promise<{ code: number }>((resolve) => socket.on('closed', (e) => resolve(e as { code: number })));

    // Cut this gateway's subscriber connection, found by its name (unique to this test database).
    const name = subscriberConnectionName(channelPrefixFor(await databaseIdentity(gw.orm)));
    const admin = new Redis(REDIS_URL);
    try {
      const ours = ((await admin.client('LIST')) as string)
        .split('\n')
        .filter((line) => line.includes(`name=${name} `))
        .map((line) => /id=(\d+)/.exec(line)![1]);
      expect(ours).toHaveLength(1);
      for (const id of ours) await admin.client('KILL', 'ID', id);
    } finally {
      admin.disconnect();
    }
    expect((await closed).code).toBe(1012);
    await socket.dispose();

    const again = wsClient(gw.url, marnie.cookieHeader);
    const live = collect(again, MESSAGE_EVENTS);
    await connected(again);
    const demo = await gw.as(0);
    const sent = (await demo.post('/api/messages/create/too/2', { message: 'after the reconnect' })).body;
    await live.waitFor(1, 5000);
    expect(live.events[0]).toMatchObject({ messageEvents: { kind: 'CREATED', id: sent.id } });
    await again.dispose();
  });
});
