/**
 * Scenario 5: live fan-out. bench/subscribers.ts (on the load core) opens one graphql-ws socket per agent and
 * times 100 messages from send to receipt; the gateway's memory is read with the sockets open.
 * BENCH_LIVE_STREAMS=web: each socket opens the web app's seven subscriptions instead of messages and presence.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUBSCRIBERS, gateway, rows, stop, tmp, type Workspace } from '../context.js';
import { lastJsonLine, log, progress, ROOT, runPinned } from '../lib.js';

const WEB_STREAMS = process.env.BENCH_LIVE_STREAMS === 'web';

interface LiveResult {
  subscribers: number;
  connectSeconds: number;
  rssBefore: number;
  rssOpen: number;
  rssAfter: number;
  p50: number;
  p99: number;
  mutationP50: number;
  socketsWithEvents: number;
  totalEvents: number;
  presenceEvents?: number;
  streams: number;
}

export async function live(ws: Workspace): Promise<void> {
  // A freshly started gateway, so its RSS is the sockets' cost and not the heap left grown by the load runs.
  await stop(ws.gw);
  const gw = (ws.gw = await gateway(ws.dir));
  const subscribers = ws.agents.slice(0, SUBSCRIBERS).map((id) => [id, ws.agentCookies.get(id)!] as [number, string]);
  const inputFile = join(tmp, 'live.json');
  writeFileSync(inputFile, JSON.stringify({ url: gw.url, gatewayPid: gw.pid, subscribers, senderId: ws.agents[0], receiverId: ws.agents[1], messages: 100 }));
  progress(`  5. live: ${subscribers.length} subscribers connecting`);
  const result = lastJsonLine<LiveResult>(await runPinned(['--import', 'tsx', join(ROOT, 'bench/subscribers.ts'), inputFile], 'live bench'));
  log(
    `  5. live: ${result.subscribers} sockets, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, RSS ${result.rssOpen.toFixed(0)} MB open (${result.rssBefore.toFixed(0)} MB before)`,
  );
  rows.push({
    scenario: `5a. Live: message delivery, send → receipt, ${result.subscribers} graphql-ws subscribers, 100 messages`,
    p50: result.p50,
    p99: result.p99,
    budget: 'p99 < 50 ms',
    met: result.p99 < 50,
    note: `events reached ${result.socketsWithEvents} of ${result.subscribers} sockets (${result.totalEvents} events: sender's and receiver's own topics only); sendMessage round trip p50 ${result.mutationP50.toFixed(1)} ms; presence on: every socket tracked and subscribed to presenceEvents (${result.presenceEvents ?? 0} presence events delivered while connecting)${WEB_STREAMS ? `; each socket opened the web app's ${result.streams} subscriptions` : ''}`,
  });
  rows.push({
    scenario: `5b. Live: gateway RSS with ${result.subscribers} sockets open`,
    value: `${result.rssOpen.toFixed(0)} MB (${result.rssBefore.toFixed(0)} MB before the sockets, ${result.rssAfter.toFixed(0)} MB after the messages)`,
    budget: '< 300 MB',
    met: result.rssOpen < 300,
    note: `a freshly started gateway; ${result.subscribers} sockets connected in ${result.connectSeconds.toFixed(1)} s`,
  });
}
