/** A gateway restart: a retrying graphql-ws client reconnects, resubscribes, and a catch-up query fills the gap. */
import { afterAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.js';
import { MESSAGE_EVENTS, collect, connected, wsClient } from '../testing/wsClient.js';
import { sleep } from '../testing/measure.js';

let gw: TestGateway;
afterAll(() => gw.destroy());

describe('reconnect', () => {
  it('resubscribes after a restart and catches up on what was missed', async () => {
    gw = await startTestGateway();
    const demo = await gw.as(0);
    const marnie = await gw.as(1);
    const socket = wsClient(gw.url, marnie.cookieHeader, { retryAttempts: 50 });
    const live = collect(socket, MESSAGE_EVENTS);
    await connected(socket);
    let reconnects = 0;
    socket.on('connected', () => reconnects++);

    await demo.post('/api/messages/create/too/2', { message: 'before the restart' });
    await live.waitFor(1);

    gw = await gw.restart(); // sockets drop; the session lives in the database
    // Written while Marnie's socket was down: no event can carry it, so the client catches up with one query.
    const missed = (await demo.post('/api/messages/create/too/2', { message: 'while you were away' })).body;
    await new Promise<void>((resolve, reject) => {
      const start = Date.now();
      const tick = () => (reconnects > 0 ? resolve() : Date.now() - start > 15_000 ? reject(new Error('no reconnect')) : setTimeout(tick, 50));
      tick();
    });
    const caughtUp = (await marnie.gql('{ messages(withUserId: 1) { nodes { id text } } }')).data!.messages.nodes as { id: number }[];
    expect(caughtUp.some((m) => m.id === missed.id)).toBe(true);

    await sleep(200);
    const after = (await demo.post('/api/messages/create/too/2', { message: 'after the restart' })).body;
    const events = await live.waitFor(2, 10_000);
    expect(events.at(-1)).toMatchObject({ messageEvents: { kind: 'CREATED', id: after.id } });
    await socket.dispose();
  }, 40_000);
});
