import { makeVar } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { createClient, type Client } from 'graphql-ws';

/**
 * The one owner of the graphql-ws socket. Apollo's link chain (apollo/client.ts) sends subscriptions to
 * `liveLink`, which hands them to the client opened by `openLive()`. LiveUpdates opens it when a signed-in shell
 * mounts and closes it when the shell is signed out or switches session, so a socket always carries the session
 * cookie it was opened with: the server authenticates it at connection (4403 without a session) and closes it
 * on logout (4401).
 *
 * Lazy: the socket opens with the first subscription and closes with the last. A lost socket (network, gateway
 * restart) reconnects for ever with a randomised exponential backoff and graphql-ws resubscribes by itself;
 * 4401/4403 are not retried: the session is gone, which the shell then finds out (see LiveUpdates).
 */

/** offline: no live client (signed out); reconnecting: a socket was lost and is being re-established. */
export type LiveStatus = 'offline' | 'connecting' | 'connected' | 'reconnecting';

export const liveStatusVar = makeVar<LiveStatus>('offline');

/** Close codes that mean "no session": logout (or a session ended elsewhere) and a socket without a session. */
export const SESSION_ENDED = 4401;
export const NO_SESSION = 4403;

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
const KEEP_ALIVE_MS = 15_000;
const PONG_TIMEOUT_MS = 5_000;
const ACK_TIMEOUT_MS = 10_000;

export interface LiveHandlers {
  /** A lost socket is back (or the first one needed retries): fetch what was missed, once. */
  onReconnected(): void;
  /** The server closed the socket with 4401/4403. */
  onSessionLost(code: number): void;
}

/** ws:// or wss:// on the page's own host (the gateway serves both on one port; Vite's dev server proxies it). */
export function liveUrl(path = '/graphql'): string {
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Retry n (0-based) waits between half and all of min(30 s, 1 s * 2^n): 0.5-1 s, 1-2 s, 2-4 s, ... 15-30 s. */
export function backoffDelay(retries: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** retries);
  return ceiling / 2 + (random() * ceiling) / 2;
}

function closeCode(event: unknown): number | null {
  return typeof event === 'object' && event !== null && 'code' in event && typeof event.code === 'number' ? event.code : null;
}

const isSessionClose = (event: unknown) => {
  const code = closeCode(event);
  return code === SESSION_ENDED || code === NO_SESSION;
};

let current: Client | null = null;

/** Opens the live client for the signed-in session (closing any previous one). Returns its close function. */
export function openLive(handlers: LiveHandlers): () => void {
  closeLive();
  let everConnected = false;
  let dropped = false;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  const isCurrent = () => current === client;

  const client: Client = createClient({
    url: () => liveUrl(),
    lazy: true,
    retryAttempts: Infinity,
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, backoffDelay(retries))),
    // Browsers report a refused connection as an `error` Event, not a CloseEvent: retry that too. Never a lost session.
    shouldRetry: (event) => !isSessionClose(event),
    connectionAckWaitTimeout: ACK_TIMEOUT_MS,
    // A socket that silently died (sleep, a proxy dropping it) answers no ping: terminate it, which retries.
    keepAlive: KEEP_ALIVE_MS,
    on: {
      ping: (received) => {
        if (!received) pongTimer = setTimeout(() => client.terminate(), PONG_TIMEOUT_MS);
      },
      pong: (received) => {
        if (received) clearTimeout(pongTimer);
      },
      connecting: (isRetry) => {
        if (isCurrent()) liveStatusVar(isRetry || everConnected ? 'reconnecting' : 'connecting');
      },
      connected: (_socket, _payload, wasRetry) => {
        if (!isCurrent()) return;
        liveStatusVar('connected');
        const missed = dropped || wasRetry;
        everConnected = true;
        dropped = false;
        if (missed) handlers.onReconnected();
      },
      closed: (event) => {
        clearTimeout(pongTimer);
        if (!isCurrent()) return;
        if (isSessionClose(event)) {
          current = null;
          liveStatusVar('offline');
          handlers.onSessionLost(closeCode(event)!);
          return;
        }
        dropped = true;
        liveStatusVar('reconnecting');
      },
    },
  });
  current = client;
  liveStatusVar('connecting');
  return () => {
    if (isCurrent()) closeLive();
    else void client.dispose();
  };
}

/** Disposes the live client: its socket closes normally and its subscriptions complete. */
export function closeLive(): void {
  const client = current;
  current = null;
  liveStatusVar('offline');
  if (client) void client.dispose();
}

/** For the link: forwards to whichever client is open; without one (signed out) a subscription fails at once. */
const forwarder: Client = {
  subscribe(payload, sink) {
    if (!current) {
      sink.error(new Error('Live updates need a signed-in session'));
      return () => {};
    }
    return current.subscribe(payload, sink);
  },
  iterate(payload) {
    if (!current) throw new Error('Live updates need a signed-in session');
    return current.iterate(payload);
  },
  on(event, listener) {
    return current ? current.on(event, listener) : () => {};
  },
  terminate() {
    current?.terminate();
  },
  dispose() {
    closeLive();
  },
};

/** The terminating link for subscriptions (split off in apollo/client.ts). */
export function createLiveLink(): GraphQLWsLink {
  return new GraphQLWsLink(forwarder);
}
