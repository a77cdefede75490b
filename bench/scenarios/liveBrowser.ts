/**
 * Scenario 5c: live delivery as an agent sees it, send -> rendered, in headless Chromium. Demo's page sends 100
 * messages to Marnie through GraphQL `sendMessage`, one after another 20 ms apart; Marnie's page, open on the
 * conversation, timestamps each card the moment it enters the DOM. The burst is the one the browser test checks for
 * order and completeness (e2e/burst.ts): the test asserts no time, this row reports it.
 */
import { existsSync } from 'node:fs';
import { burstRendered, sendBurst, watchBurst } from '../../e2e/burst.js';
import { percentile } from '../../gateway/src/testing/measure.js';
import { rows, type Workspace } from '../context.js';
import { log, progress } from '../lib.js';
import { agentPage, ARGS, CHROMIUM } from './web.js';

const MESSAGES = 100;
const GAP_MS = 20;
const MARNIE_ID = 2;

export async function liveInBrowser(ws: Workspace): Promise<void> {
  const scenario = `5c. Live in the browser: message send → rendered in the receiver's open conversation, ${MESSAGES} messages ${GAP_MS} ms apart (headless Chromium)`;
  if (!existsSync(CHROMIUM)) {
    rows.push({ scenario, value: `not measured: no Chromium at ${CHROMIUM}`, budget: 'p99 < 1 s', met: null });
    return;
  }
  progress('  5c. live in the browser: Demo sends, Marnie renders');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const demo = await agentPage(browser, ws.gw.url, ws.demo, '/view/tickets/all');
    const marnie = await agentPage(browser, ws.gw.url, ws.marnie, '/message/center');
    await marnie.locator('.conversation-picker .conversation', { hasText: 'Demo' }).first().click();
    await marnie.locator('.conversation-header h2', { hasText: 'Demo' }).waitFor();
    const run = Date.now().toString(36);
    await watchBurst(marnie, run);
    const burst = await sendBurst(demo, { run, count: MESSAGES, gapMs: GAP_MS, receiverId: MARNIE_ID });
    const renderedAt = await burstRendered(marnie, MESSAGES, 60_000);
    const latencies = renderedAt.map((at, i) => at - burst.sentAt[i]).sort((a, b) => a - b);
    const roundTrips = burst.answeredAt.map((at, i) => at - burst.sentAt[i]).sort((a, b) => a - b);
    const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
    log(`  5c. live in the browser: send → rendered p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    rows.push({
      scenario,
      p50,
      p99,
      budget: 'p99 < 1 s',
      met: p99 < 1000,
      note: `max ${latencies.at(-1)!.toFixed(1)} ms; the sender's HTTP round trip p50 ${percentile(roundTrips, 50).toFixed(1)} ms, p99 ${percentile(roundTrips, 99).toFixed(1)} ms`,
    });
  } finally {
    await browser.close();
  }
}
