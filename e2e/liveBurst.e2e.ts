/**
 * A burst of live messages: Demo sends 100 messages to Marnie through GraphQL `sendMessage` (fetch from
 * Demo's page), one after another; Marnie's page, open on the conversation, shows every one of them once, in the
 * order sent, without a reload. How long send -> render takes is a figure of `npm run bench` (row 5c,
 * bench/scenarios/liveBrowser.ts, with the same burst: e2e/burst.ts), not a bound of this test: a test that asserts
 * a time fails on a slow machine.
 *
 *   npx vitest run --config e2e/vitest.config.ts e2e/liveBurst.e2e.ts
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { burstRendered, sendBurst, watchBurst } from './burst';
import { DEMO, MARNIE, markDocument, openConversation, sameDocument, signedIn, type Agent } from './liveHelpers';

const MESSAGES = 100;
/** Pause between two sends (a fast conversation, not a flood). */
const GAP_MS = 20;
/** A generous guard for the whole burst to show, not a figure (the bench measures it). */
const GUARD_MS = 60_000;
const MARNIE_ID = 2;

const chromium = useBrowser();
let demo: Agent;
let marnie: Agent;

beforeAll(async () => {
  demo = await signedIn(chromium.browser, DEMO, '/view/tickets/all');
  marnie = await signedIn(chromium.browser, MARNIE, '/message/center');
  await openConversation(marnie.page, 'Demo');
});

describe('a burst of live messages', () => {
  it(`${MESSAGES} messages sent back to back: each shows once on the receiver's open conversation, in order`, async () => {
    const run = Date.now().toString(36);
    await markDocument(marnie.page);
    await watchBurst(marnie.page, run);
    const burst = await sendBurst(demo.page, { run, count: MESSAGES, gapMs: GAP_MS, receiverId: MARNIE_ID });
    const renderedAt = await burstRendered(marnie.page, MESSAGES, GUARD_MS);

    // Each one rendered after it was sent (the clock is the machine's, in both pages).
    expect(renderedAt.every((at, i) => Number.isFinite(at) && at > burst.sentAt[i])).toBe(true);
    // Every message rendered once, in the order sent, in the same document (no reload).
    const texts = await marnie.page.locator('.message-text', { hasText: `burst-${run}-` }).allInnerTexts();
    expect(texts).toEqual(burst.texts);
    expect(await sameDocument(marnie.page)).toBe(true);
    expect(marnie.errors).toEqual([]);
  });
});
