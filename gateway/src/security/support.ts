/** Helpers shared by the adversarial tests: figures, raw GraphQL with headers, raw graphql-ws sockets. */
import { WebSocket } from 'ws';
import type { GqlResult, TestClient } from '../testing/client.js';

/** Prints one measured figure; docs/security.md lists them with the command that reproduces them. */
export function figure(name: string, value: string | number): void {
  console.log(`[figure] ${name}: ${value}`);
}

/** A GraphQL POST with extra headers (client address, origin...). */
export async function gqlWith<T = Record<string, any>>(client: TestClient, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<GqlResult<T>> {
  const res = await client.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    json = { errors: [{ message: text }] };
  }
  return { status: res.status, headers: res.headers, ...(json as object) } as GqlResult<T>;
}

export function wsUrl(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/graphql`;
}

export interface RawSocket {
  ws: WebSocket;
  /** Resolves with the close code and reason (or the HTTP status of a refused upgrade, as `refused`). */
  closed: Promise<{ code: number; reason: string; refused?: number }>;
  messages: Record<string, any>[];
  /** Next message of this type. */
  next(type: string, timeoutMs?: number): Promise<Record<string, any>>;
  send(message: unknown): void;
}

/** A graphql-transport-ws socket without any client library, so a test controls every frame. */
export function openSocket(httpUrl: string, options: { cookie?: string; origin?: string; host?: string } = {}): RawSocket {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.host) headers.host = options.host;
  const ws = new WebSocket(wsUrl(httpUrl), 'graphql-transport-ws', { headers, origin: options.origin });
  const messages: Record<string, any>[] = [];
  const waiters: { type: string; resolve: (m: Record<string, any>) => void }[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    messages.push(message);
    for (const w of waiters.filter((x) => x.type === message.type)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(message);
    }
  });
  const closed = new Promise<{ code: number; reason: string; refused?: number }>((resolve) => {
    ws.on('unexpected-response', (_req, res) => {
      resolve({ code: 0, reason: 'upgrade refused', refused: res.statusCode });
      ws.terminate();
    });
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
    ws.on('error', () => {});
  });
  return {
    ws,
    closed,
    messages,
    send: (message) => {
      const send = () => ws.send(typeof message === 'string' ? message : JSON.stringify(message));
      if (ws.readyState === WebSocket.OPEN) send();
      else ws.once('open', send);
    },
    next: (type, timeoutMs = 5000) => {
      const seen = messages.find((m) => m.type === type);
      if (seen) {
        messages.splice(messages.indexOf(seen), 1);
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} message within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ type, resolve: (m) => {
          clearTimeout(timer);
          messages.splice(messages.indexOf(m), 1);
          resolve(m);
        } });
      });
    },
  };
}

/** Opens an authenticated socket and waits for connection_ack. */
export async function openAckedSocket(httpUrl: string, cookie: string): Promise<RawSocket> {
  const socket = openSocket(httpUrl, { cookie });
  socket.send({ type: 'connection_init' });
  await Promise.race([socket.next('connection_ack'), socket.closed.then((c) => Promise.reject(new Error(`closed ${c.code} ${c.reason} ${c.refused ?? ''}`)))]);
  return socket;
}
