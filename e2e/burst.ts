/**
 * A burst of live messages between two open pages, shared by the browser test that checks every message shows
 * once and in order (liveBurst.e2e.ts) and the bench row that times send -> render (bench/scenarios/liveBrowser.ts).
 * Plain playwright-core: no test runner here, so the bench can use it too.
 */
import type { Page } from 'playwright-core';

export interface Burst {
  /** The texts sent, in order. */
  texts: string[];
  /** When each send started, on the machine's clock (performance.timeOrigin + performance.now() in the sender's page). */
  sentAt: number[];
  /** When each send's HTTP answer arrived (for scale: the sender's own round trip). */
  answeredAt: number[];
}

/**
 * The receiver's page records when each card of the burst `run` first appears in the DOM (a MutationObserver), so
 * the time is the render's, not the test's polling.
 */
export async function watchBurst(receiver: Page, run: string): Promise<void> {
  await receiver.evaluate((source) => {
    const re = new RegExp(source);
    const seen: Record<string, number> = {};
    (window as unknown as { __burstSeen: Record<string, number> }).__burstSeen = seen;
    // No named function inside: tsx (the bench) compiles with esbuild's keepNames, whose __name helper does not
    // exist in the page.
    new MutationObserver(() => {
      const now = performance.timeOrigin + performance.now();
      for (const element of document.querySelectorAll('.message-text')) {
        const match = re.exec(element.textContent ?? '');
        if (match && !(match[1] in seen)) seen[match[1]] = now;
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, `^burst-${run}-(\\d+)$`);
}

/** The sender's page sends `count` messages through GraphQL `sendMessage`, one request after another, `gapMs` apart. */
export async function sendBurst(sender: Page, options: { run: string; count: number; gapMs: number; receiverId: number }): Promise<Burst> {
  const { sent, answered } = await sender.evaluate(async ({ count, gapMs, run, receiverId }) => {
    const sent: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < count; i++) {
      sent.push(performance.timeOrigin + performance.now());
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation($r: Int!, $t: String!) { sendMessage(receiverId: $r, text: $t) { id } }',
          variables: { r: receiverId, t: `burst-${run}-${i}` },
        }),
      });
      const body = (await response.json()) as { errors?: { message: string }[] };
      answered.push(performance.timeOrigin + performance.now());
      if (body.errors) throw new Error(body.errors.map((e) => e.message).join('; '));
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    return { sent, answered };
  }, options);
  return { texts: Array.from({ length: options.count }, (_, i) => `burst-${options.run}-${i}`), sentAt: sent, answeredAt: answered };
}

/** Waits until the receiver has rendered all `count` messages (at most `guardMs`), and returns when each appeared. */
export async function burstRendered(receiver: Page, count: number, guardMs: number): Promise<number[]> {
  await receiver.waitForFunction((n) => Object.keys((window as unknown as { __burstSeen: object }).__burstSeen).length >= n, count, { timeout: guardMs });
  const seen = await receiver.evaluate(() => (window as unknown as { __burstSeen: Record<string, number> }).__burstSeen);
  return Array.from({ length: count }, (_, i) => seen[String(i)]);
}
