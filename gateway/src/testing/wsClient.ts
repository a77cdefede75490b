/**
 * Websocket clients for the tests, all on /graphql and carrying a session cookie on the upgrade as a browser
 * would: graphql-ws (the library the web app uses) lazy with `collect`, or connected at once with timed events
 * (`openLive`), and a raw graphql-transport-ws socket that lets a test control every frame (`openSocket`).
 */
import { inspect } from 'node:util';
import WebSocket from 'ws';
import { createClient, type Client, type ClientOptions } from 'graphql-ws';

export const MESSAGE_EVENTS = 'subscription { messageEvents { kind id senderId receiverId message { id text } } }';
export const TICKET_EVENTS = 'subscription { ticketEvents { kind id ticket { id title } } }';
export const CUSTOMER_EVENTS = 'subscription { customerEvents { kind id customer { id name } } }';
export const MACRO_EVENTS = 'subscription { macroEvents { kind id macro { id name } } }';

/** The websocket address of a gateway's /graphql. */
export function wsUrl(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/graphql`;
}

/** A graphql-ws client whose sockets send `cookie` (and `socket`'s options: origin, TLS...) on the upgrade. */
export function wsClient(
  baseUrl: string,
  cookie: string,
  options: { origin?: string; lazy?: boolean; retryAttempts?: number; socket?: WebSocket.ClientOptions } & Pick<ClientOptions, 'on' | 'onNonLazyError'> = {},
): Client {
  const { origin, lazy, retryAttempts, socket = {}, ...rest } = options;
  const socketOptions: WebSocket.ClientOptions = { ...socket, headers: { ...socket.headers, cookie, ...(origin ? { origin } : {}) } };
  class CookieWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, socketOptions);
    }
  }
  return createClient({ url: wsUrl(baseUrl), webSocketImpl: CookieWebSocket, lazy: lazy ?? true, retryAttempts: retryAttempts ?? 0, ...rest });
}

/** Collects a subscription's events until told to stop. */
export function collect<T = Record<string, any>>(client: Client, query: string) {
  const events: T[] = [];
  const errors: unknown[] = [];
  let completed = false;
  const stop = client.subscribe<T>(
    { query },
    {
      next: (value) => events.push(value.data as T),
      error: (error) => errors.push(error),
      complete: () => (completed = true),
    },
  );
  return {
    events,
    errors,
    get completed() {
      return completed;
    },
    stop,
    /** Resolves once `count` events have arrived (or rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 5000): Promise<T[]> {
      const start = Date.now();
      while (events.length < count) {
        if (errors.length) throw new Error(`subscription error: ${inspect(errors[0], { depth: 4 })}`);
        if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${count} events, got ${events.length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events;
    },
  };
}

/** Resolves when the client connects (or rejects with the close event). */
export function connected(client: Client): Promise<void> {
  return new Promise((resolve, reject) => {
    const offOk = client.on('connected', () => (offOk(), offClosed(), resolve()));
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- callers assert on the close event's code
    const offClosed = client.on('closed', (event) => (offOk(), offClosed(), reject(event)));
  });
}

interface LiveEvent {
  at: number;
  data: Record<string, any>;
}

export interface Live {
  client: Client;
  /** Close codes seen by this socket (e.g. 4401 when the session ended, 1006 when the gateway died). */
  closes: number[];
  connected: Promise<void>;
  /** Events of one subscription, in arrival order, with arrival time (performance.now()). */
  subscribe(query: string): LiveSubscription;
  dispose(): Promise<void>;
}

interface LiveSubscription {
  events: LiveEvent[];
  /** The first event (already seen or to come) that matches. */
  waitFor(match: (data: Record<string, any>) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  errors: unknown[];
  stop(): void;
}

/** A graphql-ws client that connects at once (no retries), records its close codes and times its events. */
export function openLive(gatewayUrl: string, cookie: string, socketOptions: WebSocket.ClientOptions = {}): Live {
  const closes: number[] = [];
  let onConnected: () => void = () => {};
  let onFailed: (error: unknown) => void = () => {};
  const connected = new Promise<void>((resolve, reject) => {
    onConnected = resolve;
    onFailed = reject;
  });
  const client = wsClient(gatewayUrl, cookie, {
    socket: socketOptions,
    lazy: false,
    retryAttempts: 0,
    on: {
      connected: () => onConnected(),
      closed: (event) => {
        closes.push((event as { code: number }).code);
        onFailed(new Error(`socket closed before it was acknowledged (${(event as { code: number }).code})`));
      },
      error: (error) => onFailed(error),
    },
    onNonLazyError: () => {},
  });
  return {
    client,
    closes,
    connected,
    subscribe(query) {
      const events: LiveEvent[] = [];
      const errors: unknown[] = [];
      const waiters: { match: (d: Record<string, any>) => boolean; resolve: (e: LiveEvent) => void }[] = [];
      const stop = client.subscribe<Record<string, any>>(
        { query },
        {
          next: (result) => {
            if (result.errors) errors.push(result.errors);
            if (!result.data) return;
            const event = { at: performance.now(), data: result.data };
            events.push(event);
            for (const w of [...waiters]) {
              if (w.match(event.data)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.resolve(event);
              }
            }
          },
          error: (error) => errors.push(error),
          complete: () => {},
        },
      );
      return {
        events,
        errors,
        stop,
        waitFor(match, timeoutMs = 5_000) {
          const seen = events.find((e) => match(e.data));
          if (seen) return Promise.resolve(seen);
          return new Promise((resolve, reject) => {
            const waiter = { match, resolve: (e: LiveEvent) => (clearTimeout(timer), resolve(e)) };
            const timer = setTimeout(() => {
              waiters.splice(waiters.indexOf(waiter), 1);
              reject(new Error(`no matching event within ${timeoutMs} ms (${events.length} events seen, errors: ${JSON.stringify(errors)})`));
            }, timeoutMs);
            waiters.push(waiter);
          });
        },
      };
    },
    dispose: () => client.dispose() as Promise<void>,
  };
}

/**
 * Waits until a subscription is live end to end (the gateway has subscribed to the Redis channel): graphql-ws
 * has no acknowledgement for `subscribe`, so send probes through `trigger` until one comes back.
 */
export async function untilLive(
  subscription: LiveSubscription,
  trigger: (probe: string) => Promise<void>,
  isProbe: (data: Record<string, any>, probe: string) => boolean,
): Promise<void> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const probe = `probe-${attempt}-${Math.random().toString(36).slice(2, 8)}`;
    await trigger(probe);
    try {
      await subscription.waitFor((data) => isProbe(data, probe), 500);
      return;
    } catch {
      /* not live yet: try again */
    }
  }
  throw new Error('subscription never became live');
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
    const message = JSON.parse((data as Buffer).toString('utf8')); // ws delivers a text frame as one Buffer
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
        waiters.push({
          type,
          resolve: (m) => {
            clearTimeout(timer);
            messages.splice(messages.indexOf(m), 1);
            resolve(m);
          },
        });
      });
    },
  };
}

/** A graphql-transport-ws `subscribe` frame of exactly `size` bytes (padded in a variable), for frame-size limits. */
export function subscribeFrameOfSize(size: number): string {
  const base = JSON.stringify({ id: 'x', type: 'subscribe', payload: { query: 'subscription { ticketEvents { id } }', variables: { pad: '' } } });
  return base.replace('"pad":""', `"pad":"${'p'.repeat(size - base.length)}"`);
}

/** Opens an authenticated raw socket and waits for connection_ack. */
export async function openAckedSocket(httpUrl: string, cookie: string): Promise<RawSocket> {
  const socket = openSocket(httpUrl, { cookie });
  socket.send({ type: 'connection_init' });
  await Promise.race([socket.next('connection_ack'), socket.closed.then((c) => Promise.reject(new Error(`closed ${c.code} ${c.reason} ${c.refused ?? ''}`)))]);
  return socket;
}
