/**
 * The Redis event bus (schema/src/realtime/events.ts) on a real Redis: installations sharing one Redis stay
 * apart, a subscription is live as soon as it is registered (no window in which an event slips by), and a
 * publish that cannot reach Redis is reported, never thrown into the request that already committed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelPrefixFor, createEventBus, type EventBusHandle, type MessageChange } from '@fulcrum/schema';
import { REDIS_URL, startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import { sleep } from '../../src/testing/measure.js';
import { MESSAGE_EVENTS, openLive, untilLive } from '../../src/testing/wsClient.js';

const redis = process.env.FULCRUM_TEST_REDIS === '1';

const change = (id: number): MessageChange => ({ kind: 'CREATED', id, senderId: 1, receiverId: 2 });

/** The next event of a subscription, or null after `ms`. */
async function nextWithin<T>(iterator: AsyncIterator<T>, ms: number): Promise<T | null> {
  const timeout = sleep(ms).then(() => null);
  const next = iterator.next().then((r) => (r.done ? null : r.value));
  return Promise.race([next, timeout]);
}

describe.skipIf(!redis)('Redis event bus', () => {
  const handles: EventBusHandle[] = [];
  const bus = async (namespace: string, onError?: (e: unknown, where: string) => void) => {
    const handle = await createEventBus({ redisUrl: REDIS_URL, namespace, onError });
    handles.push(handle);
    return handle;
  };
  const namespace = `bus-test-${Date.now()}-${Math.random()}`;
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.close()));
  });

  it('gateways of one installation share events; another installation on the same Redis sees none', async () => {
    const [a, b, other] = [await bus(namespace), await bus(namespace), await bus(`${namespace}-other`)];
    expect(a.channelPrefix).toBe(channelPrefixFor(namespace));
    expect(a.channelPrefix).toBe(b.channelPrefix);
    expect(other.channelPrefix).not.toBe(a.channelPrefix);
    const onB = b.bus.subscribe('message', 2)[Symbol.asyncIterator]();
    const onOther = other.bus.subscribe('message', 2)[Symbol.asyncIterator]();
    const gotB = nextWithin(onB, 2000);
    const gotOther = nextWithin(onOther, 500);
    a.bus.publish('message', 2, change(1));
    expect(await gotB).toEqual(change(1));
    expect(await gotOther).toBeNull();
    await onB.return?.();
    await onOther.return?.();
  });

  it('a subscription is live the moment it is registered: publish right after subscribing, 50 times, nothing lost', async () => {
    const [a, b] = [await bus(`${namespace}-live`), await bus(`${namespace}-live`)];
    let received = 0;
    for (let i = 0; i < 50; i++) {
      const iterator = b.bus.subscribe('message', 1000 + i)[Symbol.asyncIterator]();
      const next = nextWithin(iterator, 2000); // registers the listener
      a.bus.publish('message', 1000 + i, change(i)); // no wait in between
      if ((await next)?.id === i) received++;
      await iterator.return?.();
    }
    expect(received).toBe(50);
  });

  it('a publish that cannot reach Redis is reported to onError and does not throw', async () => {
    const errors: string[] = [];
    const handle = await bus(`${namespace}-down`, (_e, where) => errors.push(where));
    await handle.close(); // Redis connections gone, as when Redis is down
    expect(() => handle.bus.publish('message', 2, change(7))).not.toThrow();
    const deadline = Date.now() + 3000;
    while (errors.length === 0 && Date.now() < deadline) await sleep(20);
    expect(errors).toEqual(['event bus: publish message:2']);
  });
});

describe.skipIf(!redis || testDatabaseMode() !== 'postgres')('two installations (two databases) sharing one Redis', () => {
  let x: TestGateway;
  let y: TestGateway;
  beforeAll(async () => {
    [x, y] = await Promise.all([startTestGateway(), startTestGateway()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled([x?.destroy(), y?.destroy()]);
  });

  it('a message in one installation never reaches a subscriber of the other, though the agent ids are the same', async () => {
    const marnieOnX = await x.as(1);
    const demoOnX = await x.as(0);
    const demoOnY = await y.as(0);
    const live = openLive(x.url, marnieOnX.cookieHeader);
    try {
      await live.connected;
      const events = live.subscribe(MESSAGE_EVENTS);
      await untilLive(
        events,
        async (text) => void (await demoOnX.post('/api/messages/create/too/2', { message: text })),
        (d, text) => d.messageEvents.message?.text === text,
      );
      const sent = await demoOnY.post('/api/messages/create/too/2', { message: 'for the other installation' });
      expect(sent.status).toBeLessThan(300);
      await expect(events.waitFor((d) => d.messageEvents.message?.text === 'for the other installation', 750)).rejects.toThrow(/no matching event/);
    } finally {
      await live.dispose();
    }
  });
});
