/**
 * Scenario 5 (scenarios/live.ts), the load side (its own process, on the load core): N graphql-ws subscribers,
 * each signed in as its own agent and subscribed to its own message topic (and presence; BENCH_LIVE_STREAMS=web: the web
 * app's eight subscriptions); then one agent sends M messages to
 * another over GraphQL, one at a time, and the latency from the start of each send to its receipt on the
 * receiver's socket is recorded. Prints one JSON line. Input: a JSON file given as argv[2].
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { Kind, print, visit, type DocumentNode, type FieldNode, type SelectionSetNode } from 'graphql';
import { median, percentile, sleep } from '../gateway/src/testing/measure.js';
import { MESSAGE_EVENTS, wsUrl } from '../gateway/src/testing/wsClient.js';
import * as web from '../web/src/gql/graphql.js';
import { rssMb } from './lib.js';

interface Input {
  url: string;
  gatewayPid: number;
  /** [userId, cookie] for every subscriber. */
  subscribers: [number, string][];
  senderId: number;
  receiverId: number;
  messages: number;
}

const input = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Input;
const PRESENCE_SUBSCRIPTION = 'subscription { presenceEvents { changes { userId online version } } }';
/** Presence is tracked for every socket either way; BENCH_LIVE_PRESENCE=0 leaves the sockets unsubscribed from it. */
const PRESENCE = process.env.BENCH_LIVE_PRESENCE !== '0';

/** What Apollo Client's cache does to every document it sends: `__typename` in every selection below the root. */
function withTypenames(document: DocumentNode): DocumentNode {
  const typename: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };
  return visit(document, {
    SelectionSet(node: SelectionSetNode, _key, parent) {
      if (parent && 'kind' in parent && parent.kind === Kind.OPERATION_DEFINITION) return undefined;
      if (node.selections.some((selection) => selection.kind === Kind.FIELD && selection.name.value === '__typename')) return undefined;
      return { ...node, selections: [...node.selections, typename] };
    },
  });
}

interface Stream {
  id: string;
  query: string;
  operationName?: string;
}
/**
 * BENCH_LIVE_STREAMS=web: every socket opens the eight subscriptions the web app opens (web/src/live/LiveUpdates.tsx),
 * with the text Apollo Client sends (its documents with `__typename` added); id 1 is the message stream, id 2 presence.
 * Otherwise the message stream and presence only, in their shortest form.
 */
const STREAMS: Stream[] =
  process.env.BENCH_LIVE_STREAMS === 'web'
    ? [
        web.LiveMessageEventsDocument,
        web.LivePresenceEventsDocument,
        web.LiveTicketEventsDocument,
        web.LiveCustomerEventsDocument,
        web.LiveMacroEventsDocument,
        web.LiveUnreadCountEventsDocument,
        web.LiveTypingEventsDocument,
        web.LiveViewCountEventsDocument,
      ].map((document, i) => {
        const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
        return { id: String(i + 1), query: print(withTypenames(document)), operationName: operation?.name?.value };
      })
    : [{ id: '1', query: MESSAGE_EVENTS }, ...(PRESENCE ? [{ id: '2', query: PRESENCE_SUBSCRIPTION }] : [])];
let presenceEvents = 0;

const received = new Map<number, number>(); // userId -> events received
const waiting = new Map<string, (at: number) => void>(); // text -> resolver, on the receiver's socket

function subscribe(userId: number, cookie: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(input.url), 'graphql-transport-ws', { headers: { cookie } });
    const timer = setTimeout(() => reject(new Error(`subscriber ${userId}: no ack`)), 30_000);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
    ws.on('message', (raw) => {
      const at = performance.now();
      const msg = JSON.parse((raw as Buffer).toString()) as {
        type: string;
        id?: string;
        payload?: { data?: { messageEvents?: { receiverId: number; message?: { text: string } } } };
      };
      if (msg.type === 'connection_ack') {
        // As the web app does: presence too (every socket hears every agent come online).
        for (const { id, query, operationName } of STREAMS) ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query, operationName } }));
        clearTimeout(timer);
        resolve(ws);
      } else if (msg.type === 'next' && msg.id === '2') {
        presenceEvents += 1;
      } else if (msg.type === 'next' && msg.id === '1') {
        received.set(userId, (received.get(userId) ?? 0) + 1);
        const event = msg.payload?.data?.messageEvents;
        if (event && userId === input.receiverId && event.message) waiting.get(event.message.text)?.(at);
      } else if (msg.type === 'ping') {
        ws.send(JSON.stringify({ type: 'pong' }));
      } else if (msg.type === 'error') {
        reject(new Error(`subscriber ${userId}: ${JSON.stringify(msg)}`));
      }
    });
    ws.on('error', reject);
    ws.on('close', (code, reason) => reject(new Error(`subscriber ${userId} closed: ${code} ${reason.toString()}`)));
  });
}

const rssBefore = rssMb(input.gatewayPid);
const started = performance.now();
const sockets: WebSocket[] = [];
// Connect in waves of 50 (a burst of 1,000 handshakes at once measures the accept queue, not the fan-out).
for (let i = 0; i < input.subscribers.length; i += 50) {
  sockets.push(...(await Promise.all(input.subscribers.slice(i, i + 50).map(([id, cookie]) => subscribe(id, cookie)))));
}
const connectSeconds = (performance.now() - started) / 1000;
await sleep(1000);
const rssOpen = rssMb(input.gatewayPid);

const sender = input.subscribers.find(([id]) => id === input.senderId)![1];
const SEND = 'mutation($to: Int!, $text: String!) { sendMessage(receiverId: $to, text: $text) { id } }';
async function send(text: string): Promise<{ latency: number; mutation: number }> {
  const arrived = new Promise<number>((resolve, reject) => {
    waiting.set(text, resolve);
    setTimeout(() => reject(new Error(`message "${text}" never arrived`)), 10_000);
  });
  const t0 = performance.now();
  const res = await fetch(`${input.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: sender },
    body: JSON.stringify({ query: SEND, variables: { to: input.receiverId, text } }),
  });
  const body = (await res.json()) as { errors?: unknown };
  if (body.errors) throw new Error(`sendMessage failed: ${JSON.stringify(body.errors)}`);
  const t1 = performance.now();
  const at = await arrived;
  waiting.delete(text);
  return { latency: at - t0, mutation: t1 - t0 };
}

for (let i = 0; i < 5; i++) await send(`warm-up ${i} ${Date.now()}`); // not counted
received.clear();
const latencies: number[] = [];
const mutations: number[] = [];
for (let i = 0; i < input.messages; i++) {
  const r = await send(`bench message ${i} ${Date.now()}`);
  latencies.push(r.latency);
  mutations.push(r.mutation);
  await sleep(5);
}
await sleep(500);
const rssAfter = rssMb(input.gatewayPid);
const socketsWithEvents = [...received.entries()].filter(([, n]) => n > 0);
const totalEvents = socketsWithEvents.reduce((s, [, n]) => s + n, 0);
for (const ws of sockets) ws.terminate();

console.log(
  JSON.stringify({
    subscribers: sockets.length,
    connectSeconds,
    rssBefore,
    rssOpen,
    rssAfter,
    p50: median(latencies),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    mutationP50: median(mutations),
    socketsWithEvents: socketsWithEvents.length,
    totalEvents,
    presenceEvents,
    streams: STREAMS.length,
  }),
);
process.exit(0);
