/**
 * Delivery latency of the live message center (issue 4): Demo sends 100 messages to Marnie through GraphQL
 * `sendMessage` (fetch from Demo's page, so typing is not measured), one after another; Marnie's page, open on
 * the conversation, timestamps each message's card the moment it enters the DOM (a MutationObserver).
 * send -> render = render time in Marnie's page - the time Demo's fetch started (both on the same machine clock,
 * performance.timeOrigin + performance.now()). Reported as median and p99 (docs/live.md has the figure).
 *
 *   npx vitest run --config e2e/vitest.config.ts e2e/liveLatency.e2e.ts
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { DEMO, MARNIE, openConversation, signedIn, type Agent } from './liveHelpers';

const MESSAGES = 100;
/** Pause between two sends (a fast conversation, not a flood). */
const GAP_MS = 20;
/** The bound the test enforces (the issue asks for delivery within a second). */
const P99_BOUND_MS = 1_000;
const MARNIE_ID = 2;

const chromium = useBrowser();
let demo: Agent;
let marnie: Agent;

beforeAll(async () => {
  demo = await signedIn(chromium.browser, DEMO, '/view/tickets/all');
  marnie = await signedIn(chromium.browser, MARNIE, '/message/center');
  await openConversation(marnie.page, 'Demo');
});

function percentile(sorted: readonly number[], p: number): number {
  // Nearest rank: the smallest value with at least p% of the samples at or below it.
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

describe('live delivery latency', () => {
  it(`${MESSAGES} messages, send to render: median and p99 (p99 < ${P99_BOUND_MS} ms)`, async () => {
    const run = Date.now().toString(36);
    const pattern = `^lat-${run}-(\\d+)$`;

    // Marnie's page records when each card's text first appears.
    await marnie.page.evaluate((source) => {
      const re = new RegExp(source);
      const seen: Record<string, number> = {};
      (window as unknown as { __seen: Record<string, number> }).__seen = seen;
      const scan = () => {
        const now = performance.timeOrigin + performance.now();
        for (const element of document.querySelectorAll('.message-text')) {
          const match = re.exec(element.textContent ?? '');
          if (match && !(match[1] in seen)) seen[match[1]] = now;
        }
      };
      new MutationObserver(scan).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, pattern);

    // Demo sends, one request after another.
    const { sent: sentAt, answered } = await demo.page.evaluate(
      async ({ count, gap, run, receiverId }) => {
        const sent: number[] = [];
        const answered: number[] = [];
        for (let i = 0; i < count; i++) {
          sent.push(performance.timeOrigin + performance.now());
          const response = await fetch('/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query: 'mutation($r: Int!, $t: String!) { sendMessage(receiverId: $r, text: $t) { id } }',
              variables: { r: receiverId, t: `lat-${run}-${i}` },
            }),
          });
          const body = (await response.json()) as { errors?: { message: string }[] };
          answered.push(performance.timeOrigin + performance.now());
          if (body.errors) throw new Error(body.errors.map((e) => e.message).join('; '));
          await new Promise((resolve) => setTimeout(resolve, gap));
        }
        return { sent, answered };
      },
      { count: MESSAGES, gap: GAP_MS, run, receiverId: MARNIE_ID },
    );

    await marnie.page.waitForFunction((count) => Object.keys((window as unknown as { __seen: object }).__seen).length >= count, MESSAGES, { timeout: 15_000 });
    const seenAt = await marnie.page.evaluate(() => (window as unknown as { __seen: Record<string, number> }).__seen);
    const latencies = sentAt.map((sent, i) => seenAt[String(i)] - sent);
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    const max = sorted[sorted.length - 1];
    // For scale: the sender's own HTTP round trip (request to answer) of the same sends.
    const roundTrips = answered.map((at, i) => at - sentAt[i]).sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    console.log(
      `[live latency] ${MESSAGES} messages Demo -> Marnie, send to render: median ${round(median)} ms, p99 ${round(p99)} ms, ` +
        `min ${round(sorted[0])} ms, max ${round(max)} ms (sender's HTTP round trip: median ${round(percentile(roundTrips, 50))} ms, ` +
        `p99 ${round(percentile(roundTrips, 99))} ms)`,
    );

    expect(latencies.every((ms) => Number.isFinite(ms) && ms > 0)).toBe(true);
    // Every message rendered once, in the order sent.
    const texts = await marnie.page.locator('.message-text', { hasText: `lat-${run}-` }).allInnerTexts();
    expect(texts).toEqual(Array.from({ length: MESSAGES }, (_, i) => `lat-${run}-${i}`));
    expect(p99).toBeLessThan(P99_BOUND_MS);
    expect(marnie.errors).toEqual([]);
  });
});
