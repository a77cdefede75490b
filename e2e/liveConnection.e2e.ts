/**
 * The live socket's life: a lost connection shows "Reconnecting…", reconnects with backoff, resubscribes
 * and fetches what it missed exactly once; logout closes the socket (and signs out the agent's other tabs); a
 * login opens a new socket for the new session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocketRoute } from 'playwright-core';
import { useBrowser } from './browser';
import { baseURL, gone, gql, shown, unique } from './helpers';
import {
  anotherTab,
  BOBBIE,
  DEMO,
  liveConnected,
  markDocument,
  MARNIE,
  messageCard,
  openConversation,
  recordFrames,
  sameDocument,
  sendMessageApi,
  signedIn,
  type Agent,
} from './liveHelpers';

const chromium = useBrowser();
let demo: Agent;
const MARNIE_ID = 2;

beforeAll(async () => {
  demo = await signedIn(chromium.browser, DEMO, '/view/tickets/all');
});

describe('a lost connection', () => {
  let marnie: Agent;
  /** The page's live sockets, through a proxy this test can cut, and refuse while `refusing`. */
  const sockets: WebSocketRoute[] = [];
  let refusing = false;
  let refused = 0;
  const attempts: number[] = [];
  let centerFetches = 0;

  beforeAll(async () => {
    marnie = await chromium.open();
    await marnie.page.routeWebSocket(/\/graphql$/, (socket) => {
      attempts.push(Date.now());
      if (refusing) {
        refused += 1;
        void socket.close({ code: 1013, reason: 'Try Again Later' });
        return;
      }
      socket.connectToServer();
      sockets.push(socket);
    });
    marnie.page.on('request', (request) => {
      if (request.method() === 'POST' && request.postData()?.includes('"operationName":"MessageCenter"')) centerFetches += 1;
    });
    await gql(marnie.page, 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { id } }', MARNIE);
    await marnie.page.goto('/message/center');
    await liveConnected(marnie.page);
    await openConversation(marnie.page, 'Demo');
  });
  afterAll(async () => {
    await marnie?.context.close();
  });

  it('shows "Reconnecting…" while down, comes back with backoff, resubscribes and fetches what it missed once', async () => {
    await markDocument(marnie.page);
    const status = marnie.page.getByRole('status');
    expect((await status.innerText()).trim()).toBe('');
    const fetchesBefore = centerFetches;

    // The connection drops (as when the gateway restarts), and the next attempts are refused for a while.
    refusing = true;
    const droppedAt = Date.now();
    await sockets.at(-1)!.close({ code: 1012, reason: 'Service Restart' });
    await shown(marnie.page.getByRole('status').filter({ hasText: 'Reconnecting…' }));

    // Sent while Marnie is offline: no event can reach her.
    const missed = unique('Sent while you were away');
    await sendMessageApi(demo.page, MARNIE_ID, missed);
    await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    // Backoff: the first retry waits 0.5-1 s, the second 1-2 s (never a tight loop).
    const retries = attempts.filter((at) => at >= droppedAt);
    expect(retries[0] - droppedAt).toBeGreaterThanOrEqual(400);
    expect(retries[1] - retries[0]).toBeGreaterThanOrEqual(900);
    // No socket, so nothing can bring it yet.
    expect(await messageCard(marnie.page, missed).count()).toBe(0);

    // The gateway is back: the next retry connects, and the missed message is fetched.
    refusing = false;
    await shown(messageCard(marnie.page, missed));
    await gone(marnie.page.getByText('Reconnecting…'));
    await liveConnected(marnie.page);
    // Resubscribed: the next message arrives as an event again. It is also the barrier for the count below: exactly
    // one catch-up fetch of the open screen, however many attempts failed before.
    const after = unique('Back online');
    await sendMessageApi(demo.page, MARNIE_ID, after);
    await shown(messageCard(marnie.page, after));
    expect(centerFetches - fetchesBefore).toBe(1);
    expect(await sameDocument(marnie.page)).toBe(true);
    expect(marnie.errors).toEqual([]);
  });
});

describe('sessions', () => {
  it("logout closes the socket; the same agent's other tab finds itself signed out", async () => {
    const bobbie = await chromium.open();
    const wire = recordFrames(bobbie.page);
    await gql(bobbie.page, 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { id } }', BOBBIE);
    await bobbie.page.goto('/view/tickets/all');
    await liveConnected(bobbie.page);
    const other = await anotherTab(bobbie, '/view/customers');
    await markDocument(other);

    const socket = wire.sockets.at(-1)!;
    expect(socket.isClosed()).toBe(false);
    await bobbie.page.getByRole('button', { name: 'Menu' }).click();
    await bobbie.page.getByRole('button', { name: 'Log Out' }).click();
    await bobbie.page.waitForURL(`${baseURL()}/`);
    await expect.poll(() => socket.isClosed()).toBe(true);
    // Signed out: no live connection at all.
    await shown(bobbie.page.getByRole('button', { name: 'Sign In' }));
    expect(await bobbie.page.locator('[data-live]').count()).toBe(0);

    // The other tab's socket was closed by the server (4401): it checks the session and shows the signed-out state.
    await shown(other.getByRole('button', { name: 'Sign In' }));
    await shown(other.getByRole('heading', { name: 'Sign in to continue' }));
    expect(await other.locator('[data-live]').count()).toBe(0);
    expect(await sameDocument(other)).toBe(true);
    expect(bobbie.errors).toEqual([]);
    await bobbie.context.close();
  });

  it('a login opens a new socket for the new session (demo helper: Demo to Marnie)', async () => {
    const agent = await chromium.open();
    const wire = recordFrames(agent.page);
    await gql(agent.page, 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { id } }', DEMO);
    await agent.page.goto('/message/center');
    await liveConnected(agent.page);
    const openSockets = () => wire.sockets.filter((socket) => !socket.isClosed());
    await expect.poll(() => openSockets().length).toBe(1);
    const demoSocket = openSockets()[0];
    const before = wire.sockets.length;

    await openConversation(agent.page, 'Marnie');
    await agent.page.getByRole('button', { name: 'Log in as Marnie' }).click();
    await agent.page.waitForURL('**/message/center');
    await liveConnected(agent.page);
    await expect.poll(() => demoSocket.isClosed()).toBe(true);
    // One socket is open, and it was opened after the login (React's development build may open and drop one more).
    await expect.poll(() => openSockets().length).toBe(1);
    expect(wire.sockets.indexOf(openSockets()[0])).toBeGreaterThanOrEqual(before);

    // The new socket carries Marnie's events; the tab hears nothing more of Demo's conversations with others.
    await openConversation(agent.page, 'Demo');
    const text = unique('For the new session');
    await sendMessageApi(demo.page, MARNIE_ID, text);
    await shown(messageCard(agent.page, text));
    const framesBefore = wire.frames.length;
    await sendMessageApi(demo.page, 3, unique('Demo to Bobbie'));
    // A later message to Marnie is the barrier: once the tab shows it, anything sent before it would have arrived.
    const barrier = unique('Barrier for the new session');
    await sendMessageApi(demo.page, MARNIE_ID, barrier);
    await shown(messageCard(agent.page, barrier));
    expect(wire.frames.slice(framesBefore).filter((frame) => frame.includes('Demo to Bobbie'))).toEqual([]);
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  });

  it('threw no page errors', () => {
    expect(demo.errors).toEqual([]);
  });
});
